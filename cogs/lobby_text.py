"""The text of a lobby post, of seat lists and of a game's start, in one language."""

from __future__ import annotations

from bot import i18n
from bot.names import md
from bot.session import Session
from cogs import options as game_options
from cogs.replies import title


def seat_lines(session: Session, locale: object) -> list[str]:
    lines = []
    for seat in session.record.seats:
        tags = []
        if seat.user_id == session.record.creator_id:
            tags.append(i18n.t(locale, "lobby.tag.creator"))
        if seat.is_bot:
            tags.append(i18n.t(locale, "lobby.tag.bot"))
        if seat.resigned:
            tags.append(i18n.t(locale, "lobby.tag.resigned"))
        elif seat.replaced is not None:
            tags.append(i18n.t(locale, f"lobby.tag.{seat.replaced}"))
        suffix = f" ({', '.join(tags)})" if tags else ""
        lines.append(f"{seat.seat + 1}. {md(seat.name)}{suffix}")
    return lines


def lobby_lines(session: Session, locale: object) -> list[str]:
    """The lobby post: game, options, who sits, how to join."""
    engine = session.engine
    creator = f"<@{session.record.creator_id}>"
    lines = [
        i18n.t(
            locale,
            "lobby.opened",
            user=creator,
            game=title(session, locale),
            id=session.id,
            min=engine.min_players,
            max=engine.max_players,
        )
    ]
    chosen = game_options.describe(session.spec, session.record.options, locale)
    if chosen:
        lines.append(i18n.t(locale, "options.line", options=chosen))
    return [*lines, *seat_lines(session, locale), i18n.t(locale, "lobby.how_to_join")]


def start_lines(session: Session) -> list[str]:
    """What the start post says, in the game's language: the game, its number
    and the seat order."""
    lang = session.lang
    head = i18n.t(lang, "lobby.started", game=title(session, lang), id=session.id)
    return [head, *seat_lines(session, lang)]
