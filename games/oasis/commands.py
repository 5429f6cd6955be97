"""/oasis …: Oasis on the shared move cog, plus /oasis take and buttons.

``/oasis move`` takes every decision (reveal or stop, take, tiles, camels,
the Noble's bonus). The offer and the choice get buttons on the turn post;
``/oasis take`` picks an offer from a list that shows each offerer's name and
cards, and ``take <name>`` works in ``/oasis move`` too.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import i18n
from bot.session import Session
from bot.translator import cmd
from cogs.play import GameCog
from cogs.suggest import CHOICE_LIMIT, VALUE_LIMIT
from games.oasis.model import Take
from games.text import Term

if TYPE_CHECKING:
    from bot.app import Caravanserai

QUICK_DECISIONS = frozenset({"oasis.decision.offer", "oasis.decision.take"})
# "take Bob" / "prendre Bob": an offer named by its offerer (the engine reads seats).
TAKE_BY_NAME = re.compile(r"^\s*(take|prendre|prends)\s+(?![1-5]\b)(.+?)\s*$", re.IGNORECASE)


def quick_moves(session: Session) -> Sequence[Any]:
    """Buttons for the offer (reveal, stop) and the choice (one per offer)."""
    for decision in session.decisions:
        if decision.key in QUICK_DECISIONS and not session.ai_plays(decision.seat):
            moves: list[Any] = session.engine.legal_moves(session.state, decision.seat)
            return moves
    return ()


def seat_named(names: Sequence[str], text: str) -> int | None:
    """The seat whose player's name is ``text`` (or starts with it, if only one does)."""
    wanted = text.strip().lstrip("@").casefold()
    exact = [seat for seat, name in enumerate(names) if name.casefold() == wanted]
    if len(exact) == 1:
        return exact[0]
    starts = [seat for seat, name in enumerate(names) if name.casefold().startswith(wanted)]
    return starts[0] if wanted and len(starts) == 1 else None


def with_seat_numbers(text: str, names: Sequence[str]) -> str:
    """``take Bob`` -> ``take 2`` when Bob sits in seat 2; anything else unchanged."""
    found = TAKE_BY_NAME.match(text)
    if found is None:
        return text
    seat = seat_named(names, found.group(2))
    return text if seat is None else f"take {seat + 1}"


class OasisCog(
    GameCog,
    group_name=cmd("oasis", "oasis.cmd.name"),
    group_description=cmd("Play Oasis", "oasis.cmd.description"),
):
    kind = "oasis"

    async def play(self, interaction: discord.Interaction, text: str) -> None:
        if TAKE_BY_NAME.match(text) and interaction.channel_id is not None:
            session = await self.service.session_in(interaction.channel_id)
            if session is not None and session.kind == self.kind:
                text = with_seat_numbers(text, session.names)
        await super().play(interaction, text)

    @app_commands.command(
        name=cmd("take", "oasis.cmd.take.name"),
        description=cmd("Take another player's offer", "oasis.cmd.take.description"),
    )
    @app_commands.rename(offer=cmd("offer", "oasis.cmd.take.offer.name"))
    @app_commands.describe(
        offer=cmd("Whose offer (autocompletes with its cards)", "oasis.cmd.take.offer.description")
    )
    async def take(self, interaction: discord.Interaction, offer: str) -> None:
        text = offer.strip()
        if not text.lower().startswith(("take", "prendre")):
            text = f"take {text}"
        await self.play(interaction, text)

    @take.autocomplete("offer")
    async def offer_autocomplete(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        found = await self.my_turn(interaction)
        if found is None:
            return []
        session, seat = found
        needle = current.strip().casefold()
        offers = session.view(None).offers  # one view for every label
        choices = []
        for move in session.engine.legal_moves(session.state, seat):
            if not isinstance(move, Take):
                continue
            label = offer_label(session, offers, move, interaction.locale)
            if needle in label.casefold():
                choices.append(
                    app_commands.Choice(name=label[:VALUE_LIMIT], value=f"take {move.seat + 1}")
                )
        return choices[:CHOICE_LIMIT]


def offer_label(
    session: Session, offers: Sequence[Sequence[str]], move: Take, locale: object
) -> str:
    """``Bob (2): Oasis ×2, Camels ×3``."""
    cards = offers[move.seat]
    words = ", ".join(i18n.term(locale, Term(f"oasis.card.{code}")) for code in cards)
    return f"{session.names[move.seat]} ({move.seat + 1}): {words}"


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(OasisCog(bot))
