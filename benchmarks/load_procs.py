"""The load benchmark's bot processes: stopping them for sure, the CPU they used, their logs.

Linux only (``/proc``), as the rest of the load benchmark's setup (tests/pg.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from types import TracebackType

from tests.e2e import BotProcess

_TICK = os.sysconf("SC_CLK_TCK")


def _parents() -> dict[int, int]:
    """Every process's parent, from /proc."""
    found = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                stat = Path(f"/proc/{entry}/stat").read_text()
                found[int(entry)] = int(stat[stat.rindex(")") + 2 :].split()[1])
    return found


def descendants(pid: int) -> list[int]:
    """Children, grandchildren… of ``pid`` (a bot's forkserver and CPU workers)."""
    parents = _parents()
    found, frontier = [], [pid]
    while frontier:
        children = [child for child, parent in parents.items() if parent in frontier]
        found += children
        frontier = children
    return found


def _stat_cpu(path: str) -> float:
    """User + system CPU seconds from a /proc ``stat`` file (0 once it is gone)."""
    try:
        stat = Path(path).read_text()
    except OSError:
        return 0.0
    fields = stat[stat.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / _TICK


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of one process so far, all its threads (0 once it is gone)."""
    return _stat_cpu(f"/proc/{pid}/stat")


def main_thread_seconds(pid: int) -> float:
    """CPU time of a process's main thread alone: a bot's event loop (its thread id
    is the process id; the database thread and the pool's feeder threads are others)."""
    return _stat_cpu(f"/proc/{pid}/task/{pid}/stat")


class CpuMeter:
    """CPU used during a block, in seconds and as a share of one core, by part:

    - ``bot loops``: the bots' main threads, where the event loop runs;
    - ``bot threads``: their other threads: aiosqlite's database thread (queries,
      SQLite itself) and the process pool's threads (pickling jobs, reading results);
    - ``bot workers``: their CPU worker processes (boards, suggestions, bots);
    - ``postgres``: PostgreSQL's server processes, if ``postgres`` (the postmaster) is given;
    - ``players + fake``: this process (the players and the loopback Discord).
    """

    def __init__(self, bots: list[BotProcess], postgres: int | None = None) -> None:
        self.mains = [b.process.pid for b in bots if b.process is not None]
        self.postgres = postgres
        self.seconds: dict[str, float] = {}
        self.shares: dict[str, float] = {}

    def _sample(self) -> dict[str, float]:
        loops = sum(main_thread_seconds(p) for p in self.mains)
        parts = {
            "bot loops": loops,
            "bot threads": sum(cpu_seconds(p) for p in self.mains) - loops,
            "bot workers": sum(cpu_seconds(w) for m in self.mains for w in descendants(m)),
            "players + fake": time.process_time(),
        }
        if self.postgres is not None:
            server = [self.postgres, *descendants(self.postgres)]
            parts["postgres"] = sum(cpu_seconds(p) for p in server)
        return {"wall": time.perf_counter(), **parts}

    def __enter__(self) -> CpuMeter:
        self._before = self._sample()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        after = self._sample()
        wall = after.pop("wall") - self._before["wall"]
        self.seconds = {part: used - self._before[part] for part, used in after.items()}
        self.shares = {part: used / wall for part, used in self.seconds.items()}


def postmaster(folder: str) -> int | None:
    """The pid of the PostgreSQL server whose data folder is in ``folder``."""
    wanted = f"{folder}/data"
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            with contextlib.suppress(OSError):
                words = Path(f"/proc/{entry}/cmdline").read_text().split("\0")
                if words[0].endswith("/postgres") and wanted in words:
                    return int(entry)
    return None


async def stop(bot: BotProcess) -> None:
    """SIGTERM and wait (the bot stops its workers itself); if that fails, SIGKILL the
    bot and whatever it started."""
    process = bot.process
    if process is None:
        return
    family = descendants(process.pid)
    try:
        await bot.stop()
    except Exception:
        _kill([process.pid, *family])
        await process.wait()
        bot.process = None
    # A clean stop ends the workers too (the forkserver a moment after the bot);
    # anything still there then is a leak: say so, and end it.
    deadline = time.monotonic() + 3
    while (left := [pid for pid in family if _alive(pid)]) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    if left:
        print(f"  left behind by the bot: {[_command(pid) for pid in left]}; killed")
        _kill(left)


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2] != "Z"


def _command(pid: int) -> str:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_text().replace("\0", " ")[:120]
    return str(pid)


def _kill(pids: list[int]) -> None:
    for pid in pids:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)


async def stop_all(bots: list[BotProcess]) -> None:
    for bot in bots:
        await stop(bot)


def log_problems(path: Path) -> Iterator[str]:
    """The log's warnings, errors and tracebacks, each once with its count."""
    if not path.exists():
        return
    seen: Counter[str] = Counter()
    for line in path.read_text(errors="replace").splitlines():
        if " WARNING " in line or " ERROR " in line or line.startswith("Traceback"):
            seen[line.split(" ", 2)[-1][:300]] += 1  # without the date and time
    for text, count in seen.items():
        yield f"{text} (×{count})" if count > 1 else text
