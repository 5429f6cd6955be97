"""The Discord client: storage, extensions, command sync and error handling."""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import math
import os
import secrets
import socket
from datetime import UTC, datetime, timedelta
from typing import Any

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import i18n, registry
from bot.boards import Boards
from bot.config import Config, ConfigError, shards_of
from bot.cpu import CpuPool
from bot.errors import refusal
from bot.player_settings import PlayerSettings
from bot.service import REPLY_HOOK, GameService, Limits
from bot.storage import ReplyHook, Storage, open_storage
from bot.translator import CommandTranslator
from web.site import WebSite

log = logging.getLogger(__name__)

# The platform's own cogs; each registered game adds its commands (``GameSpec.commands``).
# The first four fill /game, in this order (cogs/game_group.py).
PLATFORM_EXTENSIONS = (
    "cogs.lobby",
    "cogs.showing",
    "cogs.seats",
    "cogs.game_list",
    "cogs.background",
    "cogs.leaderboard",
    "cogs.help",
    "cogs.settings",
    "cogs.rematch",
)


def extensions() -> tuple[str, ...]:
    return (*PLATFORM_EXTENSIONS, *(spec.commands for spec in registry.specs().values()))


def point_at_api(config: Config) -> None:
    """Send REST and gateway traffic to a Discord-compatible server if configured."""
    if config.api_base:
        discord.http.Route.BASE = config.api_base.rstrip("/")
    if config.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(config.gateway_url)


class Tree(app_commands.CommandTree["Caravanserai"]):
    """Turns refusals into ephemeral replies; logs everything unexpected."""

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        await prepare_interaction(self.client.service.sessions.settings, interaction)
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        locale = interaction.locale
        text = refusal(locale, cause)
        if text is None and isinstance(cause, app_commands.CommandOnCooldown):
            text = i18n.t(locale, "error.cooldown", seconds=math.ceil(cause.retry_after))
        elif text is None and isinstance(cause, app_commands.CheckFailure):
            text = i18n.t(locale, "error.not_allowed")
        elif text is None:
            log.error(
                "Command %s failed in channel %s (game %s)",
                describe_command(interaction),
                interaction.channel_id,
                await self._game_id(interaction),
                exc_info=cause,
            )
            text = i18n.t(locale, "error.unexpected")
        await send_ephemeral(interaction, text)

    async def _game_id(self, interaction: discord.Interaction) -> int | None:
        """The game of the channel, for the log line; never fails itself."""
        try:
            if interaction.channel_id is None:
                return None
            session = await self.client.service.session_in(interaction.channel_id)
            return None if session is None else session.id
        except Exception:
            return None


LOCALES = {"en": discord.Locale.american_english, "fr": discord.Locale.french}


async def prepare_interaction(settings: PlayerSettings, interaction: discord.Interaction) -> None:
    """Before an interaction is handled (in the task that handles it): answer in
    the player's language, and let a turn it saves note where its placeholder is."""
    note_reply_hook(interaction)
    await apply_language(settings, interaction)


def note_reply_hook(interaction: discord.Interaction) -> None:
    """A turn saved while handling ``interaction`` notes its webhook with the post
    it owes, so a late post can replace its "thinking…" (see cogs/announce.py)."""
    REPLY_HOOK.set(ReplyHook(interaction.application_id, interaction.token))


async def apply_language(settings: PlayerSettings, interaction: discord.Interaction) -> None:
    """A player who chose a language in /settings is answered in it, whatever
    Discord's own language (private replies, suggestions, errors)."""
    try:
        chosen = await settings.language(interaction.user.id)
    except Exception:
        log.exception("Reading the settings of user %s", interaction.user.id)
        return
    if chosen in LOCALES:
        interaction.locale = LOCALES[chosen]


async def send_ephemeral(interaction: discord.Interaction, text: str) -> None:
    """Answer privately whether or not the interaction was acknowledged yet."""
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("Could not deliver an error reply for %s", describe_command(interaction))


# Jobs that one process of several runs at a time are claimed through leases
# in the database (see Storage.take_lease).
SYNC_LEASE = "commands:sync"
SYNC_LEASE_SECONDS = 120.0
LEASE_RETRY_SECONDS = 1.0


class Caravanserai(commands.AutoShardedBot):
    """One process of the bot: the shards SHARD_IDS of SHARD_COUNT (by default
    every shard of Discord's recommended count), on a database shared with the
    other processes."""

    def __init__(self, config: Config) -> None:
        # Slash commands and components only: the servers, channels and threads
        # (GUILDS) are all the bot needs to see. Messages, typing, reactions and
        # the rest would each be an event parsed on the event loop for nothing;
        # in a busy server, most of the gateway's traffic.
        intents = discord.Intents.none()
        intents.guilds = True
        sharding: dict[str, Any] = {}  # none: Discord's recommended count, all here
        if config.shard_count is not None:
            sharding["shard_count"] = config.shard_count
            sharding["shard_ids"] = list(config.shard_ids or range(config.shard_count))
        super().__init__(
            **sharding,
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=Tree,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.config = config
        self._storage: Storage | None = None
        self._service: GameService | None = None
        self._boards: Boards | None = None
        self.web: WebSite | None = None  # the web pages, when WEB_PORT is set
        self.cpu = CpuPool(config.cpu_workers, config.extra_games, warm=config.warm_workers)
        self._loop_objects = False  # discord.py's asyncio objects exist (see close)
        # This process among several on one database: the holder of its leases.
        self.instance = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.shards_here = shards_of(config)  # None: every shard is here

    @property
    def storage(self) -> Storage:
        assert self._storage is not None, "storage is opened in setup_hook"
        return self._storage

    @property
    def service(self) -> GameService:
        assert self._service is not None, "service is created in setup_hook"
        return self._service

    @property
    def boards(self) -> Boards:
        """This bot's board images: the games' pictures, drawn in its CPU pool."""
        assert self._boards is not None, "boards are made in setup_hook"
        return self._boards

    async def setup_hook(self) -> None:
        await self.load_commands()
        self._boards = Boards.of_games(registry.specs(), self.cpu)
        await self.cpu.start()
        self._storage = await self.open_database()
        limits = Limits(
            lobbies=self.config.max_lobbies,
            games=self.config.max_games,
            lobby_hours=self.config.lobby_expiry_hours,
        )
        self._service = GameService(self._storage, limits=limits, cpu=self.cpu)
        await self.start_web()
        await self.sync_commands_if_changed()
        # What start-up made (modules, commands, catalogues) lives as long as the
        # process: out of the collector's sight, its full passes scan only what
        # interactions make, on the event loop's time.
        gc.collect()
        gc.freeze()

    async def start_web(self) -> None:
        """Serve the web pages if WEB_PORT is set (web/); otherwise nothing listens."""
        config = self.config
        if config.web_port is None or config.web_base_url is None:
            return
        self.web = WebSite(
            self.service, self.boards, config.web_base_url, behind_proxy=config.web_behind_proxy
        )
        try:
            port = await self.web.start(config.web_host, config.web_port)
        except OSError as exc:  # the port is taken, or the host is not this machine's
            raise ConfigError(
                f"WEB_PORT={config.web_port}: cannot listen on {config.web_host}:"
                f"{config.web_port} ({exc.strerror or exc}); choose another port or unset WEB_PORT."
            ) from exc
        log.info("Web pages at %s (listening on %s:%d)", config.web_base_url, config.web_host, port)

    async def open_database(self) -> Storage:
        """The storage DATABASE_URL names, opened and migrated."""
        return await open_storage(self.config.database_url)

    async def load_commands(self) -> None:
        """The registered games, then the cogs: menus are built from the registry."""
        registry.configure(self.config.extra_games)
        await self.tree.set_translator(CommandTranslator())
        for name in extensions():
            await self.load_extension(name)

    async def _async_setup_hook(self) -> None:
        await super()._async_setup_hook()
        self._loop_objects = True

    async def close(self) -> None:
        """Disconnect, stop the handlers still running, then close the storage.

        In that order, so no handler finds the storage closed under it; safe to
        call again (a second call closes a storage opened since the first).
        """
        if not self._loop_objects:
            # Closed before start() (a signal during start-up, a test): the sharded
            # client's close needs the objects start() creates, as `async with` would.
            await self._async_setup_hook()
        await super().close()  # no new events; cogs unloaded, so reminder loops cancelled
        # Handlers discord.py started (events, commands, components, modals, loops)
        # are cancelled: their transactions roll back; the client can no longer reply.
        current = asyncio.current_task()
        prefixes = ("discord.py: ", "CommandTree-invoker", "discord-ui-", "discord-ext-tasks: ")
        handlers = [
            task
            for task in asyncio.all_tasks()
            if task is not current and not task.done() and task.get_name().startswith(prefixes)
        ]
        for task in handlers:
            if not task.cancelling():  # a loop its cog cancelled is unwinding already
                task.cancel()
        if handlers:
            await asyncio.wait(handlers, timeout=5)
        if self.web is not None:  # before the storage its pages read
            await self.web.stop()
        storage, self._storage = self._storage, None
        if storage is not None:
            await storage.close()
        self.cpu.close()

    # ------------------------------------------------------------------ sync

    async def command_fingerprint(self) -> str:
        """Hash of the translated command payloads: changes when commands do."""
        translator = self.tree.translator
        assert translator is not None
        payloads: list[Any] = [
            await command.get_translated_payload(self.tree, translator)
            for command in self.tree.get_commands()
        ]
        blob = json.dumps(payloads, sort_keys=True, default=str)
        return hashlib.sha256(blob.encode()).hexdigest()

    async def sync_commands_if_changed(self) -> None:
        """Sync when the commands changed since the last sync (stored in the
        database). Processes starting together take turns through a lease: the
        first syncs, the others then find the fingerprint stored and skip."""
        if not await self.wait_for_lease(SYNC_LEASE, SYNC_LEASE_SECONDS):
            log.warning("Another process held the command sync for too long; not syncing")
            return
        try:
            await self._sync_all()
        finally:
            await self.release_lease(SYNC_LEASE)

    async def take_lease(self, name: str, seconds: float) -> bool:
        """Hold the lease ``name`` for ``seconds`` from now, if no other process does."""
        now = datetime.now(UTC)
        until = now + timedelta(seconds=seconds)
        return await self.storage.take_lease(
            name, self.instance, now.isoformat(), until.isoformat()
        )

    async def release_lease(self, name: str) -> None:
        await self.storage.release_lease(name, self.instance)

    async def wait_for_lease(self, name: str, seconds: float) -> bool:
        """Take the lease ``name`` for ``seconds``, waiting up to that long for it."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + seconds
        while True:
            if await self.take_lease(name, seconds):
                return True
            if loop.time() >= give_up:
                return False
            await asyncio.sleep(LEASE_RETRY_SECONDS)

    async def _sync_all(self) -> None:
        fingerprint = await self.command_fingerprint()
        if self.config.guild_ids:
            for guild_id in self.config.guild_ids:
                guild = discord.Object(id=guild_id)
                self.tree.copy_global_to(guild=guild)
                await self._sync_scope(f"guild:{guild_id}", fingerprint, guild)
        else:
            await self._sync_scope("global", fingerprint, None)

    async def _sync_scope(
        self, scope: str, fingerprint: str, guild: discord.abc.Snowflake | None
    ) -> None:
        key = f"commands:{scope}"
        # The application id is part of the key: a new application needs a sync.
        wanted = f"{self.application_id}:{fingerprint}"
        if await self.storage.get_meta(key) == wanted:
            log.info("Slash commands unchanged for %s; no sync", scope)
            return
        synced = await self.tree.sync(guild=guild)
        await self.storage.set_meta(key, wanted)
        log.info("Synced %d slash commands for %s", len(synced), scope)

    # ------------------------------------------------------------------ events

    async def on_ready(self) -> None:
        assert self.user is not None
        log.info("Connected as %s in %d server(s)", self.user, len(self.guilds))
        background = self.get_cog("Background")
        if background is not None:
            # Turns a stop left unannounced, then AI turns it interrupted.
            await background.start_up()  # type: ignore[attr-defined]


def describe_command(interaction: discord.Interaction) -> str:
    command = interaction.command
    return command.qualified_name if isinstance(command, app_commands.Command) else "?"
