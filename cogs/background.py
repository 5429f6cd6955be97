"""What the bot does on its own: turns a stop left unannounced, AI turns a
restart interrupted, turn clocks (reminders, time running out) and idle lobbies.

Posts go through the channel (an interaction token dies after 15 minutes),
in the game's language, with the same "Your move" entry as a turn post.

None of it stops for a passing database failure (a restart, a dropped
connection, a lock held too long): each job tries again with a growing wait
(``bot.retrying``) and says so in one line, and a game that failed for that
reason is simply looked at again next time.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from discord.ext import commands, tasks

from bot import i18n
from bot.retrying import is_transient, retrying
from bot.service import GameService
from bot.session import Session
from bot.storage import StorageUnavailable, Unannounced
from cogs.announce import announce_late, post_since_last_post
from cogs.news import deliver_private, report_failure
from cogs.votes import VOTE_ITEMS, tell_clock_news

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)

# Long enough for a chain of AI turns; a process that dies holding it frees it then.
RESUME_LEASE_SECONDS = 300.0
LATE_PAGE = 100  # unannounced games read at a time


class Background(commands.Cog):
    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot
        # Set once start_up has run: the periodic late posts wait for it, so that
        # at start-up a turn left unposted is told before the AI's answer to it.
        self._started = asyncio.Event()

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def cog_load(self) -> None:
        # Vote buttons of posts made before a restart are routed by their custom_id.
        self.bot.add_dynamic_items(*VOTE_ITEMS)
        seconds = self.bot.config.clock_check_seconds
        self.watch_clocks.change_interval(seconds=seconds)
        self.announce_late_turns.change_interval(seconds=seconds)
        self.watch_clocks.start()
        self.close_idle_lobbies.start()
        self.announce_late_turns.start()

    async def cog_unload(self) -> None:
        self.watch_clocks.cancel()
        self.close_idle_lobbies.cancel()
        self.announce_late_turns.cancel()

    # ------------------------------------------------------------------ start-up

    async def start_up(self) -> None:
        """Once connected: first the turns a stop left unannounced, then the AI
        seats whose turn came meanwhile."""
        try:
            await self._round(self.post_late_turns, "Posting late turns")
            await self._round(self.resume_waiting_games, "Resuming AI turns")
        finally:
            self._started.set()

    async def resume_waiting_games(self) -> None:
        """AI seats whose turn came while the bot was down (or mid-chain) play now,
        in every active game of this process's shards (paged), each on its own:
        one bad game is skipped. Each game is leased first, so a process starting
        beside another on the same shards (a rolling restart) leaves it alone.
        A database failure, there or in one game, makes the whole pass run again
        after a wait (the games done by then have nothing left to play)."""
        await retrying("Resuming AI turns", self._resume_all)

    async def _resume_all(self) -> None:
        """One pass; raises the last database failure a game met, once all were seen."""
        unavailable: StorageUnavailable | None = None
        async for record in self.service.all_games(shards=self.bot.shards_here):
            if self.bot.get_guild(record.guild_id) is None:
                continue  # a server this bot is no longer in
            try:
                await self._resume(record.id)
            except StorageUnavailable as error:
                unavailable = error
            except Exception:
                report_failure(self.bot, "Resuming AI seats of game %s failed", record.id)
        if unavailable is not None:
            raise unavailable

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
                await self._play_ai_and_post(session)
        finally:
            await self.bot.release_lease(lease)

    async def _play_ai_and_post(self, session: Session) -> None:
        report = await self.service.advance(session)
        if not report.turns:
            return
        # From the last public post on: a turn the stop left unposted comes first.
        await post_since_last_post(self.bot, self.service, report.after)
        await deliver_private(self.bot, report.after, report.private_events())

    # ------------------------------------------------------------------ late turn posts

    @tasks.loop(seconds=60)
    async def announce_late_turns(self) -> None:
        await self._round(self.post_late_turns, "Posting late turns")

    async def post_late_turns(self) -> None:
        """Turns saved but still unposted past their grace (their process stopped,
        or its post failed): each is claimed first, so one process posts it."""
        while True:
            page = await retrying("Looking for unannounced turns", self._late)
            claimed = [await self._announce(owed) for owed in page]
            # A claimed game is no longer due, so the next page holds others.
            if len(page) < LATE_PAGE or not any(claimed):
                return

    async def _late(self) -> list[Unannounced]:
        now = datetime.now(UTC).isoformat()
        return await self.service.storage.unannounced(now, LATE_PAGE, shards=self.bot.shards_here)

    async def _announce(self, owed: Unannounced) -> bool:
        """Post one late turn (if claimed here); True if it was claimed."""
        if self.bot.get_guild(owed.game.guild_id) is None:
            return False  # a server this bot is no longer in
        try:
            return await announce_late(self.bot, self.service, owed, datetime.now(UTC))
        except Exception as error:
            self._failed(error, "Posting game %s's late turn failed", owed.game.id)
            return True  # claimed or not, another look will come

    # ------------------------------------------------------------------ clocks

    @tasks.loop(seconds=60)
    async def watch_clocks(self) -> None:
        await self._round(self.tell_due_clocks, "Looking at clocks")

    async def tell_due_clocks(self) -> None:
        """Turn clocks that are due: each is claimed in the database first, so a
        reminder is said once (also with several processes, and after downtime)."""
        now, shards = datetime.now(UTC), self.bot.shards_here
        due = await retrying("Looking at clocks", lambda: self.service.absence.due(now, shards))
        for news in due:
            if self.bot.get_guild(news.session.record.guild_id) is None:
                continue
            try:
                await tell_clock_news(self.bot, self.service, news)
            except Exception as error:
                self._failed(error, "Clock news of game %s failed", news.session.id)

    # ------------------------------------------------------------------ lobbies

    @tasks.loop(minutes=10)
    async def close_idle_lobbies(self) -> None:
        await self._round(self.close_lobbies, "Closing idle lobbies")

    async def close_lobbies(self) -> None:
        """Lobbies nobody touched for LOBBY_EXPIRY_HOURS close, with a word in their channel."""
        now, shards = datetime.now(UTC), self.bot.shards_here
        closed = await retrying(
            "Closing idle lobbies", lambda: self.service.expire_idle_lobbies(now, shards)
        )
        for session in closed:
            try:
                hours = round(self.service.limits.lobby_hours)
                text = i18n.t(session.lang, "lobby.expired", id=session.id, hours=hours)
                channel = self.bot.get_partial_messageable(session.record.channel_id)
                await channel.send(text)
            except Exception as error:
                self._failed(error, "Telling lobby %s it closed failed", session.id)

    # ------------------------------------------------------------------ shared

    async def _round(self, job: Callable[[], Awaitable[None]], what: str) -> None:
        """One round of a job, which never ends its loop: database failures are
        retried inside it; anything else is logged with its traceback, and the
        job looks again next time."""
        try:
            await job()
        except Exception:
            report_failure(self.bot, "%s failed", what)

    def _failed(self, error: Exception, message: str, *args: object) -> None:
        """One game's job failed (call it inside ``except``): a database failure in
        one line (that game is looked at again next time), anything else with
        its traceback."""
        if is_transient(error):
            log.warning(message + ": database unavailable (%s)", *args, error)
        else:
            report_failure(self.bot, message, *args)

    @close_idle_lobbies.before_loop
    async def _wait_until_ready_too(self) -> None:
        await self.bot.wait_until_ready()

    @watch_clocks.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()

    @announce_late_turns.before_loop
    async def _wait_until_started(self) -> None:
        await self.bot.wait_until_ready()
        await self._started.wait()
        await asyncio.sleep(self.bot.config.clock_check_seconds)  # start_up just looked


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Background(bot))
