"""Move suggestions for autocomplete and the move select, for every game.

In the reader's language (``blanc F7`` for a French reader, matched against
what he types in either language), spread over the kinds of move, with a
short hint of what each does, and the bot's idea of a whole turn first.
"""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.session import Session
from games.contract import Seat
from games.rng import derive_seed
from games.suggestions import complete, turn_suggestion

CHOICE_LIMIT = 25  # Discord: at most 25 suggestions of at most 100 characters
VALUE_LIMIT = 100


def move_choices(session: Session, seat: Seat, typed: str, locale: object) -> list[tuple[str, str]]:
    """(label, value) pairs: the commands ``seat`` could send now, filtered by ``typed``."""
    engine = session.engine
    people = session.people(plain=True)  # autocomplete shows Markdown as typed

    def words(move: Any) -> str:
        term = engine.move_words(move)
        return engine.format_move(move) if term is None else i18n.term(locale, term, people)

    found = complete(engine, session.state, seat, typed[:VALUE_LIMIT], CHOICE_LIMIT, words_of=words)
    choices = []
    for suggestion in found:
        if len(suggestion.command) > VALUE_LIMIT:
            continue  # cut, it would be another command (or none): never offered
        label = suggestion.label
        if suggestion.hint is not None:
            label += f" ({i18n.term(locale, suggestion.hint, people)})"
        choices.append((shorten(label), suggestion.command))
    if not typed.strip():
        whole = suggested_turn(session, seat, words)
        if whole is not None and all(value != whole[1] for _, value in choices):
            choices = [whole, *choices][:CHOICE_LIMIT]
    return choices


def suggested_turn(session: Session, seat: Seat, words: Any) -> tuple[str, str] | None:
    """The bot's whole turn for the seat, as one command (see ``turn_suggestion``)."""
    engine = session.engine

    def seeds(number: int) -> int:
        return derive_seed(session.id, session.record.version, seat, number)

    moves = turn_suggestion(engine, session.spec.bot, session.state, seat, seeds, VALUE_LIMIT)
    if not moves:
        return None
    value = engine.format_command(moves)
    return shorten("★ " + engine.join_moves([words(m) for m in moves])), value


def shorten(label: str) -> str:
    """A label within Discord's 100 characters, cut with an ellipsis."""
    return label if len(label) <= VALUE_LIMIT else label[: VALUE_LIMIT - 1] + "…"


def waiting_choice(session: Session, locale: object) -> tuple[str, str]:
    """The single entry shown to someone with nothing to do: who is awaited."""
    waiting = ", ".join(session.names[s] for s in session.awaited) or "-"
    return i18n.t(locale, "move.waiting_for", players=waiting)[:VALUE_LIMIT], "-"
