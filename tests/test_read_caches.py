"""What the event loop no longer reads from the database each time, and how
fresh it stays: players' /settings (bot/player_settings.py), the channel's
game for autocomplete and the loaded states (bot/sessions.py), and the budget
interactions are answered within (cogs/deadline.py).

Each runs on a real SQLite file; "another process" is a second storage and
service on the same file, writing behind the first one's back.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.errors import UserError
from bot.player_settings import PlayerSettings
from bot.service import GameService
from bot.sessions import RECENT_SECONDS
from bot.storage import Storage, UserSettings, open_storage
from cogs.deadline import MAX_QUEUED, seconds_left, within
from games.contract import bot_move
from tests.service_games import ALICE, BOB, CHANNEL, start_desert


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_settings_are_read_once_per_period_and_at_once_after_a_change_here(
    storage: Storage, sqlite_url: str
) -> None:
    clock = Clock()
    settings = PlayerSettings(storage, fresh_seconds=30, clock=clock)
    assert await settings.language(ALICE) is None
    other = await open_storage(sqlite_url)  # another process of the bot
    try:
        await other.set_user_settings(ALICE, UserSettings(lang="fr"))
        clock.now += 29
        assert await settings.language(ALICE) is None  # not read again yet
        clock.now += 1
        assert await settings.language(ALICE) == "fr"  # read again after 30 s
        await storage.set_user_settings(ALICE, UserSettings(lang="en"))
        settings.forget(ALICE)  # changed through this process: seen at once
        assert await settings.language(ALICE) == "en"
    finally:
        await other.close()


async def test_settings_changed_through_the_service_show_in_the_next_interaction(
    service: GameService,
) -> None:
    """The language as each interaction applies it, and the turn DMs' choice."""
    settings = service.sessions.settings
    assert await settings.language(BOB) is None
    await service.absence.change_settings(BOB, lang="fr")
    assert await settings.language(BOB) == "fr"
    assert not (await settings.of(BOB)).dm_turn
    await service.absence.change_settings(BOB, lang="auto", dm_turn=True)
    assert await settings.language(BOB) is None
    assert (await settings.of(BOB)).dm_turn


async def test_autocomplete_sees_this_process_moves_at_once_and_others_within_seconds(
    service: GameService, sqlite_url: str, storage: Storage
) -> None:
    clock = Clock()
    service.sessions.clock = clock
    session = await start_desert(service, BOB)
    shown = await service.sessions.recent_in_channel(CHANNEL)
    assert shown is not None and shown.record.version == session.record.version

    # A move saved through this process: the next keystroke shows it.
    seat = session.awaited[0]
    move = bot_move(session.engine, session.spec.bot, session.state, seat, 1)
    user = ALICE if seat == 0 else BOB
    saved = await service.play(CHANNEL, user, session.engine.format_command([move]))
    shown = await service.sessions.recent_in_channel(CHANNEL)
    assert shown is not None and shown.record.version == saved.after.record.version

    # A move saved by another process: shown once RECENT_SECONDS have passed.
    other_storage = await open_storage(sqlite_url)
    try:
        other = GameService(other_storage, service.games)
        now = await other.require_session(CHANNEL)
        seat = now.awaited[0]
        move = bot_move(now.engine, now.spec.bot, now.state, seat, 2)
        theirs = await other.play(
            CHANNEL, ALICE if seat == 0 else BOB, now.engine.format_command([move])
        )
    finally:
        await other_storage.close()
    clock.now += RECENT_SECONDS / 2
    stale = await service.sessions.recent_in_channel(CHANNEL)
    assert stale is not None and stale.record.version == saved.after.record.version
    clock.now += RECENT_SECONDS / 2
    fresh = await service.sessions.recent_in_channel(CHANNEL)
    assert fresh is not None and fresh.record.version == theirs.after.record.version
    assert fresh.state == theirs.after.state


async def test_a_move_is_checked_against_the_database_when_the_cache_is_behind(
    service: GameService, sqlite_url: str
) -> None:
    """A move starts from the channel's game as this process last saw it; another
    process's moves since neither refuse a move that is now legal nor let one act
    twice."""
    clock = Clock()  # frozen: what this process saw stays "recent" all along
    service.sessions.clock = clock
    session = await start_desert(service, BOB)
    assert await service.sessions.recent_in_channel(CHANNEL) is not None
    first = session.awaited[0]
    first_user = ALICE if first == 0 else BOB
    move = bot_move(session.engine, session.spec.bot, session.state, first, 1)
    command = session.engine.format_command([move])

    other_storage = await open_storage(sqlite_url)  # another process of the bot
    try:
        other = GameService(other_storage, service.games)
        theirs = await other.play(CHANNEL, first_user, command)  # the first player moves there
        now = theirs.after
        second = now.awaited[0]
        second_user = ALICE if second == 0 else BOB
        reply = bot_move(now.engine, now.spec.bot, now.state, second, 2)

        # Here the cache still says it is the first player's turn: his command sent
        # again (a second device) loses the race to the first, as when both are
        # sent at once: refused as stale, not played twice.
        again = await service.play(CHANNEL, first_user, command)
        raise AssertionError(f"played twice: {again}")
    except UserError as refused:
        assert refused.key == "game.stale"
    finally:
        await other_storage.close()
    assert [m.seat for m in await service.storage.moves(session.id)] == [first]

    # …and the second player's move, not his turn by the cache, is played.
    saved = await service.play(CHANNEL, second_user, now.engine.format_command([reply]))
    assert saved.after.record.version == now.record.version + 1
    assert [m.seat for m in await service.storage.moves(session.id)] == [first, second]


async def test_a_state_written_here_is_not_loaded_again(service: GameService) -> None:
    session = await start_desert(service, BOB)
    seat = session.awaited[0]
    move = bot_move(session.engine, session.spec.bot, session.state, seat, 1)
    saved = await service.play(
        CHANNEL, ALICE if seat == 0 else BOB, session.engine.format_command([move])
    )
    again = await service.get(session.id)
    assert again is not None and again.record.version == saved.after.record.version
    assert again.state is saved.after.state  # the very state the move made
    service.forget_cached_states()
    loaded = await service.get(session.id)
    assert loaded is not None and loaded.state is not saved.after.state
    assert loaded.state == saved.after.state  # …and the same once loaded from JSON


def test_the_budget_counts_from_discords_clock_within_bounds() -> None:
    now = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
    assert seconds_left(now, 2.0, now) == 2.0
    assert seconds_left(now - timedelta(seconds=0.5), 2.0, now) == 1.5
    # A host clock behind Discord's: no time counted; far ahead: at most MAX_QUEUED.
    assert seconds_left(now + timedelta(seconds=5), 2.0, now) == 2.0
    assert seconds_left(now - timedelta(seconds=60), 2.0, now) == 2.0 - MAX_QUEUED


async def test_within_waits_at_most_its_seconds_and_cancels_with_its_caller() -> None:
    finished, quick = await within(asyncio.sleep(0, "done"), 1.0)
    assert finished and quick.result() == "done"
    started = asyncio.get_running_loop().time()
    finished, slow = await within(asyncio.sleep(5, "late"), 0.05)
    assert not finished and asyncio.get_running_loop().time() - started < 1
    assert not slow.done()  # still running: the caller decides what to do with it
    slow.cancel()

    gate = asyncio.Event()
    waiter = asyncio.ensure_future(within(gate.wait(), 10))
    await asyncio.sleep(0)
    inner = [t for t in asyncio.all_tasks() if "Event.wait" in repr(t.get_coro())]
    waiter.cancel()
    await asyncio.gather(waiter, return_exceptions=True)
    await asyncio.sleep(0)
    assert inner and all(t.cancelled() for t in inner)  # the work went with its caller
