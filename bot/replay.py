"""Rebuild a game from its move log.

The service stores one row per command: the seat that sent it and its
notation (the game's ``join_moves`` joining each atomic move's
``format_move``). Engines are pure and all randomness lives in the state, so
the start state (``engine.new(players, seed, options)``) and the rows give
back every state the game went through, exactly. Discord-free and
storage-free: the caller turns its stored rows into :class:`Row` values.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.contract import Game, MoveError, Seat, Step, play_all


@dataclass(frozen=True)
class Row:
    """One stored command, as the move log keeps it."""

    seat: Seat
    notation: str


class ReplayError(Exception):
    """A stored row that no longer parses or plays on the state before it."""

    def __init__(self, index: int, row: Row, cause: MoveError) -> None:
        super().__init__(
            f"row {index} (seat {row.seat + 1}: {row.notation!r}) does not replay: {cause}"
        )
        self.index = index
        self.row = row
        self.cause = cause


def play_row(engine: Game[Any, Any], state: Any, row: Row) -> tuple[tuple[Any, ...], Step[Any]]:
    """Parse one row on ``state`` and play it: its moves and their joint step.

    Raises the engine's :class:`MoveError` if it does not parse or play.
    """
    moves = engine.parse(state, row.seat, row.notation)
    return moves, play_all(engine, state, row.seat, moves)


def states_after(
    engine: Game[Any, Any], start: Any, rows: Sequence[Row]
) -> Iterator[tuple[tuple[Any, ...], Step[Any]]]:
    """Play ``rows`` in order from ``start``: for each, its parsed moves and its
    step (the state after it, its events, whether it ended the seat's turn).

    Raises :class:`ReplayError` at the first row that does not replay.
    """
    state = start
    for index, row in enumerate(rows):
        try:
            moves, step = play_row(engine, state, row)
        except MoveError as error:
            raise ReplayError(index, row, error) from error
        yield moves, step
        state = step.state


def replay(
    engine: Game[Any, Any],
    players: int,
    seed: int,
    options: Mapping[str, str] | None,
    rows: Sequence[Row],
) -> list[Any]:
    """The states of a game: index 0 is the start, index i the state after
    ``rows[i - 1]`` (so ``len(rows) + 1`` states).

    Each row is parsed on the state before it and played with ``play_all``;
    a row that no longer does raises :class:`ReplayError` naming it.
    """
    start = engine.new(players, seed, options)
    return [start, *(step.state for _, step in states_after(engine, start, rows))]
