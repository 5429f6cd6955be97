"""The common shape of a public game action, and private news for each seat.

Validate and save first (fast, errors still ephemeral), then acknowledge
publicly, let AI seats play, render off the loop and post one followup.
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
from bot.session import MoveReport, Session, iter_mentions
from cogs.boards import board_file, boards_of
from cogs.buttons import turn_view
from cogs.chart import final_chart
from cogs.replies import (
    EMBED_COLOUR,
    board_link,
    describe,
    game_message,
    post_answer,
    post_to_channel,
    title,
    turn_lines,
)
from cogs.threads import post_in_parent
from games.contract import Event, Seat
from games.text import Param

log = logging.getLogger(__name__)


async def answer(
    interaction: discord.Interaction, service: GameService, report: MoveReport
) -> None:
    """A move's answer: the public post of a whole turn, or a private step."""
    if report.turn_over:
        await publish(interaction, service, report)
    else:
        await answer_step(interaction, report)


async def answer_step(interaction: discord.Interaction, report: MoveReport) -> None:
    """A step inside a turn (a first camel): only the player sees it, with his board.

    The channel gets the whole turn in one post when the turn ends.
    """
    locale = interaction.locale
    await interaction.response.defer(ephemeral=True, thinking=True)
    session = report.after
    (turn,) = report.turns
    lines = [describe(e, locale) for e in turn.events if e.to in (None, turn.seat)]
    lines += [
        i18n.translate(locale, d.key, d.params) for d in session.decisions if d.seat == turn.seat
    ]
    file = await board_file(boards_of(interaction.client), session, turn.seat, locale)
    embed = discord.Embed(title=i18n.t(locale, "game.step_title"), colour=EMBED_COLOUR)
    embed.set_image(url="attachment://board.png")
    # The same buttons as a turn post, so the next step is one click away too.
    text = "\n".join(lines)[:2000]
    buttons = turn_view(session)
    if buttons is None:
        await interaction.followup.send(text, embed=embed, file=file, ephemeral=True)
    else:
        await interaction.followup.send(text, embed=embed, file=file, ephemeral=True, view=buttons)
    others = {s: e for s, e in report.private_events().items() if s != turn.seat}
    await deliver_private(interaction.client, session, others)


async def publish(
    interaction: discord.Interaction,
    service: GameService,
    report: MoveReport,
    head: Sequence[str] = (),
) -> None:
    """Acknowledge publicly, let AI seats play, post the turn in the game's language."""
    locale = report.after.lang
    await interaction.response.defer(thinking=True)
    try:
        ai = await service.advance(report.after)
        turns = (*report.turns, *ai.turns)
        lines = [*head, *turn_lines(ai.after, turns, locale)]
        # Seats acting at once: another move may have landed meanwhile; show the newest board.
        now = await service.get(ai.after.id) or ai.after
        boards = boards_of(interaction.client)
        message = await game_message(now, lines, locale, boards=boards, view=turn_view(now))
        channel = interaction.client.get_partial_messageable(now.record.channel_id)
        posted = await post_answer(interaction, channel, message)
        await after_post(interaction.client, service, now, posted)
        if ai.ended:
            await send_final_chart(channel.send, service, now, locale)
    except Exception:
        # The move is already saved: say so publicly (the followup of a public
        # defer is public anyway) rather than leave "thinking…" forever.
        report_failure(
            interaction.client, "Posting game %s failed after the move was saved", report.after.id
        )
        await interaction.followup.send(i18n.t(interaction.locale, "error.after_save"))
        return
    await tell_parent(interaction.client, report.before, ai.after)
    private = {**report.private_events()}
    for seat, events in ai.private_events().items():
        private[seat] = private.get(seat, ()) + events
    await deliver_private(interaction.client, ai.after, private, interaction)


async def post_ai_turns(client: discord.Client, service: GameService, session: Session) -> bool:
    """The AI plays what is due (bots, a seat just handed to it, turns a restart
    interrupted) and its turns are posted through the channel, as a turn post
    from a player would be: private news, the parent's line, the final chart.
    False if there was nothing to play."""
    report = await service.advance(session)
    if not report.turns:
        return False
    after, lang = report.after, report.after.lang
    lines = turn_lines(after, report.turns, lang)
    boards = boards_of(client)
    message = await game_message(after, lines, lang, boards=boards, view=turn_view(after))
    channel = client.get_partial_messageable(after.record.channel_id)
    posted = await post_to_channel(channel, message)
    await after_post(client, service, after, posted)
    if report.ended:
        await send_final_chart(channel.send, service, after, lang)
    await tell_parent(client, session, after)
    await deliver_private(client, after, report.private_events())
    return True


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
        settings = await service.storage.user_settings(user_id)
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
    lines.extend(f"🔒 {describe(e, locale)}" for e in events)
    return "\n".join(lines)[:2000]


async def send_dm(
    client: discord.Client, session: Session, user_id: int, events: Sequence[Event]
) -> None:
    """A DM in the game's language (a DM has no interaction locale)."""
    user = client.get_user(user_id) or await client.fetch_user(user_id)
    await user.send(private_text(session, events, session.lang))
