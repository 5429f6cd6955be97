"""The common shape of a public game action.

Validate and save first (fast, errors still ephemeral), then acknowledge
publicly, let AI seats play, render off the loop and post one followup.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot import i18n
from bot.service import GameService, MoveReport
from cogs.replies import game_message, send_followup, turn_lines

log = logging.getLogger(__name__)


async def publish(
    interaction: discord.Interaction,
    service: GameService,
    report: MoveReport,
    head: Sequence[str] = (),
) -> None:
    locale = interaction.locale
    await interaction.response.defer(thinking=True)
    try:
        ai = await service.advance(report.after)
        turns = (*report.turns, *ai.turns)
        lines = [*head, *turn_lines(ai.after, turns, locale)]
        await send_followup(interaction, await game_message(ai.after, lines, locale))
    except Exception:
        # The move is already saved: say so publicly (the followup of a public
        # defer is public anyway) rather than leave "thinking…" forever.
        log.exception("Posting game %s failed after the move was saved", report.after.id)
        await interaction.followup.send(i18n.t(locale, "error.after_save"))
