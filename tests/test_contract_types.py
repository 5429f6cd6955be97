"""The contract's own values (games/contract.py): outcome ranking, options, events."""

from __future__ import annotations

import json

import pytest

from games.contract import Event, InvalidOption, OptionSpec, Outcome, resolve_options
from games.text import Term


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
