"""Nomadi notation (spec §11): ``card F9``, ``place N17``, ``3 J12-I10``, ``reroll``,
``pay``, ``offer 2``, ``buy``, ``refuse``, and with bribes ``bribe 3 [message]``,
``pass``, ``accept 2``. Moves may be chained with ``;``, ``,`` or spaces.

A square alone is a setup placement: a pawn on a start square, a card
anywhere else (no card may lie in the start area, no pawn be placed outside
it). So a whole setup reads ``card F9 G10 place M16 N16 O16``, the way
:func:`format_moves` writes it.

The French words (``carte F9``, ``placer N17``, ``relancer``, ``payer``,
``prix 2``, ``acheter``, ``refuser``, ``soudoyer 3``, ``passer``,
``accepter 2``) are read too: they are what French players see suggested.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from games.nomadi.messages import invalid
from games.nomadi.model import (
    BOARD,
    Accept,
    Bribe,
    Buy,
    DieMove,
    Move,
    NoBribe,
    Offer,
    Pay,
    PlaceCard,
    PlacePawn,
    Refuse,
    Reroll,
    name,
    parse_square,
)

MESSAGE_MAX = 200
_SQ = r"([a-p](?:1[0-9]|[1-9]))"
_END = r"(?=$|[\s;,])"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern + _END, re.IGNORECASE))
    for kind, pattern in (
        ("card", r"card\s+" + _SQ),
        ("place", r"place\s+" + _SQ),
        ("die", r"([1-6])\s+" + _SQ + r"\s*-\s*" + _SQ),
        ("word", r"(reroll|pay|buy|refuse|pass)"),
        ("offer", r"offer\s+(\d{1,4})"),
        # "accept 2 (🔵 Zoë)", as the suggestion reads: the bracket is a comment.
        ("accept", r"accept\s+(\d{1,2})(?:\s*\((?:[^()]|\([^()]*\)){0,80}\))?"),
        ("square", _SQ),
    )
)
# French command words (and a few common forms) -> the notation's word.
FRENCH_WORDS = {
    "carte": "card", "placer": "place", "pose": "place", "poser": "place",
    "relancer": "reroll", "relance": "reroll", "payer": "pay", "paie": "pay",
    "prix": "offer", "acheter": "buy", "achète": "buy", "achete": "buy",
    "refuser": "refuse", "soudoyer": "bribe", "passer": "pass", "passe": "pass",
    "accepter": "accept", "accepte": "accept",
}  # fmt: skip
_LEADING_WORD = re.compile(r"([^\W\d_]+)(?=$|[\s;,])")
_BRIBE = re.compile(r"bribe\s+(\d{1,4})(?:$|\s+(.*))", re.IGNORECASE | re.DOTALL)
_WORDS: dict[str, Move] = {
    "reroll": Reroll(),
    "pay": Pay(),
    "buy": Buy(),
    "refuse": Refuse(),
    "pass": NoBribe(),
}


def _english(rest: str) -> str:
    """``rest`` with its first word in the notation's English, if it was French."""
    found = _LEADING_WORD.match(rest)
    if found is None:
        return rest
    english = FRENCH_WORDS.get(found.group(1).lower())
    return rest if english is None else english + rest[found.end() :]


def _sq(word: str) -> int:
    sq = parse_square(word)
    if sq is None:  # the patterns only let board squares through
        raise invalid("nomadi.err.syntax", text=word)
    return sq


def _match(rest: str) -> tuple[str, re.Match[str]]:
    for kind, pattern in _PATTERNS:
        found = pattern.match(rest)
        if found:
            return kind, found
    raise invalid("nomadi.err.syntax", text=rest.split()[0][:20])


def parse_text(text: str) -> tuple[Move, ...]:
    """The atomic moves a command names, in order (syntax only)."""
    moves: list[Move] = []
    rest = text.strip()
    while True:
        rest = _english(rest.lstrip(" \t\n;,"))
        if not rest:
            break
        bribe = _BRIBE.match(rest)
        if bribe:  # the message runs to the end of the command
            message = " ".join((bribe.group(2) or "").split())
            if len(message) > MESSAGE_MAX:
                raise invalid("nomadi.err.message", count=MESSAGE_MAX)
            moves.append(Bribe(int(bribe.group(1)), message))
            break
        kind, found = _match(rest)
        groups = found.groups()
        if kind == "card":
            moves.append(PlaceCard(_sq(groups[0])))
        elif kind == "place":
            moves.append(PlacePawn(_sq(groups[0])))
        elif kind == "square":
            moves.append(_placement(_sq(groups[0])))
        elif kind == "die":
            moves.append(DieMove(int(groups[0]), _sq(groups[1]), _sq(groups[2])))
        elif kind == "word":
            moves.append(_WORDS[groups[0].lower()])
        elif kind == "offer":
            moves.append(Offer(int(groups[0])))
        else:
            moves.append(Accept(int(groups[0]) - 1))
        rest = rest[found.end() :]
    if not moves:
        raise invalid("nomadi.err.empty")
    return tuple(moves)


def _placement(sq: int) -> Move:
    """A square alone: the one placement it can be (R1, R2)."""
    return PlacePawn(sq) if sq in BOARD.start else PlaceCard(sq)


def format_moves(moves: Sequence[Move]) -> str:
    """Several moves as one command: a run of cards or pawns names its word
    once (``card F9 G10 place M16 N16``), since a square alone reads back as
    the same placement; everything else as :func:`format_move` writes it."""
    parts: list[str] = []
    previous: Move | None = None
    for move in moves:
        if (
            isinstance(move, PlaceCard | PlacePawn)
            and type(move) is type(previous)
            and _placement(move.square) == move
        ):
            parts.append(name(move.square))
        else:
            parts.append(format_move(move))
        previous = move
    return " ".join(parts)


def format_move(move: Move) -> str:
    if isinstance(move, PlaceCard):
        return f"card {name(move.square)}"
    if isinstance(move, PlacePawn):
        return f"place {name(move.square)}"
    if isinstance(move, DieMove):
        return f"{move.die} {name(move.frm)}-{name(move.to)}"
    if isinstance(move, Offer):
        return f"offer {move.price}"
    if isinstance(move, Bribe):
        return f"bribe {move.amount} {move.message}".rstrip()
    if isinstance(move, Accept):
        return f"accept {move.seat + 1}"
    for word, value in _WORDS.items():
        if value == move:
            return word
    raise ValueError(f"not a Nomadi move: {move!r}")
