"""End to end: a move saved just before the bot process dies is still announced.

The real bot process runs against the loopback Discord. A move is saved before
its interaction is answered (the public "thinking…" defer comes right after the
save), so the fake holds the bot's callback of that move (``hold_callback``):
the move is in the database, the bot waits on Discord, and the test kills it
there with SIGKILL, no race involved. Restarted, the bot must post the turn
once, ping the next player, and turn the dead "thinking…" into a link to it.

The bot waits ``ANNOUNCE_GRACE`` before posting a turn another handler may
still be posting; the test lets that time pass as the clock tests do, by
moving the stored due time (``announce_due``) into the past.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import closing
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games.desert import GAME
from tests.e2e import (
    World,
    first_moves_command,
    game_row,
    next_player,
    public,
    stamp,
    text_of,
    thread_opened,
)

CHECK_SECONDS = 0.5
# ANSWER_WITHIN_SECONDS=0: "thinking…" is said once the move is saved, before the
# post is made, as when the post takes long (AI seats thinking, a busy machine).
ENV = {"CLOCK_CHECK_SECONDS": str(CHECK_SECONDS), "CPU_WORKERS": "0", "ANSWER_WITHIN_SECONDS": "0"}
QUIET = 4 * CHECK_SECONDS  # several looks of the late-post job
LATE = "Posted late"

pytestmark = pytest.mark.bot_env(ENV)


def moves_of(world: World, game_id: int) -> list[tuple[int, str]]:
    with closing(world.bot.database()) as db:
        rows = db.execute(
            "SELECT seat, notation FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
        )
        return [(int(seat), str(notation)) for seat, notation in rows]


def let_grace_pass(world: World, game_id: int) -> None:
    """As if the time the saving handler had to post its turn had gone by."""
    past = stamp(datetime.now(UTC) - timedelta(seconds=1))
    with closing(world.bot.database()) as db, db:
        db.execute("UPDATE games SET announce_due = ? WHERE id = ?", (past, game_id))


def whole_turn(world: World, user: Any) -> str:
    """``user``'s whole turn as one command (the first legal moves)."""
    row = game_row(world)
    state = GAME.load(json.loads(row["state"]))
    with closing(world.bot.database()) as db:
        (seat,) = db.execute(
            "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", (row["id"], user.id)
        ).fetchone()
    assert GAME.to_act(state) == (seat,), f"not {user.username}'s turn"
    return first_moves_command(state, seat)


async def test_a_move_saved_before_a_crash_is_posted_once_after_the_restart(world: World) -> None:
    """Bob's move is saved; the bot is SIGKILLed before it answers (its "thinking…"
    is shown). Restarted, it posts Bob's turn once, pinging Alice (and DMing her,
    as she asked with /settings dm_turn), and the "thinking…" becomes a link to it."""
    fake, alice, bob = world.fake, world.alice, world.bob
    told = await fake.slash(alice, world.channel, "settings", {"dm_turn": True})
    await told.final(timeout=20)
    opened = await public(world, alice, "game new", {"game": "desert"})
    world.channel = thread = await thread_opened(world, opened)
    await fake.wait_for_message(thread, lambda m: bool(m.custom_ids()), timeout=20)
    await public(world, bob, "game join", locale="fr")
    await public(world, alice, "game start", {"first": "1"})
    first = await public(world, alice, "desert move", {"notation": whole_turn(world, alice)})
    assert next_player(world, first) is bob

    # Bob moves; the bot saves it, defers ("thinking…") and is killed right there.
    game_id, seen = game_row(world)["id"], len(moves_of(world, game_row(world)["id"]))
    command = whole_turn(world, bob)
    hold = fake.hold_callback("desert move")
    it = await fake.slash(bob, thread, "desert move", {"notation": command}, locale="fr")
    await hold.reached()
    world.bot.kill()
    assert world.bot.process is not None
    await asyncio.wait_for(world.bot.process.wait(), 10)
    world.bot.process = None
    hold.release()
    assert moves_of(world, game_id)[seen:] == [(1, command)]  # saved…
    placeholder = it.message
    assert placeholder is not None and placeholder.loading  # …and "thinking…" forever
    row = game_row(world)
    assert row["announce_version"] == row["version"] > row["posted_version"]
    before = fake.messages(thread)[-1]
    dms = len(fake.messages(fake.dm_channel(alice)))

    let_grace_pass(world, game_id)
    await world.bot.start()
    post = await fake.wait_for_message(thread, lambda m: LATE in text_of(m), 20, after=before)
    await asyncio.sleep(QUIET)  # several looks later: still one post

    assert [m.id for m in fake.messages(thread) if m.id > before.id] == [post.id]
    assert "**bob**:" in text_of(post), text_of(post)  # Bob's turn, told in the game's English
    assert next_player(world, post) is alice and "board.png" in post.files
    assert alice in post.notified  # a new message: Discord notifies her
    assert not placeholder.loading
    assert text_of(placeholder).endswith(f"/{thread.id}/{post.id}"), text_of(placeholder)
    dm = fake.messages(fake.dm_channel(alice))[dms:]
    assert len(dm) == 1 and f"/{post.id}" in text_of(dm[0]), [text_of(m) for m in dm]
    row = game_row(world)
    assert (row["posted_version"], row["board_message_id"]) == (row["version"], post.id)
    assert row["announce_due"] is None and row["announce_hook"] is None
    assert "Traceback" not in world.bot.log_text()

    # And the game goes on from that post.
    after = await public(world, alice, "desert move", {"notation": whole_turn(world, alice)})
    assert next_player(world, after) is bob
