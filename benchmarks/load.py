"""The load benchmark: many games played at once through the real bot process.

Setup: a database holding 10,000 idle active games (benchmarks/load_seed.py),
the loopback Discord of the end-to-end tests (tests/fakediscord) in this
process, and ``python -m bot`` as a user starts it, configured through the
environment. Players (benchmarks/load_drive.py) play Through the Desert at
24 tables at once; each run is one configuration, with a fresh copy of the
database and fresh bot processes:

- SQLite, one process, ``CPU_WORKERS=0`` (boards drawn on the event loop) and
  the default pool (a worker process per core): what the pool buys;
- two processes (``SHARD_COUNT=2``, ``SHARD_IDS=0`` and ``1``, the servers
  split between them) against one, on SQLite and on PostgreSQL (tests/pg.py's
  throwaway server);
- the same small load on the 10,000-game database and on one holding only the
  games played, side by side: a move must not get slower as the database grows;
- the pool again with the web pages on (``WEB_PORT``) and readers asking for
  the games' pages and boards as fast as they are answered
  (benchmarks/load_web.py): the pages must not slow the games.

Each run offers a closed loop first (every player moves as soon as the
previous board is posted: the most the bot can serve), then players who think
1–2 s after seeing the board (a realistic load, which the 300 ms target is for).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import tempfile
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import asyncpg

from benchmarks.common import Figure
from benchmarks.load_drive import SHARDS, Load, Measured, StampedFake, Table, build_world, drive
from benchmarks.load_procs import CpuMeter, log_problems, postmaster, stop_all
from benchmarks.load_seed import make_played, seed
from benchmarks.load_web import Reading, free_port, read_pages
from bot.storage import sqlite_path
from tests.e2e import BotProcess
from tests.fakediscord import shard_of
from tests.pg import PgServer

ACTIVE = 10_000
FEW = 10  # tables of the size comparison; its small database holds their games only
TABLES = 24
GUILDS = 6  # alternating between the two shards
GAMES_EACH = 3  # a table moves on to its next game when one ends
THINK = (1.0, 2.0)
INLINE, POOL = "SQLite, 1 process, CPU_WORKERS=0", "SQLite, 1 process, pool"
SIZE = "size: 2 processes, each its database"
WEB = "SQLite, 1 process, pool, web pages read"
READERS = 8  # closed-loop readers of the web pages in the WEB run
BOARD_P95_MS = 300
LOOP_MS_PER_MOVE = 6.0  # event-loop CPU per move, its autocomplete queries included
MORE_TABLES = (48, 160)  # the pool again with more games at once, closed loop: overload
POOL_GAIN = 1.8
NO_SLOWER = 1.15  # the big database's figures may exceed the small one's by this (noise)
# Settings of the machine or a developer's shell that would change a run.
CLEARED = (
    *("DATABASE_URL", "CPU_WORKERS", "SHARD_COUNT", "SHARD_IDS", "LOG_LEVEL", "EXTRA_GAMES"),
    *("WEB_PORT", "WEB_HOST", "WEB_BASE_URL"),
)

METHOD = """\
## Load benchmark: method

`benchmarks/load.py` (`python -m benchmarks --only load` runs it alone). The
bot runs as `python -m bot`, one or two processes, against the loopback Discord
of the end-to-end tests, which runs in the benchmark's process with the
players, on the same machine: the fake's and the players' own work (a few ms a
move) shares the cores with the bot. The database holds {active:,} idle active
games (a few made through `GameService`, copied with SQL under new ids,
servers, channels and players) besides the games played. {tables} tables of
two players, on {guilds} servers, play Through the Desert at once, a game per
channel; each command is a random legal whole turn (`/desert move`) picked from
the player's own copy of the game (loaded from the database once, then kept up
to date with the same moves), typed first into the command's autocomplete as
players do: three queries a move (the empty field, which brings the bot's ★
idea, then the first one and three characters). *Board* latency runs from the interaction's
dispatch to the moment the fake receives the reply carrying `board.png`;
*moves/s* counts the boards posted inside the measured window, after a
warm-up. *No think time* is a closed loop: each player moves as soon as the
previous board is posted, so {tables} commands are always in flight and the
machine is saturated; its latency is queueing, its throughput is the figure.
*Think 1–2 s*: each player moves 1 to 2 s after seeing the board; the
{target} ms target is for these rows. *CPU per move* is each part's CPU time
during the load divided by the boards posted: the bot's event loop is its
main thread alone (`/proc/<pid>/task/<pid>/stat`), its other threads are
SQLite's (queries) and the process pool's (pickling jobs, reading results),
its workers draw boards and list suggestions; the players and the loopback
Discord share the benchmark's process. An interaction is *late* when its
first answer (an autocomplete's list, a command's acknowledgement) did not
reach the fake within Discord's 3 s; *busy* counts the autocomplete queries
answered "busy" instead of a list. The pool runs again at {more} games at
once, closed loop: more than the machine serves, to see overload degrade
without failing. `CPU_WORKERS=0` draws boards on the event
loop; the pool is the default, a worker process per core. Two processes are
two bots with `SHARD_COUNT=2` and `SHARD_IDS=0` / `1`, the servers alternating
between the shards, on one SQLite file or one PostgreSQL database (a throwaway
server, `fsync=off`, on a Unix socket). The size comparison runs two bot
processes side by side (`SHARD_COUNT=2`), each on a database of its own, one
holding {active:,} idle games besides its {few} games played and the other only
its {few}; both get the same load at the same time ({few} tables each, fresh
games, think 0.5–1 s), so whatever else the machine does weighs on both alike.
The web run is the pool run again with `WEB_PORT` set and {readers} readers
asking, one request at a time each, for the games' pages, current boards,
start positions and servers' pages as fast as they are answered (benchmarks/load_web.py);
they all come from 127.0.0.1, so past one client's allowance they get 429s.
On this 2-core machine two processes serve about what one does: each starts
its own pool, and all of them share the same two cores with the fake Discord;
several processes are for more machines (and for restarting one shard while
the others play), not for more speed on one.
"""


@dataclass(frozen=True)
class Run:
    """One configuration: databases, bot processes, the loads offered in turn."""

    label: str
    backend: str  # "sqlite" or "postgresql"
    processes: int
    workers: int | None  # CPU_WORKERS; None: the default pool
    loads: tuple[Load, ...]
    # Idle active games besides the games played, in each database: one database
    # shared by every process, or one per process, each holding the games of its
    # shard's servers (measured apart, side by side).
    idle: tuple[int, ...] = (ACTIVE,)
    tables: int = TABLES
    games_each: int = GAMES_EACH
    web_readers: int = 0  # readers of the web pages during each load (0: the pages are off)

    def env(self, shard: int) -> dict[str, str]:
        # Empty guild ids: global commands. Warm workers, as deployed (the tests'
        # BotProcess starts them cold).
        env = {"LOG_LEVEL": "INFO", "DISCORD_GUILD_IDS": "", "WARM_WORKERS": "1"}
        if self.workers is not None:
            env["CPU_WORKERS"] = str(self.workers)
        if self.processes > 1:
            env.update(SHARD_COUNT=str(self.processes), SHARD_IDS=str(shard))
        return env


@dataclass
class Outcome:
    run: Run
    measured: list[list[Measured]]  # per load: one per database
    start_seconds: float  # from launching the bots to every one connected
    readings: list[Reading] = field(default_factory=list)  # per load, with web readers
    # Late interactions of the warm-up: every table's first move at the same
    # instant, right after the start (a burst no load afterwards repeats).
    warm_late: int = 0
    problems: list[str] = field(default_factory=list)  # warnings and errors of the bot logs
    failure: str = ""  # why the run stopped short, if it did

    def first(self, load: int = 0) -> list[Measured]:
        """The measures of the run's ``load``-th load (one per database); [] if it failed."""
        return self.measured[load] if len(self.measured) > load else []


# ------------------------------------------------------------------ databases


class Databases:
    """The seeded databases (one per backend, made once) and fresh ones for each run."""

    def __init__(self, folder: Path, idle: int) -> None:
        self.folder = folder
        self.idle = idle
        self.pg: PgServer | None = None
        self._bases: dict[str, str] = {}
        self._made: list[str] = []

    async def base(self, backend: str) -> str:
        if backend not in self._bases:
            started = time.perf_counter()
            if backend == "sqlite":
                url = f"sqlite:///{self.folder / 'base.db'}"
            else:
                self.pg = PgServer.start()
                url = await self.pg.create_database(migrated=True)
            await seed(url, self.idle)
            self._bases[backend] = url
            seconds = time.perf_counter() - started
            print(f"  seeded {self.idle:,} active games ({backend}) in {seconds:.1f} s")
        return self._bases[backend]

    async def fresh(self, backend: str, idle: int, name: str) -> str:
        """A copy of the seeded database, or an empty (migrated) one when ``idle`` is 0."""
        if backend == "sqlite":
            path = self.folder / f"{name}.db"
            if idle:
                shutil.copyfile(sqlite_path(await self.base(backend)), path)
            return f"sqlite:///{path}"
        if idle:
            template = urlsplit(await self.base(backend)).path.lstrip("/")
            assert self.pg is not None
            admin = await asyncpg.connect(self.pg.admin_url)
            try:
                await admin.execute(f'CREATE DATABASE "load_{name}" TEMPLATE "{template}"')
            finally:
                await admin.close()
            url = self.pg.url(f"load_{name}")
        else:
            await self.base(backend)  # the server
            assert self.pg is not None
            url = await self.pg.create_database(migrated=True)
        self._made.append(url)
        return url

    def postmaster(self, backend: str) -> int | None:
        """The PostgreSQL server's pid, to count its CPU too."""
        if backend != "postgresql" or self.pg is None:
            return None
        folder = dict(parse_qsl(urlsplit(self.pg.admin_url).query)).get("host")
        return postmaster(folder) if folder else None

    async def drop(self, url: str) -> None:
        if url in self._made and self.pg is not None:
            self._made.remove(url)
            await self.pg.drop_database(url)

    def close(self) -> None:
        if self.pg is not None:
            self.pg.stop()  # the whole throwaway cluster, its folder too
            self.pg = None


# ------------------------------------------------------------------ one run


@contextlib.asynccontextmanager
async def running_bots(
    fake: StampedFake, run: Run, urls: list[str], folder: Path, web_port: int | None = None
) -> AsyncIterator[list[BotProcess]]:
    """The run's bot processes, connected; stopped (SIGTERM, then killed) however it ends."""
    bots = []
    for shard in range(run.processes):
        workdir = folder / f"bot{shard}"
        workdir.mkdir(parents=True)
        bot = BotProcess(fake, workdir, 0)
        for name in CLEARED:
            bot.env.pop(name, None)
        bot.env.update(run.env(shard), DATABASE_URL=urls[shard % len(urls)])
        if web_port is not None and shard == 0:
            bot.env.update(WEB_PORT=str(web_port), WEB_HOST="127.0.0.1")
        bots.append(bot)
    try:
        seen = fake.ready_count
        await asyncio.gather(*(b.start() for b in bots))
        await fake.wait_ready(60, after=seen, count=len(bots))
        yield bots
    finally:
        await stop_all(bots)


def by_database(run: Run, tables: list[Table]) -> list[list[Table]]:
    """The tables of each database: all of them, or those of each process's shard."""
    if len(run.idle) == 1:
        return [tables]
    return [[t for t in tables if shard_of(t.guild.id, SHARDS) == s] for s in range(SHARDS)]


async def play_run(
    run: Run, dbs: Databases, folder: Path, name: str, warm_turns: int = 2
) -> Outcome:
    """A fresh loopback Discord, databases and bots; the run's loads one after the other.
    A run that fails is reported as such (the others still run)."""
    begun = time.perf_counter()
    fake = StampedFake()
    await fake.start()
    urls: list[str] = []
    outcome = Outcome(run, [], 0.0)
    made = begun
    try:
        tables = build_world(fake, run.tables, run.games_each, min(GUILDS, run.tables))
        groups = by_database(run, tables)
        for index, (idle, group) in enumerate(zip(run.idle, groups, strict=True)):
            urls.append(await dbs.fresh(run.backend, idle, f"{name}_{index}"))
            games = await make_played(urls[-1], [p for t in group for p in t.places()])
            for table in group:
                table.games = [games.pop(0) for _ in table.channels]
        made = time.perf_counter()
        web_port = free_port() if run.web_readers else None
        async with running_bots(fake, run, urls, folder / name, web_port) as bots:
            outcome.start_seconds = time.perf_counter() - made
            # Every worker's first boards build its caches: not part of any figure.
            warm = await drive(fake, tables, Load("warm-up", 60, 0, turns=warm_turns))
            outcome.warm_late = warm.late
            if warm.errors:
                print(f"  {run.label}, warm-up: {len(warm.errors)} errors: {warm.errors[:3]}")
            for load in run.loads:
                stop = asyncio.Event()
                readers = (
                    asyncio.create_task(
                        read_pages(f"http://127.0.0.1:{web_port}", tables, run.web_readers, stop)
                    )
                    if web_port is not None
                    else None
                )
                with CpuMeter(bots, dbs.postmaster(run.backend)) as meter:
                    results = await asyncio.gather(*(drive(fake, g, load) for g in groups))
                stop.set()
                for result in results:
                    result.cpu, result.cpu_seconds = meter.shares, meter.seconds
                    report(run, result)
                outcome.measured.append(list(results))
                if readers is not None:
                    outcome.readings.append(await readers)
                    print(f"  {run.label}, {load.label}, web: {outcome.readings[-1].summary()}")
    except Exception as exc:
        outcome.failure = f"{type(exc).__name__}: {exc}"[:200]
        print(f"  {run.label}: failed: {outcome.failure}")
    finally:
        await fake.stop()
        for url in urls:
            await dbs.drop(url)
    for log in sorted((folder / name).glob("bot*/bot.log")):
        outcome.problems += log_problems(log)
    print(
        f"  {run.label}: {time.perf_counter() - begun:.0f} s (games made in"
        f" {made - begun:.1f} s, bots connected {outcome.start_seconds:.1f} s after launch)"
    )
    return outcome


def report(run: Run, m: Measured) -> None:
    cpu = ", ".join(f"{part} {share:.0%}" for part, share in m.cpu.items())
    per_move = ", ".join(f"{part} {m.per_move_ms(part):.1f}" for part in m.cpu_seconds)
    print(
        f"  {run.label}, {m.load.label}: {m.rate:.1f} moves/s, board p50 {m.board(0.5):.0f}"
        f" p95 {m.board(0.95):.0f} ms, ack p95 {m.ack(0.95):.0f} ms, autocomplete p95"
        f" {m.complete(0.95):.0f} ms, {len(m.board_ms)} moves, {m.late} late, {m.busy} busy;"
        f" CPU (of one core, the whole run): {cpu}; CPU ms per move: {per_move}"
        + (f"; {len(m.errors)} errors: {m.errors[:3]}" if m.errors else "")
    )


# ------------------------------------------------------------------ the runs


def plan(scale: float) -> tuple[list[Run], int]:
    """The runs, shorter with --quick (scale < 1), and the idle games they hold."""
    quick = scale < 1
    idle = 1_000 if quick else ACTIVE
    each = 1 if quick else GAMES_EACH  # a few seconds of play end no game
    warmup = 0.5 if quick else 2.0
    closed = Load(f"{TABLES} games, no think time", 2.5 if quick else 10, warmup)
    think = Load(f"{TABLES} games, think 1–2 s", 4 if quick else 15, warmup, THINK)
    both = (closed, think)
    others = (closed,) if quick else both  # --quick: the realistic load for the default only
    small = Load(f"{FEW} games, think 0.5–1 s", 3 if quick else 20, warmup, (0.5, 1.0))
    runs = [
        Run(INLINE, "sqlite", 1, 0, others, (idle,), games_each=each),
        Run(POOL, "sqlite", 1, None, both, (idle,), games_each=each),
        Run("SQLite, 2 processes", "sqlite", 2, None, others, (idle,), games_each=each),
        # Two processes side by side, each on its own database and its own 10 tables.
        Run(SIZE, "sqlite", 2, None, (small,), (idle, 0), tables=2 * FEW, games_each=1),
        Run(WEB, "sqlite", 1, None, both, (idle,), games_each=each, web_readers=READERS),
        *(
            Run(
                f"{POOL}, more tables",
                "sqlite",
                1,
                None,
                (Load(f"{tables} games, no think time", 2.5 if quick else 15, warmup),),
                (idle,),
                tables=tables,
                games_each=each,
            )
            for tables in MORE_TABLES
        ),
        Run("PostgreSQL, 1 process, pool", "postgresql", 1, None, others, (idle,), games_each=each),
        Run("PostgreSQL, 2 processes", "postgresql", 2, None, others, (idle,), games_each=each),
    ]
    return runs, idle


async def measure(scale: float) -> tuple[list[Outcome], int]:
    runs, idle = plan(scale)
    warm_turns = 1 if scale < 1 else 2
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="caravanserai-load-") as tmp:
        dbs = Databases(Path(tmp), idle)
        try:
            for index, run in enumerate(runs):
                outcome = await play_run(run, dbs, Path(tmp), f"run{index}", warm_turns)
                outcomes.append(outcome)
        finally:
            dbs.close()
    return outcomes, idle


# ------------------------------------------------------------------ figures


def figures(outcomes: list[Outcome], idle: int) -> list[Figure]:
    by_label = {o.run.label: o for o in outcomes}
    found = []
    for outcome in outcomes:
        if outcome.failure:
            found.append(Figure(f"load: {outcome.run.label}", "failed", "—", False))
        if outcome.run.label != SIZE:
            found += [row(outcome.run, measured[0]) for measured in outcome.measured]
    found.append(pool_gain(by_label[INLINE].first(), by_label[POOL].first()))
    for backend in ("SQLite", "PostgreSQL"):
        one = by_label[f"{backend}, 1 process, pool"].first()
        two = by_label[f"{backend}, 2 processes"].first()
        found.append(two_vs_one(backend, one, two))
    found.append(size_comparison(by_label[SIZE].first(), idle))
    found += web_comparison(by_label[POOL], by_label[WEB])
    for outcome in outcomes:
        if outcome.run.label != SIZE:
            found += [loop_cost(outcome.run, measured[0]) for measured in outcome.measured]
            found += [in_time(outcome, measured[0]) for measured in outcome.measured]
    return found


def loop_cost(run: Run, m: Measured) -> Figure:
    """The bot's CPU per move by part: its event loop (the figure that bounds how
    many tables one process serves), its other threads, its workers."""
    parts = {"bot loops": "loop", "bot threads": "threads", "bot workers": "workers"}
    value = ", ".join(f"{short} {m.per_move_ms(part):.1f}" for part, short in parts.items())
    if "postgres" in m.cpu_seconds:
        value += f", postgres {m.per_move_ms('postgres'):.1f}"
    value += f" ms (players + fake Discord {m.per_move_ms('players + fake'):.1f})"
    loop = m.per_move_ms("bot loops")  # each move is one process's (the shard's)
    # The target is for the loop serving the games: not drawing boards itself
    # (CPU_WORKERS=0), nor serving web pages besides.
    pooled = run.workers != 0 and not run.web_readers
    return Figure(
        f"load: {run.label}, {m.load.label}: CPU per move, 3 autocomplete queries included",
        value,
        f"loop ≤ {LOOP_MS_PER_MOVE:.0f} ms" if pooled else "—",
        not pooled or loop <= LOOP_MS_PER_MOVE,
    )


def in_time(outcome: Outcome, m: Measured) -> Figure:
    """Interactions answered after Discord's 3 s (none may be, in the load nor in
    the warm-up's burst before it), autocomplete's latency and how often it said
    "busy"."""
    late = m.late + outcome.warm_late
    return Figure(
        f"load: {outcome.run.label}, {m.load.label}: late interactions (after 3 s, the"
        " warm-up's burst included); autocomplete p50 / p95, busy answers",
        f"{late} late; {m.complete(0.5):.0f} / {m.complete(0.95):.0f} ms, {m.busy} busy",
        "0 late",
        late == 0,
    )


def row(run: Run, m: Measured) -> Figure:
    """Moves/s and board latency of one configuration under one load."""
    realistic = m.load.think is not None and run.workers != 0
    ok = not m.errors and (not realistic or m.board(0.95) <= BOARD_P95_MS)
    errors = f", {len(m.errors)} failed" if m.errors else ""
    return Figure(
        f"load: {run.label}, {m.load.label}: moves/s, board p50 / p95",
        f"{m.rate:.1f}/s, {m.board(0.5):.0f} / {m.board(0.95):.0f} ms{errors}",
        f"p95 ≤ {BOARD_P95_MS} ms" if realistic else "—",
        ok,
    )


def pool_gain(inline: list[Measured], pool: list[Measured]) -> Figure:
    name = f"load: pool vs CPU_WORKERS=0, SQLite, 1 process, {TABLES} games, no think time, moves/s"
    if not inline or not pool:
        return Figure(name, "n/a (a run failed)", f"≥ {POOL_GAIN}×", False)
    gain = pool[0].rate / inline[0].rate
    value = f"{gain:.2f}× ({pool[0].rate:.1f} vs {inline[0].rate:.1f})"
    return Figure(name, value, f"≥ {POOL_GAIN}×", gain >= POOL_GAIN)


def two_vs_one(backend: str, one: list[Measured], two: list[Measured]) -> Figure:
    name = f"load: {backend}, 2 processes vs 1, {TABLES} games, no think time, moves/s"
    if not one or not two:
        return Figure(name, "n/a (a run failed)", "—", False)
    value = f"{two[0].rate / one[0].rate:.2f}× ({two[0].rate:.1f} vs {one[0].rate:.1f})"
    return Figure(name, value, "—", True)


def web_comparison(without: Outcome, read: Outcome) -> list[Figure]:
    """Each load with the web pages read beside it, against the same load without:
    the players' board latency, and what the readers got."""
    found = []
    for index, load in enumerate(read.run.loads):
        name = f"load: web pages read by {READERS} readers beside {load.label}: board p50 / p95"
        target = f"p95 ≤ {BOARD_P95_MS} ms" if load.think is not None else "—"
        mine, theirs = read.first(index), without.first(index)
        if not mine or not theirs or len(read.readings) <= index:
            found.append(Figure(name, "n/a (a run failed)", target, False))
            continue
        m, base, pages = mine[0], theirs[0], read.readings[index]
        ok = not m.errors and not pages.errors
        if load.think is not None:
            ok = ok and m.board(0.95) <= BOARD_P95_MS
        value = (
            f"{m.board(0.5):.0f} / {m.board(0.95):.0f} ms, {m.rate:.1f} moves/s (without the"
            f" pages: {base.board(0.5):.0f} / {base.board(0.95):.0f} ms, {base.rate:.1f}/s);"
            f" pages: {pages.summary()}"
        )
        found.append(Figure(name, value, target, ok))
    return found


def size_comparison(measured: list[Measured], idle: int) -> Figure:
    """The same load at the same time on a database of ``idle`` + 10 games and one of 10."""
    name = f"load: a move with {idle + FEW:,} active games vs {FEW}, board p50 / p95"
    target = f"≤ {NO_SLOWER}× the {FEW}-game figures"
    if not measured:
        return Figure(name, "n/a (the run failed)", target, False)
    big, small = measured
    ok = (
        not big.errors
        and not small.errors
        and big.board(0.5) <= small.board(0.5) * NO_SLOWER
        and big.board(0.95) <= small.board(0.95) * NO_SLOWER
    )
    value = (
        f"{big.board(0.5):.0f} / {big.board(0.95):.0f} ms vs"
        f" {small.board(0.5):.0f} / {small.board(0.95):.0f} ms ({big.load.label}, each)"
    )
    return Figure(name, value, target, ok)


def load_figures(scale: float) -> tuple[list[Figure], str]:
    """The figures, and the paragraph describing the method for the report."""
    started = time.perf_counter()
    before = os.getloadavg()[0]  # other work on the machine weighs on every figure
    outcomes, idle = asyncio.run(measure(scale))
    for outcome in outcomes:
        for problem in outcome.problems[:5]:
            print(f"  {outcome.run.label}, bot log: {problem}")
    print(
        f"  load benchmark: {time.perf_counter() - started:.0f} s in all"
        f" (the machine's load average before it: {before:.1f})"
    )
    method = METHOD.format(
        active=idle,
        tables=TABLES,
        guilds=GUILDS,
        target=BOARD_P95_MS,
        few=FEW,
        readers=READERS,
        more=" and ".join(str(n) for n in MORE_TABLES),
    )
    return figures(outcomes, idle), method
