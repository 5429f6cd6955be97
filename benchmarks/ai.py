"""``python -m benchmarks.ai`` (make bench-ai): how strong the bot levels are.

For every game, seeded matches between levels (games/levels.py): ``hard``
against ``easy`` (the greedy bot) and ``hard`` against ``normal``, at the
smallest table and at the largest. At a table one seat plays ``hard`` and
every other seat the opponent level; the hard seat moves round the table from
one game to the next (seats rotated), and every game has its own seed.
A game counts as a win for ``hard`` when it is among the winners (a shared
first place counts). Win rates come with Wilson 95 % intervals; the time of
every hard decision gives p50 and p95. The results replace the section
"## Bot strength" of docs/benchmarks.md (the rest of the file is kept).

Targets (issue 23): at the smallest table hard wins ≥ 75 % against greedy;
at the largest, hard's win share is ≥ 1.5 × the fair share (1 / players);
a decision takes ≤ 1 s.
"""

from __future__ import annotations

import argparse
import math
import os
import platform
import statistics
import time
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

from benchmarks.common import percentile
from bot import registry
from games.contract import GameSpec
from games.levels import play_level
from games.rng import derive_seed

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Bot strength"
SEED = 2300  # the matches' base seed: a game's seed mixes it with the match and game numbers
Z95 = 1.959964
FULL_GAMES = 100  # games a row in a full run


@dataclass(frozen=True)
class Match:
    kind: str
    players: int
    opponent: str  # the level every other seat plays
    games: int


@dataclass
class Result:
    match: Match
    wins: int = 0
    played: int = 0
    times: list[float] = field(default_factory=list)  # seconds per hard decision
    scores: list[int] = field(default_factory=list)  # hard's lead over the best other seat


@dataclass(frozen=True)
class Played:
    """One game's result, as a worker sends it back."""

    won: bool
    lead: int
    times: tuple[float, ...]


def wilson(wins: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def play_game(
    kind: str,
    players: int,
    opponent: str,
    number: int,
    seconds: float | None,
    iterations: int | None,
) -> Played:
    """One seeded game: ``hard`` at seat ``number % players``, ``opponent`` elsewhere."""
    spec = registry.specs()[kind]
    engine = spec.engine
    seed = derive_seed(SEED, players, number)
    hard = number % players
    state = engine.new(players, seed)
    times = []
    ply = 0
    while seats := engine.to_act(state):
        seat = seats[0]
        bot_seed = derive_seed(seed, ply, seat, 1)
        level = "hard" if seat == hard else opponent
        start = time.perf_counter()
        if level == "hard":
            move = play_level(
                spec, level, state, seat, bot_seed, seconds=seconds, iterations=iterations
            )
            times.append(time.perf_counter() - start)
        else:
            secs, its = _opponent_budget(seconds, iterations, opponent)
            move = play_level(spec, level, state, seat, bot_seed, seconds=secs, iterations=its)
        state = engine.apply(state, seat, move)
        ply += 1
    outcome = engine.outcome(state)
    assert outcome is not None
    best_other = max(s for i, s in enumerate(outcome.scores) if i != hard)
    return Played(hard in outcome.winners, outcome.scores[hard] - best_other, tuple(times))


def _opponent_budget(
    seconds: float | None, iterations: int | None, level: str
) -> tuple[float | None, int | None]:
    """``normal`` keeps its default share of hard's budget (a quarter) when hard's
    is given; otherwise (and for ``easy``) each level has its own default."""
    if level != "normal" or (seconds is None and iterations is None):
        return None, None
    return (
        None if seconds is None else seconds / 4,
        None if iterations is None else max(1, iterations // 4),
    )


def matches(
    specs: Sequence[GameSpec],
    games: int,
    opponents: Sequence[str],
    sizes: Sequence[int] | None = None,
) -> Iterator[Match]:
    """Each game's smallest and largest tables (only those of ``sizes`` if given)
    against each opponent level."""
    for spec in specs:
        engine = spec.engine
        tables = dict.fromkeys((engine.min_players, engine.max_players))
        for players in tables:
            if sizes and players not in sizes:
                continue
            for opponent in opponents:
                yield Match(spec.kind, players, opponent, games)


def run(
    todo: Sequence[Match], jobs: int, seconds: float | None, iterations: int | None
) -> list[Result]:
    results = {m: Result(m) for m in todo}
    args = [
        (m.kind, m.players, m.opponent, number, seconds, iterations)
        for m in todo
        for number in range(m.games)
    ]
    keys = [m for m in todo for _ in range(m.games)]
    if jobs <= 1:
        played = (play_game(*a) for a in args)
        for match, game in zip(keys, played, strict=True):
            _add(results[match], game)
    else:
        with ProcessPoolExecutor(jobs) as pool:
            futures = [pool.submit(play_game, *a) for a in args]
            for match, future in zip(keys, futures, strict=True):
                _add(results[match], future.result())
    return list(results.values())


def _add(result: Result, game: Played) -> None:
    result.played += 1
    result.wins += game.won
    result.times.extend(game.times)
    result.scores.append(game.lead)
    m = result.match
    if result.played == m.games:
        print(line(result), flush=True)


def target(result: Result) -> tuple[str, bool | None]:
    """The issue's target for this row, and whether the win rate meets it (None:
    no target, e.g. hard against normal; the interval says how sure that is)."""
    m = result.match
    spec = registry.specs()[m.kind]
    if m.opponent != "easy":
        return "—", None
    rate = result.wins / max(result.played, 1)
    if m.players == spec.engine.min_players:
        return "≥ 75 %", rate >= 0.75
    share = 1.5 / m.players
    return f"≥ {share:.0%} (1.5 × 1/{m.players})", rate >= share


def line(result: Result) -> str:
    m = result.match
    low, high = wilson(result.wins, result.played)
    rate = result.wins / max(result.played, 1)
    p50 = percentile(result.times, 0.5) if result.times else 0.0
    p95 = percentile(result.times, 0.95) if result.times else 0.0
    goal, met = target(result)
    lead = statistics.median(result.scores) if result.scores else 0
    times = f"{p50 * 1000:.0f} / {p95 * 1000:.0f} ms"
    return (
        f"| {m.kind} | {m.players} | hard vs {_name(m.opponent)} | {result.wins}/{result.played} "
        f"| {rate:.0%} [{low:.0%}, {high:.0%}] | {lead:+g} | {times} "
        f"| {goal} | {'—' if met is None else ('yes' if met else 'NO')} |"
    )


def _name(level: str) -> str:
    return "greedy" if level == "easy" else level


def section(results: Sequence[Result], args: argparse.Namespace, wall: float) -> list[str]:
    budget = (
        f"{args.iterations} iterations"
        if args.iterations is not None
        else f"{args.seconds:g} s"
        if args.seconds is not None
        else "the levels' defaults (hard 1 s, normal 0.25 s)"
    )
    return [
        SECTION,
        "",
        "Written by `make bench-ai` (`python3 tasks.py bench-ai`"
        + (", `--quick`" if args.quick else "")
        + f"); {results[0].match.games if results else 0} games per row, seats rotated, "
        f"hard's budget per decision: {budget}; {args.jobs} worker process(es), "
        f"{wall / 60:.0f} min in all.",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}.",
        "",
        "A row is a table of *players* where one seat plays `hard` and the others the "
        "opponent level; *win rate* is hard's share of the games it won (a shared first "
        "place counts), with its Wilson 95 % interval; *lead* is the median of hard's "
        "score minus the best other seat's; *time* is hard's decision time, p50 / p95. "
        "*met* compares the win rate with the issue's target; a decision's own target "
        "is ≤ 1 s.",
        "",
        *(
            [
                "A `--quick` run checks that the matches run: its games say nothing of strength.",
                "",
            ]
            if args.quick
            else [
                f"A short run ({games} games a row, not the {FULL_GAMES} of a full one): "
                "*met* reads the win rate alone; the interval says how far it may be off.",
                "",
            ]
            if (games := results[0].match.games if results else 0) < FULL_GAMES
            else []
        ),
        "| game | players | match | wins | win rate [95 % CI] | lead | time p50 / p95 "
        "| target | met |",
        "|---|---|---|---|---|---|---|---|---|",
        *(line(r) for r in results),
        "",
    ]


def write_section(path: Path, lines: list[str]) -> None:
    """Replace this section of the report (or add it before the kept hand-written
    sections, see benchmarks/__main__.py), leaving everything else as it is."""
    old = path.read_text(encoding="utf-8").splitlines() if path.exists() else ["# Benchmarks", ""]
    start = next((i for i, text in enumerate(old) if text.startswith(SECTION)), None)
    if start is None:
        start = next((i for i, text in enumerate(old) if text.startswith("## Compared")), len(old))
        end = start
    else:
        end = next((i for i in range(start + 1, len(old)) if old[i].startswith("## ")), len(old))
    new = [*old[:start], *lines, *old[end:]]
    path.write_text("\n".join(new).rstrip("\n") + "\n", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a small run: 2 games a row, 0.05 s")
    parser.add_argument("--games", type=int, help="games per row (default 100, quick 2)")
    parser.add_argument("--seconds", type=float, help="hard's time per decision")
    parser.add_argument("--iterations", type=int, help="hard's iterations per decision")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (one core each)")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument(
        "--against", action="append", choices=("easy", "normal"), help="only this opponent"
    )
    parser.add_argument(
        "--players", action="append", type=int, help="only tables of this size (repeatable)"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "benchmarks.md")
    parser.add_argument("--no-write", action="store_true", help="print only")
    args = parser.parse_args(argv)
    if args.quick and args.seconds is None and args.iterations is None:
        args.seconds = 0.05
    games = args.games if args.games is not None else (2 if args.quick else FULL_GAMES)
    specs = [s for k, s in registry.specs().items() if not args.game or k in args.game]
    todo = list(matches(specs, games, args.against or ("easy", "normal"), args.players))
    start = time.perf_counter()
    results = run(todo, args.jobs, args.seconds, args.iterations)
    wall = time.perf_counter() - start
    lines = section(results, args, wall)
    if not args.no_write:
        write_section(args.out, lines)
        where = args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out
        print(f"written to {where}")


if __name__ == "__main__":
    main()
