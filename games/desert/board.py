"""The static board of Through the Desert (spec §3), loaded from ``map.txt``.

Squares are numbered 0..265 in reading order (row 1 first, A to S within a
row): ``index((col, row)) == (row - 1) * 19 + col - 1``. The engine works on
these numbers; the public API (moves, views) uses :data:`Coord`.

The map is checked against the facts of spec §3.2 when it is loaded, so a
broken data file fails loudly at import time instead of corrupting games.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources
from types import MappingProxyType

from games.desert.model import COLUMNS, ROWS, Coord, Terrain, coord_name

WIDTH = len(COLUMNS)  # 19
SIZE = WIDTH * ROWS  # 266
SMALL_FIRST_COLUMN = COLUMNS.index("P") + 1  # columns P..S form the small section

# Map symbol -> (terrain, in the small section?)
_SYMBOLS: Mapping[str, tuple[Terrain, bool | None]] = {
    "#": ("mountain", None),  # mountains may stand in either section
    ".": ("sand", False),
    "W": ("water", False),
    "P": ("palm", False),
    ",": ("sand", True),
    "w": ("water", True),
    "p": ("palm", True),
}


class MapError(ValueError):
    """The map data file does not describe the board of spec §3.2."""


def index(coord: Coord) -> int:
    col, row = coord
    return (row - 1) * WIDTH + col - 1


COORDS: tuple[Coord, ...] = tuple((i % WIDTH + 1, i // WIDTH + 1) for i in range(SIZE))
NAMES: tuple[str, ...] = tuple(coord_name(c) for c in COORDS)


def _grid_neighbours(sq: int) -> tuple[int, ...]:
    """Neighbours on the 19 x 14 grid per spec §3.1 (even rows shifted right)."""
    col, row = COORDS[sq]
    if row % 2:
        cand = ((-1, 0), (1, 0), (-1, -1), (0, -1), (-1, 1), (0, 1))
    else:
        cand = ((-1, 0), (1, 0), (0, -1), (1, -1), (0, 1), (1, 1))
    return tuple(
        index((col + dc, row + dr))
        for dc, dr in cand
        if 1 <= col + dc <= WIDTH and 1 <= row + dr <= ROWS
    )


GRID_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_grid_neighbours(i) for i in range(SIZE))


def _axial(sq: int) -> tuple[int, int]:
    # Offset -> axial hex coordinates; rows 2, 4, ... (1-based) are shifted right.
    col, row = COORDS[sq]
    x, y = col - 1, row - 1
    return x - (y - (y & 1)) // 2, y


_AXIAL = tuple(_axial(i) for i in range(SIZE))


def hex_distance(a: int, b: int) -> int:
    """Steps between two squares on an unobstructed hex grid."""
    (q1, r1), (q2, r2) = _AXIAL[a], _AXIAL[b]
    dq, dr = q1 - q2, r1 - r2
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


# --------------------------------------------------------------------------- map file


@dataclass(frozen=True)
class Map:
    terrain: tuple[Terrain, ...]  # per square
    small: tuple[bool, ...]  # per square: in the small section (columns P-S)


def parse_map(text: str) -> Map:
    """Read the ASCII grid of spec §3.2 (see the header of ``map.txt``)."""
    lines = [
        line.split()
        for line in text.splitlines()
        if line.strip() and not line.lstrip().startswith(";")
    ]
    if not lines or lines[0] != list(COLUMNS):
        raise MapError("map: the first line must list the columns A to S")
    rows = lines[1:]
    if len(rows) != ROWS:
        raise MapError(f"map: expected {ROWS} rows, found {len(rows)}")
    terrain: list[Terrain] = []
    small: list[bool] = []
    for row, tokens in enumerate(rows, start=1):
        if tokens[0] != str(row) or len(tokens) != WIDTH + 1:
            raise MapError(f"map: row {row} must be its number then {WIDTH} symbols")
        for col, symbol in enumerate(tokens[1:], start=1):
            if symbol not in _SYMBOLS:
                raise MapError(f"map: unknown symbol {symbol!r} at {coord_name((col, row))}")
            kind, section = _SYMBOLS[symbol]
            in_small = col >= SMALL_FIRST_COLUMN
            if section is not None and section != in_small:
                raise MapError(
                    f"map: {symbol!r} at {coord_name((col, row))} is drawn in the wrong section"
                )
            terrain.append(kind)
            small.append(in_small)
    return Map(tuple(terrain), tuple(small))


def _components(squares: Iterable[int]) -> list[set[int]]:
    """Connected groups of ``squares`` under grid adjacency."""
    todo = set(squares)
    groups: list[set[int]] = []
    while todo:
        start = todo.pop()
        group, stack = {start}, [start]
        while stack:
            for n in GRID_NEIGHBOURS[stack.pop()]:
                if n in todo:
                    todo.remove(n)
                    group.add(n)
                    stack.append(n)
        groups.append(group)
    return groups


def validate_map(m: Map) -> None:
    """Check the counts and shape facts of spec §3.2; raise MapError if one fails."""

    def count(kind: Terrain, small: bool | None = None) -> int:
        return sum(
            1
            for t, s in zip(m.terrain, m.small, strict=True)
            if t == kind and (small is None or s == small)
        )

    expected = {
        "mountains": (count("mountain"), 47),
        "palm sites (main)": (count("palm", False), 6),
        "palm sites (small)": (count("palm", True), 1),
        "water circles (main)": (count("water", False), 34),
        "water circles (small)": (count("water", True), 9),
        "sand (main)": (count("sand", False), 136),
        "sand (small)": (count("sand", True), 33),
    }
    for what, (found, want) in expected.items():
        if found != want:
            raise MapError(f"map: {what}: expected {want}, found {found}")
    playable = [i for i in range(SIZE) if m.terrain[i] != "mountain"]
    palms = [i for i in playable if m.terrain[i] == "palm"]
    for p in palms:
        near = [m.terrain[n] for n in GRID_NEIGHBOURS[p]]
        if len(near) != 6 or "mountain" in near:
            raise MapError(f"map: palm site {NAMES[p]} needs 6 non-mountain neighbours")
        if "palm" in near or "water" in near:
            raise MapError(f"map: palm site {NAMES[p]} touches another palm site or water")
    for label, squares in (
        ("playable spaces", playable),
        ("main section", [i for i in playable if not m.small[i]]),
        ("small section", [i for i in playable if m.small[i]]),
    ):
        if len(_components(squares)) != 1:
            raise MapError(f"map: the {label} must form one connected group")
    # The central range: mountain groups that do not touch the edge of the grid.
    on_edge = {i for i in range(SIZE) if len(GRID_NEIGHBOURS[i]) < 6}
    mountains = [i for i in range(SIZE) if m.terrain[i] == "mountain"]
    inner = [g for g in _components(mountains) if not g & on_edge]
    if len(inner) != 1 or len(inner[0]) != 9:
        raise MapError("map: the central range must be one group of 9 mountains")


def load_map() -> Map:
    text = resources.files("games.desert").joinpath("map.txt").read_text(encoding="utf-8")
    m = parse_map(text)
    validate_map(m)
    return m


MAP = load_map()
TERRAIN: tuple[Terrain, ...] = MAP.terrain
SMALL: tuple[bool, ...] = MAP.small
# Every grid square with its printed terrain, for views (shared, read-only).
TERRAIN_BY_COORD: Mapping[Coord, Terrain] = MappingProxyType(
    {COORDS[i]: TERRAIN[i] for i in range(SIZE)}
)


# --------------------------------------------------------------------------- layouts


@dataclass(frozen=True)
class Layout:
    """The board as one player count uses it (spec §3.3, §10.6).

    With 2-3 players the small section is inactive: it counts as mountain, so
    inactive squares are simply left out of ``neighbours``.
    """

    active: frozenset[int]  # playable squares in use
    neighbours: tuple[tuple[int, ...], ...]  # per square: its active neighbours
    palm_sites: tuple[int, ...]  # active palm sites, reading order
    water_circles: tuple[int, ...]  # active water circles, reading order


@cache
def _layout(whole_board: bool) -> Layout:
    active = frozenset(
        i for i in range(SIZE) if TERRAIN[i] != "mountain" and (whole_board or not SMALL[i])
    )
    neighbours = tuple(
        tuple(n for n in GRID_NEIGHBOURS[i] if n in active) if i in active else ()
        for i in range(SIZE)
    )
    return Layout(
        active=active,
        neighbours=neighbours,
        palm_sites=tuple(i for i in sorted(active) if TERRAIN[i] == "palm"),
        water_circles=tuple(i for i in sorted(active) if TERRAIN[i] == "water"),
    )


def layout(players: int) -> Layout:
    """The active board: main section only with 2-3 players, whole board with 4-5."""
    return _layout(players >= 4)
