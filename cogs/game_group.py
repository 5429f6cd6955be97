"""/game: one slash-command group that several cogs fill.

discord.py puts a cog's slash commands at the top of the command tree (or
under the cog's own group, for a ``GroupCog``), and a group can be added to
the tree only once. So the group is made here, once per bot, and each cog of
/game subcommands (a :class:`GameSubcommands`) moves its commands under it
as it loads. They are listed in the order the cogs load
(``bot.app.PLATFORM_EXTENSIONS``), each cog's in the order it defines them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.service import GameService
from bot.translator import cmd

if TYPE_CHECKING:
    from bot.app import Caravanserai

GROUP = "game"

Subcommand = app_commands.Command[Any, ..., Any] | app_commands.Group


def new_game_group() -> app_commands.Group:
    return app_commands.Group(
        name=cmd(GROUP, "cmd.game.name"),
        description=cmd("Create, join and manage board games", "cmd.game.description"),
        guild_only=True,
    )


def game_group(tree: app_commands.CommandTree[Any]) -> app_commands.Group:
    """The bot's /game group, added to its command tree by the first cog that asks."""
    found = tree.get_command(GROUP)
    if isinstance(found, app_commands.Group):
        return found
    group = new_game_group()
    tree.add_command(group)
    return group


def per_user(interaction: discord.Interaction) -> tuple[int | None, int]:
    """The cooldown key of /game's rate-limited subcommands: a user in a server."""
    return (interaction.guild_id, interaction.user.id)


class GameSubcommands(commands.Cog):
    """A cog whose slash commands (``@app_commands.command`` methods) are /game
    subcommands."""

    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot
        self._subcommands: list[Subcommand] = []

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def cog_load(self) -> None:
        group = game_group(self.bot.tree)
        self._subcommands = list(self.__cog_app_commands__)
        for command in self._subcommands:
            group.add_command(command)
        # discord.py adds the cog's commands still listed here to the top of the
        # tree once cog_load returns: these are under /game now.
        self.__cog_app_commands__ = []

    async def cog_unload(self) -> None:
        group = self.bot.tree.get_command(GROUP)
        if not isinstance(group, app_commands.Group):
            return
        for command in self._subcommands:
            group.remove_command(command.name)
        if not group.commands:
            self.bot.tree.remove_command(GROUP)
