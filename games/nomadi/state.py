"""Nomadi's immutable state and its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.contract import Seat
from games.nomadi.model import BOARD, CARD_VALUES, TurnRecord
from games.rng import Rng
from games.text import ints_of


@dataclass(frozen=True)
class Pawn:
    owner: Seat
    square: int  # -1: not placed yet
    # Whether it has left the start area (R8) or arrived (R3) is where it
    # stands: a pawn never re-enters the start area nor leaves the goal.


@dataclass(frozen=True)
class Deal:
    """EV1 with another's pawn: the mover looked at ``card`` and names a price."""

    card: int
    mover: Seat
    owner: Seat
    pawn: int
    frm: int  # where the pawn came from, for EV2-EV4 after the deal
    price: int = -1  # -1 until offered


@dataclass(frozen=True)
class NomadiState:
    players: int
    course: str
    bribes: str
    phase: str  # setup (or cards, caravan: SETUP_PHASES), turn, over
    rng: Rng
    values: tuple[int, ...]  # card id -> value (secret until known)
    board_cards: tuple[tuple[int, int], ...]  # (square, card id), sorted by square
    pile: tuple[int, ...]  # card ids still to place in setup (top first)
    held: tuple[tuple[int, ...], ...]  # per seat, card ids in the order taken
    known: tuple[tuple[int, ...], ...]  # per seat, card ids whose value it knows (sorted)
    coins: tuple[int, ...]
    pawns: tuple[Pawn, ...]
    active: Seat = 0
    dice: tuple[int, ...] = ()
    used: tuple[bool, ...] = ()
    rerolled: bool = False
    history: tuple[tuple[int, int, int, int], ...] = ()  # this turn: (die, pawn, from, to)
    deal: Deal | None = None
    turns: int = 0  # movement turns finished
    idle: int = 0  # turns in a row without a die used (EG2)
    offers: tuple[tuple[Seat, int, str], ...] = ()  # bribes on the table this turn
    spoken: tuple[Seat, ...] = ()  # seats that offered or declined this turn
    end: str = ""  # why the game ended
    path: tuple[int, ...] = ()  # the last die move's squares, from its start to its landing
    previous: TurnRecord | None = None  # the last finished movement turn


# ---------------------------------------------------------------- facts derived from the state

EXTRA_CARDS = len(CARD_VALUES) - len(BOARD.water)  # placed by the players in setup


# Setup phases. "setup" (option setup: grouped, §4): from seat 1 on, each seat
# places its share of the extra cards and all its pawns in one turn, so the
# game posts once per player before the first roll. "cards" then "caravan"
# (option setup: alternate, and every game stored before the option existed):
# one card or pawn per turn, round and round, as printed (§4.4, §4.5).
SETUP_PHASES = ("setup", "cards", "caravan")


def card_share(players: int, seat: Seat) -> int:
    """How many of the extra cards ``seat`` places: dealt round and round from
    seat 1 (§4.4), so with 2 players 3 and 2, with 5 one each."""
    return len(range(seat, EXTRA_CARDS, players))


def cards_owed(s: NomadiState, seat: Seat) -> int:
    """Extra cards ``seat`` has still to place (public: the pile is counted)."""
    placed = EXTRA_CARDS - len(s.pile)
    if s.phase == "cards":  # round and round: card k is seat k mod n's
        return card_share(s.players, seat) - len(range(seat, placed, s.players))
    if s.phase != "setup":
        return 0
    # Seat by seat: the seats before this one placed their whole share first.
    before = sum(card_share(s.players, other) for other in range(seat))
    return max(0, min(card_share(s.players, seat), before + card_share(s.players, seat) - placed))


def pawns_owed(s: NomadiState, seat: Seat) -> int:
    """Pawns of ``seat`` still in the box (setup)."""
    return sum(1 for p in s.pawns if p.owner == seat and p.square < 0)


def placer(s: NomadiState) -> Seat:
    """Whose setup placement it is. Grouped: the first seat with anything left
    to place. Alternate: cards then pawns, each round and round from seat 1."""
    if s.phase == "setup":
        return next(seat for seat in range(s.players) if cards_owed(s, seat) or pawns_owed(s, seat))
    if s.phase == "cards":
        return (EXTRA_CARDS - len(s.pile)) % s.players
    return sum(1 for p in s.pawns if p.square >= 0) % s.players


def goal(s: NomadiState) -> frozenset[int]:
    return BOARD.goal_of(s.course)


def arrivals(s: NomadiState) -> int:
    """Pawns in the goal area: they arrived there and never leave (R3, EV4)."""
    area = goal(s)
    return sum(1 for p in s.pawns if p.square in area)


def crossed(s: NomadiState) -> bool:
    """Some pawn crossed the valley: it stands on the goal side, never to come back (R9)."""
    return any(p.square >= 0 and BOARD.goal_side(p.square) for p in s.pawns)


def dump_state(s: NomadiState) -> dict[str, Any]:
    return {
        "players": s.players,
        "course": s.course,
        "bribes": s.bribes,
        "phase": s.phase,
        "rng": s.rng.state,
        "values": list(s.values),
        "board_cards": [list(c) for c in s.board_cards],
        "pile": list(s.pile),
        "held": [list(h) for h in s.held],
        "known": [list(k) for k in s.known],
        "coins": list(s.coins),
        "pawns": [[p.owner, p.square] for p in s.pawns],
        "active": s.active,
        "dice": list(s.dice),
        "used": list(s.used),
        "rerolled": s.rerolled,
        "history": [list(h) for h in s.history],
        "deal": None
        if s.deal is None
        else [s.deal.card, s.deal.mover, s.deal.owner, s.deal.pawn, s.deal.frm, s.deal.price],
        "turns": s.turns,
        "idle": s.idle,
        "offers": [list(o) for o in s.offers],
        "spoken": list(s.spoken),
        "end": s.end,
        "path": list(s.path),
        "previous": None if s.previous is None else _dump_turn(s.previous),
    }


def _dump_turn(t: TurnRecord) -> list[Any]:
    return [t.seat, list(t.dice), list(t.used), [list(m) for m in t.moves], t.paid]


def _load_turn(value: Any) -> TurnRecord | None:
    if value is None:
        return None
    seat, dice, used, moves, paid = value
    return TurnRecord(
        int(seat),
        ints_of(dice),
        tuple(bool(u) for u in used),
        tuple((int(d), int(a), int(b)) for d, a, b in moves),
        int(paid),
    )


def load_state(d: Mapping[str, Any]) -> NomadiState:
    try:
        deal = d["deal"]
        return NomadiState(
            players=int(d["players"]),
            course=str(d["course"]),
            bribes=str(d["bribes"]),
            phase=str(d["phase"]),
            rng=Rng(int(d["rng"])),
            values=ints_of(d["values"]),
            board_cards=tuple((int(a), int(b)) for a, b in d["board_cards"]),
            pile=ints_of(d["pile"]),
            held=tuple(ints_of(h) for h in d["held"]),
            known=tuple(ints_of(k) for k in d["known"]),
            coins=ints_of(d["coins"]),
            pawns=tuple(Pawn(int(o), int(sq)) for o, sq in d["pawns"]),
            active=int(d["active"]),
            dice=ints_of(d["dice"]),
            used=tuple(bool(u) for u in d["used"]),
            rerolled=bool(d["rerolled"]),
            history=tuple((int(a), int(b), int(c), int(e)) for a, b, c, e in d["history"]),
            deal=None if deal is None else Deal(*(int(v) for v in deal)),
            turns=int(d["turns"]),
            idle=int(d["idle"]),
            offers=tuple((int(a), int(b), str(c)) for a, b, c in d["offers"]),
            spoken=ints_of(d["spoken"]),
            end=str(d["end"]),
            path=ints_of(d["path"]),
            previous=_load_turn(d["previous"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"nomadi state: {error}") from error
