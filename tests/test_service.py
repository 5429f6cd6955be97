"""The game service on a real SQLite file with the real Desert engine."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.errors import UserError
from bot.service import GameService, Session
from bot.storage import Storage, open_storage
from games.core import InvalidMove, MoveError
from games.desert import GAME
from games.desert.ai import choose_move

GUILD, CHANNEL = 100, 200
ALICE, BOB, CAROL = 1, 2, 3


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[Storage]:
    store = await open_storage(f"sqlite:///{tmp_path / 'games.db'}")
    yield store
    await store.close()


@pytest.fixture
def service(storage: Storage) -> GameService:
    return GameService(storage)


async def lobby(service: GameService, bots: int = 0, *joiners: int) -> Session:
    session = await service.create(
        kind_key="desert",
        guild_id=GUILD,
        channel_id=CHANNEL,
        user_id=ALICE,
        name="Alice",
        bots=bots,
    )
    for user in joiners:
        session = await service.join(CHANNEL, user, f"user{user}")
    return session


async def play_turn_as_ai(service: GameService, session: Session) -> Session:
    """The human to act plays what the AI would: a real command through play()."""
    seat = session.to_act[0]
    user = session.seat(seat).user_id
    assert user is not None
    move = choose_move(session.state, seat)
    report = await service.play(CHANNEL, user, GAME.format_move(move))
    return (await service.advance(report.after)).after


async def test_lobby_lifecycle(service: GameService) -> None:
    session = await lobby(service, 1, BOB)
    assert [s.name for s in session.record.seats] == ["Alice", "🤖 Zahra", "user2"]
    with pytest.raises(UserError) as info:
        await service.join(CHANNEL, BOB, "Bob")
    assert info.value.key == "lobby.already_joined"
    with pytest.raises(UserError) as info:
        await service.start(CHANNEL, BOB)
    assert info.value.key == "lobby.only_creator_starts"
    report = await service.start(CHANNEL, ALICE)
    assert report.after.record.status == "active"
    assert report.after.state is not None
    assert sorted(s.name for s in report.after.record.seats) == ["Alice", "user2", "🤖 Zahra"]
    with pytest.raises(UserError) as info:
        await service.join(CHANNEL, CAROL, "Carol")
    assert info.value.key == "lobby.already_started"


async def test_one_game_per_channel_and_limits(service: GameService) -> None:
    await lobby(service)
    with pytest.raises(UserError) as info:
        await lobby(service)
    assert info.value.key == "lobby.channel_busy"
    with pytest.raises(UserError) as info:
        await service.start(CHANNEL, ALICE)
    assert info.value.key == "lobby.too_few"
    for user in (BOB, CAROL, 4, 5):
        await service.join(CHANNEL, user, str(user))
    with pytest.raises(UserError) as info:
        await service.join(CHANNEL, 6, "six")
    assert info.value.key == "lobby.full"


async def test_unimplemented_games_are_refused_politely(service: GameService) -> None:
    with pytest.raises(UserError) as info:
        await service.create(
            kind_key="nomadi", guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="A"
        )
    assert info.value.key == "game.not_implemented"
    assert await service.session_in(CHANNEL) is None


async def test_creator_leaving_closes_the_lobby(service: GameService) -> None:
    await lobby(service, 0, BOB)
    session, cancelled = await service.leave(CHANNEL, BOB)
    assert not cancelled and len(session.record.seats) == 1
    _, cancelled = await service.leave(CHANNEL, ALICE)
    assert cancelled
    assert await service.session_in(CHANNEL) is None


async def test_refusals_change_nothing(service: GameService, storage: Storage) -> None:
    await lobby(service, 0, BOB)
    started = (await service.start(CHANNEL, ALICE)).after
    mover = started.seat(started.to_act[0]).user_id
    other = BOB if mover == ALICE else ALICE
    attempts: list[tuple[int, str, type[Exception]]] = [
        (CAROL, "white C5", UserError),  # not a player
        (other, "white C5", UserError),  # not his turn
        (mover, "", UserError),
        (mover, "x" * 2000, UserError),
        (mover, "🐪🐪", MoveError),
        (mover, "banana split", MoveError),
        (mover, "orange Z99", InvalidMove),
    ]
    for user, text, error in attempts:
        with pytest.raises(error):
            await service.play(CHANNEL, user, text)
    after = await service.require_session(CHANNEL)
    assert after.record.version == started.record.version
    assert after.record.state == started.record.state
    assert await storage.moves(started.id) == []


async def test_stale_version_is_refused(service: GameService) -> None:
    await lobby(service, 0, BOB)
    started = (await service.start(CHANNEL, ALICE)).after
    mover = started.seat(started.to_act[0]).user_id
    assert mover is not None
    move = GAME.format_move(GAME.legal_moves(started.state, started.to_act[0])[0])
    with pytest.raises(UserError) as info:
        await service.play(CHANNEL, mover, move, expected_version=started.record.version - 1)
    assert info.value.key == "game.stale"


async def test_two_concurrent_moves_exactly_one_lands(
    service: GameService, storage: Storage
) -> None:
    await lobby(service, 0, BOB)
    started = (await service.start(CHANNEL, ALICE)).after
    seat = started.to_act[0]
    mover = started.seat(seat).user_id
    assert mover is not None
    first, second = GAME.legal_moves(started.state, seat)[:2]
    results = await asyncio.gather(
        service.play(CHANNEL, mover, GAME.format_move(first)),
        service.play(CHANNEL, mover, GAME.format_move(second)),
        return_exceptions=True,
    )
    landed = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(landed) == 1 and len(refused) == 1
    assert isinstance(refused[0], UserError) and refused[0].key in {
        "game.stale",
        "game.not_your_turn",
    }
    assert len(await storage.moves(started.id)) == 1


async def test_whole_game_with_bots_feeds_the_leaderboard(
    service: GameService, storage: Storage
) -> None:
    await lobby(service, 2, BOB)
    session = (await service.start(CHANNEL, ALICE)).after
    session = (await service.advance(session)).after
    for _ in range(400):
        if session.record.status != "active":
            break
        assert not any(session.ai_plays(s) for s in session.to_act)
        session = await play_turn_as_ai(service, session)
    assert session.record.status == "finished"
    outcome = session.outcome
    assert outcome is not None
    results = await storage.results(session.id)
    assert sorted(r.score for r in results) == sorted(outcome.scores)
    board = await storage.leaderboard(GUILD)
    assert {row.user_id for row in board} == {ALICE, BOB}  # bots are not ranked
    assert all(row.games == 1 for row in board)
    # The move log replays to the same final state from the seed.
    replay = GAME.new(4, session.record.seed, {})
    for record in await storage.moves(session.id):
        for move in GAME.parse(replay, record.seat, record.notation):
            replay = GAME.apply(replay, record.seat, move)
    assert GAME.dump(replay) == session.record.state


async def test_resignation_in_two_player_game_ends_it(
    service: GameService, storage: Storage
) -> None:
    await lobby(service, 0, BOB)
    await service.start(CHANNEL, ALICE)
    report = await service.resign(CHANNEL, BOB)
    assert report.ended
    rows = {row.user_id: row for row in await storage.results(report.after.id)}
    assert rows[ALICE].won and not rows[BOB].won
    assert await service.session_in(CHANNEL) is None


async def test_resigned_seat_is_played_by_the_ai(service: GameService) -> None:
    await lobby(service, 0, BOB, CAROL)
    session = (await service.start(CHANNEL, ALICE)).after
    report = await service.resign(CHANNEL, CAROL)
    assert not report.ended
    session = (await service.advance(report.after)).after
    carol_seat = next(s.seat for s in session.record.seats if s.user_id == CAROL)
    assert session.ai_plays(carol_seat)
    assert carol_seat not in session.to_act
    with pytest.raises(UserError) as info:
        await service.play(CHANNEL, CAROL, "pass")
    assert info.value.key == "game.you_resigned"


async def test_games_survive_a_restart(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'restart.db'}"
    first = await open_storage(url)
    service = GameService(first)
    await lobby(service, 0, BOB)
    session = (await service.start(CHANNEL, ALICE)).after
    session = await play_turn_as_ai(service, session)
    await first.close()

    second = await open_storage(url)
    try:
        reloaded = await GameService(second).require_session(CHANNEL)
        assert reloaded.record.version == session.record.version
        assert GAME.dump(reloaded.state) == GAME.dump(session.state)
    finally:
        await second.close()


async def test_reminders_wait_then_repeat_once_per_period(service: GameService) -> None:
    await lobby(service, 0, BOB)
    session = (await service.start(CHANNEL, ALICE)).after
    now = datetime.now(UTC)
    day = timedelta(hours=24)
    assert await service.due_reminders(GUILD, now, day) == []
    later = now + timedelta(hours=25)
    due = await service.due_reminders(GUILD, later, day)
    assert [s.id for s in due] == [session.id]
    await service.mark_reminded(due[0], later)
    assert await service.due_reminders(GUILD, later + timedelta(hours=1), day) == []
    assert len(await service.due_reminders(GUILD, later + timedelta(hours=25), day)) == 1
    # A move resets the clock.
    session = await play_turn_as_ai(service, session)
    assert await service.due_reminders(GUILD, now + timedelta(hours=1), day) == []


async def test_no_reminder_while_only_ai_seats_are_due(service: GameService) -> None:
    await lobby(service, 1)
    session = (await service.start(CHANNEL, ALICE)).after
    session = (await service.advance(session)).after
    await service.resign(CHANNEL, ALICE)
    later = datetime.now(UTC) + timedelta(days=3)
    assert await service.due_reminders(GUILD, later, timedelta(hours=24)) == []


async def test_cancel_needs_the_creator_or_an_admin(service: GameService) -> None:
    await lobby(service, 0, BOB)
    await service.start(CHANNEL, ALICE)
    with pytest.raises(UserError) as info:
        await service.cancel(CHANNEL, BOB, is_admin=False)
    assert info.value.key == "game.cancel_forbidden"
    cancelled = await service.cancel(CHANNEL, CAROL, is_admin=True)
    assert cancelled.record.status == "cancelled"
    assert await service.session_in(CHANNEL) is None


async def test_a_resigned_player_ranks_last_at_the_end(
    service: GameService, storage: Storage
) -> None:
    await lobby(service, 0, BOB, CAROL)
    await service.start(CHANNEL, ALICE)
    session = (await service.advance((await service.resign(CHANNEL, CAROL)).after)).after
    for _ in range(400):
        if session.record.status != "active":
            break
        session = await play_turn_as_ai(service, session)
    assert session.record.status == "finished"
    rows = {row.user_id: row for row in await storage.results(session.id)}
    assert rows[CAROL].rank == 3 and not rows[CAROL].won
    assert {rows[ALICE].rank, rows[BOB].rank} <= {1, 2}
    assert rows[ALICE].won or rows[BOB].won
