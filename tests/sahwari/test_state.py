"""Sahwari's setup (spec §4 steps 7-8) and the state's JSON round trip."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from games.sahwari.clan import new_clan, place_card, put_cube, store_cube
from games.sahwari.content import LEADER_IDS
from games.sahwari.state import LEADER, Pending, dump_state, load_state, new_state, with_leaders


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_step_8_leaders_are_chosen_in_reverse_seat_order(players: int) -> None:
    s = new_state(players, seed=4)
    assert s.leaders == ("",) * players and s.clans == ()
    # The top of the stack (its last item) is the last seat: it chooses first.
    assert [p.seat for p in reversed(s.stack)] == list(reversed(range(players)))
    assert all(p.prompt == LEADER for p in s.stack)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_option_random_leaders_deals_distinct_leaders(players: int) -> None:
    s = new_state(players, seed=9, random_leaders=True)
    assert s.stack == () and len(set(s.leaders)) == players
    assert set(s.leaders) <= set(LEADER_IDS)
    assert [c.leader for c in s.clans] == list(s.leaders)


def test_setup_step_7_each_clan_starts_with_one_storage_cube() -> None:
    s = with_leaders(new_state(3, seed=2), ("spy", "merchant", "explorer"))
    assert all(c.storage == 1 and c.track == 0 and c.row.cards == () for c in s.clans)
    assert all(c.convoys == () and c.attack_tokens == 0 and c.locked == () for c in s.clans)


def test_setup_is_decided_by_the_seed_and_options() -> None:
    assert new_state(4, 11) == new_state(4, 11)
    assert new_state(4, 11) != new_state(4, 12)
    assert new_state(4, 11).table != new_state(4, 11, random_layout=True).table
    with pytest.raises(ValueError):
        new_state(5, 1)


def test_the_state_dumps_to_json_and_loads_back_equal() -> None:
    s = with_leaders(new_state(4, seed=6), ("spy", "merchant", "explorer", "brigand"))
    clan = new_clan("spy")
    row = place_card(clan.row, "C10", "right")  # the K7 example: slot R1
    clan = replace(store_cube(clan), row=put_cube(row, "R1"), convoys=("Y01", "B03"), used=("Y01",))
    s = replace(
        s,
        clans=(clan, *s.clans[1:]),
        known=(("B03", (0, 2)),),
        removed=("B07",),
        stack=(Pending("window", 1, ("W2",)), Pending("effects", 1, ("CHEST", "BOWL"))),
        round=3,
        active=1,
        arrival=7,
        track_used=("SPY",),
    )
    data = json.loads(json.dumps(dump_state(s)))
    assert load_state(data) == s
    assert load_state(json.loads(json.dumps(dump_state(new_state(2, 1))))) == new_state(2, 1)


def test_a_damaged_state_is_refused() -> None:
    data = dump_state(new_state(2, 1))
    del data["table"]["deck"]
    with pytest.raises(ValueError, match="sahwari state"):
        load_state(data)
