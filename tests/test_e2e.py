"""End to end: the real bot process (`python -m bot`) against a loopback Discord.

A whole game of Through the Desert — two people and a bot seat — is played
through the autocomplete-driven `/desert move`, with a restart of the bot in
the middle, bad input from players, non-players and the wrong player, and the
leaderboard at the end.
"""

from __future__ import annotations

import asyncio
import os
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.service import GameService
from bot.storage import open_storage
from games.desert import GAME
from tests.e2e import ROOT, World, board_png, next_player, open_world, public, refused
from tests.fakediscord import FakeDiscord


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with open_world(tmp_path) as opened:
        yield opened


async def play_one_move(world: World, player: Any) -> Any:
    """Pick the first legal move the autocomplete offers, as a player would."""
    locale = "fr" if player is world.bob else None
    choices = await world.fake.autocomplete(
        player, world.channel, "desert move", {"notation": ""}, focused="notation", locale=locale
    )
    assert choices, "the player to act got no suggestions"
    assert len(choices) <= 25
    command = choices[0]["value"]
    # Type a whole camel and a space: the suggestions continue with a second
    # camel, so a two-camel turn goes in one command.
    more = await world.fake.autocomplete(
        player,
        world.channel,
        "desert move",
        {"notation": command + " "},
        focused="notation",
        locale=locale,
    )
    longer = [c["value"] for c in more if c["value"].startswith(command + " ")]
    # Without a second camel to add, the command itself is still offered.
    assert longer or command in [c["value"] for c in more]
    if longer:
        command = longer[0]
    return await public(world, player, "desert move", {"notation": command}, locale=locale)


async def test_a_whole_game_over_discord(world: World) -> None:
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    first_sync = fake.commands.bulk_overwrites
    assert first_sync >= 1
    assert {c["name"] for c in fake.commands.list(guild_id=world.channel.guild_id)} == {
        "game",
        "desert",
        "leaderboard",
    }

    # Only registered, playable games are offered.
    game = next(
        c for c in fake.commands.list(guild_id=world.channel.guild_id) if c["name"] == "game"
    )
    new = next(o for o in game["options"] if o["name"] == "new")
    offered = next(o for o in new["options"] if o["name"] == "game")["choices"]
    assert [c["value"] for c in offered] == ["desert"]

    opened = await public(world, alice, "game new", {"game": "desert", "bots": 1})
    assert "Through the Desert" in opened.content
    joined = await public(world, bob, "game join", locale="fr")
    assert "a rejoint" in joined.content
    await refused(world, bob, "game start", {}, "Seul le créateur", locale="fr")
    started = await public(world, alice, "game start")
    board_png(started)
    mover = next_player(world, started)
    assert mover in (alice, bob) or "🤖" in started.content

    moves = 0
    message = started
    restarted = checked_bad_input = False
    while mover is not None:
        assert moves < 400, "the game does not end"
        if not checked_bad_input and moves == 4:
            await check_bad_input(world, mover)
            checked_bad_input = True
        if not restarted and moves == 8:
            await restart_mid_game(world, mover)
            restarted = True
        if moves == 2:
            message = await place_one_piece(world, mover)
        else:
            message = await play_one_move(world, mover)
        board_png(message)
        moves += 1
        mover = next_player(world, message)

    assert restarted and checked_bad_input
    assert "over" in message.content or "terminée" in message.content
    assert "🏆" in message.content
    # The breakdown names every scoring category.
    assert re.search(r"(water|eau) \d+", message.content)

    ranking = await public(world, carol, "leaderboard")
    text = ranking.embeds[0]["description"]
    assert f"<@{alice.id}>" in text and f"<@{bob.id}>" in text  # losers included
    assert await world.bot.stop() == 0
    assert fake.unhandled == []


async def place_one_piece(world: World, player: Any) -> Any:
    """The friendlier /desert place: pick a colour, the spaces are suggested."""
    locale = "fr" if player is world.bob else None
    first = await world.fake.autocomplete(
        player, world.channel, "desert move", {"notation": ""}, focused="notation", locale=locale
    )
    colour = first[0]["value"].split()[0]
    spaces = await world.fake.autocomplete(
        player,
        world.channel,
        "desert place",
        {"colour": colour, "space": ""},
        focused="space",
        locale=locale,
    )
    assert spaces and all(re.fullmatch(r"[A-S]\d{1,2}", c["value"]) for c in spaces)
    message = await public(
        world,
        player,
        "desert place",
        {"colour": colour, "space": spaces[0]["value"]},
        locale=locale,
    )
    assert f"{spaces[0]['value']}" in message.content
    return message


async def check_bad_input(world: World, mover: Any) -> None:
    other = world.bob if mover is world.alice else world.alice
    garbage = ["banana", "   ", "x" * 2000, "🐪🐪🐪", "orange Z99", "pass"]
    for text in garbage:
        await refused(world, mover, "desert move", {"notation": text}, "", locale="en-US")
    await refused(world, world.carol, "desert move", {"notation": "white C5"}, "not a player")
    other_locale = "fr" if other is world.bob else "en-US"
    expected = "pas votre tour" if other is world.bob else "not your turn"
    await refused(
        world, other, "desert move", {"notation": "white C5"}, expected, locale=other_locale
    )
    # Someone with nothing to do gets no suggestions.
    assert (
        await world.fake.autocomplete(
            other, world.channel, "desert move", {"notation": ""}, focused="notation"
        )
        == []
    )
    assert (
        await world.fake.autocomplete(
            world.carol, world.channel, "desert move", {"notation": ""}, focused="notation"
        )
        == []
    )


async def restart_mid_game(world: World, mover: Any) -> None:
    """SIGTERM, start again: the game is still there and commands are not re-synced."""
    syncs = world.fake.commands.bulk_overwrites
    assert await world.bot.stop() == 0
    await world.bot.start()
    assert world.fake.commands.bulk_overwrites == syncs
    status = await world.fake.slash(mover, world.channel, "game status")
    text = (await status.final(timeout=20)).content
    expected = "en cours" if mover is world.bob else "in progress"
    assert status.ephemeral and expected in text
    assert f"<@{mover.id}>" in text  # still the same player's turn


async def test_a_rejected_token_exits_with_advice(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        env = {
            **{k: v for k, v in os.environ.items() if not k.startswith("DISCORD_")},
            **fake.bot_env(),
            "DISCORD_TOKEN": "not-the-right-token",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'games.db'}",
        }
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            "bot",
            cwd=ROOT,
            env=env,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        _, stderr = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 2
    assert b"Discord refused DISCORD_TOKEN" in stderr


async def test_ai_turns_interrupted_by_a_crash_are_played_after_restart(
    world: World,
) -> None:
    """The move was saved but the bot died before the AI seat answered."""
    fake, alice = world.fake, world.alice
    await public(world, alice, "game new", {"game": "desert", "bots": 1})
    started = await public(world, alice, "game start")
    assert next_player(world, started) is alice
    world.bot.kill()
    await world.bot.process.wait()  # type: ignore[union-attr]

    # What the dead bot had saved: Alice's move, with the AI seat now due.
    storage = await open_storage(world.bot.env["DATABASE_URL"])
    try:
        service = GameService(storage)
        session = await service.require_session(world.channel.id)
        seat = session.seat_of(alice.id)
        assert seat is not None
        move = GAME.format_move(GAME.legal_moves(session.state, seat)[0])
        report = await service.play(world.channel.id, alice.id, move)
        assert any(report.after.ai_plays(s) for s in report.after.to_act)
    finally:
        await storage.close()

    last = fake.messages(world.channel)[-1]
    await world.bot.start()
    message = await fake.wait_for_message(
        world.channel, lambda m: "🤖" in m.content, timeout=20, after=last
    )
    assert message.interaction_id is None  # posted through the channel, not a token
    assert f"<@{alice.id}>" in message.content  # her turn again, pinged
    board_png(message)
