"""Board images as Discord attachments, drawn by the bot's :class:`~bot.boards.Boards`."""

from __future__ import annotations

import io
from typing import TYPE_CHECKING, cast

import discord

from bot import i18n
from bot.boards import Boards
from bot.session import Session
from games.contract import Seat

if TYPE_CHECKING:
    from bot.app import Caravanserai


def boards_of(client: discord.Client) -> Boards:
    """The boards of the bot that ``client`` is (each bot has its own pool and cache)."""
    return cast("Caravanserai", client).boards


async def board_file(
    boards: Boards, session: Session, viewer: Seat | None, locale: object
) -> discord.File:
    """The board ``viewer`` sees (None: a spectator), in the reader's language."""
    png = await boards.board(session, viewer, i18n.language(locale))
    return discord.File(io.BytesIO(png), filename="board.png")


async def hand_file(
    boards: Boards, session: Session, seat: Seat, locale: object
) -> discord.File | None:
    png = await boards.hand(session, seat, i18n.language(locale))
    return None if png is None else discord.File(io.BytesIO(png), filename="hand.png")
