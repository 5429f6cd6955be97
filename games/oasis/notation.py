"""Oasis notation (spec §11): ``reveal``, ``stop``, ``take 3``, ``o C4``,
``s F5 noclaim``, ``d J7 claim from C4``, ``camel K9``, ``camel L2>K9``,
``bonus s F5``, ``bonus pass``. Moves may be chained with ``;``, ``,`` or spaces.

French words are read too (``révéler``, ``prendre 3``, ``chameau K9``,
``o C4 sans pion``, ``d J7 pion de C4``, ``bonus passer``): they are what
French players see suggested. Landscape letters are the same in both
languages: ``o`` oasis, ``s`` steppe, ``d`` désert de pierre.
"""

from __future__ import annotations

import re
import unicodedata

from games.oasis.messages import invalid
from games.oasis.model import (
    AUTO,
    NOCLAIM,
    Bonus,
    Camel,
    CamelMove,
    Move,
    Reveal,
    Stop,
    Take,
    Tile,
    name,
    parse_square,
)

CLAIM = -3  # an explicit "claim": the supply pawn, which the engine checks is possible
_SQ = r"([a-o](?:1[0-3]|[1-9]))"
_END = r"(?=$|[\s;,])"
_LAND_WORDS = {
    "o": "o", "oasis": "o",
    "s": "s", "steppe": "s",
    "d": "d", "stony": "d", "desert": "d", "pierre": "d", "stone": "d",
}  # fmt: skip
_CLAIM = (
    r"(?:\s+(claim\s+from\s+" + _SQ + r"|pion\s+(?:de|depuis)\s+" + _SQ
    + r"|noclaim|sans\s+pion|claim|pion))?"
)  # fmt: skip
_LAND = "(" + "|".join(sorted(_LAND_WORDS, key=len, reverse=True)) + ")"
_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (kind, re.compile(pattern + _END, re.IGNORECASE))
    for kind, pattern in (
        ("bonus", r"bonus(?=\s)"),
        ("pass", r"(?:pass|passer)"),
        ("reveal", r"(?:reveal|reveler|revele)"),
        ("stop", r"(?:stop|arreter|arrete)"),
        # "take 2 (🔴 Zoë)", as the suggestion reads: the words in brackets
        # (a name, one level of brackets inside) are a comment.
        ("take", r"(?:take|prendre|prends)\s+([1-5])(?:\s*\((?:[^()]|\([^()]*\)){0,80}\))?"),
        ("move", r"(?:camel|chameau)\s+" + _SQ + r"\s*[>-]\s*" + _SQ),
        ("camel", r"(?:camel|chameau)\s+" + _SQ),
        ("tile", _LAND + r"\s+" + _SQ + _CLAIM),
    )
)


def _plain(text: str) -> str:
    """Lower case without accents (``Révéler`` -> ``reveler``); same length for
    the Latin letters a command uses."""
    decomposed = unicodedata.normalize("NFD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _sq(word: str) -> int:
    sq = parse_square(word)
    if sq is None:  # the patterns only let board squares through
        raise invalid("oasis.err.syntax", text=word)
    return sq


def _tile(groups: tuple[str | None, ...]) -> Tile:
    land, square, claim, claim_from, pion_de = groups[:5]
    pawn = AUTO
    if claim is not None:
        word = claim.lower().split()[0]
        if claim_from or pion_de:
            pawn = _sq(claim_from or pion_de or "")
        elif word in ("noclaim", "sans"):
            pawn = NOCLAIM
        else:
            pawn = CLAIM
    return Tile(_LAND_WORDS[(land or "").lower()], _sq(square or ""), pawn)


def _match(rest: str) -> tuple[str, re.Match[str]]:
    for kind, pattern in _PATTERNS:
        found = pattern.match(rest)
        if found:
            return kind, found
    raise invalid("oasis.err.syntax", text=rest.split()[0][:20])


def parse_text(text: str) -> tuple[Move, ...]:
    """The atomic moves a command names, in order (syntax only). A ``bonus``
    prefix wraps the placement (or ``pass``) that follows it."""
    moves: list[Move] = []
    rest = _plain(text.strip())
    bonus = False
    while True:
        rest = rest.lstrip(" \t\n;,")
        if not rest:
            break
        kind, found = _match(rest)
        rest = rest[found.end() :]
        if kind == "bonus":
            bonus = True
            continue
        groups = found.groups()
        move: Move
        if kind == "pass":  # only the bonus can be passed
            moves.append(Bonus(None))
            bonus = False
            continue
        if kind == "reveal":
            move = Reveal()
        elif kind == "stop":
            move = Stop()
        elif kind == "take":
            move = Take(int(groups[0]) - 1)
        elif kind == "move":
            move = CamelMove(_sq(groups[0]), _sq(groups[1]))
        elif kind == "camel":
            move = Camel(_sq(groups[0]))
        else:
            move = _tile(groups)
        if bonus:
            if not isinstance(move, Tile | Camel | CamelMove):
                raise invalid("oasis.err.bonus_syntax")
            move, bonus = Bonus(move), False
        moves.append(move)
    if bonus:
        raise invalid("oasis.err.bonus_syntax")
    if not moves:
        raise invalid("oasis.err.empty")
    return tuple(moves)


def format_move(move: Move) -> str:
    if isinstance(move, Reveal):
        return "reveal"
    if isinstance(move, Stop):
        return "stop"
    if isinstance(move, Take):
        return f"take {move.seat + 1}"
    if isinstance(move, Tile):
        text = f"{move.land} {name(move.square)}"
        if move.pawn == NOCLAIM:
            return f"{text} noclaim"
        if move.pawn >= 0:
            return f"{text} claim from {name(move.pawn)}"
        return text
    if isinstance(move, Camel):
        return f"camel {name(move.square)}"
    if isinstance(move, CamelMove):
        return f"camel {name(move.frm)}>{name(move.to)}"
    if isinstance(move, Bonus):
        return "bonus pass" if move.action is None else f"bonus {format_move(move.action)}"
    raise ValueError(f"not an Oasis move: {move!r}")
