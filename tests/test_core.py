"""The shared engine helpers: PRNG, outcome ranking, autocomplete."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from games.core import Outcome, Rng, complete
from games.desert import GAME
from games.desert.ai import choose_move


@given(st.integers(min_value=0, max_value=2**64 - 1), st.integers(min_value=1, max_value=500))
def test_randbelow_stays_in_range_and_is_deterministic(seed: int, n: int) -> None:
    first, rng1 = Rng.from_seed(seed).randbelow(n)
    second, rng2 = Rng.from_seed(seed).randbelow(n)
    assert 0 <= first < n
    assert (first, rng1) == (second, rng2)


def test_shuffle_is_a_permutation_and_roughly_uniform() -> None:
    rng = Rng.from_seed(42)
    firsts: Counter[int] = Counter()
    for _ in range(3000):
        order, rng = rng.shuffled(range(3))
        assert sorted(order) == [0, 1, 2]
        firsts[order[0]] += 1
    assert all(900 < firsts[i] < 1100 for i in range(3))


def test_dice_cover_one_to_six() -> None:
    rng = Rng.from_seed(1)
    faces = set()
    for _ in range(200):
        face, rng = rng.roll()
        faces.add(face)
    assert faces == {1, 2, 3, 4, 5, 6}


def test_outcome_ties_share_rank_and_victory() -> None:
    outcome = Outcome.from_scores([30, 42, 42, 10])
    assert outcome.winners == (1, 2)
    assert outcome.ranks == (3, 1, 1, 4)


def camel_phase_state() -> tuple[object, int]:
    state = GAME.new(2, 5, {})
    while GAME.view(state, None).phase != "camels" or GAME.view(state, None).allowance_left < 2:
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, choose_move(state, seat))
    return state, GAME.to_act(state)[0]


def test_complete_filters_by_what_was_typed() -> None:
    state, seat = camel_phase_state()
    suggestions = complete(GAME, state, seat, "ora")
    assert suggestions and len(suggestions) <= 25
    assert all(s.command.startswith("orange ") for s in suggestions)


def test_complete_offers_the_second_camel_after_a_whole_first_one() -> None:
    state, seat = camel_phase_state()
    first = GAME.format_move(GAME.legal_moves(state, seat)[0])
    suggestions = complete(GAME, state, seat, first + " ")
    assert suggestions
    for suggestion in suggestions:
        assert suggestion.command.startswith(first + " ")
        # Each suggestion is a whole legal command.
        assert len(GAME.parse(state, seat, suggestion.command)) == 2


def test_complete_is_empty_for_a_seat_that_must_not_act() -> None:
    state, seat = camel_phase_state()
    assert complete(GAME, state, 1 - seat, "") == []
