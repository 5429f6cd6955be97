"""Board images: each game's renderer, registered by its cog, drawn off the loop."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol

import discord

from bot import i18n
from bot.session import Session
from games.core import Seat


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


_RENDERERS: dict[str, Renderer] = {}


def register(key: str, renderer: Renderer) -> None:
    _RENDERERS[key] = renderer


def renderer(key: str) -> Renderer:
    return _RENDERERS[key]


def seat_tags(session: Session) -> list[str | None]:
    """Per seat: "bot" for bot seats, "resigned" for players the AI replaced
    (resigned, away after their clock ran out, or removed)."""
    return ["bot" if s.is_bot else "resigned" if s.out else None for s in session.record.seats]


@dataclass(frozen=True)
class _Board:
    """One board to draw, equal and hashed by what decides the picture: the game
    (its id and creation time), its version (every change bumps it), the viewer
    and the language."""

    game_id: int
    created_at: str
    version: int
    viewer: Seat | None
    lang: str
    session: Session = field(compare=False, hash=False)


@lru_cache(maxsize=128)
def _png(board: _Board) -> bytes:
    session = board.session
    return renderer(session.key).board(
        session.view(board.viewer), session.names, board.lang, seat_tags(session)
    )


async def board_file(session: Session, viewer: Seat | None, locale: object) -> discord.File:
    """Render off the event loop (Pillow takes tens of milliseconds); the same
    board asked again (a turn post, /game board) comes from the cache."""
    record = session.record
    board = _Board(
        session.id, record.created_at, record.version, viewer, i18n.language(locale), session
    )
    png = await asyncio.to_thread(_png, board)
    return discord.File(io.BytesIO(png), filename="board.png")


def cached_boards() -> int:
    """How many boards are cached (for tests and benchmarks)."""
    return _png.cache_info().currsize


async def hand_file(session: Session, seat: Seat, locale: object) -> discord.File | None:
    png = await asyncio.to_thread(
        renderer(session.key).hand, session.view(seat), session.names, i18n.language(locale)
    )
    return None if png is None else discord.File(io.BytesIO(png), filename="hand.png")
