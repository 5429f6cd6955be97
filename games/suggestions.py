"""Autocomplete for every game: the commands a seat could send now, filtered by
what it typed, and the bot's idea of its whole turn (the ★).

Suggestions are views too: they never depend on what the asking seat cannot
see. Whole moves typed are played on the real state to offer what may follow,
but never past a step that reveals (:attr:`games.contract.Step.reveals`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

from games.contract import Bot, Game, MoveError, MoveT, Seat, StateT, bot_move
from games.text import Term

T = TypeVar("T")


@dataclass(frozen=True)
class Suggestion:
    """One autocomplete entry: what is shown and the full command it stands for.

    ``label`` is in the reader's words; ``hint`` (a Term, or None) says what
    the last move does. ``command`` is notation that ``parse`` accepts.
    """

    label: str
    command: str
    hint: Term | None = None


def complete(
    game: Game[StateT, MoveT],
    state: StateT,
    seat: Seat,
    typed: str,
    limit: int = 25,
    words_of: Callable[[MoveT], str] | None = None,
) -> list[Suggestion]:
    """Commands ``seat`` could send now, filtered by what was typed.

    ``words_of`` gives a move in the reader's language (``blanc F7``); what
    was typed matches it as well as the notation. If ``typed`` starts with
    whole moves (``"orange F7 "``), the legal continuations after them are
    offered, so a compound turn can be entered in one command. With more
    candidates than ``limit``, they are spread over the kinds of move (the
    notation's first word: a colour, an action) instead of filling the list
    with one kind. Returns [] when the seat has nothing to do.
    """
    if seat not in game.to_act(state):
        return []

    def forms(move: MoveT) -> tuple[str, str]:
        notation = game.format_move(move)
        return notation, words_of(move) if words_of is not None else notation

    prefix: list[tuple[str, str]] = []  # (notation, words) of whole moves typed
    scratch = state
    rest = typed.lstrip()
    # Peel off complete leading moves (followed by a separator) one by one.
    while legal := game.legal_moves(scratch, seat):
        lowered = rest.lower()
        matched: tuple[int, MoveT] | None = None
        for move in legal:
            for text in forms(move):
                size = len(text.lower())
                # The longest move typed: "o C4" must not cut "o C4 noclaim" short.
                if _starts_with_move(lowered, text) and (matched is None or size > matched[0]):
                    matched = (size, move)
        if matched is None:
            break
        length, move = matched
        try:
            step = game.play(scratch, seat, move)
        except MoveError:
            break
        if step.reveals:
            # What may follow depends on what the move shows: offer the
            # command up to it, and nothing after it, whatever was typed.
            notation, words = forms(move)
            command = game.join_moves([*(n for n, _ in prefix), notation])
            if not parses(game, state, seat, command):
                return []
            label = game.join_moves([*(w for _, w in prefix), words])
            return [Suggestion(label, command, game.move_hint(scratch, seat, move))]
        if seat not in game.to_act(step.state) or step.ends_turn:
            break
        prefix.append(forms(move))
        scratch = step.state
        rest = rest[length:].lstrip(" ,;")
    needle = _norm(rest)
    matching: list[tuple[MoveT, str, str]] = []
    for move in game.legal_moves(scratch, seat):
        notation, words = forms(move)
        if not needle or needle in _norm(notation) or needle in _norm(words):
            matching.append((move, notation, words))
    head_notation = game.join_moves([n for n, _ in prefix])
    head_words = game.join_moves([w for _, w in prefix])
    out: list[Suggestion] = []
    for move, notation, words in _spread(matching, limit, _kind):
        command = game.join_moves([*(n for n, _ in prefix), notation])
        if prefix and not parses(game, state, seat, command):
            continue  # the game ends a command there (e.g. after a reveal)
        out.append(
            Suggestion(
                label=game.join_moves([*(w for _, w in prefix), words]),
                command=command,
                hint=game.move_hint(scratch, seat, move),
            )
        )
    if not out and prefix and parses(game, state, seat, head_notation):
        out.append(Suggestion(label=head_words, command=head_notation))
    return out


# A candidate as filtering needs it: its notation and words as a needle is
# looked for in them (see _norm), and its kind of move (see _spread).
Match = tuple[str, str, str]


@dataclass(frozen=True)
class Candidate:
    """One move the seat could send now on its own: as :func:`complete` shows it
    (``suggestion``) and, worked out once where the list is made, as it matches
    what is typed, so that filtering is string tests alone."""

    suggestion: Suggestion
    lowered: tuple[str, str]  # its notation and words, lower case
    match: Match  # how a needle is looked for in it, and its kind of move


def candidates(
    game: Game[StateT, MoveT],
    state: StateT,
    seat: Seat,
    words_of: Callable[[MoveT], str] | None = None,
    most: int | None = None,
) -> tuple[Candidate, ...] | None:
    """Every one-move command ``seat`` could send now, with its hint: what
    :func:`complete` filters whenever nothing typed starts with a whole move, so
    later keystrokes can be answered from it (:func:`filter_candidates`). None
    when there are more than ``most``."""
    if seat not in game.to_act(state):
        return ()
    legal = game.legal_moves(state, seat)
    if most is not None and len(legal) > most:
        return None
    found = []
    for move in legal:
        notation = game.format_move(move)
        words = words_of(move) if words_of is not None else notation
        label, command = game.join_moves([words]), game.join_moves([notation])
        hint = game.move_hint(state, seat, move)
        found.append(
            Candidate(
                Suggestion(label, command, hint),
                (notation.lower(), words.lower()),
                (_norm(notation), _norm(words), notation.split(" ", 1)[0]),
            )
        )
    return tuple(found)


def move_forms(found: tuple[Candidate, ...]) -> frozenset[str]:
    """Every way ``found``'s moves are typed, lower case (see :func:`filter_candidates`)."""
    return frozenset(text for c in found for text in c.lowered)


def filter_candidates(
    found: Sequence[Match], forms: frozenset[str], typed: str, limit: int = 25
) -> list[int] | None:
    """Where among the candidates (``found``: their matches) the suggestions
    :func:`complete` gives for ``typed`` on the state they were listed from are,
    in its order; or None when ``typed`` starts with a whole move: what may
    follow it is known only by playing it, which :func:`complete` does.
    ``forms``: :func:`move_forms` of the candidates."""
    rest = typed.lstrip()
    lowered = rest.lower()
    # A whole move is followed by a separator: only the text before one can be it.
    if any(lowered[:k] in forms for k, char in enumerate(lowered) if char in _SEPARATORS):
        return None
    needle = _norm(rest)
    matching = [
        (i, group)
        for i, (notation, words, group) in enumerate(found)
        if not needle or needle in notation or needle in words
    ]
    return [i for i, _ in _spread(matching, limit, lambda item: item[1])]


_SEPARATORS = (" ", ",", ";")  # what may follow a whole move typed


def _starts_with_move(lowered: str, text: str) -> bool:
    """Whether ``lowered`` (typed, lower case) starts with the move ``text``,
    followed by a separator: a whole move, with more to come."""
    text = text.lower()
    return lowered.startswith(text) and lowered[len(text) : len(text) + 1] in _SEPARATORS


def whole_turn(
    game: Game[StateT, MoveT],
    bot: Bot,
    state: StateT,
    seat: Seat,
    seeds: Callable[[int], int],
    max_moves: int = 12,  # a Nomadi setup: 11 placements at 2 players
) -> tuple[MoveT, ...]:
    """The bot's idea of the seat's turn (the ★ suggestion): its moves one by
    one, ``seeds(n)`` seeding the n-th, up to the end of the turn and never
    past a step that shows the seat something: what the bot would do after
    it is the player's to decide once he has seen it."""
    moves: list[MoveT] = []
    for number in range(max_moves):
        move = bot_move(game, bot, state, seat, seeds(number))
        step = game.play(state, seat, move)
        moves.append(move)
        state = step.state
        if step.ends_turn or step.reveals or seat not in game.to_act(state):
            break
    return tuple(moves)


def turn_suggestion(
    game: Game[StateT, MoveT],
    bot: Bot,
    state: StateT,
    seat: Seat,
    seeds: Callable[[int], int],
    max_chars: int = 100,
) -> tuple[MoveT, ...]:
    """The ★ suggestion: the first moves of :func:`whole_turn` that make one
    command of at most ``max_chars`` (Discord's limit) which ``parse`` takes
    whole, so the bot never refuses what it recommended. Empty unless at
    least two moves fit: a single move is among the plain suggestions."""
    moves = list(whole_turn(game, bot, state, seat, seeds))
    while len(moves) >= 2:
        command = game.format_command(moves)
        if len(command) <= max_chars and parses(game, state, seat, command):
            return tuple(moves)
        moves.pop()  # too long, or the game ends a command earlier (a card deal)
    return ()


def parses(game: Game[StateT, MoveT], state: StateT, seat: Seat, command: str) -> bool:
    """Whether ``parse`` takes the whole command: a game may refuse some
    sequences that each move allows (Nomadi ends a command at a card deal)."""
    try:
        game.parse(state, seat, command)
    except MoveError:
        return False
    return True


def _kind(item: tuple[object, str, str]) -> str:
    """The kind of move of a (move, notation, words): the notation's first word."""
    return item[1].split(" ", 1)[0]


def _spread(items: list[T], limit: int, group_of: Callable[[T], str]) -> list[T]:
    """At most ``limit`` items, taken in turn from each group (``group_of``: the
    kind of move), in their original order within a group."""
    if len(items) <= limit:
        return items
    groups: dict[str, list[T]] = {}
    for item in items:
        groups.setdefault(group_of(item), []).append(item)
    picked: list[T] = []
    depth = 0
    while len(picked) < limit:
        for group in groups.values():
            if depth < len(group) and len(picked) < limit:
                picked.append(group[depth])
        depth += 1
    return picked


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())
