"""/game resign, undo, vacation, kick: a player's seat in a running game.

Giving the seat up to the AI (after a confirmation), taking its last move
back (the other players may have to agree), pausing its clocks for a
vacation, and a moderator handing a player's seat to the AI for good.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import i18n
from bot.errors import UserError
from bot.translator import cmd
from cogs.buttons import resign_view
from cogs.game_group import GameSubcommands, per_user
from cogs.replies import announce
from cogs.turn_post import post_ai_turns
from cogs.votes import answer_undo

if TYPE_CHECKING:
    from bot.app import Caravanserai

# /game undo posts publicly, per user and minute: enough for any honest use (a
# repeated request is answered privately anyway), too few to flood a channel.
UNDO_PER_MINUTE = 5


class Seats(GameSubcommands):
    @app_commands.command(
        name=cmd("resign", "cmd.game.resign.name"),
        description=cmd(
            "Resign: the AI plays your seat, you rank last", "cmd.game.resign.description"
        ),
    )
    async def resign(self, interaction: discord.Interaction) -> None:
        """Asks first: the confirmation button resigns (see cogs/buttons.py)."""
        assert interaction.channel_id is not None
        session = await self.service.require_session(interaction.channel_id)
        seat = session.seat_of(interaction.user.id)
        if session.record.status != "active":
            raise UserError("game.not_started")
        if seat is None:
            raise UserError("game.not_a_player")
        if session.ai_plays(seat):
            raise UserError("game.you_resigned")
        locale = interaction.locale
        await interaction.response.send_message(
            i18n.t(locale, "game.resign_confirm"),
            view=resign_view(session, interaction.user.id, locale),
            ephemeral=True,
        )

    @app_commands.command(
        name=cmd("undo", "cmd.game.undo.name"),
        description=cmd(
            "Take back your last move (the others may have to agree)",
            "cmd.game.undo.description",
        ),
    )
    @app_commands.checks.cooldown(UNDO_PER_MINUTE, 60.0, key=per_user)
    async def undo(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        outcome = await self.service.undo_requests.request(
            interaction.channel_id, interaction.user.id, datetime.now(UTC)
        )
        await answer_undo(interaction, self.service, outcome)

    @app_commands.command(
        name=cmd("vacation", "cmd.game.vacation.name"),
        description=cmd(
            "Pause your turn clocks in this server for some days (0: back now)",
            "cmd.game.vacation.description",
        ),
    )
    @app_commands.rename(days=cmd("days", "cmd.game.vacation.days.name"))
    @app_commands.describe(
        days=cmd("How many days (0 ends your vacation)", "cmd.game.vacation.days.description")
    )
    async def vacation(
        self, interaction: discord.Interaction, days: app_commands.Range[int, 0, 31]
    ) -> None:
        assert interaction.guild_id is not None
        locale, guild, user = interaction.locale, interaction.guild_id, interaction.user.id
        if days == 0:
            await self.service.absence.end_vacation(guild, user)
            text = i18n.t(locale, "vacation.ended")
        else:
            ends, left = await self.service.absence.start_vacation(guild, user, days)
            text = i18n.t(
                locale, "vacation.started", until=f"<t:{int(ends.timestamp())}:f>", count=left
            )
        await interaction.response.send_message(text, ephemeral=True)

    @app_commands.command(
        name=cmd("kick", "cmd.game.kick.name"),
        description=cmd(
            "Moderators: the AI plays a player's seat to the end; they rank last",
            "cmd.game.kick.description",
        ),
    )
    @app_commands.rename(player=cmd("player", "cmd.game.kick.player.name"))
    @app_commands.describe(
        player=cmd("The player to remove from the game here", "cmd.game.kick.player.description")
    )
    @app_commands.default_permissions(manage_guild=True)
    async def kick(self, interaction: discord.Interaction, player: discord.User) -> None:
        assert interaction.channel_id is not None
        session, seat = await self.service.absence.remove_player(
            interaction.channel_id, player.id, bool(interaction.permissions.manage_guild)
        )
        line = i18n.t(session.lang, "game.kicked", player=session.shown(seat))
        await announce(interaction, [line])
        await post_ai_turns(interaction.client, self.service, session)


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Seats(bot))
