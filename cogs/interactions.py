"""What every component handler (button, select) starts from: its action run
with refusals answered privately, the service, and the game its
``custom_id`` names, checked to be played where it was clicked.

A ``custom_id`` is whatever the client sends, so a component acts only on a
game of the server and channel it is clicked in (:func:`game_here`,
:func:`game_of_this_channel`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, cast

import discord

from bot import i18n
from bot.app import prepare_interaction, send_ephemeral
from bot.errors import UserError, refusal
from bot.service import GameService
from bot.session import Session
from bot.storage import GameRecord

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)


async def run_component(interaction: discord.Interaction, action: Awaitable[None]) -> None:
    """Run a component's action; a refusal is answered privately in the user's
    language, anything else is logged (discord.py only logs errors of
    dynamic items, leaving the user with "This interaction failed")."""
    try:
        await prepare_interaction(service_of(interaction).sessions.settings, interaction)
        await action
    except Exception as error:
        text = refusal(interaction.locale, error)
        if text is None:
            data = cast("dict[str, Any]", interaction.data or {})
            log.exception("Component %s failed", data.get("custom_id"))
            text = i18n.t(interaction.locale, "error.unexpected")
        await send_ephemeral(interaction, text)


def service_of(interaction: discord.Interaction) -> GameService:
    client = cast("Caravanserai", interaction.client)
    return client.service


def belongs_here(record: GameRecord, interaction: discord.Interaction) -> bool:
    """Whether the game is played where the interaction comes from: its server,
    and its thread or channel (``channel_id``)."""
    return record.guild_id == interaction.guild_id and record.channel_id == interaction.channel_id


async def game_of_this_channel(interaction: discord.Interaction, game_id: int) -> Session:
    """Game ``game_id``, named by a component's ``custom_id``, once sure it is
    played in the interaction's server and channel: a ``custom_id`` is whatever
    the client sends, and must not reach another server's or channel's game."""
    session = await service_of(interaction).get(game_id)
    if session is None or not belongs_here(session.record, interaction):
        raise UserError("button.not_here")
    return session


async def game_here(interaction: discord.Interaction, game_id: int) -> Session:
    """The channel's open game, which must be the one the component belongs to."""
    assert interaction.channel_id is not None
    session = await service_of(interaction).require_session(interaction.channel_id)
    if session.id != game_id:
        raise UserError("button.old_game")
    return session
