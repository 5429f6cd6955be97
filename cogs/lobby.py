"""/game new, join, leave, remove, start, cancel, settings: forming a table.

A lobby is opened (in a thread of its own when the server and the bot's
rights allow), filled and started, or cancelled; a running game is
cancelled by a moderator or by all its players' votes. The server's
settings for its tables (threads, vacation days, the level the AI plays a
seat it takes over at, whether its games are on the web pages) are here too.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import i18n, registry
from bot.clocks import DEFAULT_CLOCK
from bot.errors import UserError
from bot.names import clean_name
from bot.service import DEFAULT_LEVEL
from bot.session import Session
from bot.translator import cmd
from cogs import options as game_options
from cogs.buttons import DYNAMIC_ITEMS, cancel_vote_view, lobby_view, vote_text
from cogs.choices import game_choices
from cogs.game_group import GameSubcommands, per_user
from cogs.lobby_text import level_name, lobby_lines, seat_lines, start_lines
from cogs.replies import announce
from cogs.threads import open_thread
from cogs.turn_post import publish
from cogs.web_links import web_setting_line
from games.levels import LEVELS

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)

# Commands that post publicly, per user and minute: enough for any honest use
# (the caps bound the open tables; a repeated cancel request is answered
# privately anyway), too few to flood a channel.
NEW_PER_MINUTE = 3
CANCEL_PER_MINUTE = 3

CLOCK_CHOICES = [
    app_commands.Choice(name=cmd("fast: 1 hour a turn", "clock.choice.fast"), value="fast"),
    app_commands.Choice(name=cmd("normal: 24 hours a turn", "clock.choice.normal"), value="normal"),
    app_commands.Choice(name=cmd("slow: 72 hours a turn", "clock.choice.slow"), value="slow"),
    app_commands.Choice(name=cmd("none: no clock", "clock.choice.none"), value="none"),
]

# The bots' levels (games/levels.py), for /game new and the takeover setting.
LEVEL_CHOICES = [
    app_commands.Choice(
        name=cmd(i18n.t("en", f"level.choice.{level}"), f"level.choice.{level}"), value=level
    )
    for level in LEVELS
]

LANGUAGE_CHOICES = [
    app_commands.Choice(name=cmd("English", "language.en"), value="en"),
    app_commands.Choice(name=cmd("French", "language.fr"), value="fr"),
]


class Lobby(GameSubcommands):
    def __init__(self, bot: Caravanserai) -> None:
        super().__init__(bot)
        self._opening: set[tuple[int | None, int]] = set()  # (server, user) running /game new

    async def cog_load(self) -> None:
        await super().cog_load()
        # Buttons of posts made before a restart are routed by their custom_id.
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)

    @app_commands.command(
        name=cmd("new", "cmd.game.new.name"),
        description=cmd("Open a lobby for a game in this channel", "cmd.game.new.description"),
    )
    @app_commands.rename(
        game=cmd("game", "cmd.game.new.game.name"),
        bots=cmd("bots", "cmd.game.new.bots.name"),
        options=cmd("options", "cmd.game.new.options.name"),
        language=cmd("language", "cmd.game.new.language.name"),
        clock=cmd("clock", "cmd.game.new.clock.name"),
        level=cmd("level", "cmd.game.new.level.name"),
    )
    @app_commands.describe(
        game=cmd("Which game", "cmd.game.new.game.description"),
        bots=cmd("Bot players to add (0-4)", "cmd.game.new.bots.description"),
        options=cmd(
            "Game options, e.g. variant:short (suggested as you type)",
            "cmd.game.new.options.description",
        ),
        language=cmd(
            "Language of the game's posts and board (default: yours)",
            "cmd.game.new.language.description",
        ),
        clock=cmd(
            "Time each player has for a turn (default: normal, 24 hours)",
            "cmd.game.new.clock.description",
        ),
        level=cmd("How well the bots play (default: normal)", "cmd.game.new.level.description"),
    )
    @app_commands.choices(
        game=game_choices(), language=LANGUAGE_CHOICES, clock=CLOCK_CHOICES, level=LEVEL_CHOICES
    )
    @app_commands.checks.cooldown(NEW_PER_MINUTE, 60.0, key=per_user)
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        bots: app_commands.Range[int, 0, 4] = 0,
        options: str = "",
        language: app_commands.Choice[str] | None = None,
        clock: app_commands.Choice[str] | None = None,
        level: app_commands.Choice[str] | None = None,
    ) -> None:
        table = NewTable(
            kind=game.value,
            bots=bots,
            options=game_options.parse(options),
            lang=language.value if language else i18n.language(interaction.locale),
            clock=clock.value if clock else DEFAULT_CLOCK,
            level=level.value if level else DEFAULT_LEVEL,
        )
        # One /game new of a user at a time: the caps are checked before the
        # post and the thread, so a second call racing the first is refused.
        opening = per_user(interaction)
        if opening in self._opening:
            raise UserError("lobby.opening")
        self._opening.add(opening)
        try:
            await self._open_table(interaction, table)
        finally:
            self._opening.discard(opening)

    async def _open_table(self, interaction: discord.Interaction, table: NewTable) -> None:
        """Refusals first (privately, nothing posted); then the lobby, in a new
        thread when the server and the bot's rights allow, else right here."""
        guild_id, channel_id = interaction.guild_id, interaction.channel_id
        assert guild_id is not None and channel_id is not None
        options = await self.service.check_create(
            table.kind,
            guild_id,
            interaction.user.id,
            table.bots,
            table.options,
            table.clock,
            table.level,
        )
        table = replace(table, options=options)  # the defaults filled in
        if await self._opens_thread(interaction):
            await self._open_in_thread(interaction, table)
            return
        # Here: already in a thread, or threads are off, or the bot may not open one.
        session = await self._create(interaction, table, channel_id)
        await interaction.response.send_message(
            "\n".join(lobby_lines(session, table.lang)),
            view=lobby_view(session),
            allowed_mentions=discord.AllowedMentions.none(),
        )

    async def _open_in_thread(self, interaction: discord.Interaction, table: NewTable) -> None:
        """A line in the channel, a thread from it, the lobby in the thread. If the
        lobby cannot be created then, the line and the thread are taken down."""
        assert interaction.channel_id is not None
        lang, user = table.lang, interaction.user
        name = i18n.t(lang, f"{table.kind}.title")
        await interaction.response.send_message(
            i18n.t(lang, "thread.opening", user=user.mention, game=name),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        starter = await interaction.original_response()
        thread = await open_thread(starter, f"{name} · {clean_name(user.display_name)}")
        try:
            # No thread after all (refused by Discord): play in the channel.
            where = interaction.channel_id if thread is None else thread.id
            session = await self._create(interaction, table, where)
        except Exception:
            await withdraw(interaction, thread)  # then the refusal goes out privately
            raise
        lobby = "\n".join(lobby_lines(session, lang))
        if thread is None:
            await starter.edit(content=lobby, view=lobby_view(session))
            return
        await thread.send(
            lobby, view=lobby_view(session), allowed_mentions=discord.AllowedMentions.none()
        )
        opened = i18n.t(lang, "thread.opened", user=user.mention, game=name, thread=thread.mention)
        await starter.edit(content=opened)

    async def _create(
        self, interaction: discord.Interaction, table: NewTable, channel_id: int
    ) -> Session:
        assert interaction.guild_id is not None
        return await self.service.create(
            kind=table.kind,
            guild_id=interaction.guild_id,
            channel_id=channel_id,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            bots=table.bots,
            options=table.options,
            lang=table.lang,
            clock=table.clock,
            level=table.level,
        )

    async def _opens_thread(self, interaction: discord.Interaction) -> bool:
        """Whether /game new opens a thread: in a text channel (in a thread, the
        game takes that thread), if the server wants it and the bot may."""
        if not isinstance(interaction.channel, discord.TextChannel):
            return False
        rights = interaction.app_permissions
        if not (rights.create_public_threads and rights.read_message_history):
            return False
        assert interaction.guild_id is not None
        return await self.service.threads_enabled(interaction.guild_id)

    @new.autocomplete("options")
    async def options_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        key = getattr(interaction.namespace, "game", None)
        spec = registry.specs().get(str(key)) if key else None
        if spec is None:
            return []
        return [
            app_commands.Choice(name=label, value=value)
            for label, value in game_options.suggest(spec, current, interaction.locale)
        ]

    @app_commands.command(
        name=cmd("join", "cmd.game.join.name"),
        description=cmd("Join the lobby in this channel", "cmd.game.join.description"),
    )
    async def join(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        user = interaction.user
        session = await self.service.join(interaction.channel_id, user.id, user.display_name)
        lang = session.lang
        line = i18n.t(
            lang,
            "lobby.joined",
            user=user.mention,
            count=len(session.record.seats),
            max=session.engine.max_players,
        )
        await announce(interaction, [line, *seat_lines(session, lang)], lobby_view(session))

    @app_commands.command(
        name=cmd("leave", "cmd.game.leave.name"),
        description=cmd("Leave the lobby in this channel", "cmd.game.leave.description"),
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session, cancelled = await self.service.leave(interaction.channel_id, interaction.user.id)
        key = "lobby.left_cancelled" if cancelled else "lobby.left"
        await announce(interaction, [i18n.t(session.lang, key, user=interaction.user.mention)])

    @app_commands.command(
        name=cmd("remove", "cmd.game.remove.name"),
        description=cmd(
            "Take a bot seat out of the lobby (creator)", "cmd.game.remove.description"
        ),
    )
    @app_commands.rename(seat=cmd("seat", "cmd.game.remove.seat.name"))
    @app_commands.describe(seat=cmd("The bot to remove", "cmd.game.remove.seat.description"))
    async def remove(self, interaction: discord.Interaction, seat: str) -> None:
        assert interaction.channel_id is not None
        lobby = await self.service.require_session(interaction.channel_id)
        number = seat_number(lobby, seat)
        removed = lobby.shown(number)
        session = await self.service.remove_bot(interaction.channel_id, interaction.user.id, number)
        line = i18n.t(session.lang, "lobby.removed", name=removed)
        await announce(interaction, [line, *seat_lines(session, session.lang)], lobby_view(session))

    @remove.autocomplete("seat")
    async def remove_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._seat_choices(interaction, current, bots_only=True)

    @app_commands.command(
        name=cmd("start", "cmd.game.start.name"),
        description=cmd("Start the game (lobby creator)", "cmd.game.start.description"),
    )
    @app_commands.rename(first=cmd("first", "cmd.game.start.first.name"))
    @app_commands.describe(
        first=cmd("Who plays first (default: drawn at random)", "cmd.game.start.first.description")
    )
    async def start(self, interaction: discord.Interaction, first: str = "") -> None:
        assert interaction.channel_id is not None
        lobby = await self.service.require_session(interaction.channel_id)
        chosen = seat_number(lobby, first) if first.strip() else None
        saved = await self.service.start(interaction.channel_id, interaction.user.id, chosen)
        await publish(interaction, self.service, saved, start_lines(saved.after))

    @start.autocomplete("first")
    async def first_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        return await self._seat_choices(interaction, current, bots_only=False)

    async def _seat_choices(
        self, interaction: discord.Interaction, current: str, *, bots_only: bool
    ) -> list[app_commands.Choice[str]]:
        if interaction.channel_id is None:
            return []
        session = await self.service.session_in(interaction.channel_id)
        if session is None or session.record.status != "lobby":
            return []
        needle = current.strip().lower()
        return [
            app_commands.Choice(name=f"{s.seat + 1}. {s.name}"[:100], value=str(s.seat + 1))
            for s in session.record.seats
            if needle in f"{s.seat + 1}. {s.name}".lower() and (s.is_bot or not bots_only)
        ][:25]

    @app_commands.command(
        name=cmd("cancel", "cmd.game.cancel.name"),
        description=cmd(
            "Cancel the game in this channel (creator or admin)", "cmd.game.cancel.description"
        ),
    )
    @app_commands.rename(game=cmd("game", "cmd.game.cancel.game.name"))
    @app_commands.describe(
        game=cmd(
            "Moderators: the number of any game of this server", "cmd.game.cancel.game.description"
        )
    )
    @app_commands.checks.cooldown(CANCEL_PER_MINUTE, 60.0, key=per_user)
    async def cancel(self, interaction: discord.Interaction, game: int | None = None) -> None:
        """A lobby: its creator; a running game: Manage Server, or all its players by vote.
        Moderators may name any game of the server by its number."""
        assert interaction.channel_id is not None and interaction.guild_id is not None
        is_admin = bool(interaction.permissions.manage_guild)
        if game is not None:
            cancelled = await self.service.cancel_by_id(interaction.guild_id, game, is_admin)
            line = i18n.t(
                interaction.locale, "game.cancelled", id=game, user=interaction.user.mention
            )
            await interaction.response.send_message(line, ephemeral=True)
            channel = self.bot.get_partial_messageable(cancelled.record.channel_id)
            await channel.send(
                i18n.t(cancelled.lang, "game.cancelled", id=game, user=interaction.user.mention),
                allowed_mentions=discord.AllowedMentions.none(),
            )
            return
        try:
            session = await self.service.cancel(
                interaction.channel_id, interaction.user.id, is_admin
            )
        except UserError as refusal:
            if refusal.key != "game.cancel_needs_vote":
                raise
            vote = await self.service.propose_cancel(
                interaction.channel_id, interaction.user.id, datetime.now(UTC)
            )
            view = None if vote.cancelled else cancel_vote_view(vote.session)
            await announce(interaction, [vote_text(vote, interaction.user.mention)], view)
            return
        user = interaction.user.mention
        await announce(
            interaction, [i18n.t(session.lang, "game.cancelled", id=session.id, user=user)]
        )

    @app_commands.command(
        name=cmd("settings", "cmd.game.settings.name"),
        description=cmd(
            "Server settings for games (Manage Server)", "cmd.game.settings.description"
        ),
    )
    @app_commands.rename(
        threads=cmd("threads", "cmd.game.settings.threads.name"),
        vacation_days=cmd("vacation_days", "cmd.game.settings.vacation_days.name"),
        takeover_level=cmd("takeover_level", "cmd.game.settings.takeover_level.name"),
        web=cmd("web", "cmd.game.settings.web.name"),
    )
    @app_commands.describe(
        threads=cmd(
            "Play each game in its own thread (default: yes)",
            "cmd.game.settings.threads.description",
        ),
        vacation_days=cmd(
            "Vacation days a player may take each month (default 14; 0 = none)",
            "cmd.game.settings.vacation_days.description",
        ),
        takeover_level=cmd(
            "How well the AI plays a seat it takes over (default: normal)",
            "cmd.game.settings.takeover_level.description",
        ),
        web=cmd(
            "Show this server's standings and games on the bot's web pages (default: yes)",
            "cmd.game.settings.web.description",
        ),
    )
    @app_commands.choices(takeover_level=LEVEL_CHOICES)
    @app_commands.default_permissions(manage_guild=True)
    async def settings(
        self,
        interaction: discord.Interaction,
        threads: bool | None = None,
        vacation_days: app_commands.Range[int, 0, 31] | None = None,
        takeover_level: app_commands.Choice[str] | None = None,
        web: bool | None = None,
    ) -> None:
        assert interaction.guild_id is not None
        if not interaction.permissions.manage_guild:
            raise UserError("settings.forbidden")
        guild, locale = interaction.guild_id, interaction.locale
        if threads is not None:
            await self.service.set_threads(guild, threads)
        if vacation_days is not None:
            await self.service.absence.set_vacation_days(guild, vacation_days)
        if takeover_level is not None:
            await self.service.set_takeover_level(guild, takeover_level.value)
        if web is not None:
            await self.service.set_web(guild, web)
        threads_on = await self.service.threads_enabled(guild)
        takeover = await self.service.takeover_level(guild)
        lines = [
            i18n.t(locale, "settings.threads_on" if threads_on else "settings.threads_off"),
            i18n.t(
                locale,
                "settings.vacation_days",
                count=await self.service.absence.vacation_days(guild),
            ),
            i18n.t(locale, "settings.takeover_level", level=level_name(locale, takeover)),
            web_setting_line(
                locale,
                enabled=await self.service.web_enabled(guild),
                served=self.bot.config.web_port is not None,
            ),
        ]
        await interaction.response.send_message("\n".join(lines), ephemeral=True)


@dataclass(frozen=True)
class NewTable:
    """What /game new asks for (the options parsed, the defaults filled in)."""

    kind: str
    bots: int
    options: dict[str, str]
    lang: str
    clock: str
    level: str = DEFAULT_LEVEL


async def withdraw(interaction: discord.Interaction, thread: discord.Thread | None) -> None:
    """The lobby could not be created once its post (and thread) were up: take
    them down, so no dead "opening a table…" line or empty thread stays."""
    if thread is not None:
        await close_thread(thread, interaction.app_permissions)
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.warning("Could not delete the opening post in channel %s", interaction.channel_id)


async def close_thread(thread: discord.Thread, rights: discord.Permissions) -> None:
    """Delete an empty game thread; without Manage Threads (which the bot is not
    invited with) archive it, as its creator may: it leaves the channel's list."""
    if rights.manage_threads:
        try:
            await thread.delete()
            return
        except discord.HTTPException:
            log.warning("Could not delete the empty thread %s; archiving it", thread.id)
    try:
        await thread.edit(archived=True)
    except discord.HTTPException:
        log.warning("Could not archive the empty thread %s", thread.id)


def seat_number(session: Session, typed: str) -> int:
    """The lobby seat a player named (its number, "2. Name" or the name)."""
    typed = typed.strip()
    seats = session.record.seats
    if typed.isdigit() and 1 <= int(typed) <= len(seats):
        return int(typed) - 1
    for seat in seats:
        if seat.name.lower() == typed.lower() or f"{seat.seat + 1}. {seat.name}" == typed:
            return seat.seat
    raise UserError("lobby.no_such_seat", seat=typed[:40], count=len(seats))


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Lobby(bot))
