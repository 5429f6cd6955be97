"""A game's replay positions: 0 is the start, position n the state after the
n-th move-log row that counts (neither taken back nor an undo row).

Each position has a *tag*, the ply of its row (0 for the start). An undo
takes back a suffix of the rows that count, and a row taken back never
counts again, so (n, tag) names one position for good: after an undo and new
moves, position n has a new tag, and its image a new address and ETag.

:func:`public_views` runs in a CPU worker: this module imports only the
platform's pure parts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from bot.replay import Row, replay
from bot.storage import MoveRecord
from games.contract import Game


def counting(moves: Sequence[MoveRecord]) -> list[MoveRecord]:
    """The rows a replay plays, in order."""
    return [m for m in moves if m.counts]


def tags_of(counted: Sequence[MoveRecord]) -> tuple[int, ...]:
    """Each position's tag: 0 for the start, then each counted row's ply."""
    return (0, *(m.ply for m in counted))


def rows_of(counted: Sequence[MoveRecord]) -> tuple[Row, ...]:
    return tuple(Row(m.seat, m.notation) for m in counted)


def public_views(
    engine: Game[Any, Any],
    players: int,
    seed: int,
    options: Mapping[str, str] | None,
    rows: Sequence[Row],
) -> list[Any]:
    """The spectator's view at every position (``len(rows) + 1`` of them).
    Raises :class:`bot.replay.ReplayError` when the log does not replay."""
    return [engine.view(state, None) for state in replay(engine, players, seed, options, rows)]
