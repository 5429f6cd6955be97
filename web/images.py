"""The web's images: a game's current board, its replay positions and its
score chart, with their caches and ETags.

All drawing and replaying runs in the CPU pool, behind the site-wide
:class:`~web.guard.DrawGate` (a short line of its own; past it, 429). The
current board comes from the bot's :class:`~bot.boards.Boards` (shared with
Discord's posts). Replay positions: a game's log is replayed once into the
spectator's view at every position (kept for a few games), and each position
drawn once (kept in a cache bounded in bytes), so a slider dragged back and
forth draws each position once. Concurrent requests for one image or one
replay share a single job. Everything is drawn in the game's language, as
in Discord.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import struct
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from bot.boards import Boards, seat_tags
from bot.charts import has_chart, score_chart_png
from bot.replay import ReplayError
from bot.service import GameService
from bot.session import Session
from bot.storage import MoveRecord
from render.chart import score_chart
from web.guard import DrawGate, WebLimits
from web.positions import public_views, rows_of, tags_of

log = logging.getLogger(__name__)

T = TypeVar("T")
SIZES_KEPT = 4096  # image sizes remembered for link previews (two numbers each)
FAILURES_KEPT = 256  # games known not to replay


class NotShown(Exception):
    """The image does not exist or cannot be made (a log that no longer replays):
    answered like any unknown address."""


def etag(*parts: object) -> str:
    """A strong ETag naming what decides an image."""
    digest = hashlib.sha256(repr(parts).encode("utf-8")).hexdigest()[:32]
    return f'"{digest}"'


def png_size(png: bytes) -> tuple[int, int] | None:
    """A PNG's width and height from its header (no decoding)."""
    if len(png) < 24 or png[:8] != b"\x89PNG\r\n\x1a\n" or png[12:16] != b"IHDR":
        return None
    width, height = struct.unpack(">II", png[16:24])
    return int(width), int(height)


class BytesCache:
    """Least recently used PNGs, at most ``limit`` bytes in all."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.used = 0
        self._items: OrderedDict[Hashable, bytes] = OrderedDict()

    def get(self, key: Hashable) -> bytes | None:
        png = self._items.get(key)
        if png is not None:
            self._items.move_to_end(key)
        return png

    def put(self, key: Hashable, png: bytes) -> None:
        if len(png) > self.limit:
            return
        old = self._items.pop(key, None)
        self.used += len(png) - (len(old) if old is not None else 0)
        self._items[key] = png
        while self.used > self.limit:
            _, dropped = self._items.popitem(last=False)
            self.used -= len(dropped)


class Lru(OrderedDict[Hashable, T]):
    """An ordered dict keeping its ``limit`` most recently stored or read items."""

    def __init__(self, limit: int) -> None:
        super().__init__()
        self.limit = max(1, limit)

    def read(self, key: Hashable) -> T | None:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def keep(self, key: Hashable, value: T) -> None:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.limit:
            self.popitem(last=False)


@dataclass(frozen=True)
class _Replayed:
    """A game's spectator views at every position of its log as it was read."""

    tags: tuple[int, ...]
    views: tuple[Any, ...]


def _game(session: Session) -> tuple[int, str]:
    """A game for good: ids are not reused, but a restored backup could."""
    return session.id, session.record.created_at


class Images:
    """The boards and charts of the web pages, drawn in the bot's pool."""

    def __init__(self, service: GameService, boards: Boards, limits: WebLimits) -> None:
        self.service = service
        self.boards = boards
        # WebSite resolves draws=None from its pool's size.
        self.gate = DrawGate(limits.draws or 1, limits.waiting)
        self._positions = BytesCache(limits.position_bytes)
        self._replays: Lru[_Replayed] = Lru(limits.replays)
        self._charts: Lru[tuple[bytes | None]] = Lru(limits.charts)
        self._sizes: Lru[tuple[int, int]] = Lru(SIZES_KEPT)
        self._failed: Lru[bool] = Lru(FAILURES_KEPT)
        self._jobs: dict[Hashable, asyncio.Task[Any]] = {}

    # ------------------------------------------------------------------ ETags and sizes

    @staticmethod
    def board_etag(session: Session) -> str:
        record = session.record
        return etag("board", record.id, record.created_at, record.version, record.lang)

    @staticmethod
    def position_etag(session: Session, number: int, tag: int) -> str:
        record = session.record
        return etag("position", record.id, record.created_at, number, tag, record.lang)

    @staticmethod
    def chart_etag(session: Session) -> str:
        record = session.record
        return etag("chart", record.id, record.created_at, record.finished_at, record.lang)

    def position_size(self, session: Session, number: int, tag: int) -> tuple[int, int] | None:
        """A position's image size, when it was drawn lately (link previews)."""
        return self._sizes.read(self.position_etag(session, number, tag))

    def replay_failed(self, session: Session) -> bool:
        """The game's log was found not to replay (its page says so)."""
        return bool(self._failed.read(_game(session)))

    # ------------------------------------------------------------------ images

    async def board(self, session: Session, number: int, tag: int) -> bytes:
        """The public board now, at position ``number`` (tagged ``tag``). Boards
        keeps the latest boards: a cached one returns without waiting, so it
        never holds the gate. It is also that position's image (the state
        replayed from the log is the state stored): kept as such, the link
        preview knows its size and a crawler fetching it costs no replay."""
        if session.broken or session.state is None:
            raise NotShown
        async with self.gate.slot():
            png = await self.boards.board(session, None, session.lang)
        self._keep(self.position_etag(session, number, tag), png)
        return png

    async def position(self, session: Session, counted: Sequence[MoveRecord], number: int) -> bytes:
        """The public board after ``counted[:number]`` (the rows that count)."""
        tags = tags_of(counted)
        if session.broken or session.hosted_spec is None or not 0 <= number < len(tags):
            raise NotShown
        key = self.position_etag(session, number, tags[number])
        png = self._positions.get(key)
        if png is not None:
            return png
        async with self.gate.slot():
            views = await self._views(session, counted, tags, number)
            png = await self._shared(key, lambda: self._draw(session, views[number]))
        self._keep(key, png)
        return png

    def _keep(self, key: str, png: bytes) -> None:
        self._positions.put(key, png)
        size = png_size(png)
        if size is not None:
            self._sizes.keep(key, size)

    async def chart(self, session: Session) -> bytes:
        """A finished game's score chart, in the game's language."""
        if not has_chart(session):
            raise NotShown
        key = self.chart_etag(session)
        kept = self._charts.read(key)
        if kept is None:
            async with self.gate.slot():
                png = await self._shared(key, lambda: self._draw_chart(session))
            kept = (png,)
            self._charts.keep(key, kept)
        if kept[0] is None:
            raise NotShown
        return kept[0]

    # ------------------------------------------------------------------ the work

    async def _views(
        self, session: Session, counted: Sequence[MoveRecord], tags: tuple[int, ...], number: int
    ) -> tuple[Any, ...]:
        """The spectator's views of the game up to its last counted row; a replay
        kept from earlier serves while its position ``number`` is the same."""
        game = _game(session)
        kept = self._replays.read(game)
        if kept is not None and len(kept.tags) > number and kept.tags[number] == tags[number]:
            return kept.views
        if self._failed.read(game):
            raise NotShown
        replayed = await self._shared(
            ("replay", *game, tags), lambda: self._replay(session, counted, tags)
        )
        return replayed.views

    async def _replay(
        self, session: Session, counted: Sequence[MoveRecord], tags: tuple[int, ...]
    ) -> _Replayed:
        record = session.record
        try:
            views = await self.service.cpu.run(
                public_views,
                session.engine,
                len(record.seats),
                record.seed,
                record.options,
                rows_of(counted),
            )
        except ReplayError:
            log.exception("Game %s does not replay; its web replay is not shown", session.id)
            self._failed.keep(_game(session), True)
            raise NotShown from None
        replayed = _Replayed(tags, tuple(views))
        self._replays.keep(_game(session), replayed)
        return replayed

    async def _draw(self, session: Session, view: Any) -> bytes:
        picture = self.boards.picture(session.kind)
        png: bytes = await self.boards.pool.run(
            picture.board, view, list(session.names), session.lang, seat_tags(session)
        )
        return png

    async def _draw_chart(self, session: Session) -> bytes | None:
        try:
            return await score_chart_png(self.service, session, session.lang, score_chart)
        except ReplayError:
            log.exception("Game %s does not replay; its web chart is not shown", session.id)
            return None

    async def _shared(self, key: Hashable, make: Callable[[], Awaitable[T]]) -> T:
        """One job per key at a time: concurrent callers await the same one, and
        one caller going away (its client closed) does not stop it for the others."""
        task = self._jobs.get(key)
        if task is None:
            task = asyncio.ensure_future(make())
            self._jobs[key] = task
            task.add_done_callback(lambda done: self._finished(key, done))
        result: T = await asyncio.shield(task)
        return result

    def _finished(self, key: Hashable, task: asyncio.Task[Any]) -> None:
        self._jobs.pop(key, None)
        if not task.cancelled():
            task.exception()  # retrieved: every caller may have gone away before it failed
