"""/help: how to play here, and what counts on the leaderboard."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, registry
from bot.translator import cmd
from cogs.replies import EMBED_COLOUR
from games import catalogue

if TYPE_CHECKING:
    from bot.app import Caravanserai

SECTIONS = ("help.start", "help.play", "help.private", "help.counts", "help.fair")


class Help(commands.Cog):
    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot

    @app_commands.command(
        name=cmd("help", "cmd.help.name"),
        description=cmd("How to play, and what counts on the leaderboard", "cmd.help.description"),
    )
    async def help(self, interaction: discord.Interaction) -> None:
        locale = interaction.locale
        games = ", ".join(i18n.t(locale, f"{key}.title") for key in registry.specs())
        embed = discord.Embed(title=i18n.t(locale, "help.title"), colour=EMBED_COLOUR)
        embed.description = i18n.t(locale, "help.games", games=games)
        for key in SECTIONS:
            embed.add_field(
                name=i18n.t(locale, f"{key}.name"), value=i18n.t(locale, key), inline=False
            )
        for game in registry.specs():  # each game's own short guide, from its catalogue
            if catalogue.has(f"{game}.help"):
                embed.add_field(
                    name=i18n.t(locale, f"{game}.title"),
                    value=i18n.t(locale, f"{game}.help")[:1024],
                    inline=False,
                )
        await interaction.response.send_message(embed=embed, ephemeral=True)


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Help(bot))
