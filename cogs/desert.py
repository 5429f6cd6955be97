"""/desert …: moves of Through the Desert."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.service import GameService, Session
from cogs.flow import publish
from games.core import complete
from games.desert.model import COLOURS, PlaceCamel, PlaceLeader, coord_name

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)

COLOUR_CHOICES = [app_commands.Choice(name=colour, value=colour) for colour in COLOURS]


class Desert(commands.Cog):
    desert = app_commands.Group(
        name="desert", description="Play Through the Desert", guild_only=True
    )

    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot

    @property
    def service(self) -> GameService:
        return self.bot.service

    async def _my_turn(self, interaction: discord.Interaction) -> tuple[Session, int] | None:
        """(session, seat) when the user plays the desert game here; else None.

        Autocomplete must never raise: anything unusual just offers nothing.
        """
        if interaction.channel_id is None:
            return None
        session = await self.service.session_in(interaction.channel_id)
        if session is None or session.kind.key != "desert" or session.state is None:
            return None
        seat = session.seat_of(interaction.user.id)
        if seat is None or session.ai_plays(seat):
            return None
        return session, seat

    async def _play(self, interaction: discord.Interaction, text: str) -> None:
        assert interaction.channel_id is not None
        session = await self.service.require_session(interaction.channel_id)
        if session.kind.key != "desert":
            raise UserError("game.wrong_command", command=f"/{session.kind.key} move")
        report = await self.service.play(interaction.channel_id, interaction.user.id, text)
        await publish(interaction, self.service, report)

    # ------------------------------------------------------------------ /desert move

    @desert.command(name="move", description="Make your move (autocompletes your legal moves)")
    @app_commands.describe(notation="e.g. orange F7 white G8, discard pink, pass")
    async def move(self, interaction: discord.Interaction, notation: str) -> None:
        await self._play(interaction, notation)

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self._my_turn(interaction)
        if found is None:
            return []
        session, seat = found
        suggestions = complete(session.engine, session.state, seat, current[:100])
        return [app_commands.Choice(name=s.label[:100], value=s.command[:100]) for s in suggestions]

    # ------------------------------------------------------------------ /desert place

    @desert.command(name="place", description="Place a rider or a camel of one colour")
    @app_commands.describe(colour="Camel colour", space="Space, e.g. F7 (autocompletes)")
    @app_commands.choices(colour=COLOUR_CHOICES)
    async def place(
        self, interaction: discord.Interaction, colour: app_commands.Choice[str], space: str
    ) -> None:
        await self._play(interaction, f"{colour.value} {space}")

    @place.autocomplete("space")
    async def space_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self._my_turn(interaction)
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
        return [app_commands.Choice(name=name, value=name) for name in spaces[:25]]


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(Desert(bot))
