"""Move suggestions for autocomplete and the move select, for every game.

In the reader's language (``blanc F7`` for a French reader, matched against
what he types in either language), spread over the kinds of move, with a
short hint of what each does, and the bot's idea of a whole turn first.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from bot import i18n
from bot.session import Session
from games.contract import Seat
from games.rng import derive_seed
from games.suggestions import (
    Match,
    Suggestion,
    candidates,
    complete,
    filter_candidates,
    move_forms,
    turn_suggestion,
)

CHOICE_LIMIT = 25  # Discord: at most 25 suggestions of at most 100 characters
VALUE_LIMIT = 100
# Moves an index lists at most: more (Desert's opening, 500 and more) would cost
# every hint worked out and kilobytes sent back, for a list filtered on the loop
# no faster than a worker's round trip.
INDEX_MOST = 120


Choice = tuple[str, str]  # (label, value): one autocomplete entry


def move_choices(session: Session, seat: Seat, typed: str, locale: object) -> list[Choice]:
    """(label, value) pairs: the commands ``seat`` could send now, filtered by ``typed``."""
    words = _words(session, locale)
    found = complete(
        session.engine, session.state, seat, typed[:VALUE_LIMIT], CHOICE_LIMIT, words_of=words
    )
    people = session.people(plain=True)
    choices = [c for c in (_choice(s, locale, people) for s in found) if c is not None]
    if not typed.strip():
        return _with_star(choices, suggested_turn(session, seat, words))
    return choices


@dataclass(frozen=True)
class MoveIndex:
    """A seat's suggestions on one version of a game, in one language, as the
    first autocomplete query lists them (in a worker): the next keystrokes are
    answered from it on the event loop, the same as :func:`move_choices`."""

    matches: tuple[Match, ...]  # each one-move command, as filtering needs it
    shown: tuple[Choice | None, ...]  # …and its entry (None: never offered)
    star: Choice | None  # the bot's whole turn, shown first when nothing is typed
    forms: frozenset[str]  # games.suggestions.move_forms of the candidates
    blank: list[Choice] | None = None  # the answer to an empty field, the first query
    listed: bool = True  # False: too many moves to list, every query asks a worker

    def choices(self, typed: str) -> list[Choice] | None:
        """:func:`move_choices` for ``typed``, or None when only it can say (the
        text starts with a whole move, and what may follow is worked out by
        playing it; or the moves were too many to list)."""
        if not self.listed:
            return None
        if not typed and self.blank is not None:
            return list(self.blank)
        found = filter_candidates(self.matches, self.forms, typed[:VALUE_LIMIT], CHOICE_LIMIT)
        if found is None:
            return None
        choices = [c for c in (self.shown[i] for i in found) if c is not None]
        return _with_star(choices, self.star) if not typed.strip() else choices


class MoveIndexes:
    """The event loop's indexes of the latest (game version, seat, language)s
    autocomplete was asked for: each a few kilobytes, and a new version makes
    the old ones useless, so only the most recently used are kept."""

    def __init__(self, size: int = 512) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, int, Seat, str], MoveIndex] = OrderedDict()

    @staticmethod
    def _key(session: Session, seat: Seat, lang: str) -> tuple[int, int, Seat, str]:
        return session.id, session.record.version, seat, lang

    def get(self, session: Session, seat: Seat, lang: str) -> MoveIndex | None:
        key = self._key(session, seat, lang)
        index = self._kept.get(key)
        if index is not None:
            self._kept.move_to_end(key)
        return index

    def keep(self, session: Session, seat: Seat, lang: str, index: MoveIndex) -> None:
        self._kept[self._key(session, seat, lang)] = index
        while len(self._kept) > self.size:
            self._kept.popitem(last=False)


UNLISTED = MoveIndex((), (), None, frozenset(), listed=False)


def move_index(session: Session, seat: Seat, locale: object) -> MoveIndex:
    """The seat's index (:data:`UNLISTED` past :data:`INDEX_MOST` moves)."""
    words = _words(session, locale)
    found = candidates(session.engine, session.state, seat, words, INDEX_MOST)
    if found is None:
        return UNLISTED
    people = session.people(plain=True)
    shown = tuple(_choice(c.suggestion, locale, people) for c in found)
    star = suggested_turn(session, seat, words) if seat in session.to_act else None
    index = MoveIndex(tuple(c.match for c in found), shown, star, move_forms(found))
    return replace(index, blank=index.choices(""))


def indexed_move_choices(
    session: Session, seat: Seat, typed: str, locale: object
) -> tuple[list[Choice], MoveIndex]:
    """In a worker: :func:`move_choices` for ``typed``, and the index the next
    keystrokes on this version of the game are answered from."""
    index = move_index(session, seat, locale)
    listed = index.choices(typed)
    return (move_choices(session, seat, typed, locale) if listed is None else listed), index


def _words(session: Session, locale: object) -> Callable[[Any], str]:
    """A move in the reader's words (``blanc F7``), or as notation."""
    engine = session.engine
    people = session.people(plain=True)  # autocomplete shows Markdown as typed

    def words(move: Any) -> str:
        term = engine.move_words(move)
        return engine.format_move(move) if term is None else i18n.term(locale, term, people)

    return words


def _choice(suggestion: Suggestion, locale: object, people: list[str]) -> Choice | None:
    """The entry shown for a suggestion, or None for a command too long to offer."""
    if len(suggestion.command) > VALUE_LIMIT:
        return None  # cut, it would be another command (or none): never offered
    label = suggestion.label
    if suggestion.hint is not None:
        label += f" ({i18n.term(locale, suggestion.hint, people)})"
    return shorten(label), suggestion.command


def _with_star(choices: list[Choice], star: Choice | None) -> list[Choice]:
    """The ★ whole turn first, unless it is one of the choices already."""
    if star is None or any(value == star[1] for _, value in choices):
        return choices
    return [star, *choices][:CHOICE_LIMIT]


def suggested_turn(session: Session, seat: Seat, words: Any) -> Choice | None:
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
