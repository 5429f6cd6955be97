"""Oasis Nim's bot: it sees only its seat's view and legal moves."""

from __future__ import annotations

from collections.abc import Sequence

from games.rng import Rng
from tests.nim.engine import Move, NimView, Swap, Take


def choose_move(view: NimView, legal: Sequence[Move], rng: Rng) -> Move:
    if not legal:
        raise ValueError("nothing to decide")
    if view.phase == "swap":
        mine = view.cards[view.viewer] if view.viewer is not None else None
        want_swap = mine is not None and mine <= 2
        return next((m for m in legal if isinstance(m, Swap) == want_swap), legal[0])
    # Leave the others a multiple of four when possible, else take at random.
    goal = view.pile % 4
    for move in legal:
        if isinstance(move, Take) and move.count == goal:
            return move
    pick, _ = rng.randbelow(len(legal))
    return legal[pick]
