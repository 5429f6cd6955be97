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


def level_name(locale: object, level: str) -> str:
    """A bot level's name in the reader's language ("difficile")."""
    return i18n.t(locale, f"level.name.{level}", default=level)


def bots_line(session: Session, locale: object) -> str | None:
    """How many bot seats the table has and their level ("Bots: 2 · level hard"),
    or None for a table without bots."""
    bots = sum(1 for seat in session.record.seats if seat.is_bot)
    if not bots:
        return None
    level = level_name(locale, session.record.bot_level)
    return i18n.t(locale, "lobby.bots_line", count=bots, level=level)


def lobby_lines(session: Session, locale: object) -> list[str]:
    """The lobby post: game, options, the bots' level, who sits, how to join."""
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
    bots = bots_line(session, locale)
    if bots is not None:
        lines.append(bots)
    return [*lines, *seat_lines(session, locale), i18n.t(locale, "lobby.how_to_join")]


def start_lines(session: Session) -> list[str]:
    """What the start post says, in the game's language: the game, its number
    and the seat order."""
    lang = session.lang
    head = i18n.t(lang, "lobby.started", game=title(session, lang), id=session.id)
    return [head, *seat_lines(session, lang)]
