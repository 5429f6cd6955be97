"""Public game messages: the text of what happened, the board, who is next.

Used for moves (interaction followups) and for messages the bot posts on
its own later (AI turns after a restart, reminders), which go through the
channel because an interaction token dies after 15 minutes.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot import i18n
from bot.service import MoveReport, Session, Turn, iter_mentions
from cogs.presenters import PRESENTERS, final_summary

log = logging.getLogger(__name__)

EMBED_COLOUR = discord.Colour.from_rgb(214, 160, 76)  # sand
CONTENT_LIMIT = 2000


@dataclass(frozen=True)
class GameMessage:
    content: str
    embed: discord.Embed
    file: discord.File | None
    mentions: discord.AllowedMentions


async def render_board(session: Session, viewer: int | None, locale: object) -> discord.File:
    """Render off the event loop: Pillow work takes tens of milliseconds."""
    presenter = PRESENTERS[session.kind.key]
    view = session.view(viewer)
    png = await asyncio.to_thread(presenter.render, view, session.names, i18n.language(locale))
    return discord.File(io.BytesIO(png), filename="board.png")


def turn_lines(session: Session, turns: Sequence[Turn], locale: object) -> list[str]:
    presenter = PRESENTERS[session.kind.key]
    lines = []
    for turn in turns:
        who = session.names[turn.seat]
        text = presenter.describe_turn(session, turn, locale)
        lines.append(f"**{who}**: {text}")
    return lines


def next_lines(session: Session, locale: object) -> list[str]:
    """Who must act now, with a ping for humans; or the final result."""
    if session.record.status == "finished":
        outcome = session.outcome
        lines = [i18n.t(locale, "game.over", id=session.id)]
        if outcome is not None:
            lines.append(final_summary(outcome, session.names, locale))
        else:
            lines.append(i18n.t(locale, "game.over_by_resignation"))
        return lines
    if session.record.status != "active":
        return []
    presenter = PRESENTERS[session.kind.key]
    lines = []
    for seat in session.to_act:
        record = session.seat(seat)
        who = (
            f"<@{record.user_id}>" if record.user_id and not session.ai_plays(seat) else record.name
        )
        prompt = presenter.prompt(session.view(seat), locale)
        lines.append(i18n.t(locale, "game.your_turn", player=who, prompt=prompt))
    return lines


def clip(lines: Sequence[str]) -> str:
    """Join lines within Discord's content limit, dropping the oldest first."""
    kept = list(lines)
    while kept and len("\n".join(kept)) > CONTENT_LIMIT:
        kept.pop(0)
    return "\n".join(kept)[:CONTENT_LIMIT]


async def game_message(
    session: Session, head: Sequence[str], locale: object, *, with_board: bool = True
) -> GameMessage:
    content = clip([*head, *next_lines(session, locale)])
    embed = discord.Embed(
        title=i18n.t(locale, "game.title", title=session.kind.title, id=session.id),
        colour=EMBED_COLOUR,
    )
    file = None
    if with_board and session.state is not None:
        file = await render_board(session, None, locale)
        embed.set_image(url="attachment://board.png")
    embed.set_footer(text=i18n.t(locale, f"{session.kind.key}.footer", default=""))
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(uid) for uid in iter_mentions(session)]
    )
    return GameMessage(content, embed, file, mentions)


async def report_message(report: MoveReport, locale: object) -> GameMessage:
    return await game_message(report.after, turn_lines(report.after, report.turns, locale), locale)


def _send_kwargs(message: GameMessage) -> dict[str, object]:
    kwargs: dict[str, object] = {
        "content": message.content,
        "embed": message.embed,
        "allowed_mentions": message.mentions,
    }
    if message.file is not None:
        kwargs["file"] = message.file
    return kwargs


async def send_followup(interaction: discord.Interaction, message: GameMessage) -> None:
    await interaction.followup.send(**_send_kwargs(message))  # type: ignore[call-overload]


async def post_to_channel(channel: discord.abc.Messageable, message: GameMessage) -> None:
    """For posts after the interaction token may have expired (AI turns, reminders)."""
    await channel.send(**_send_kwargs(message))  # type: ignore[call-overload]
