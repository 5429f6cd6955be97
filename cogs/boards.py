"""Board images: each game's renderer, registered by its cog, drawn in the CPU pool."""

from __future__ import annotations

import asyncio
import io
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot import i18n
from bot.cpu import INLINE, CpuPool
from bot.session import Session
from games.contract import Seat


class Renderer(Protocol):
    """What a game's ``render/<g>.py`` offers the platform; it only sees views."""

    def board(
        self, view: Any, names: Sequence[str], lang: str, tags: Sequence[str | None] = ()
    ) -> bytes:
        """The board as ``view`` shows it (public, or one seat's); ``tags[seat]`` is
        "bot", "resigned" or None, for the panel's badges."""
        ...

    def hand(self, view: Any, names: Sequence[str], lang: str) -> bytes | None:
        """A seat's private image for /game hand, or None if the text says it all."""
        ...


_RENDERERS: dict[str, tuple[Renderer, CpuPool]] = {}


def register(key: str, renderer: Renderer, pool: CpuPool = INLINE) -> None:
    """A game's renderer, drawing in ``pool`` (the bot's worker processes)."""
    _RENDERERS[key] = (renderer, pool)


def renderer(key: str) -> Renderer:
    return _RENDERERS[key][0]


def _pool(key: str) -> CpuPool:
    return _RENDERERS[key][1]


def seat_tags(session: Session) -> list[str | None]:
    """Per seat: "bot" for bot seats, "resigned" for players the AI replaced
    (resigned, away after their clock ran out, or removed)."""
    return ["bot" if s.is_bot else "resigned" if s.out else None for s in session.record.seats]


@dataclass(frozen=True)
class _Board:
    """What decides a board's picture: the game (its id and creation time), its
    version (every change bumps it), the viewer and the language."""

    game_id: int
    created_at: str
    version: int
    viewer: Seat | None
    lang: str


# Boards drawn lately, newest last; and those being drawn, so that a board asked
# twice at once (a turn post and /game board) is drawn once.
CACHE_SIZE = 128
_drawn: OrderedDict[_Board, bytes] = OrderedDict()
_drawing: dict[_Board, asyncio.Task[bytes]] = {}


async def _draw(board: _Board, session: Session) -> bytes:
    drawing = renderer(session.key).board
    png = await _pool(session.key).run(
        drawing, session.view(board.viewer), list(session.names), board.lang, seat_tags(session)
    )
    _drawn[board] = png
    while len(_drawn) > CACHE_SIZE:
        _drawn.popitem(last=False)
    return png


async def _png(board: _Board, session: Session) -> bytes:
    if (png := _drawn.get(board)) is not None:
        _drawn.move_to_end(board)
        return png
    task = _drawing.get(board)
    if task is None:
        task = asyncio.ensure_future(_draw(board, session))
        _drawing[board] = task
        task.add_done_callback(lambda _: _drawing.pop(board, None))
    # One caller giving up (its interaction cancelled) does not stop the others' board.
    return await asyncio.shield(task)


async def board_file(session: Session, viewer: Seat | None, locale: object) -> discord.File:
    """Drawn in a worker process (Pillow takes tens of milliseconds); the same
    board asked again (a turn post, /game board) comes from the cache."""
    record = session.record
    board = _Board(session.id, record.created_at, record.version, viewer, i18n.language(locale))
    png = await _png(board, session)
    return discord.File(io.BytesIO(png), filename="board.png")


async def hand_file(session: Session, seat: Seat, locale: object) -> discord.File | None:
    drawing = renderer(session.key).hand
    png = await _pool(session.key).run(
        drawing, session.view(seat), list(session.names), i18n.language(locale)
    )
    return None if png is None else discord.File(io.BytesIO(png), filename="hand.png")
