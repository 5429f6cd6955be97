"""End to end: flooding a channel, against the real bot process and the loopback Discord.

Ten rapid `/game new` leave exactly the tables the caps allow, with no stray
post or thread, and a table the database refuses once its thread is open
leaves none either; a repeated `/game undo` or `/game cancel` is asked
publicly once, the repeats answered privately (then slowed down); a player
who resigned no longer reads his seat's private information.
"""

from __future__ import annotations

import asyncio
import json
from contextlib import closing
from pathlib import Path
from typing import Any

from games.desert import GAME
from tests.e2e import BotProcess, World, locale_of, public, refused, text_of, thread_opened, until
from tests.fakediscord import FakeDiscord, permissions

TRIES = 10


async def new_table(world: World, user: Any) -> Any:
    """One `/game new` (Through the Desert); the interaction once answered."""
    it = await world.fake.slash(
        user, world.channel, "game new", {"game": "desert"}, locale=locale_of(world, user)
    )
    await it.final(timeout=20)
    assert it.ack_latency < 3
    return it


def lobbies_of(world: World, user: Any) -> int:
    with closing(world.bot.database()) as db:
        (count,) = db.execute(
            "SELECT COUNT(*) FROM games WHERE creator_id = ? AND status = 'lobby'", (user.id,)
        ).fetchone()
    return int(count)


def thread_of(world: World, it: Any) -> Any:
    """The thread opened from the interaction's public line (None until it is)."""
    return world.fake.thread_of(it.message)


def has_lobby_post(world: World, thread: Any) -> bool:
    return thread is not None and any(
        c.startswith("lobby:join:") for m in world.fake.messages(thread) for c in m.custom_ids()
    )


async def test_ten_rapid_game_new_leave_no_stray_post_or_thread(world: World) -> None:
    """Alice one after the other, then Bob ten at once: only the tables the caps
    allow are opened; every other call is refused privately, in the caller's
    language, before anything is posted or created."""
    fake, alice, bob = world.fake, world.alice, world.bob

    answers = []
    for _ in range(TRIES):  # each as soon as the one before is done
        answers.append(it := await new_table(world, alice))
        if not it.ephemeral:
            await until(lambda: has_lobby_post(world, thread_of(world, it)), "the lobby")
    assert [it.ephemeral for it in answers] == [False, False] + [True] * (TRIES - 2)
    refusals = [text_of(it.message) for it in answers[2:]]
    assert "You already have 2 open tables" in refusals[0], refusals[0]
    assert all("again in" in text for text in refusals[1:]), refusals

    burst = await asyncio.gather(*(new_table(world, bob) for _ in range(TRIES)))
    opened = [it for it in burst if not it.ephemeral]
    assert 1 <= len(opened) <= 2
    in_french = ("Doucement", "déjà en train d'ouvrir", "tables ouvertes")
    for it in burst:
        if it.ephemeral:  # slowed down, his first call still opening, or the cap
            assert any(words in text_of(it.message) for words in in_french), text_of(it.message)

    tables = 2 + len(opened)
    # The channel holds one line per table, each pointing at its thread, and
    # each thread holds its lobby: nothing empty, nothing left "opening…".
    await until(
        lambda: all(fake.thread_of(m) is not None for m in fake.messages(world.channel)),
        "every line's thread",
    )
    lines = fake.messages(world.channel)
    assert len(lines) == tables, [text_of(m) for m in lines]
    threads = fake.threads(world.channel)
    assert len(threads) == tables
    await until(lambda: all(has_lobby_post(world, t) for t in threads), "every thread's lobby")
    await until(
        lambda: all(
            "opened a table" in text_of(m) or "a ouvert une table" in text_of(m)
            for m in fake.messages(world.channel)
        ),
        "every line to say its table is open",
    )
    assert lobbies_of(world, alice) == 2 and lobbies_of(world, bob) == len(opened)
    assert fake.unhandled == []
    assert "Traceback" not in world.bot.log_text()


async def test_a_table_the_database_refuses_leaves_nothing_behind(tmp_path: Path) -> None:
    """Another writer holds the database while Alice opens a table: the caps can
    be read, so the line and the thread go up, but the lobby cannot be written.
    The line is deleted, the empty thread archived (the bot is invited without
    Manage Threads, so it may not delete it), the error told to her alone."""
    fake = await FakeDiscord().start()
    alice = fake.add_user("alice")
    readme_rights = permissions.DEFAULT_BOT & ~permissions.MANAGE_THREADS
    guild = fake.add_guild("Caravan", alice, bot_permissions=readme_rights)
    channel = fake.add_channel(guild, "desert")
    bot = BotProcess(fake, tmp_path, guild.id)
    try:
        await bot.start()
        with closing(bot.database()) as other_writer:
            other_writer.execute("BEGIN IMMEDIATE")
            it = await fake.slash(alice, channel, "game new", {"game": "desert"})
            (error,) = await it.wait_followups(1, timeout=30)  # the bot waits 5 s for the lock
            other_writer.rollback()
        assert error.ephemeral and "Something went wrong" in text_of(error)
        assert it.message is None  # the "opening a table…" line is gone
        assert fake.messages(channel) == []
        assert len(fake.threads(channel)) == 1 and fake.threads(channel, archived=False) == []
        assert fake.unhandled == []

        # The database free again, the same command opens the table.
        again = await fake.slash(alice, channel, "game new", {"game": "desert"})
        await again.final(timeout=20)
        assert not again.ephemeral
        await until(lambda: len(fake.threads(channel, archived=False)) == 1, "the new thread")
    finally:
        bot.kill()
        await fake.stop()


# --------------------------------------------------------------------------- asked once


def game_here(world: World) -> tuple[int, Any, list[int]]:
    """The thread's game: its id, its state and its seats' users."""
    with closing(world.bot.database()) as db:
        game_id, state = db.execute(
            "SELECT id, state FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (world.channel.id,),
        ).fetchone()
        seats = [
            int(row[0] or 0)
            for row in db.execute(
                "SELECT user_id FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
            )
        ]
    return int(game_id), GAME.load(json.loads(state)), seats


async def play_a_turn(world: World, user: Any) -> Any:
    """The first legal command of ``user``'s turn, publicly."""
    _, state, seats = game_here(world)
    seat = seats.index(user.id)
    assert GAME.to_act(state) == (seat,)
    text = GAME.format_move(GAME.legal_moves(state, seat)[0])
    return await public(
        world, user, "desert move", {"notation": text}, locale=locale_of(world, user)
    )


def posts_saying(world: World, *words: str) -> list[Any]:
    return [m for m in world.fake.messages(world.channel) if any(w in text_of(m) for w in words)]


async def private_answers(world: World, user: Any, command: str, times: int) -> list[str]:
    """``command`` again and again: each answer private, nothing posted, the game unchanged."""
    texts = []
    for _ in range(times):
        version, posted = world.bot.game_version(), len(world.fake.messages(world.channel))
        it = await world.fake.slash(user, world.channel, command, locale=locale_of(world, user))
        message = await it.final(timeout=20)
        assert it.ephemeral and it.ack_latency < 3, text_of(message)
        assert world.bot.game_version() == version
        assert len(world.fake.messages(world.channel)) == posted
        texts.append(text_of(message))
    return texts


async def test_undo_and_cancel_requests_are_asked_once(world: World) -> None:
    """Alice's undo request pings Bob and Carol once; asking again is answered
    only to her (still open, then slowed down). The same for Bob's proposal to
    cancel. Carol resigns: her hand is no longer hers to read."""
    fake, alice, bob, carol = world.fake, world.alice, world.bob, world.carol
    started = await public(world, alice, "game new", {"game": "desert"})
    world.channel = await thread_opened(world, started)
    await fake.wait_for_message(world.channel, lambda m: bool(m.custom_ids()), timeout=20)
    for player in (bob, carol):
        await public(world, player, "game join", locale=locale_of(world, player))
    await public(world, alice, "game start", {"first": "1"})
    await play_a_turn(world, alice)  # her turn has passed: the others must agree

    asked = await public(world, alice, "game undo")
    assert "asks to take back" in text_of(asked)
    assert f"<@{bob.id}>" in text_of(asked) and f"<@{carol.id}>" in text_of(asked)
    again = await private_answers(world, alice, "game undo", 6)
    assert all("still open" in text for text in again[:4]), again
    assert all("again in" in text for text in again[4:]), again
    assert len(posts_saying(world, "asks to take back")) == 1

    proposed = await public(world, bob, "game cancel", locale="fr")
    assert "agrees to cancel" in text_of(proposed)  # the game's language
    again = await private_answers(world, bob, "game cancel", 3)
    assert all("déjà ouvert" in text for text in again[:2]), again
    assert "Doucement" in again[2]
    assert len(posts_saying(world, "agrees to cancel")) == 1

    question = await fake.slash(carol, world.channel, "game resign")
    prompt = await question.final(timeout=20)
    button = next(c for c in prompt.custom_ids() if c.startswith("resign:"))
    await (await fake.click(carol, prompt, button)).final(timeout=20)
    await refused(world, carol, "game hand", {}, "You left this game")
    board = await fake.slash(carol, world.channel, "game board")
    await board.final(timeout=20)
    assert board.ephemeral and "board.png" in board.message.files  # a spectator's board
    mine = await fake.slash(alice, world.channel, "game hand")
    assert "You left" not in text_of(await mine.final(timeout=20)) and mine.ephemeral
    assert fake.unhandled == []
    assert "Traceback" not in world.bot.log_text()
