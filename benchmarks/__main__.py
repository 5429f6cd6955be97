"""``python -m benchmarks`` (make bench): measure and write docs/benchmarks.md.

Measures what the issue sets targets for, on real components: Pillow
rendering, a move through the service (parse + apply + SQLite save), the
autocomplete path as the cog runs it (load session + complete), and whole
AI playouts. Figures are machine-dependent; the file records the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import statistics
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.service import GameService, Session
from bot.storage import open_storage
from games.core import complete
from games.desert import GAME
from games.desert.ai import choose_move
from render.desert import render_desert

ROOT = Path(__file__).resolve().parents[1]
NAMES = ["Alice", "Bob", "Chloé", "Driss", "Émile"]


@dataclass
class Figure:
    name: str
    value: str
    target: str
    ok: bool


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    index = min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))
    return ordered[index]


def timed(fn: Callable[[], Any], repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def midgame_state(players: int, seed: int, plies: int) -> Any:
    state = GAME.new(players, seed, {})
    for _ in range(plies):
        seats = GAME.to_act(state)
        if not seats:
            break
        state = GAME.apply(state, seats[0], choose_move(state, seats[0]))
    return state


def bench_render(repeat: int) -> list[Figure]:
    state = midgame_state(5, 7, 120)
    view = GAME.view(state, None)
    render_desert(view, NAMES, "en")  # warm the static-layer cache
    samples = timed(lambda: render_desert(view, NAMES, "en"), repeat)
    sizes = [
        len(render_desert(GAME.view(midgame_state(p, 3, 90), None), NAMES, "en"))
        for p in (2, 3, 4, 5)
    ]
    median = statistics.median(samples)
    return [
        Figure("render, 5 players mid-game, median", f"{median:.1f} ms", "≤ 60 ms", median <= 60),
        Figure(
            "PNG size, 2–5 players mid-game, max",
            f"{max(sizes) / 1024:.0f} KB",
            "≤ 400 KB",
            max(sizes) <= 400 * 1024,
        ),
    ]


async def bench_service(moves: int) -> list[Figure]:
    """Moves through GameService on a real SQLite file (no render)."""
    with tempfile.TemporaryDirectory() as tmp:
        storage = await open_storage(f"sqlite:///{Path(tmp) / 'bench.db'}")
        service = GameService(storage)
        move_ms: list[float] = []
        complete_ms: list[float] = []
        cold_ms: list[float] = []
        channel = 0
        while len(move_ms) < moves:
            channel += 1
            session = await _start_game(service, channel)
            while session.record.status == "active" and len(move_ms) < moves:
                seat = session.to_act[0]
                user = session.seat(seat).user_id
                assert user is not None
                text = GAME.format_move(choose_move(session.state, seat))
                start = time.perf_counter()
                loaded = await service.require_session(channel)
                complete(GAME, loaded.state, seat, text[:3])
                complete_ms.append((time.perf_counter() - start) * 1000)
                # Cold: the state is parsed from the database's JSON (after a restart).
                service.forget_cached_states()
                start = time.perf_counter()
                loaded = await service.require_session(channel)
                complete(GAME, loaded.state, seat, text[:3])
                cold_ms.append((time.perf_counter() - start) * 1000)
                start = time.perf_counter()
                report = await service.play(channel, user, text)
                move_ms.append((time.perf_counter() - start) * 1000)
                session = report.after
        await storage.close()
    p50, p95 = percentile(move_ms, 0.5), percentile(move_ms, 0.95)
    ac95 = percentile(complete_ms, 0.95)
    cold95 = percentile(cold_ms, 0.95)
    return [
        Figure("move handling (parse + apply + save), p50", f"{p50:.2f} ms", "—", True),
        Figure("move handling (parse + apply + save), p95", f"{p95:.2f} ms", "≤ 15 ms", p95 <= 15),
        Figure(
            "autocomplete (load session + complete), p95", f"{ac95:.2f} ms", "≤ 20 ms", ac95 <= 20
        ),
        Figure(
            "autocomplete, state parsed from JSON (cold), p95",
            f"{cold95:.2f} ms",
            "≤ 20 ms",
            cold95 <= 20,
        ),
    ]


async def _start_game(service: GameService, channel: int) -> Session:
    await service.create(kind_key="desert", guild_id=1, channel_id=channel, user_id=1, name="A")
    for user in (2, 3, 4):
        await service.join(channel, user, f"P{user}")
    return (await service.start(channel, 1)).after


def bench_playouts(games: int) -> list[Figure]:
    figures = []
    for players in (2, 3, 4, 5):
        samples = []
        for seed in range(games):
            start = time.perf_counter()
            state = GAME.new(players, seed, {})
            while seats := GAME.to_act(state):
                state = GAME.apply(state, seats[0], choose_move(state, seats[0]))
            samples.append(time.perf_counter() - start)
        worst = max(samples)
        figures.append(
            Figure(
                f"whole AI game, {players} players, median (max)",
                f"{statistics.median(samples):.2f} s ({worst:.2f} s)",
                "< 1 s",
                worst < 1,
            )
        )
    return figures


def write_report(figures: list[Figure], path: Path) -> None:
    lines = [
        "# Benchmarks",
        "",
        "Written by `make bench` (`python3 tasks.py bench`); figures depend on the machine.",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}, {platform.system()} {platform.release()}.",
        "",
        "| measure | result | target | met |",
        "|---|---|---|---|",
        *(f"| {f.name} | {f.value} | {f.target} | {'yes' if f.ok else 'NO'} |" for f in figures),
        "",
    ]
    path.write_text("\n".join(lines), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    args = parser.parse_args()
    scale = 0.2 if args.quick else 1.0
    figures = [
        *bench_render(max(5, int(50 * scale))),
        *asyncio.run(bench_service(max(50, int(400 * scale)))),
        *bench_playouts(max(2, int(10 * scale))),
    ]
    for figure in figures:
        print(f"{figure.name:55} {figure.value:>18}  target {figure.target}")
    write_report(figures, args.out)
    print(f"written to {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


if __name__ == "__main__":
    main()
