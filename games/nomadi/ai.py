"""A greedy Nomadi bot: it decides from its seat's view and the legal moves only."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from games.nomadi.engine import GAME
from games.nomadi.model import (
    ARRIVAL_PAY,
    BOARD,
    Accept,
    Buy,
    DieMove,
    Move,
    NoBribe,
    NomadiView,
    Offer,
    PlaceCard,
    PlacePawn,
    Refuse,
    Reroll,
    col_row,
    king_distance,
)
from games.nomadi.state import NomadiState
from games.rng import Rng, best_of
from games.search import win_shares

CARD_MEAN = 15 / 18  # the mean value of an unseen desert card


def choose_move(view: NomadiView, legal: Sequence[Move], rng: Rng) -> Move:
    moves = list(legal)
    for move in moves:
        if isinstance(move, Accept):  # free coins, and they bind nothing
            return move
    first = moves[0]
    if isinstance(first, Reroll | NoBribe) or any(isinstance(m, NoBribe) for m in moves):
        return next(m for m in moves if isinstance(m, Reroll | NoBribe))
    if isinstance(first, Offer):
        return _offer(view, moves)
    if isinstance(first, Buy | Refuse):
        deal = view.deal
        buy = deal is not None and deal.price == 0 and Buy() in moves
        return Buy() if buy else Refuse()
    goal = BOARD.goal_of(view.course)
    # Setup: a grouped setup offers cards and pawns at once; cards first.
    cards = [m for m in moves if isinstance(m, PlaceCard)]
    if cards:  # where the caravan will pass early
        return best_of(cards, rng, lambda m: -abs(king_distance(_sq(m), BOARD.start) - 3))
    pawns = [m for m in moves if isinstance(m, PlacePawn)]
    if pawns:  # the front rows (2-player bot games: 4.5 points a game better than the back)
        return best_of(pawns, rng, lambda m: -king_distance(_sq(m), goal))
    return best_of(moves, rng, lambda m: _die_score(view, m, goal))


@cache
def steps_to(sq: int, area: frozenset[int]) -> int:
    """Orthogonal steps from ``sq`` to the nearest square of ``area``."""
    col, row = col_row(sq)
    return min(abs(col - c) + abs(row - r) for c, r in map(col_row, area))


def _sq(move: Move) -> int:
    return move.square if isinstance(move, PlaceCard | PlacePawn) else 0


def _offer(view: NomadiView, moves: list[Move]) -> Move:
    """Keep a good card (ask the most), sell a poor one cheaply."""
    prices = [m.price for m in moves if isinstance(m, Offer)]
    value = view.deal.value if view.deal is not None else None
    if value is None or value >= 2:
        return Offer(max(prices))
    return Offer(min(prices) if value <= 0 else min(1, max(prices)))


def _die_score(view: NomadiView, move: Move, goal: frozenset[int]) -> float:
    if not isinstance(move, DieMove):
        return 0.0
    me = view.viewer
    owners = {p.square: p.owner for p in view.pawns if p.square >= 0}
    owner = owners[move.frm]
    own = owner == me
    # Steps (not king moves) to the goal: a staircase caravan only advances
    # when its tail leapfrogs forward, which king distance would not reward.
    progress = steps_to(move.frm, goal) - steps_to(move.to, goal)
    score = progress * (1.0 if own else 0.4)
    if move.to in view.cards:
        score += 1 + (CARD_MEAN if own else 0.5)
    if move.to in goal:
        pay = ARRIVAL_PAY[min(view.arrivals, 2)]
        score += pay if own else pay / 2 - pay / 4
        if view.arrivals == 2:
            score += 20  # the game ends now: cheap when ahead, and it stops the bleeding
    crossing = not BOARD.goal_side(move.frm) and BOARD.goal_side(move.to)
    if crossing:
        if not view.crossed:
            score += 5
        others = [sq for sq in owners if sq != move.frm]
        if all(BOARD.goal_side(sq) for sq in others):
            score += -5 if own else 2
    last_out = all(sq not in BOARD.start for sq in owners if sq != move.frm)
    if own and last_out and move.frm in BOARD.start and move.to not in BOARD.start:
        score += 5
    return score


# --------------------------------------------------------------------------- for the search


OWN_SHARE = 0.75  # of an arrival's pay, what the owner may expect (others moving it pay half)
ARRIVAL_DECAY = 0.85  # per step still to go


def evaluate(state: NomadiState) -> tuple[float, ...]:
    """Each seat's expected share of the result, for the search (games/search.py,
    on sampled worlds, whose card values it reads as they are there): coins and
    cards held, plus the arrival pay the pawns nearest the oasis may still
    earn, softened by what is left to play."""
    values = [float(v) for v in GAME.scores(state)]
    if state.phase == "turn":
        goal = BOARD.goal_of(state.course)
        arrived = sum(1 for p in state.pawns if p.square in goal)
        racing = sorted(
            (steps_to(p.square, goal), p.owner)
            for p in state.pawns
            if p.square >= 0 and p.square not in goal
        )
        for pay, (steps, owner) in zip(ARRIVAL_PAY[arrived:], racing, strict=False):
            values[owner] += OWN_SHARE * pay * ARRIVAL_DECAY**steps
    return win_shares(values, 3 + 6 * (1 - GAME.progress(state)))
