"""/sahwari …: Sahwari on the shared move cog, with buttons for its common steps.

``/sahwari move`` takes every step of §17 (one or several, joined with ``;``).
A Discord mention names a player wherever a seat (P1-P4) is expected: it is
turned into that seat before the engine reads the command.

The turn post gets a button for each step of a short answer the engine asks
for (use now / keep a convoy, the items to take, the places for a cube, the
Explorer's second move) and ``next`` (``end`` in W3) to close a window; the
abilities of a window stay in ``/sahwari move``. The cog only picks among the
engine's legal moves: the rules stay in the engine.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.session import Session
from bot.translator import cmd
from cogs.play import GameCog
from cogs.turn_post import MAX_QUICK
from games.sahwari.moves import End, Keep, MoveCamel, Next, PlaceCube, Stay, Take, UseNow

if TYPE_CHECKING:
    from bot.app import Caravanserai

MENTION = re.compile(r"<@!?(\d{1,20})>")
DECISION = "sahwari.decision."
# The prompts whose steps get buttons, and the kinds of step that do (§17.3).
QUICK_STEPS: dict[str, tuple[type, ...]] = {
    "convoy": (UseNow, Keep),
    "collect": (Take,),
    "cube": (PlaceCube,),
    "second": (MoveCamel, Stay),
}
WINDOW = "window"  # only the step that closes it: `next`, or `end` in W3


def with_seats(text: str, session: Session) -> str:
    """``attack me camel <@123> B4`` -> ``attack me camel P2 B4`` when user 123 sits
    in seat 2; a mention of someone else is left for the parser to refuse."""
    seats = {record.user_id: record.seat for record in session.record.seats if record.user_id}

    def seat_of(found: re.Match[str]) -> str:
        seat = seats.get(int(found.group(1)))
        return found.group(0) if seat is None else f"P{seat + 1}"

    return MENTION.sub(seat_of, text)


def quick_steps(prompt: str, legal: Sequence[Any]) -> list[Any]:
    """The legal steps of ``prompt`` worth a button each (none when too many)."""
    if prompt == WINDOW:
        closing = [m for m in legal if isinstance(m, Next)]
        return closing or [m for m in legal if isinstance(m, End)]
    kinds = QUICK_STEPS.get(prompt)
    if kinds is None:
        return []
    steps = [m for m in legal if isinstance(m, kinds)]
    return steps if len(steps) <= MAX_QUICK else []


def quick_moves(session: Session) -> Sequence[Any]:
    """Buttons for a human's short answers: use now / keep, take, place,
    the Explorer's second move, and closing a window."""
    for decision in session.decisions:
        prompt = decision.key.removeprefix(DECISION)
        if prompt == decision.key or session.ai_plays(decision.seat):
            continue
        legal = session.engine.legal_moves(session.state, decision.seat)
        return quick_steps(prompt, legal)
    return ()


class SahwariCog(
    GameCog,
    group_name=cmd("sahwari", "sahwari.cmd.name"),
    group_description=cmd("Play Sahwari", "sahwari.cmd.description"),
):
    kind = "sahwari"

    async def play(self, interaction: discord.Interaction, text: str) -> None:
        if MENTION.search(text) and interaction.channel_id is not None:
            session = await self.service.session_in(interaction.channel_id)
            if session is not None and session.kind == self.kind:
                text = with_seats(text, session)
        await super().play(interaction, text)


async def setup(bot: Caravanserai) -> None:
    await bot.add_cog(SahwariCog(bot))
