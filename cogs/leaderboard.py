"""/leaderboard [game]: this server's ranking from finished games."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.translator import cmd
from cogs.lobby import game_choices
from cogs.replies import EMBED_COLOUR
from games.core import Term

if TYPE_CHECKING:
    from bot.app import Caravanserai


class Leaderboard(commands.Cog):
    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot

    @app_commands.command(
        name=cmd("leaderboard", "cmd.leaderboard.name"),
        description=cmd("This server's ranking", "cmd.leaderboard.description"),
    )
    @app_commands.rename(game=cmd("game", "cmd.leaderboard.game.name"))
    @app_commands.describe(
        game=cmd("Only this game (default: all games)", "cmd.leaderboard.game.description")
    )
    @app_commands.choices(game=game_choices())
    @app_commands.guild_only()
    async def leaderboard(
        self, interaction: discord.Interaction, game: app_commands.Choice[str] | None = None
    ) -> None:
        assert interaction.guild_id is not None
        locale = interaction.locale
        kind = game.value if game else None
        rows = await self.bot.storage.leaderboard(interaction.guild_id, kind)
        scope = i18n.t(locale, f"{kind}.title" if kind else "leaderboard.all_games")
        embed = discord.Embed(
            title=i18n.t(locale, "leaderboard.title", scope=scope), colour=EMBED_COLOUR
        )
        if not rows:
            embed.description = i18n.t(locale, "leaderboard.empty")
        else:
            lines = []
            for rank, row in enumerate(rows, start=1):
                lines.append(
                    i18n.t(
                        locale,
                        "leaderboard.row",
                        rank=rank,
                        player=f"<@{row.user_id}>",
                        wins=Term("leaderboard.wins", {"count": row.wins}),
                        games=Term("leaderboard.games", {"count": row.games}),
                        rate=round(100 * row.win_rate),
                    )
                )
            embed.description = "\n".join(lines)[:4000]
        # Rankings name players without pinging them.
        await interaction.response.send_message(
            embed=embed, allowed_mentions=discord.AllowedMentions.none()
        )


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Leaderboard(bot))
