"""/game list: the server's open games, in the channels the caller can see."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot import i18n
from bot.names import md
from bot.translator import cmd
from cogs.game_group import GameSubcommands
from cogs.visibility import Sight

if TYPE_CHECKING:
    from bot.app import Caravanserai


class GameList(GameSubcommands):
    @app_commands.command(
        name=cmd("list", "cmd.game.list.name"),
        description=cmd("Games of this server", "cmd.game.list.description"),
    )
    async def list_games(self, interaction: discord.Interaction) -> None:
        """The server's open games in channels the caller can see (moderators: all)."""
        assert interaction.guild_id is not None
        # Archived threads are looked up at Discord: that may take a few seconds.
        await interaction.response.defer(ephemeral=True, thinking=True)
        sight = Sight(interaction)
        records = [
            r
            for r in await self.bot.storage.list_games(interaction.guild_id, ("lobby", "active"))
            if await sight.sees(r.channel_id)
        ]
        locale = interaction.locale
        if not records:
            text = i18n.t(locale, "list.empty")
        else:
            lines = [i18n.t(locale, "list.head")]
            for record in records:
                name = i18n.t(locale, f"{record.kind}.title")
                status = i18n.t(locale, f"status.{record.status}")
                players = ", ".join(md(seat.name) for seat in record.seats)
                lines.append(
                    f"• <#{record.channel_id}> — {name} #{record.id} ({status}): {players}"
                )
            text = "\n".join(lines)[:2000]
        await interaction.followup.send(text, ephemeral=True)


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(GameList(bot))
