"""Sahwari map geometry and movement rules (spec §3, §6 rules R1-R14, §10 rules A2-A6).

Pure functions over a small immutable :class:`Snapshot`; no engine state, no collecting.

* Tiles are ints 0..24 in reading order (row 1 is north): ``tile A1 == 0``, ``tile E1 == 4``,
  ``tile C3 == 12``, ``tile E5 == 24``. :func:`name` and :func:`parse_tile` convert.
* Directions are the strings ``"N" "E" "S" "W"`` (spec §3.1, notation §17.1).
* Camel ids are the notation's strings (§17.1): ``"P1".."P4"`` for the player camels (the same
  string as the owner's seat) and ``"G1"``, ``"G2"`` for the guild camels.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Literal, NamedTuple

Tile = int
Camel = str
Direction = Literal["N", "E", "S", "W"]

COLUMNS = "ABCDE"
WIDTH = 5
TILES: tuple[Tile, ...] = tuple(range(WIDTH * WIDTH))
DIRECTIONS: tuple[Direction, ...] = ("N", "E", "S", "W")
_DELTAS: dict[Direction, tuple[int, int]] = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
_OPPOSITE: dict[Direction, Direction] = {"N": "S", "E": "W", "S": "N", "W": "E"}

PLAYER_CAMELS: tuple[Camel, ...] = ("P1", "P2", "P3", "P4")
GUILD_CAMELS: tuple[Camel, ...] = ("G1", "G2")


def name(tile: Tile) -> str:
    """``0 -> "A1"``, ``12 -> "C3"``."""
    if tile not in range(len(TILES)):
        raise ValueError(f"no tile {tile!r}")
    return f"{COLUMNS[tile % WIDTH]}{tile // WIDTH + 1}"


def parse_tile(text: str) -> Tile:
    """``"c3" -> 12``; case-insensitive, surrounding spaces ignored (§17.1)."""
    t = text.strip().upper()
    if len(t) != 2 or t[0] not in COLUMNS or t[1] not in "12345":
        raise ValueError(f"not a tile: {text!r}")
    return (int(t[1]) - 1) * WIDTH + COLUMNS.index(t[0])


def step(tile: Tile, direction: Direction) -> Tile | None:
    """The next tile in ``direction``, or None off the map (spec §3.3)."""
    dx, dy = _DELTAS[direction]
    x, y = tile % WIDTH + dx, tile // WIDTH + dy
    return y * WIDTH + x if 0 <= x < WIDTH and 0 <= y < WIDTH else None


def opposite(direction: Direction) -> Direction:
    return _OPPOSITE[direction]


def adjacent(tile: Tile) -> tuple[Tile, ...]:
    """Orthogonal neighbours in N, E, S, W order; diagonals never count (D19)."""
    return tuple(t for d in DIRECTIONS if (t := step(tile, d)) is not None)


def path(tile: Tile, direction: Direction) -> tuple[Tile, ...]:
    """Rule R1: the tiles from the next one in ``direction`` to the map edge."""
    out: list[Tile] = []
    nxt = step(tile, direction)
    while nxt is not None:
        out.append(nxt)
        nxt = step(nxt, direction)
    return tuple(out)


# Tile kinds are fixed by the map (spec §3.1): the Guild, four oases, 20 resource positions.
GUILD: Tile = parse_tile("C3")
OASES: frozenset[Tile] = frozenset(parse_tile(t) for t in ("B2", "D2", "B4", "D4"))
COMMON_TILES: tuple[Tile, ...] = tuple(sorted(OASES | {GUILD}))  # reading order
RESOURCE_TILES: tuple[Tile, ...] = tuple(t for t in TILES if t not in COMMON_TILES)


def is_common(tile: Tile) -> bool:
    """The Guild and the oases: any number of camels may share them (rule R4)."""
    return tile in COMMON_TILES


def is_guild_camel(camel: Camel) -> bool:
    return camel in GUILD_CAMELS


@dataclass(frozen=True)
class Snapshot:
    """What movement needs to know: face-up resource tiles and camel positions.

    ``face_up``: the resource tiles showing their resource side (any other resource tile is a
    desert; the Guild and oases are never listed). ``camels``: ``(camel id, tile)`` pairs,
    normalised to camel-id order; camels not in play are simply absent.
    """

    face_up: frozenset[Tile]
    camels: tuple[tuple[Camel, Tile], ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "face_up", frozenset(self.face_up))
        object.__setattr__(self, "camels", tuple(sorted(self.camels)))
        if not self.face_up <= set(RESOURCE_TILES):
            raise ValueError("only resource tiles can be face up")
        ids = [c for c, _ in self.camels]
        if len(set(ids)) != len(ids) or not set(ids) <= {*PLAYER_CAMELS, *GUILD_CAMELS}:
            raise ValueError(f"bad camel ids: {ids}")
        held: set[Tile] = set()
        for _, tile in self.camels:
            if tile not in TILES:
                raise ValueError(f"no tile {tile!r}")
            if tile in held and not is_common(tile):  # rule R5: one camel per non-common tile
                raise ValueError(f"two camels on tile {name(tile)}")
            held.add(tile)

    @classmethod
    def of(cls, face_up: Iterable[str], camels: Mapping[Camel, str]) -> Snapshot:
        """Build from tile names: ``Snapshot.of({"E4"}, {"P2": "D4", "G1": "C3"})``."""
        return cls(
            frozenset(parse_tile(t) for t in face_up),
            tuple((c, parse_tile(t)) for c, t in camels.items()),
        )

    def tile_of(self, camel: Camel) -> Tile:
        for c, tile in self.camels:
            if c == camel:
                return tile
        raise ValueError(f"camel {camel} is not on the map")

    def camels_on(self, tile: Tile) -> tuple[Camel, ...]:
        return tuple(c for c, t in self.camels if t == tile)

    def placed(self, camel: Camel, tile: Tile) -> Snapshot:
        """The camel put on ``tile``: the end of a move, or a placement (rule R14)."""
        self.tile_of(camel)
        rest = tuple((c, t) for c, t in self.camels if c != camel)
        return Snapshot(self.face_up, (*rest, (camel, tile)))


class Move(NamedTuple):
    """One legal move of a camel: a direction and the stop chosen in it (rule R7)."""

    direction: Direction
    stop: Tile


class GuildMove(NamedTuple):
    """One guild move of phase 3 (rule R9)."""

    camel: Camel
    direction: Direction
    stop: Tile


def _scan(snapshot: Snapshot, camel: Camel, direction: Direction, guild: bool) -> tuple[Tile, ...]:
    stops: list[Tile] = []
    for tile in path(snapshot.tile_of(camel), direction):  # rule R1: never the start tile
        others = snapshot.camels_on(tile)
        if is_common(tile):  # rule R2 (1), rule R4: optional stop, crossed even when occupied
            stops.append(tile)
        elif others:
            if guild and all(is_guild_camel(c) for c in others):
                continue  # rule R10: the other guild camel is jumped, never a stop (D5)
            break  # rule R2 (2), rule R5: blocked, neither entered nor passed
        elif tile in snapshot.face_up:
            stops.append(tile)  # rule R2 (3), rule R3: the mandatory stop ends the scan
            break
        elif guild:
            stops.append(tile)  # rule R10: an unoccupied desert is an optional guild stop
        # rule R2 (4), rule R6: a player camel crosses a desert but never stops on it
    return tuple(stops)


def _moves(snapshot: Snapshot, camel: Camel, guild: bool) -> tuple[Move, ...]:
    return tuple(Move(d, stop) for d in DIRECTIONS for stop in _scan(snapshot, camel, d, guild))


def _player(camel: Camel) -> Camel:
    if camel not in PLAYER_CAMELS:
        raise ValueError(f"{camel} is not a player camel")
    return camel


def _guild(camel: Camel) -> Camel:
    if camel not in GUILD_CAMELS:
        raise ValueError(f"{camel} is not a guild camel")
    return camel


def player_stops(snapshot: Snapshot, camel: Camel, direction: Direction) -> tuple[Tile, ...]:
    """Rules R1-R6: the legal stops of a player camel in one direction, nearest first."""
    return _scan(snapshot, _player(camel), direction, guild=False)


def player_moves(snapshot: Snapshot, camel: Camel) -> tuple[Move, ...]:
    """Rule R7: every legal (direction, stop) of a player camel."""
    return _moves(snapshot, _player(camel), guild=False)


def can_move(snapshot: Snapshot, camel: Camel) -> bool:
    """Rule R8 check (player camel) or rule R9 check (guild camel): any legal move at all."""
    return bool(_moves(snapshot, camel, guild=is_guild_camel(camel)))


def relocation_targets(snapshot: Snapshot, camel: Camel) -> tuple[Tile, ...]:
    """Rule R8: a player camel with no legal move goes to the Guild or any oasis, its own
    tile included (D43). Empty when the camel can move (R8 does not apply)."""
    return () if can_move(snapshot, _player(camel)) else COMMON_TILES


def explorer_second_moves(snapshot: Snapshot, camel: Camel, first: Move) -> tuple[Move, ...]:
    """Rule R12: the Explorer's optional second move from the first stop, rules R1-R7 again,
    any direction but the opposite of the first (D37). ``snapshot`` is the position before the
    first move. Empty means the camel stays on the first stop."""
    if first not in player_moves(snapshot, camel):
        raise ValueError(f"illegal first move {first}")
    after = snapshot.placed(camel, first.stop)
    return tuple(m for m in player_moves(after, camel) if m.direction != opposite(first.direction))


def guild_stops(snapshot: Snapshot, camel: Camel, direction: Direction) -> tuple[Tile, ...]:
    """Rules R10-R11: the legal stops of a guild camel in one direction, nearest first."""
    return _scan(snapshot, _guild(camel), direction, guild=True)


def guild_moves(snapshot: Snapshot, camel: Camel) -> tuple[Move, ...]:
    return _moves(snapshot, _guild(camel), guild=True)


def guild_first_moves(snapshot: Snapshot) -> tuple[GuildMove, ...]:
    """Rule R9: the legal first guild move of phase 3 (either guild camel). Empty: skipped."""
    return tuple(
        GuildMove(c, m.direction, m.stop)
        for c, _ in snapshot.camels
        if is_guild_camel(c)
        for m in guild_moves(snapshot, c)
    )


def guild_second_moves(snapshot: Snapshot, first: GuildMove | None) -> tuple[GuildMove, ...]:
    """Rule R9: the legal second guild move after ``first`` (None when the first was skipped);
    the same camel again or the other one. Empty: skipped."""
    legal = guild_first_moves(snapshot)
    if first is None:
        if legal:
            raise ValueError("the first guild move is mandatory (D6)")
        return ()
    if first not in legal:
        raise ValueError(f"illegal guild move {first}")
    return guild_first_moves(snapshot.placed(first.camel, first.stop))


# Attack geometry (spec §10). Attacks and their costs are resolved by the engine.


def _targets(snapshot: Snapshot, origin: Camel) -> tuple[Camel, ...]:
    # rule A2: camels on tiles adjacent to the origin camel; rule A3: never one on tile C3
    near = set(adjacent(snapshot.tile_of(origin))) - {GUILD}
    return tuple(c for c, t in snapshot.camels if t in near)


def guild_camel_targets(snapshot: Snapshot, origin: Camel) -> tuple[Camel, ...]:
    """Rule A4 (option 1): guild camels adjacent to the origin camel, not on the Guild."""
    return tuple(c for c in _targets(snapshot, origin) if is_guild_camel(c))


def player_camel_targets(snapshot: Snapshot, origin: Camel, attacker: Camel) -> tuple[Camel, ...]:
    """Rule A5 (option 2) geometry: opponents' camels adjacent to the origin camel, not on the
    Guild (D21: never the attacker's own camel). Whether they hold a cube is the engine's."""
    return tuple(
        c for c in _targets(snapshot, origin) if c in PLAYER_CAMELS and c != _player(attacker)
    )


def convoy_target_tiles(snapshot: Snapshot, origin: Camel) -> tuple[Tile, ...]:
    """Rule A6 (option 3): the origin camel's tile and its adjacent tiles (D38)."""
    tile = snapshot.tile_of(origin)
    return tuple(sorted((tile, *adjacent(tile))))


def displacement_targets(snapshot: Snapshot, camel: Camel) -> tuple[Tile, ...]:
    """Rule A4: where a targeted guild camel may be placed: the Guild or an oasis other than
    the tile it stands on (a placement, rule R14)."""
    tile = snapshot.tile_of(_guild(camel))
    return tuple(t for t in COMMON_TILES if t != tile)


def retreat_targets(snapshot: Snapshot, origin: Camel) -> tuple[Tile, ...]:
    """Rule A5 (step 4): where the origin camel goes after a camel attack: the Guild or any
    oasis, staying put allowed when it already stands on one (a placement, rule R14)."""
    snapshot.tile_of(origin)
    return COMMON_TILES
