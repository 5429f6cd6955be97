"""Sahwari's atomic moves: one per step of the notation (spec §17.2).

A move never carries hidden information: a blue convoy token is named by its
public handle (``V3``), never by its identity. Tiles are ``board.Tile`` ints,
camels the notation's ids (``P1``…, ``G1``, ``G2``), junctions their names
(``L1``, ``R2``, rule K7).
"""

from __future__ import annotations

from dataclasses import dataclass

from games.sahwari.board import Camel, Direction, Tile

ITEMS = ("artefact", "recruit")  # a tile's cube or pawn; a convoy is named by its handle


@dataclass(frozen=True)
class ChooseLeader:
    """Setup step 8: a leader still available (reverse seat order)."""

    leader: str


@dataclass(frozen=True)
class MoveCamel:
    """Phase 1 (and the Explorer's second move, rule R12): a direction and a stop.
    ``stop`` None: the mandatory stop of that direction, or its only one (§17.2)."""

    direction: Direction
    stop: Tile | None = None


@dataclass(frozen=True)
class Stay:
    """The Explorer declines his second move (rule R12)."""


@dataclass(frozen=True)
class Relocate:
    """Rule R8: the camel cannot move; it goes to the Guild or an oasis."""

    tile: Tile


@dataclass(frozen=True)
class Take:
    """Phase 2 (rule C2): ``artefact``, ``recruit`` or a convoy handle."""

    item: str


@dataclass(frozen=True)
class PlaceCube:
    """GAIN_CUBE (rule C3): ``storage`` or a junction (an empty, unpadlocked slot)."""

    target: str


@dataclass(frozen=True)
class UseNow:
    """GAIN_CONVOY (rule C5, V5): reveal the token and resolve it now."""


@dataclass(frozen=True)
class Keep:
    """GAIN_CONVOY (rule C5, V6): keep the token camel side up."""


@dataclass(frozen=True)
class Recruit:
    """PICK_CARD (rules K3-K6): a row position 1-4 and a side of the clan row."""

    position: int
    side: str  # "left" or "right"


@dataclass(frozen=True)
class Attack:
    """RESOLVE_ATTACK (§10): the origin (``me``, ``G1``, ``G2``) and one option:
    ``guild`` (a guild camel target and where it goes), ``camel`` (a seat, the
    slot only when that player's storage is empty, and the origin's retreat
    tile), or ``convoy`` (a handle)."""

    origin: str
    option: str  # guild, camel, convoy
    target: str  # G1/G2, P1-P4, or a convoy handle
    slot: str | None = None
    tile: Tile | None = None


@dataclass(frozen=True)
class UseConvoy:
    """Window (rule V6): reveal a kept token and resolve it."""

    handle: str


@dataclass(frozen=True)
class UseAttack:
    """Window (rule A1): spend an attack token."""

    attack: Attack


@dataclass(frozen=True)
class UseStorage:
    """Window (rule S3): lock an unlocked storage ability (space 2-8)."""

    space: int


@dataclass(frozen=True)
class UseTrack:
    """Window (rule S6): spend recruit pawns for a track ability."""

    ability: str


@dataclass(frozen=True)
class UseSlot:
    """Window (rule K10): the rightmost storage cube into an empty slot."""

    junction: str


@dataclass(frozen=True)
class Spy:
    """Effect F3: look at a hidden blue token privately."""

    handle: str


@dataclass(frozen=True)
class Chest:
    """Effect F4: a cube from the supply, then GAIN_CUBE."""


@dataclass(frozen=True)
class Refresh:
    """Effect F2: discard the row and reveal four cards."""


@dataclass(frozen=True)
class Bird:
    """Effect F5: an item on a tile next to a guild camel."""

    camel: Camel
    tile: Tile
    item: str


@dataclass(frozen=True)
class Bowl:
    """Effect F6: a convoy token from the map."""

    handle: str


@dataclass(frozen=True)
class Tornado:
    """Effect F7: any camel onto a tile holding no camel."""

    camel: Camel
    tile: Tile


@dataclass(frozen=True)
class Skip:
    """Decline a pending effect (rule T5); ``kind`` names which one when several
    are pending."""

    kind: str | None = None


@dataclass(frozen=True)
class GuildMove:
    """Phase 3 (rules R9-R11): one guild camel, a direction and a stop."""

    camel: Camel
    direction: Direction
    stop: Tile | None = None


@dataclass(frozen=True)
class Next:
    """Close the current window."""


@dataclass(frozen=True)
class End:
    """Close window W3: phase 4, the end of the turn."""


Move = (
    ChooseLeader
    | MoveCamel
    | Stay
    | Relocate
    | Take
    | PlaceCube
    | UseNow
    | Keep
    | Recruit
    | Attack
    | UseConvoy
    | UseAttack
    | UseStorage
    | UseTrack
    | UseSlot
    | Spy
    | Chest
    | Refresh
    | Bird
    | Bowl
    | Tornado
    | Skip
    | GuildMove
    | Next
    | End
)
