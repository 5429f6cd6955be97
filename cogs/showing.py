"""/game status, board, hand, history, replay: what a game shows.

The channel's latest game, whatever its status, until a new one starts
there (a replay may name another). Only the one who asks sees the answer,
but for a replay.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import i18n
from bot.clocks import clock_name
from bot.errors import UserError
from bot.session import Session
from bot.translator import cmd
from cogs import options as game_options
from cogs.boards import board_file, hand_file
from cogs.game_group import GameSubcommands, per_user
from cogs.history import history_reply, replay_reply
from cogs.lobby_text import bots_line, seat_lines
from cogs.replies import describe, game_message, title
from cogs.web_links import game_page_link

if TYPE_CHECKING:
    from bot.app import Caravanserai

RENDERS_PER_MINUTE = 6  # /game board and /game hand draw images: a user gets a few a minute


class Showing(GameSubcommands):
    @app_commands.command(
        name=cmd("status", "cmd.game.status.name"),
        description=cmd("Players, turn and state of the game here", "cmd.game.status.description"),
    )
    async def status(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        locale = interaction.locale
        session = await self.service.latest_in(interaction.channel_id)
        head = self._status_head(session, locale)
        if session.record.status == "finished":
            head += await self._why_it_ended(session, locale)
        link = await game_page_link(self.bot, session, locale)
        message = await game_message(session, head, locale, boards=None, buttons=link)
        await interaction.response.send_message(
            view=message.layout(), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )

    def _status_head(self, session: Session, locale: object) -> list[str]:
        if session.broken:
            return [
                i18n.t(locale, "game.broken_status", game=title(session, locale), id=session.id),
                *seat_lines(session, locale),
            ]
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
        lines.append(clock_status(session, locale))
        bots = bots_line(session, locale)
        if bots is not None:
            lines.append(bots)
        if session.record.status in ("lobby", "active"):
            lines += seat_lines(session, locale)
        return lines

    async def _why_it_ended(self, session: Session, locale: object) -> list[str]:
        """The game's own last words (e.g. a supply ran out), or the resignations."""
        if session.outcome is None:
            return []
        turns = await self.service.history(session)
        last = turns[-1].public_events() if turns else ()
        people = session.people()
        return [f"🏁 {describe(e, locale, names=people)}" for e in last if e.seat is None]

    @app_commands.command(
        name=cmd("board", "cmd.game.board.name"),
        description=cmd(
            "Show the board as you may see it (only to you)", "cmd.game.board.description"
        ),
    )
    @app_commands.checks.cooldown(RENDERS_PER_MINUTE, 60.0, key=per_user)
    async def board(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.service.latest_in(interaction.channel_id)
        if session.state is None:
            raise_not_started()
        await interaction.response.defer(ephemeral=True, thinking=True)
        # A player who resigned or was removed sees what a spectator sees.
        seat = session.private_seat(interaction.user.id)
        file = await board_file(self.bot.boards, session, seat, interaction.locale)
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

    @app_commands.command(
        name=cmd("hand", "cmd.game.hand.name"),
        description=cmd("Your private information (only to you)", "cmd.game.hand.description"),
    )
    @app_commands.checks.cooldown(RENDERS_PER_MINUTE, 60.0, key=per_user)
    async def hand(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.service.latest_in(interaction.channel_id)
        if session.state is None:
            raise_not_started()
        seat = session.hand_seat(interaction.user.id)
        locale = interaction.locale
        people = session.people()
        lines = [describe(line, locale, names=people) for line in session.hand(seat)]
        text = "\n".join(lines) or i18n.t(locale, "game.hand_empty")
        await interaction.response.defer(ephemeral=True, thinking=True)
        file = await hand_file(self.bot.boards, session, seat, locale)
        if file is None:
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.followup.send(text, file=file, ephemeral=True)

    @app_commands.command(
        name=cmd("history", "cmd.game.history.name"),
        description=cmd("The moves of the game here (only to you)", "cmd.game.history.description"),
    )
    async def history(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        session = await self.service.latest_in(interaction.channel_id)
        await history_reply(interaction, self.service, session)

    @app_commands.command(
        name=cmd("replay", "cmd.game.replay.name"),
        description=cmd("An animated replay of a finished game", "cmd.game.replay.description"),
    )
    @app_commands.rename(game=cmd("game", "cmd.game.replay.game.name"))
    @app_commands.describe(
        game=cmd(
            "The game's number (default: the last game here)", "cmd.game.replay.game.description"
        )
    )
    @app_commands.checks.cooldown(2, 60.0, key=per_user)
    async def replay(self, interaction: discord.Interaction, game: int | None = None) -> None:
        await replay_reply(interaction, self.service, game)


def clock_status(session: Session, locale: object) -> str:
    """The game's clock, and when the current wait runs out."""
    record = session.record
    name = clock_name(record.clock_hours)
    label = i18n.t(locale, f"clock.name.{name}", hours=round(record.clock_hours))
    deadline = session.deadline
    if deadline is None:
        return i18n.t(locale, "clock.status", clock=label)
    due = f"<t:{int(deadline.timestamp())}:R>"
    key = "clock.status_out" if deadline <= datetime.now(UTC) else "clock.status_due"
    return i18n.t(locale, key, clock=label, due=due)


def raise_not_started() -> None:
    raise UserError("game.not_started")


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Showing(bot))
