"""Scores over a finished game, for the chart beside its final breakdown.

Pure and Discord-free: the move log is replayed from the seed
(:func:`bot.replay.replay`) and the engine's :meth:`~games.contract.Game.scores`
read at the start and after every row that ends a turn. Those scores count
hidden things as they truly are, so they are for finished games only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from bot.replay import Row, replay
from games.contract import Game

# The start and at most 60 turns: a long game is sampled evenly.
MAX_POINTS = 61

T = TypeVar("T")


def sample_evenly(items: Sequence[T], limit: int = MAX_POINTS) -> list[T]:
    """At most ``limit`` items, evenly spread, the first and the last always kept."""
    if limit < 2:
        raise ValueError("a sample keeps the first and the last item: limit >= 2")
    count = len(items)
    if count <= limit:
        return list(items)
    # Strictly increasing indices from 0 to count - 1, since count > limit.
    return [items[round(k * (count - 1) / (limit - 1))] for k in range(limit)]


def turn_ends(rows: int, ends_turn: Sequence[bool] | None = None) -> list[int]:
    """Indices of the states to plot: the start (0) and the state after each row
    that ends a turn (``i + 1`` for row ``i``); the final state always."""
    if ends_turn is not None and len(ends_turn) != rows:
        raise ValueError(f"{len(ends_turn)} ends_turn flags for {rows} rows")
    picked = [0]
    for index in range(rows):
        if ends_turn is None or ends_turn[index]:
            picked.append(index + 1)
    if picked[-1] != rows:
        picked.append(rows)
    return picked


def score_series(
    engine: Game[Any, Any],
    players: int,
    seed: int,
    options: Mapping[str, str] | None,
    rows: Sequence[Row],
    ends_turn: Sequence[bool] | None = None,
    *,
    limit: int = MAX_POINTS,
) -> list[list[int]] | None:
    """Per seat, its score at the start and at the end of each turn.

    ``rows`` are the log rows that count (neither undone nor undo rows), in
    order; ``ends_turn[i]`` says whether row ``i`` ended its seat's turn (every
    row does if not given). With more than ``limit`` points, they are sampled
    evenly, the start and the end kept. None when the engine gives no scores.
    Raises :class:`bot.replay.ReplayError` when the log does not replay.
    """
    start = engine.new(players, seed, options)
    if engine.scores(start) is None:
        return None
    states = replay(engine, players, seed, options, rows)
    series: list[list[int]] = [[] for _ in range(players)]
    for index in sample_evenly(turn_ends(len(rows), ends_turn), limit):
        scores = engine.scores(states[index])
        if scores is None or len(scores) != players:
            return None
        for seat, score in enumerate(scores):
            series[seat].append(score)
    return series
