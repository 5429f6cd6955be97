"""Which channels and threads the user of an interaction may see, for replies
that name games from anywhere on the server (``/game list``, ``/stats``,
``/game replay game:``): a game in a channel the caller cannot see is left
out, as if it did not exist.

Discord's rules: a thread is seen by whoever sees its parent channel
(discord.py's ``Thread.permissions_for``), a private thread only by its
members and those who may manage threads. Moderators (Manage Server) see
every game, as ``/game list`` has always shown them. discord.py forgets
archived threads (a finished game's thread is archived after a week without
posts), so a channel missing from its cache is fetched from Discord, once
per channel and reply.
"""

from __future__ import annotations

import discord

Place = discord.abc.GuildChannel | discord.Thread


class Sight:
    """What one interaction's user may see, asked channel by channel; each
    channel is looked up once."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self._known: dict[int, bool] = {}

    async def sees(self, channel_id: int) -> bool:
        """Whether the user may see that channel or thread (unknown ones: no)."""
        if channel_id not in self._known:
            self._known[channel_id] = await self._look(channel_id)
        return self._known[channel_id]

    async def _look(self, channel_id: int) -> bool:
        guild, member = self.interaction.guild, self.interaction.user
        if guild is None or not isinstance(member, discord.Member):
            return False
        if self.interaction.permissions.manage_guild:
            return True
        place = guild.get_channel_or_thread(channel_id) or await fetched(guild, channel_id)
        return place is not None and await member_sees(place, member)


async def can_see(interaction: discord.Interaction, channel_id: int) -> bool:
    """Whether the interaction's user may see that channel or thread (see :class:`Sight`)."""
    return await Sight(interaction).sees(channel_id)


async def fetched(guild: discord.Guild, channel_id: int) -> Place | None:
    """A channel or thread of ``guild`` that is not in the cache (an archived
    thread), from Discord; None if it is gone, elsewhere or hidden from the bot."""
    try:
        return await guild.fetch_channel(channel_id)
    except (discord.HTTPException, discord.InvalidData):
        return None


async def member_sees(place: Place, member: discord.Member) -> bool:
    try:
        allowed = place.permissions_for(member)
    except discord.ClientException:  # a thread whose parent channel is unknown
        return False
    if not allowed.view_channel:
        return False
    if isinstance(place, discord.Thread) and place.is_private():
        return allowed.manage_threads or await in_thread(place, member)
    return True


async def in_thread(thread: discord.Thread, member: discord.Member) -> bool:
    """Whether ``member`` is in the (private) thread: its owner, known to the
    cache, or found by asking Discord."""
    if thread.owner_id == member.id or any(m.id == member.id for m in thread.members):
        return True
    try:
        await thread.fetch_member(member.id)
    except discord.HTTPException:
        return False
    return True
