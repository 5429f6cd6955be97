"""Building desert positions for tests, by replacing fields of a fresh state."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from games.desert import COLOURS, GAME, DesertState, parse_coord
from games.desert.board import GRID_NEIGHBOURS, SIZE, TERRAIN, index
from games.desert.engine import start_allowance
from games.desert.state import EMPTY, caravan_id

# Five of the main palm sites (spec §3.2); L11 is left without a palm tree.
OASES = ("D3", "K3", "M7", "D8", "G12")


def sq(name: str) -> int:
    coord = parse_coord(name)
    assert coord is not None, name
    return index(coord)


def position(
    players: int = 4,
    *,
    leaders: Mapping[str, tuple[int, str]] = {},
    camels: Mapping[str, tuple[int, str]] = {},
    oases: Iterable[str] = OASES,
    water: Mapping[str, int] = {},
    areas: Mapping[str, int] = {},
    phase: str = "camels",
    seat: int = 0,
    turn: int | None = None,
    allowance: int | None = None,
    supply: Mapping[str, int] = {},
    seed: int = 7,
) -> DesertState:
    """A state with exactly the given pieces (square -> (seat, colour)).

    Water holes are those the seed dealt, moved off the chosen oases and put
    (value 1) on palm sites without a palm tree; ``water`` overrides squares
    (0 removes a hole). Caravans without a leader here do not exist (R7).
    Phase B by default, seat ``seat`` to play a full two-camel turn.
    """
    base = GAME.new(players, seed)
    oasis_squares = frozenset(sq(o) for o in oases)
    holes = list(base.water)
    for i in range(SIZE):
        if i in oasis_squares:
            holes[i] = 0
        elif TERRAIN[i] == "palm" and not holes[i]:
            holes[i] = 1
    for name, value in water.items():
        holes[sq(name)] = value
    cells = [EMPTY] * SIZE
    leader_at = [EMPTY] * (players * len(COLOURS))
    for name, (owner, colour) in {**leaders, **camels}.items():
        cid = caravan_id(owner, COLOURS.index(colour))
        cells[sq(name)] = cid
        if name in leaders:
            leader_at[cid] = sq(name)
    area_cells = [EMPTY] * SIZE
    for name, owner in areas.items():
        area_cells[sq(name)] = owner
    if turn is None:
        turn = 10 * players + seat  # well past the first camel round (R12)
    if allowance is None:
        allowance = start_allowance(players, turn) if phase == "camels" else 0
    return replace(
        base,
        phase=phase,  # type: ignore[arg-type]
        current=seat,
        rider_round=1 if phase == "riders" else 0,
        turn=turn,
        allowance=allowance,
        oases=oasis_squares,
        water=tuple(holes),
        cells=tuple(cells),
        leaders=tuple(leader_at),
        areas=tuple(area_cells),
        supply=tuple(supply.get(c, base.supply[i]) for i, c in enumerate(COLOURS)),
    )


def play(state: DesertState, seat: int, text: str) -> DesertState:
    """Parse a command and apply its moves, as the bot does."""
    for move in GAME.parse(state, seat, text):
        state = GAME.apply(state, seat, move)
    return state


def connected(squares: set[int]) -> bool:
    """An independent flood fill (the tests' own oracle, not the engine's)."""
    start = next(iter(squares))
    seen, stack = {start}, [start]
    while stack:
        for n in GRID_NEIGHBOURS[stack.pop()]:
            if n in squares and n not in seen:
                seen.add(n)
                stack.append(n)
    return seen == squares
