"""/desert …: Through the Desert on the shared move cog, plus /desert place."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.translator import cmd
from cogs.play import GameCog
from cogs.suggest import CHOICE_LIMIT
from games.desert.model import COLOURS, PlaceCamel, PlaceLeader, coord_name

if TYPE_CHECKING:
    from bot.app import Caravanserai

COLOUR_CHOICES = [
    app_commands.Choice(name=cmd(colour, f"desert.colour.{colour}"), value=colour)
    for colour in COLOURS
]


class DesertCog(
    GameCog,
    group_name=cmd("desert", "desert.cmd.name"),
    group_description=cmd("Play Through the Desert", "desert.cmd.description"),
):
    kind = "desert"

    @app_commands.command(
        name=cmd("place", "desert.cmd.place.name"),
        description=cmd("Place a rider or a camel of one colour", "desert.cmd.place.description"),
    )
    @app_commands.rename(
        colour=cmd("colour", "desert.cmd.place.colour.name"),
        space=cmd("space", "desert.cmd.place.space.name"),
    )
    @app_commands.describe(
        colour=cmd("Camel colour", "desert.cmd.place.colour.description"),
        space=cmd("Space, e.g. F7 (autocompletes)", "desert.cmd.place.space.description"),
    )
    @app_commands.choices(colour=COLOUR_CHOICES)
    async def place(
        self, interaction: discord.Interaction, colour: app_commands.Choice[str], space: str
    ) -> None:
        await self.play(interaction, f"{colour.value} {space}")

    @place.autocomplete("space")
    async def space_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self.my_turn(interaction)
        if found is None:
            return []
        session, seat = found
        colour = getattr(interaction.namespace, "colour", None)
        needle = current.strip().upper()
        spaces: list[str] = []
        for move in session.engine.legal_moves(session.state, seat):
            if not isinstance(move, PlaceCamel | PlaceLeader):
                continue
            if colour and move.colour != colour:
                continue
            name = coord_name(move.at)
            if name.startswith(needle) and name not in spaces:
                spaces.append(name)
        return [app_commands.Choice(name=name, value=name) for name in spaces[:CHOICE_LIMIT]]


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(DesertCog(bot))
