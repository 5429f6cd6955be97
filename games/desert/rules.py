"""Where pieces may go: the legal-move rules R1-R13 of spec §6.

The ``*_spaces``/``placements`` functions enumerate; the ``check_*`` functions
explain, raising the IllegalMove of the first rule a given move breaks. They
share their predicates, and a property test checks that they agree.
"""

from __future__ import annotations

from collections.abc import Iterator

from games.contract import IllegalMove, Seat
from games.desert.board import NAMES, Layout, layout
from games.desert.messages import illegal
from games.desert.model import COLOURS
from games.desert.state import EMPTY, NCOLOURS, DesertState, caravan_id
from games.text import Player

# --------------------------------------------------------------------------- shared


def owned_colours(s: DesertState, seat: Seat) -> tuple[int, ...]:
    """Colours the seat has a leader of (all but the one put back, §10.3)."""
    return tuple(c for c in range(NCOLOURS) if c != s.discarded[seat])


def caravan_squares(s: DesertState, cid: int) -> list[int]:
    return [i for i, v in enumerate(s.cells) if v == cid]


def _occupied(s: DesertState, sq: int, rule: str) -> IllegalMove:
    cid = s.cells[sq]
    return illegal(
        "desert.occupied",
        rule=rule,
        space=NAMES[sq],
        other=Player(cid // NCOLOURS),
        colour=COLOURS[cid % NCOLOURS],
    )


# --------------------------------------------------------------------------- riders


def _r1_error(s: DesertState, lay: Layout, sq: int) -> IllegalMove | None:
    """R1: active, empty sand (no mountain, oasis or water hole)."""
    if sq not in lay.active:
        return illegal("desert.off_board", rule="R1", space=NAMES[sq])
    if sq in s.oases:
        return illegal("desert.oasis_space", rule="R1", space=NAMES[sq])
    if s.cells[sq] != EMPTY:
        return _occupied(s, sq, "R1")
    if s.water[sq]:
        return illegal("desert.r1_water", space=NAMES[sq])
    return None


def _r2_r3_error(s: DesertState, lay: Layout, sq: int) -> IllegalMove | None:
    """R2: not next to an oasis; R3: not next to any leader (in phase A only leaders stand)."""
    for n in lay.neighbours[sq]:
        if n in s.oases:
            return illegal("desert.r2", space=NAMES[sq], oasis=NAMES[n])
    for n in lay.neighbours[sq]:
        cid = s.cells[n]
        if cid != EMPTY and s.leaders[cid] == n:
            return illegal(
                "desert.r3",
                space=NAMES[sq],
                other=Player(cid // NCOLOURS),
                colour=COLOURS[cid % NCOLOURS],
                at=NAMES[n],
            )
    return None


def leader_spaces(s: DesertState) -> list[int]:
    """Spaces a leader may take now: R1-R3, or R1 alone if none is left (R6)."""
    lay = layout(s.players)
    r1 = [sq for sq in sorted(lay.active) if _r1_error(s, lay, sq) is None]
    strict = [sq for sq in r1 if _r2_r3_error(s, lay, sq) is None]
    return strict or r1


def leader_colours(s: DesertState, seat: Seat) -> list[int]:
    """R4 (own, unplaced leaders), narrowed by R5 in rider round 1."""
    unplaced = [c for c in owned_colours(s, seat) if s.leaders[caravan_id(seat, c)] == EMPTY]
    if s.rider_round == 1:
        fresh = [c for c in unplaced if c not in s.round1]
        if fresh:
            return fresh
    return unplaced


def check_leader(s: DesertState, seat: Seat, colour: int, sq: int) -> None:
    if colour == s.discarded[seat]:
        raise illegal("desert.r4_discarded", colour=COLOURS[colour])
    if s.leaders[caravan_id(seat, colour)] != EMPTY:
        raise illegal("desert.r4_placed", colour=COLOURS[colour])
    if colour not in leader_colours(s, seat):
        raise illegal("desert.r5", other=Player(s.round1.index(colour)), colour=COLOURS[colour])
    lay = layout(s.players)
    error = _r1_error(s, lay, sq)
    if error is not None:
        raise error
    error = _r2_r3_error(s, lay, sq)
    # R6: when no space meets R1-R3, any R1 space will do.
    if error is not None and sq not in leader_spaces(s):
        raise error


# --------------------------------------------------------------------------- camels


def _rival_next(s: DesertState, lay: Layout, sq: int, seat: Seat, colour: int) -> int:
    """R10: a square next to ``sq`` holding another player's ``colour`` piece, or EMPTY."""
    own = caravan_id(seat, colour)
    for n in lay.neighbours[sq]:
        cid = s.cells[n]
        if cid != EMPTY and cid != own and cid % NCOLOURS == colour:
            return n
    return EMPTY


def camel_targets(s: DesertState, seat: Seat, colour: int, lay: Layout) -> list[int]:
    """Squares a camel of the seat's ``colour`` caravan may take (R8-R11), sorted.

    R7 (caravan exists, supply left) is the caller's business.
    """
    return sorted(_targets(s, seat, colour, lay))


def _targets(s: DesertState, seat: Seat, colour: int, lay: Layout) -> Iterator[int]:
    """:func:`camel_targets` one at a time, unsorted: whether there is one at all
    is asked after every camel (R13), and the first found answers it."""
    cells, areas, oases = s.cells, s.areas, s.oases
    seen: set[int] = set()
    for sq in caravan_squares(s, caravan_id(seat, colour)):
        for n in lay.neighbours[sq]:  # R9 (and R8: neighbours are active squares)
            if n in seen:
                continue
            seen.add(n)
            if cells[n] != EMPTY or n in oases:  # R8
                continue
            if areas[n] != EMPTY and areas[n] != seat:  # R11
                continue
            if _rival_next(s, lay, n, seat, colour) == EMPTY:  # R10
                yield n


def camel_colours(s: DesertState, seat: Seat) -> list[int]:
    """R7: colours with a caravan on the board and camels in the supply."""
    return [
        c
        for c in owned_colours(s, seat)
        if s.leaders[caravan_id(seat, c)] != EMPTY and s.supply[c] > 0
    ]


def placements(s: DesertState, seat: Seat) -> list[tuple[int, int]]:
    """Every legal (colour, square) camel placement of the seat."""
    lay = layout(s.players)
    return [(c, sq) for c in camel_colours(s, seat) for sq in camel_targets(s, seat, c, lay)]


def has_placement(s: DesertState, seat: Seat) -> bool:
    lay = layout(s.players)
    return any(next(_targets(s, seat, c, lay), None) is not None for c in camel_colours(s, seat))


def check_camel(s: DesertState, seat: Seat, colour: int, sq: int) -> None:
    lay = layout(s.players)
    if colour == s.discarded[seat] or s.leaders[caravan_id(seat, colour)] == EMPTY:
        raise illegal("desert.r7_no_caravan", colour=COLOURS[colour])
    if s.supply[colour] <= 0:
        raise illegal("desert.r7_supply", colour=COLOURS[colour])
    if sq not in lay.active:
        raise illegal("desert.off_board", rule="R8", space=NAMES[sq])
    if sq in s.oases:
        raise illegal("desert.oasis_space", rule="R8", space=NAMES[sq])
    if s.cells[sq] != EMPTY:
        raise _occupied(s, sq, "R8")
    owner = s.areas[sq]
    if owner != EMPTY and owner != seat:
        raise illegal("desert.r11", space=NAMES[sq], other=Player(owner))
    own = caravan_id(seat, colour)
    if all(s.cells[n] != own for n in lay.neighbours[sq]):
        raise illegal("desert.r9", space=NAMES[sq], colour=COLOURS[colour])
    rival = _rival_next(s, lay, sq, seat, colour)
    if rival != EMPTY:
        raise illegal(
            "desert.r10",
            space=NAMES[sq],
            other=Player(s.cells[rival] // NCOLOURS),
            colour=COLOURS[colour],
            at=NAMES[rival],
        )
