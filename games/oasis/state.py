"""Oasis's immutable state, the facts derived from it, and its JSON form."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.contract import Seat
from games.oasis.model import BOARD, CONTENT, LANDS, MULTIPLIERS
from games.rng import Rng
from games.text import ints_of, strs_of

EMPTY = "."  # an empty square in ``ground`` (no tile) and ``herd`` (no camel)


@dataclass(frozen=True)
class OasisState:
    players: int
    rng: Rng
    phase: str  # offer, choose, bonus, over
    round: int  # 1-based
    ranks: tuple[int, ...]  # per seat, the rank tile held at the start of the round
    received: tuple[int, ...]  # per seat, the rank tile received this round (0: none)
    cursor: int  # index in the rank order of who offers or chooses now
    out: tuple[Seat, ...]  # seats with no offer this round (R5)
    stacks: tuple[tuple[str, ...], ...]  # per seat, card codes, top first (secret)
    draw: tuple[str, ...]  # top first (secret order)
    discard: tuple[str, ...]  # face up
    offers: tuple[tuple[str, ...], ...]  # per seat, its offer this round
    taken: tuple[int, ...]  # per offerer, the seat that took the offer (-1: on the table)
    lands: tuple[int, ...]  # landscape tiles left, in LANDS order
    piles: tuple[int, ...]  # multiplier tiles left, in MULTIPLIERS order
    mults: tuple[tuple[int, ...], ...]  # per seat, multiplier tiles held, in MULTIPLIERS order
    ground: str  # per square, EMPTY or the letter of the tile on it
    herd: str  # per square, EMPTY or the seat digit of the camel on it
    pawns: tuple[tuple[int, Seat], ...]  # (square, owner), sorted: a pawn marks its domain
    pending: tuple[int, ...]  # placements the chooser still owes: oasis, steppe, stony, camels
    moved: tuple[int, ...] = ()  # where camels moved for this offer now stand (§10.21)
    last: tuple[int, ...] = ()  # squares changed by the last acquisition or bonus
    last_seat: int = -1
    end: str = ""  # "track" or the letter of the emptied pile, once over


# ---------------------------------------------------------------- facts derived from the state


def order(s: OasisState) -> tuple[Seat, ...]:
    """This round's rank order: Noble (rank 1) first."""
    return tuple(sorted(range(s.players), key=lambda seat: s.ranks[seat]))


def noble(s: OasisState) -> Seat:
    return order(s)[0]


def current(s: OasisState) -> Seat | None:
    if s.phase in ("offer", "choose"):
        return order(s)[s.cursor] if s.cursor < s.players else None
    if s.phase == "bonus":
        return noble(s)
    return None


def can_reveal(s: OasisState, seat: Seat) -> bool:
    """R2: k + 1 cards offered still leaves a card for the next round: 2(k+1) <= s + 2,
    where s = the stack at the start of the offer, i.e. k <= the cards left."""
    k = len(s.offers[seat])
    return 1 <= k < 3 and k <= len(s.stacks[seat])


def open_offers(s: OasisState) -> tuple[Seat, ...]:
    """Offerers whose offer is still on the table, in seat order."""
    return tuple(seat for seat in range(s.players) if s.offers[seat] and s.taken[seat] < 0)


def pawns_left(s: OasisState, seat: Seat) -> int:
    return CONTENT.pawns - sum(1 for _, owner in s.pawns if owner == seat)


def camels_left(s: OasisState, seat: Seat) -> int:
    return CONTENT.camels - s.herd.count(str(seat))


def empty_track(s: OasisState) -> tuple[int, ...]:
    return tuple(sq for sq in BOARD.track if s.herd[sq] == EMPTY)


# ---------------------------------------------------------------- JSON


def dump_state(s: OasisState) -> dict[str, Any]:
    return {
        "players": s.players,
        "rng": s.rng.state,
        "phase": s.phase,
        "round": s.round,
        "ranks": list(s.ranks),
        "received": list(s.received),
        "cursor": s.cursor,
        "out": list(s.out),
        "stacks": [list(st) for st in s.stacks],
        "draw": list(s.draw),
        "discard": list(s.discard),
        "offers": [list(o) for o in s.offers],
        "taken": list(s.taken),
        "lands": list(s.lands),
        "piles": list(s.piles),
        "mults": [list(m) for m in s.mults],
        "ground": s.ground,
        "herd": s.herd,
        "pawns": [list(p) for p in s.pawns],
        "pending": list(s.pending),
        "moved": list(s.moved),
        "last": list(s.last),
        "last_seat": s.last_seat,
        "end": s.end,
    }


def _squares(value: Any, letters: str) -> str:
    text = str(value)
    if len(text) != len(BOARD.cells) or set(text) - set(letters + EMPTY):
        raise ValueError("a board string of the wrong size or with unknown letters")
    return text


def load_state(d: Mapping[str, Any]) -> OasisState:
    try:
        players = int(d["players"])
        s = OasisState(
            players=players,
            rng=Rng(int(d["rng"])),
            phase=str(d["phase"]),
            round=int(d["round"]),
            ranks=ints_of(d["ranks"]),
            received=ints_of(d["received"]),
            cursor=int(d["cursor"]),
            out=ints_of(d["out"]),
            stacks=tuple(strs_of(st) for st in d["stacks"]),
            draw=strs_of(d["draw"]),
            discard=strs_of(d["discard"]),
            offers=tuple(strs_of(o) for o in d["offers"]),
            taken=ints_of(d["taken"]),
            lands=ints_of(d["lands"]),
            piles=ints_of(d["piles"]),
            mults=tuple(ints_of(m) for m in d["mults"]),
            ground=_squares(d["ground"], LANDS),
            herd=_squares(d["herd"], "".join(str(i) for i in range(players))),
            pawns=tuple((int(sq), int(owner)) for sq, owner in d["pawns"]),
            pending=ints_of(d["pending"]),
            moved=ints_of(d["moved"]),
            last=ints_of(d["last"]),
            last_seat=int(d["last_seat"]),
            end=str(d["end"]),
        )
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"oasis state: {error}") from error
    if len(s.lands) != len(LANDS) or len(s.piles) != len(MULTIPLIERS):
        raise ValueError("oasis state: wrong number of piles")
    return s
