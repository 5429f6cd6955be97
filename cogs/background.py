"""What the bot does on its own: AI turns a restart interrupted, turn clocks
(reminders, time running out) and idle lobbies.

Posts go through the channel (an interaction token dies after 15 minutes),
in the game's language, with the same "Your move" entry as a turn post.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot import i18n
from bot.service import GameService
from cogs.flow import post_ai_turns, report_failure
from cogs.votes import VOTE_ITEMS, tell_clock_news

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)

# Long enough for a chain of AI turns; a process that dies holding it frees it then.
RESUME_LEASE_SECONDS = 300.0


class Background(commands.Cog):
    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def cog_load(self) -> None:
        # Vote buttons of posts made before a restart are routed by their custom_id.
        self.bot.add_dynamic_items(*VOTE_ITEMS)
        self.watch_clocks.change_interval(seconds=self.bot.config.clock_check_seconds)
        self.watch_clocks.start()
        self.close_idle_lobbies.start()

    async def cog_unload(self) -> None:
        self.watch_clocks.cancel()
        self.close_idle_lobbies.cancel()

    async def resume_waiting_games(self) -> None:
        """AI seats whose turn came while the bot was down (or mid-chain) play now,
        in every active game of this process's shards (paged), each on its own:
        one bad game is skipped. Each game is leased first, so a process starting
        beside another on the same shards (a rolling restart) leaves it alone."""
        async for record in self.service.all_games(shards=self.bot.shards_here):
            if self.bot.get_guild(record.guild_id) is None:
                continue  # a server this bot is no longer in
            try:
                await self._resume(record.id)
            except Exception:
                report_failure(self.bot, "Resuming AI seats of game %s failed", record.id)

    async def _resume(self, game_id: int) -> None:
        session = await self.service.get(game_id)
        if session is None or not any(session.ai_plays(s) for s in session.to_act):
            return
        lease = f"ai:{game_id}"
        if not await self.bot.take_lease(lease, RESUME_LEASE_SECONDS):
            return  # another process is playing them
        try:
            session = await self.service.get(game_id)  # as it is now that we hold it
            if session is not None:
                await post_ai_turns(self.bot, self.service, session)
        finally:
            await self.bot.release_lease(lease)

    @tasks.loop(seconds=60)
    async def watch_clocks(self) -> None:
        """Turn clocks that are due: each is claimed in the database first, so a
        reminder is said once (also with several processes, and after downtime)."""
        try:
            due = await self.service.absence.due(datetime.now(UTC), self.bot.shards_here)
        except Exception:
            log.exception("Looking at turn clocks failed")
            return
        for news in due:
            if self.bot.get_guild(news.session.record.guild_id) is None:
                continue
            try:
                await tell_clock_news(self.bot, self.service, news)
            except Exception:
                report_failure(self.bot, "Clock news of game %s failed", news.session.id)

    @tasks.loop(minutes=10)
    async def close_idle_lobbies(self) -> None:
        """Lobbies nobody touched for LOBBY_EXPIRY_HOURS close, with a word in their channel."""
        now = datetime.now(UTC)
        for session in await self.service.expire_idle_lobbies(now, self.bot.shards_here):
            try:
                hours = round(self.service.limits.lobby_hours)
                text = i18n.t(session.lang, "lobby.expired", id=session.id, hours=hours)
                channel = self.bot.get_partial_messageable(session.record.channel_id)
                await channel.send(text)
            except Exception:
                report_failure(self.bot, "Telling lobby %s it closed failed", session.id)

    @close_idle_lobbies.before_loop
    async def _wait_until_ready_too(self) -> None:
        await self.bot.wait_until_ready()

    @watch_clocks.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Background(bot))
