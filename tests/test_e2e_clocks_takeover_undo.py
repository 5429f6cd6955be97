"""End to end: play at each one's pace — turn clocks, the takeover vote, /settings and /game undo.

The real bot process runs against the loopback Discord with its clock watcher
looking every half second (``CLOCK_CHECK_SECONDS=0.5``). The bot reads real
time, so the tests **simulate time passing** instead of sleeping: they move
the game's ``turn_since`` (when the wait began) and ``clock_due`` (when the
watcher must look next) into the past, in the bot's own SQLite database, in
the form the bot writes them (ISO-8601 UTC with microseconds). The watcher
then finds the clock due on its next look, exactly as if the hours had gone
by, and the tests poll the fake Discord for what it says.
"""

from __future__ import annotations

import asyncio
import json
import re
from contextlib import closing
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from games.contract import Game
from games.desert import GAME
from games.desert.board import index
from games.desert.model import PlaceCamel
from tests.e2e import (
    World,
    game_row,
    locale_of,
    next_player,
    public,
    refused,
    seat_users,
    stamp,
    text_of,
    thread_opened,
    until,
)

CHECK_SECONDS = 0.5
ENV = {"CLOCK_CHECK_SECONDS": str(CHECK_SECONDS)}
JUMP = "https://discord.com/channels/{guild}/{channel}/{message}"

pytestmark = pytest.mark.bot_env(ENV)


# --------------------------------------------------------------------------- helpers


def game_in(world: World, channel: Any) -> int:
    with closing(world.bot.database()) as db:
        (game_id,) = db.execute(
            "SELECT id FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel.id,)
        ).fetchone()
    return int(game_id)


def replaced(world: World, game_id: int, user: Any) -> str | None:
    with closing(world.bot.database()) as db:
        (value,) = db.execute(
            "SELECT replaced FROM seats WHERE game_id = ? AND user_id = ?", (game_id, user.id)
        ).fetchone()
    return None if value is None else str(value)


def pass_time(world: World, game_id: int, spent: timedelta) -> None:
    """Simulate ``spent`` going by since the wait began: the clock started that long
    ago, and the watcher is due to look now."""
    now = datetime.now(UTC)
    with closing(world.bot.database()) as db, db:
        db.execute(
            "UPDATE games SET turn_since = ?, clock_due = ? WHERE id = ?",
            (stamp(now - spent), stamp(now - timedelta(seconds=1)), game_id),
        )


def undo_rows(world: World, game_id: int) -> tuple[list[tuple[Any, ...]], set[int]]:
    """The move log (ply, seat, notation, undoes) and the plies taken back."""
    with closing(world.bot.database()) as db:
        moves = db.execute(
            "SELECT ply, seat, notation, undoes FROM moves WHERE game_id = ? ORDER BY ply",
            (game_id,),
        ).fetchall()
        undone = {r[0] for r in db.execute("SELECT ply FROM undone WHERE game_id = ?", (game_id,))}
    return moves, undone


def state_of(world: World, game_id: int) -> Any:
    return GAME.load(json.loads(game_row(world, game_id)["state"]))


def quiet_camels(engine: Game[Any, Any], state: Any, seat: int, water: bool) -> list[Any]:
    """Legal camels for ``seat``: on a water hole (``water``), or ones that show the
    mover nothing private (no water hole, no area closed around one)."""
    found = []
    for move in engine.legal_moves(state, seat):
        if not isinstance(move, PlaceCamel):
            continue
        on_water = bool(state.water[index(move.at)])
        if water != on_water:
            continue
        step = engine.play(state, seat, move)
        if not water and any(e.to is not None for e in step.events):
            continue
        found.append((move, step))
    return found


def command_for(
    world: World, game_id: int, user: Any, *, camels: int = 2, water: bool = False
) -> str:
    """A command for ``user``'s turn: the rider phase's one leader, or up to
    ``camels`` camels (the first on a water hole when ``water``), none of the
    others showing anything private."""
    state = state_of(world, game_id)
    seat = seat_users(world, game_id).index(user.id)
    assert GAME.to_act(state) == (seat,), f"not {user.username}'s turn"
    if state.phase != "camels":
        return GAME.format_move(GAME.legal_moves(state, seat)[0])
    placed = []
    for number in range(camels):
        choices = quiet_camels(GAME, state, seat, water and number == 0)
        assert choices, "no suitable camel"
        move, step = choices[0]
        placed.append(GAME.format_move(move))
        state = step.state
        if step.ends_turn:
            break
    return " ".join(placed)


async def play_turn(world: World, user: Any) -> Any:
    """A whole turn, publicly; returns the turn post."""
    game_id = game_in(world, world.channel)
    text = command_for(world, game_id, user)
    return await public(
        world, user, "desert move", {"notation": text}, locale=locale_of(world, user)
    )


async def open_game(
    world: World, players: list[Any], options: dict[str, Any], first: int
) -> tuple[int, Any]:
    """``players[0]`` opens a game (a thread), the others join, seat ``first`` (1-based,
    in joining order) starts. Returns the game id and the start post."""
    creator = players[0]
    opened = await public(world, creator, "game new", {"game": "desert", **options})
    world.channel = await thread_opened(world, opened)
    await world.fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
    for player in players[1:]:
        await public(world, player, "game join", locale=locale_of(world, player))
    started = await public(world, creator, "game start", {"first": str(first)})
    return game_in(world, world.channel), started


async def settings(world: World, user: Any, options: dict[str, Any]) -> str:
    it = await world.fake.slash(
        user, world.channel, "settings", options, locale=locale_of(world, user)
    )
    text = text_of(await it.final(timeout=20))
    assert it.ephemeral
    return text


async def status(world: World, user: Any) -> str:
    it = await world.fake.slash(user, world.channel, "game status", locale=locale_of(world, user))
    text = text_of(await it.final(timeout=20))
    assert it.ephemeral
    return text


def up_next(world: World, message: Any) -> Any:
    """Whoever the post pings to act next (None once the game is over)."""
    return next_player(world, message)


def buttons_now(world: World, message: Any) -> list[str]:
    """The custom ids a message has now (after the bot's edits)."""
    current = world.fake.find_message(message.id)
    assert current is not None
    return current.custom_ids()


def jump(world: World, message: Any) -> str:
    return JUMP.format(guild=world.channel.guild_id, channel=message.channel_id, message=message.id)


# --------------------------------------------------------------------------- 1 and 4


async def test_reminders_by_dm_and_in_the_thread_and_the_clock_shown(world: World) -> None:
    """Bob (French, by /settings) gets his half-time reminder by DM, once, with a
    link to the latest board post; Alice, who did not ask for DMs, is reminded in
    the thread; /settings dm_turn sends a DM when it is one's turn. The clock
    shows on turn posts and in /game status, and a game without one says so."""
    fake, alice, bob = world.fake, world.alice, world.bob
    parent = world.channel
    # Bob's client is English here: the French comes from his setting.
    told = await world.fake.slash(
        bob, world.channel, "settings", {"language": "fr", "dm_reminders": True}, locale="en-US"
    )
    text = text_of(await told.final(timeout=20))
    assert told.ephemeral
    assert "Langue : Français" in text, text
    assert "Rappels de la pendule par MP : oui" in text, text
    text = await settings(world, alice, {"dm_turn": True})
    assert "DM when it is your turn: on" in text and "Clock reminders by DM: off" in text, text

    game_id, started = await open_game(world, [alice, bob], {"clock": "fast"}, first=2)
    assert "Through the Desert" in text_of(started)  # Alice's game: in English
    assert f"<@{bob.id}>" in text_of(started) and "⏳ Time runs out <t:" in text_of(started)
    await until(lambda: game_row(world, game_id)["board_message_id"] == started.id, what="the id")
    row = game_row(world, game_id)
    assert row["clock_hours"] == 1.0 and row["clock_stage"] == 0

    # /game status: the clock and when it runs out, in the reader's language.
    assert re.search(
        r"Clock: fast, 1 hour a turn — time runs out <t:\d+:R>", await status(world, alice)
    )
    assert "Pendule : rapide, 1 heure par tour" in await status(world, bob)

    # Half of Bob's hour goes by: a DM in French, linking to the board post.
    posted = len(fake.messages(world.channel))
    dms = fake.dm_channel(bob)
    pass_time(world, game_id, timedelta(minutes=31))
    reminder = await fake.wait_for_message(dms, lambda m: "⏳" in text_of(m), timeout=10)
    assert "la moitié de votre temps est passée" in text_of(reminder), text_of(reminder)
    assert f"n°{game_id}" in text_of(reminder)
    assert jump(world, started) in text_of(reminder)
    # Several looks later: nothing more, to Bob or in the thread.
    await asyncio.sleep(3 * CHECK_SECONDS)
    assert len(fake.messages(dms)) == 1, [text_of(m) for m in fake.messages(dms)]
    assert len(fake.messages(world.channel)) == posted
    row = game_row(world, game_id)
    assert row["clock_stage"] == 1  # half-time reminder sent; next look when time runs out
    due = datetime.fromisoformat(row["clock_due"])
    assert timedelta(minutes=25) < due - datetime.now(UTC) < timedelta(minutes=30)

    # Bob moves: the clock restarts, and Alice, who asked for it, hears by DM.
    post = await play_turn(world, bob)
    assert up_next(world, post) is alice
    # (The bot notes the post's id just after posting it.)
    await until(lambda: game_row(world, game_id)["board_message_id"] == post.id, what="the id")
    assert game_row(world, game_id)["clock_stage"] == 0
    turn_dm = await fake.wait_for_message(fake.dm_channel(alice), lambda m: "🎲" in text_of(m))
    assert "Your turn in" in text_of(turn_dm)
    # The exact link (with the server's id) is test_the_turn_dm_links_to_the_post's.
    assert text_of(turn_dm).endswith(f"/{post.channel_id}/{post.id}")

    # Alice did not ask for reminders by DM: hers is said in the thread, with a ping.
    pass_time(world, game_id, timedelta(minutes=40))
    said = await fake.wait_for_message(
        world.channel, lambda m: "half your time has gone" in text_of(m), timeout=10, after=post
    )
    assert f"<@{alice.id}>" in text_of(said) and jump(world, post) in text_of(said)
    assert f"<@{bob.id}>" not in text_of(said)
    assert any(c.startswith("move:") for c in said.custom_ids())  # "Your move", one click away
    await asyncio.sleep(3 * CHECK_SECONDS)
    assert len(fake.messages(fake.dm_channel(alice))) == 1  # only the turn DM
    assert len([m for m in fake.messages(world.channel) if m.id > post.id]) == 1

    # A game without a clock: no deadline on its posts, "none" in its status.
    world.channel = parent
    _, untimed = await open_game(
        world, [alice], {"bots": 1, "clock": "none", "level": "easy"}, first=1
    )
    assert "⏳" not in text_of(untimed)
    text = await status(world, alice)
    assert "Clock: none" in text and "time runs out" not in text, text
    assert game_row(world, game_in(world, world.channel))["clock_due"] is None

    assert await world.bot.stop() == 0
    assert fake.unhandled == []
    log = world.bot.log.read_text(errors="replace")
    assert "Traceback" not in log, log[-3000:]


async def test_the_turn_dm_links_to_the_post(world: World) -> None:
    """/settings dm_turn: the DM links to the turn post in its server, like the
    reminders do (https://discord.com/channels/<server>/<thread>/<post>), not
    to ``/channels/@me/…``, which is the address of a direct message."""
    fake, alice, bob = world.fake, world.alice, world.bob
    assert "DM when it is your turn: on" in await settings(world, alice, {"dm_turn": True})
    await open_game(world, [alice, bob], {}, first=2)
    post = await play_turn(world, bob)
    assert up_next(world, post) is alice
    turn_dm = await fake.wait_for_message(fake.dm_channel(alice), lambda m: "🎲" in text_of(m))
    assert text_of(turn_dm).endswith(jump(world, post)), text_of(turn_dm)


# --------------------------------------------------------------------------- 2


async def test_time_runs_out_the_others_let_the_ai_play_and_the_player_comes_back(
    world: World,
) -> None:
    """Carol's whole day goes by: the thread pings Alice and Bob with a vote (Carol
    may not vote on herself). The first time both choose to wait: the clock
    starts again. The next time a majority (both; Alice changes her mind once)
    lets the AI play her seat, which moves at once; Carol takes it back by acting."""
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    game_id, started = await open_game(world, [alice, bob, carol], {"clock": "normal"}, first=3)
    assert f"<@{carol.id}>" in text_of(started) and "⏳ Time runs out" in text_of(started)
    version = world.bot.game_version()

    async def time_runs_out(after: Any) -> Any:
        pass_time(world, game_id, timedelta(hours=25))
        vote = await fake.wait_for_message(
            world.channel,
            lambda m: any(c.startswith("takeover:") for c in m.custom_ids()),
            10,
            after=after,
        )
        text = text_of(vote)
        assert f"<@{carol.id}>: your time is up" in text, text
        ask = text.split("time is up.", 2)[-1]
        assert f"<@{alice.id}>" in ask and f"<@{bob.id}>" in ask and "24 hours" in ask, text
        assert f"<@{carol.id}>" not in ask
        assert {m.id for m in vote.mentions} >= {alice.id, bob.id}
        assert game_row(world, game_id)["clock_stage"] == 2
        await asyncio.sleep(3 * CHECK_SECONDS)
        assert fake.messages(world.channel)[-1].id == vote.id  # said once
        return vote

    def button(vote: Any, choice: str) -> str:
        return str(next(c for c in vote.custom_ids() if c.endswith(f":{choice}")))

    async def click(user: Any, vote: Any, choice: str) -> str:
        it = await fake.click(user, vote, button(vote, choice), locale=locale_of(world, user))
        text = text_of(await it.final(timeout=20))
        assert not it.ephemeral
        return text

    # The first time, both wait: another day for Carol, the clock starts again.
    vote = await time_runs_out(started)
    own = await fake.click(carol, vote, button(vote, "bot"))
    assert "Only the other players" in text_of(await own.final(timeout=20))
    assert own.ephemeral
    tally = await click(alice, vote, "wait")
    assert "🤖 0 · ⏳ 1" in tally and "bob" in tally, tally
    waited = await click(bob, vote, "wait")
    assert "chose to wait" in waited and "another 24 hours" in waited, waited
    assert buttons_now(world, vote) == []  # the vote is closed
    row = game_row(world, game_id)
    assert row["clock_stage"] == 0 and replaced(world, game_id, carol) is None
    since = datetime.fromisoformat(row["turn_since"])
    assert abs(datetime.now(UTC) - since) < timedelta(minutes=1)
    assert datetime.fromisoformat(row["clock_due"]) - since == timedelta(hours=12)
    assert world.bot.game_version() == version  # nothing moved

    # The next time, a new vote. Alice first says "bot", then "wait", then "bot"
    # again: her last word counts, and one vote of two is no majority yet.
    vote = await time_runs_out(vote)
    assert "🤖 1 · ⏳ 0" in await click(alice, vote, "bot")
    assert "🤖 0 · ⏳ 1" in await click(alice, vote, "wait")
    tally = await click(alice, vote, "bot")
    assert "🤖 1 · ⏳ 0" in tally and "bob" in tally, tally
    assert replaced(world, game_id, carol) is None
    bot_id = button(vote, "bot")

    # Bob too: decided. The AI plays Carol's seat at once, in a turn post.
    second = await fake.click(bob, vote, bot_id, locale="fr")
    done = text_of(await second.final(timeout=20))
    assert "The AI now plays" in done and "carol" in done, done
    assert buttons_now(world, vote) == []  # the vote is closed
    assert replaced(world, game_id, carol) == "away"
    post = await fake.wait_for_message(
        world.channel, lambda m: any(c.startswith("move:") for c in m.custom_ids()), 20, after=vote
    )
    assert "carol" in text_of(post) and f"<@{carol.id}>" not in text_of(post)
    carols = seat_users(world, game_id).index(carol.id)
    assert undo_rows(world, game_id)[0][-1][1] == carols  # the AI moved for her seat
    mover = up_next(world, post)
    assert mover in (alice, bob)

    # Carol comes back: any command through her seat gives it back to her.
    back = await fake.slash(carol, world.channel, "desert move", {"notation": "pass"})
    assert "Welcome back" in text_of(await back.final(timeout=20))
    assert back.ephemeral
    assert replaced(world, game_id, carol) is None

    # The others play; then it is Carol's turn, and she is pinged, not played for.
    while mover is not carol:
        assert mover is not None
        post = await play_turn(world, mover)
        mover = up_next(world, post)
    assert f"<@{carol.id}>" in text_of(post)
    post = await play_turn(world, carol)
    assert "carol" in text_of(post)
    assert replaced(world, game_id, carol) is None

    assert await world.bot.stop() == 0
    assert fake.unhandled == []
    assert "Traceback" not in world.bot.log.read_text(errors="replace")


# --------------------------------------------------------------------------- 3


async def test_undo_free_asked_agreed_refused_and_forbidden(world: World) -> None:
    """A first camel is taken back at once; a whole turn needs Bob's consent (given,
    then refused); a camel on a water hole, whose value only the mover saw, can
    never be taken back."""
    fake, alice, bob = world.fake, world.alice, world.bob
    game_id, started = await open_game(world, [alice, bob], {}, first=1)
    mover = up_next(world, started)
    # Through the leaders, and the first camel round (Alice places one, Bob two).
    while state_of(world, game_id).phase != "camels" or mover is not alice:
        assert mover is not None
        post = await play_turn(world, mover)
        mover = up_next(world, post)
    post = await play_turn(world, alice)
    post = await play_turn(world, bob)
    assert up_next(world, post) is alice
    assert state_of(world, game_id).allowance == 2

    # Free: Alice's first camel of two, a private step, taken back at once.
    camel = command_for(world, game_id, alice, camels=1)
    step = await fake.slash(alice, world.channel, "desert move", {"notation": camel})
    await step.final(timeout=20)
    assert step.ephemeral
    moves, _ = undo_rows(world, game_id)
    ply = moves[-1][0]
    assert moves[-1][2] == camel
    version = world.bot.game_version()
    took = await public(world, alice, "game undo")
    assert f"took back {camel}" in text_of(took), text_of(took)
    assert f"<@{alice.id}>" in text_of(took)  # still her turn: the two camels to place
    assert world.bot.game_version() == version + 1
    moves, undone = undo_rows(world, game_id)
    assert moves[-1][2:] == ("undo", ply) and undone == {ply}
    assert state_of(world, game_id).allowance == 2

    # Asked: her whole turn (two camels) passed the turn to Bob.
    post = await play_turn(world, alice)
    assert up_next(world, post) is bob
    turn = undo_rows(world, game_id)[0][-1]
    asked = await public(world, alice, "game undo")
    assert "the turn has passed" in text_of(asked) and f"<@{bob.id}>" in text_of(asked)
    assert world.bot.game_version() == version + 2  # nothing taken back yet
    yes = next(c for c in asked.custom_ids() if c.endswith(":yes"))
    mine = await fake.click(alice, asked, yes)
    assert "Only the other players" in text_of(await mine.final(timeout=20)) and mine.ephemeral
    agreed = await fake.click(bob, asked, yes, locale="fr")
    assert "took back" in text_of(await agreed.final(timeout=20))
    back = await fake.wait_for_message(
        world.channel, lambda m: "took back" in text_of(m) and bool(m.custom_ids()), after=asked
    )
    assert up_next(world, back) is alice
    assert world.bot.game_version() == version + 3
    moves, undone = undo_rows(world, game_id)
    assert moves[-1][2:] == ("undo", turn[0]) and turn[0] in undone
    assert GAME.to_act(state_of(world, game_id)) == (seat_users(world, game_id).index(alice.id),)

    # Refused: Alice plays her turn again and asks; Bob says no; the move stands.
    post = await play_turn(world, alice)
    assert up_next(world, post) is bob
    asked = await public(world, alice, "game undo")
    stands = world.bot.game_version()
    no = next(c for c in asked.custom_ids() if c.endswith(":no"))
    refusal = await fake.click(bob, asked, no, locale="fr")
    assert "refused: the move stands" in text_of(await refusal.final(timeout=20))
    assert buttons_now(world, asked) == []
    assert world.bot.game_version() == stands
    assert GAME.to_act(state_of(world, game_id)) == (seat_users(world, game_id).index(bob.id),)

    # A move meanwhile ends a request: Alice asks again, Bob plays instead of
    # answering, and his late agreement changes nothing.
    post = await play_turn(world, bob)
    post = await play_turn(world, alice)
    asked = await public(world, alice, "game undo")
    post = await play_turn(world, bob)
    assert up_next(world, post) is alice
    yes = next(c for c in asked.custom_ids() if c.endswith(":yes"))
    late = await fake.click(bob, asked, yes, locale="fr")
    assert "Cette demande est terminée" in text_of(await late.final(timeout=20))
    assert late.ephemeral
    moved = world.bot.game_version()
    post = await play_turn(world, alice)
    assert up_next(world, post) is bob and world.bot.game_version() == moved + 1

    # Forbidden: Bob's camel on a water hole showed him its value; he may not
    # choose again knowing it (told privately, in his French).
    camel = command_for(world, game_id, bob, camels=1, water=True)
    step = await fake.slash(bob, world.channel, "desert move", {"notation": camel}, locale="fr")
    await step.final(timeout=20)
    assert step.ephemeral
    await refused(world, bob, "game undo", {}, "impossible de le reprendre", locale="fr")

    assert await world.bot.stop() == 0
    assert fake.unhandled == []
    assert "Traceback" not in world.bot.log.read_text(errors="replace")
