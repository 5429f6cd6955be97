"""Move suggestions for autocomplete and the move select, for every game.

In the reader's language (``blanc F7`` for a French reader, matched against
what he types in either language), spread over the kinds of move, with a
short hint of what each does, and the bot's idea of a whole turn first.
"""

from __future__ import annotations

from typing import Any

from bot import i18n
from bot.session import Session
from games.core import MoveError, Seat, bot_move, complete, derive_seed

CHOICE_LIMIT = 25  # Discord: at most 25 suggestions of at most 100 characters
VALUE_LIMIT = 100
MAX_STEPS = 8  # a suggested whole turn stops after this many moves


def move_choices(session: Session, seat: Seat, typed: str, locale: object) -> list[tuple[str, str]]:
    """(label, value) pairs: the commands ``seat`` could send now, filtered by ``typed``."""
    engine = session.engine

    def words(move: Any) -> str:
        term = engine.move_words(move)
        return engine.format_move(move) if term is None else i18n.term(locale, term)

    found = complete(engine, session.state, seat, typed[:VALUE_LIMIT], CHOICE_LIMIT, words_of=words)
    choices = []
    for suggestion in found:
        label = suggestion.label
        if suggestion.hint is not None:
            label += f" ({i18n.term(locale, suggestion.hint)})"
        choices.append((label[:VALUE_LIMIT], suggestion.command[:VALUE_LIMIT]))
    if not typed.strip():
        whole = suggested_turn(session, seat, words)
        if whole is not None and all(value != whole[1] for _, value in choices):
            choices = [whole, *choices][:CHOICE_LIMIT]
    return choices


def suggested_turn(session: Session, seat: Seat, words: Any) -> tuple[str, str] | None:
    """The bot's whole turn for the seat, as one command (only when it has several moves)."""
    engine = session.engine
    state, moves = session.state, []
    for step_number in range(MAX_STEPS):
        seed = derive_seed(session.id, session.record.version, seat, step_number)
        move = bot_move(engine, session.spec.bot, state, seat, seed)
        step = engine.play(state, seat, move)
        moves.append(move)
        state = step.state
        if step.ends_turn or seat not in engine.to_act(state):
            break
        if any(event.to == seat for event in step.events):
            break  # a reveal: what follows is the player's to decide once he has seen it
    if len(moves) < 2:
        return None
    sep = engine.separator
    value = sep.join(engine.format_move(m) for m in moves)
    try:
        engine.parse(session.state, seat, value)
    except MoveError:
        return None  # the game ends a command earlier (a Nomadi card deal)
    label = "★ " + sep.join(words(m) for m in moves)
    return label[:VALUE_LIMIT], value[:VALUE_LIMIT]


def waiting_choice(session: Session, locale: object) -> tuple[str, str]:
    """The single entry shown to someone with nothing to do: who is awaited."""
    waiting = ", ".join(session.names[s] for s in session.awaited) or "-"
    return i18n.t(locale, "move.waiting_for", players=waiting)[:VALUE_LIMIT], "-"
