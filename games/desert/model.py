"""Value types of Through the Desert: coordinates, moves, events and views.

The engine (``engine.py``) works on these; the renderer and the cogs only
ever see :class:`DesertView`, never the raw state.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from games.contract import Outcome, Seat

# Camel colours, in a fixed order (spec §10.23), with their one-letter codes.
COLOURS: tuple[str, ...] = ("white", "yellow", "orange", "pink", "green")
COLOUR_CODES: Mapping[str, str] = {
    "white": "w",
    "yellow": "y",
    "orange": "o",
    "pink": "p",
    "green": "g",
}

COLUMNS = "ABCDEFGHIJKLMNOPQRS"  # 19 columns
ROWS = 14

# (column index 1..19, row 1..14); A1 is (1, 1).
Coord = tuple[int, int]

Terrain = Literal["mountain", "sand", "water", "palm"]
Phase = Literal["discard", "riders", "camels", "over"]


def coord_name(coord: Coord) -> str:
    col, row = coord
    return f"{COLUMNS[col - 1]}{row}"


def parse_coord(text: str) -> Coord | None:
    """``"f7"`` -> (6, 7); None if it is not a square of the 19 x 14 grid."""
    text = text.strip().upper()
    if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit():
        return None
    row = int(text[1:])
    if not 1 <= row <= ROWS:
        return None
    return (COLUMNS.index(text[0]) + 1, row)


# --------------------------------------------------------------------------- moves


@dataclass(frozen=True)
class Discard:
    """Setup with 5 players: put this colour's leader back in the box."""

    colour: str


@dataclass(frozen=True)
class PlaceLeader:
    """Phase A: place the leader (rider) of ``colour``."""

    colour: str
    at: Coord


@dataclass(frozen=True)
class PlaceCamel:
    """Phase B: add one camel of ``colour`` to the player's caravan."""

    colour: str
    at: Coord


@dataclass(frozen=True)
class Pass:
    """Phase B: no legal placement at all (R13)."""


Move = Discard | PlaceLeader | PlaceCamel | Pass


# --------------------------------------------------------------------------- events


@dataclass(frozen=True)
class AreaGain:
    """An area enclosed by one placement (SC3)."""

    spaces: tuple[Coord, ...]
    water_spaces: tuple[Coord, ...]  # water holes collected inside
    water_points: int | None  # None in views that may not see the values
    oases: tuple[Coord, ...]  # oases inside scored now (+5 each)


@dataclass(frozen=True)
class Placement:
    """What one atomic move did, for the log and the last-move highlight."""

    seat: Seat
    kind: Literal["discard", "leader", "camel", "pass"]
    colour: str | None
    at: Coord | None
    water_space: Coord | None = None  # SC1: the water hole taken here
    water_points: int | None = None  # its value; None where hidden (§9)
    oases: tuple[Coord, ...] = ()  # SC2: oases newly scored by this caravan
    areas: tuple[AreaGain, ...] = ()  # SC3


# --------------------------------------------------------------------------- views


@dataclass(frozen=True)
class Piece:
    seat: Seat
    colour: str
    leader: bool


@dataclass(frozen=True)
class PlayerInfo:
    seat: Seat
    colours: tuple[str, ...]  # camel colours this player has caravans in
    discarded: str | None  # 5 players: the colour put back
    water_count: int  # water holes taken (public)
    water_points: int | None  # their sum; None unless viewer is this seat or game over
    oasis_points: int  # 5 per (caravan, oasis) scored (public)
    area_points: int  # current value of SC5 (empty spaces in own areas)
    caravan_lengths: Mapping[str, int]  # colour -> pieces (leader + camels)
    scored_oases: Mapping[str, tuple[Coord, ...]]  # colour -> oases that caravan scored
    leaders_left: tuple[str, ...]  # colours of leaders not yet placed
    total: int | None  # running total, when visible to the viewer


@dataclass(frozen=True)
class DesertView:
    viewer: Seat | None
    players: int
    phase: Phase
    terrain: Mapping[Coord, Terrain]  # the printed map, every grid square
    active: frozenset[Coord]  # playable squares this game (not mountains, not unused section)
    oases: frozenset[Coord]  # palm sites holding a palm tree
    water: Mapping[Coord, int]  # water holes still on the board, face up (public)
    pieces: Mapping[Coord, Piece]
    areas: Mapping[Coord, Seat]  # enclosed squares -> owner
    supply: Mapping[str, int]  # camels left per colour
    info: tuple[PlayerInfo, ...]
    to_act: tuple[Seat, ...]
    allowance_left: int  # camels still to place this turn (phase B), else 0
    rider_round: int  # 1-based during phase A, else 0
    turn: int  # camel turns played so far
    last_turn: tuple[Placement, ...]  # placements of the most recent turn, in order
    outcome: Outcome | None
