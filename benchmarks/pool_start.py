"""The first boards after a start: the bot's CPU pool is started as the bot
starts it (``CpuPool.start``, which waits for every worker, warm: see
bot/warm_worker.py), then each game's first board is timed against the p95 of
the next tables' boards, all drawn through the worker as turn posts are
(``bot.drawing.draw_board``). Each board is of a table the worker has not drawn
yet (another half-played game, other players' names, so none of its pieces or
texts is cached): what a board costs at any time, which is what the first one
after a start must not exceed."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping

from benchmarks.common import Figure, percentile
from bot.cpu import CpuPool
from bot.drawing import draw_board
from bot.warm_worker import half_played
from games.contract import GameSpec

NEXT_BOARDS = 20
NAMES = ["Alice", "Bob", "Chloé", "Driss", "Émile"]  # numbered per table: new names each
SLACK = 1.2  # the first board may be this much over the p95 (one sample against twenty)


async def first_and_steady(pool: CpuPool, spec: GameSpec) -> tuple[float, float]:
    """ms of the game's first board in a started pool, and p95 of the next tables'."""
    players = spec.engine.max_players
    picture, tags = spec.load_picture(), [None] * players
    samples = []
    for table in range(1 + NEXT_BOARDS):
        state = half_played(spec, players, seed=100 + table)
        names = [f"{name} {table}" for name in NAMES[:players]]
        started = time.perf_counter()
        await pool.run(draw_board, picture, spec.engine, state, None, names, "en", tags)
        samples.append((time.perf_counter() - started) * 1000)
    return samples[0], percentile(samples[1:], 0.95)


async def measure(specs: Mapping[str, GameSpec]) -> list[Figure]:
    pool = CpuPool(os.cpu_count() or 1)
    try:
        started = time.perf_counter()
        await pool.start()
        ready = time.perf_counter() - started
        figures = []
        for kind, spec in specs.items():
            first, p95 = await first_and_steady(pool, spec)
            figures.append(
                Figure(
                    f"{kind}: first board after the pool's start vs the next {NEXT_BOARDS} tables'"
                    f" p95 (started, warm, in {ready:.1f} s)",
                    f"{first:.0f} vs {p95:.0f} ms",
                    f"≤ {SLACK}× the p95",
                    first <= p95 * SLACK,
                )
            )
        return figures
    finally:
        pool.close()


def first_board_figures(specs: Mapping[str, GameSpec]) -> list[Figure]:
    return asyncio.run(measure(specs))
