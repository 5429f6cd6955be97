"""Board images: each game's renderer, registered by its cog, drawn off the loop."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot import i18n
from bot.service import Session
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
    """Per seat: "bot" for bot seats, "resigned" for players the AI replaced."""
    return ["bot" if s.is_bot else "resigned" if s.resigned else None for s in session.record.seats]


async def board_file(session: Session, viewer: Seat | None, locale: object) -> discord.File:
    """Render off the event loop: Pillow work takes tens of milliseconds."""
    png = await asyncio.to_thread(
        renderer(session.key).board,
        session.view(viewer),
        session.names,
        i18n.language(locale),
        seat_tags(session),
    )
    return discord.File(io.BytesIO(png), filename="board.png")


async def hand_file(session: Session, seat: Seat, locale: object) -> discord.File | None:
    png = await asyncio.to_thread(
        renderer(session.key).hand, session.view(seat), session.names, i18n.language(locale)
    )
    return None if png is None else discord.File(io.BytesIO(png), filename="hand.png")
