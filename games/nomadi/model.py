"""Nomadi: the board (read from ``map.txt`` and checked at import), moves and views.

Squares are ints ``(row - 1) * 16 + (col - 1)``; ``A1`` is 0, row 1 at the top.
"""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

from games.contract import Seat

WIDTH = 16
HEIGHT = 19
SQUARES = WIDTH * HEIGHT
COLUMNS = "ABCDEFGHIJKLMNOP"
COLOURS = ("blue", "yellow", "red", "green", "black")
PAWNS_EACH = {2: 8, 3: 5, 4: 4, 5: 3}
START_MONEY = 5
CARD_VALUES = (1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, -1, -1, -1, -2, -2, -2)
DICE = 6
ROUND_CAP = 100  # EG2, §10.28
ARRIVAL_PAY = (8, 6, 4)  # EV4


def name(sq: int) -> str:
    return f"{COLUMNS[sq % WIDTH]}{sq // WIDTH + 1}"


def parse_square(word: str) -> int | None:
    word = word.strip().upper()
    if len(word) < 2 or word[0] not in COLUMNS or not word[1:].isdigit():
        return None
    row = int(word[1:])
    if not 1 <= row <= HEIGHT or word[1] == "0":
        return None
    return (row - 1) * WIDTH + COLUMNS.index(word[0])


def col_row(sq: int) -> tuple[int, int]:
    return sq % WIDTH, sq // WIDTH


def at(col: int, row: int) -> int | None:
    if 0 <= col < WIDTH and 0 <= row < HEIGHT:
        return row * WIDTH + col
    return None


@dataclass(frozen=True)
class Board:
    goal: frozenset[int]
    short_goal: frozenset[int]
    start: frozenset[int]
    water: tuple[int, ...]  # reading order
    valley: tuple[int, ...]  # per column, the last goal-side row (1-based)

    def goal_side(self, sq: int) -> bool:
        col, row = col_row(sq)
        return row + 1 <= self.valley[col]

    def goal_of(self, course: str) -> frozenset[int]:
        return self.short_goal if course == "short" else self.goal


def _load() -> Board:
    text = resources.files(__package__).joinpath("map.txt").read_text(encoding="utf-8")
    rows: list[str] = []
    valley: tuple[int, ...] = ()
    for line in text.splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        if line.startswith("valley"):
            valley = tuple(int(v) for v in line.split()[1:])
        else:
            rows.append(line.strip())
    if len(rows) != HEIGHT or any(len(r) != WIDTH for r in rows) or len(valley) != WIDTH:
        raise ValueError("nomadi map.txt: expected 19 rows of 16 squares and 16 valley rows")
    cells = "".join(rows)
    if set(cells) - set("GSWF."):
        raise ValueError("nomadi map.txt: unknown square letter")
    board = Board(
        goal=frozenset(i for i, c in enumerate(cells) if c == "G"),
        short_goal=frozenset(i for i, c in enumerate(cells) if c == "F"),
        start=frozenset(i for i, c in enumerate(cells) if c == "S"),
        water=tuple(i for i, c in enumerate(cells) if c == "W"),
        valley=valley,
    )
    _check(board)
    return board


def connected(squares: set[int]) -> bool:
    """R7 (and the map checks): these squares form one orthogonally connected group."""
    return len(groups(squares)) <= 1


def groups(squares: set[int]) -> list[set[int]]:
    """The orthogonally connected groups of ``squares``."""
    out = []
    todo = set(squares)
    while todo:
        start = todo.pop()
        group, stack = {start}, [start]
        while stack:
            for n in orthogonal(stack.pop()):
                if n in todo:
                    todo.discard(n)
                    group.add(n)
                    stack.append(n)
        out.append(group)
    return out


def _check(b: Board) -> None:
    """The map checks of spec §3.2."""
    goal_side = {sq for sq in range(SQUARES) if b.goal_side(sq)}
    start_side = set(range(SQUARES)) - goal_side
    problems = [
        len(b.goal) != 16 or len(b.start) != 16 or len(b.short_goal) != 16,
        len(b.water) != len(CARD_VALUES) - 5,
        len(goal_side) != 152 or not connected(goal_side) or not connected(start_side),
        not b.start <= start_side or not b.goal <= goal_side or not b.short_goal <= goal_side,
        any(w in b.goal | b.start | b.short_goal for w in b.water),
        any(surrounding(w) & set(b.water) for w in b.water),
    ]
    if any(problems):
        raise ValueError("nomadi map.txt fails the map checks")


def _around(sq: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    col, row = col_row(sq)
    out = (at(col + dc, row + dr) for dc, dr in steps)
    return tuple(n for n in out if n is not None)


# Neighbour tables, built once: move generation asks for them thousands of times a turn.
_ORTHOGONAL = tuple(_around(sq, ((0, -1), (1, 0), (0, 1), (-1, 0))) for sq in range(SQUARES))
_KING = ((-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1))
_SURROUNDING = tuple(frozenset(_around(sq, _KING)) for sq in range(SQUARES))


def orthogonal(sq: int) -> tuple[int, ...]:
    """The up to 4 squares sharing a side with ``sq``."""
    return _ORTHOGONAL[sq]


def surrounding(sq: int) -> frozenset[int]:
    """The up to 8 squares sharing a side or a corner with ``sq``."""
    return _SURROUNDING[sq]


BOARD = _load()


def king_distance(sq: int, area: frozenset[int]) -> int:
    col, row = col_row(sq)
    return min(max(abs(col - c), abs(row - r)) for c, r in map(col_row, area))


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class PlaceCard:
    """Setup step 4: the top card of the pile, unseen, on a square (R1)."""

    square: int


@dataclass(frozen=True)
class PlacePawn:
    """Setup step 5: one of one's pawns on an empty start square (R2)."""

    square: int


@dataclass(frozen=True)
class DieMove:
    """One die of value ``die`` moves the pawn on ``frm`` to ``to`` (R3-R10)."""

    die: int
    frm: int
    to: int


@dataclass(frozen=True)
class Reroll:
    pass


@dataclass(frozen=True)
class Pay:
    pass


@dataclass(frozen=True)
class Offer:
    price: int


@dataclass(frozen=True)
class Buy:
    pass


@dataclass(frozen=True)
class Refuse:
    pass


@dataclass(frozen=True)
class Bribe:
    """Option bribes: coins offered to the active player, with an optional message."""

    amount: int
    message: str = ""


@dataclass(frozen=True)
class NoBribe:
    pass


@dataclass(frozen=True)
class Accept:
    """The active player takes the bribe offered by ``seat``."""

    seat: Seat


Move = (
    PlaceCard | PlacePawn | DieMove | Reroll | Pay | Offer | Buy | Refuse | Bribe | NoBribe | Accept
)


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class TurnRecord:
    """A finished movement turn, for the board: its dice and what became of them."""

    seat: Seat
    dice: tuple[int, ...]
    used: tuple[bool, ...]  # unused dice were paid for (R12) unless the game ended (EG1)
    moves: tuple[tuple[int, int, int], ...]  # (die, from, to) in order
    paid: int


@dataclass(frozen=True)
class PawnView:
    owner: Seat
    square: int  # -1 while still in the box (caravan forming)
    arrived: bool
    left_start: bool


@dataclass(frozen=True)
class DealView:
    mover: Seat
    owner: Seat
    square: int
    price: int | None
    value: int | None  # only the mover (who looked) sees it


@dataclass(frozen=True)
class NomadiView:
    """Exactly what one seat (or a spectator, ``viewer=None``) may see."""

    players: int
    viewer: Seat | None
    course: str
    bribes: str
    phase: str  # setup (or cards, caravan: the alternate setup), turn, over
    active: Seat
    pawns: tuple[PawnView, ...]
    cards: tuple[int, ...]  # squares holding a face-down card
    pile: int  # cards left to place in setup
    owed: tuple[int, ...]  # per seat, the extra cards it has still to place (setup)
    coins: tuple[int, ...]
    held: tuple[tuple[int | None, ...], ...]  # per seat, each held card's value if known
    dice: tuple[int, ...]
    used: tuple[bool, ...]
    rerolled: bool
    deal: DealView | None
    offers: tuple[tuple[Seat, int, str], ...]
    arrivals: int
    crossed: bool
    rounds: int
    final: tuple[int, ...] | None  # scores once over
    path: tuple[int, ...]  # the last die move, square by square (highlighted)
    moves: tuple[tuple[int, int, int], ...]  # this turn's die moves so far: (die, from, to)
    previous: TurnRecord | None  # the last finished movement turn
    awaiting: tuple[Seat, ...]  # seats the game waits for (an optional bribe is not waited for)
    roll_choice: bool  # no die of the first roll is usable: reroll or pay (§5 step 2)
    end: str  # why the game ended: "third", "idle" or "rounds" ("" while it goes on)
