"""Sahwari clan zone (spec §8 rules K1-K13, §11 rules S1-S6, §12 rules E4-E5 and §12.1).

Test names carry the rule id they check (D41: `rule K6`, `slot R1`). Expected values are worked
out by hand from the spec's tables; nothing here reads the spec.
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.sahwari.clan import (
    CUBE,
    DEAD,
    EMPTY,
    PADLOCK,
    SCORE_LINES,
    Clan,
    ClanRow,
    Counts,
    Side,
    activate_slot_from_storage,
    activated_cards,
    active_icons,
    add_pawn,
    clan_abilities,
    clan_card_points,
    counts,
    decide_winners,
    empty_slots,
    exposed_colours,
    filled_slots,
    formula_points,
    junction_name,
    junction_state,
    junctions,
    leader_points,
    lock_storage_ability,
    matches,
    new_clan,
    padlocked_slots,
    parse_junction,
    place_card,
    placement_sides,
    put_cube,
    remove_cube_and_padlock,
    score,
    score_lines,
    slot_abilities,
    slot_influence,
    storage_abilities_unlocked,
    storage_value,
    store_cube,
    take_storage_cube,
    tiebreak,
    track_abilities_affordable,
    track_value,
    use_track_ability,
    winners,
)
from games.sahwari.content import CARD_IDS, CONTENT

VALUES = [0, 1, 2, 3, 4, 6, 8, 10, 13]  # §11.1 / §11.2, STORAGE_VALUE = TRACK_VALUE
SHEET_LEFT, SHEET_RIGHT = {"R", "G"}, {"P", "O"}  # §15.2 openings


def build(*moves: tuple[str, Side]) -> ClanRow:
    """A clan row from (card, side) placements, each legal under rule K6."""
    row = ClanRow()
    for card, side in moves:
        row = place_card(row, card, side)
    return row


def fill(row: ClanRow, slots: Iterable[str]) -> ClanRow:
    for slot in slots:
        row = put_cube(row, slot)
    return row


def amira_row() -> ClanRow:
    """§12.1: `L2 C20 | L1 C02 | clan sheet | R1 C09 | R2 C07 | R3 C29`, all matching."""
    row = build(
        ("C02", "left"),
        ("C20", "left"),
        ("C09", "right"),
        ("C07", "right"),
        ("C29", "right"),
    )
    row = fill(row, ["L2", "L1", "R1", "R2", "R3"])
    return remove_cube_and_padlock(row, "R2")  # slot R2 padlocked by an attack


def amira(leader: str = "merchant") -> Clan:
    return Clan(
        leader=leader,
        row=amira_row(),
        storage=3,
        track=2,
        convoys=("Y01", "Y05", "B03", "B09"),  # B09 = V4, kept hidden, revealed at the end
        used=("Y05", "B03"),
    )


# --------------------------------------------------------------------------- K1-K8: the clan row


def test_k1_k4_cards_only_at_the_ends_named_from_the_sheet_outwards() -> None:
    row = build(("C02", "left"), ("C09", "right"), ("C20", "left"), ("C07", "right"))
    assert row.left == ("C02", "C20")  # L1, L2
    assert row.right == ("C09", "C07")  # R1, R2
    assert row.cards == ("C20", "C02", "C09", "C07")  # reading order
    assert [name for name, _ in junctions(row)] == ["L2", "L1", "R1", "R2"]
    # a new card goes beyond the outermost one: L3 / R3, never between
    assert place_card(row, "C13", "left").left == ("C02", "C20", "C13")
    assert place_card(row, "C30", "right").right == ("C09", "C07", "C30")


def test_k4_no_rotation_left_edge_always_faces_left() -> None:
    # C13 is R-G: on the left its right band (G) meets the sheet, on the right its left band (R)
    assert matches(ClanRow(), "C13", "left")
    assert not matches(ClanRow(), "C13", "right")
    assert placement_sides(ClanRow(), "C13") == ("left",)
    # C29 is P-O: its left band P fits the right opening, its right band O not the left one
    assert placement_sides(ClanRow(), "C29") == ("right",)
    row = place_card(ClanRow(), "C13", "left")
    assert slot_abilities(row, "L1") == ("SPY", "TORNADO")  # sheet left + C13's right half-slot


def test_k4_card_placed_once_and_only_left_or_right() -> None:
    row = build(("C02", "left"))
    with pytest.raises(ValueError, match="already"):
        place_card(row, "C02", "left")
    with pytest.raises(ValueError):
        place_card(row, "C01", "middle")  # type: ignore[arg-type]


def test_k5_first_card_on_each_side_against_the_clan_sheet_openings() -> None:
    assert exposed_colours(ClanRow(), "left") == ("R", "G")
    assert exposed_colours(ClanRow(), "right") == ("P", "O")
    for card in CONTENT.cards:
        assert matches(ClanRow(), card, "left") == (card.right.colour in SHEET_LEFT), card.id
        assert matches(ClanRow(), card.id, "right") == (card.left.colour in SHEET_RIGHT), card.id


def test_k5_d42_opening_colours_only_while_that_side_has_no_card() -> None:
    row = build(("C02", "left"))  # C02 is R-R: the exposed left colour is now R only
    assert exposed_colours(row, "left") == ("R",)
    assert matches(row, "C20", "left")  # C20 G-R: right band R
    assert not matches(row, "C04", "left")  # C04 G-G: G is an opening colour but L1 shows R
    assert exposed_colours(row, "right") == ("P", "O")  # the right side is still empty


def test_k6_d10_a_matching_end_is_mandatory() -> None:
    # C02 (R-R) matches the left opening only
    assert placement_sides(ClanRow(), "C02") == ("left",)
    with pytest.raises(ValueError, match="rule K6"):
        place_card(ClanRow(), "C02", "right")
    # C31 (O-R) matches both openings: free choice between the two matching ends
    assert placement_sides(ClanRow(), "C31") == ("left", "right")


def test_k6_no_match_anywhere_allows_both_ends_mismatched() -> None:
    # C16 is R-P: P does not fit the left opening, R does not fit the right one
    assert placement_sides(ClanRow(), "C16") == ("left", "right")
    assert junction_state(place_card(ClanRow(), "C16", "left"), "L1") == DEAD
    assert junction_state(place_card(ClanRow(), "C16", "right"), "R1") == DEAD


def test_k6_later_cards_match_the_outer_bands() -> None:
    row = build(("C02", "left"), ("C09", "right"))  # exposed: R on the left, P on the right
    assert placement_sides(row, "C01") == ("left",)  # R-R: right band R
    assert placement_sides(row, "C07") == ("right",)  # P-P: left band P
    assert placement_sides(row, "C25") == ("left", "right")  # P-R: matches both ends
    assert placement_sides(row, "C15") == ("left", "right")  # R-P: matches neither end
    assert junction_state(place_card(row, "C15", "left"), "L2") == DEAD
    assert placement_sides(row, "C04") == ("left", "right")  # G-G: matches neither end
    assert junction_state(place_card(row, "C04", "right"), "R2") == DEAD


def test_k7_example_c10_at_slot_r1() -> None:
    row = place_card(ClanRow(), "C10", "right")
    assert junction_state(row, "R1") == EMPTY  # matched: an artefact slot, empty
    assert slot_abilities(row, "R1") == ("BOWL", "CHEST")  # clan BOWL/1 + C10 CHEST/0
    assert slot_influence(row, "R1") == 1
    for card in CONTENT.cards:  # slot R2 matches only with left colour O (C10's right band)
        if card.id != "C10":
            assert matches(row, card, "right") == (card.left.colour == "O"), card.id


def test_k7_slot_influence_and_abilities_inner_then_outer() -> None:
    row = amira_row()
    assert slot_abilities(row, "L2") == ("CHEST", "REFRESH")  # C02 left, then C20 right
    assert slot_abilities(row, "L1") == ("SPY", "SPY")  # clan left, then C02 right
    assert slot_abilities(row, "R1") == ("BOWL", "BOWL")
    assert slot_abilities(row, "R2") == ("CHEST", "SPY")  # C09 right, then C07 left
    assert slot_abilities(row, "R3") == ("TORNADO", "ATTACK")
    assert [slot_influence(row, j) for j in ("L2", "L1", "R1", "R2", "R3")] == [2, 2, 2, 2, 2]


def test_k7_dead_junction_is_no_slot() -> None:
    row = place_card(ClanRow(), "C16", "right")
    assert empty_slots(row) == ()
    for query in (slot_abilities, slot_influence, put_cube):
        with pytest.raises(ValueError, match="dead"):
            query(row, "R1")


def test_k7_junction_names() -> None:
    assert junction_name("left", 3) == "L3"
    assert junction_name("right", 1) == "R1"
    assert parse_junction(" r2 ") == ("right", 2)
    assert parse_junction("L10") == ("left", 10)
    for bad in ("L0", "X1", "L", "R-1", "1R"):
        with pytest.raises(ValueError):
            parse_junction(bad)
    with pytest.raises(ValueError):
        junction_name("left", 0)
    with pytest.raises(ValueError, match="no junction"):
        junction_state(build(("C02", "left")), "L2")


def test_k7_row_rejects_states_contradicting_the_colours() -> None:
    ClanRow(left=("C02",), left_junctions=(CUBE,))
    with pytest.raises(ValueError, match="rule K7"):
        ClanRow(left=("C02",), left_junctions=(DEAD,))
    with pytest.raises(ValueError, match="rule K7"):
        ClanRow(right=("C16",), right_junctions=(EMPTY,))
    with pytest.raises(ValueError, match="junctions"):
        ClanRow(left=("C02",))
    with pytest.raises(ValueError, match="twice"):
        ClanRow(left=("C31",), right=("C31",), left_junctions=(EMPTY,), right_junctions=(EMPTY,))
    with pytest.raises(ValueError, match="no card"):
        ClanRow(left=("C99",), left_junctions=(EMPTY,))
    with pytest.raises(ValueError, match="unknown state"):
        ClanRow(left=("C02",), left_junctions=("full",))  # type: ignore[arg-type]


def test_k8_card_sides_are_its_inner_and_outer_junctions() -> None:
    row = build(("C02", "left"), ("C20", "left"))
    row = fill(row, ["L1", "L2"])
    assert activated_cards(row) == ("C02",)  # L1 = C02's inner, L2 its outer junction
    # C20 at L2 has no outer junction L3 yet: never activated
    assert "C20" not in activated_cards(row)


# --------------------------------------------------------------------------- K9-K13: slots


def test_k9_cube_only_into_an_empty_unpadlocked_slot() -> None:
    row = build(("C02", "left"), ("C09", "right"), ("C04", "right"))  # R2 is dead (G after P)
    assert empty_slots(row) == ("L1", "R1")
    row = put_cube(row, "R1")
    assert empty_slots(row) == ("L1",)
    assert filled_slots(row) == ("R1",)
    with pytest.raises(ValueError, match="already holds a cube"):
        put_cube(row, "R1")
    with pytest.raises(ValueError, match="dead"):
        put_cube(row, "R2")


def test_k10_slot_from_storage_takes_the_rightmost_cube() -> None:
    clan = Clan(leader="merchant", row=build(("C02", "left")), storage=2, locked=(2,))
    after = activate_slot_from_storage(clan, "L1")
    assert after.storage == 1
    assert filled_slots(after.row) == ("L1",)
    assert slot_abilities(after.row, "L1") == ("SPY", "SPY")  # what the caller triggers (K9)
    with pytest.raises(ValueError, match="no cube"):
        activate_slot_from_storage(Clan(leader="merchant", row=clan.row), "L1")
    with pytest.raises(ValueError, match="already holds"):
        activate_slot_from_storage(after, "L1")


def test_k11_a5_padlock_forever() -> None:
    row = fill(build(("C02", "left")), ["L1"])
    with pytest.raises(ValueError, match="holds no cube"):
        remove_cube_and_padlock(build(("C02", "left")), "L1")
    row = remove_cube_and_padlock(row, "L1")
    assert junction_state(row, "L1") == PADLOCK
    assert padlocked_slots(row) == ("L1",)
    assert empty_slots(row) == () and filled_slots(row) == ()
    with pytest.raises(ValueError, match="rule K11"):
        put_cube(row, "L1")
    assert active_icons(row) == ()  # its icons are not active
    assert dict(score_lines(Clan(leader="explorer", row=row)))["slots"] == 0


def test_k12_active_icons_are_those_next_to_filled_slots() -> None:
    row = build(("C02", "left"), ("C20", "left"), ("C09", "right"))
    assert active_icons(row) == ()
    row = fill(row, ["L1", "R1"])
    assert active_icons(row) == ("SPY", "SPY", "BOWL", "BOWL")  # clan sheet icons included
    row = put_cube(row, "L2")
    assert active_icons(row) == ("CHEST", "REFRESH", "SPY", "SPY", "BOWL", "BOWL")


def test_k13_clan_ability_only_when_both_sides_hold_cubes() -> None:
    row = build(("C02", "left"), ("C20", "left"))  # C02 Merchant at L1
    clan = Clan(leader="explorer", row=put_cube(row, "L1"), storage=3)
    assert clan_abilities(clan.row) == ()
    assert dict(score_lines(clan))["clan_cards"] == 0
    clan = Clan(leader="explorer", row=put_cube(clan.row, "L2"), storage=3)
    assert clan_abilities(clan.row) == (("C02", "MERCHANT"),)
    assert clan_card_points(clan) == (("C02", 2),)  # cubes 3 + 2 = 5 -> 2
    # a padlocked side deactivates the card
    padlocked = Clan(leader="explorer", row=remove_cube_and_padlock(clan.row, "L2"), storage=3)
    assert clan_card_points(padlocked) == ()


def test_k13_d31_clan_cards_stack_with_the_leader_and_each_other() -> None:
    row = build(
        ("C02", "left"),  # Merchant card at L1
        ("C20", "left"),
        ("C28", "right"),
        ("C22", "right"),  # Merchant card at R2
        ("C09", "right"),
    )
    row = fill(row, ["L2", "L1", "R2", "R3"])
    clan = Clan(leader="merchant", row=row, storage=2)  # cubes 2 + 4 = 6 -> 3 each
    assert activated_cards(row) == ("C02", "C22")
    assert clan_card_points(clan) == (("C02", 3), ("C22", 3))
    lines = dict(score_lines(clan))
    assert lines["leader"] == 3
    assert lines["clan_cards"] == 6  # the Merchant formula three times in all


# --------------------------------------------------------------------------- S1-S6: tracks


def test_s1_s2_storage_value_is_the_leftmost_visible_value() -> None:
    assert [storage_value(k) for k in range(9)] == VALUES
    for bad in (-1, 9):
        with pytest.raises(ValueError):
            storage_value(bad)


def test_s1_storage_fills_left_to_right_and_empties_from_the_right() -> None:
    clan = new_clan("merchant")
    assert clan.storage == 1  # §15.2: one cube on space 1 at setup
    for _ in range(7):
        clan = store_cube(clan)
    assert clan.storage == 8
    with pytest.raises(ValueError, match="full"):
        store_cube(clan)
    clan = take_storage_cube(clan)  # the cube on space 8 leaves: CHEST is no longer unlocked
    assert clan.storage == 7
    assert (8, "CHEST") not in storage_abilities_unlocked(clan)
    with pytest.raises(ValueError):
        take_storage_cube(Clan(leader="merchant"))


def test_s3_storage_abilities_unlock_with_a_cube_on_the_space() -> None:
    assert storage_abilities_unlocked(Clan(leader="spy", storage=1)) == ()  # space 1: none
    assert storage_abilities_unlocked(Clan(leader="spy", storage=3)) == (
        (2, "SPY"),
        (3, "TORNADO"),
    )
    full = storage_abilities_unlocked(Clan(leader="spy", storage=8))
    assert full == (
        (2, "SPY"),
        (3, "TORNADO"),
        (4, "CARD"),
        (5, "BIRD"),
        (6, "ATTACK"),
        (7, "BOWL"),
        (8, "CHEST"),
    )


def test_s3_two_lock_tokens_per_game_each_space_once() -> None:
    clan = Clan(leader="spy", storage=5)
    clan = lock_storage_ability(clan, 3)
    assert clan.locked == (3,)
    assert [s for s, _ in storage_abilities_unlocked(clan)] == [2, 4, 5]
    with pytest.raises(ValueError, match="rule S3"):
        lock_storage_ability(clan, 3)  # each space once
    with pytest.raises(ValueError, match="rule S3"):
        lock_storage_ability(clan, 6)  # no cube on space 6
    clan = lock_storage_ability(clan, 5)
    assert storage_abilities_unlocked(clan) == ()  # both lock tokens used: no more, ever
    with pytest.raises(ValueError, match="lock tokens"):
        Clan(leader="spy", storage=8, locked=(2, 3, 4))


def test_s3_ability_unavailable_while_its_cube_is_gone() -> None:
    clan = Clan(leader="spy", storage=2)
    assert storage_abilities_unlocked(clan) == ((2, "SPY"),)
    clan = take_storage_cube(clan)
    assert storage_abilities_unlocked(clan) == ()
    assert storage_abilities_unlocked(store_cube(clan)) == ((2, "SPY"),)


def test_s4_s5_track_value_and_pawns_fill_left_to_right() -> None:
    assert [track_value(k) for k in range(9)] == VALUES
    with pytest.raises(ValueError):
        track_value(9)
    clan = Clan(leader="spy")
    for _ in range(8):
        clan = add_pawn(clan)
    assert clan.track == 8
    with pytest.raises(ValueError, match="full"):
        add_pawn(clan)


def test_s6_track_abilities_cost_paid_in_full() -> None:
    costs = {"SPY": 1, "REFRESH": 1, "CHEST": 2, "TORNADO": 2, "ATTACK": 2, "BIRD": 3}
    for pawns in range(5):
        got = track_abilities_affordable(Clan(leader="spy", track=pawns))
        assert set(got) == {a for a, c in costs.items() if c <= pawns}
    clan = use_track_ability(Clan(leader="spy", track=4), "BIRD")
    assert clan.track == 1
    with pytest.raises(ValueError, match="rule S6"):
        use_track_ability(clan, "CHEST")


def test_s6_d33_each_track_ability_once_per_turn() -> None:
    clan = Clan(leader="spy", track=8)
    assert track_abilities_affordable(clan, ["SPY", "BIRD"]) == (
        "REFRESH",
        "CHEST",
        "TORNADO",
        "ATTACK",
    )
    with pytest.raises(ValueError, match="rule S6"):
        use_track_ability(clan, "SPY", used_this_turn=("SPY",))
    assert use_track_ability(clan, "REFRESH", used_this_turn=("SPY",)).track == 7
    with pytest.raises(ValueError, match="no track abilities"):
        track_abilities_affordable(clan, ["FLY"])


# --------------------------------------------------------------------------- E4: scoring


def test_e4_lines_follow_the_steps_in_order() -> None:
    assert SCORE_LINES == (
        "convoys",
        "cards",
        "storage",
        "track",
        "slots",
        "leader",
        "clan_cards",
    )
    assert tuple(line for line, _ in score_lines(new_clan("explorer"))) == SCORE_LINES
    assert score(new_clan("explorer")) == 1  # 1 cube: STORAGE_VALUE[1] = 1


def test_e4_step2_v8_d15_every_owned_convoy_scores_used_or_not() -> None:
    clan = Clan(leader="explorer", convoys=("Y01", "B01", "B13", "B07"), used=("B01",))
    assert dict(score_lines(clan))["convoys"] == 3 + 6 - 5 + 0
    assert score(Clan(leader="explorer", convoys=("B10",))) == -4  # scores may be negative


def test_e4_step2_printed_influence_of_every_card_matched_or_not() -> None:
    row = build(("C01", "left"), ("C04", "left"), ("C07", "right"))  # L2 dead (G-G after R)
    assert junction_state(row, "L2") == DEAD
    assert dict(score_lines(Clan(leader="explorer", row=row)))["cards"] == 1 + 1 + 2


def test_e4_step3_storage_and_track_values() -> None:
    lines = dict(score_lines(Clan(leader="explorer", storage=6, track=8)))
    assert (lines["storage"], lines["track"]) == (8, 13)


def test_e4_step4_only_slots_holding_a_cube_score() -> None:
    row = build(("C12", "right"), ("C10", "right"), ("C02", "left"))
    # slot R1 = BOWL 1 + REFRESH 2 = 3; slot R2 = BOWL 1 + CHEST 0 = 1; slot L1 = SPY 1 + SPY 1
    row = fill(row, ["R1", "R2"])
    assert dict(score_lines(Clan(leader="explorer", row=row)))["slots"] == 4  # L1 is empty
    row = remove_cube_and_padlock(row, "R1")
    assert dict(score_lines(Clan(leader="explorer", row=row)))["slots"] == 1


def test_e4_step5_leader_formulas() -> None:
    # R1 C10 (O-O), R2 C11 (O-O): slot R2 = C10 ATTACK + C11 ATTACK; L1 C01: sheet SPY + BOWL
    row = fill(build(("C10", "right"), ("C11", "right"), ("C01", "left")), ["R2", "L1"])
    zone = {"row": row, "storage": 3, "convoys": ("Y17", "Y05", "B07", "Y01")}
    # cubes 3 + 2 = 5, cards 3, convoys 4, spy 1 + Y05 + B07 = 3, attack 2 + Y17 = 3
    assert counts(Clan(leader="explorer", **zone)) == Counts(5, 3, 4, 3, 3)  # type: ignore[arg-type]
    expected = {
        "merchant": 2,  # floor(5 / 2)
        "diplomat": 1,  # floor(3 / 2)
        "brigand": 4,  # min(5, 4)
        "spy": 1,  # floor(3 / 2)
        "trafficker": 3,  # min(3, 5)
        "explorer": 0,  # no end bonus
    }
    for leader, points in expected.items():
        clan = Clan(leader=leader, **zone)  # type: ignore[arg-type]
        assert leader_points(clan) == points, leader
        assert dict(score_lines(clan))["leader"] == points, leader


def test_e4_counts_cubes_cards_and_convoys() -> None:
    row = fill(build(("C02", "left"), ("C16", "right")), ["L1"])  # R1 dead
    c = counts(Clan(leader="brigand", row=row, storage=4, convoys=("Y01", "B09")))
    assert (c.cubes, c.cards, c.convoys) == (5, 2, 2)


def test_e4_d30_spy_and_attack_count_active_edges_and_owned_tokens_only() -> None:
    # storage 8 unlocks SPY (space 2) and ATTACK (space 6): they never count (D30)
    row = build(("C01", "left"), ("C10", "right"), ("C11", "right"))
    clan = Clan(leader="spy", row=row, storage=8, track=8)
    assert (counts(clan).spy, counts(clan).attack) == (0, 0)
    clan = Clan(leader="spy", row=fill(row, ["L1"]), storage=8)  # the clan sheet's SPY icon
    assert counts(clan).spy == 1
    clan = Clan(leader="spy", row=fill(row, ["L1", "R2"]), convoys=("B02", "B12", "B04"))
    assert counts(clan).spy == 2  # sheet SPY + B02; C11's SPY (right edge) is not active
    assert counts(clan).attack == 4  # C10 ATTACK + C11 ATTACK + B12 + B04


def test_e4_formula_points_half_and_min() -> None:
    c = Counts(cubes=7, cards=5, convoys=2, spy=3, attack=9)
    assert formula_points("MERCHANT", c) == 3
    assert formula_points("DIPLOMAT", c) == 2
    assert formula_points("BRIGAND", c) == 2
    assert formula_points("SPY", c) == 1
    assert formula_points("TRAFFICKER", c) == 7


def test_e4_step6_clan_cards_use_the_whole_zone_counts() -> None:
    # C11 (Trafficker) at R2 between slots R2 and R3 (R3 = C11 SPY 1 + C32 SPY 2)
    row = build(("C10", "right"), ("C11", "right"), ("C32", "right"))
    row = fill(row, ["R2", "R3"])
    clan = Clan(leader="explorer", row=row, storage=1, convoys=("Y18",))
    # attack: C10 + C11 ATTACK at R2 + Y18 = 3; cubes 1 + 2 = 3 -> min 3
    assert clan_card_points(clan) == (("C11", 3),)
    assert dict(score_lines(clan))["clan_cards"] == 3


def test_e4_worked_example_amira_scores_28() -> None:
    clan = amira()
    assert score_lines(clan) == (
        ("convoys", 6),  # +3 +2 +4 -3
        ("cards", 3),  # C20 1 + C02 0 + C09 0 + C07 2 + C29 0
        ("storage", 3),  # STORAGE_VALUE[3]
        ("track", 2),  # TRACK_VALUE[2]
        ("slots", 8),  # L2 2 + L1 2 + R1 2 + R3 2 (R2 padlocked)
        ("leader", 3),  # Merchant: cubes 3 + 4 = 7 -> 3
        ("clan_cards", 3),  # C02 Merchant, slots L1 and L2 both hold cubes
    )
    assert score(clan) == 28
    assert counts(clan).cubes == 7 and counts(clan).cards == 5
    assert tiebreak(clan) == 12
    assert padlocked_slots(clan.row) == ("R2",)


def test_e4_worked_example_spy_leader_variant() -> None:
    clan = amira("spy")
    # C02 right + clan left (slot L1), Y05; C07's SPY at slot R2 is padlocked
    assert counts(clan).spy == 3
    lines = dict(score_lines(clan))
    assert lines["leader"] == 1
    assert lines["clan_cards"] == 3  # C02's Merchant clan ability still scores
    assert score(clan) == 28 - 3 + 1


# --------------------------------------------------------------------------- E5: winner


def test_e5_highest_score_wins() -> None:
    assert decide_winners({"P1": (30, 5), "P2": (28, 20), "P3": (-2, 0)}) == ("P1",)
    assert decide_winners({}) == ()


def test_e5_d27_tie_broken_by_cards_plus_cubes() -> None:
    assert decide_winners({"P1": (30, 11), "P2": (30, 12), "P3": (29, 40)}) == ("P2",)


def test_e5_d35_still_tied_nobody_wins() -> None:
    assert decide_winners({"P1": (30, 12), "P2": (30, 12), "P3": (29, 40)}) == ()
    assert decide_winners({"P1": (30, 12), "P2": (30, 12), "P3": (30, 11)}) == ()


def test_e5_winners_from_clan_zones() -> None:
    a = amira()  # 28, tie-break 12
    twin = Clan(leader="explorer", storage=8, track=8, convoys=("Y01", "Y02"))  # 13+13+6 = 32
    assert score(twin) == 32
    assert winners({"P1": a, "P2": twin}) == ("P2",)
    same_score = Clan(leader="explorer", storage=8, track=7, convoys=("Y03", "Y04"))
    assert score(same_score) == 13 + 10 + 3 + 2 == 28
    assert winners({"P1": a, "P2": same_score}) == ("P1",)  # tie-break 12 against 8
    assert winners({"P1": a, "P2": amira("merchant")}) == ()


def test_clan_zone_validation() -> None:
    for bad in (
        {"leader": "pirate"},
        {"leader": "spy", "storage": 9},
        {"leader": "spy", "track": -1},
        {"leader": "spy", "attack_tokens": -1},
        {"leader": "spy", "convoys": ("Y99",)},
        {"leader": "spy", "convoys": ("Y01", "Y01")},
        {"leader": "spy", "convoys": ("Y01",), "used": ("Y02",)},
        {"leader": "spy", "storage": 8, "locked": (1,)},
        {"leader": "spy", "storage": 8, "locked": (2, 2)},
    ):
        with pytest.raises(ValueError):
            Clan(**bad)


# --------------------------------------------------------------------------- property


def _touching(row: ClanRow, side: Side, k: int) -> tuple[set[str], str]:
    """Independent of the module: the colours the inner element offers at junction k of
    ``side``, and the band card k shows it (cards are never rotated)."""
    cards = [CONTENT.card(c) for c in row.cards_on(side)]
    if side == "left":
        inner = SHEET_LEFT if k == 1 else {cards[k - 2].left.colour}
        return inner, cards[k - 1].right.colour
    inner = SHEET_RIGHT if k == 1 else {cards[k - 2].right.colour}
    return inner, cards[k - 1].left.colour


def _fits(row: ClanRow, card_id: str, side: Side) -> bool:
    """Independent of the module: the card would match at that end (rule K5, D42)."""
    k = len(row.cards_on(side)) + 1
    cards = [CONTENT.card(c) for c in (*row.cards_on(side), card_id)]
    if side == "left":
        inner = SHEET_LEFT if k == 1 else {cards[k - 2].left.colour}
        return cards[k - 1].right.colour in inner
    inner = SHEET_RIGHT if k == 1 else {cards[k - 2].right.colour}
    return cards[k - 1].left.colour in inner


@settings(max_examples=150, deadline=None)
@given(
    order=st.permutations(CARD_IDS),
    count=st.integers(0, len(CARD_IDS)),
    choices=st.lists(st.integers(0, 1), min_size=len(CARD_IDS), max_size=len(CARD_IDS)),
)
def test_k5_k6_k7_random_placements_keep_slots_matched(
    order: list[str], count: int, choices: list[int]
) -> None:
    row = ClanRow()
    for card_id, choice in zip(order[:count], choices, strict=False):
        sides = placement_sides(row, card_id)
        side = sides[choice % len(sides)]
        fits = {s: _fits(row, card_id, s) for s in ("left", "right")}
        assert not any(fits.values()) or fits[side]  # rule K6 is never violated
        assert set(sides) == ({s for s, ok in fits.items() if ok} or {"left", "right"})
        row = place_card(row, card_id, side)
    assert len(row.cards) == count
    for side in ("left", "right"):
        for k, state in enumerate(row.states_on(side), start=1):
            inner, band = _touching(row, side, k)
            if state == DEAD:  # every dead junction joins two mismatched colours
                assert band not in inner
            else:  # every slot joins two matching colours, and starts empty
                assert band in inner and state == EMPTY
                assert len(slot_abilities(row, junction_name(side, k))) == 2
    assert empty_slots(row) == tuple(j for j, s in junctions(row) if s != DEAD)
