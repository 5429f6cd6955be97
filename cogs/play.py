"""The move cog every game shares: ``/<game> move notation:`` with autocomplete.

A game's Discord commands (``games/<g>/commands.py``, its spec's ``commands``)
are a discord.py extension holding one :class:`GameCog` subclass with its key
and command group; it only adds what is special to it (extra commands)::

    class DesertCog(GameCog, group_name=cmd("desert", "desert.cmd.name"),
                    group_description=cmd("Play …", "desert.cmd.description")):
        kind = "desert"

    async def setup(bot):
        await bot.add_cog(DesertCog(bot))

The module may also define ``quick_moves(session)``: the few short moves that
get a button of their own on the turn post (see :func:`cogs.turn_post.quick_moves`).
"""

from __future__ import annotations

import importlib
import logging
from collections.abc import Awaitable
from typing import TYPE_CHECKING, ClassVar, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import i18n
from bot.errors import UserError
from bot.service import GameService
from bot.session import Saved, Session
from bot.translator import cmd
from cogs.deadline import (
    BUSY_VALUE,
    COMPLETE_SECONDS,
    budget_left,
    busy_choice,
    saved_in_time,
    within,
)
from cogs.suggest import MoveIndexes, indexed_move_choices, move_choices, waiting_choice
from cogs.turn_post import answer
from games.contract import Seat

if TYPE_CHECKING:
    from bot.app import Caravanserai

log = logging.getLogger(__name__)
T = TypeVar("T")


@app_commands.guild_only()
class GameCog(commands.GroupCog):
    """``/<key> move`` for one game; subclasses set ``kind``."""

    kind: ClassVar[str]

    def __init__(self, bot: Caravanserai) -> None:
        self.bot = bot
        self.indexes = MoveIndexes()  # autocomplete's later keystrokes, answered here

    @property
    def service(self) -> GameService:
        return self.bot.service

    # ------------------------------------------------------------------ helpers for subclasses

    async def my_turn(self, interaction: discord.Interaction) -> tuple[Session, Seat] | None:
        """(session, seat) when the user must act in this game here; else None.

        Autocomplete must never raise: anything unusual just offers nothing.
        """
        if interaction.channel_id is None:
            return None
        session = await self.service.sessions.recent_in_channel(interaction.channel_id)
        if session is None or session.kind != self.kind or session.state is None:
            return None
        seat = session.seat_of(interaction.user.id)
        if seat is None or session.ai_plays(seat) or seat not in session.to_act:
            return None
        return session, seat

    async def play(self, interaction: discord.Interaction, text: str) -> None:
        """Validate and save the command, then publish the turn (the generic flow).
        Under load the player hears "thinking…" first (cogs/deadline.py)."""
        saved = await saved_in_time(interaction, self._save(interaction, text))
        await answer(interaction, self.service, saved)

    async def _save(self, interaction: discord.Interaction, text: str) -> Saved:
        assert interaction.channel_id is not None
        if text.strip() == BUSY_VALUE:  # the "busy" entry of an overloaded autocomplete
            raise UserError("move.busy_picked")
        user = interaction.user.id
        return await self.service.play(interaction.channel_id, user, text, kind=self.kind)

    # ------------------------------------------------------------------ /<game> move

    @app_commands.command(
        name=cmd("move", "cmd.move.name"),
        description=cmd("Make your move (autocompletes your legal moves)", "cmd.move.description"),
    )
    @app_commands.rename(notation=cmd("notation", "cmd.move.notation.name"))
    @app_commands.describe(
        notation=cmd(
            "Type or pick your move: the list shows your legal moves",
            "cmd.move.notation.description",
        )
    )
    async def move(self, interaction: discord.Interaction, notation: str) -> None:
        await self.play(interaction, notation)

    @move.autocomplete("notation")
    async def move_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self.my_turn(interaction)
        if found is None:
            session = await self.playing_here(interaction)
            if session is None:
                return []
            label, value = waiting_choice(session, interaction.locale)
            return [app_commands.Choice(name=label, value=value)]
        session, seat = found
        lang = i18n.language(interaction.locale)  # a plain string travels to a worker
        index = self.indexes.get(session, seat, lang)
        listed = index.choices(current) if index is not None else None
        if listed is None and index is None:
            # Listed off the loop, with the bot's whole-turn idea, and the index the
            # next keystrokes on this version of the game are answered from.
            cpu = self.bot.cpu.run(indexed_move_choices, session, seat, current, lang)
            made = await in_time(interaction, cpu)
            if made is not None:
                listed, index = made
                self.indexes.keep(session, seat, lang, index)
        elif listed is None:  # the text starts with a whole move: what may follow it
            following = self.bot.cpu.run(move_choices, session, seat, current, lang)
            listed = await in_time(interaction, following)
        if listed is None:  # answered late, the list would be lost: say so instead
            return [busy_choice(interaction.locale)]
        return [app_commands.Choice(name=label, value=value) for label, value in listed]

    async def playing_here(self, interaction: discord.Interaction) -> Session | None:
        """This game, running in the channel (for who-is-awaited answers)."""
        if interaction.channel_id is None:
            return None
        session = await self.service.sessions.recent_in_channel(interaction.channel_id)
        if session is None or session.kind != self.kind or session.record.status != "active":
            return None
        return session


async def in_time(interaction: discord.Interaction, work: Awaitable[T]) -> T | None:
    """``work``'s result if it comes within autocomplete's budget, else None (and
    it is cancelled)."""
    finished, result = await within(work, budget_left(interaction, COMPLETE_SECONDS))
    if not finished:
        result.cancel()
        return None
    return result.result()


def game_cog_class(commands: str, kind: str) -> type[GameCog]:
    """The GameCog subclass a game's commands module defines (tools and tests)."""
    module = importlib.import_module(commands)
    for value in vars(module).values():
        if isinstance(value, type) and issubclass(value, GameCog) and value is not GameCog:
            cog: type[GameCog] = value
            if cog.kind == kind:
                return cog
    raise LookupError(f"{commands} defines no GameCog for {kind!r}")
