"""The shared engine helpers: PRNG, outcome ranking, options, events, autocomplete."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.contract import Event, InvalidOption, OptionSpec, Outcome, bot_move, resolve_options
from games.desert import GAME
from games.desert.ai import choose_move
from games.rng import Rng, derive_seed
from games.suggestions import complete
from games.text import Term


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


def test_outcome_tiebreak_separates_equal_scores() -> None:
    outcome = Outcome.from_scores([42, 42, 30], tiebreak=[[1, 0], [2, 0], [9, 9]])
    assert outcome.ranks == (2, 1, 3)
    assert outcome.winners == (1,)
    # The tie-break only matters between equal scores.
    assert Outcome.from_scores([10, 20], tiebreak=[[5], [0]]).winners == (1,)


def test_outcome_equal_tiebreaks_share_rank_and_victory() -> None:
    outcome = Outcome.from_scores([42, 42, 42, 10], tiebreak=[[3], [3], [1], [7]])
    assert outcome.ranks == (1, 1, 3, 4)
    assert outcome.winners == (0, 1)
    breakdown = [[("water", 2)], [("water", 1)]]
    both = Outcome.from_scores([5, 5], breakdown, tiebreak=[[0], [0]])
    assert both.winners == (0, 1) and both.breakdown == ((("water", 2),), (("water", 1),))


SPECS = (
    OptionSpec("course", ("long", "short"), "long"),
    OptionSpec("speed", ("slow", "fast"), "slow"),
)


def test_resolve_options_fills_defaults() -> None:
    assert resolve_options(SPECS, None) == {"course": "long", "speed": "slow"}
    assert resolve_options(SPECS, {"speed": "fast"}) == {"course": "long", "speed": "fast"}
    assert resolve_options((), {}) == {}


def test_resolve_options_rejects_unknown_names() -> None:
    with pytest.raises(InvalidOption) as info:
        resolve_options(SPECS, {"colour": "red"})
    assert info.value.key == "core.option_unknown"
    assert info.value.params == {"name": "colour", "known": "course, speed"}
    with pytest.raises(InvalidOption) as info:
        resolve_options((), {"x": "1"})
    assert info.value.key == "core.option_unknown" and info.value.params["known"] == "-"


def test_resolve_options_rejects_bad_values() -> None:
    with pytest.raises(InvalidOption) as info:
        resolve_options(SPECS, {"course": "medium"})
    assert info.value.key == "core.option_value"
    assert info.value.params == {"name": "course", "value": "medium", "choices": "long, short"}
    assert isinstance(info.value, ValueError)


def test_event_json_round_trip() -> None:
    event = Event(
        "desert.log.camel",
        {
            "colour": Term("desert.colour.white"),
            "space": "F7",
            "count": 2,
            "colours": (Term("desert.colour.pink"), "G8", 3),
            "reason": Term("desert.r9", {"space": "Q10", "colour": Term("desert.colour.green")}),
        },
        seat=1,
        to=1,
        details=(Event("desert.log.water"), Event("desert.log.area", {"count": 3})),
    )
    data = event.to_json()
    assert Event.from_json(json.loads(json.dumps(data))) == event
    assert data["params"]["reason"] == {
        "term": "desert.r9",
        "params": {"space": "Q10", "colour": {"term": "desert.colour.green"}},
    }
    plain = Event("desert.log.pass", seat=0)
    assert plain.to_json() == {"key": "desert.log.pass", "seat": 0}
    assert Event.from_json(plain.to_json()) == plain
    assert not plain.private and event.private


def camel_phase_state() -> tuple[object, int]:
    state = GAME.new(2, 5, {})
    while GAME.view(state, None).phase != "camels" or GAME.view(state, None).allowance_left < 2:
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, bot_move(GAME, choose_move, state, seat, 5))
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
