"""Players who are not there (bot/absence.py): turn clocks on a real SQLite
file, the takeover vote, coming back, removal, vacations and settings.

The storage writes ``turn_since`` at the real time; ``Absence.due(now)`` is
given later instants, so no test sleeps.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.absence import DEFAULT_VACATION_DAYS, Choice, ClockNews, epoch
from bot.errors import UserError
from bot.service import GameService
from bot.session import Session, standings
from bot.storage import GameRecord, Storage, UserSettings, open_storage
from games.contract import Seat
from tests.contract import all_specs
from tests.service_games import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    play_as_ai,
    play_out,
    user_of,
)

DAVE, STRANGER = 4, 99
NAMES = {ALICE: "Alice", BOB: "Bob", CAROL: "Carol", DAVE: "Dave"}


@pytest.fixture
async def other(sqlite_url: str, storage: Storage) -> AsyncIterator[GameService]:
    """A second service on its own connections to the same database file (a
    second bot process)."""
    store = await open_storage(sqlite_url)
    yield GameService(store, all_specs())
    await store.close()


# --------------------------------------------------------------------------- helpers


async def new_game(
    service: GameService,
    *users: int,
    kind: str = "desert",
    clock: str = "normal",
    bots: int = 0,
    first: Seat | None = 0,
    channel: int = CHANNEL,
) -> Session:
    """A started game of ``users`` (the first creates it); ``first``: the lobby
    seat that plays first (the creator, unless told)."""
    creator, *joiners = users
    await service.create(
        kind=kind,
        guild_id=GUILD,
        channel_id=channel,
        user_id=creator,
        name=NAMES.get(creator, str(creator)),
        bots=bots,
        clock=clock,
        level="easy",
    )
    for user in joiners:
        await service.join(channel, user, NAMES.get(user, str(user)))
    return (await service.start(channel, creator, first)).after


def since(session: Session) -> datetime:
    assert session.record.turn_since is not None
    return datetime.fromisoformat(session.record.turn_since)


def due_at(record: GameRecord) -> datetime | None:
    """When the clock is next looked at (compared as instants, not as text)."""
    return None if record.clock_due is None else datetime.fromisoformat(record.clock_due)


def hours(n: float) -> timedelta:
    return timedelta(hours=n)


def awaited_users(session: Session) -> tuple[int, ...]:
    return tuple(user_of(session, s) for s in session.awaited)


async def look(service: GameService, moment: datetime) -> list[tuple[int, str]]:
    return [(n.session.id, n.action) for n in await service.absence.due(moment)]


async def fresh(service: GameService, session: Session) -> Session:
    found = await service.get(session.id)
    assert found is not None
    return found


async def expire(service: GameService, session: Session) -> ClockNews:
    """Look at the clock after a full period: the one 'expired' news."""
    hours_ = session.record.clock_hours
    (news,) = await service.absence.due(since(session) + hours(hours_))
    assert news.action == "expired" and news.session.id == session.id
    return news


async def refused(key: str, action: Awaitable[object]) -> UserError:
    with pytest.raises(UserError) as info:
        await action
    assert info.value.key == key, info.value.key
    return info.value


# --------------------------------------------------------------------------- clocks


async def test_a_clock_reminds_at_half_time_then_runs_out_each_once(
    service: GameService,
) -> None:
    session = await new_game(service, ALICE, BOB)
    record = session.record
    t0 = since(session)
    assert record.clock_hours == 24 and record.clock_stage == 0
    assert due_at(record) == t0 + hours(12)
    assert awaited_users(session) == (ALICE,)
    seat = session.awaited[0]

    assert await look(service, t0 + hours(12) - timedelta(seconds=1)) == []
    (half,) = await service.absence.due(t0 + hours(12))
    assert (half.session.id, half.action, half.users) == (session.id, "half", (ALICE,))
    assert half.absent == () and half.voters == ()
    assert await look(service, t0 + hours(12)) == []  # the same moment again: said once
    assert await look(service, t0 + hours(23)) == []
    record = (await fresh(service, session)).record
    assert record.clock_stage == 1 and due_at(record) == t0 + hours(24)

    (out,) = await service.absence.due(t0 + hours(24))
    assert (out.action, out.users, out.absent, out.voters) == ("expired", (ALICE,), (seat,), (BOB,))
    assert out.round == epoch(session.record.turn_since)
    assert await look(service, t0 + hours(24)) == []
    assert await look(service, t0 + hours(500)) == []  # now the others vote
    record = (await fresh(service, session)).record
    assert record.clock_stage == 2 and record.clock_due is None
    assert record.version == session.record.version  # the clock is not a move


async def test_a_clock_fires_after_a_restart(sqlite_url: str) -> None:
    first = await open_storage(sqlite_url)
    session = await new_game(GameService(first, all_specs()), ALICE, BOB)
    await first.close()  # scheduled, then the bot stops

    second = await open_storage(sqlite_url)
    try:
        service = GameService(second, all_specs())
        t0 = since(session)
        (news,) = await service.absence.due(t0 + hours(13))
        assert (news.session.id, news.action, news.users) == (session.id, "half", (ALICE,))
        assert await look(service, t0 + hours(13)) == []
    finally:
        await second.close()


async def test_downtime_across_several_periods_gives_a_single_expiry(
    service: GameService,
) -> None:
    session = await new_game(service, ALICE, BOB)
    t0 = since(session)
    news = await service.absence.due(t0 + hours(100))
    assert [(n.session.id, n.action) for n in news] == [(session.id, "expired")]
    assert news[0].absent == session.awaited
    assert await look(service, t0 + hours(200)) == []


async def test_two_processes_each_say_each_thing_exactly_once(
    service: GameService, other: GameService
) -> None:
    games = []
    for i, (a, b) in enumerate([(ALICE, BOB), (BOB, CAROL), (CAROL, DAVE)]):
        games.append(await new_game(service, a, b, channel=CHANNEL + i))
    t0 = max(since(g) for g in games)
    for moment, action in ((t0 + hours(13), "half"), (t0 + hours(25), "expired")):
        said = await asyncio.gather(service.absence.due(moment), other.absence.due(moment))
        found = sorted((n.session.id, n.action) for batch in said for n in batch)
        assert found == sorted((g.id, action) for g in games)
        again = await asyncio.gather(service.absence.due(moment), other.absence.due(moment))
        assert again == [[], []]


async def test_no_news_while_only_an_ai_seat_is_awaited(service: GameService) -> None:
    session = await new_game(service, ALICE, bots=1, first=1)  # the bot plays first
    assert all(session.ai_plays(s) for s in session.awaited)
    t0 = since(session)
    assert await look(service, t0 + hours(100)) == []
    assert (await fresh(service, session)).record.clock_due is None  # parked, no loop
    after = (await service.advance(session)).after  # the bot moves: Alice's clock starts
    assert awaited_users(after) == (ALICE,)
    (news,) = await service.absence.due(since(after) + hours(12))
    assert (news.action, news.users) == ("half", (ALICE,))


async def test_a_game_without_a_clock_never_reminds(service: GameService) -> None:
    session = await new_game(service, ALICE, BOB, clock="none")
    assert session.record.clock_hours == 0 and session.record.clock_due is None
    t0 = since(session)
    assert await look(service, t0 + hours(1000)) == []
    after = (await play_as_ai(service, session)).after
    assert after.record.clock_due is None
    assert await look(service, t0 + hours(5000)) == []


async def test_a_move_restarts_the_clock(service: GameService) -> None:
    session = await new_game(service, ALICE, BOB)
    t0 = since(session)
    assert await look(service, t0 + hours(12)) == [(session.id, "half")]
    after = (await play_as_ai(service, session)).after
    t1 = since(after)
    assert t1 >= t0
    assert after.record.clock_stage == 0
    assert due_at(after.record) == t1 + hours(12)
    assert await look(service, t1 + hours(12) - timedelta(seconds=1)) == []
    (news,) = await service.absence.due(t1 + hours(12))
    assert news.action == "half"  # half time of the new wait, not the old expiry
    assert news.users == awaited_users(after)
    assert news.session.record.version == after.record.version
    (out,) = await service.absence.due(t1 + hours(24))
    assert out.action == "expired" and out.round == epoch(after.record.turn_since)


async def test_the_clock_chosen_for_the_game(service: GameService) -> None:
    await refused(
        "lobby.bad_clock",
        service.create(
            kind="desert",
            guild_id=GUILD,
            channel_id=CHANNEL,
            user_id=ALICE,
            name="Alice",
            clock="forever",
        ),
    )
    session = await new_game(service, ALICE, BOB, clock="fast")
    assert session.record.clock_hours == 1
    t0 = since(session)
    assert due_at(session.record) == t0 + timedelta(minutes=30)
    assert await look(service, t0 + timedelta(minutes=29)) == []
    assert await look(service, t0 + timedelta(minutes=30)) == [(session.id, "half")]
    assert await look(service, t0 + hours(1)) == [(session.id, "expired")]
    await service.cancel(CHANNEL, ALICE, is_admin=True)
    slow = await new_game(service, ALICE, BOB, clock="slow")
    assert slow.record.clock_hours == 72
    assert due_at(slow.record) == since(slow) + hours(36)


# --------------------------------------------------------------------------- takeover


async def three_humans_out_of_time(service: GameService) -> tuple[Session, ClockNews]:
    """Carol plays first and lets her time run out; Alice and Bob vote."""
    session = await new_game(service, ALICE, BOB, CAROL, first=2)
    assert awaited_users(session) == (CAROL,)
    news = await expire(service, session)
    assert news.absent == session.awaited
    assert sorted(news.voters) == [ALICE, BOB]
    return session, news


async def test_a_majority_for_the_bot_hands_the_seat_to_the_ai(service: GameService) -> None:
    session, news = await three_humans_out_of_time(service)
    (seat,) = news.absent
    vote = service.absence.vote_takeover
    tally = await vote(session.id, ALICE, seat, news.round, "bot")
    assert tally.decided is None and tally.votes == {ALICE: "bot"}
    assert sorted(tally.voters) == [ALICE, BOB]
    assert not tally.session.ai_plays(seat)
    tally = await vote(session.id, BOB, seat, news.round, "bot")
    assert tally.decided == "bot" and tally.votes == {ALICE: "bot", BOB: "bot"}
    replaced = tally.session
    assert replaced.seat(seat).replaced == "away" and replaced.ai_plays(seat)
    assert replaced.seat(seat).out and not replaced.seat(seat).resigned
    # The cog then lets the AI play the seat.
    report = await service.advance(replaced)
    assert report.turns and report.turns[0].seat == seat and report.turns[0].by_ai
    assert seat not in report.after.awaited
    assert report.after.seat(seat).replaced == "away"
    # The vote is over.
    await refused("takeover.over", vote(session.id, ALICE, seat, news.round, "bot"))


async def test_a_majority_to_wait_restarts_the_clock_with_a_new_round(
    service: GameService,
) -> None:
    session, news = await three_humans_out_of_time(service)
    (seat,) = news.absent
    t0 = since(session)
    voted_at = t0 + hours(25)
    service.absence.now = lambda: voted_at
    vote = service.absence.vote_takeover
    assert (await vote(session.id, ALICE, seat, news.round, "wait")).decided is None
    tally = await vote(session.id, BOB, seat, news.round, "wait")
    assert tally.decided == "wait"
    record = tally.session.record
    assert tally.session.seat(seat).replaced is None
    assert record.clock_stage == 0 and since(tally.session) == voted_at
    assert due_at(record) == voted_at + hours(12)
    assert record.version == session.record.version  # no move, no seat change

    assert await look(service, voted_at + hours(12) - timedelta(seconds=1)) == []
    (half,) = await service.absence.due(voted_at + hours(12))
    assert (half.action, half.users) == ("half", (CAROL,))
    assert half.round == epoch(voted_at.isoformat()) != news.round
    (out,) = await service.absence.due(voted_at + hours(24))
    assert out.action == "expired" and out.round == half.round
    # A vote of the old round is refused; the new round is open.
    await refused("takeover.over", vote(session.id, ALICE, seat, news.round, "bot"))
    assert (await vote(session.id, ALICE, seat, out.round, "bot")).decided is None


async def test_a_tie_when_everyone_voted_means_wait(service: GameService) -> None:
    session, news = await three_humans_out_of_time(service)
    (seat,) = news.absent
    service.absence.now = lambda: since(session) + hours(26)
    vote = service.absence.vote_takeover
    assert (await vote(session.id, ALICE, seat, news.round, "bot")).decided is None
    tally = await vote(session.id, BOB, seat, news.round, "wait")
    assert tally.decided == "wait"
    assert tally.votes == {ALICE: "bot", BOB: "wait"}
    assert not tally.session.ai_plays(seat) and tally.session.record.clock_stage == 0


async def test_a_voter_may_change_his_mind_before_it_is_decided(service: GameService) -> None:
    session, news = await three_humans_out_of_time(service)
    (seat,) = news.absent
    vote = service.absence.vote_takeover
    assert (await vote(session.id, ALICE, seat, news.round, "wait")).decided is None
    assert (await vote(session.id, ALICE, seat, news.round, "bot")).votes == {ALICE: "bot"}
    assert (await vote(session.id, BOB, seat, news.round, "bot")).decided == "bot"


async def test_only_the_other_players_vote_and_only_in_the_open_round(
    service: GameService,
) -> None:
    session = await new_game(service, ALICE, BOB, CAROL, first=2)
    (seat,) = session.awaited
    vote = service.absence.vote_takeover
    t0 = since(session)
    # Before the time ran out there is nothing to vote on (the half reminder too).
    round_ = epoch(session.record.turn_since)
    await refused("takeover.over", vote(session.id, ALICE, seat, round_, "bot"))
    assert await look(service, t0 + hours(12)) == [(session.id, "half")]
    await refused("takeover.over", vote(session.id, ALICE, seat, round_, "bot"))
    news = await expire(service, session)
    await refused("takeover.not_a_voter", vote(session.id, CAROL, seat, news.round, "wait"))
    await refused("takeover.not_a_voter", vote(session.id, STRANGER, seat, news.round, "bot"))
    await refused("takeover.over", vote(session.id, ALICE, seat, news.round - 1, "bot"))
    await refused("takeover.over", vote(session.id, ALICE, seat, news.round + 1, "bot"))
    other = next(s for s in range(3) if s != seat)
    await refused("takeover.over", vote(session.id, ALICE, other, news.round, "bot"))
    await refused("takeover.over", vote(session.id, ALICE, 7, news.round, "bot"))
    await refused("button.old_game", vote(10_000, ALICE, seat, news.round, "bot"))
    # Nothing was counted or changed by the refusals.
    tally = await vote(session.id, ALICE, seat, news.round, "bot")
    assert tally.votes == {ALICE: "bot"} and tally.decided is None
    # A move ends the round: the vote is over.
    await play_as_ai(service, await fresh(service, session))
    await refused("takeover.over", vote(session.id, BOB, seat, news.round, "bot"))


async def test_two_players_out_of_time_the_voters_named_decide(service: GameService) -> None:
    """Simultaneous decisions (Oasis Nim's swap): Carol decides, Alice and Bob let
    their time run out. One vote at a time, on one of them; the news asks Carol
    alone (the late players do not vote): her vote decides."""
    session = await new_game(service, ALICE, BOB, CAROL, kind="nim")
    assert sorted(awaited_users(session)) == [ALICE, BOB, CAROL]
    carol = session.seat_of(CAROL)
    assert carol is not None
    session = (await play_as_ai(service, session, carol)).after
    alice, bob = session.seat_of(ALICE), session.seat_of(BOB)
    assert alice is not None and bob is not None
    assert sorted(session.awaited) == sorted([alice, bob])
    news = await expire(service, session)
    assert sorted(news.users) == [ALICE, BOB]
    (late,) = news.absent
    assert late in (alice, bob)
    assert news.voters == (CAROL,)  # the takeover message asks Carol only
    tally = await service.absence.vote_takeover(session.id, CAROL, late, news.round, "bot")
    assert tally.voters == news.voters  # those asked are those counted
    assert tally.decided == "bot"
    assert tally.session.seat(late).replaced == "away"


@pytest.mark.parametrize("choice", ["bot", "wait"])
async def test_two_deciding_votes_at_once_decide_once(
    service: GameService, other: GameService, choice: Choice, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await new_game(service, ALICE, BOB, CAROL, DAVE, first=3)
    news = await expire(service, session)
    (seat,) = news.absent
    assert sorted(news.voters) == [ALICE, BOB, CAROL]
    moment = since(session) + hours(25)
    service.absence.now = other.absence.now = lambda: moment
    first = await service.absence.vote_takeover(session.id, ALICE, seat, news.round, choice)
    assert first.decided is None
    # Both last votes are counted before either applies the result: each process
    # sees a decided vote at the same version, and only one may act on it.
    both_cast = asyncio.Barrier(2)
    for voting in (service, other):

        async def cast_then_wait(*args: Any, cast: Any = voting.storage.cast_vote) -> Any:
            votes = await cast(*args)
            await both_cast.wait()
            return votes

        monkeypatch.setattr(voting.storage, "cast_vote", cast_then_wait)
    results = await asyncio.gather(
        service.absence.vote_takeover(session.id, BOB, seat, news.round, choice),
        other.absence.vote_takeover(session.id, CAROL, seat, news.round, choice),
        return_exceptions=True,
    )
    decided = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, BaseException)]
    assert len(decided) == 1 and decided[0].decided == choice, results
    assert len(refused) == 1 and isinstance(refused[0], UserError), refused
    assert refused[0].key == "takeover.over"
    after = await fresh(service, session)
    if choice == "bot":
        assert after.seat(seat).replaced == "away"
        assert after.record.version == session.record.version + 1  # replaced once
    else:
        assert after.seat(seat).replaced is None
        assert after.record.clock_stage == 0 and since(after) == moment
        assert after.record.version == session.record.version


# --------------------------------------------------------------------------- coming back


async def test_the_absent_player_takes_the_seat_back_by_playing_on_his_turn(
    service: GameService, storage: Storage
) -> None:
    session, news = await three_humans_out_of_time(service)
    (seat,) = news.absent
    vote = service.absence.vote_takeover
    await vote(session.id, ALICE, seat, news.round, "bot")
    taken = (await vote(session.id, BOB, seat, news.round, "bot")).session
    assert taken.ai_plays(seat) and seat in taken.to_act
    # Carol comes back before the AI moved for her: her move is played.
    report = await play_as_ai(service, taken, seat)
    assert report.after.seat(seat).replaced is None and not report.after.ai_plays(seat)
    (row,) = await storage.moves(session.id)
    assert row.seat == seat
    assert report.after.record.clock_stage == 0


async def test_the_absent_player_comes_back_when_it_is_not_his_turn(
    service: GameService, storage: Storage
) -> None:
    session, news = await three_humans_out_of_time(service)
    (seat,) = news.absent
    vote = service.absence.vote_takeover
    await vote(session.id, ALICE, seat, news.round, "bot")
    taken = (await vote(session.id, BOB, seat, news.round, "bot")).session
    after = (await service.advance(taken)).after  # the AI played Carol's turn
    assert seat not in after.to_act
    ai_rows = len(await storage.moves(session.id))
    assert ai_rows >= 1
    error = await refused("game.back_not_your_turn", service.play(CHANNEL, CAROL, "anything"))
    assert error.params["players"]
    back = await fresh(service, session)
    assert back.seat(seat).replaced is None and not back.ai_plays(seat)
    assert len(await storage.moves(session.id)) == ai_rows  # nothing played for her
    # The others play their turns; then the game waits for Carol, not for the AI.
    for _ in range(20):
        if seat in back.to_act:
            break
        back = (await play_as_ai(service, back)).after
    assert seat in back.to_act
    report = await service.advance(back)
    assert report.turns == () and report.after.awaited == (seat,)
    (news_,) = await service.absence.due(since(back) + hours(12))
    assert news_.users == (CAROL,)
    moved = await play_as_ai(service, back, seat)
    assert (await storage.moves(session.id))[-1].seat == seat
    assert not moved.after.ai_plays(seat)


async def test_a_player_replaced_who_never_came_back_ranks_last(
    service: GameService, storage: Storage
) -> None:
    await service.set_takeover_level(GUILD, "easy")  # the AI plays the seat to the end
    session, news = await three_humans_out_of_time(service)
    (seat,) = news.absent
    vote = service.absence.vote_takeover
    await vote(session.id, ALICE, seat, news.round, "bot")
    taken = (await vote(session.id, BOB, seat, news.round, "bot")).session
    ended = await play_out(service, taken)
    assert ended.record.status == "finished"
    assert ended.seat(seat).replaced == "away"
    outcome = ended.outcome
    assert outcome is not None
    table = standings(ended.record.seats, outcome)
    assert table[seat].rank == 3 and not table[seat].won
    assert {table[s].rank for s in range(3) if s != seat} <= {1, 2}
    rows = {row.user_id: row for row in await storage.results(session.id)}
    assert rows[CAROL].rank == 3 and not rows[CAROL].won
    assert rows[ALICE].won or rows[BOB].won
    assert {(r.seat, r.rank, r.won) for r in rows.values()} == {
        (s.seat, s.rank, s.won) for s in table
    }


# --------------------------------------------------------------------------- removal


async def test_a_moderator_removes_a_player_for_good(
    service: GameService, storage: Storage
) -> None:
    session = await new_game(service, ALICE, BOB, CAROL, kind="nim")
    remove = service.absence.remove_player
    await refused("game.remove_forbidden", remove(CHANNEL, ALICE, is_moderator=False))
    await refused("game.not_in_this_game", remove(CHANNEL, STRANGER, is_moderator=True))
    removed, seat = await remove(CHANNEL, BOB, is_moderator=True)
    assert removed.seat(seat).user_id == BOB
    assert removed.seat(seat).replaced == "removed" and removed.ai_plays(seat)
    await refused("game.already_out", remove(CHANNEL, BOB, is_moderator=True))
    await refused("game.you_were_removed", service.play(CHANNEL, BOB, "keep"))
    after = (await service.advance(removed)).after  # the AI plays the seat
    assert seat not in after.awaited
    await refused("game.you_were_removed", service.play(CHANNEL, BOB, "keep"))
    # Bob is no longer reminded of anything.
    (news,) = await service.absence.due(since(after) + hours(12))
    assert BOB not in news.users
    ended = await play_out(service, await fresh(service, session))
    assert ended.record.status == "finished" and ended.seat(seat).replaced == "removed"
    rows = {row.user_id: row for row in await storage.results(session.id)}
    assert rows[BOB].rank == 3 and not rows[BOB].won
    assert {rows[ALICE].rank, rows[CAROL].rank} <= {1, 2}
    table = ended.standings()
    assert {(s.seat, s.rank, s.won) for s in table} == {
        (r.seat, r.rank, r.won) for r in rows.values()
    }


async def test_removing_needs_a_running_game(service: GameService) -> None:
    await service.create(
        kind="desert", guild_id=GUILD, channel_id=CHANNEL, user_id=ALICE, name="Alice"
    )
    await refused(
        "game.remove_forbidden", service.absence.remove_player(CHANNEL, ALICE, is_moderator=False)
    )
    await refused(
        "game.not_started", service.absence.remove_player(CHANNEL, ALICE, is_moderator=True)
    )


# --------------------------------------------------------------------------- vacations

MARCH = datetime(2031, 3, 2, 9, 0, tzinfo=UTC)


async def test_vacation_days_are_bounded_in_any_30_days(service: GameService) -> None:
    absence = service.absence
    assert await absence.vacation_days(GUILD) == DEFAULT_VACATION_DAYS == 14
    await absence.set_vacation_days(GUILD, 5)
    assert await absence.vacation_days(GUILD) == 5
    assert await absence.vacation_days(GUILD + 1) == 14  # per server
    error = await refused("vacation.window_full", absence.start_vacation(GUILD, ALICE, 6, MARCH))
    assert error.params == {"count": 5, "limit": 5}
    await refused("vacation.window_full", absence.start_vacation(GUILD, ALICE, 0, MARCH))
    ends, left = await absence.start_vacation(GUILD, ALICE, 3, MARCH)
    assert (ends, left) == (MARCH + timedelta(days=3), 2)
    await refused("vacation.already", absence.start_vacation(GUILD, ALICE, 1, MARCH + hours(1)))
    back = MARCH + timedelta(days=3, hours=1)
    assert await absence.days_used(GUILD, ALICE, back) == 3
    error = await refused("vacation.window_full", absence.start_vacation(GUILD, ALICE, 3, back))
    assert error.params == {"count": 2, "limit": 5}
    assert await absence.start_vacation(GUILD, ALICE, 2, back) == (back + timedelta(days=2), 0)
    # Those five days count until 30 days after they began: none is free on
    # 1 April, a new calendar month.
    april = datetime(2031, 4, 1, 8, 0, tzinfo=UTC)
    await refused("vacation.window_used", absence.start_vacation(GUILD, ALICE, 1, april))
    # Other players and servers are apart.
    assert (await absence.start_vacation(GUILD, BOB, 5, MARCH))[1] == 0
    assert (await absence.start_vacation(GUILD + 1, ALICE, 14, MARCH))[1] == 0


async def test_vacations_cannot_be_chained_across_a_month_end(service: GameService) -> None:
    """14 days ending on the 31st and 14 more from the 1st were 28 days in a row
    under a 14-day limit: no 30 days in a row may hold more than 14 now."""
    absence = service.absence
    january_17 = datetime(2031, 1, 17, 9, 0, tzinfo=UTC)
    ends, left = await absence.start_vacation(GUILD, ALICE, 14, january_17)
    assert (ends, left) == (datetime(2031, 1, 31, 9, 0, tzinfo=UTC), 0)
    february_1 = datetime(2031, 2, 1, 9, 0, tzinfo=UTC)
    await refused("vacation.window_used", absence.start_vacation(GUILD, ALICE, 14, february_1))
    await refused("vacation.window_used", absence.start_vacation(GUILD, ALICE, 1, february_1))
    # The whole allowance again once 30 days have passed since the first day.
    almost = january_17 + timedelta(days=30) - hours(1)
    await refused("vacation.window_used", absence.start_vacation(GUILD, ALICE, 1, almost))
    ends, left = await absence.start_vacation(GUILD, ALICE, 14, january_17 + timedelta(days=30))
    assert (ends, left) == (datetime(2031, 3, 2, 9, 0, tzinfo=UTC), 0)


async def test_a_short_vacation_leaves_the_rest_of_the_allowance(service: GameService) -> None:
    absence = service.absence
    january_27 = datetime(2031, 1, 27, 9, 0, tzinfo=UTC)
    assert (await absence.start_vacation(GUILD, ALICE, 5, january_27))[1] == 9
    february_1 = datetime(2031, 2, 1, 9, 0, tzinfo=UTC)
    error = await refused(
        "vacation.window_full", absence.start_vacation(GUILD, ALICE, 14, february_1)
    )
    assert error.params == {"count": 9, "limit": 14}
    assert await absence.start_vacation(GUILD, ALICE, 9, february_1) == (
        datetime(2031, 2, 10, 9, 0, tzinfo=UTC),
        0,
    )


async def test_no_way_of_asking_gets_past_the_limit(service: GameService) -> None:
    """A player asking at random moments for random lengths, sometimes back early:
    whatever is granted, no 30 days in a row hold more than the limit, so no run
    of vacation is longer than it (checked hour by hour, independently)."""
    absence, rng, limit = service.absence, random.Random(20), 6
    await absence.set_vacation_days(GUILD, limit)
    moment = datetime(2031, 1, 1, tzinfo=UTC)
    for _ in range(120):
        moment += hours(rng.choice((1, 5, 24, 24 * 3, 24 * 7)))
        try:
            ends, _ = await absence.start_vacation(GUILD, ALICE, rng.randint(1, limit), moment)
        except UserError as refusal:
            assert refusal.key.startswith("vacation."), refusal.key
            continue
        if rng.random() < 0.3:
            await absence.end_vacation(GUILD, ALICE, moment + (ends - moment) / 2)
    taken = (await absence.pauses(GUILD, [ALICE]))[ALICE]
    assert len(taken) > 10
    origin = taken[0].start  # every start and end falls on a whole hour after it
    span = int((max(p.end for p in taken) - origin) / hours(1))
    away = [0] * span
    for p in taken:
        for h in range(int((p.start - origin) / hours(1)), int((p.end - origin) / hours(1))):
            away[h] = 1
    for first in range(span):
        assert sum(away[first : first + 30 * 24]) <= limit * 24, origin + hours(first)


async def test_a_vacation_ended_early_counts_what_it_lasted(service: GameService) -> None:
    absence = service.absence
    await absence.set_vacation_days(GUILD, 5)
    await refused("vacation.none", absence.end_vacation(GUILD, ALICE, MARCH))
    await absence.start_vacation(GUILD, ALICE, 3, MARCH)
    await absence.end_vacation(GUILD, ALICE, MARCH + hours(20))
    await refused("vacation.none", absence.end_vacation(GUILD, ALICE, MARCH + hours(21)))
    assert await absence.days_used(GUILD, ALICE, MARCH + hours(21)) == 1  # 20 h: a day
    (pause,) = (await absence.pauses(GUILD, [ALICE]))[ALICE]
    assert pause.end == MARCH + hours(20)
    ends, left = await absence.start_vacation(GUILD, ALICE, 4, MARCH + hours(21))
    assert left == 0
    await absence.end_vacation(GUILD, ALICE, MARCH + hours(21 + 30))
    assert await absence.days_used(GUILD, ALICE, MARCH + hours(52)) == 3  # 20 h + 30 h


async def test_vacation_settings(service: GameService) -> None:
    absence = service.absence
    await absence.set_vacation_days(GUILD, 0)
    await refused("vacation.disabled", absence.start_vacation(GUILD, ALICE, 1, MARCH))
    await refused("settings.bad_vacation_days", absence.set_vacation_days(GUILD, -1))
    await refused("settings.bad_vacation_days", absence.set_vacation_days(GUILD, 32))
    assert await absence.vacation_days(GUILD) == 0
    # Above 30 days, the limit never binds: 30 days in a row hold no more than 30.
    await absence.set_vacation_days(GUILD, 31)
    assert (await absence.start_vacation(GUILD, ALICE, 31, MARCH))[1] == 1


async def test_the_clock_stops_while_the_awaited_player_is_on_vacation(
    service: GameService,
) -> None:
    session = await new_game(service, ALICE, BOB)
    t0 = since(session)
    away_from, away_to = t0 + hours(2), t0 + hours(26)  # one day
    await service.absence.start_vacation(GUILD, ALICE, 1, away_from)
    # Half time would be +12 h: she is away, nothing said, looked at again later.
    assert await look(service, t0 + hours(12)) == []
    record = (await fresh(service, session)).record
    # 2 h before she left, 10 h after she is back: half a period off vacation.
    assert record.clock_stage == 0 and due_at(record) == away_to + hours(10)
    assert await look(service, t0 + hours(20)) == []
    assert await look(service, away_to + hours(10) - timedelta(seconds=1)) == []
    (half,) = await service.absence.due(away_to + hours(10))
    assert (half.action, half.users) == ("half", (ALICE,))
    assert await look(service, t0 + hours(47)) == []
    (out,) = await service.absence.due(t0 + hours(48))  # 24 h off vacation
    assert (out.action, out.users, out.voters) == ("expired", (ALICE,), (BOB,))


async def test_a_vacation_of_another_player_does_not_stop_the_clock(
    service: GameService,
) -> None:
    session = await new_game(service, ALICE, BOB)
    t0 = since(session)
    await service.absence.start_vacation(GUILD, BOB, 3, t0 + hours(1))
    await service.absence.start_vacation(GUILD + 1, ALICE, 3, t0 + hours(1))  # elsewhere
    assert await look(service, t0 + hours(12)) == [(session.id, "half")]


async def test_a_vacation_ended_early_lets_the_clock_run_again(service: GameService) -> None:
    session = await new_game(service, ALICE, BOB)
    t0 = since(session)
    await service.absence.start_vacation(GUILD, ALICE, 1, t0 + hours(2))
    assert await look(service, t0 + hours(12)) == []  # away: looked at after the vacation
    await service.absence.end_vacation(GUILD, ALICE, t0 + hours(13))  # back after 11 h
    # 12 h off vacation: +2 h before, then from +13 h to +23 h.
    assert await look(service, t0 + hours(23) - timedelta(seconds=1)) == []
    assert await look(service, t0 + hours(23)) == [(session.id, "half")]
    assert await look(service, t0 + hours(35)) == [(session.id, "expired")]


async def test_a_reminder_names_only_the_awaited_players_not_on_vacation(
    service: GameService,
) -> None:
    session = await new_game(service, ALICE, BOB, CAROL, kind="nim")  # all three decide
    assert sorted(awaited_users(session)) == [ALICE, BOB, CAROL]
    t0 = since(session)
    await service.absence.start_vacation(GUILD, CAROL, 1, t0 + hours(1))
    (half,) = await service.absence.due(t0 + hours(12))
    assert half.action == "half" and sorted(half.users) == [ALICE, BOB]
    (out,) = await service.absence.due(t0 + hours(24))
    assert out.action == "expired" and sorted(out.users) == [ALICE, BOB]
    carol = session.seat_of(CAROL)
    assert carol is not None and carol not in out.absent and len(out.absent) == 1


async def test_everyone_awaited_on_vacation_is_reminded_after_the_first_comes_back(
    service: GameService,
) -> None:
    session = await new_game(service, ALICE, BOB, CAROL, kind="nim")
    t0 = since(session)
    for user, days in ((ALICE, 1), (BOB, 2), (CAROL, 3)):
        await service.absence.start_vacation(GUILD, user, days, t0 + hours(1))
    assert await look(service, t0 + hours(12)) == []
    back = t0 + hours(1) + timedelta(days=1)  # Alice first
    record = (await fresh(service, session)).record
    assert due_at(record) == back + hours(11)
    (half,) = await service.absence.due(back + hours(11))
    assert half.users == (ALICE,)


# --------------------------------------------------------------------------- settings


async def test_player_settings_round_trip(service: GameService, sqlite_url: str) -> None:
    absence = service.absence
    assert await absence.settings(ALICE) == UserSettings(None, False, False)
    assert await absence.change_settings(ALICE, lang="fr") == UserSettings("fr", False, False)
    assert await absence.change_settings(ALICE, dm_turn=True) == UserSettings("fr", True, False)
    changed = await absence.change_settings(ALICE, dm_reminders=True)
    assert changed == UserSettings("fr", True, True)
    assert await absence.settings(ALICE) == changed
    assert await absence.settings(BOB) == UserSettings()
    assert await absence.change_settings(ALICE, lang="auto") == UserSettings(None, True, True)
    assert await absence.change_settings(ALICE, dm_turn=False, lang="en") == UserSettings(
        "en", False, True
    )
    reopened = await open_storage(sqlite_url)  # stored, not cached
    try:
        assert await reopened.user_settings(ALICE) == UserSettings("en", False, True)
    finally:
        await reopened.close()
