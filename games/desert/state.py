"""The immutable game state and its JSON form.

Squares are board indices (see ``board.py``). A *caravan id* is
``seat * 5 + colour`` with ``colour`` an index into ``COLOURS``; every piece
on the board (leader or camel) is stored as the caravan id it belongs to.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.contract import Seat
from games.desert.board import COORDS, NAMES, SIZE, index
from games.desert.model import COLOURS, AreaGain, Coord, Phase, Placement, parse_coord
from games.rng import Rng

NCOLOURS = len(COLOURS)
EMPTY = -1  # "nothing here" in the per-square and per-caravan tuples
DUMP_VERSION = 1


def caravan_id(seat: Seat, colour: int) -> int:
    return seat * NCOLOURS + colour


@dataclass(frozen=True)
class DesertState:
    players: int
    phase: Phase
    rng: Rng  # all setup draws are done; kept so the state is the whole story
    current: Seat  # the seat to act (meaningless once the game is over)
    rider_round: int  # phase A: 1-based round, else 0
    turn: int  # phase B: index of the current camel turn = camel turns played so far
    allowance: int  # phase B: camels still to place this turn (R12)
    passes: int  # consecutive camel turns without a camel (EG2)
    discarded: tuple[int, ...]  # per seat: colour put back (5 players), else EMPTY
    round1: tuple[int, ...]  # colours placed in rider round 1, by seat 0, 1, ... (R5)
    oases: frozenset[int]  # palm sites holding a palm tree
    water: tuple[int, ...]  # per square: value of the water hole there, 0 if none
    cells: tuple[int, ...]  # per square: caravan id of the piece there, or EMPTY
    leaders: tuple[int, ...]  # per caravan id: square of its leader, or EMPTY
    areas: tuple[int, ...]  # per square: seat owning the area it lies in, or EMPTY
    scored: frozenset[tuple[int, int]]  # (caravan id, oasis square) scored (SC2, SC3)
    water_taken: tuple[tuple[int, ...], ...]  # per seat: values of water holes taken
    supply: tuple[int, ...]  # per colour: camels left
    last_turn: tuple[Placement, ...]  # placements of the most recent turn (values included)


# --------------------------------------------------------------------------- dump / load


def _coord_json(c: Coord | None) -> str | None:
    return None if c is None else NAMES[index(c)]


def _placement_json(p: Placement) -> dict[str, Any]:
    return {
        "seat": p.seat,
        "kind": p.kind,
        "colour": p.colour,
        "at": _coord_json(p.at),
        "water_space": _coord_json(p.water_space),
        "water_points": p.water_points,
        "oases": [_coord_json(o) for o in p.oases],
        "areas": [
            {
                "spaces": [_coord_json(s) for s in a.spaces],
                "water_spaces": [_coord_json(s) for s in a.water_spaces],
                "water_points": a.water_points,
                "oases": [_coord_json(o) for o in a.oases],
            }
            for a in p.areas
        ],
    }


def dump_state(s: DesertState) -> dict[str, Any]:
    """A JSON-safe dict (str, int, bool, None, list, dict only)."""
    return {
        "version": DUMP_VERSION,
        "players": s.players,
        "phase": s.phase,
        "rng": s.rng.state,
        "current": s.current,
        "rider_round": s.rider_round,
        "turn": s.turn,
        "allowance": s.allowance,
        "passes": s.passes,
        "discarded": [COLOURS[c] if c != EMPTY else None for c in s.discarded],
        "round1": [COLOURS[c] for c in s.round1],
        "oases": sorted(NAMES[o] for o in s.oases),
        "water": {NAMES[i]: v for i, v in enumerate(s.water) if v},
        "pieces": [
            [NAMES[i], cid // NCOLOURS, COLOURS[cid % NCOLOURS], s.leaders[cid] == i]
            for i, cid in enumerate(s.cells)
            if cid != EMPTY
        ],
        "areas": {NAMES[i]: seat for i, seat in enumerate(s.areas) if seat != EMPTY},
        "scored": sorted(
            [cid // NCOLOURS, COLOURS[cid % NCOLOURS], NAMES[o]] for cid, o in s.scored
        ),
        "water_taken": [list(values) for values in s.water_taken],
        "supply": list(s.supply),
        "last_turn": [_placement_json(p) for p in s.last_turn],
    }


# Typed readers for dumped data: any malformation becomes a ValueError.


def _int(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"desert state: expected an integer, got {value!r}")
    return value


def _colour(value: object) -> int:
    if not isinstance(value, str) or value not in COLOURS:
        raise ValueError(f"desert state: unknown colour {value!r}")
    return COLOURS.index(value)


def _square(value: object) -> int:
    coord = parse_coord(value) if isinstance(value, str) else None
    if coord is None:
        raise ValueError(f"desert state: bad square {value!r}")
    return index(coord)


def _coord(value: object) -> Coord | None:
    return None if value is None else COORDS[_square(value)]


def _list(value: object) -> Sequence[Any]:
    if not isinstance(value, list):
        raise ValueError(f"desert state: expected a list, got {value!r}")
    return value


def _obj(value: object) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"desert state: expected an object, got {value!r}")
    return value


def _placement(d: Mapping[str, Any]) -> Placement:
    if d["kind"] not in ("discard", "leader", "camel", "pass"):
        raise ValueError(f"desert state: bad placement kind {d['kind']!r}")
    colour = d["colour"]
    if colour is not None:
        _colour(colour)
    water_points = d["water_points"]
    return Placement(
        seat=_int(d["seat"]),
        kind=d["kind"],
        colour=colour,
        at=_coord(d["at"]),
        water_space=_coord(d["water_space"]),
        water_points=None if water_points is None else _int(water_points),
        oases=tuple(COORDS[_square(o)] for o in _list(d["oases"])),
        areas=tuple(
            AreaGain(
                spaces=tuple(COORDS[_square(s)] for s in _list(a["spaces"])),
                water_spaces=tuple(COORDS[_square(s)] for s in _list(a["water_spaces"])),
                water_points=None if a["water_points"] is None else _int(a["water_points"]),
                oases=tuple(COORDS[_square(o)] for o in _list(a["oases"])),
            )
            for a in (_obj(x) for x in _list(d["areas"]))
        ),
    )


def load_state(data: Mapping[str, Any]) -> DesertState:
    """Inverse of :func:`dump_state`; raises ValueError on malformed data."""
    try:
        if data.get("version") != DUMP_VERSION:
            raise ValueError(f"desert state: unsupported version {data.get('version')!r}")
        players = _int(data["players"])
        if not 2 <= players <= 5:
            raise ValueError(f"desert state: bad player count {players}")
        phase = data["phase"]
        if phase not in ("discard", "riders", "camels", "over"):
            raise ValueError(f"desert state: bad phase {phase!r}")
        water = [0] * SIZE
        for name, value in _obj(data["water"]).items():
            water[_square(name)] = _int(value)
        cells = [EMPTY] * SIZE
        leaders = [EMPTY] * (players * NCOLOURS)
        for name, seat, colour, is_leader in (_list(p) for p in _list(data["pieces"])):
            sq, cid = _square(name), caravan_id(_int(seat), _colour(colour))
            if not 0 <= cid < len(leaders):
                raise ValueError(f"desert state: bad seat {seat!r}")
            cells[sq] = cid
            if is_leader is True:
                leaders[cid] = sq
        areas = [EMPTY] * SIZE
        for name, seat in _obj(data["areas"]).items():
            areas[_square(name)] = _int(seat)
        state = DesertState(
            players=players,
            phase=phase,
            rng=Rng(_int(data["rng"])),
            current=_int(data["current"]),
            rider_round=_int(data["rider_round"]),
            turn=_int(data["turn"]),
            allowance=_int(data["allowance"]),
            passes=_int(data["passes"]),
            discarded=tuple(EMPTY if c is None else _colour(c) for c in _list(data["discarded"])),
            round1=tuple(_colour(c) for c in _list(data["round1"])),
            oases=frozenset(_square(o) for o in _list(data["oases"])),
            water=tuple(water),
            cells=tuple(cells),
            leaders=tuple(leaders),
            areas=tuple(areas),
            scored=frozenset(
                (caravan_id(_int(seat), _colour(colour)), _square(oasis))
                for seat, colour, oasis in (_list(x) for x in _list(data["scored"]))
            ),
            water_taken=tuple(
                tuple(_int(v) for v in _list(values)) for values in _list(data["water_taken"])
            ),
            supply=tuple(_int(v) for v in _list(data["supply"])),
            last_turn=tuple(_placement(_obj(p)) for p in _list(data["last_turn"])),
        )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"desert state: malformed data ({exc!r})") from exc
    per_seat = (len(state.discarded), len(state.water_taken))
    if per_seat != (players, players) or len(state.supply) != NCOLOURS:
        raise ValueError("desert state: per-seat or per-colour lists have the wrong length")
    return state
