"""The CPU pool: work runs in worker processes, survives a dead worker, and
boards and AI seats use it."""

from __future__ import annotations

import asyncio
import os
import pickle
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

import pytest

from bot import i18n, registry
from bot.boards import Boards
from bot.cpu import INLINE, CpuPool
from bot.service import GameService
from bot.storage import Storage
from games.contract import bot_move
from tests.service_games import ALICE, BOB, CHANNEL, lobby, start_desert

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]


def where() -> tuple[int, int]:
    return os.getpid(), threading.get_ident()


def die() -> None:
    os._exit(3)  # a worker killed mid-job (out of memory, a crash in C)


@pytest.fixture
async def pool() -> AsyncIterator[CpuPool]:
    workers = CpuPool(2, warm=False)
    await workers.start()
    yield workers
    workers.close()


async def test_work_runs_in_other_processes(pool: CpuPool) -> None:
    pids = {pid for pid, _ in [await pool.run(where) for _ in range(4)]}
    assert os.getpid() not in pids
    assert 1 <= len(pids) <= 2


async def test_no_workers_means_on_the_event_loop_thread() -> None:
    assert await INLINE.run(where) == where()


def die_once(flag: Path) -> int:
    """Kills its worker the first time (leaving ``flag``), answers the second."""
    if not flag.exists():
        flag.touch()
        os._exit(3)
    return 42


async def test_a_dead_worker_is_replaced_and_the_job_retried(pool: CpuPool, tmp_path: Path) -> None:
    before = {await pool.run(os.getpid) for _ in range(2)}
    # The job that killed its worker runs again on a fresh pool, and answers.
    assert await pool.run(die_once, tmp_path / "died") == 42
    after = await pool.run(os.getpid)
    assert after not in before and after != os.getpid()
    # A job that kills every worker it gets is reported after its one retry.
    with pytest.raises(BrokenProcessPool):
        await pool.run(die)
    assert await pool.run(sum, [1, 2, 3]) == 6


async def test_a_negative_pool_size_is_refused() -> None:
    with pytest.raises(ValueError):
        CpuPool(-1)


def test_every_game_state_view_and_move_can_go_to_a_worker() -> None:
    """What the pool sends (engines, bots, states, views, moves) pickles to equal values."""
    for key, spec in registry.specs().items():
        engine = spec.engine
        state = engine.new(3, 7)
        for ply in range(40):
            seats = engine.to_act(state)
            if not seats:
                break
            move = bot_move(engine, spec.bot, state, seats[0], ply)
            assert pickle.loads(pickle.dumps(move)) == move, key
            state = engine.apply(state, seats[0], move)
        for viewer in (None, 0, 1):
            view = engine.view(state, viewer)
            assert pickle.loads(pickle.dumps(view)) == view, key
        assert pickle.loads(pickle.dumps(state)) == state, key
        loaded_engine, loaded_bot = pickle.loads(pickle.dumps((engine, spec.bot)))
        assert loaded_bot is spec.bot and type(loaded_engine) is type(engine), key
        assert loaded_engine.dump(state) == engine.dump(state), key


class Recording(CpuPool):
    """The real pool, noting what it was asked to run."""

    def __init__(self, workers: int) -> None:
        super().__init__(workers)
        self.ran: list[str] = []
        self.thought: list[str] = []  # the jobs run through think() (searches)

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        self.ran.append(function.__name__)
        return await super().run(function, *args)

    async def think(self, function: Callable[..., T], *args: Any) -> T:
        self.thought.append(function.__name__)
        return await super().think(function, *args)


async def test_ai_seats_think_in_the_pool(storage: Storage) -> None:
    pool = Recording(1)
    service = GameService(storage, cpu=pool)
    try:
        after = await start_desert(service, bots=1, first=1)  # the bot begins
    finally:
        pool.close()
    assert [after.seat(s).user_id for s in after.awaited] == [ALICE]
    moves = await storage.moves(after.id)
    assert moves and all(m.by_ai for m in moves)
    assert pool.ran.count("play_level") == len(moves)
    assert pool.thought == []  # easy bots: no search, no limit


async def test_searching_bots_think_in_the_pool_under_its_limit(storage: Storage) -> None:
    """A bot of the normal level (a search, its game's spec pickled to the worker)
    decides in a worker, through think()."""
    pool = Recording(1)
    service = GameService(storage, cpu=pool)
    try:
        await lobby(service, 1, level="normal")
        after = (await service.settle(await service.start(CHANNEL, ALICE, first=1))).after
    finally:
        pool.close()
    moves = await storage.moves(after.id)
    assert [m.by_ai for m in moves] == [True]
    assert pool.thought == pool.ran == ["play_level"]
    assert [after.seat(s).user_id for s in after.awaited] == [ALICE]


def nap(seconds: float) -> tuple[float, float]:
    """A job that holds its worker for a while; when it ran, by the clock every
    process shares (CLOCK_MONOTONIC)."""
    start = time.monotonic()
    time.sleep(seconds)
    return start, time.monotonic()


def test_thinking_leaves_one_worker_free() -> None:
    assert [CpuPool(n).thinkers for n in (0, 1, 2, 3, 8)] == [1, 1, 1, 2, 7]


async def test_searches_leave_a_worker_for_the_boards(pool: CpuPool) -> None:
    """Two workers: searches think one at a time, so a board asked meanwhile is
    drawn at once instead of waiting behind them."""
    thinking = [asyncio.create_task(pool.think(nap, 1.0)) for _ in range(2)]
    await asyncio.sleep(0.2)  # both asked; one runs, one waits its turn
    asked = time.monotonic()
    board, _ = await pool.run(nap, 0.0)
    assert board - asked < 0.5  # not behind a search
    (_, first_done), (second, _) = sorted(await asyncio.gather(*thinking))
    assert second >= first_done  # never both workers searching


def test_every_games_picture_goes_to_a_worker_by_its_class() -> None:
    """Boards are drawn by the game's picture, pickled: by its class, with no state."""
    for key, spec in registry.specs().items():
        picture = spec.load_picture()
        assert not vars(picture), key
        assert type(pickle.loads(pickle.dumps(picture))) is type(picture), key


async def test_boards_are_drawn_in_the_pool(service: GameService) -> None:
    session = await start_desert(service, BOB)
    pool = Recording(1)
    try:
        boards = Boards.of_games(registry.specs(), pool)
        png = await boards.board(session, None, "fr")
        hand = await boards.hand(session, 0, "en")
    finally:
        pool.close()
    assert pool.ran == ["draw_board", "hand"]  # the board with its view, worked out there
    assert png.startswith(b"\x89PNG") and hand is None  # Desert's water values are text


async def test_move_suggestions_are_the_same_from_a_worker(service: GameService) -> None:
    """Autocomplete and the move select ask the pool; the session and the reader's
    locale travel there and the same suggestions come back."""
    import discord

    from cogs.suggest import move_choices

    session = await start_desert(service, BOB)
    seat = session.awaited[0]
    pool = CpuPool(1, warm=False)
    try:
        for typed, locale in (("", discord.Locale.french), ("F", discord.Locale.american_english)):
            here = move_choices(session, seat, typed, locale)
            assert here
            lang = i18n.language(locale)  # what the cogs send: Discord's Locale does not pickle
            assert await pool.run(move_choices, session, seat, typed, lang) == here
    finally:
        pool.close()


def test_workers_exit_when_their_bot_is_killed(tmp_path: Path) -> None:
    """A bot process killed outright leaves no worker behind."""
    script = tmp_path / "owner.py"
    script.write_text(
        "import asyncio, os, sys\n"
        "from bot.cpu import CpuPool\n"
        "async def main():\n"
        "    pool = CpuPool(2, warm=False)\n"
        "    await pool.start()\n"
        "    pids = {await pool.run(os.getpid) for _ in range(6)}\n"
        "    print(*pids, flush=True)\n"
        "    await asyncio.sleep(60)\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    owner = subprocess.Popen(
        [sys.executable, str(script)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # its resource tracker reports what the kill left
        text=True,
    )
    try:
        assert owner.stdout is not None
        workers = [int(pid) for pid in owner.stdout.readline().split()]
        assert workers
    finally:
        owner.kill()
        owner.wait()
    deadline = time.monotonic() + 10
    while any(alive(pid) for pid in workers):
        assert time.monotonic() < deadline, "workers outlived their bot"
        time.sleep(0.1)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # A zombie is dead too (its parent, the forkserver, has not reaped it yet).
    stat = Path(f"/proc/{pid}/stat")
    return not (stat.exists() and stat.read_text().split(") ", 1)[1].startswith("Z"))


def desert_grounds_drawn() -> int:
    """In a worker: how many Desert grounds (its costliest static layer) it holds."""
    from games.desert import picture

    return picture._board_layer.cache_info().currsize


@pytest.mark.parametrize("warm", [True, False])
def test_workers_start_warm_unless_told_not_to(tmp_path: Path, warm: bool) -> None:
    """A warm pool's workers have drawn boards before their first job (so the first
    board after a start is as fast as the next); WARM_WORKERS=0's have not. In a
    process of its own: the forkserver, and so its preload, is one per process."""
    script = tmp_path / "warm.py"
    script.write_text(
        "import asyncio\n"
        "from bot.cpu import CpuPool\n"
        "from tests.test_cpu import desert_grounds_drawn\n"
        "async def main():\n"
        f"    pool = CpuPool(1, warm={warm})\n"
        "    await pool.start()\n"
        "    print(await pool.run(desert_grounds_drawn), flush=True)\n"
        "    pool.close()\n"
        "if __name__ == '__main__':\n"
        "    asyncio.run(main())\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    grounds = int(done.stdout.split()[-1])
    assert (grounds > 0) if warm else (grounds == 0)
