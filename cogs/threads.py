"""A thread per game: opening it from /game new, and the parent channel's lines.

The parent channel sees one line when a lobby opens (the thread starts from
it), one when the game starts and one with the result; everything else
happens in the thread. A server can keep games in the channel instead
(``/game settings threads:off``), and /game new inside a thread uses it.
"""

from __future__ import annotations

import logging
from typing import Literal

import discord

log = logging.getLogger(__name__)

AUTO_ARCHIVE_MINUTES: Literal[10080] = 10080  # a week: async games are slow; Discord's longest
NAME_LIMIT = 100


async def open_thread(starter: discord.Message, name: str) -> discord.Thread | None:
    """A public thread from the bot's line in the channel; None if not allowed here."""
    try:
        return await starter.create_thread(
            name=name[:NAME_LIMIT], auto_archive_duration=AUTO_ARCHIVE_MINUTES
        )
    except discord.HTTPException as error:
        log.warning("Cannot open a game thread in channel %s: %s", starter.channel.id, error)
        return None


async def post_in_parent(client: discord.Client, channel_id: int, text: str) -> None:
    """One line in the parent channel of a game's thread (nothing if not a thread)."""
    try:
        channel = client.get_channel(channel_id) or await client.fetch_channel(channel_id)
        if not isinstance(channel, discord.Thread):
            return
        parent = channel.parent or await client.fetch_channel(channel.parent_id)
        if isinstance(parent, discord.abc.Messageable):
            await parent.send(text, allowed_mentions=discord.AllowedMentions.none())
    except discord.HTTPException:
        log.warning("Could not post in the parent of thread %s", channel_id)
