"""The command notation of spec §11: reading text, writing moves.

Reading here is syntax only (raising InvalidMove); the engine then checks
the moves against the rules.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from games.desert.messages import invalid
from games.desert.model import (
    Coord,
    Discard,
    Move,
    Pass,
    PlaceCamel,
    PlaceLeader,
    coord_name,
    parse_coord,
)

# English names and codes (§10.23) plus the French names.
COLOUR_WORDS: Mapping[str, str] = {
    "white": "white", "w": "white", "blanc": "white",
    "yellow": "yellow", "y": "yellow", "jaune": "yellow",
    "orange": "orange", "o": "orange",
    "pink": "pink", "p": "pink", "rose": "pink",
    "green": "green", "g": "green", "vert": "green",
}  # fmt: skip
DISCARD_WORDS = frozenset({"discard", "défausse", "defausse"})
PASS_WORDS = frozenset({"pass", "passe"})
MAX_LENGTH = 200  # longer text is not a command; do not even tokenise it
MAX_CAMELS = 2  # R12: a turn never places more


@dataclass(frozen=True)
class Command:
    kind: Literal["discard", "pass", "place"]
    colour: str = ""  # for "discard"
    places: tuple[tuple[str, Coord], ...] = ()  # for "place": (colour, space) in order


def _shown(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 40 else text[:39] + "…"


def read(text: str) -> Command:
    """Tokenise and recognise a command; raise InvalidMove if it is not notation."""
    if len(text) > MAX_LENGTH:
        raise invalid("desert.syntax", text=_shown(text))
    tokens = unicodedata.normalize("NFC", text).lower().replace(",", " ").split()
    if not tokens:
        raise invalid("desert.empty")
    head = tokens[0]
    if head in DISCARD_WORDS or head in PASS_WORDS:
        if head in PASS_WORDS and len(tokens) == 1:
            return Command("pass")
        if head in DISCARD_WORDS and len(tokens) == 2:
            return Command("discard", colour=_colour(tokens[1]))
        raise invalid("desert.syntax", text=_shown(text))
    pairs = list(zip(tokens[::2], tokens[1::2], strict=False))
    # Name the bad word only when the text looks like placements at all.
    if len(tokens) % 2 or not any(
        c in COLOUR_WORDS or parse_coord(sp) is not None for c, sp in pairs
    ):
        raise invalid("desert.syntax", text=_shown(text))
    if len(tokens) > 2 * MAX_CAMELS:
        raise invalid("desert.too_many")
    places = []
    for colour_word, space_word in pairs:
        colour = _colour(colour_word)
        space = parse_coord(space_word)
        if space is None:
            raise invalid("desert.bad_space", word=space_word.upper())
        places.append((colour, space))
    return Command("place", places=tuple(places))


def _colour(word: str) -> str:
    if word not in COLOUR_WORDS:
        raise invalid("desert.unknown_colour", word=word)
    return COLOUR_WORDS[word]


def format_move(move: Move) -> str:
    """``orange F7``, ``discard pink``, ``pass``; :func:`read` accepts each back."""
    if isinstance(move, Discard):
        return f"discard {move.colour}"
    if isinstance(move, PlaceLeader | PlaceCamel):
        return f"{move.colour} {coord_name(move.at)}"
    if isinstance(move, Pass):
        return "pass"
    raise TypeError(f"not a desert move: {move!r}")
