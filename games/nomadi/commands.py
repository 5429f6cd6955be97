"""/nomadi …: Nomadi on the shared move cog, plus /nomadi die and /nomadi bribe.

``/nomadi move`` takes every decision (cards, pawns, dice, reroll or pay,
prices, buy or refuse, bribes); ``/nomadi die`` picks a die, a pawn and a
landing square from lists, and ``/nomadi bribe`` carries a free message.
The turn post gets buttons for the two-way answers (:func:`quick_moves`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.session import Session
from bot.translator import cmd
from cogs.play import GameCog
from cogs.suggest import CHOICE_LIMIT
from games.nomadi.model import DieMove, name, parse_square
from games.nomadi.notation import MESSAGE_MAX

if TYPE_CHECKING:
    from bot.app import Caravanserai

QUICK_DECISIONS = frozenset({"nomadi.decision.buy", "nomadi.decision.reroll"})


def quick_moves(session: Session) -> Sequence[Any]:
    """Buttons for the two-way answers: buy or refuse (the owner, pinged
    with the price), reroll or pay (no die of the first roll usable)."""
    for decision in session.decisions:
        if decision.key in QUICK_DECISIONS and not session.ai_plays(decision.seat):
            moves: list[Any] = session.engine.legal_moves(session.state, decision.seat)
            return moves
    return ()


class NomadiCog(
    GameCog,
    group_name=cmd("nomadi", "nomadi.cmd.name"),
    group_description=cmd("Play Nomadi", "nomadi.cmd.description"),
):
    kind = "nomadi"

    @app_commands.command(
        name=cmd("die", "nomadi.cmd.die.name"),
        description=cmd("Move a pawn with one of your dice", "nomadi.cmd.die.description"),
    )
    @app_commands.rename(
        die=cmd("die", "nomadi.cmd.die.die.name"),
        pawn=cmd("pawn", "nomadi.cmd.die.pawn.name"),
        to=cmd("to", "nomadi.cmd.die.to.name"),
    )
    @app_commands.describe(
        die=cmd("The die's value", "nomadi.cmd.die.die.description"),
        pawn=cmd("Square of the pawn to move, e.g. M16", "nomadi.cmd.die.pawn.description"),
        to=cmd("Where it lands, e.g. L15 (autocompletes)", "nomadi.cmd.die.to.description"),
    )
    async def die(
        self,
        interaction: discord.Interaction,
        die: app_commands.Range[int, 1, 6],
        pawn: str,
        to: str,
    ) -> None:
        await self.play(interaction, f"{die} {pawn.strip()}-{to.strip()}")

    @die.autocomplete("pawn")
    async def pawn_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        squares = [move.frm for move in await self._die_moves(interaction)]
        return _square_choices(squares, current)

    @die.autocomplete("to")
    async def to_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        pawn = parse_square(str(getattr(interaction.namespace, "pawn", "") or ""))
        moves = await self._die_moves(interaction)
        return _square_choices([m.to for m in moves if pawn is None or m.frm == pawn], current)

    async def _die_moves(self, interaction: discord.Interaction) -> list[DieMove]:
        """The user's legal die moves now, for the die chosen (if any)."""
        found = await self.my_turn(interaction)
        if found is None:
            return []
        session, seat = found
        value = getattr(interaction.namespace, "die", None)
        return [
            move
            for move in session.engine.legal_moves(session.state, seat)
            if isinstance(move, DieMove) and (not isinstance(value, int) or move.die == value)
        ]

    @app_commands.command(
        name=cmd("bribe", "nomadi.cmd.bribe.name"),
        description=cmd(
            "Offer coins to the active player (option bribes)", "nomadi.cmd.bribe.description"
        ),
    )
    @app_commands.rename(
        amount=cmd("amount", "nomadi.cmd.bribe.amount.name"),
        message=cmd("message", "nomadi.cmd.bribe.message.name"),
    )
    @app_commands.describe(
        amount=cmd("Coins offered", "nomadi.cmd.bribe.amount.description"),
        message=cmd("What you ask for, shown to everyone", "nomadi.cmd.bribe.message.description"),
    )
    async def bribe(
        self,
        interaction: discord.Interaction,
        amount: app_commands.Range[int, 1, 9999],
        message: app_commands.Range[str, 0, MESSAGE_MAX] = "",
    ) -> None:
        await self.play(interaction, f"bribe {amount} {message}".rstrip())


def _square_choices(squares: Sequence[int], current: str) -> list[app_commands.Choice[str]]:
    """Distinct square names in board order that start with what was typed."""
    needle = current.strip().upper()
    names = [name(sq) for sq in sorted(set(squares))]
    shown = [n for n in names if n.startswith(needle)]
    return [app_commands.Choice(name=n, value=n) for n in shown[:CHOICE_LIMIT]]


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(NomadiCog(bot))
