"""Abuse through the service, on a real SQLite file with the real Desert engine:
farming rated wins with a second account, repeated undo and cancel requests,
a player who left his seat still reading it, opening tables past the caps.

The Discord side of the same (no stray post or thread, private refusals) is
in tests/test_e2e_abuse.py.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.errors import UserError
from bot.ratings import Rating
from bot.service import GameService
from bot.session import Session
from bot.storage import Storage
from tests.service_games import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    GUILD,
    lobby,
    play_out,
    play_turn_as_ai,
    play_until,
    start_desert,
    user_of,
    whole_turn,
)

HALF = 0.5


@pytest.fixture(autouse=True)
async def greedy_takeovers(service: GameService) -> None:
    """The AI that plays a resigned seat plays greedy here, at once: these tests
    are about who is rated, not about how well it plays (the server's default,
    normal, thinks 0.25 s a decision)."""
    await service.set_takeover_level(GUILD, "easy")


def progress(session: Session) -> float:
    """How far the game has run, by its engine's public measure."""
    return float(session.engine.progress(session.state))


async def two_player_game(service: GameService, channel: int) -> Session:
    """Alice and Bob (her second account, say), Alice first."""
    await lobby(service, 0, BOB, channel=channel)
    return (await service.start(channel, ALICE, first=0)).after


async def play_until_progress(
    service: GameService, session: Session, share: float, channel: int = CHANNEL
) -> Session:
    """The humans play what the AI would until the game has run ``share`` of its course."""
    for _ in range(400):
        if progress(session) >= share:
            return session
        session = await play_turn_as_ai(service, session, channel)
    raise AssertionError(f"the game never reached {share:.0%}")


async def rated(storage: Storage) -> dict[int, float]:
    """This server's Desert ratings, as ordinals."""
    return {
        user: Rating(mu, sigma).ordinal
        for user, (mu, sigma) in (await storage.ratings(GUILD, "desert")).items()
    }


async def seats_moved(storage: Storage, session: Session) -> set[int]:
    return {move.seat for move in await storage.moves(session.id)}


async def rebuild_changes_nothing(storage: Storage) -> None:
    """``python -m bot ratings rebuild`` refolds the stored results to the same ratings."""
    before = await storage.all_ratings()
    await storage.rebuild_ratings()
    assert await storage.all_ratings() == before


# --------------------------------------------------------------------------- farming


async def test_an_alt_account_resigning_after_one_move_each_wins_nothing(
    service: GameService, storage: Storage
) -> None:
    """The farming pattern, game after game: one move each, then the second
    account resigns. Every such game is cancelled; nobody is rated."""
    for channel in range(300, 305):
        session = await two_player_game(service, channel)
        for _ in range(2):  # one move each
            session = await play_turn_as_ai(service, session, channel)
        assert progress(session) < HALF
        report = await service.resign(channel, BOB)
        assert report.ended and report.void
        assert report.after.record.status == "cancelled"
        assert await storage.results(report.after.id) == []
    assert await rated(storage) == {}
    assert await storage.leaderboard(GUILD) == []
    await rebuild_changes_nothing(storage)


async def test_a_resignation_counts_only_past_half_the_game(
    service: GameService, storage: Storage
) -> None:
    """Many turns each, but short of half the game: cancelled. Past half: a
    rated win for the one still in, the resigner rated last."""
    early = await play_until_progress(service, await two_player_game(service, 310), 0.2, 310)
    assert progress(early) < HALF
    report = await service.resign(310, BOB)
    assert report.void and report.after.record.status == "cancelled"
    assert await rated(storage) == {}

    late = await play_until_progress(service, await two_player_game(service, 311), HALF, 311)
    report = await service.resign(311, BOB)
    assert report.ended and not report.void
    assert report.after.record.status == "finished"
    rows = {row.user_id: row for row in await storage.results(report.after.id)}
    assert rows[ALICE].won and rows[ALICE].rank == 1
    assert not rows[BOB].won and rows[BOB].rank == 2
    ratings = await rated(storage)
    assert set(ratings) == {ALICE, BOB} and ratings[ALICE] > ratings[BOB]
    assert progress(late) >= HALF
    await rebuild_changes_nothing(storage)


async def test_a_player_who_played_under_a_quarter_of_his_turns_is_not_rated(
    service: GameService, storage: Storage
) -> None:
    """Carol plays her first turn and resigns; the AI plays her seat to the end.
    She keeps her place (last) but only Alice and Bob are rated."""
    session = await start_desert(service, BOB, CAROL)
    carol = session.seat_of(CAROL)
    while carol not in await seats_moved(storage, session):
        session = await play_turn_as_ai(service, session)
    session = await play_out(service, (await service.resign(CHANNEL, CAROL)).after)
    assert session.record.status == "finished"
    moves = [m for m in await storage.moves(session.id) if m.seat == carol and m.ends_turn]
    assert 4 * sum(not m.by_ai for m in moves) < len(moves)  # under a quarter herself
    rows = {row.user_id: row for row in await storage.results(session.id)}
    assert rows[CAROL].rank == 3  # her place in the result stays
    assert set(await rated(storage)) == {ALICE, BOB}
    await rebuild_changes_nothing(storage)


async def test_with_fewer_than_two_rated_humans_no_rating_moves(
    service: GameService, storage: Storage
) -> None:
    """Alice, Bob and a bot: Bob resigns after his first turn, the game goes on
    to its end. Alice alone is left to rate: nobody's rating moves."""
    await lobby(service, 1, BOB)
    session = (await service.advance((await service.start(CHANNEL, ALICE)).after)).after
    bob = session.seat_of(BOB)
    while bob not in await seats_moved(storage, session):
        session = await play_turn_as_ai(service, session)
    report = await service.resign(CHANNEL, BOB)
    assert not report.ended  # Alice and the bot play on
    session = await play_out(service, report.after)
    assert session.record.status == "finished"
    assert len(await storage.results(session.id)) == 3
    assert await rated(storage) == {}
    await rebuild_changes_nothing(storage)


# --------------------------------------------------------------------------- leaving a seat


async def test_a_player_who_left_his_seat_no_longer_reads_it(service: GameService) -> None:
    """Resigned or removed: /game hand refused, the board as a spectator sees
    it. Away (the AI plays until he comes back): still his."""
    session = await start_desert(service, BOB, CAROL)
    alice, bob, carol = (session.seat_of(user) for user in (ALICE, BOB, CAROL))
    await service.resign(CHANNEL, CAROL)
    session = await service.latest_in(CHANNEL)
    with pytest.raises(UserError) as info:
        session.hand_seat(CAROL)
    assert info.value.key == "game.hand_left"
    assert session.private_seat(CAROL) is None
    assert session.hand_seat(ALICE) == session.private_seat(ALICE) == alice

    assert bob is not None
    record = await service.storage.replace_seat(session.id, session.record.version, bob, "away")
    away = service.session_of(record)
    assert away.hand_seat(BOB) == away.private_seat(BOB) == bob
    await service.absence.remove_player(CHANNEL, BOB, is_moderator=True)
    removed = await service.latest_in(CHANNEL)
    with pytest.raises(UserError) as info:
        removed.hand_seat(BOB)
    assert info.value.key == "game.hand_left"
    assert removed.private_seat(BOB) is None
    assert carol is not None and removed.left_for_good(carol)


# --------------------------------------------------------------------------- asked once


async def test_an_open_undo_request_is_not_asked_again(service: GameService) -> None:
    """While the others have not answered, asking again is refused (privately,
    by the cog); once refused or expired, the mover may ask again."""
    session = await start_desert(service, BOB, CAROL)
    before, _, after = await play_until(service, session, whole_turn)
    seat = before.awaited[0]
    mover = user_of(before, seat)
    now = datetime.now(UTC)
    asked = await service.undo_requests.request(CHANNEL, mover, now)
    assert asked.after is None and len(asked.asked) == 2
    for later in (timedelta(seconds=1), timedelta(hours=23)):
        with pytest.raises(UserError) as info:
            await service.undo_requests.request(CHANNEL, mover, now + later)
        assert info.value.key == "undo.pending"

    # Expired (the game's clock is 24 h): he may ask again.
    again = await service.undo_requests.request(CHANNEL, mover, now + timedelta(hours=25))
    assert again.after is None and again.asked_at > asked.asked_at
    with pytest.raises(UserError) as info:
        await service.undo_requests.request(CHANNEL, mover, now + timedelta(hours=25, seconds=1))
    assert info.value.key == "undo.pending"

    # Refused: the move stands, and he may ask once more.
    answer = await service.undo_requests.vote(
        after.id,
        asked.asked[0],
        version=after.record.version,
        seat=seat,
        asked_at=again.asked_at,
        agree=False,
        now=now + timedelta(hours=25),
    )
    assert answer.refused_by == asked.asked[0]
    third = await service.undo_requests.request(CHANNEL, mover, now + timedelta(hours=26))
    assert third.after is None and third.asked_at > again.asked_at


async def test_an_open_cancel_vote_is_not_proposed_again(service: GameService) -> None:
    """/game cancel from a player opens the vote once; while it is open, another
    proposal is refused (its button is how the others agree); a day later
    (the game's clock) it may be asked again, the agreements kept."""
    game = await start_desert(service, BOB, CAROL)
    now = datetime.now(UTC)
    first = await service.propose_cancel(CHANNEL, ALICE, now)
    assert not first.cancelled and set(first.waiting) == {"user2", "user3"}
    for user in (ALICE, BOB):
        with pytest.raises(UserError) as info:
            await service.propose_cancel(CHANNEL, user, now + timedelta(minutes=1))
        assert info.value.key == "game.cancel_vote_open"
    await service.vote_cancel(CHANNEL, BOB, game.id)  # the button
    again = await service.propose_cancel(CHANNEL, ALICE, now + timedelta(hours=25))
    assert not again.cancelled and again.waiting == ("user3",)
    done = await service.vote_cancel(CHANNEL, CAROL, game.id)
    assert done.cancelled and done.session.record.status == "cancelled"


# --------------------------------------------------------------------------- caps first


async def test_the_caps_are_checked_before_anything_is_created(
    service: GameService, storage: Storage
) -> None:
    """/game new asks this before posting or opening a thread."""
    await service.check_create("desert", GUILD, ALICE)
    for channel in (401, 402):
        await lobby(service, channel=channel)
    with pytest.raises(UserError) as info:
        await service.check_create("desert", GUILD, ALICE)
    assert info.value.key == "lobby.too_many_lobbies"
    with pytest.raises(UserError) as info:
        await service.check_create("desert", GUILD, BOB, clock="eternal")
    assert info.value.key == "lobby.bad_clock"
    await service.check_create("desert", GUILD, BOB)  # the caps are each player's
    assert len(await storage.open_games_of(GUILD, ALICE)) == 2
