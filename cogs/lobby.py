"""/game …: lobbies, starting, status, private info, resigning, cancelling."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands, tasks

from bot import i18n
from bot.errors import UserError
from bot.registry import KINDS
from bot.service import GameService, Session
from cogs.flow import publish
from cogs.presenters import PRESENTERS
from cogs.replies import game_message, post_to_channel, render_board, turn_lines

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=kind.title, value=kind.key) for kind in KINDS.values()]


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
        name="game", description="Create, join and manage board games", guild_only=True
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

    @game.command(name="new", description="Open a lobby for a game in this channel")
    @app_commands.describe(game="Which game", bots="Bot players to add (0-4)")
    @app_commands.choices(game=GAME_CHOICES)
    async def new(
        self,
        interaction: discord.Interaction,
        game: app_commands.Choice[str],
        bots: app_commands.Range[int, 0, 4] = 0,
    ) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        session = await self.service.create(
            kind_key=game.value,
            guild_id=interaction.guild_id,
            channel_id=interaction.channel_id,
            user_id=interaction.user.id,
            name=interaction.user.display_name,
            bots=bots,
        )
        locale = interaction.locale
        kind = session.kind
        await announce(
            interaction,
            [
                i18n.t(
                    locale,
                    "lobby.opened",
                    user=interaction.user.mention,
                    game=kind.title,
                    id=session.id,
                    min=kind.min_players,
                    max=kind.max_players,
                ),
                *seat_lines(session, locale),
                i18n.t(locale, "lobby.how_to_join"),
            ],
        )

    @game.command(name="join", description="Join the lobby in this channel")
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
                    max=session.kind.max_players,
                ),
                *seat_lines(session, locale),
            ],
        )

    @game.command(name="leave", description="Leave the lobby in this channel")
    async def leave(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        _, cancelled = await self.service.leave(interaction.channel_id, interaction.user.id)
        key = "lobby.left_cancelled" if cancelled else "lobby.left"
        await announce(
            interaction, [i18n.t(interaction.locale, key, user=interaction.user.mention)]
        )

    @game.command(name="start", description="Start the game (lobby creator)")
    async def start(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        report = await self.service.start(interaction.channel_id, interaction.user.id)
        locale = interaction.locale
        head = [
            i18n.t(locale, "lobby.started", game=report.after.kind.title, id=report.after.id),
            *seat_lines(report.after, locale),
        ]
        await publish(interaction, self.service, report, head)

    @game.command(name="cancel", description="Cancel the game in this channel (creator or admin)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        is_admin = bool(interaction.permissions.manage_guild)
        session = await self.service.cancel(interaction.channel_id, interaction.user.id, is_admin)
        user = interaction.user.mention
        await announce(
            interaction, [i18n.t(interaction.locale, "game.cancelled", id=session.id, user=user)]
        )

    # ------------------------------------------------------------------ in game

    @game.command(name="status", description="Players, turn and state of the game here")
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
        return [
            i18n.t(
                locale, "game.status_line", game=session.kind.title, id=session.id, status=status
            ),
            *seat_lines(session, locale),
        ]

    @game.command(name="board", description="Show the board as you may see it (only to you)")
    async def board(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.service.require_session(interaction.channel_id)
        if session.state is None:
            raise_not_started()
        await interaction.response.defer(ephemeral=True, thinking=True)
        seat = session.seat_of(interaction.user.id)
        file = await render_board(session, seat, interaction.locale)
        embed = discord.Embed(
            title=i18n.t(interaction.locale, "game.title", title=session.kind.title, id=session.id)
        )
        embed.set_image(url="attachment://board.png")
        await interaction.followup.send(embed=embed, file=file, ephemeral=True)

    @game.command(name="hand", description="Your private information (only to you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.service.require_session(interaction.channel_id)
        if session.state is None:
            raise_not_started()
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            raise UserError("game.not_a_player")
        text = PRESENTERS[session.kind.key].private_summary(session.view(seat), interaction.locale)
        await interaction.response.send_message(text, ephemeral=True)

    @game.command(name="resign", description="Resign: the AI plays your seat, you rank last")
    async def resign(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        report = await self.service.resign(interaction.channel_id, interaction.user.id)
        head = [i18n.t(interaction.locale, "game.resigned", user=interaction.user.mention)]
        await publish(interaction, self.service, report, head)

    @game.command(name="list", description="Games of this server")
    async def list_games(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        records = await self.bot.storage.list_games(interaction.guild_id, ("lobby", "active"))
        locale = interaction.locale
        if not records:
            text = i18n.t(locale, "list.empty")
        else:
            lines = [i18n.t(locale, "list.head")]
            for record in records:
                kind = KINDS[record.kind]
                status = i18n.t(locale, f"status.{record.status}")
                players = ", ".join(seat.name for seat in record.seats)
                lines.append(
                    f"• <#{record.channel_id}> — {kind.title} #{record.id} ({status}): {players}"
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
                    head = [i18n.t(locale, "game.reminder", game=session.kind.title, id=session.id)]
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


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Lobby(bot))
