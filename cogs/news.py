"""What follows a public post of a game, beside the post itself: the board
link the reminders use, a DM to whoever asked to hear it is his turn, the
line in the parent channel when a game in a thread starts or ends, the final
score chart, and each seat's private news.

Private events never reach the channel: the acting player reads his in an
ephemeral followup, another human seat gets a DM, AI seats get nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

import discord

from bot import i18n
from bot.service import GameService
from bot.session import Session, iter_mentions
from cogs.chart import final_chart
from cogs.replies import board_link, describe, title
from cogs.threads import post_in_parent
from games.contract import Event, Seat
from games.text import Param

log = logging.getLogger(__name__)


async def send_final_chart(
    send: Callable[..., Awaitable[Any]], service: GameService, session: Session, lang: str
) -> None:
    """The score-over-time chart under a finished game's final post (if it can be drawn)."""
    chart = await final_chart(service, session, lang)
    if chart is not None:
        await send(embed=chart[0], file=chart[1])


async def after_post(
    client: discord.Client, service: GameService, session: Session, posted: discord.Message
) -> None:
    """A public board post of ``session`` was made: reminders link to it, the turn
    post owed up to its version is no longer owed (cogs/announce.py), and players
    who asked for it hear by DM that it is their turn."""
    try:
        await service.storage.set_board_message(session.id, posted.id, session.record.version)
        await notify_turn(client, service, session, board_link(session, posted.id))
    except Exception:
        report_failure(client, "After posting game %s's board", session.id)


def report_failure(client: discord.Client, message: str, *args: object) -> None:
    """Log a step that failed, with its traceback; without one if the bot is
    stopping, since closing its connections under a running step is expected."""
    if client.is_closed():
        log.info(message + "; the bot is stopping", *args)
    else:
        log.exception(message, *args)


async def notify_turn(
    client: discord.Client, service: GameService, session: Session, link: str
) -> None:
    """A DM to each awaited player who turned on /settings dm_turn."""
    for user_id in iter_mentions(session):
        settings = await service.sessions.settings.of(user_id)
        if not settings.dm_turn:
            continue
        lang = settings.lang or session.lang
        text = i18n.t(lang, "dm.your_turn", game=title(session, lang), id=session.id, link=link)
        try:
            user = client.get_user(user_id) or await client.fetch_user(user_id)
            await user.send(text)
        except discord.HTTPException:
            log.warning("Could not DM user %s about game %s", user_id, session.id)


async def tell_parent(client: discord.Client, before: Session, after: Session) -> None:
    """The game's thread's parent channel hears when it starts and how it ends."""
    if before.record.status == "lobby" and after.record.status != "lobby":
        await tell_parent_started(client, after)
    if before.record.status != "finished" and after.record.status == "finished":
        await tell_parent_result(client, after)


async def tell_parent_started(client: discord.Client, session: Session) -> None:
    players = ", ".join(session.shown(s) for s in range(len(session.names)))
    await _tell_parent(client, session, "thread.started", players=players)


async def tell_parent_result(client: discord.Client, session: Session) -> None:
    winners = ", ".join(session.shown(s.seat) for s in session.standings() if s.won)
    await _tell_parent(client, session, "thread.result", winners=winners)


async def _tell_parent(client: discord.Client, session: Session, key: str, **params: Param) -> None:
    lang, channel_id = session.lang, session.record.channel_id
    where: dict[str, Param] = {
        "game": title(session, lang),
        "id": session.id,
        "thread": f"<#{channel_id}>",
    }
    await post_in_parent(client, channel_id, i18n.translate(lang, key, {**where, **params}))


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
    people = session.people()
    lines.extend(f"🔒 {describe(e, locale, names=people)}" for e in events)
    return "\n".join(lines)[:2000]


async def send_dm(
    client: discord.Client, session: Session, user_id: int, events: Sequence[Event]
) -> None:
    """A DM in the game's language (a DM has no interaction locale)."""
    user = client.get_user(user_id) or await client.fetch_user(user_id)
    await user.send(private_text(session, events, session.lang))
