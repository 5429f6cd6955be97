"""What keeps the web pages from costing the bot: limits, a token bucket per
client, a bound on images drawn at once, and strict parsing of the numbers
in addresses.

A storm of requests gets 429s at once instead of a queue, so the game
service (and the CPU pool that the bot's turn posts need) never waits for
the web.
"""

from __future__ import annotations

import asyncio
import math
import re
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass

# A server or game id as players see it: a plain decimal number, no sign, no
# leading zero, within SQLite's and PostgreSQL's integers (a larger one would
# be an error in the database, not a "no such game").
_ID = re.compile(r"[1-9][0-9]{0,18}")
LARGEST_ID = 2**63 - 1
# A page or position in a query or a board's file name: small and plain.
_COUNT = re.compile(r"0|[1-9][0-9]{0,8}")


@dataclass(frozen=True)
class WebLimits:
    """The web's bounds; the defaults suit one bot process, tests shrink them."""

    # Per client (remote address): a burst of requests, then a steady rate.
    # A page costs 3 requests (page, style, board); dragging the replay slider
    # one request per position shown.
    burst: int = 60
    per_second: float = 5.0
    # Clients whose buckets are kept; the least recently seen go first.
    clients: int = 10_000
    # Board and chart draws (and the replays they need) running at once, for the
    # whole site. None: one fewer than the CPU pool's workers (at least one),
    # so that a worker is always left for the games' own boards, as for the
    # bots' thinking.
    draws: int | None = None
    # Draws that may wait for one of those places (a page's board and chart
    # asked together); beyond them a request gets 429 at once.
    waiting: int = 8
    # Seconds a 429 for busy drawing asks the client to wait.
    busy_retry_after: int = 2
    # Drawn replay positions kept, in PNG bytes (a board is about 100 KB).
    position_bytes: int = 48 * 2**20
    # Games whose replayed public views are kept (one list of views per game).
    replays: int = 4
    # Finished games' score charts kept.
    charts: int = 32
    # Standing rows shown per game on a server's page.
    leaders: int = 100


def client_of(remote: str | None, forwarded_for: str | None, behind_proxy: bool) -> str:
    """Whose bucket a request draws from: its remote address, or behind a
    reverse proxy the address the proxy saw (the last one it appended to
    X-Forwarded-For; earlier ones are whatever the client claimed)."""
    if behind_proxy and forwarded_for:
        return forwarded_for.rsplit(",", 1)[-1].strip()
    return remote or ""


def parse_id(text: str) -> int | None:
    """A server's or game's number from an address, or None when it is not a
    plain decimal number of sane size."""
    if not _ID.fullmatch(text):
        return None
    value = int(text)
    return value if value <= LARGEST_ID else None


def parse_count(text: str | None) -> int | None:
    """A page or position number (0 or more), or None when absent or malformed."""
    if text is None or not _COUNT.fullmatch(text):
        return None
    return int(text)


class TokenBuckets:
    """A token bucket per client: ``burst`` tokens, refilled at ``per_second``;
    a request takes one. Only the ``clients`` most recently seen are kept, so
    many addresses cost bounded memory (a forgotten client starts full)."""

    def __init__(self, limits: WebLimits, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = max(1, limits.burst)
        self.per_second = limits.per_second
        self.clients = max(1, limits.clients)
        self.clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def take(self, client: str) -> float:
        """0 when ``client`` may go on; else the seconds until it may."""
        now = self.clock()
        tokens, then = self._buckets.pop(client, (float(self.burst), now))
        tokens = min(float(self.burst), tokens + (now - then) * self.per_second)
        wait = 0.0
        if tokens >= 1:
            tokens -= 1
        elif self.per_second > 0:
            wait = (1 - tokens) / self.per_second
        else:
            wait = math.inf
        self._buckets[client] = (tokens, now)
        while len(self._buckets) > self.clients:
            self._buckets.popitem(last=False)
        return wait


class Busy(Exception):
    """Too many draws at once: the request is answered 429, not queued."""


class DrawGate:
    """At most ``running`` draws (and replays) at once for the whole site, and
    ``waiting`` more in line for them: the line is here, not in the CPU pool's
    queue, so the games' own boards never wait behind the web's. One event
    loop runs the site, so a counter is enough."""

    def __init__(self, running: int, waiting: int) -> None:
        self.limit = max(1, running) + max(0, waiting)
        self.busy = 0  # running and waiting
        self._places = asyncio.Semaphore(max(1, running))

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        """Hold a place while drawing, waiting for one if the line has room;
        raises :class:`Busy` at once when it has none."""
        if self.busy >= self.limit:
            raise Busy
        self.busy += 1
        try:
            async with self._places:
                yield
        finally:
            self.busy -= 1


def retry_after(seconds: float) -> str:
    """A Retry-After value: whole seconds, at least 1."""
    if not math.isfinite(seconds):
        return "60"
    return str(max(1, math.ceil(seconds)))
