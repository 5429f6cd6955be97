"""What one seat may see (§9): card values only where the seat knows them."""

from __future__ import annotations

from games.contract import Event, Seat
from games.nomadi.messages import player
from games.nomadi.model import BOARD, DealView, NomadiView, PawnView
from games.nomadi.state import NomadiState, arrivals, cards_owed, crossed, goal


def build_view(
    s: NomadiState, viewer: Seat | None, awaiting: tuple[Seat, ...], roll_choice: bool
) -> NomadiView:
    over = s.phase == "over"
    known = set(s.known[viewer]) if viewer is not None else set()
    area = goal(s)

    def value(card: int) -> int | None:
        return s.values[card] if over or card in known else None

    deal = None
    if s.deal is not None:
        d = s.deal
        deal = DealView(
            mover=d.mover,
            owner=d.owner,
            square=s.pawns[d.pawn].square,
            price=None if d.price < 0 else d.price,
            value=value(d.card) if viewer == d.mover else None,
        )
    final = None
    if over:
        final = tuple(
            s.coins[seat] + sum(s.values[c] for c in s.held[seat]) for seat in range(s.players)
        )
    return NomadiView(
        players=s.players,
        viewer=viewer,
        course=s.course,
        bribes=s.bribes,
        phase=s.phase,
        active=s.active,
        pawns=tuple(
            PawnView(
                p.owner, p.square, p.square in area, p.square >= 0 and p.square not in BOARD.start
            )
            for p in s.pawns
        ),
        cards=tuple(sq for sq, _ in s.board_cards),
        pile=len(s.pile),
        owed=tuple(cards_owed(s, seat) for seat in range(s.players)),
        coins=s.coins,
        held=tuple(tuple(value(c) for c in held) for held in s.held),
        dice=s.dice,
        used=s.used,
        rerolled=s.rerolled,
        deal=deal,
        offers=s.offers,
        arrivals=arrivals(s),
        crossed=crossed(s),
        rounds=s.turns // s.players,
        final=final,
        path=s.path,
        moves=tuple((die, frm, to) for die, _, frm, to in s.history),
        previous=s.previous,
        awaiting=awaiting,
        roll_choice=roll_choice,
        end=s.end,
    )


def hand_lines(view: NomadiView) -> tuple[Event, ...]:
    """``/game hand``: one's coins, cards and the card one is looking at."""
    seat = view.viewer
    if seat is None:
        return ()
    mine = view.held[seat]
    lines = [Event("nomadi.hand.coins", {"count": view.coins[seat]})]
    if mine:
        values = tuple(f"{v:+d}" for v in mine if v is not None)
        total = sum(v for v in mine if v is not None)
        lines.append(
            Event("nomadi.hand.cards", {"count": len(mine), "values": values, "total": total})
        )
    else:
        lines.append(Event("nomadi.hand.no_cards"))
    if view.deal is not None and view.deal.value is not None:
        lines.append(Event("nomadi.hand.looking", {"value": f"{view.deal.value:+d}"}))
    for other in range(view.players):
        seen = tuple(f"{v:+d}" for v in view.held[other] if v is not None)
        if other != seat and seen and view.phase != "over":
            lines.append(Event("nomadi.hand.seen", {"player": player(other), "values": seen}))
    return tuple(lines)
