"""The rules of spec §4-§8 and §10, one or more tests per rule id."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

from games import catalogue
from games.contract import IllegalMove, bot_move
from games.desert import (
    COLOURS,
    GAME,
    DesertState,
    Discard,
    Pass,
    PlaceCamel,
    PlaceLeader,
    parse_coord,
)
from games.desert.ai import choose_move
from games.desert.board import NAMES, SIZE, TERRAIN, layout
from games.desert.state import EMPTY
from games.text import Player, Term
from tests.desert.helpers import play, position, sq

# --------------------------------------------------------------------------- helpers


def refused(state: DesertState, seat: int, text: str, key: str) -> IllegalMove:
    with pytest.raises(IllegalMove) as info:
        play(state, seat, text)
    assert info.value.key == key, info.value.message
    assert info.value.message == catalogue.text("en", key, info.value.params)
    return info.value


def again(state: DesertState, seat: int = 0, allowance: int = 2) -> DesertState:
    """Give ``seat`` a fresh turn (tests skip the other players' turns)."""
    return replace(state, current=seat, allowance=allowance, phase="camels")


def targets(state: DesertState, seat: int, colour: str) -> set[str]:
    return {
        NAMES[sq_of(m.at)]
        for m in GAME.legal_moves(state, seat)
        if isinstance(m, PlaceCamel) and m.colour == colour
    }


def sq_of(at: tuple[int, int]) -> int:
    return (at[1] - 1) * 19 + at[0] - 1


def riders_done(players: int, seed: int) -> DesertState:
    """Play setup and phase A with the baseline AI."""
    state = GAME.new(players, seed)
    while state.phase in ("discard", "riders"):
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, bot_move(GAME, choose_move, state, seat, seed))
    return state


def score(state: DesertState, seat: int, category: str) -> int:
    outcome = GAME.outcome(replace(state, phase="over"))
    assert outcome is not None
    return dict(outcome.breakdown[seat])[category]


# --------------------------------------------------------------------------- setup (§2, §4, §10)


@pytest.mark.parametrize(("players", "supply"), [(2, 22), (3, 26), (4, 30), (5, 29)])
def test_supply_per_colour_by_player_count(players: int, supply: int) -> None:
    """§2 and §10.2: 22/26/30/29 camels per colour when camel turns begin."""
    state = riders_done(players, 3)
    assert state.phase == "camels"
    assert state.supply == (supply,) * 5


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_oases_are_five_random_active_palm_sites(players: int) -> None:
    """§10.4: 5 of the active palm sites, drawn from the seed; 2-3 players never use Q8."""
    draws = set()
    for seed in range(200):
        state = GAME.new(players, seed)
        assert len(state.oases) == 5
        assert state.oases <= set(layout(players).palm_sites)
        draws.add(state.oases)
    assert len(draws) == math.comb(len(layout(players).palm_sites), 5)  # each choice turns up
    assert GAME.new(players, 11) == GAME.new(players, 11)


@pytest.mark.parametrize(("players", "spots"), [(2, 35), (3, 35), (4, 45), (5, 45)])
def test_water_holes_dealt_on_circles_and_bare_palm_sites(players: int, spots: int) -> None:
    """§4.5/§10.5: one hole per active circle and palm site without a tree."""
    state = GAME.new(players, 5)
    lay = layout(players)
    holders = {i for i in range(SIZE) if state.water[i]}
    bare_palms = set(lay.palm_sites) - state.oases
    assert holders == set(lay.water_circles) | bare_palms
    assert len(holders) == spots
    values = [v for v in state.water if v]
    assert all(values.count(v) <= 15 for v in (1, 2, 3))
    if players >= 4:
        assert sorted(values) == [1] * 15 + [2] * 15 + [3] * 15


def test_seats_move_in_order_and_seat_1_starts_both_phases() -> None:
    """§4.1 and §10.8: seat order 1..n in every round; seat 1 starts phase B."""
    state = GAME.new(3, 2)
    order = []
    while state.phase == "riders":
        seat = GAME.to_act(state)[0]
        order.append(seat)
        state = GAME.apply(state, seat, bot_move(GAME, choose_move, state, seat, len(order)))
    assert order == [0, 1, 2] * 5
    assert GAME.to_act(state) == (0,)


def test_five_players_discard_distinct_colours_first() -> None:
    """§4.2/§10.3: with 5 players each puts back a colour no earlier player chose."""
    state = GAME.new(5, 1)
    assert state.phase == "discard"
    assert GAME.legal_moves(state, 0) == [Discard(c) for c in COLOURS]
    state = play(state, 0, "discard pink")
    assert Discard("pink") not in GAME.legal_moves(state, 1)
    error = refused(state, 1, "discard pink", "desert.discard_taken")
    assert error.params == {"other": Player(0), "colour": Term("desert.colour.pink")}
    refused(state, 1, "orange F9", "desert.expect_discard")
    for seat, colour in enumerate(("white", "green", "yellow", "orange"), start=1):
        state = play(state, seat, f"discard {colour}")
    assert state.phase == "riders"
    view = GAME.view(state, None)
    assert view.info[0].discarded == "pink"
    assert view.info[0].colours == ("white", "yellow", "orange", "green")
    assert all(len(p.leaders_left) == 4 for p in view.info)


def test_five_players_have_four_rider_rounds() -> None:
    """§2: 5 players place 4 leaders each, so 4 rider rounds, then camels."""
    state = GAME.new(5, 4)
    rounds = set()
    leaders = 0
    while state.phase != "camels":
        seat = GAME.to_act(state)[0]
        rounds.add(state.rider_round)
        move = bot_move(GAME, choose_move, state, seat, 4)
        leaders += isinstance(move, PlaceLeader)
        state = GAME.apply(state, seat, move)
    assert rounds == {0, 1, 2, 3, 4}  # 0: the discard phase
    assert leaders == 20


def test_new_rejects_bad_player_counts_and_options() -> None:
    for players in (1, 6):
        with pytest.raises(ValueError):
            GAME.new(players, 1)
    with pytest.raises(ValueError):
        GAME.new(3, 1, {"variant": "x"})


# --------------------------------------------------------------------------- phase A


def test_r1_leader_only_on_active_empty_sand() -> None:
    """R1: not on a mountain, a water hole, an oasis, a piece or the unused section."""
    state = GAME.new(3, 8)
    oasis = NAMES[min(state.oases)]
    assert refused(state, 0, "white H5", "desert.off_board").params["rule"] == "R1"
    refused(state, 0, "white B4", "desert.r1_water")
    refused(state, 0, f"white {oasis}", "desert.oasis_space")
    refused(state, 0, "white Q5", "desert.off_board")  # small section, 3 players
    state = play(state, 0, "white O12")
    assert refused(state, 1, "yellow O12", "desert.occupied").params == {
        "rule": "R1",
        "space": "O12",
        "other": Player(0),
        "colour": Term("desert.colour.white"),
    }
    four = GAME.new(4, 8)
    assert PlaceLeader("white", parse_coord("Q5")) in GAME.legal_moves(four, 0)  # type: ignore[arg-type]


def test_r2_leader_not_next_to_an_oasis() -> None:
    state = GAME.new(4, 8)
    lay = layout(4)
    near = {n for o in state.oases for n in lay.neighbours[o]}
    spaces = {sq_of(m.at) for m in GAME.legal_moves(state, 0) if isinstance(m, PlaceLeader)}
    assert spaces and not spaces & near
    oasis = min(state.oases)
    beside = NAMES[lay.neighbours[oasis][0]]
    assert refused(state, 0, f"white {beside}", "desert.r2").params["oasis"] == NAMES[oasis]


def test_r3_leader_not_next_to_any_leader() -> None:
    state = position(3, phase="riders", oases=("D3", "K3", "M7", "D8", "G12"))
    state = play(state, 0, "white F10")
    error = refused(state, 1, "yellow F11", "desert.r3")  # another colour, another player
    assert error.params == {
        "space": "F11",
        "other": Player(0),
        "colour": Term("desert.colour.white"),
        "at": "F10",
    }
    state = replace(state, current=0)
    refused(state, 0, "yellow E10", "desert.r3")  # own leaders too


def test_r4_each_leader_once_and_only_own() -> None:
    """R4: a player places only leaders he owns and has not placed yet."""
    state = GAME.new(2, 3)
    state = play(state, 0, "white F10")
    state = play(state, 1, "yellow C12")
    refused(state, 0, "white K12", "desert.r4_placed")
    assert all(m.colour != "white" for m in GAME.legal_moves(state, 0))  # type: ignore[union-attr]
    five = GAME.new(5, 3)
    for seat, colour in enumerate(COLOURS):
        five = play(five, seat, f"discard {colour}")
    refused(five, 0, "white F10", "desert.r4_discarded")


def test_r5_first_round_colours_differ_when_possible() -> None:
    state = GAME.new(4, 3)
    state = play(state, 0, "orange F10")
    error = refused(state, 1, "orange C12", "desert.r5")
    assert error.params == {"other": Player(0), "colour": Term("desert.colour.orange")}
    assert {m.colour for m in GAME.legal_moves(state, 1)} == set(COLOURS) - {"orange"}  # type: ignore[union-attr]
    for seat, colour in ((1, "white"), (2, "pink"), (3, "green")):
        state = play(state, seat, f"{colour} {('C12', 'J13', 'N5')[seat - 1]}")
    # Round 2: any unplaced colour again.
    assert {m.colour for m in GAME.legal_moves(state, 0)} == set(COLOURS) - {"orange"}  # type: ignore[union-attr]


def test_r5_anything_goes_when_no_fresh_colour_is_left() -> None:
    """R5 (§10.7): with 5 players the last seat may own only colours already placed."""
    state = GAME.new(5, 3)
    for seat, colour in enumerate(COLOURS):  # seat i puts back colour i
        state = play(state, seat, f"discard {colour}")
    for seat, (colour, space) in enumerate(
        (("yellow", "F10"), ("white", "C12"), ("pink", "J13"), ("orange", "N5"))
    ):
        state = play(state, seat, f"{colour} {space}")
    # Seat 5 owns white, yellow, orange, pink: all placed this round already.
    assert {m.colour for m in GAME.legal_moves(state, 4)} == {  # type: ignore[union-attr]
        "white",
        "yellow",
        "orange",
        "pink",
    }


def test_r6_any_r1_space_when_none_meets_r1_to_r3() -> None:
    """R6: only fallback spaces left (one next to an oasis, one next to a leader)."""
    keep = {"C4", "K9"}  # C4 touches the oasis D3; K9 touches the leader at K10
    covered = {
        NAMES[i]: 1 for i in layout(3).active if TERRAIN[i] == "sand" and NAMES[i] not in keep
    }
    state = position(3, phase="riders", leaders={"K10": (2, "green")}, water=covered)
    spaces = {NAMES[sq_of(m.at)] for m in GAME.legal_moves(state, 0) if isinstance(m, PlaceLeader)}
    assert spaces == keep
    assert play(state, 0, "white C4").cells[sq("C4")] != EMPTY


def test_leader_placements_never_enclose_areas() -> None:
    """§10.24/SC3: the first leader alone would 'enclose' the empty board; it must not."""
    state = GAME.new(4, 6)
    first = play(state, 0, "white F10")
    assert set(first.areas) == {EMPTY}
    assert first.last_turn[0].areas == ()
    done = riders_done(4, 6)
    assert set(done.areas) == {EMPTY} and done.scored == frozenset()
    assert all(not v for v in done.water_taken)


# --------------------------------------------------------------------------- phase B legality


def example_one() -> DesertState:
    """Worked example 1 of §7: orange leader on C5, B4 holds a 2."""
    return position(
        4,
        leaders={"C5": (0, "orange"), "E5": (0, "white"), "K10": (1, "orange")},
        water={"B4": 2},
    )


def test_r7_only_existing_caravans_with_supply() -> None:
    state = example_one()
    refused(state, 0, "pink C6", "desert.r7_no_caravan")  # no pink leader
    empty = replace(state, supply=(30, 30, 0, 30, 30))
    refused(empty, 0, "orange C6", "desert.r7_supply")
    assert {m.colour for m in GAME.legal_moves(empty, 0)} == {"white"}  # type: ignore[union-attr]


def test_r8_target_active_empty_and_not_an_oasis() -> None:
    state = position(
        3,
        leaders={"C5": (0, "orange"), "O4": (0, "white"), "C6": (1, "white")},
        water={"B4": 2},
    )
    assert refused(state, 0, "orange H5", "desert.off_board").params["rule"] == "R8"
    refused(state, 0, "white P4", "desert.off_board")  # small section, 3 players
    refused(state, 0, "orange C6", "desert.occupied")
    state = play(state, 0, "orange C4")
    refused(again(state), 0, "orange D3", "desert.oasis_space")
    assert "B4" in targets(state, 0, "orange")  # a water-hole space is fine
    four = position(4, leaders={"O4": (0, "white"), "K10": (1, "green")})
    assert "P4" in targets(four, 0, "white")


def test_r9_next_to_own_caravan_of_that_colour() -> None:
    state = example_one()
    error = refused(state, 0, "orange G10", "desert.r9")
    assert error.params == {"space": "G10", "colour": Term("desert.colour.orange")}
    refused(state, 0, "orange E6", "desert.r9")  # next to white, not orange
    state = play(state, 0, "orange C6 orange C7")  # grows from its camels too
    assert state.cells[sq("C7")] == state.cells[sq("C5")]


def test_r10_not_next_to_another_players_same_colour() -> None:
    state = position(
        4,
        leaders={"C5": (0, "orange"), "F5": (1, "orange"), "K10": (1, "white")},
        camels={"E5": (1, "orange"), "D6": (1, "white")},
    )
    error = refused(state, 0, "orange D5", "desert.r10")
    assert error.params == {
        "space": "D5",
        "other": Player(1),
        "colour": Term("desert.colour.orange"),
        "at": "E5",
    }
    assert "D5" not in targets(state, 0, "orange")
    assert "C6" in targets(state, 0, "orange")  # next to white D6: other colours are fine


def example_two(**extra: object) -> DesertState:
    """Worked example 2 of §7: white leader on B10, A10 holds a 3."""
    return position(
        4,
        leaders={"B10": (0, "white"), "K10": (1, "white"), **extra},  # type: ignore[dict-item]
        water={"A10": 3},
    )


def test_r11_and_10_12_only_the_owner_enters_an_area() -> None:
    state = play(example_two(), 0, "white B9 white B11")
    assert {NAMES[i] for i in range(SIZE) if state.areas[i] == 0} == {"A9", "A10", "A11"}
    inside = play(again(state), 0, "white A10")  # the owner may (§10.12) ...
    assert GAME.view(inside, 0).info[0].area_points == 2  # ... at one point's cost
    # Only a constructed position puts another caravan next to an area (R11 ⊂ R9).
    fake = position(
        4,
        leaders={"B10": (1, "yellow"), "K10": (0, "white")},
        areas={"A9": 0, "A10": 0, "A11": 0},
        seat=1,
    )
    assert refused(fake, 1, "yellow A10", "desert.r11").params == {
        "space": "A10",
        "other": Player(0),
    }


@pytest.mark.parametrize(("players", "reduced"), [(2, [0]), (3, [0, 1]), (4, [0, 1]), (5, [0, 1])])
def test_r12_first_camel_round_allowance(players: int, reduced: list[int]) -> None:
    """R12: one camel for seats 1 and 2 (seat 1 only with 2 players), then two."""
    state = riders_done(players, 9)
    seen = {}
    while state.turn < 2 * players:
        seat = GAME.to_act(state)[0]
        if state.turn not in seen:
            seen[state.turn] = state.allowance
        state = GAME.apply(state, seat, bot_move(GAME, choose_move, state, seat, state.turn))
    for turn, allowance in seen.items():
        expected = 1 if turn in reduced else 2
        assert allowance == expected, (turn, allowance)


def test_r12_second_camel_checked_after_the_first() -> None:
    state = example_one()
    assert "C3" not in targets(state, 0, "orange")
    state = play(state, 0, "orange C4 orange C3")  # C3 is reachable only via C4
    assert GAME.to_act(state) == (1,)
    with pytest.raises(IllegalMove) as info:
        play(example_one(), 0, "orange C3 orange C4")
    assert info.value.key == "desert.part_failed"
    assert info.value.params["index"] == 1
    reason = info.value.params["reason"]
    assert isinstance(reason, Term) and reason.key == "desert.r9"


def test_r12_one_camel_turn_refuses_a_second() -> None:
    state = again(example_one(), allowance=1)
    error = refused(state, 0, "orange C4 white E4", "desert.part_failed")
    assert error.params["index"] == 2
    assert error.params["reason"] == Term("desert.r12")
    after = play(state, 0, "orange C4")
    assert GAME.to_act(after) == (1,)


def boxed_in() -> DesertState:
    """White on A9 can go to B9 only, and nowhere after that."""
    return position(
        4,
        leaders={"A9": (0, "white"), "K10": (1, "white")},
        camels={
            "A10": (1, "yellow"),
            "C9": (1, "green"),
            "B8": (1, "orange"),
            "B10": (1, "pink"),
        },
    )


def test_r13_turn_ends_when_no_more_camel_fits() -> None:
    """R13: 'if only one camel can be placed, he places one'."""
    state = boxed_in()
    assert GAME.legal_moves(state, 0) == [PlaceCamel("white", parse_coord("B9"))]  # type: ignore[arg-type]
    after = play(state, 0, "white B9")
    assert GAME.to_act(after) == (1,) and after.allowance == 2
    error = refused(state, 0, "white B9 white C10", "desert.part_failed")
    assert error.params["reason"] == Term("desert.r13_end", {"first": "white B9"})


def test_r13_pass_only_when_nothing_can_be_placed() -> None:
    state = boxed_in()
    error = refused(state, 0, "pass", "desert.r13_pass")
    assert error.params == {"example": "white B9"}
    blocked = play(state, 0, "white B9")
    blocked = replace(blocked, current=0, allowance=2)
    assert GAME.legal_moves(blocked, 0) == [Pass()]
    passed = play(blocked, 0, "pass")
    assert GAME.to_act(passed) == (1,) and passed.passes == 1
    assert passed.last_turn[0].kind == "pass"


# --------------------------------------------------------------------------- scoring


def test_sc1_and_sc2_worked_example_one() -> None:
    """§7 example 1: B4 +2 (SC1), C4 +5 for D3 (SC2), C3 nothing, white scores D3 again."""
    state = play(example_one(), 0, "orange B4 orange C4")
    first, second = state.last_turn
    assert (first.water_space, first.water_points, first.oases) == ((2, 4), 2, ())
    assert second.oases == ((4, 3),)
    assert state.water[sq("B4")] == 0 and state.water_taken[0] == (2,)
    state = play(again(state), 0, "orange C3")
    assert state.last_turn[0].oases == ()
    state = play(state, 0, "white D4")
    assert state.last_turn[1].oases == ((4, 3),)
    assert score(state, 0, "water") == 2
    assert score(state, 0, "oases") == 10


def test_sc2_a_camel_next_to_two_oases_scores_both() -> None:
    """§10.21. No square touches two palm sites on this map, so the oases are put on sand."""
    state = position(4, leaders={"E9": (0, "green"), "K10": (1, "white")}, oases=("E11", "F10"))
    state = play(state, 0, "green E10")
    assert set(state.last_turn[0].oases) == {(5, 11), (6, 10)}
    assert score(state, 0, "oases") == 10


def test_sc3_worked_example_two() -> None:
    """§7 example 2: B9 then B11 close A9 A10 A11; the 3 on A10 is taken; 3 at the end."""
    state = play(example_two(), 0, "white B9 white B11")
    gain = state.last_turn[1].areas
    assert len(gain) == 1
    assert gain[0].spaces == ((1, 9), (1, 10), (1, 11))
    assert (gain[0].water_spaces, gain[0].water_points) == (((1, 10),), 3)
    assert state.last_turn[0].areas == ()
    assert score(state, 0, "water") == 3
    assert score(state, 0, "areas") == 3


def test_sc3_a_yellow_camel_on_a9_means_nothing_is_enclosed() -> None:
    """§7 example 2 and §10.10: any piece in the group, even the encloser's own."""
    for owner in (0, 1):
        state = play(example_two(A9=(owner, "yellow")), 0, "white B9 white B11")
        assert set(state.areas) == {EMPTY}
        assert state.water[sq("A10")] == 3


RING = ("E1", "E2", "F3", "E4", "E5", "D5", "C5", "B4")  # around D3 at distance 2


def ring_position() -> DesertState:
    return position(
        4,
        leaders={"D1": (0, "pink"), "K10": (1, "white")},
        camels={s: (0, "pink") for s in RING},
        water={s: 0 for s in RING},
    )


def test_sc3_enclosed_oasis_scores_for_the_caravan() -> None:
    """SC3 step 3: the oasis D3 inside the new area scores 5; SC5 skips its space."""
    state = play(ring_position(), 0, "pink B3")
    gain = state.last_turn[0]
    assert gain.oases == ()  # B3 is not next to D3 (SC2)
    assert len(gain.areas) == 1
    assert {NAMES[sq_of(c)] for c in gain.areas[0].spaces} == {
        "D3",
        "C2",
        "D2",
        "E3",
        "D4",
        "C4",
        "C3",
    }
    assert gain.areas[0].oases == ((4, 3),)
    assert score(state, 0, "oases") == 5
    assert score(state, 0, "areas") == 6  # 7 spaces, the oasis never counts (§10.14)


def test_sc3_oasis_already_scored_gives_nothing_more() -> None:
    state = ring_position()
    state = replace(state, scored=frozenset({(3, sq("D3"))}))  # caravan id of seat 0 pink
    state = play(state, 0, "pink B3")
    assert state.last_turn[0].areas[0].oases == ()
    assert score(state, 0, "oases") == 5


def test_sc3_group_touching_an_area_is_not_a_new_area() -> None:
    state = replace(
        ring_position(), areas=tuple(1 if i == sq("C2") else EMPTY for i in range(SIZE))
    )
    state = play(state, 0, "pink B3")
    assert state.last_turn[0].areas == ()


def test_sc3_unused_section_bounds_areas_with_2_or_3_players() -> None:
    """§10.6: with 3 players N14 and O13 close O14 against the unused section."""
    for players, enclosed in ((3, True), (4, False)):
        state = position(
            players,
            leaders={"N14": (0, "yellow"), "K10": (1, "white")},
            water={"O14": 0},
        )
        state = play(state, 0, "yellow O13")
        assert (state.areas[sq("O14")] == 0) is enclosed


def test_sc4_worked_example_three_longest_caravans() -> None:
    """§7 example 3: pink 9/9/4 gives 5/5/0; green 12/7 gives Ann 10."""
    free = iter(sorted(layout(3).active))
    leaders, camels = {}, {}
    for owner, colour, length in (
        (0, "pink", 9),
        (1, "pink", 9),
        (2, "pink", 4),
        (0, "green", 12),
        (1, "green", 7),
        (2, "green", 3),
    ):
        leaders[NAMES[next(free)]] = (owner, colour)
        camels.update({NAMES[next(free)]: (owner, colour) for _ in range(length - 1)})
    state = position(3, leaders=leaders, camels=camels)
    assert [score(state, seat, "caravans") for seat in range(3)] == [15, 5, 0]


def test_sc5_area_points_count_empty_non_oasis_spaces() -> None:
    """SC5: taken water-hole spaces count; own camels inside take points off."""
    state = play(example_two(), 0, "white B9 white B11")
    assert GAME.view(state, None).info[0].area_points == 3
    state = play(again(state), 0, "white A9 white A11")
    assert score(state, 0, "areas") == 1


def test_ties_share_victory() -> None:
    """§8/§10.18: equal best totals all win, same rank, no tie-break."""
    state = position(2, leaders={"C5": (0, "pink"), "K10": (1, "pink")}, phase="over")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.scores == (5, 5) and outcome.winners == (0, 1) and outcome.ranks == (1, 1)


# --------------------------------------------------------------------------- end of game


def test_eg1_game_ends_after_the_turn_a_supply_runs_out() -> None:
    state = replace(example_one(), supply=(30, 30, 1, 30, 30))
    mid = play(state, 0, "orange C4")
    assert mid.phase == "camels" and GAME.to_act(mid) == (0,)  # the turn is finished normally
    assert mid.supply[COLOURS.index("orange")] == 0
    end = play(mid, 0, "white E4")
    assert end.phase == "over" and GAME.to_act(end) == ()
    assert GAME.outcome(end) is not None
    assert GAME.legal_moves(end, 0) == [] and GAME.legal_moves(end, 1) == []
    refused(end, 1, "white L10", "desert.game_over")


def test_eg2_a_full_cycle_of_passes_ends_the_game() -> None:
    lay = layout(3)
    homes = {"A9": 0, "K10": 1, "N5": 2}
    # Oases all around: only seat 2 (K10) can still place a camel, once, on L10.
    walls = {NAMES[n] for h in (*homes, "L10") for n in lay.neighbours[sq(h)]}
    state = position(
        3,
        leaders={h: (seat, "white") for h, seat in homes.items()},
        oases=sorted(walls - {"L10", "K10"}),
    )
    state = play(state, 0, "pass")
    state = play(state, 1, "white L10")
    assert state.passes == 0  # a placement breaks the streak
    state = play(state, 2, "pass")
    state = play(state, 0, "pass")
    assert state.phase == "camels"
    state = play(state, 1, "pass")
    assert state.phase == "over" and state.passes == 3


def test_apply_never_mutates_its_input() -> None:
    state = example_two()
    before = GAME.dump(state)
    play(state, 0, "white B9 white B11")
    assert GAME.dump(state) == before
