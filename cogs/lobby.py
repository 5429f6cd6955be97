"""/game …: lobbies, starting, status, private info, resigning, cancelling."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import i18n, registry
from bot.errors import UserError
from bot.service import GameService, Session
from bot.translator import cmd
from cogs import options as game_options
from cogs.boards import board_file, hand_file
from cogs.flow import deliver_private, publish
from cogs.replies import describe, game_message, post_to_channel, title, turn_lines

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)


def game_choices() -> list[app_commands.Choice[str]]:
    """One choice per registered game, titled in each reader's language."""
    return [
        app_commands.Choice(name=cmd(i18n.t("en", f"{key}.title"), f"{key}.title"), value=key)
        for key in registry.specs()
    ]


def seat_lines(session: Session, locale: object) -> list[str]:
    lines = []
    for seat in session.record.seats:
        tags = []
        if seat.user_id == session.record.creator_id:
            tags.append(i18n.t(locale, "lobby.tag.creator"))
        if seat.resigned:
            tags.append(i18n.t(locale, "lobby.tag.resigned"))
        suffix = f" ({', '.join(tags)})" if tags else ""
        lines.append(f"{seat.seat + 1}. {seat.name}{suffix}")
    return lines


class Lobby(commands.Cog):
    game = app_commands.Group(
        name=cmd("game", "cmd.game.name"),
        description=cmd("Create, join and manage board games", "cmd.game.description"),
        guild_only=True,
    )

    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def cog_load(self) -> None:
        if self.bot.config.reminder_hours > 0:
            self.remind_waiting_players.start()

    async def cog_unload(self) -> None:
        self.remind_waiting_players.cancel()

    # ------------------------------------------------------------------ lobby

    @game.command(
        name=cmd("new", "cmd.game.new.name"),
        description=cmd("Open a lobby for a game in this channel", "cmd.game.new.description"),
    )
    @app_commands.rename(
        game=cmd("game", "cmd.game.new.game.name"),
        bots=cmd("bots", "cmd.game.new.bots.name"),
        options=cmd("options", "cmd.game.new.options.name"),
    )
    @app_commands.describe(
        game=cmd("Which game", "cmd.game.new.game.description"),
        bots=cmd("Bot players to add (0-4)", "cmd.game.new.bots.description"),
        options=cmd(
            "Game options, e.g. variant:short (suggested as you type)",
            "cmd.game.new.options.description",
        ),
    )
    @app_commands.choices(game=game_choices())
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        bots: app_commands.Range[int, 0, 4] = 0,
        options: str = "",
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        session = await self.service.create(
            kind_key=game.value,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            bots=bots,
            options=game_options.parse(options),
        )
        locale = interaction.locale
        engine = session.engine
        lines = [
            i18n.t(
                locale,
                "lobby.opened",
                user=interaction.user.mention,
                game=title(session, locale),
                id=session.id,
                min=engine.min_players,
                max=engine.max_players,
            )
        ]
        chosen = game_options.describe(session.spec, session.record.options, locale)
        if chosen:
            lines.append(i18n.t(locale, "options.line", options=chosen))
        await announce(
            interaction, [*lines, *seat_lines(session, locale), i18n.t(locale, "lobby.how_to_join")]
        )

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

    @game.command(
        name=cmd("join", "cmd.game.join.name"),
        description=cmd("Join the lobby in this channel", "cmd.game.join.description"),
    )
    async def join(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.service.join(
            interaction.channel_id, interaction.user.id, interaction.user.display_name
        )
        locale = interaction.locale
        await announce(
            interaction,
            [
                i18n.t(
                    locale,
                    "lobby.joined",
                    user=interaction.user.mention,
                    count=len(session.record.seats),
                    max=session.engine.max_players,
                ),
                *seat_lines(session, locale),
            ],
        )

    @game.command(
        name=cmd("leave", "cmd.game.leave.name"),
        description=cmd("Leave the lobby in this channel", "cmd.game.leave.description"),
    )
    async def leave(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        _, cancelled = await self.service.leave(interaction.channel_id, interaction.user.id)
        key = "lobby.left_cancelled" if cancelled else "lobby.left"
        await announce(
            interaction, [i18n.t(interaction.locale, key, user=interaction.user.mention)]
        )

    @game.command(
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
        report = await self.service.start(
            interaction.channel_id, interaction.user.id, first_seat(lobby, first)
        )
        locale = interaction.locale
        head = [
            i18n.t(locale, "lobby.started", game=title(report.after, locale), id=report.after.id),
            *seat_lines(report.after, locale),
        ]
        await publish(interaction, self.service, report, head)

    @start.autocomplete("first")
    async def first_autocomplete(
        self, interaction: discord.Interaction, current: str
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
            if needle in f"{s.seat + 1}. {s.name}".lower()
        ][:25]

    @game.command(
        name=cmd("cancel", "cmd.game.cancel.name"),
        description=cmd(
            "Cancel the game in this channel (creator or admin)", "cmd.game.cancel.description"
        ),
    )
    async def cancel(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        is_admin = bool(interaction.permissions.manage_guild)
        session = await self.service.cancel(interaction.channel_id, interaction.user.id, is_admin)
        user = interaction.user.mention
        await announce(
            interaction, [i18n.t(interaction.locale, "game.cancelled", id=session.id, user=user)]
        )

    # ------------------------------------------------------------------ in game

    @game.command(
        name=cmd("status", "cmd.game.status.name"),
        description=cmd("Players, turn and state of the game here", "cmd.game.status.description"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.service.require_session(interaction.channel_id)
        message = await game_message(
            session,
            self._status_head(session, interaction.locale),
            interaction.locale,
            with_board=False,
        )
        await interaction.response.send_message(
            message.content,
            embed=message.embed,
            ephemeral=True,
            allowed_mentions=discord.AllowedMentions.none(),
        )

    def _status_head(self, session: Session, locale: object) -> list[str]:
        status = i18n.t(locale, f"status.{session.record.status}")
        lines = [
            i18n.t(
                locale,
                "game.status_line",
                game=title(session, locale),
                id=session.id,
                status=status,
            )
        ]
        chosen = game_options.describe(session.spec, session.record.options, locale)
        if chosen:
            lines.append(i18n.t(locale, "options.line", options=chosen))
        return [*lines, *seat_lines(session, locale)]

    @game.command(
        name=cmd("board", "cmd.game.board.name"),
        description=cmd(
            "Show the board as you may see it (only to you)", "cmd.game.board.description"
        ),
    )
    async def board(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.service.require_session(interaction.channel_id)
        if session.state is None:
            raise_not_started()
        await interaction.response.defer(ephemeral=True, thinking=True)
        seat = session.seat_of(interaction.user.id)
        file = await board_file(session, seat, interaction.locale)
        embed = discord.Embed(
            title=i18n.t(
                interaction.locale,
                "game.title",
                title=title(session, interaction.locale),
                id=session.id,
            )
        )
        embed.set_image(url="attachment://board.png")
        await interaction.followup.send(embed=embed, file=file, ephemeral=True)

    @game.command(
        name=cmd("hand", "cmd.game.hand.name"),
        description=cmd("Your private information (only to you)", "cmd.game.hand.description"),
    )
    async def hand(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.service.require_session(interaction.channel_id)
        if session.state is None:
            raise_not_started()
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("game.not_a_player")
        locale = interaction.locale
        lines = [describe(line, locale) for line in session.hand(seat)]
        text = "\n".join(lines) or i18n.t(locale, "game.hand_empty")
        await interaction.response.defer(ephemeral=True, thinking=True)
        file = await hand_file(session, seat, locale)
        if file is None:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.followup.send(text, file=file, ephemeral=True)

    @game.command(
        name=cmd("resign", "cmd.game.resign.name"),
        description=cmd(
            "Resign: the AI plays your seat, you rank last", "cmd.game.resign.description"
        ),
    )
    async def resign(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        report = await self.service.resign(interaction.channel_id, interaction.user.id)
        head = [i18n.t(interaction.locale, "game.resigned", user=interaction.user.mention)]
        await publish(interaction, self.service, report, head)

    @game.command(
        name=cmd("list", "cmd.game.list.name"),
        description=cmd("Games of this server", "cmd.game.list.description"),
    )
    async def list_games(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        records = await self.bot.storage.list_games(interaction.guild_id, ("lobby", "active"))
        locale = interaction.locale
        if not records:
            text = i18n.t(locale, "list.empty")
        else:
            lines = [i18n.t(locale, "list.head")]
            for record in records:
                name = i18n.t(locale, f"{record.kind}.title")
                status = i18n.t(locale, f"status.{record.status}")
                players = ", ".join(seat.name for seat in record.seats)
                lines.append(
                    f"• <#{record.channel_id}> — {name} #{record.id} ({status}): {players}"
                )
            text = "\n".join(lines)[:2000]
        await interaction.response.send_message(text, ephemeral=True)

    # ------------------------------------------------------------------ restart

    async def resume_waiting_games(self) -> None:
        """AI seats whose turn came while the bot was down (or mid-chain) play now."""
        for guild in self.bot.guilds:
            for record in await self.bot.storage.list_games(guild.id, ("active",)):
                session = await self.service.get(record.id)
                if session is None or not any(session.ai_plays(s) for s in session.to_act):
                    continue
                try:
                    report = await self.service.advance(session)
                    if not report.turns:
                        continue
                    locale = guild.preferred_locale
                    lines = turn_lines(report.after, report.turns, locale)
                    message = await game_message(report.after, lines, locale)
                    channel = self.bot.get_partial_messageable(record.channel_id)
                    await post_to_channel(channel, message)
                    await deliver_private(self.bot, report.after, report.private_events())
                except Exception:
                    log.exception("Resuming AI seats of game %s failed", record.id)

    # ------------------------------------------------------------------ reminders

    @tasks.loop(minutes=10)
    async def remind_waiting_players(self) -> None:
        """Ping players a game has waited on for TURN_REMINDER_HOURS, via the channel."""
        now = datetime.now(UTC)
        after = timedelta(hours=self.bot.config.reminder_hours)
        for guild in self.bot.guilds:
            for session in await self.service.due_reminders(guild.id, now, after):
                try:
                    locale = guild.preferred_locale
                    head = [
                        i18n.t(locale, "game.reminder", game=title(session, locale), id=session.id)
                    ]
                    message = await game_message(session, head, locale, with_board=False)
                    channel = self.bot.get_partial_messageable(session.record.channel_id)
                    await post_to_channel(channel, message)
                    await self.service.mark_reminded(session, now)
                except Exception:
                    log.exception("Reminder for game %s failed", session.id)

    @remind_waiting_players.before_loop
    async def _wait_until_ready(self) -> None:
        await self.bot.wait_until_ready()


async def announce(interaction: discord.Interaction, lines: list[str]) -> None:
    """A public lobby message; it names people without pinging them."""
    await interaction.response.send_message(
        "\n".join(lines), allowed_mentions=discord.AllowedMentions.none()
    )


def raise_not_started() -> None:
    raise UserError("game.not_started")


def first_seat(session: Session, typed: str) -> int | None:
    """The lobby seat named by ``/game start first:`` (its number or name), or None."""
    typed = typed.strip()
    if not typed:
        return None
    seats = session.record.seats
    if typed.isdigit() and 1 <= int(typed) <= len(seats):
        return int(typed) - 1
    for seat in seats:
        if seat.name.lower() == typed.lower() or f"{seat.seat + 1}. {seat.name}" == typed:
            return seat.seat
    raise UserError("lobby.no_such_seat", seat=typed[:40], count=len(seats))


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Lobby(bot))
