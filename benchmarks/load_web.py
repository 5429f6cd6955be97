"""Readers of the web pages for the load benchmark: while the players play, a few
browsers read the pages of the games being played, as fast as the bot answers.

Each reader loops over the tables' games, asking in turn for a game's page, its
current board, its start position's board and the server's page, one request at a
time (a closed loop, like the players without think time). They all come from
127.0.0.1, so they share one client's allowance: past it, the bot answers 429
at once. The figure that matters is the players' board latency beside it: the
pages must not slow the games.
"""

from __future__ import annotations

import asyncio
import random
import socket
from dataclasses import dataclass, field

import aiohttp

from benchmarks.common import percentile
from benchmarks.load_drive import Table


def free_port() -> int:
    """A port nothing listens on now (the bot binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Reading:
    """What the readers got during one load."""

    ok_ms: list[float] = field(default_factory=list)  # 200 and 304 answers
    refused: int = 0  # 429: over the allowance
    errors: list[str] = field(default_factory=list)  # anything else
    seconds: float = 0.0

    @property
    def pages_per_second(self) -> float:
        return len(self.ok_ms) / self.seconds if self.seconds else 0.0

    def latency(self, q: float) -> float:
        return percentile(self.ok_ms, q) if self.ok_ms else float("nan")

    def summary(self) -> str:
        asked = len(self.ok_ms) + self.refused + len(self.errors)
        return (
            f"{self.pages_per_second:.0f} answers/s, p50 / p95 {self.latency(0.5):.0f} /"
            f" {self.latency(0.95):.0f} ms, {self.refused} of {asked} refused (429)"
            + (f", {len(self.errors)} errors: {self.errors[:2]}" if self.errors else "")
        )


def paths(tables: list[Table], rng: random.Random) -> list[str]:
    """A reader's round: every game's page, its board now and at the start, its server."""
    out = []
    for table in tables:
        for game in table.games:
            page = f"/s/{table.guild.id}/g/{game.game_id}"
            out += [page, f"{page}/board.png", f"{page}/board/0.png"]
        out.append(f"/s/{table.guild.id}")
    rng.shuffle(out)
    return out


async def read_pages(base: str, tables: list[Table], readers: int, stop: asyncio.Event) -> Reading:
    """``readers`` closed-loop readers until ``stop`` is set."""
    reading = Reading()
    loop = asyncio.get_running_loop()
    began = loop.time()

    async def reader(index: int, session: aiohttp.ClientSession) -> None:
        rng = random.Random(index)
        while not stop.is_set():
            for path in paths(tables, rng):
                if stop.is_set():
                    return
                sent = loop.time()
                try:
                    async with session.get(base + path) as answer:
                        await answer.read()
                        status = answer.status
                except (aiohttp.ClientError, TimeoutError) as exc:
                    reading.errors.append(f"{path}: {type(exc).__name__}")
                    await asyncio.sleep(0.1)
                    continue
                if status in (200, 304):
                    reading.ok_ms.append((loop.time() - sent) * 1000)
                elif status == 429:
                    reading.refused += 1
                    await asyncio.sleep(0.05)  # a browser would back off; a storm would not
                else:
                    reading.errors.append(f"{path}: {status}")

    timeout = aiohttp.ClientTimeout(total=30)
    async with aiohttp.ClientSession(timeout=timeout) as session:
        await asyncio.gather(*(reader(i, session) for i in range(readers)))
    reading.seconds = loop.time() - began
    return reading
