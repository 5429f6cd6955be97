"""End to end: an overloaded bot still answers every interaction within Discord's
3 seconds (cogs/deadline.py).

Through the real bot process and the loopback Discord, which refuses any
answer later than 3 s ("This interaction failed"). Two kinds of overload are
made for real, no mock:

- the database: the test holds SQLite's write lock (``BEGIN IMMEDIATE`` from
  its own connection) for longer than the acknowledgement budget, so the
  move's save waits. The player hears "thinking…" privately in time; once the
  lock goes, the move is saved and posted publicly as always, and the
  placeholder goes;
- the CPU pool: with one worker busy drawing a slow board (the test game's
  ``NIM_BOARD_SECONDS``), the move autocomplete cannot get its list in time. It
  answers a single "busy" entry instead of nothing; that entry, sent as a
  move, is refused privately and changes nothing.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from contextlib import closing

import pytest

from cogs.deadline import BUSY_VALUE, COMPLETE_SECONDS, SAVE_SECONDS
from cogs.suggest import INDEX_MOST
from games.desert import GAME
from tests.e2e import (
    World,
    board_png,
    first_moves_command,
    game_row,
    next_player,
    public,
    suggestions,
    text_of,
)
from tests.fakediscord.interactions import CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE

# Seconds the Nim board takes to draw: past the autocomplete's budget (1.8 s)
# counted from a query sent 0.3 s into the board, with a second to spare.
SLOW_BOARD = 3.0
LOCK_HELD = SAVE_SECONDS + 1.0  # past the budget, within SQLite's busy_timeout (5 s)

pytestmark = pytest.mark.bot_env(
    {"EXTRA_GAMES": "tests.nim", "NIM_BOARD_SECONDS": str(SLOW_BOARD), "CPU_WORKERS": "1"}
)


async def desert_game(world: World) -> None:
    """Alice and Bob at Through the Desert in the world's channel, in it (no thread)."""
    fake, alice = world.fake, world.alice
    setting = await fake.slash(alice, world.channel, "game settings", {"threads": False})
    await setting.final(timeout=20)
    await public(world, alice, "game new", {"game": "desert"})
    await public(world, world.bob, "game join", locale="fr")
    board_png(await public(world, alice, "game start", {"first": "1"}))


def whole_turn(world: World) -> tuple[int, str]:
    """The seat to act and its first legal whole turn, from the database."""
    row = game_row(world)
    state = GAME.load(json.loads(row["state"]))
    (seat,) = GAME.to_act(state)
    return seat, first_moves_command(state, seat)


async def test_a_move_the_database_holds_up_is_acknowledged_privately_then_posted(
    world: World,
) -> None:
    fake = world.fake
    await desert_game(world)
    # Unhurried, the turn post is the command's answer itself: one message, pinging.
    seat, command = whole_turn(world)
    mover = world.alice if seat == 0 else world.bob
    it = await fake.slash(mover, world.channel, "desert move", {"notation": command})
    post = await it.final(timeout=20)
    assert it.record.response is not None and it.record.response.type == CHANNEL_MESSAGE
    assert post is it.record.original and not post.ephemeral
    board_png(post)
    assert (waiting := next_player(world, post)) is not None and waiting in post.notified

    seat, command = whole_turn(world)
    mover = world.alice if seat == 0 else world.bob
    version = world.bot.game_version()
    posts = len(fake.messages(world.channel))

    with closing(sqlite3.connect(world.bot.workdir / "games.db", isolation_level=None)) as db:
        db.execute("BEGIN IMMEDIATE")  # the bot's save now waits for SQLite's lock
        it = await fake.slash(mover, world.channel, "desert move", {"notation": command})
        callback = await it.response(timeout=3)
        assert it.ack_latency is not None and it.ack_latency < 3
        # Acknowledged before the save could finish: privately, "thinking…".
        assert callback.type == DEFERRED_CHANNEL_MESSAGE and it.ephemeral
        assert world.bot.game_version() == version
        await asyncio.sleep(LOCK_HELD - it.ack_latency)
        db.execute("ROLLBACK")

    post = await it.final(timeout=20)
    assert not post.ephemeral and post.channel_id == world.channel.id
    board_png(post)  # the turn post, in the channel for everyone…
    assert world.bot.game_version() == version + 1
    assert len(fake.messages(world.channel)) == posts + 1
    waiting = next_player(world, post)
    assert waiting is not None and waiting is not mover and waiting in post.notified
    assert it.record.original is not None and it.record.original.deleted  # …the placeholder gone
    assert not it.record.rejected


async def test_autocomplete_says_busy_in_time_when_the_pool_cannot_answer(world: World) -> None:
    fake, alice = world.fake, world.alice
    guild = fake.world.guilds[world.channel.guild_id]
    desert = world.channel
    await desert_game(world)
    # Past the leaders' placements (hundreds of moves, every query asks a worker):
    # autocomplete then lists a board's moves once and filters them where it is.
    while True:
        row = game_row(world)
        state = GAME.load(json.loads(row["state"]))
        (seat,) = GAME.to_act(state)
        mover = world.alice if seat == 0 else world.bob
        if len(GAME.legal_moves(state, seat)) <= INDEX_MOST:
            break
        command = first_moves_command(state, seat)
        await public(world, mover, "desert move", {"notation": command})
    listed = await suggestions(world, mover, "desert move", {"notation": ""}, "notation")
    assert len(listed) > 1 and all(c["value"] != BUSY_VALUE for c in listed)

    # A Nim game in another channel; its French board takes the one worker for seconds.
    world.channel = fake.add_channel(guild, "nim")
    await public(world, alice, "game new", {"game": "nim", "bots": 1})
    await asyncio.wait_for(public(world, alice, "game start", {}), 30)
    slow = await fake.slash(alice, world.channel, "game board", locale="fr")
    await asyncio.sleep(0.3)  # the slow board is being drawn
    world.channel = desert

    # The next keystrokes on the same board are answered from the list the first
    # one made, on the event loop: at once, though no worker is free.
    loop = asyncio.get_running_loop()
    asked = loop.time()
    typed = listed[-1]["value"][:2]
    filtered = await suggestions(world, mover, "desert move", {"notation": typed}, "notation")
    assert loop.time() - asked < 1.0
    assert filtered and all(c["value"] != BUSY_VALUE for c in filtered)

    # A whole move typed: what may follow it needs a worker, and none answers in time.
    asked = loop.time()
    whole = {"notation": listed[-1]["value"] + " "}
    busy = await suggestions(world, mover, "desert move", whole, "notation")
    answered = loop.time() - asked
    assert answered < 3 and answered >= COMPLETE_SECONDS - 1.0
    assert [c["value"] for c in busy] == [BUSY_VALUE]
    french = mover is world.bob
    assert ("Occupé" if french else "Busy") in busy[0]["name"], busy

    # Sent as a move, the busy entry is refused privately and changes nothing.
    version, posts = world.bot.game_version(), len(fake.messages(desert))
    it = await fake.slash(mover, desert, "desert move", {"notation": BUSY_VALUE})
    refusal = await it.final(timeout=20)
    assert it.ephemeral and ("occupé" if french else "busy") in text_of(refusal).lower()
    assert world.bot.game_version() == version and len(fake.messages(desert)) == posts
    assert "board.png" in (await slow.final(timeout=30)).files
