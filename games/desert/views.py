"""What one seat (or a spectator) may see of a state (spec §9).

Only the values of taken water holes are concealed: a seat sees its own,
everybody sees all of them once the game is over. The Rng never appears.
"""

from __future__ import annotations

from dataclasses import replace

from games.contract import Event, Outcome, Seat
from games.desert import rules, scoring
from games.desert.board import COORDS, TERRAIN_BY_COORD, layout
from games.desert.model import COLOURS, DesertView, Piece, Placement, PlayerInfo
from games.desert.state import EMPTY, NCOLOURS, DesertState, caravan_id
from games.text import Term


def _conceal(p: Placement) -> Placement:
    return replace(
        p,
        water_points=None,
        areas=tuple(replace(a, water_points=None) for a in p.areas),
    )


def _player(s: DesertState, seat: Seat, sees_water: bool) -> PlayerInfo:
    owned = rules.owned_colours(s, seat)
    water = scoring.water_points(s, seat)
    oases = scoring.oasis_points(s, seat)
    areas = scoring.area_points(s, seat)
    # Running total: what is scored so far plus current areas (SC5);
    # once the game is over, the final score including SC4.
    total = water + oases + areas
    if s.phase == "over":
        total += scoring.longest_caravan_points(s)[seat]
    return PlayerInfo(
        seat=seat,
        colours=tuple(COLOURS[c] for c in owned),
        discarded=None if s.discarded[seat] == EMPTY else COLOURS[s.discarded[seat]],
        water_count=len(s.water_taken[seat]),
        water_points=water if sees_water else None,
        oasis_points=oases,
        area_points=areas,
        caravan_lengths={COLOURS[c]: scoring.caravan_length(s, seat, c) for c in owned},
        scored_oases={
            COLOURS[c]: tuple(
                COORDS[o] for o in sorted(o for cid, o in s.scored if cid == caravan_id(seat, c))
            )
            for c in owned
        },
        leaders_left=tuple(COLOURS[c] for c in owned if s.leaders[caravan_id(seat, c)] == EMPTY),
        total=total if sees_water else None,
    )


def build_view(s: DesertState, viewer: Seat | None, outcome: Outcome | None) -> DesertView:
    over = s.phase == "over"

    def sees(seat: Seat) -> bool:
        return over or seat == viewer

    return DesertView(
        viewer=viewer,
        players=s.players,
        phase=s.phase,
        terrain=dict(TERRAIN_BY_COORD),  # a plain dict: views are pickled to workers
        active=frozenset(COORDS[i] for i in layout(s.players).active),
        oases=frozenset(COORDS[o] for o in s.oases),
        water={COORDS[i]: v for i, v in enumerate(s.water) if v},
        pieces={
            COORDS[i]: Piece(cid // NCOLOURS, COLOURS[cid % NCOLOURS], s.leaders[cid] == i)
            for i, cid in enumerate(s.cells)
            if cid != EMPTY
        },
        areas={COORDS[i]: seat for i, seat in enumerate(s.areas) if seat != EMPTY},
        supply={COLOURS[c]: n for c, n in enumerate(s.supply)},
        info=tuple(_player(s, seat, sees(seat)) for seat in range(s.players)),
        to_act=() if over else (s.current,),
        allowance_left=s.allowance,  # 0 outside phase B
        rider_round=s.rider_round,
        turn=s.turn,
        last_turn=tuple(p if sees(p.seat) else _conceal(p) for p in s.last_turn),
        outcome=outcome,
    )


def hand_lines(view: DesertView) -> tuple[Event, ...]:
    """A seat's private summary: its water holes (hidden from the others) and points."""
    if view.viewer is None:
        return ()
    me = view.info[view.viewer]
    lines = [
        Event("desert.hand.water", {"count": me.water_count, "points": points(me.water_points)}),
        Event("desert.hand.oases", {"points": points(me.oasis_points)}),
        Event("desert.hand.areas", {"points": points(me.area_points)}),
    ]
    if me.total is not None:
        lines.append(Event("desert.hand.total", {"points": points(me.total)}))
    if me.leaders_left:
        colours = tuple(Term(f"desert.colour.{c}") for c in me.leaders_left)
        lines.append(Event("desert.hand.leaders_left", {"colours": colours}))
    return tuple(lines)


def points(count: int | None) -> Term:
    """ "7 points", "1 point" in the reader's language."""
    return Term("common.points", {"count": count or 0})
