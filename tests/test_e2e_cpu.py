"""A slow board never delays another game's answer: boards are drawn in worker
processes, not on the bot's event loop.

Through the real bot process: Oasis Nim's board is made to take 2 s to draw
(the test game's ``NIM_BOARD_SECONDS``). While one is being drawn, a Desert
player's ``/game board`` in another channel is acknowledged at once and
answered long before it. With ``CPU_WORKERS=0`` (drawing on the event loop)
the same Desert answer waits for the slow board: the control that shows the
test can tell.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tests.e2e import World, board_png, open_world, public

SLOW = 2.0


async def open_games(world: World) -> object:
    """A Nim game (Alice against a bot) in a second channel, a Desert game
    (Alice and Bob) in the first; returns the Nim channel."""
    fake, alice, bob = world.fake, world.alice, world.bob
    setting = await fake.slash(alice, world.channel, "game settings", {"threads": False})
    await setting.final(timeout=20)
    guild = fake.world.guilds[world.channel.guild_id]
    desert = world.channel
    world.channel = fake.add_channel(guild, "nim")
    await public(world, alice, "game new", {"game": "nim", "bots": 1})
    nim = world.channel
    world.channel = desert
    await public(world, alice, "game new", {"game": "desert"})
    await public(world, bob, "game join", locale="fr")
    board_png(await public(world, alice, "game start", {}))
    world.channel = nim
    await asyncio.wait_for(public(world, alice, "game start", {}), 20)
    world.channel = desert
    return nim


@pytest.mark.parametrize(("workers", "held_up"), [("2", False), ("0", True)])
async def test_a_slow_board_does_not_hold_up_another_game(
    tmp_path: Path, workers: str, held_up: bool
) -> None:
    env = {"EXTRA_GAMES": "tests.nim", "NIM_BOARD_SECONDS": str(SLOW), "CPU_WORKERS": workers}
    async with open_world(tmp_path, env) as world:
        nim = await open_games(world)
        fake, alice = world.fake, world.alice
        # A French board of Nim has not been drawn yet: it takes SLOW seconds.
        slow = await fake.slash(alice, nim, "game board", locale="fr")
        await asyncio.sleep(0.3)  # the slow board is being drawn
        loop = asyncio.get_running_loop()
        asked = loop.time()
        quick = await fake.slash(alice, world.channel, "game board")
        answer = await quick.final(timeout=20)
        answered_after = loop.time() - asked
        slow_done_first = "board.png" in slow.files
        assert quick.ephemeral and "board.png" in answer.files
        assert "board.png" in (await slow.final(timeout=20)).files
        assert quick.ack_latency is not None
        if held_up:
            # Drawing on the event loop: Desert's answer waited for Nim's board.
            assert quick.ack_latency > SLOW / 2, "the control was not held up: the test cannot tell"
        else:
            assert quick.ack_latency < 0.5
            assert answered_after < SLOW / 2
            assert not slow_done_first
