"""Public game messages: what happened, the board, who is next — for every game.

Built only from the engine's events, decisions and outcome (never from raw
state), in the reader's language. Every public game post is a new message
in the game's channel, for a move as for what the bot posts on its own
later (AI turns after a restart, reminders): Discord notifies the people a
message mentions only when it is created, never when it is edited, so a
"thinking…" placeholder filled in with the turn would ping nobody.

A game post is one Components V2 card (:meth:`GameMessage.layout`): a
container in the colour of the seat it is about, holding the title with
what happened and who is next, the scores, the board, the game's footer and
the buttons, so the summary, the board and the buttons read as one.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any

import discord

from bot import i18n
from bot.boards import Boards
from bot.names import md
from bot.session import Session, Turn, iter_mentions
from cogs.boards import board_file
from games.contract import Event, Seat

log = logging.getLogger(__name__)

EMBED_COLOUR = discord.Colour.from_rgb(214, 160, 76)  # sand
# An engine's end-of-game score line of a seat (``<kind>.log.final``): the
# final post states each score once, in the ranking with its breakdown
# (:func:`final_summary`), so these lines are not repeated above it.
SCORE_LINE = ".log.final"
# Discord: the text of all the TextDisplays of a Components V2 message together.
TEXT_LIMIT = 4000
# The scores' share of it at most, so the turn's lines always keep the rest.
SCORES_LIMIT = 1500
BOARD_URL = "attachment://board.png"


@dataclass(frozen=True)
class GameMessage:
    """One public game post, as the parts of its Components V2 card: ``lines``
    (what happened, then who is next, pings included) under the ``heading``,
    the ``scores``, the board ``file`` (shown in a media gallery), the game's
    ``footer`` and the ``buttons``, in a container of ``colour``; ``mentions``
    are the users it may ping. Its texts fit Discord's limit together."""

    heading: str
    lines: tuple[str, ...]
    scores: tuple[str, ...]
    footer: str
    colour: discord.Colour
    file: discord.File | None
    mentions: discord.AllowedMentions
    buttons: tuple[discord.ui.Item[Any], ...] = ()

    def texts(self) -> tuple[str, str, str]:
        """The card's texts: the heading with the lines, the scores, the footer
        (each may be empty but the first); the oldest lines are dropped first
        if all would not fit in ``TEXT_LIMIT`` together."""
        heading = f"### {self.heading}"
        scores = "\n".join(self.scores)[:SCORES_LIMIT]
        footer = "\n".join(f"-# {line}" for line in self.footer.splitlines() if line.strip())
        room = TEXT_LIMIT - len(heading) - 1 - len(scores) - len(footer)  # 1: the newline
        body = clip(self.lines, room)
        return "\n".join(filter(None, (heading, body))), scores, footer

    def layout(self) -> discord.ui.LayoutView:
        """The card: one container holding the texts, the board and the buttons
        (rows of five). Built anew for each send: an item sits in one view."""
        top, scores, footer = self.texts()
        card: discord.ui.Container[discord.ui.LayoutView] = discord.ui.Container(
            accent_colour=self.colour
        )
        card.add_item(discord.ui.TextDisplay(top))
        if scores:
            card.add_item(discord.ui.TextDisplay(scores))
        if self.file is not None:
            card.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(BOARD_URL)))
        if footer:
            card.add_item(discord.ui.TextDisplay(footer))
        for start in range(0, len(self.buttons), 5):
            card.add_item(discord.ui.ActionRow(*self.buttons[start : start + 5]))
        view = discord.ui.LayoutView(timeout=None)
        view.add_item(card)
        return view


def title(session: Session, locale: object) -> str:
    return i18n.t(locale, f"{session.kind}.title")


def describe(
    event: Event, locale: object, *, plain: bool = False, names: Sequence[str] | None = None
) -> str:
    """An event's text, its details in brackets after it. Text parameters are
    data, never markup: a player's words (a Nomadi bribe's message) are escaped
    for Discord, or (``plain``, for a text file) only kept on one line.
    ``names`` (:meth:`Session.people`) name the players it mentions."""

    def shown(value: str) -> str:
        return " ".join(value.split()) if plain else md(value)

    params = {k: shown(v) if isinstance(v, str) else v for k, v in event.params.items()}
    text = i18n.translate(locale, event.key, params, names=names)
    if event.details:
        details = ", ".join(describe(d, locale, plain=plain, names=names) for d in event.details)
        text += f" ({details})"
    return text


def turn_lines(
    session: Session, turns: Sequence[Turn], locale: object, *, plain: bool = False
) -> list[str]:
    """A turn's public events in the order they happened: a seat's run of events
    on one line under its name, each game event (an arrival, the end) on a line
    of its own; ``plain`` for a text file (no Markdown: names unbolded, words
    unescaped). In order, so a payment the move caused comes before the next
    player's roll, and the end before the final scores."""
    lines = []
    people = session.people(plain=plain)
    for turn in turns:
        told = [e for e in turn.public_events() if not e.key.endswith(SCORE_LINE)]
        for seat, run in groupby(told, key=lambda e: e.seat):
            said = [describe(e, locale, plain=plain, names=people) for e in run]
            if seat is None:
                lines.extend(said)
            else:
                name = session.names[seat] if plain else f"**{session.shown(seat)}**"
                lines.append(f"{name}: {' · '.join(said)}")
    return lines


def who(session: Session, seat: Seat) -> str:
    """A ping for a human who must act, the plain name for an AI seat."""
    record = session.seat(seat)
    if record.user_id and not session.ai_plays(seat):
        return f"<@{record.user_id}>"
    return session.shown(seat)


def next_lines(session: Session, locale: object) -> list[str]:
    """Who must act now and what they owe, with a ping for humans; or the final result."""
    if session.record.status == "finished":
        # Everyone who played hears how it ended, once: the post names each human.
        pings = " ".join(f"<@{user}>" for user in final_mentions(session))
        lines = [" ".join(filter(None, (i18n.t(locale, "game.over", id=session.id), pings)))]
        if session.outcome is None:
            lines.append(i18n.t(locale, "game.over_by_resignation"))
        lines.append(final_summary(session, locale))
        return lines
    if session.record.status != "active":
        return []
    lines = [
        i18n.t(
            locale,
            "game.your_turn",
            player=session.shown(d.seat) if d.optional else who(session, d.seat),
            prompt=i18n.translate(locale, d.key, d.params, names=session.people()),
        )
        for d in session.decisions
    ]
    return lines + clock_lines(session, locale)


def final_mentions(session: Session) -> list[int]:
    """The humans of a finished game, each once, in seat order (none before the end)."""
    if session.record.status != "finished":
        return []
    seats = (session.seat(seat) for seat in range(len(session.names)))
    return list(dict.fromkeys(s.user_id for s in seats if s.user_id and not s.is_bot))


def clock_lines(session: Session, locale: object) -> list[str]:
    """When the wait runs out (vacations can push it back), if the game has a clock
    and a human is awaited."""
    deadline = session.deadline
    if deadline is None or not any(iter_mentions(session)):
        return []
    return [i18n.t(locale, "clock.line", due=f"<t:{int(deadline.timestamp())}:R>")]


def final_summary(session: Session, locale: object, *, plain: bool = False) -> str:
    """The ranking as the leaderboard records it, with each score's breakdown
    (``plain``: for a text file, without Markdown)."""
    outcome = session.outcome
    table = sorted(session.standings(), key=lambda s: (s.rank, s.seat))
    lines = []
    for standing in table:
        seat = standing.seat
        medal = "🏆" if standing.won else f"{standing.rank}."
        name = session.names[seat] if plain else session.shown(seat)
        record = session.seat(seat)
        if record.out:
            tag = "resigned" if record.resigned else record.replaced
            name += f" ({i18n.t(locale, f'lobby.tag.{tag}')})"
        if not plain:
            name = f"**{name}**"
        if outcome is None:
            lines.append(f"{medal} {name}")
            continue
        parts = ""
        if outcome.breakdown:
            parts = " — " + ", ".join(
                f"{i18n.t(locale, f'{session.kind}.score.{category}', default=category)} {points}"
                for category, points in outcome.breakdown[seat]
            )
        lines.append(f"{medal} {name}: {outcome.scores[seat]}{parts}")
    return "\n".join(lines)


def seat_mark(session: Session, seat: Seat) -> str:
    """🤖 for a bot seat, 🏳️ for a resigned player, 💤 for one away, 🚫 for one
    removed (the AI plays those), else nothing."""
    record = session.seat(seat)
    if record.is_bot:
        return "" if "🤖" in record.name else " 🤖"
    if record.resigned:
        return " 🏳️"
    return {"away": " 💤", "removed": " 🚫"}.get(record.replaced or "", "")


def score_lines(session: Session, locale: object, boards: Boards | None = None) -> list[str]:
    """The compact summary beside the board: each seat, marked, with its public scores
    (worked out with the board by ``boards`` when it drew it)."""
    if session.state is None or session.record.status != "active":
        return []
    if boards is not None:
        summary = boards.summary(session)
    else:
        summary = session.engine.summary(session.state)
    acting = set(session.awaited)
    lines = []
    for seat in range(len(session.names)):
        name = session.shown(seat)
        arrow = "▶ " if seat in acting else ""
        said = i18n.term(locale, summary[seat], session.people()) if seat < len(summary) else ""
        text = f" — {said}" if said else ""
        lines.append(f"{arrow}**{seat + 1}. {name}**{seat_mark(session, seat)}{text}")
    return lines


def board_link(session: Session, message_id: int | None = None) -> str:
    """A link to the game's latest board post (or to its thread). Built from the
    record: a message sent through a partial channel does not know its server,
    so its own jump_url would point at DMs."""
    record = session.record
    base = f"https://discord.com/channels/{record.guild_id}/{record.channel_id}"
    message = message_id if message_id is not None else record.board_message_id
    return base if message is None else f"{base}/{message}"


def clip(lines: Sequence[str], limit: int) -> str:
    """Join lines within ``limit`` characters, dropping the oldest first."""
    kept = list(lines)
    while kept and len("\n".join(kept)) > limit:
        kept.pop(0)
    return "\n".join(kept)[: max(limit, 0)]


def accent(session: Session) -> discord.Colour:
    """A game post's colour: the board colour of the seat who must act now, of
    the winner once the game is over; the sand colour otherwise (a lobby, a tie)."""
    if session.record.status == "finished":
        winners = [s.seat for s in session.standings() if s.won]
        return seat_accent(session, winners[0] if len(winners) == 1 else None)
    acting = session.awaited or session.to_act
    return seat_accent(session, acting[0] if acting else None)


def seat_accent(session: Session, seat: Seat | None) -> discord.Colour:
    """The colour ``seat`` wears on the board (the sand colour for none, or a
    game that cannot be drawn), so a card is the colour of whom it is about."""
    spec = session.hosted_spec
    if seat is None or spec is None or session.broken:
        return EMBED_COLOUR
    return discord.Colour.from_rgb(*spec.load_picture().seat_colour(seat))


async def game_message(
    session: Session,
    head: Sequence[str],
    locale: object,
    *,
    boards: Boards | None,
    buttons: Sequence[discord.ui.Item[Any]] = (),
) -> GameMessage:
    """The post of ``session`` with ``head`` on top and ``buttons`` at the bottom;
    ``boards`` draws the public board into it (None: no board, e.g. /game status)."""
    heading = i18n.t(locale, "game.title", title=title(session, locale), id=session.id)
    file = None
    if boards is not None and session.state is not None:
        file = await board_file(boards, session, None, locale)
    footer = ""
    if session.record.status == "active":  # a finished game has nothing left to move
        footer = i18n.t(locale, f"{session.kind}.footer", default="")
    pinged = [*iter_mentions(session), *final_mentions(session)]
    mentions = discord.AllowedMentions(
        everyone=False, roles=False, users=[discord.Object(uid) for uid in pinged]
    )
    return GameMessage(
        heading=heading,
        lines=(*head, *next_lines(session, locale)),
        scores=tuple(score_lines(session, locale, boards)),
        footer=footer,
        colour=accent(session),
        file=file,
        mentions=mentions,
        buttons=tuple(buttons),
    )


def send_kwargs(message: GameMessage) -> dict[str, object]:
    """A V2 message carries no content and no embed: all is in its layout."""
    kwargs: dict[str, object] = {
        "view": message.layout(),
        "allowed_mentions": message.mentions,
    }
    if message.file is not None:
        kwargs["file"] = message.file
    return kwargs


async def post_answer(
    interaction: discord.Interaction, channel: discord.abc.Messageable, message: GameMessage
) -> discord.Message:
    """The public answer to an interaction deferred with "thinking…": a new
    message in ``channel``, so whoever it names is notified (filling the
    placeholder in is an edit, which notifies nobody), then the placeholder
    goes. A placeholder that cannot be deleted is only logged: the post is made."""
    posted = await post_to_channel(channel, message)
    try:
        await interaction.delete_original_response()
    except discord.HTTPException as error:
        log.info("The placeholder of interaction %s stays (%s)", interaction.id, error.status)
    return posted


async def reply_with(
    interaction: discord.Interaction, channel: discord.abc.Messageable, message: GameMessage
) -> discord.Message:
    """The public answer to an interaction not acknowledged yet: the post itself
    (a new message, so whoever it names is notified). If Discord no longer takes
    the answer (its 3 s ran out meanwhile), the post is made in ``channel``."""
    try:
        callback = await interaction.response.send_message(**send_kwargs(message))  # type: ignore[call-overload]
    except discord.NotFound:
        log.warning("Interaction %s expired before its answer; posting it", interaction.id)
        if message.file is not None:
            message.file.reset()  # read by the refused upload
        return await post_to_channel(channel, message)
    sent = callback.resource
    if not isinstance(sent, discord.InteractionMessage):
        raise TypeError(f"the answer to interaction {interaction.id} is no message: {sent!r}")
    return sent


async def post_to_channel(
    channel: discord.abc.Messageable, message: GameMessage
) -> discord.Message:
    """A new public message: its mentions notify (AI turns, reminders, answers)."""
    sent: discord.Message = await channel.send(**send_kwargs(message))  # type: ignore[call-overload]
    return sent


async def announce(
    interaction: discord.Interaction, lines: list[str], view: discord.ui.View | None = None
) -> None:
    """A public answer to a command (a lobby's news, a cancellation, a removal);
    it names people without pinging them."""
    text = "\n".join(lines)
    mentions = discord.AllowedMentions.none()
    if view is None:
        await interaction.response.send_message(text, allowed_mentions=mentions)
    else:
        await interaction.response.send_message(text, view=view, allowed_mentions=mentions)
