"""/help: how to play here, and what counts on the leaderboard; /rules: a game's rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n, registry
from bot.errors import UserError
from bot.translator import cmd
from cogs.choices import game_choices
from cogs.history import HistoryPages
from cogs.pager import PageButton, PageContent, clamp, send_pages
from cogs.replies import EMBED_COLOUR
from games import catalogue, rules_pages

if TYPE_CHECKING:
    from bot.app import Caravanserai

SECTIONS = ("help.start", "help.play", "help.private", "help.counts", "help.fair", "help.more")


async def rules_page(
    interaction: discord.Interaction, args: tuple[str, ...], page: int
) -> PageContent:
    """Page ``page`` of a game's rules (``args``: the game's key and the language)."""
    key, lang = (args + ("", ""))[:2]
    spec = registry.specs().get(key)
    if spec is None:
        raise UserError("pager.gone")
    pages = rules_pages.pages(spec.package, lang)
    if not pages:
        raise UserError("rules.none", game=i18n.t(lang, f"{key}.title"))
    page = clamp(page, len(pages))
    return PageContent(text=pages[page - 1], page=page, pages=len(pages))


class RulesPages(PageButton, kind="rules"):
    """The buttons of /rules (``args``: the game's key and the language)."""

    @classmethod
    async def build(
        cls, interaction: discord.Interaction, args: tuple[str, ...], page: int
    ) -> PageContent:
        return await rules_page(interaction, args, page)


# The paged replies' buttons (/rules, /game history), routed by their custom_id
# even on messages sent before a restart.
PAGED_REPLIES = (RulesPages, HistoryPages)


class Help(commands.Cog):
    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*PAGED_REPLIES)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*PAGED_REPLIES)

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

    @app_commands.command(
        name=cmd("rules", "cmd.rules.name"),
        description=cmd("A game's rules, page by page (only to you)", "cmd.rules.description"),
    )
    @app_commands.rename(game=cmd("game", "cmd.rules.game.name"))
    @app_commands.describe(game=cmd("Which game", "cmd.rules.game.description"))
    @app_commands.choices(game=game_choices())
    async def rules(self, interaction: discord.Interaction, game: app_commands.Choice[str]) -> None:
        lang = i18n.language(interaction.locale)
        await send_pages(interaction, RulesPages, (game.value, lang))


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Help(bot))
