"""Oasis: the board and the components (read from ``map.txt`` and ``content.txt``
and checked at import), the moves and what a seat sees.

Squares are ints ``(row - 1) * 15 + (col - 1)``; ``A1`` is 0, row 1 at the top.
Landscape types are one letter everywhere (state, notation, views):
``o`` oasis, ``s`` steppe, ``d`` stony desert.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from games.contract import Seat

WIDTH = 15
HEIGHT = 13
SQUARES = WIDTH * HEIGHT
COLUMNS = "ABCDEFGHIJKLMNO"
COLOURS = ("red", "blue", "green", "yellow", "black")
LANDS = "osd"  # oasis, steppe, stony desert
LAND_NAMES = {"o": "oasis", "s": "steppe", "d": "stony"}
MULTIPLIERS = ("goods", "wells", "horses", "ovoos")
# The multiplier that scores each landscape (SC2-SC4); goods score camels (SC1).
MULTIPLIER_OF = {"o": "wells", "s": "horses", "d": "ovoos"}


def name(sq: int) -> str:
    return f"{COLUMNS[sq % WIDTH]}{sq // WIDTH + 1}"


def parse_square(word: str) -> int | None:
    word = word.strip().upper()
    if len(word) < 2 or word[0] not in COLUMNS or not word[1:].isdigit() or word[1] == "0":
        return None
    row = int(word[1:])
    if not 1 <= row <= HEIGHT:
        return None
    return (row - 1) * WIDTH + COLUMNS.index(word[0])


def col_row(sq: int) -> tuple[int, int]:
    return sq % WIDTH, sq // WIDTH


def _neighbours(sq: int) -> tuple[int, ...]:
    col, row = col_row(sq)
    out = []
    for dc, dr in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        c, r = col + dc, row + dr
        if 0 <= c < WIDTH and 0 <= r < HEIGHT:
            out.append(r * WIDTH + c)
    return tuple(out)


# Adjacent always means sharing a side (§3.1); built once, asked for constantly.
_ADJACENT = tuple(_neighbours(sq) for sq in range(SQUARES))


def adjacent(sq: int) -> tuple[int, ...]:
    return _ADJACENT[sq]


# --------------------------------------------------------------------------- the board


@dataclass(frozen=True)
class Board:
    cells: str  # per square: "=" track, "*" spring, "o"/"s"/"d" bonus, "." free
    track: tuple[int, ...]  # reading order
    springs: frozenset[int]
    bonus: dict[int, str]  # bonus square -> its landscape
    free: frozenset[int]

    def kind(self, sq: int) -> str:
        return self.cells[sq]


def groups(squares: set[int]) -> list[set[int]]:
    """The orthogonally connected groups of ``squares``."""
    left = set(squares)
    out = []
    while left:
        todo = [left.pop()]
        group = set(todo)
        while todo:
            for n in adjacent(todo.pop()):
                if n in left:
                    left.discard(n)
                    group.add(n)
                    todo.append(n)
        out.append(group)
    return out


def _load_board() -> Board:
    text = resources.files(__package__).joinpath("map.txt").read_text(encoding="utf-8")
    rows = [line.strip() for line in text.splitlines() if line.strip() and line[0] != "#"]
    if len(rows) != HEIGHT or any(len(r) != WIDTH for r in rows):
        raise ValueError("oasis map.txt: expected 13 rows of 15 squares")
    cells = "".join(rows)
    if set(cells) - set("=*osd."):
        raise ValueError("oasis map.txt: unknown square letter")
    board = Board(
        cells=cells,
        track=tuple(i for i, c in enumerate(cells) if c == "="),
        springs=frozenset(i for i, c in enumerate(cells) if c == "*"),
        bonus={i: c for i, c in enumerate(cells) if c in LANDS},
        free=frozenset(i for i, c in enumerate(cells) if c == "."),
    )
    problems = map_problems(board)
    if problems:
        raise ValueError("oasis map.txt fails the map checks: " + "; ".join(problems))
    return board


def map_problems(b: Board) -> list[str]:
    """The map checks of spec §3.2 (an empty list when the map is right)."""
    problems = []
    bonus_kinds = sorted(b.bonus.values())
    if (len(b.track), len(b.springs), len(b.free)) != (38, 6, 142) or bonus_kinds != sorted(
        "ooosssddd"
    ):
        problems.append("expected 38 track, 6 springs, 9 bonus (3 of each) and 142 free squares")
    track = set(b.track)
    ends = [sq for sq in track if sum(n in track for n in adjacent(sq)) == 1]
    junctions = [sq for sq in track if sum(n in track for n in adjacent(sq)) == 3]
    if len(groups(track)) != 1 or len(ends) != 3 or len(junctions) != 1:
        problems.append("the track must be one piece, one square wide, with three arms")
    if any(sum(n in track for n in adjacent(sq)) > 3 for sq in track):
        problems.append("the track is more than one square wide")
    edge = {sq for sq in range(SQUARES) if len(adjacent(sq)) < 4}
    if not set(ends) <= edge:
        problems.append("every arm of the track must end on the board edge")
    areas = groups(set(range(SQUARES)) - track)
    if sorted(len(a) for a in areas) != [47, 55, 55]:
        problems.append("the track must split the land into areas of 55, 55 and 47 squares")
    printed = set(b.springs) | set(b.bonus)
    for sq in printed:
        if any(n in track or n in printed for n in adjacent(sq)):
            problems.append(f"printed square {name(sq)} touches the track or another printed one")
    for area in areas:
        kinds = sorted(b.bonus[sq] for sq in area if sq in b.bonus)
        if kinds != sorted(LANDS) or len(area & b.springs) != 2:
            problems.append("each area needs 2 springs and one bonus square of each type")
    return problems


BOARD = _load_board()


# --------------------------------------------------------------------------- the components


@dataclass(frozen=True)
class CardKind:
    code: str  # OA2, CM3…
    effect: str  # a landscape letter, "camels", a multiplier, or "cards"
    amount: int


@dataclass(frozen=True)
class Content:
    cards: dict[str, CardKind]
    deck: tuple[str, ...]  # every card's code, in content order (54)
    tiles: dict[str, int]  # landscape letter -> pile size
    multipliers: dict[str, int]  # multiplier -> pile size
    pawns: int
    camels: int


_EFFECT_WORDS = {"oasis": "o", "steppe": "s", "stony": "d"}


def _load_content() -> Content:
    text = resources.files(__package__).joinpath("content.txt").read_text(encoding="utf-8")
    cards: dict[str, CardKind] = {}
    deck: list[str] = []
    tiles: dict[str, int] = {}
    multipliers: dict[str, int] = {}
    each: dict[str, int] = {}
    for line in text.splitlines():
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        if words[0] == "card" and len(words) == 5:
            code, effect, amount, copies = words[1], words[2], int(words[3]), int(words[4])
            effect = _EFFECT_WORDS.get(effect, effect)
            if effect not in (*LANDS, "camels", *MULTIPLIERS, "cards") or code in cards:
                raise ValueError(f"oasis content.txt: bad card line {line!r}")
            cards[code] = CardKind(code, effect, amount)
            deck.extend([code] * copies)
        elif words[0] == "tiles" and len(words) == 3:
            tiles[_EFFECT_WORDS[words[1]]] = int(words[2])
        elif words[0] == "multipliers" and len(words) == 3:
            multipliers[words[1]] = int(words[2])
        elif words[0] in ("pawns", "camels") and len(words) == 2:
            each[words[0]] = int(words[1])
        else:
            raise ValueError(f"oasis content.txt: cannot read {line!r}")
    content = Content(cards, tuple(deck), tiles, multipliers, each["pawns"], each["camels"])
    if (
        len(content.deck) != 54
        or sum(tiles.values()) != 88
        or set(tiles) != set(LANDS)
        or sum(multipliers.values()) != 62
        or set(multipliers) != set(MULTIPLIERS)
    ):
        raise ValueError("oasis content.txt: expected 54 cards, 88 landscape and 62 multipliers")
    return content


CONTENT = _load_content()
RANK_NAMES = ("noble", "aristocrat", "merchant", "monk", "shepherd")


def card(code: str) -> CardKind:
    return CONTENT.cards[code]


# --------------------------------------------------------------------------- moves

AUTO = -1  # the default claim: a pawn from the supply if one may go there, else none
NOCLAIM = -2  # decline an optional claim


@dataclass(frozen=True)
class Reveal:
    """Turn up the next card of one's stack for the offer (R1, R2)."""


@dataclass(frozen=True)
class Stop:
    """End one's offer and draw 3 - k cards under one's stack (R3)."""


@dataclass(frozen=True)
class Take:
    """Take the offer of ``seat`` (R6-R9)."""

    seat: Seat


@dataclass(frozen=True)
class Tile:
    """A landscape tile on a square (R10, R14-R20) and its pawn (R22).

    ``pawn`` is AUTO, NOCLAIM, or the square of one's pawn moved onto the tile.
    """

    land: str
    square: int
    pawn: int = AUTO


@dataclass(frozen=True)
class Camel:
    """One camel from the supply onto an empty track square (R11, R24)."""

    square: int


@dataclass(frozen=True)
class CamelMove:
    """One's camel moved to another empty track square (supply empty, R11)."""

    frm: int
    to: int


@dataclass(frozen=True)
class Bonus:
    """The new Noble's bonus action (R26): a tile, a camel, or nothing."""

    action: Tile | Camel | CamelMove | None = None


Move = Reveal | Stop | Take | Tile | Camel | CamelMove | Bonus


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class DomainView:
    land: str
    squares: tuple[int, ...]  # tiles and bonus squares, sorted
    owner: Seat | None
    pawn: int | None  # the square the owner's pawn stands on


@dataclass(frozen=True)
class OasisView:
    """Exactly what one seat (or a spectator, ``viewer=None``) may see (§9)."""

    players: int
    viewer: Seat | None
    phase: str  # offer, choose, bonus, over
    round: int  # 1-based
    ranks: tuple[int, ...]  # per seat, the rank tile held at the start of the round
    received: tuple[int | None, ...]  # per seat, the rank tile received this round
    order: tuple[Seat, ...]  # this round's rank order
    current: Seat | None  # who offers, chooses or takes the bonus now
    out: tuple[Seat, ...]  # seats without an offer this round (R5)
    stacks: tuple[int, ...]  # cards in each stack (their contents are secret)
    draw: int
    discard: tuple[str, ...]  # face up, public
    offers: tuple[tuple[str, ...], ...]  # per seat, the cards of its offer this round
    taken: tuple[Seat | None, ...]  # per offerer, who took the offer
    can_reveal: bool  # the current offerer may turn up another card (R2)
    lands: dict[str, int]  # landscape tiles left per pile
    piles: dict[str, int]  # multiplier tiles left per pile
    multipliers: tuple[dict[str, int] | None, ...]  # by type: one's own (all at the end)
    multiplier_counts: tuple[int, ...]  # per seat, face-down tiles held
    tiles: tuple[tuple[int, str], ...]  # (square, land)
    camels: tuple[tuple[int, Seat], ...]  # (track square, owner)
    domains: tuple[DomainView, ...]
    pawns_left: tuple[int, ...]
    camels_left: tuple[int, ...]
    herds: tuple[int, ...]  # per seat, its largest herd
    owned: tuple[dict[str, int], ...]  # per seat, squares owned per landscape
    pending: tuple[tuple[str, int], ...]  # the chooser's placements still owed
    last: tuple[int, ...]  # squares changed by the last acquisition or bonus
    last_seat: Seat | None
    awaiting: tuple[Seat, ...]
    scores: tuple[tuple[tuple[str, int], ...], ...] | None  # per seat breakdown at the end
    winners: tuple[Seat, ...]  # at the end: the best total, ties to the lowest rank tile (§8)
    end: str  # "track", "o", "s", "d" (the pile emptied), "" while playing
