"""Game sessions: the lobby and move flow, between storage and the engines.

Discord-free so it can be tested with a real database and no network. The
cogs translate interactions into these calls and the results into replies.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from bot.errors import UserError
from bot.registry import KINDS, GameKind
from bot.storage import ChannelBusy as StorageChannelBusy
from bot.storage import (
    GameRecord,
    ResultRow,
    SeatRecord,
    StaleVersion,
    Storage,
    results_for,
)
from games.core import Outcome, Seat, apply_all

log = logging.getLogger(__name__)

BOT_NAMES = ("Zahra", "Idris", "Layla", "Tariq", "Amina", "Yusuf")
MAX_NOTATION = 200  # longer text is never a move; refuse before parsing


@dataclass(frozen=True)
class Session:
    """A game record with its engine state loaded."""

    record: GameRecord
    kind: GameKind
    state: Any | None = None

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def engine(self) -> Any:
        if self.kind.engine is None:  # pragma: no cover - lobby refuses these
            raise UserError("game.not_implemented", game=self.kind.title)
        return self.kind.engine

    @property
    def names(self) -> list[str]:
        return [seat.name for seat in self.record.seats]

    def seat_of(self, user_id: int) -> Seat | None:
        for seat in self.record.seats:
            if seat.user_id == user_id and not seat.is_bot:
                return seat.seat
        return None

    def seat(self, seat: Seat) -> SeatRecord:
        return self.record.seats[seat]

    def ai_plays(self, seat: Seat) -> bool:
        """Bot seats, and resigned players whose seat the AI now plays."""
        record = self.record.seats[seat]
        return record.is_bot or record.resigned

    @property
    def to_act(self) -> tuple[Seat, ...]:
        if self.state is None or self.record.status != "active":
            return ()
        return tuple(self.engine.to_act(self.state))

    @property
    def outcome(self) -> Outcome | None:
        if self.state is None:
            return None
        result: Outcome | None = self.engine.outcome(self.state)
        return result

    def view(self, seat: Seat | None) -> Any:
        return self.engine.view(self.state, seat)


@dataclass(frozen=True)
class Turn:
    """Consecutive atomic moves one seat made, as notation."""

    seat: Seat
    moves: tuple[str, ...]
    by_ai: bool
    state: Any = None  # the engine state right after this turn, for describing it


@dataclass(frozen=True)
class MoveReport:
    before: Session
    after: Session
    turns: tuple[Turn, ...]  # the player's command first, then AI turns
    ended: bool = False


@dataclass
class _StateCache:
    """Loaded states by (game id, version): autocomplete reloads them often."""

    size: int = 64
    items: OrderedDict[tuple[int, int], Any] = field(default_factory=OrderedDict)

    def get(self, key: tuple[int, int]) -> Any | None:
        if key in self.items:
            self.items.move_to_end(key)
            return self.items[key]
        return None

    def put(self, key: tuple[int, int], state: Any) -> None:
        self.items[key] = state
        self.items.move_to_end(key)
        while len(self.items) > self.size:
            self.items.popitem(last=False)


class GameService:
    def __init__(self, storage: Storage, kinds: Mapping[str, GameKind] = KINDS) -> None:
        self.storage = storage
        self.kinds = kinds
        self._cache = _StateCache()

    # ------------------------------------------------------------------ loading

    def forget_cached_states(self) -> None:
        """Drop loaded states (benchmarks measure the cold path with it)."""
        self._cache.items.clear()

    def _session(self, record: GameRecord) -> Session:
        kind = self.kinds[record.kind]
        state = None
        if record.state is not None and kind.engine is not None:
            key = (record.id, record.version)
            state = self._cache.get(key)
            if state is None:
                state = kind.engine.load(record.state)
                self._cache.put(key, state)
        return Session(record, kind, state)

    async def session_in(self, channel_id: int) -> Session | None:
        record = await self.storage.active_game(channel_id)
        return None if record is None else self._session(record)

    async def require_session(self, channel_id: int) -> Session:
        session = await self.session_in(channel_id)
        if session is None:
            raise UserError("game.none_here")
        return session

    async def get(self, game_id: int) -> Session | None:
        record = await self.storage.get_game(game_id)
        return None if record is None else self._session(record)

    # ------------------------------------------------------------------ lobby

    async def create(
        self,
        *,
        kind_key: str,
        guild_id: int,
        channel_id: int,
        user_id: int,
        name: str,
        bots: int = 0,
        options: Mapping[str, str] | None = None,
    ) -> Session:
        kind = self.kinds.get(kind_key)
        if kind is None:
            raise UserError("game.unknown_kind", game=kind_key)
        if not kind.playable:
            raise UserError("game.not_implemented", game=kind.title)
        if not 0 <= bots <= kind.max_players - 1:
            raise UserError("lobby.bad_bot_count", max=kind.max_players - 1)
        try:
            record = await self.storage.create_game(
                kind.key,
                guild_id,
                channel_id,
                user_id,
                name,
                dict(options or {}),
                secrets.randbits(62),
            )
        except StorageChannelBusy as exc:
            raise UserError("lobby.channel_busy") from exc
        for index in range(bots):
            record = await self.storage.add_seat(
                record.id, record.version, None, f"🤖 {BOT_NAMES[index]}", True
            )
        return self._session(record)

    async def join(self, channel_id: int, user_id: int, name: str) -> Session:
        session = await self.require_session(channel_id)
        record = session.record
        if record.status != "lobby":
            raise UserError("lobby.already_started")
        if session.seat_of(user_id) is not None:
            raise UserError("lobby.already_joined")
        if len(record.seats) >= session.kind.max_players:
            raise UserError("lobby.full", max=session.kind.max_players)
        record = await self._guard(
            self.storage.add_seat(record.id, record.version, user_id, name, False)
        )
        return self._session(record)

    async def leave(self, channel_id: int, user_id: int) -> tuple[Session, bool]:
        """Leave a lobby. Returns (session, cancelled): the creator leaving closes it."""
        session = await self.require_session(channel_id)
        record = session.record
        if record.status != "lobby":
            raise UserError("lobby.leave_started")
        if session.seat_of(user_id) is None:
            raise UserError("game.not_a_player")
        if user_id == record.creator_id:
            record = await self._guard(self.storage.cancel_game(record.id, record.version))
            return self._session(record), True
        record = await self._guard(self.storage.remove_seat(record.id, record.version, user_id))
        return self._session(record), False

    async def start(self, channel_id: int, user_id: int) -> MoveReport:
        session = await self.require_session(channel_id)
        record = session.record
        if record.status != "lobby":
            raise UserError("lobby.already_started")
        if user_id != record.creator_id:
            raise UserError("lobby.only_creator_starts")
        count = len(record.seats)
        if count < session.kind.min_players:
            raise UserError("lobby.too_few", min=session.kind.min_players, count=count)
        # The rules let the host pick the first player; we draw the seating at
        # random from the game's seed so it is reproducible.
        order = list(range(count))
        random.Random(record.seed).shuffle(order)
        state = session.engine.new(count, record.seed, record.options)
        record = await self._guard(
            self.storage.start_game(record.id, record.version, order, session.engine.dump(state))
        )
        started = self._session(record)
        return MoveReport(session, started, ())

    async def cancel(self, channel_id: int, user_id: int, is_admin: bool) -> Session:
        session = await self.require_session(channel_id)
        if user_id != session.record.creator_id and not is_admin:
            raise UserError("game.cancel_forbidden")
        record = await self._guard(self.storage.cancel_game(session.id, session.record.version))
        return self._session(record)

    # ------------------------------------------------------------------ play

    def _playing_session(self, session: Session, user_id: int) -> Seat:
        if session.record.status == "lobby":
            raise UserError("game.not_started")
        seat = session.seat_of(user_id)
        if seat is None:
            raise UserError("game.not_a_player")
        if session.seat(seat).resigned:
            raise UserError("game.you_resigned")
        return seat

    async def play(
        self, channel_id: int, user_id: int, text: str, *, expected_version: int | None = None
    ) -> MoveReport:
        """Parse and apply a player's command, save it, then let AI seats move."""
        session = await self.require_session(channel_id)
        seat = self._playing_session(session, user_id)
        if expected_version is not None and expected_version != session.record.version:
            raise UserError("game.stale")
        if seat not in session.to_act:
            waiting = ", ".join(session.names[s] for s in session.to_act)
            raise UserError("game.not_your_turn", players=waiting)
        text = text.strip()
        if not text:
            raise UserError("move.empty")
        if len(text) > MAX_NOTATION:
            raise UserError("move.too_long", max=MAX_NOTATION)
        engine = session.engine
        moves = engine.parse(session.state, seat, text)
        state = apply_all(engine, session.state, seat, moves)
        notation = " ".join(engine.format_move(m) for m in moves)
        after = await self._record(session, seat, notation, state)
        turn = Turn(seat, tuple(engine.format_move(m) for m in moves), False, state)
        return MoveReport(session, after, (turn,), ended=after.record.status == "finished")

    async def resign(self, channel_id: int, user_id: int) -> MoveReport:
        """The AI takes over the seat; the game ends when no real contest is left."""
        session = await self.require_session(channel_id)
        seat = self._playing_session(session, user_id)
        record = await self._guard(
            self.storage.set_seat_resigned(
                session.id, session.record.version, seat, session.engine.dump(session.state)
            )
        )
        after = self._session(record)
        still_in = [s for s in after.record.seats if not s.resigned]
        humans_in = [s for s in still_in if not s.is_bot]
        if len(still_in) <= 1 or not humans_in:
            results = self._resignation_results(after)
            record = await self._guard(
                self.storage.finish_game(
                    after.id, after.record.version, after.engine.dump(after.state), results
                )
            )
            return MoveReport(session, self._session(record), (), ended=True)
        return MoveReport(session, after, ())

    async def advance(self, session: Session) -> MoveReport:
        """Let AI seats (bots, resigned players) play until a human must act.

        Called after the interaction is acknowledged, and at start-up for
        games a restart interrupted. A lost race means another handler is
        already doing it, so it just stops.
        """
        after, turns = await self._run_ai(session)
        return MoveReport(session, after, tuple(turns), ended=after.record.status == "finished")

    # ------------------------------------------------------------------ reminders

    async def due_reminders(self, guild_id: int, now: datetime, after: timedelta) -> list[Session]:
        """Active games where a human has been expected for ``after`` or longer.

        A game is due again ``after`` its last reminder, so a player away for
        days gets one nudge per period, not one per check.
        """
        due = []
        for record in await self.storage.list_games(guild_id, ("active",), limit=100):
            quiet_since = datetime.fromisoformat(record.updated_at)
            last = await self.storage.get_meta(f"reminded:{record.id}")
            if last is not None:
                version, _, stamp = last.partition("@")
                if int(version) == record.version:
                    quiet_since = max(quiet_since, datetime.fromisoformat(stamp))
            if now - quiet_since < after:
                continue
            session = self._session(record)
            if any(True for _ in iter_mentions(session)):
                due.append(session)
        return due

    async def mark_reminded(self, session: Session, now: datetime) -> None:
        await self.storage.set_meta(
            f"reminded:{session.id}", f"{session.record.version}@{now.isoformat()}"
        )

    # ------------------------------------------------------------------ internals

    async def _run_ai(self, session: Session) -> tuple[Session, list[Turn]]:
        turns: list[Turn] = []
        while session.record.status == "active":
            ai_seats = [s for s in session.to_act if session.ai_plays(s)]
            if not ai_seats:
                break
            seat = ai_seats[0]
            kind = session.kind
            assert kind.choose_move is not None
            move = kind.choose_move(session.state, seat)
            state = session.engine.apply(session.state, seat, move)
            notation = session.engine.format_move(move)
            try:
                session = await self._record(session, seat, notation, state)
            except UserError:
                # Someone else moved first (another handler runs the AI); stop.
                break
            if turns and turns[-1].seat == seat:
                turns[-1] = Turn(seat, (*turns[-1].moves, notation), True, state)
            else:
                turns.append(Turn(seat, (notation,), True, state))
        return session, turns

    async def _record(self, session: Session, seat: Seat, notation: str, state: Any) -> Session:
        engine = session.engine
        outcome: Outcome | None = engine.outcome(state)
        results = self._results(session, outcome) if outcome is not None else None
        record = await self._guard(
            self.storage.record_move(
                session.id,
                session.record.version,
                seat,
                notation,
                engine.dump(state),
                results=results,
            )
        )
        self._cache.put((record.id, record.version), state)
        return Session(record, session.kind, state)

    @staticmethod
    def _results(session: Session, outcome: Outcome) -> list[ResultRow]:
        """Rank by score among those still in; resigned players rank after them.

        Without a resignation this is exactly the engine's ranking (ties share).
        """
        seats = session.record.seats
        scores = outcome.scores
        still_in = [s.seat for s in seats if not s.resigned]
        resigned_rank = 1 + len(still_in)
        ranks = [
            resigned_rank
            if s.resigned
            else 1 + sum(1 for other in still_in if scores[other] > scores[s.seat])
            for s in seats
        ]
        winners = {seat for seat in still_in if ranks[seat] == 1}
        return list(results_for(seats, scores, ranks, winners))

    @staticmethod
    def _resignation_results(session: Session) -> list[ResultRow]:
        """Ended by resignation: those still in share the win, no scores."""
        seats = session.record.seats
        ranks = [2 if s.resigned else 1 for s in seats]
        winners = {s.seat for s in seats if not s.resigned}
        return list(results_for(seats, [0] * len(seats), ranks, winners))

    @staticmethod
    async def _guard(operation: Any) -> GameRecord:
        """Await a versioned write; a lost race becomes the user-facing 'stale'."""
        try:
            record: GameRecord = await operation
        except StaleVersion as exc:
            raise UserError("game.stale") from exc
        return record


def iter_mentions(session: Session) -> Iterator[int]:
    """User ids of the humans who must act now (AI seats never need a ping)."""
    for seat in session.to_act:
        record = session.seat(seat)
        if record.user_id is not None and not session.ai_plays(seat):
            yield record.user_id
