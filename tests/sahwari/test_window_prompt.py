"""An ability window's public prompt gives the seat's own uses as examples; the
post names people, never seats, so an example aimed at a player's camel
(``… camel P1 …``) comes only when the seat has nothing else to show."""

from __future__ import annotations

import random

from games.sahwari import GAME, notation
from games.sahwari.context import Ctx
from games.sahwari.engine import NAMES_A_SEAT, window_examples
from games.sahwari.legal import window_uses
from games.sahwari.state import SahwariState

SEEDS = range(8)  # random games in which such windows come up, all table sizes
MAX_PLIES = 400


def names_a_seat(text: str) -> bool:
    return NAMES_A_SEAT.search(text) is not None


def random_states(seed: int) -> list[SahwariState]:
    rng = random.Random(seed)
    state = GAME.new(2 + seed % 3, seed, {})
    seen = [state]
    for _ in range(MAX_PLIES):
        seats = GAME.to_act(state)
        if not seats:
            break
        state = GAME.apply(state, seats[0], rng.choice(GAME.legal_moves(state, seats[0])))
        seen.append(state)
    return seen


def test_window_examples_name_no_seat_unless_nothing_else_can_be_shown() -> None:
    mixed = 0  # windows offering both kinds of use: the case that matters
    for seed in SEEDS:
        for state in random_states(seed):
            for seat in range(len(state.clans)):
                uses = [notation.format_move(m) for m in window_uses(Ctx(state), seat)]
                terms = window_examples(state, seat)
                examples = [str(term.params["en"]).strip("`") for term in terms]
                assert len(examples) <= 2 and all(e in uses for e in examples)
                if not uses:
                    assert examples == []
                elif all(names_a_seat(u) for u in uses):
                    assert len(examples) == 1  # the one example there is
                else:
                    mixed += any(names_a_seat(u) for u in uses)
                    assert examples and not any(names_a_seat(e) for e in examples), (uses, examples)
    assert mixed > 0  # the random games did reach such windows
