"""/game undo: take back one's last command, freely or by the others' consent.

What may be taken back is judged from the engine alone (:mod:`bot.undo_rules`); this
module finds the rows, rebuilds the earlier state from the move log
(:mod:`bot.replay`), runs the consent vote and records the undo in the log.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from bot.errors import UserError
from bot.names import md
from bot.replay import Row, replay
from bot.session import Session
from bot.sessions import Sessions
from bot.storage import MoveRecord
from bot.undo_rules import Judgement, judge
from games.contract import Game, Seat

NO_CLOCK_VOTE_HOURS = 24.0  # how long the others have to agree when the game has no clock


@dataclass(frozen=True)
class UndoPlan:
    """What ``/game undo`` would take back, and the verdict."""

    session: Session
    seat: Seat
    rows: tuple[MoveRecord, ...]  # the caller's last command, then AI rows after it
    before: Any  # the state before them
    judgement: Judgement

    @property
    def command(self) -> str:
        return self.rows[0].notation


@dataclass(frozen=True)
class UndoOutcome:
    """After a request or a vote: ``after`` when applied, else who must agree."""

    plan: UndoPlan
    after: Session | None
    asked: tuple[int, ...] = ()  # the users asked to agree
    agreed: tuple[int, ...] = ()
    refused_by: int | None = None
    asked_at: int = 0  # when the vote opened (whole seconds): names the question


@dataclass(frozen=True)
class Asked:
    """When and on which board an undo request was asked (from its question)."""

    version: int
    at: datetime


def parse_question(question: str) -> Asked | None:
    """``undo:{version}:{seat}:{asked_at}`` (see :meth:`UndoRequests.question`)."""
    parts = question.split(":")
    if len(parts) != 4 or parts[0] != "undo" or not all(p.isdigit() for p in parts[1:]):
        return None
    return Asked(int(parts[1]), datetime.fromtimestamp(int(parts[3]), UTC))


def asked_key(game_id: int, seat: Seat) -> str:
    """The ``meta`` key holding the question of a seat's latest undo request."""
    return f"undo_asked:{game_id}:{seat}"


def vote_hours(session: Session) -> float:
    """The others must agree within the game's clock (a day without a clock)."""
    hours = session.record.clock_hours
    return hours if hours > 0 else NO_CLOCK_VOTE_HOURS


def _judged(
    engine: Game[Any, Any],
    players: int,
    seed: int,
    options: Mapping[str, str],
    earlier: list[Row],
    taken_back: list[Row],
    ends_turn: list[bool],
    seat: Seat,
    ai_seats: set[Seat],
    twin_seed: int,
) -> tuple[Any, Judgement]:
    """The state before ``taken_back`` and whether it may be restored."""
    before = replay(engine, players, seed, options, earlier)[-1]
    verdict = judge(
        engine,
        before,
        taken_back,
        seat,
        ai_seats=ai_seats,
        ends_turn=ends_turn,
        players=players,
        seed=twin_seed,
    )
    return before, verdict


class UndoRequests:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    async def plan(self, session: Session, user_id: int) -> UndoPlan:
        """The caller's last command and its verdict; refusals raise UserError."""
        if session.broken:
            raise UserError("game.broken", id=session.id)
        if session.record.status != "active":
            raise UserError("undo.not_running")
        seat = session.seat_of(user_id)
        if seat is None:
            raise UserError("game.not_a_player")
        if session.ai_plays(seat):
            raise UserError("game.you_resigned")
        counting = [m for m in await self.sessions.storage.moves(session.id) if m.counts]
        mine = [i for i, m in enumerate(counting) if m.seat == seat]
        if not mine:
            raise UserError("undo.nothing")
        first = mine[-1]
        rows = tuple(counting[first:])
        record = session.record
        engine = session.engine
        ai_seats = {s.seat for s in record.seats if s.ai_played}

        # CPU-bound (a replay from the seed, then the twins): in the worker pool.
        before, verdict = await self.sessions.cpu.run(
            _judged,
            engine,
            len(record.seats),
            record.seed,
            record.options,
            [Row(m.seat, m.notation) for m in counting[:first]],
            [Row(m.seat, m.notation) for m in rows],
            [m.ends_turn for m in rows],
            seat,
            ai_seats,
            record.seed ^ record.version,
        )
        if verdict.verdict == "refuse":
            raise UserError(verdict.reason, command=md(rows[0].notation))
        return UndoPlan(session, seat, rows, before, verdict)

    async def apply(self, plan: UndoPlan) -> Session:
        session = plan.session
        state = session.engine.dump(plan.before)
        record = await self.sessions.unless_stale(
            self.sessions.storage.record_undo(
                session.id, session.record.version, plan.seat, plan.rows[0].ply, state
            )
        )
        return self.sessions.of(record)

    def voters(self, plan: UndoPlan) -> tuple[int, ...]:
        """Every other human still in play."""
        return tuple(
            s.user_id
            for s in plan.session.record.seats
            if s.user_id is not None and not s.ai_played and s.seat != plan.seat
        )

    async def request(self, channel_id: int, user_id: int, now: datetime) -> UndoOutcome:
        """Undo at once when free (or nobody else to ask); else open the vote,
        the caller's own agreement counted. While his request is open, asking
        again is refused (privately): the others were asked once."""
        session = await self.sessions.required(channel_id)
        await self._refuse_if_pending(session, user_id, now)
        plan = await self.plan(session, user_id)
        others = self.voters(plan)
        if plan.judgement.verdict == "free" or not others:
            return UndoOutcome(plan, await self.apply(plan))
        asked_at = int(now.timestamp())
        question = self.question(plan, asked_at)
        storage = self.sessions.storage
        await storage.cast_vote(session.id, question, user_id, "yes")
        await storage.set_meta(asked_key(session.id, plan.seat), question)
        return UndoOutcome(plan, None, asked=others, asked_at=asked_at)

    async def _refuse_if_pending(self, session: Session, user_id: int, now: datetime) -> None:
        """The caller's last request still waits for the others' answer: it is
        for this very board (no move since), in time, and nobody refused it."""
        seat = session.seat_of(user_id)
        if seat is None or session.record.status != "active":
            return  # plan() says what is wrong
        storage = self.sessions.storage
        question = await storage.get_meta(asked_key(session.id, seat))
        if question is None:
            return
        asked = parse_question(question)
        if asked is None or asked.version != session.record.version:
            return  # a move since ended the request
        if now - asked.at > timedelta(hours=vote_hours(session)):
            return  # expired
        # His own "yes" again changes nothing and returns the others' answers.
        votes = await storage.cast_vote(session.id, question, user_id, "yes")
        if "no" not in votes.values():
            raise UserError("undo.pending")

    @staticmethod
    def question(plan: UndoPlan, asked_at: int) -> str:
        return f"undo:{plan.session.record.version}:{plan.seat}:{asked_at}"

    async def vote(
        self,
        game_id: int,
        user_id: int,
        *,
        version: int,
        seat: Seat,
        asked_at: int,
        agree: bool,
        now: datetime,
    ) -> UndoOutcome:
        """Another player answers ``seat``'s request; all must agree within the clock."""
        session = await self.sessions.get(game_id)
        if session is None or session.record.status != "active":
            raise UserError("button.old_game")
        if session.record.version != version or not 0 <= seat < len(session.record.seats):
            raise UserError("undo.vote_over")
        asked = datetime.fromtimestamp(asked_at, now.tzinfo)
        if now - asked > timedelta(hours=vote_hours(session)):
            raise UserError("undo.vote_expired")
        requester = session.seat(seat).user_id
        if requester is None:
            raise UserError("undo.vote_over")
        plan = await self.plan(session, requester)
        others = self.voters(plan)
        if user_id not in others:
            raise UserError("undo.not_a_voter")
        question = self.question(plan, asked_at)
        votes = await self.sessions.storage.cast_vote(
            game_id, question, user_id, "yes" if agree else "no"
        )
        if not agree:
            return UndoOutcome(plan, None, others, refused_by=user_id, asked_at=asked_at)
        agreed = tuple(u for u in others if votes.get(u) == "yes")
        if len(agreed) < len(others):
            return UndoOutcome(plan, None, others, agreed, asked_at=asked_at)
        try:
            return UndoOutcome(plan, await self.apply(plan), others, agreed, asked_at=asked_at)
        except UserError as exc:
            raise UserError("undo.vote_over") from exc


def taken_back(moves: Sequence[MoveRecord]) -> dict[int, list[int]]:
    """For each undo row of a move log (by ply), the plies of the rows it took
    back: the rows from its ``undoes`` on, before it, taken back and not by an
    earlier undo (what /game history and the web pages show of an undo)."""
    claimed: set[int] = set()
    result: dict[int, list[int]] = {}
    for index, row in enumerate(moves):
        if row.undoes is None:
            continue
        plies = [
            m.ply
            for m in moves[:index]
            if m.undoes is None and m.undone and m.ply >= row.undoes and m.ply not in claimed
        ]
        claimed.update(plies)
        result[row.ply] = plies
    return result
