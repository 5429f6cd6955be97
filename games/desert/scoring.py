"""Points: enclosure detection (SC3) and the score categories (SC1-SC5)."""

from __future__ import annotations

from collections.abc import Sequence

from games.contract import Seat
from games.desert.board import Layout
from games.desert.state import EMPTY, NCOLOURS, DesertState, caravan_id

OASIS_POINTS = 5  # SC2
LONGEST_POINTS = 10  # SC4, alone
LONGEST_TIED_POINTS = 5  # SC4, each on a tie


def new_areas(
    cells: Sequence[int], areas: Sequence[int], lay: Layout, cid: int, placed: int
) -> list[tuple[int, ...]]:
    """SC3: the groups enclosed by caravan ``cid`` right after its camel on ``placed``.

    The open spaces for the caravan are the active squares it does not occupy.
    Only the groups touching ``placed`` can have changed, so only they are
    searched. A group qualifies if it holds no piece and no area square; the
    search stops at the first square that rules it out, which keeps it cheap
    in the usual case of a group still full of pieces.
    """
    nb = lay.neighbours
    owner: dict[int, int] = {}  # square -> index of the search that reached it
    found: list[tuple[int, ...]] = []
    for search, start in enumerate(nb[placed]):
        if cells[start] == cid or start in owner:
            continue
        owner[start] = search
        group, stack, ok = [start], [start], True
        while stack and ok:
            sq = stack.pop()
            if cells[sq] != EMPTY or areas[sq] != EMPTY:
                ok = False
                break
            for n in nb[sq]:
                if cells[n] == cid:
                    continue
                seen_by = owner.get(n)
                if seen_by is None:
                    owner[n] = search
                    group.append(n)
                    stack.append(n)
                elif seen_by != search:
                    # Same group as an earlier search, which was abandoned: not new.
                    ok = False
                    break
        if ok:
            found.append(tuple(sorted(group)))
    return found


def water_points(s: DesertState, seat: Seat) -> int:
    return sum(s.water_taken[seat])


def oasis_points(s: DesertState, seat: Seat) -> int:
    return OASIS_POINTS * sum(1 for cid, _ in s.scored if cid // NCOLOURS == seat)


def area_points(s: DesertState, seat: Seat) -> int:
    """SC5: the seat's area squares that hold no piece and are not oases."""
    return sum(
        1
        for sq, owner in enumerate(s.areas)
        if owner == seat and s.cells[sq] == EMPTY and sq not in s.oases
    )


def caravan_length(s: DesertState, seat: Seat, colour: int) -> int:
    cid = caravan_id(seat, colour)
    return sum(1 for v in s.cells if v == cid)


def longest_caravan_points(s: DesertState) -> list[int]:
    """SC4 per seat: 10 for the longest caravan of a colour, 5 each on a tie."""
    points = [0] * s.players
    for colour in range(NCOLOURS):
        lengths = {
            seat: caravan_length(s, seat, colour)
            for seat in range(s.players)
            if s.leaders[caravan_id(seat, colour)] != EMPTY
        }
        if not lengths:
            continue
        best = max(lengths.values())
        leaders = [seat for seat, n in lengths.items() if n == best]
        for seat in leaders:
            points[seat] += LONGEST_POINTS if len(leaders) == 1 else LONGEST_TIED_POINTS
    return points


def breakdown(s: DesertState) -> list[tuple[tuple[str, int], ...]]:
    """Final score categories per seat (SC1-SC5), in the order of spec §9."""
    longest = longest_caravan_points(s)
    return [
        (
            ("water", water_points(s, seat)),
            ("oases", oasis_points(s, seat)),
            ("areas", area_points(s, seat)),
            ("caravans", longest[seat]),
        )
        for seat in range(s.players)
    ]
