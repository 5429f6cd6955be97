"""A greedy Oasis bot: it decides from its seat's view and the legal moves only.

It values cards by what they score for it now (tiles where it holds the
matching multiplier, multipliers where it owns land or camels), grows its own
domains and its largest herd, and keeps its pawns where they are worth most.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.oasis import rules
from games.oasis.engine import GAME
from games.oasis.model import (
    AUTO,
    BOARD,
    LANDS,
    MULTIPLIER_OF,
    MULTIPLIERS,
    NOCLAIM,
    Bonus,
    Camel,
    CamelMove,
    DomainView,
    Move,
    OasisView,
    Reveal,
    Stop,
    Take,
    Tile,
    adjacent,
    card,
)
from games.oasis.state import OasisState
from games.rng import Rng, best_of
from games.search import win_shares


def choose_move(view: OasisView, legal: Sequence[Move], rng: Rng) -> Move:
    moves = list(legal)
    first = moves[0]
    if isinstance(first, Reveal | Stop):
        return _offer(view, moves, rng)
    if isinstance(first, Take):
        return best_of(moves, rng, lambda m: _offer_value(view, m))
    domain_of = {sq: d for d in view.domains for sq in d.squares}
    return best_of(moves, rng, lambda m: _placement_value(view, m, domain_of))


def _mine(view: OasisView) -> dict[str, int]:
    assert view.viewer is not None
    return view.multipliers[view.viewer] or {}


def _offer(view: OasisView, moves: list[Move], rng: Rng) -> Move:
    """A bigger offer is taken earlier (a better rank next round) but draws
    fewer cards: grow it now and then, more readily from a deep stack."""
    if Reveal() not in moves:
        return Stop()
    assert view.viewer is not None
    shown = len(view.offers[view.viewer])
    odds = 6 if view.stacks[view.viewer] >= 4 else 4
    if shown >= 2:
        odds -= 3
    roll, _ = rng.randbelow(10)
    return Reveal() if roll < odds else Stop()


def _offer_value(view: OasisView, move: Move) -> float:
    assert isinstance(move, Take) and view.viewer is not None
    mine = _mine(view)
    owned = view.owned[view.viewer]
    herd = view.herds[view.viewer]
    value = 0.0
    for code in view.offers[move.seat]:
        kind = card(code)
        if kind.effect in LANDS:
            value += kind.amount * (1 + 1.5 * mine.get(MULTIPLIER_OF[kind.effect], 0))
        elif kind.effect == "camels":
            value += kind.amount * (1 + 1.5 * mine.get("goods", 0))
        elif kind.effect == "goods":
            value += kind.amount * (1 + herd)
        elif kind.effect == "cards":
            value += 1
        else:
            land = next(t for t, m in MULTIPLIER_OF.items() if m == kind.effect)
            value += kind.amount * (1 + owned[land])
    return value - (1 if move.seat == view.viewer else 0)


def _placement_value(view: OasisView, move: Move, domain_of: dict[int, DomainView]) -> float:
    if isinstance(move, Bonus):
        if move.action is None:
            return 0.0
        return 0.5 + _placement_value(view, move.action, domain_of)
    if isinstance(move, Camel | CamelMove):
        return _camel_value(view, move)
    assert isinstance(move, Tile) and view.viewer is not None
    me = view.viewer
    weight = 1 + _mine(view).get(MULTIPLIER_OF[move.land], 0)
    touching = {domain_of[n] for n in adjacent(move.square) if n in domain_of}
    same = [d for d in touching if d.land == move.land]
    joined_bonus = sum(
        1 for n in adjacent(move.square) if BOARD.bonus.get(n) == move.land and n not in domain_of
    )
    if same:
        domain = same[0]
        gain = 1 + joined_bonus
        if domain.owner == me:
            return weight * gain + 1
        size = len(domain.squares) + gain  # an unowned domain: claim it
        if move.pawn == NOCLAIM:
            return 0.1
        return weight * size - _given_up(view, move)
    # A new domain: worth more beside a bonus square, and only with a pawn.
    if move.pawn == AUTO and view.pawns_left[me] == 0:
        return 0.2
    return weight * (1 + joined_bonus) - _given_up(view, move)


def _given_up(view: OasisView, move: Tile) -> float:
    """What a pawn moved away leaves behind (its domain, now unowned)."""
    if move.pawn < 0:
        return 0.0
    weight_of = _mine(view)
    for domain in view.domains:
        if domain.pawn == move.pawn:
            return len(domain.squares) * (1 + weight_of.get(MULTIPLIER_OF[domain.land], 0)) + 0.5
    return 0.0


def _camel_value(view: OasisView, move: Camel | CamelMove) -> float:
    assert view.viewer is not None
    mine = {sq for sq, owner in view.camels if owner == view.viewer}
    if isinstance(move, CamelMove):
        mine.discard(move.frm)
        to = move.to
    else:
        to = move.square
    mine.add(to)
    # The herd the camel ends in: its size is what SC1 multiplies.
    group, todo = {to}, [to]
    while todo:
        for n in adjacent(todo.pop()):
            if n in mine and n not in group:
                group.add(n)
                todo.append(n)
    return (1 + _mine(view).get("goods", 0)) * len(group) / 2


# --------------------------------------------------------------------------- for the search


GROWTH, MORE = 3.0, 1.5  # squares and multipliers a line may still gain, at the start


def evaluate(state: OasisState) -> tuple[float, ...]:
    """Each seat's expected share of the result, for the search (games/search.py,
    on sampled worlds): every scoring line (SC1-SC4) as size x multiplier, both
    raised by what the game left may still add to them (so that squares without
    their multiplier yet, or the reverse, count for something), softened by what
    is left to play."""
    left = 1.0 - GAME.progress(state)
    grow, more = GROWTH * left, MORE * left
    values = []
    for seat in range(state.players):
        held = dict(zip(MULTIPLIERS, state.mults[seat], strict=True))
        owned = rules.owned_squares(state, seat)
        value = (rules.largest_herd(state, seat) + grow) * (held["goods"] + more)
        for land in LANDS:
            value += (owned[land] + grow) * (held[MULTIPLIER_OF[land]] + more)
        values.append(value - 4 * grow * more)
    return win_shares(values, 8 + 16 * left)
