"""The common shape of a public game action, and private news for each seat.

Validate and save first (fast, errors still ephemeral), then acknowledge
publicly, let AI seats play, render off the loop and post one followup.
Private events never reach the channel: the acting player reads his in an
ephemeral followup, another human seat gets a DM, AI seats get nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence

import discord

from bot import i18n
from bot.service import GameService, MoveReport, Session
from cogs.replies import describe, game_message, send_followup, title, turn_lines
from games.core import Event, Seat

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
        return
    private = {**report.private_events()}
    for seat, events in ai.private_events().items():
        private[seat] = private.get(seat, ()) + events
    await deliver_private(interaction.client, ai.after, private, interaction)


async def deliver_private(
    client: discord.Client,
    session: Session,
    events: Mapping[Seat, Sequence[Event]],
    interaction: discord.Interaction | None = None,
) -> None:
    """Each seat's private events, to that seat only: ephemeral to the user
    of ``interaction``, by DM to any other human seat, nothing to AI seats."""
    actor = None if interaction is None else session.seat_of(interaction.user.id)
    for seat, items in events.items():
        record = session.seat(seat)
        if not items or record.user_id is None or session.ai_plays(seat):
            continue
        try:
            if interaction is not None and seat == actor:
                text = private_text(session, items, interaction.locale)
                await interaction.followup.send(text, ephemeral=True)
            else:
                await send_dm(client, session, record.user_id, items)
        except discord.HTTPException:
            log.warning("Could not deliver private news of game %s to seat %s", session.id, seat)


def private_text(session: Session, events: Sequence[Event], locale: object) -> str:
    lines = [i18n.t(locale, "game.private_head", game=title(session, locale), id=session.id)]
    lines.extend(f"🔒 {describe(e, locale)}" for e in events)
    return "\n".join(lines)[:2000]


async def send_dm(
    client: discord.Client, session: Session, user_id: int, events: Sequence[Event]
) -> None:
    """A DM in the server's language (a DM has no interaction locale)."""
    user = client.get_user(user_id) or await client.fetch_user(user_id)
    guild = client.get_guild(session.record.guild_id)
    locale = guild.preferred_locale if guild is not None else "en"
    await user.send(private_text(session, events, locale))
