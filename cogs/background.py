"""What the bot does on its own: AI turns a restart interrupted, and reminders.

Posts go through the channel (an interaction token dies after 15 minutes),
in the game's language, with the same "Your move" entry as a turn post.
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot import i18n
from bot.service import GameService
from cogs.buttons import turn_view
from cogs.flow import deliver_private, tell_parent
from cogs.replies import game_message, post_to_channel, title, turn_lines

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)


class Background(commands.Cog):
    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def cog_load(self) -> None:
        if self.bot.config.reminder_hours > 0:
            self.remind_waiting_players.start()
        self.close_idle_lobbies.start()

    async def cog_unload(self) -> None:
        self.remind_waiting_players.cancel()
        self.close_idle_lobbies.cancel()

    async def resume_waiting_games(self) -> None:
        """AI seats whose turn came while the bot was down (or mid-chain) play now,
        in every active game (paged), each on its own: one bad game is skipped."""
        async for record in self.service.all_games():
            if self.bot.get_guild(record.guild_id) is None:
                continue  # a server this bot is no longer in
            try:
                session = await self.service.get(record.id)
                if session is None or not any(session.ai_plays(s) for s in session.to_act):
                    continue
                report = await self.service.advance(session)
                if not report.turns:
                    continue
                after = report.after
                lines = turn_lines(after, report.turns, after.lang)
                message = await game_message(after, lines, after.lang, view=turn_view(after))
                channel = self.bot.get_partial_messageable(record.channel_id)
                await post_to_channel(channel, message)
                await deliver_private(self.bot, after, report.private_events())
                await tell_parent(self.bot, session, after)
            except Exception:
                log.exception("Resuming AI seats of game %s failed; skipped", record.id)

    @tasks.loop(minutes=10)
    async def remind_waiting_players(self) -> None:
        """Ping players a game has waited on for TURN_REMINDER_HOURS, via the channel."""
        now = datetime.now(UTC)
        after = timedelta(hours=self.bot.config.reminder_hours)
        async for session in self.service.due_reminders(now, after):
            if self.bot.get_guild(session.record.guild_id) is None:
                continue
            try:
                lang = session.lang
                head = [i18n.t(lang, "game.reminder", game=title(session, lang), id=session.id)]
                message = await game_message(
                    session, head, lang, with_board=False, view=turn_view(session)
                )
                channel = self.bot.get_partial_messageable(session.record.channel_id)
                await post_to_channel(channel, message)
                await self.service.mark_reminded(session, now)
            except Exception:
                log.exception("Reminder for game %s failed; skipped", session.id)

    @tasks.loop(minutes=10)
    async def close_idle_lobbies(self) -> None:
        """Lobbies nobody touched for LOBBY_EXPIRY_HOURS close, with a word in their channel."""
        for session in await self.service.expire_idle_lobbies(datetime.now(UTC)):
            try:
                hours = round(self.service.limits.lobby_hours)
                text = i18n.t(session.lang, "lobby.expired", id=session.id, hours=hours)
                channel = self.bot.get_partial_messageable(session.record.channel_id)
                await channel.send(text)
            except Exception:
                log.exception("Telling lobby %s it closed failed", session.id)

    @close_idle_lobbies.before_loop
    async def _wait_until_ready_too(self) -> None:
        await self.bot.wait_until_ready()

    @remind_waiting_players.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Background(bot))
