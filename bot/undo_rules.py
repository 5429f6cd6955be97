"""May a player take back commands?  Decided from the engine alone.

Undoing restores the earlier state exactly: the same deck order, the same
PRNG. So a player who saw something only he may see (a card drawn, a token
looked at) could undo and choose again knowing it: that is refused, always.
What everybody saw (a public draw, dice, a card turned face up), or what
only other players learnt, the others may agree to forget: they are asked.
A step inside one's own turn that revealed nothing is taken back freely;
once the turn has passed, the others are asked.

Nothing here knows any game. What was hidden or random is found the way the
contract suite's leak checks find it, with resampled twins: for a viewer,
``engine.resample(before, viewer, seed)`` is a state that viewer cannot tell
from the real one, with everything it cannot see drawn anew. The same rows
are played on each twin; if afterwards the viewer sees something different
from the real game (its view, or the events shown to it), the rows showed it
something that had been hidden from it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from bot.replay import Row, play_row, states_after
from games.contract import Event, Game, MoveError, Seat
from games.rng import derive_seed

Verdict = Literal["free", "ask", "refuse"]

FREE = "undo.free"
NOTHING = "undo.nothing"
OTHERS_MOVED = "undo.others_moved"
PRIVATE_REVEAL = "undo.private_reveal"
RANDOM_DRAWN = "undo.random_drawn"
HIDDEN_REVEALED = "undo.hidden_revealed"
TURN_PASSED = "undo.turn_passed"


@dataclass(frozen=True)
class Judgement:
    verdict: Verdict
    reason: str  # a catalogue key naming why (``undo.…``)


# What a viewer perceives of a replay: its view of the last state and the
# events shown to it (public ones and those addressed to it), as JSON.
Seen = tuple[Any, tuple[dict[str, Any], ...]]


@dataclass(frozen=True)
class _Trace:
    """The rows played on one state: the last state and every event."""

    state: Any
    events: tuple[Event, ...]


def _trace(engine: Game[Any, Any], start: Any, rows: Sequence[Row]) -> _Trace | None:
    """Play the rows from ``start``; None if one of them fails there."""
    state = start
    events: list[Event] = []
    try:
        for row in rows:
            _, step = play_row(engine, state, row)
            state = step.state
            events.extend(step.events)
    except MoveError:
        return None
    return _Trace(state, tuple(events))


def _seen(engine: Game[Any, Any], trace: _Trace, viewer: Seat | None) -> Seen:
    shown = tuple(e.to_json() for e in trace.events if e.to is None or e.to == viewer)
    return engine.view(trace.state, viewer), shown


def _twins(
    engine: Game[Any, Any],
    before: Any,
    rows: Sequence[Row],
    viewer: Seat | None,
    count: int,
    seed: int,
) -> list[_Trace | None]:
    """The rows played on ``count`` states resampled for ``viewer``."""
    return [
        _trace(engine, engine.resample(before, viewer, twin_seed(seed, viewer, k)), rows)
        for k in range(count)
    ]


def twin_seed(seed: int, viewer: Seat | None, number: int) -> int:
    """The seed of ``viewer``'s twin ``number``: distinct for every viewer and number."""
    return derive_seed(derive_seed(seed, 0 if viewer is None else viewer + 1), number)


def _learnt_privately(
    engine: Game[Any, Any], real: _Trace, twins: Sequence[_Trace | None], undoer: Seat
) -> bool:
    """Two worlds the undoer could not tell apart before the rows, which every
    spectator still cannot tell apart after them, but the undoer now can."""
    worlds = [real, *(t for t in twins if t is not None)]
    seen = [(_seen(engine, t, None), _seen(engine, t, undoer)) for t in worlds]
    for i, (public_i, mine_i) in enumerate(seen):
        for public_j, mine_j in seen[i + 1 :]:
            if public_i == public_j and mine_i != mine_j:
                return True
    return False


def _differs(
    engine: Game[Any, Any], real: _Trace, twins: Sequence[_Trace | None], viewer: Seat | None
) -> bool:
    """Whether some twin of ``viewer``'s ends differently for it (or fails)."""
    expected = _seen(engine, real, viewer)
    return any(t is None or _seen(engine, t, viewer) != expected for t in twins)


def judge(
    engine: Game[Any, Any],
    before: Any,
    rows: Sequence[Row],
    undoer: Seat,
    *,
    ai_seats: Collection[Seat],
    ends_turn: Sequence[bool],
    twins: int = 8,
    seed: int = 0,
    players: int | None = None,
) -> Judgement:
    """May ``undoer`` take back ``rows`` (its own last command first, then
    whatever AI seats played after it), played from state ``before``?

    ``ends_turn[i]`` says whether ``rows[i]`` ended its seat's turn. In order:

    - nothing to take back, or the first row is not the undoer's: refuse
      ``undo.nothing``; a later row by another human: refuse ``undo.others_moved``;
    - the undoer learnt something only it sees (an event addressed to it, or
      twins resampled for it that end alike for spectators but not for it):
      refuse ``undo.private_reveal``;
    - something hidden from spectators came out (dice, a card turned up):
      ask ``undo.random_drawn``; only other human seats learnt something:
      ask ``undo.hidden_revealed`` (what only an AI seat learnt is forgotten);
    - a row ended a turn: ask ``undo.turn_passed``; else ``undo.free``.

    ``twins`` states are resampled from ``before`` for each viewer (the
    spectator and every seat), from seeds derived from ``seed``, so the same
    inputs always give the same verdict. ``players`` is the number of seats:
    pass it (the engine contract cannot tell it); without it only the seats
    named by ``rows``, ``ai_seats`` and ``undoer`` are checked. Raises
    :class:`bot.replay.ReplayError` if the rows do not replay on ``before``.
    """
    if len(ends_turn) != len(rows):
        raise ValueError(f"{len(rows)} rows but {len(ends_turn)} ends_turn flags")
    if not rows or rows[0].seat != undoer:
        return Judgement("refuse", NOTHING)
    if any(row.seat != undoer and row.seat not in ai_seats for row in rows[1:]):
        return Judgement("refuse", OTHERS_MOVED)

    state = before
    events: list[Event] = []
    for _, step in states_after(engine, before, rows):
        state = step.state
        events.extend(step.events)
    real = _Trace(state, tuple(events))
    if any(e.to == undoer for e in real.events):
        return Judgement("refuse", PRIVATE_REVEAL)

    mine = _twins(engine, before, rows, undoer, twins, seed)
    if _learnt_privately(engine, real, mine, undoer):
        return Judgement("refuse", PRIVATE_REVEAL)
    # A twin the undoer could not tell apart that spectators now can: the
    # rows made public something hidden before.
    expected = _seen(engine, real, None)
    if any(t is not None and _seen(engine, t, None) != expected for t in mine):
        return Judgement("ask", RANDOM_DRAWN)
    if _differs(engine, real, _twins(engine, before, rows, None, twins, seed), None):
        return Judgement("ask", RANDOM_DRAWN)
    if _differs(engine, real, mine, undoer):
        return Judgement("ask", HIDDEN_REVEALED)
    seats = range(players) if players is not None else {undoer, *ai_seats, *(r.seat for r in rows)}
    # What only an AI seat learnt it may forget: nobody is harmed by the undo.
    for viewer in sorted(seats):
        if (
            viewer != undoer
            and viewer not in ai_seats
            and _differs(engine, real, _twins(engine, before, rows, viewer, twins, seed), viewer)
        ):
            return Judgement("ask", HIDDEN_REVEALED)

    if any(ends_turn):
        return Judgement("ask", TURN_PASSED)
    return Judgement("free", FREE)
