"""The engines' random streams (games/rng.py): deterministic, in range, fair enough."""

from __future__ import annotations

from collections import Counter

from hypothesis import given
from hypothesis import strategies as st

from games.rng import Rng, derive_seed


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


def test_derived_seeds_of_nearby_tuples_do_not_collide() -> None:
    """Bots' random streams come from (game, version, seat): each must differ."""
    seeds = {
        derive_seed(game, version, seat)
        for game in (1, 2)
        for version in range(500)
        for seat in range(5)
    }
    assert len(seeds) == 2 * 500 * 5
    assert derive_seed(7, 1, 0) != derive_seed(7, 0, 1)
