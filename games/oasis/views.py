"""What one seat may see (§9): stacks and the draw pile by size only, and
multiplier tiles by type only to their owner (to everyone at the end)."""

from __future__ import annotations

from games.contract import Event, Seat
from games.oasis import rules
from games.oasis.model import BOARD, LANDS, MULTIPLIERS, DomainView, OasisView
from games.oasis.state import (
    EMPTY,
    OasisState,
    camels_left,
    can_reveal,
    current,
    order,
    pawns_left,
)
from games.text import Param, Term


def build_view(
    s: OasisState,
    viewer: Seat | None,
    awaiting: tuple[Seat, ...],
    winners: tuple[Seat, ...] = (),
) -> OasisView:
    over = s.phase == "over"
    found = rules.domains(s.ground)
    owners = rules.owners(s)
    seat_now = current(s)

    def multipliers(seat: Seat) -> dict[str, int] | None:
        if over or seat == viewer:
            return dict(zip(MULTIPLIERS, s.mults[seat], strict=True))
        return None

    chooser_owes = s.phase == "choose" and any(s.pending)
    return OasisView(
        players=s.players,
        viewer=viewer,
        phase=s.phase,
        round=s.round,
        ranks=s.ranks,
        received=tuple(r or None for r in s.received),
        order=order(s),
        current=seat_now,
        out=s.out,
        stacks=tuple(len(stack) for stack in s.stacks),
        draw=len(s.draw),
        discard=s.discard,
        offers=s.offers,
        taken=tuple(None if t < 0 else t for t in s.taken),
        can_reveal=s.phase == "offer" and seat_now is not None and can_reveal(s, seat_now),
        lands=dict(zip(LANDS, s.lands, strict=True)),
        piles=dict(zip(MULTIPLIERS, s.piles, strict=True)),
        multipliers=tuple(multipliers(seat) for seat in range(s.players)),
        multiplier_counts=tuple(sum(m) for m in s.mults),
        tiles=tuple((sq, s.ground[sq]) for sq in range(len(s.ground)) if s.ground[sq] != EMPTY),
        camels=tuple((sq, int(s.herd[sq])) for sq in BOARD.track if s.herd[sq] != EMPTY),
        domains=tuple(
            DomainView(
                land=found.land[i],
                squares=tuple(sorted(found.squares[i])),
                owner=owners[i][0] if i in owners else None,
                pawn=owners[i][1] if i in owners else None,
            )
            for i in range(len(found.land))
        ),
        pawns_left=tuple(pawns_left(s, seat) for seat in range(s.players)),
        camels_left=tuple(camels_left(s, seat) for seat in range(s.players)),
        herds=tuple(rules.largest_herd(s, seat) for seat in range(s.players)),
        owned=tuple(rules.owned_squares(s, seat) for seat in range(s.players)),
        pending=tuple(
            (kind, count)
            for kind, count in zip((*LANDS, "camels"), s.pending, strict=True)
            if count and chooser_owes
        ),
        last=s.last,
        last_seat=None if s.last_seat < 0 else s.last_seat,
        awaiting=awaiting,
        scores=tuple(rules.score_lines(s, seat) for seat in range(s.players)) if over else None,
        winners=winners,
        end=s.end,
    )


def hand_lines(view: OasisView) -> tuple[Event, ...]:
    """``/game hand``: one's face-down multiplier tiles and what is left in one's supply."""
    seat = view.viewer
    if seat is None:
        return ()
    mine = view.multipliers[seat] or {}
    counts = tuple(multiplier_count(kind, mine[kind]) for kind in MULTIPLIERS)
    return (
        Event("oasis.hand.multipliers", {"tiles": counts}),
        Event("oasis.hand.supply", supply_params(view, seat)),
        Event("oasis.hand.stack", {"count": view.stacks[seat]}),
    )


def multiplier_count(kind: str, count: int) -> Term:
    """ "1 well", "3 wells": a count of one kind of multiplier tile, in the plural it takes."""
    return Term(f"oasis.hand.count.{kind}", {"count": count})


def supply_params(view: OasisView, seat: Seat) -> dict[str, Param]:
    """The pawns and camels left in a seat's supply, each counted in its own plural."""
    return {
        "pawns": Term("oasis.hand.pawns", {"count": view.pawns_left[seat]}),
        "camels": Term("oasis.hand.camels", {"count": view.camels_left[seat]}),
    }
