"""Oasis's board rules: domains (R14-R21), claims (R22), herds (R25) and scoring (§7)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from games.contract import Seat
from games.oasis.messages import player
from games.oasis.model import (
    AUTO,
    BOARD,
    LANDS,
    MULTIPLIER_OF,
    MULTIPLIERS,
    NOCLAIM,
    SQUARES,
    adjacent,
    groups,
    name,
)
from games.oasis.state import EMPTY, OasisState, pawns_left
from games.text import Param, Term


@dataclass(frozen=True)
class Domains:
    """The domains of one ground: each a connected group of one landscape's
    squares (tiles plus bonus squares of that type) holding at least one tile."""

    land: tuple[str, ...]  # per domain
    squares: tuple[frozenset[int], ...]  # per domain
    of: tuple[int, ...]  # per square, its domain index, or -1


def land_at(ground: str, sq: int) -> str:
    """The landscape of a square: its tile, or its printed bonus type, or ""."""
    tile = ground[sq]
    if tile != EMPTY:
        return tile
    return BOARD.bonus.get(sq, "")


@lru_cache(maxsize=256)
def domains(ground: str) -> Domains:
    lands: list[str] = []
    squares: list[frozenset[int]] = []
    of = [-1] * SQUARES
    for land in LANDS:
        members = {sq for sq in range(SQUARES) if land_at(ground, sq) == land}
        for group in groups(members):
            if not any(ground[sq] != EMPTY for sq in group):
                continue  # bonus squares alone are no domain (§10.6)
            for sq in group:
                of[sq] = len(lands)
            lands.append(land)
            squares.append(frozenset(group))
    return Domains(tuple(lands), tuple(squares), tuple(of))


def owners(s: OasisState) -> dict[int, tuple[Seat, int]]:
    """Domain index -> (owner, square of the owner's pawn) (R21)."""
    return dict(_owners(s.ground, s.pawns))


@lru_cache(maxsize=256)
def _owners(
    ground: str, pawns: tuple[tuple[int, Seat], ...]
) -> tuple[tuple[int, tuple[Seat, int]], ...]:
    of = domains(ground).of
    return tuple((of[sq], (owner, sq)) for sq, owner in pawns)


@dataclass(frozen=True)
class Placement:
    """A legal square for a tile: how it joins the board."""

    kind: str  # "found", "own" (joins one's domain) or "unowned"
    domain: int  # the domain joined, -1 when founding


def place(
    s: OasisState, seat: Seat, land: str, sq: int
) -> Placement | tuple[str, dict[str, Param]]:
    """R14-R19: how a tile of ``land`` on ``sq`` joins the board, or why it cannot."""
    return _place(s.ground, s.pawns, seat, land, sq)


def _place(
    ground: str, pawns: tuple[tuple[int, Seat], ...], seat: Seat, land: str, sq: int
) -> Placement | tuple[str, dict[str, Param]]:
    if BOARD.cells[sq] != "." or ground[sq] != EMPTY:
        return "oasis.err.r14", {"square": name(sq)}
    found = domains(ground)
    touching = sorted(
        {found.of[n] for n in adjacent(sq) if found.of[n] >= 0 and found.land[found.of[n]] == land}
    )
    if len(touching) > 1:
        return "oasis.err.r15", {"square": name(sq), "land": land_word(land)}
    if touching:
        domain = touching[0]
        owner = dict(_owners(ground, pawns)).get(domain)
        if owner is None:
            return Placement("unowned", domain)
        if owner[0] != seat:
            return "oasis.err.r16", {
                "square": name(sq),
                "land": land_word(land),
                "player": player(owner[0]),
                "at": name(owner[1]),
            }
        return Placement("own", domain)
    if not _may_found(land, sq):
        return f"oasis.err.r19_{land}", {"square": name(sq)}
    return Placement("found", -1)


FREE_SQUARES = tuple(sorted(BOARD.free))


def _may_found(land: str, sq: int) -> bool:
    return sq in _FOUNDING[land]


def _founding_squares(land: str) -> frozenset[int]:
    """R19: an oasis starts beside a spring or an oasis bonus square, a steppe
    beside the track or a steppe bonus square; stony desert anywhere."""
    if land == "o":
        return frozenset(
            sq
            for sq in BOARD.free
            if any(n in BOARD.springs or BOARD.bonus.get(n) == "o" for n in adjacent(sq))
        )
    if land == "s":
        return frozenset(
            sq
            for sq in BOARD.free
            if any(BOARD.cells[n] == "=" or BOARD.bonus.get(n) == "s" for n in adjacent(sq))
        )
    return BOARD.free


_FOUNDING = {land: _founding_squares(land) for land in LANDS}


def land_word(land: str) -> Term:
    return Term(f"oasis.land.{land}")


def pawn_choices(s: OasisState, seat: Seat, placement: Placement) -> tuple[int, ...]:
    """R22: the pawn values a tile may carry (AUTO, NOCLAIM, or a pawn's square).

    Founding with a pawn in the supply: it must go there (AUTO). Founding
    without one: leave the domain unowned (AUTO) or move a pawn. Extending an
    unowned domain: the supply pawn (AUTO) or not (NOCLAIM), or move a pawn.
    """
    if placement.kind == "own":
        return (AUTO,)
    supply = pawns_left(s, seat) > 0
    if placement.kind == "found" and supply:
        return (AUTO,)
    mine = tuple(sq for sq, owner in s.pawns if owner == seat)
    if placement.kind == "unowned" and supply:
        return (AUTO, NOCLAIM, *mine)
    return (AUTO, *mine)


def legal_squares(s: OasisState, seat: Seat, land: str) -> tuple[tuple[int, Placement], ...]:
    """Every square a tile of ``land`` may go to now, and how it joins the board."""
    return _legal_squares(s.ground, s.pawns, seat, land)


# Cached by what decides it: a move's placements, their replays in parse and
# the checks after each (R10) ask again and again about the same board.
@lru_cache(maxsize=512)
def _legal_squares(
    ground: str, pawns: tuple[tuple[int, Seat], ...], seat: Seat, land: str
) -> tuple[tuple[int, Placement], ...]:
    out = []
    for sq in FREE_SQUARES:
        if ground[sq] == EMPTY:
            found = _place(ground, pawns, seat, land, sq)
            if isinstance(found, Placement):
                out.append((sq, found))
    return tuple(out)


def any_legal_square(s: OasisState, seat: Seat, land: str) -> bool:
    return bool(legal_squares(s, seat, land))


# --------------------------------------------------------------------------- camels and scoring


def herds(s: OasisState, seat: Seat) -> list[set[int]]:
    """R25: the orthogonally connected groups of one player's camels."""
    return groups({sq for sq in BOARD.track if s.herd[sq] == str(seat)})


def largest_herd(s: OasisState, seat: Seat) -> int:
    return max((len(h) for h in herds(s, seat)), default=0)


def owned_squares(s: OasisState, seat: Seat) -> dict[str, int]:
    """Squares (tiles and bonus squares) in the domains ``seat`` owns, per landscape."""
    found = domains(s.ground)
    out = dict.fromkeys(LANDS, 0)
    for domain, (owner, _) in owners(s).items():
        if owner == seat:
            out[found.land[domain]] += len(found.squares[domain])
    return out


def score_lines(s: OasisState, seat: Seat) -> tuple[tuple[str, int], ...]:
    """SC1-SC4: (line, points) per scoring line; any factor 0 makes a line 0."""
    held = dict(zip(MULTIPLIERS, s.mults[seat], strict=True))
    owned = owned_squares(s, seat)
    return (
        ("camels", largest_herd(s, seat) * held["goods"]),
        *((LAND_LINE[land], owned[land] * held[MULTIPLIER_OF[land]]) for land in LANDS),
    )


LAND_LINE = {"o": "oasis", "s": "steppe", "d": "stony"}
