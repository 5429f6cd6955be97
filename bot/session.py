"""A game as the platform handles it: its record and loaded state (Session),
what an action saved (Saved) and what it led to (Turn, MoveReport), and how
a finished game ranks (standings).

Plain values; :mod:`bot.service` makes and changes them.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from bot.errors import UserError
from bot.names import md
from bot.storage import GameRecord, ResultRow, SeatRecord, results_for
from games.contract import Decision, Event, Game, GameSpec, Outcome, Seat
from games.rng import Rng, derive_seed


@dataclass(frozen=True)
class Session:
    """A game record with its engine state loaded.

    ``broken`` says why a stored game cannot be loaded (a damaged row, a state
    from an incompatible version, a game this bot no longer hosts): such a
    game shows that in /game status and can be cancelled from its record, so
    it never locks its channel; everything that needs the engine refuses.
    """

    record: GameRecord
    hosted_spec: GameSpec | None  # its kind's spec; None when this bot no longer hosts it
    state: Any | None = None
    broken: str = ""

    @property
    def id(self) -> int:
        return self.record.id

    @property
    def kind(self) -> str:
        """Which game: its registry key (``GameSpec.kind``)."""
        return self.record.kind

    @property
    def spec(self) -> GameSpec:
        if self.hosted_spec is None or self.broken:
            raise UserError("game.broken", id=self.id)
        return self.hosted_spec

    @property
    def lang(self) -> str:
        """The game's language: its public posts and boards are in it."""
        return self.record.lang

    @property
    def engine(self) -> Game[Any, Any]:
        """The game's rules (its states and moves are opaque to the platform)."""
        return self.spec.engine

    @property
    def names(self) -> list[str]:
        """Display names as stored (cleaned when they sat down): for images and labels."""
        return [seat.name for seat in self.record.seats]

    def people(self, *, plain: bool = False) -> list[str]:
        """How texts name each seat (see :class:`games.text.Player`): its mark
        and display name, escaped for a Discord message, or (``plain``) as
        stored, for buttons, autocomplete and text files, where Discord shows
        Markdown as typed. A new list each time: callers may change theirs."""
        return list(self._plain_people if plain else self._people)

    @cached_property
    def _people(self) -> tuple[str, ...]:
        return self._named(plain=False)

    @cached_property
    def _plain_people(self) -> tuple[str, ...]:
        return self._named(plain=True)

    def _named(self, *, plain: bool) -> tuple[str, ...]:
        spec = self.hosted_spec
        people = []
        for record in self.record.seats:
            name = record.name if plain else md(record.name)
            mark = spec.mark(record.seat) if spec is not None else ""
            people.append(f"{mark} {name}" if mark else name)
        return tuple(people)

    def shown(self, seat: Seat) -> str:
        """A seat's name escaped for a Discord message (no Markdown, links or pings)."""
        return md(self.record.seats[seat].name)

    def seat_of(self, user_id: int) -> Seat | None:
        for seat in self.record.seats:
            if seat.user_id == user_id and not seat.is_bot:
                return seat.seat
        return None

    def seat(self, seat: Seat) -> SeatRecord:
        return self.record.seats[seat]

    def ai_plays(self, seat: Seat) -> bool:
        """Bot seats, and players whose seat the AI now plays (resigned, away, removed)."""
        return self.record.seats[seat].ai_played

    def left_for_good(self, seat: Seat) -> bool:
        """A human who resigned or was removed: the AI plays his seat to the end
        and it is no longer his (one merely away takes it back by playing)."""
        record = self.record.seats[seat]
        return record.resigned or record.replaced == "removed"

    def private_seat(self, user_id: int) -> Seat | None:
        """The seat whose private information ``user_id`` may read (/game hand,
        his own board): his own, unless he left it for good; else None, and he
        sees what a spectator sees."""
        seat = self.seat_of(user_id)
        if seat is None or self.left_for_good(seat):
            return None
        return seat

    def hand_seat(self, user_id: int) -> Seat:
        """The seat whose private information /game hand shows ``user_id``:
        refused to non-players and to those who left their seat for good."""
        seat = self.seat_of(user_id)
        if seat is None:
            raise UserError("game.not_a_player")
        if self.left_for_good(seat):
            raise UserError("game.hand_left")  # the AI plays on with it: no longer his to read
        return seat

    # A session is one version of a game, frozen, and its engine is pure: what
    # follows from its state is worked out once (a turn post asks several times).

    @cached_property
    def decisions(self) -> tuple[Decision, ...]:
        if self.state is None or self.broken or self.record.status != "active":
            return ()
        return tuple(self.engine.decisions(self.state))

    @cached_property
    def to_act(self) -> tuple[Seat, ...]:
        if self.state is None or self.broken or self.record.status != "active":
            return ()
        return tuple(self.engine.to_act(self.state))

    @cached_property
    def awaited(self) -> tuple[Seat, ...]:
        """Seats the game waits for: ``to_act`` less those whose only decisions
        are optional (they may act, but nobody is pinged or reminded for them)."""
        return tuple(dict.fromkeys(d.seat for d in self.decisions if not d.optional))

    @property
    def deadline(self) -> datetime | None:
        """When the current wait runs out on the turn clock, vacations not
        counted (they push it back), or None: no clock, or not running."""
        record = self.record
        if record.status != "active" or record.clock_hours <= 0 or record.turn_since is None:
            return None
        return datetime.fromisoformat(record.turn_since) + timedelta(hours=record.clock_hours)

    @property
    def progress(self) -> float:
        """How far the game has run, by the engine's public measure: 0.0 at the
        start, 1.0 over (see ``Game.progress``)."""
        if self.state is None:
            return 0.0
        return float(self.engine.progress(self.state))

    @property
    def outcome(self) -> Outcome | None:
        if self.state is None or self.broken:
            return None
        result: Outcome | None = self.engine.outcome(self.state)
        return result

    def view(self, seat: Seat | None) -> Any:
        return self.engine.view(self.state, seat)

    def hand(self, seat: Seat) -> tuple[Event, ...]:
        return tuple(self.engine.hand(self.state, seat))

    def standings(self) -> tuple[Standing, ...]:
        return standings(self.record.seats, self.outcome)


@dataclass(frozen=True)
class Turn:
    """Consecutive atomic moves one seat made, as notation, with their events."""

    seat: Seat
    moves: tuple[str, ...]
    by_ai: bool
    events: tuple[Event, ...] = ()

    def public_events(self) -> tuple[Event, ...]:
        return tuple(e for e in self.events if e.to is None)


@dataclass(frozen=True)
class Saved:
    """A player's action (a start, a move, a resignation), checked and saved;
    the AI seats have not answered it yet.

    Its turns are not read here but from :meth:`GameService.settle
    <bot.service.GameService.settle>`, which first lets the AI seats play what
    the action leads to: so no front end can post a turn and forget the AI.
    Saving is fast and its refusals come before anything is said; the AI may
    think longer than Discord waits for an answer (three seconds), so a front
    end acknowledges the interaction in between, then settles and posts the
    player's turn and the AI's in one post.
    """

    before: Session
    after: Session
    ended: bool = False
    # False while the player still acts in the same turn (a first camel):
    # such a step is answered privately; the turn's post comes at its end.
    turn_over: bool = True
    # Ended by resignations before half its course: cancelled, it counts for nobody.
    void: bool = False
    # The player's own turn, for GameService.settle only (see above).
    _turns: tuple[Turn, ...] = field(default=(), repr=False)


@dataclass(frozen=True)
class MoveReport:
    """A settled action: the player's turn and the AI turns that followed it."""

    before: Session
    after: Session
    turns: tuple[Turn, ...]  # the player's command first, then AI turns
    ended: bool = False
    # False while the player still acts in the same turn (a first camel):
    # such a step is answered privately; the turn's post comes at its end.
    turn_over: bool = True
    # Ended by resignations before half its course: cancelled, it counts for nobody.
    void: bool = False

    @property
    def finished(self) -> bool:
        """Over by its own rules or with results (not cancelled): the final post
        gets its score chart."""
        return self.after.record.status == "finished"

    def private_events(self) -> dict[Seat, tuple[Event, ...]]:
        """Per seat, the events only it may read, in order."""
        found: dict[Seat, list[Event]] = {}
        for turn in self.turns:
            for event in turn.events:
                if event.to is not None:
                    found.setdefault(event.to, []).append(event)
        return {seat: tuple(events) for seat, events in found.items()}


@dataclass(frozen=True)
class CancelVote:
    session: Session
    cancelled: bool
    waiting: tuple[str, ...]  # names of the players who have not agreed yet


@dataclass(frozen=True)
class Standing:
    """A seat's place in a finished game as the leaderboard records it."""

    seat: Seat
    score: int
    rank: int
    won: bool


def standings(seats: Sequence[SeatRecord], outcome: Outcome | None) -> tuple[Standing, ...]:
    """The engine's ranking (tie-breaks included) among those still in; players
    who resigned, were replaced by the AI and never came back, or were removed
    rank last.

    Without an outcome (the game ended by resignation) those still in share
    the win. The final post and the stored results both come from here.
    """
    still_in = [s.seat for s in seats if not s.out]
    last = 1 + len(still_in)
    out = []
    for s in seats:
        if s.out:
            rank = last
        elif outcome is None:
            rank = 1
        else:
            rank = 1 + sum(1 for o in still_in if outcome.ranks[o] < outcome.ranks[s.seat])
        score = outcome.scores[s.seat] if outcome is not None else 0
        out.append(Standing(s.seat, score, rank, won=not s.out and rank == 1))
    return tuple(out)


def result_rows(seats: Sequence[SeatRecord], outcome: Outcome | None) -> list[ResultRow]:
    table = standings(seats, outcome)
    return list(
        results_for(
            seats,
            [s.score for s in table],
            [s.rank for s in table],
            {s.seat for s in table if s.won},
        )
    )


def seating(seed: int, count: int, first: Seat | None = None) -> list[int]:
    """Lobby seats in playing order: shuffled from the game's seed (reproducible).

    When the host names who starts, the shuffled circle is turned so that
    player sits first and the others keep their drawn order.
    """
    order, _ = Rng.from_seed(derive_seed(seed, count)).shuffled(range(count))
    if first is None:
        return list(order)
    at = order.index(first)
    return list(order[at:] + order[:at])


def iter_mentions(session: Session) -> Iterator[int]:
    """User ids of the humans who must act now (AI seats never need a ping)."""
    for seat in session.awaited:
        record = session.seat(seat)
        if record.user_id is not None and not session.ai_plays(seat):
            yield record.user_id
