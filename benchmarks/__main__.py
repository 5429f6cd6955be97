"""``python -m benchmarks`` (make bench): measure and write docs/benchmarks.md.

For every registered game: legal-move generation, board rendering (median
and PNG size) and whole bot-vs-bot games; for the platform: a move through
the service (parse + apply + SQLite save) and the autocomplete path as the
cog runs it (load session + complete); for async play (benchmarks/async_play.py):
judging an undo, a replay GIF, and turn clocks over many games; under load
(benchmarks/load.py): many games played at once through the real bot process.
Real components only. Figures are machine-dependent; the file records the machine.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import platform
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PIL import Image

from benchmarks.async_play import async_play_figures
from benchmarks.common import Figure, percentile, timed
from benchmarks.load import load_figures
from benchmarks.pool_start import first_board_figures
from bot import registry
from bot.service import GameService
from bot.session import Session
from bot.storage import open_storage
from cogs.suggest import move_choices
from games.contract import GameSpec, bot_move
from render.png import png_bytes

ROOT = Path(__file__).resolve().parents[1]
RENDER_OVER_FLOOR = 1.5  # a render may cost this many times its own PNG encoding
NAMES = ["Alice", "Bob", "Chloé", "Driss", "Émile"]
# The report's parts: "platform" (every game's figures, async play), "load"
# (whose rows are named "load: …").
PARTS = ("platform", "load")


def states_of_a_game(spec: GameSpec, players: int, seed: int) -> list[Any]:
    """Every state of one bot-vs-bot game, setup to the end."""
    engine = spec.engine
    state = engine.new(players, seed, {})
    states = [state]
    while seats := engine.to_act(state):
        state = engine.apply(state, seats[0], bot_move(engine, spec.bot, state, seats[0], seed))
        states.append(state)
    return states


def forget_caches(spec: GameSpec) -> None:
    """Empty every functools cache of the game's own modules (the cold path)."""
    for name, module in list(sys.modules.items()):
        if name == spec.package or name.startswith(spec.package + "."):
            for value in vars(module).values():
                if not isinstance(value, type) and callable(getattr(value, "cache_clear", None)):
                    value.cache_clear()  # a cache, not a class of caches


def bench_legal_moves(spec: GameSpec) -> list[Figure]:
    """Legal-move generation over every decision of bot games, and in the
    busiest kind of decision alone (e.g. Oasis's tile placements)."""
    engine = spec.engine
    samples: list[float] = []
    by_kind: dict[str, list[float]] = {}
    for players in range(engine.min_players, engine.max_players + 1):
        for state in states_of_a_game(spec, players, 5):
            owed = {d.seat: d.key for d in engine.decisions(state)}
            for seat in engine.to_act(state):
                # A resampled twin has the same legal moves; with the game's caches
                # emptied, nothing it computed for the playout is reused.
                twin = engine.resample(state, seat, len(samples))
                forget_caches(spec)
                start = time.perf_counter()
                engine.legal_moves(twin, seat)
                samples.append((time.perf_counter() - start) * 1000)
                by_kind.setdefault(owed[seat], []).append(samples[-1])
    p95 = percentile(samples, 0.95)
    kind, busiest = max(by_kind.items(), key=lambda item: percentile(item[1], 0.95))
    worst = percentile(busiest, 0.95)
    return [
        Figure(f"{spec.kind}: legal moves, p95", f"{p95:.2f} ms", "≤ 5 ms", p95 <= 5),
        Figure(
            f"{spec.kind}: legal moves, p95 in the busiest decision ({kind.split('.')[-1]})",
            f"{worst:.2f} ms",
            "≤ 5 ms",
            worst <= 5,
        ),
    ]


def bench_render(spec: GameSpec, repeat: int) -> list[Figure]:
    engine = spec.engine
    renderer = spec.load_picture()
    players = engine.max_players
    states = states_of_a_game(spec, players, 7)
    view = engine.view(states[len(states) // 2], None)
    names = NAMES[:players]
    renderer.board(view, names, "en")  # warm the static-layer cache
    samples = timed(lambda: renderer.board(view, names, "en"), repeat)
    sizes = []
    for count in range(engine.min_players, players + 1):
        game = states_of_a_game(spec, count, 3)
        sizes.append(len(renderer.board(engine.view(game[len(game) // 2], None), names, "en")))
    median = statistics.median(samples)
    # A stretch of the game as it is played, from its middle: each state once.
    played = [engine.view(state, None) for state in states[len(states) // 3 :]][:repeat]
    for view in played[:3]:  # the first boards of a process fill its caches
        renderer.board(view, names, "en")
    drawn, floor = render_and_floor(lambda v: renderer.board(v, names, "en"), played[3:])
    return [
        Figure(
            f"{spec.kind}: render, {players} players mid-game, median",
            f"{median:.1f} ms",
            "≤ 60 ms",
            median <= 60,
        ),
        Figure(
            f"{spec.kind}: render vs its encode floor (quantize + PNG of the same image),"
            f" {players} players, consecutive states, mean",
            f"{drawn / floor:.2f}× ({drawn:.1f} vs {floor:.1f} ms)",
            f"≤ {RENDER_OVER_FLOOR}×",
            drawn / floor <= RENDER_OVER_FLOOR,
        ),
        Figure(
            f"{spec.kind}: PNG size, every player count mid-game, max",
            f"{max(sizes) / 1024:.0f} KB",
            "≤ 400 KB",
            max(sizes) <= 400 * 1024,
        ),
    ]


def render_and_floor(render: Callable[[Any], bytes], views: list[Any]) -> tuple[float, float]:
    """Mean ms of a whole render (drawing, then quantizing and encoding as PNG) of
    each of ``views`` in turn, as a game played shows them (each once, so only
    what stays the same from move to move may come from a cache), and of the
    encoding alone of the same pictures: the floor no drawing can go under.
    Taken in turns, so the machine's moods weigh on both alike."""
    drawn, encoded = [], []
    for view in views:
        started = time.perf_counter()
        png = render(view)
        drawn.append((time.perf_counter() - started) * 1000)
        picture = Image.open(io.BytesIO(png)).convert("RGB")
        started = time.perf_counter()
        png_bytes(picture)
        encoded.append((time.perf_counter() - started) * 1000)
    return statistics.mean(drawn), statistics.mean(encoded)


async def bench_service(spec: GameSpec, moves: int) -> list[Figure]:
    """Moves through GameService on a real SQLite file (no render)."""
    engine = spec.engine
    with tempfile.TemporaryDirectory() as tmp:
        storage = await open_storage(f"sqlite:///{Path(tmp) / 'bench.db'}")
        service = GameService(storage)
        move_ms: list[float] = []
        complete_ms: list[float] = []
        cold_ms: list[float] = []
        channel = 0
        while len(move_ms) < moves:
            channel += 1
            session = await _start_game(service, spec, channel)
            while session.record.status == "active" and len(move_ms) < moves:
                seat = session.to_act[0]
                user = session.seat(seat).user_id
                assert user is not None
                move = bot_move(engine, spec.bot, session.state, seat, len(move_ms))
                text = engine.format_move(move)
                start = time.perf_counter()
                loaded = await service.require_session(channel)
                move_choices(loaded, seat, "", "fr")  # words, hints and the bot's whole turn
                complete_ms.append((time.perf_counter() - start) * 1000)
                # Cold: the state is parsed from the database's JSON (after a restart).
                service.forget_cached_states()
                start = time.perf_counter()
                loaded = await service.require_session(channel)
                move_choices(loaded, seat, text[:3], "fr")
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
        Figure(
            f"{spec.kind}: move handling (parse + apply + save), p50", f"{p50:.2f} ms", "—", True
        ),
        Figure(
            f"{spec.kind}: move handling (parse + apply + save), p95",
            f"{p95:.2f} ms",
            "≤ 15 ms",
            p95 <= 15,
        ),
        Figure(
            f"{spec.kind}: autocomplete as the cog answers it, p95",
            f"{ac95:.2f} ms",
            "≤ 20 ms",
            ac95 <= 20,
        ),
        Figure(
            f"{spec.kind}: autocomplete, state parsed from JSON (cold), p95",
            f"{cold95:.2f} ms",
            "≤ 20 ms",
            cold95 <= 20,
        ),
    ]


async def _start_game(service: GameService, spec: GameSpec, channel: int) -> Session:
    await service.create(kind=spec.kind, guild_id=1, channel_id=channel, user_id=1, name="A")
    for user in range(2, spec.engine.max_players):
        await service.join(channel, user, f"P{user}")
    return (await service.start(channel, 1)).after


def bench_playouts(spec: GameSpec, games: int) -> list[Figure]:
    figures = []
    engine = spec.engine
    for players in range(engine.min_players, engine.max_players + 1):
        samples = []
        for seed in range(games):
            start = time.perf_counter()
            states_of_a_game(spec, players, seed)
            samples.append(time.perf_counter() - start)
        worst = max(samples)
        figures.append(
            Figure(
                f"{spec.kind}: whole bot game, {players} players, median (max)",
                f"{statistics.median(samples):.2f} s ({worst:.2f} s)",
                "< 1 s",
                worst < 1,
            )
        )
    return figures


def write_report(figures: list[Figure], path: Path, notes: str = "") -> None:
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
    if notes:
        lines += [notes.rstrip(), ""]
    lines += kept_sections(path)
    path.write_text("\n".join(lines), encoding="utf-8")


# Sections below the generated ones that this benchmark does not write: the
# bots' strength (benchmarks/ai.py, `make bench-ai`, which writes it just above
# the hand-written ones) and those written by hand (e.g. a before/after
# comparison of two commits). A rerun keeps them, from the first on, as they are.
KEPT_SECTIONS = ("## Bot strength", "## Compared")


def _kept_start(lines: list[str]) -> int | None:
    return next((i for i, line in enumerate(lines) if line.startswith(KEPT_SECTIONS)), None)


def kept_sections(path: Path) -> list[str]:
    if not path.exists():
        return []
    lines = path.read_text(encoding="utf-8").splitlines()
    start = _kept_start(lines)
    return [] if start is None else [*lines[start:], ""]


def previous_report(path: Path) -> tuple[list[Figure], str]:
    """The rows of an existing report, and the notes after its table."""
    if not path.exists():
        return [], ""
    lines = path.read_text(encoding="utf-8").splitlines()
    if "|---|---|---|---|" not in lines:
        return [], ""
    start = lines.index("|---|---|---|---|") + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("| ")), len(lines))
    rows = []
    for line in lines[start:end]:
        name, value, target, met = (cell.strip() for cell in line.strip("| ").split(" | "))
        rows.append(Figure(name, value, target, met == "yes"))
    notes = lines[end:]
    kept = _kept_start(notes)
    kept = len(notes) if kept is None else kept
    return rows, "\n".join(notes[:kept]).strip()


def platform_figures(scale: float) -> list[Figure]:
    specs = list(registry.specs().values())
    figures = []
    for spec in specs:
        figures += bench_legal_moves(spec)
        figures += bench_render(spec, max(5, int(50 * scale)))
        figures += bench_playouts(spec, max(2, int(10 * scale)))
        figures += asyncio.run(bench_service(spec, max(50, int(400 * scale))))
    figures += async_play_figures(specs, scale)
    figures += first_board_figures({s.kind: s for s in specs})
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument(
        "--only",
        choices=PARTS,
        help="run one part; the report keeps the other part's rows from the existing file",
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    args = parser.parse_args()
    scale = 0.2 if args.quick else 1.0
    figures: list[Figure] = []
    notes = ""
    if args.only in (None, "platform"):
        figures += platform_figures(scale)
    if args.only in (None, "load"):
        loaded, notes = load_figures(scale)
        figures += loaded
    for figure in figures:
        print(f"{figure.name:55} {figure.value:>18}  target {figure.target}")
    if args.only is not None:
        rows, old_notes = previous_report(args.out)
        kept = [f for f in rows if f.name.startswith("load:") != (args.only == "load")]
        figures = kept + figures if args.only == "load" else figures + kept
        notes = notes or old_notes
    write_report(figures, args.out, notes)
    print(f"written to {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")


if __name__ == "__main__":
    main()
