"""CPU-heavy work (board images, AI seats' thinking) in a pool of worker processes.

Pillow and the bots hold the CPU for tens of milliseconds; on the event loop
that would delay every other game's acknowledgement, and in a thread it
would still share one core (the GIL). A process pool sized to the machine
(``CPU_WORKERS``, default: one per core) lets one busy bot process use every
core. ``CPU_WORKERS=0`` runs the work on the event loop itself: no extra
processes, for tests and for the benchmark that measures what the pool buys.

What is sent to a worker is pickled: pictures, engines, states, views and
moves are plain objects, and functions are sent by reference (a worker
imports their module on first use).

Searching bots (the ``normal`` and ``hard`` levels) hold a worker for their
whole budget, a second at a time: they go through :meth:`CpuPool.think`, which
leaves a worker free for everything else (see there).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
import warnings
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

log = logging.getLogger(__name__)

OWNER_CHECK_SECONDS = 1.0
START_SECONDS = 60.0  # start() stops asking for every worker's answer after this

T = TypeVar("T")


def _prepare_worker(extra_games: Sequence[str], owner: int, warm: bool) -> None:
    """Runs once in each worker, before any job: the same games as the bot, and
    quiet on Ctrl-C (the parent handles shutdown and stops the pool)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_exit_with, args=(owner,), name="owner-watch", daemon=True).start()
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    from bot import registry

    registry.configure(extra_games)
    registry.specs()  # import the engines now, not during the first job
    if warm:
        import bot.warm_worker  # noqa: F401  (draws; already done where the forkserver did)


def _exit_with(owner: int) -> None:
    """A bot process killed outright (SIGKILL, out of memory) cannot stop its pool;
    its workers notice it is gone and exit instead of lingering."""
    while True:
        time.sleep(OWNER_CHECK_SECONDS)
        try:
            os.kill(owner, 0)
        except OSError:  # no such process, or one of another user's under its pid
            os._exit(0)


def _worker_pid() -> int:
    return os.getpid()


def _start_method(warm: bool) -> multiprocessing.context.BaseContext:
    """forkserver where it exists (Linux): workers do not inherit the event loop's
    threads and sockets, and start faster than spawn; spawn elsewhere. When
    ``warm``, the forkserver imports (and so runs) bot.warm_worker before forking
    any worker; otherwise it preloads the games only."""
    methods = multiprocessing.get_all_start_methods()
    if "forkserver" not in methods:
        return multiprocessing.get_context("spawn")
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["bot.warm_worker" if warm else "bot.drawing"])
    return context


class CpuPool:
    """Runs a function in a worker process (or inline with no workers) and awaits it."""

    def __init__(self, workers: int, extra_games: Sequence[str] = (), *, warm: bool = True) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 or more")
        self.workers = workers
        self._extra_games = tuple(extra_games)
        self.warm = warm  # workers draw a few boards of every game before their first job
        self._executor: ProcessPoolExecutor | None = None
        # Thinking jobs running at once, at most: every worker but one (one with
        # a single worker). Made on first use, for the running event loop.
        self.thinkers = max(1, workers - 1)
        self._thinking: tuple[asyncio.AbstractEventLoop, asyncio.Semaphore] | None = None

    @property
    def inline(self) -> bool:
        return self.workers == 0

    def _executor_now(self) -> ProcessPoolExecutor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=_start_method(self.warm),
                initializer=_prepare_worker,
                initargs=(self._extra_games, os.getpid(), self.warm),
            )
        return self._executor

    async def start(self) -> None:
        """Start every worker now, warm unless told otherwise (Pillow, the games
        and their pictures' caches loaded: bot.warm_worker), so the first boards
        after a start are as fast as the others. Returns once each worker has
        answered a job."""
        if self.inline:
            return
        executor = self._executor_now()
        loop = asyncio.get_running_loop()
        # Workers are started on demand, one per job that finds none idle; one
        # that is ready early may answer twice, so ask until each has answered.
        answered: set[int] = set()
        deadline = loop.time() + START_SECONDS
        while len(answered) < self.workers and loop.time() < deadline:
            jobs = (loop.run_in_executor(executor, _worker_pid) for _ in range(self.workers))
            answered.update(await asyncio.gather(*jobs))

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a worker (both pickled), or here with no workers."""
        if self.inline:
            return function(*args)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor_now(), function, *args)
        except BrokenProcessPool:
            # A worker died (killed for memory, a crash in a C library): every job
            # of that pool failed. Start a fresh pool and try this job once more.
            log.warning("A CPU worker died; starting a new pool")
            self._replace_broken()
            return await loop.run_in_executor(self._executor_now(), function, *args)

    async def think(self, function: Callable[..., T], *args: Any) -> T:
        """:meth:`run` for a job that holds its worker for long: a searching bot's
        decision (a quarter of a second to a second of a core, and several in a row
        for a table of bots).

        At most :attr:`thinkers` of them run at once (every worker but one), the
        others wait their turn here rather than in the executor's queue. Otherwise
        a few tables of bots thinking together would take every worker, and a
        player's board, suggestions or the next game's board would wait behind
        seconds of searches: a bot's move may come a little later, a board must
        not. With one worker (or none) there is nothing to leave free, and thinking
        waits only for thinking.
        """
        if self.inline:
            return function(*args)
        async with self._thinking_now():
            return await self.run(function, *args)

    def _thinking_now(self) -> asyncio.Semaphore:
        loop = asyncio.get_running_loop()
        if self._thinking is None or self._thinking[0] is not loop:
            self._thinking = (loop, asyncio.Semaphore(self.thinkers))
        return self._thinking[1]

    def _replace_broken(self) -> None:
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        """Stop the workers; jobs not yet started are dropped."""
        executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)


INLINE = CpuPool(0)
