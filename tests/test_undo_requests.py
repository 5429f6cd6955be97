"""/game undo through the service on a real SQLite file, with Through the Desert.

Which commands may be taken back is judged by bot/undo.py (tests/test_undo_rules.py
covers each game's kinds of hidden information and randomness); here: that an
undo restores the exact earlier state, is recorded in the move log, and that
the consent vote applies only when every other human agrees, in time.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from bot.errors import UserError
from bot.replay import Row, replay
from bot.service import GameService
from bot.session import Session
from bot.storage import Storage
from games.contract import Step
from games.desert import GAME
from tests.service_games import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    first_camel,
    play_until,
    start_desert,
    user_of,
    whole_turn,
)


def water(session: Session, step: Step[Any]) -> bool:
    return any(e.to is not None for e in step.events)


async def test_a_step_inside_ones_turn_is_taken_back_at_once(
    service: GameService, storage: Storage
) -> None:
    session = await start_desert(service, BOB)
    before, command, after = await play_until(service, session, first_camel)
    mover = user_of(before, before.awaited[0])
    outcome = await service.undo_requests.request(CHANNEL, mover, datetime.now(UTC))
    assert outcome.plan.judgement.verdict == "free" and outcome.plan.command == command
    undone = outcome.after
    assert undone is not None
    # The exact earlier state, at a new version (stale buttons are refused).
    assert GAME.dump(undone.state) == GAME.dump(before.state)
    assert undone.record.version == after.record.version + 1
    log = await storage.moves(undone.id)
    assert log[-1].notation == "undo" and log[-1].undoes == log[-2].ply
    assert log[-2].undone and log[-2].notation == command and not log[-2].counts
    # The log replays to the current state: the undone row is left out.
    rows = [Row(m.seat, m.notation) for m in log if m.counts]
    states = replay(GAME, 2, undone.record.seed, undone.record.options, rows)
    assert GAME.dump(states[-1]) == GAME.dump(undone.state)
    # The turn continues from there: the same seat plays again.
    assert undone.awaited == before.awaited


async def test_a_whole_turn_needs_every_other_player_to_agree(service: GameService) -> None:
    session = await start_desert(service, BOB, CAROL)
    before, _, after = await play_until(service, session, whole_turn)
    seat = before.awaited[0]
    mover = user_of(before, seat)
    others = sorted({ALICE, BOB, CAROL} - {mover})
    now = datetime.now(UTC)
    asked = await service.undo_requests.request(CHANNEL, mover, now)
    assert asked.after is None and sorted(asked.asked) == others
    assert asked.plan.judgement.reason == "undo.turn_passed"
    kwargs: dict[str, Any] = {
        "version": after.record.version,
        "seat": seat,
        "asked_at": asked.asked_at,
    }
    # The mover cannot vote on his own request; a stranger neither.
    for outsider in (mover, 99):
        with pytest.raises(UserError) as info:
            await service.undo_requests.vote(after.id, outsider, agree=True, now=now, **kwargs)
        assert info.value.key == "undo.not_a_voter"
    first = await service.undo_requests.vote(after.id, others[0], agree=True, now=now, **kwargs)
    assert first.after is None and first.agreed == (others[0],)
    done = await service.undo_requests.vote(after.id, others[1], agree=True, now=now, **kwargs)
    assert done.after is not None
    assert GAME.dump(done.after.state) == GAME.dump(before.state)
    assert done.after.awaited == (seat,)
    # The request is spent: the board moved on.
    with pytest.raises(UserError) as info:
        await service.undo_requests.vote(after.id, others[1], agree=True, now=now, **kwargs)
    assert info.value.key == "undo.vote_over"


async def test_one_refusal_or_a_late_answer_keeps_the_move(service: GameService) -> None:
    session = await start_desert(service, BOB)
    before, _, after = await play_until(service, session, whole_turn)
    seat = before.awaited[0]
    mover, other = user_of(before, seat), ({ALICE, BOB} - {user_of(before, seat)}).pop()
    now = datetime.now(UTC)
    asked = await service.undo_requests.request(CHANNEL, mover, now)
    kwargs: dict[str, Any] = {
        "version": after.record.version,
        "seat": seat,
        "asked_at": asked.asked_at,
    }
    late = now + timedelta(hours=25)  # the game's clock is 24 h
    with pytest.raises(UserError) as info:
        await service.undo_requests.vote(after.id, other, agree=True, now=late, **kwargs)
    assert info.value.key == "undo.vote_expired"
    no = await service.undo_requests.vote(after.id, other, agree=False, now=now, **kwargs)
    assert no.after is None and no.refused_by == other
    unchanged = await service.require_session(CHANNEL)
    assert unchanged.record.version == after.record.version


async def test_a_move_made_meanwhile_ends_the_request(service: GameService) -> None:
    session = await start_desert(service, BOB)
    before, _, after = await play_until(service, session, whole_turn)
    seat = before.awaited[0]
    mover = user_of(before, seat)
    now = datetime.now(UTC)
    asked = await service.undo_requests.request(CHANNEL, mover, now)
    other = asked.asked[0]
    # The other player plays instead of answering: too late to take it back.
    moved = await play_until(service, after, lambda s, step: True)
    assert moved[2].record.version > after.record.version
    with pytest.raises(UserError) as info:
        await service.undo_requests.vote(
            after.id,
            other,
            version=after.record.version,
            seat=seat,
            asked_at=asked.asked_at,
            agree=True,
            now=now,
        )
    assert info.value.key == "undo.vote_over"
    with pytest.raises(UserError) as info:
        await service.undo_requests.request(CHANNEL, mover, now)
    assert info.value.key == "undo.others_moved"


async def test_nothing_past_a_private_reveal(service: GameService) -> None:
    """A camel on a water hole shows its value to the mover only: undoing it
    would let him choose again knowing it."""
    session = await start_desert(service, BOB)
    before, _, after = await play_until(service, session, water)
    mover = user_of(before, before.awaited[0])
    with pytest.raises(UserError) as info:
        await service.undo_requests.request(CHANNEL, mover, datetime.now(UTC))
    assert info.value.key == "undo.private_reveal"
    assert (await service.require_session(CHANNEL)).record.version == after.record.version


async def test_against_bots_the_turn_and_the_bots_replies_are_taken_back(
    service: GameService,
) -> None:
    """Alone with a bot, nobody is asked: the bot's replies go too."""
    session = await start_desert(service, bots=1)
    before, _, after = await play_until(service, session, whole_turn)
    outcome = await service.undo_requests.request(CHANNEL, ALICE, datetime.now(UTC))
    assert outcome.after is not None and outcome.asked == ()
    assert GAME.dump(outcome.after.state) == GAME.dump(before.state)
    assert len(outcome.plan.rows) >= 2  # her command and the bot's turn after it


async def test_refusals(service: GameService) -> None:
    with pytest.raises(UserError) as info:
        await service.undo_requests.request(CHANNEL, ALICE, datetime.now(UTC))
    assert info.value.key == "game.none_here"
    session = await start_desert(service, BOB)
    waiting = ({ALICE, BOB} - {user_of(session, session.awaited[0])}).pop()
    with pytest.raises(UserError) as info:
        await service.undo_requests.request(CHANNEL, waiting, datetime.now(UTC))
    assert info.value.key == "undo.nothing"
    with pytest.raises(UserError) as info:
        await service.undo_requests.request(CHANNEL, CAROL, datetime.now(UTC))
    assert info.value.key == "game.not_a_player"
