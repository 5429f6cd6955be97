"""Sahwari rule tests, the turn (spec sahwari.md §4-§7, §12, §16, §17): setup,
turn structure and windows (T1-T7), movement in play (R8-R13), collection
(C1-C6), the guild phase (R9-R11), phase 4, the end (E1-E3), scoring through
the engine (E4, E5, §12.1, D35), D46 and all-or-nothing commands.

Every test drives ``GAME`` (parse / play / outcome) from a position set with
``tests/sahwari/scenario.py``. Names carry the rule id (D41: ``rule C3``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.contract import IllegalMove, InvalidMove, MoveError
from games.sahwari import GAME
from games.sahwari.state import COLLECT, GUILD_MOVE, MOVE, PICK_CARD, RELOCATE, WINDOW
from games.text import Term
from tests.sahwari.scenario import (
    T,
    at,
    camels,
    clan,
    deck,
    finished,
    give_convoys,
    guild,
    items_at,
    keys,
    legal,
    only_face_up,
    prompts,
    public,
    recruitment_row,
    row,
    run,
    started,
    steps,
    swap_tokens,
    tile,
    top,
    where,
    with_row,
)

# --------------------------------------------------------------------------- setup (§4)


def test_setup_leaders_are_chosen_in_reverse_seat_order() -> None:
    """§4 step 8 (D26): the last seat chooses first, among the leaders still available."""
    s = GAME.new(3, 7, {"leaders": "choose"})
    assert [d.seat for d in GAME.decisions(s)] == [2]
    with pytest.raises(MoveError) as refused:
        GAME.parse(s, 0, "leader merchant")
    assert refused.value.key == "sahwari.err.not_your_turn"
    s, events = run(s, 2, "leader spy")
    assert keys(events) == ["leader"] and [d.seat for d in GAME.decisions(s)] == [1]
    assert "leader spy" not in legal(s, 1) and "leader merchant" in legal(s, 1)
    s, _ = run(s, 1, "leader merchant")
    s, _ = run(s, 0, "leader explorer")
    assert [c.leader for c in s.clans] == ["explorer", "merchant", "spy"]
    assert s.active == 0 and s.round == 1 and GAME.decisions(s)[0].seat == 0


def test_setup_random_leaders_deals_distinct_leaders_and_starts_turn_one() -> None:
    """§4 step 8 option: random leaders are dealt, P1 starts turn 1 of round 1 at once."""
    s = GAME.new(4, 11, {"leaders": "random"})
    leaders = [c.leader for c in s.clans]
    assert len(set(leaders)) == 4 and all(leaders)
    assert s.active == 0 and s.round == 1 and top(s) is not None and top(s)[1] == 0


def test_setup_clan_zones_and_supplies_match_section_4() -> None:
    """§4 step 7, §15.6: one cube on storage, no pawn; 22 cubes, 14 pawns, 16 attack tokens (2p)."""
    s = started(2)
    assert all(c.storage == 1 and c.track == 0 and not c.row.cards for c in s.clans)
    assert (s.table.cubes, s.table.pawns, s.table.attack_tokens) == (22, 14, 16)
    assert dict(s.table.camels) == {"P1": 6, "P2": 18, "G1": 12, "G2": 12}


# --------------------------------------------------------------------------- turn structure (T1-T7)


def test_t1_turn_agenda_runs_move_collect_guild_windows_in_order() -> None:
    """T1: W0, phase 1, W1, phase 2, W2, phase 3 (two guild moves), W3, phase 4."""
    s = with_row(started(2), 0, row(), track=1)  # a pawn: every window has a use
    s = at(s, 0, "W0")
    assert prompts(s) == [
        (WINDOW, ("W0",)),
        (MOVE, ()),
        (WINDOW, ("W1",)),
        (COLLECT, ()),
        (WINDOW, ("W2",)),
        (GUILD_MOVE, ("1",)),
        (GUILD_MOVE, ("2",)),
        (WINDOW, ("W3",)),
    ]
    assert GAME.decisions(s)[0].key == "sahwari.decision.window"
    params = GAME.decisions(s)[0].params
    assert params["window"] == Term("sahwari.window.W0")
    # The prompt's examples are this player's own usable abilities, typed as notation.
    examples = params["examples"]
    assert isinstance(examples, tuple) and examples
    for example in examples:
        assert isinstance(example, Term)
        typed = str(example.params["en"]).strip("`")
        (move,) = GAME.parse(s, 0, typed)
        assert move in GAME.legal_moves(s, 0)
    s, _ = run(s, 0, "next")
    assert top(s) == (MOVE, 0, ())
    s, _ = run(s, 0, "move N")
    assert top(s) == (WINDOW, 0, ("W1",))
    s, _ = run(s, 0, "next")
    assert top(s) == (COLLECT, 0, ())


def test_t1_empty_window_is_skipped_so_w3_ends_the_turn_itself() -> None:
    """T1, §17.3, §16: a window with nothing usable is skipped; an empty W3 ends the turn."""
    s = started(2)  # storage 1, no slot, no pawn, no convoy, no attack token
    assert top(s) == (MOVE, 0, ())  # W0 skipped
    kept, events = run(s, 0, "move N; take convoy Y02; guild G1 N; guild G1 S")
    assert "keep" in keys(events)  # Y02 is INF+3 only: kept without asking (T6)
    assert kept.active == 0 and top(kept) == (WINDOW, 0, ("W3",))  # the kept token is usable
    s = clan(s, 0, storage=3, locked=(2, 3))  # both lock tokens spent: no storage ability
    s = tile(s, "B1", ("A", "A"))
    s = at(s, 0, "W0")
    s, events = run(s, 0, "move N; guild G1 N; guild G1 S")
    assert s.clans[0].storage == 4
    assert s.active == 1 and s.round == 1  # W3 had nothing usable: the turn ended


def test_t2_abilities_are_usable_only_in_ones_own_turn() -> None:
    """T2: abilities are only usable during one's own turn; others have no legal step."""
    s = clan(started(2), 1, track=3)
    s = at(s, 0, "W0")
    assert GAME.legal_moves(s, 1) == []
    with pytest.raises(MoveError) as refused:
        GAME.parse(s, 1, "use track SPY")
    assert refused.value.key == "sahwari.err.not_your_turn"


def test_t4_windows_cannot_be_used_while_an_effect_is_pending() -> None:
    """T4: nothing from a window while a sibling effect is pending."""
    s = with_row(started(2), 0, row(right=["C10"]), track=2, storage=2)
    s = at(s, 0, "W2")
    s, _ = run(s, 0, "use slot R1")  # BOWL + CHEST pending (K9)
    assert top(s) is not None and top(s)[0] == "effects"
    assert not [m for m in legal(s, 0) if m.startswith("use ")]
    assert {"chest", "skip CHEST", "skip BOWL"} <= set(legal(s, 0))


def test_t6_only_legal_move_is_played_by_itself() -> None:
    """T6: exactly one legal (direction, stop) is applied automatically."""
    s = started(2)
    s = camels(s, P1="A1", G1="B1")  # east blocked by G1; south: A2, face up
    s = tile(s, "A1", ())
    s = clan(s, 1, track=1)
    s = at(s, 1, "W3")
    s, events = run(s, 1, "end")
    assert "move" in keys(events) and where(s, "P1") == "A2"
    assert top(s) == (COLLECT, 0, ()) and s.arrival == T("A2")


def test_d46_typed_forced_first_move_of_a_turn_is_ignored() -> None:
    """§17.1, D46: a step repeating a forced decision taken since the previous step is ignored."""
    s = started(2)
    s = camels(s, P1="A1", G1="B1")
    s = tile(s, "A1", ())
    s = clan(s, 1, track=1)
    s = at(s, 1, "W3")
    s, _ = run(s, 1, "end")  # P1's only move (S to A2) is played by itself
    s, events = run(s, 0, "move S; take recruit")
    assert "take" in keys(events)


def test_d46_end_is_no_repeat_of_a_skipped_w2_and_is_refused_before_guild_moves() -> None:
    """§17.1, D46, R9: `end` repeats no automatic `next`; with guild moves to make it is refused."""
    s = clan(started(2), 0, storage=3, locked=(2, 3))  # nothing usable: W1 and W2 skip
    s = at(tile(s, "B1", ("A", "A")), 0, "W0")
    with pytest.raises(IllegalMove):
        GAME.parse(s, 0, "move N; end")


def test_t6_tile_holding_one_kind_of_item_is_collected_by_itself() -> None:
    """T6, §16: an arrival tile with only one kind of item is collected automatically."""
    s = tile(started(2), "B1", ("A", "A"))
    s, events = run(s, 0, "move N")
    assert keys(events)[:3] == ["move", "take", "cube_storage"]  # and the cube: storage only
    assert items_at(s, "B1") == ("A",) and s.clans[0].storage == 2


def test_t7_phase_4_refills_the_row_left_to_right_from_the_deck() -> None:
    """T7.1, K14: taken positions stay empty until phase 4, then refill from the deck top."""
    s = started(2)
    s = tile(s, "B1", ("R", "Y02"))
    s = recruitment_row(s, ("C09", "C01", "C04", "C10"))
    s = deck(s, ("C12", "C13"))
    s, _ = run(s, 0, "move N; take recruit; recruit 1 right")
    assert s.table.row == ("", "C01", "C04", "C10")  # empty until phase 4
    s, _ = run(s, 0, "guild G1 N; guild G1 S; end")
    assert s.active == 1 and s.table.row == ("C12", "C01", "C04", "C10")
    assert s.table.deck[0] == "C13"


def test_t7_phase_4_reshuffles_the_discard_pile_when_the_deck_is_empty() -> None:
    """T7.1, K14: the discard pile becomes the new deck when the deck runs out; with both
    empty, positions stay empty."""
    s = clan(started(2), 0, track=1)
    s = recruitment_row(s, ("", "C01", "", "C10"))
    s = replace(s, table=replace(s.table, deck=(), discard=("C20",)))
    s = at(s, 0, "W3")
    s, events = run(s, 0, "end")
    assert "reshuffle" in keys(events)
    assert s.table.row == ("C20", "C01", "", "C10")
    assert s.table.discard == () and s.table.deck == ()


def test_t7_step_ends_the_turn_only_at_phase_4() -> None:
    """§16 one post per turn: every step of a turn but the last reports ends_turn False."""
    s = clan(started(2), 0, track=1)
    s = at(s, 0, "W0")
    played = steps(s, 0, "next; move N; take artefact; guild G1 N; guild G1 S; end")
    assert [e for _, e in played] == [False] * 5 + [True]


# -------------------------------------------------------------------- all or nothing, D46, closing


def test_command_is_all_or_nothing() -> None:
    """§16: a later illegal step leaves nothing applied (the error names the step)."""
    s = started(2)
    with pytest.raises(IllegalMove) as refused:
        GAME.parse(s, 0, "move N; take recruit")  # B1 holds a cube and Y02, no pawn
    assert refused.value.key == "sahwari.err.now"
    assert "take recruit" in str(refused.value)
    with pytest.raises(InvalidMove) as bad:
        GAME.parse(s, 0, "move N; fly away")
    assert bad.value.key == "sahwari.err.syntax"
    assert top(s) == (MOVE, 0, ()) and where(s, "P1") == "B2"  # nothing was applied


def test_d46_place_storage_after_a_forced_cube_is_ignored() -> None:
    """D46: `place storage` typed for a cube that had only storage room does nothing."""
    s = tile(started(2), "B1", ("A", "A"))
    moves = GAME.parse(s, 0, "move N; take artefact; place storage")
    assert [GAME.format_move(m) for m in moves] == ["move N"]


def test_d46_next_for_a_skipped_window_is_ignored() -> None:
    """D46, §17.3: `next` for a window skipped because nothing was usable does nothing."""
    s = started(2)
    s, events = run(s, 0, "move N; next; take convoy Y02")
    assert "take" in keys(events) and s.clans[0].convoys == ("Y02",)


def test_d46_take_typed_in_a_window_closes_it_when_the_take_is_forced() -> None:
    """§17.3 implicit closing + D46: `take artefact` in W1 on a cubes-only tile closes W1."""
    s = clan(started(2), 0, track=1)
    s = tile(s, "B1", ("A", "A"))
    s = at(s, 0, "W0")
    s, events = run(s, 0, "move N; take artefact")
    assert keys(events).count("take") == 1 and items_at(s, "B1") == ("A",)
    assert top(s) == (WINDOW, 0, ("W2",))


def test_notation_long_move_form_maps_to_the_canonical_default_stop() -> None:
    """§17.2, §16: `move E E4` is `move E` (the mandatory stop is the default)."""
    s = at(started(2), 1, "W0")
    moves = GAME.parse(s, 1, "move E E4")
    assert [GAME.format_move(m) for m in moves] == ["move E"]
    assert "move E" in legal(s, 1) and "move E E4" not in legal(s, 1)


def test_notation_recruit_must_name_its_side() -> None:
    """§16: `recruit POS` without a side is refused."""
    with pytest.raises(InvalidMove) as refused:
        GAME.parse(started(2), 0, "recruit 3")
    assert refused.value.key == "sahwari.err.no_side"


def test_implicit_closing_guild_step_in_w1_runs_an_empty_phase_2() -> None:
    """§17.3: `guild G1 N` in W1 after stopping on an oasis closes W1, runs an empty phase 2,
    closes W2 and makes the first guild move."""
    s = clan(started(2), 0, track=1)
    s = camels(s, P1="B1")
    s = tile(s, "B1", ())
    s = at(s, 0, "W0")
    s, events = run(s, 0, "move S B2")
    assert where(s, "P1") == "B2" and top(s) == (WINDOW, 0, ("W1",))
    s, events = run(s, 0, "guild G1 N")
    assert "take" not in keys(events) and where(s, "G1") == "C2"
    assert top(s) == (GUILD_MOVE, 0, ("2",))


def test_implicit_closing_end_is_legal_in_w2_when_no_guild_move_exists() -> None:
    """§17.3, R9: `end` in W2 when phase 3 has no legal guild move; both moves are skipped."""
    s = started(4, ("merchant", "diplomat", "brigand", "spy"))
    s = camels(s, P1="C2", P2="D3", P3="C4", P4="B3")  # the guild camels are walled in
    s = clan(s, 0, track=1)
    s = at(s, 0, "W2")
    assert "end" in legal(s, 0)
    s, events = run(s, 0, "end")
    assert keys(events).count("guild_none") == 2
    assert s.active == 1


# --------------------------------------------------------------------------- §17.4 examples


def test_17_4_simple_turn() -> None:
    """§17.4 simple turn: `move E; take recruit; recruit 3 right; guild G1 N; guild G2 W; end`."""
    s = started(2)
    s = recruitment_row(s, ("C01", "C08", "C09", "C29"))  # C09 (P-P) matches only on the right
    s = at(s, 1, "W0")
    s, events = run(s, 1, "move E; take recruit; recruit 3 right; guild G1 N; guild G2 W; end")
    assert keys(events)[:4] == ["move", "take", "pawn_track", "recruit_slot"]
    c = s.clans[1]
    assert c.track == 1 and c.row.right == ("C09",) and c.row.right_junctions == ("empty",)
    assert (where(s, "P2"), where(s, "G1"), where(s, "G2")) == ("E4", "C2", "B3")
    assert items_at(s, "E4") == ("Y16",)
    assert s.active == 0 and s.round == 2 and s.table.row[2] not in ("", "C09")


def test_17_4_multi_step_turn_with_nested_effects() -> None:
    """§17.4: `move N; take artefact; place R1; chest; place storage; bowl V4; keep;
    use track SPY; spy V6; guild G1 E; guild G1 S; end`."""
    s = with_row(started(2), 0, row(right=["C10"]), track=1)
    s = at(s, 0, "W0")
    v4, v6 = s.table.token("V4"), s.table.token("V6")
    cmd = (
        "move N; take artefact; place R1; chest; place storage; bowl V4; keep;"
        " use track SPY; spy V6; guild G1 E; guild G1 S; end"
    )
    s, events = run(s, 0, cmd)
    c = s.clans[0]
    assert c.row.right_junctions == ("cube",) and c.storage == 2  # CHEST cube stored
    assert c.convoys == (v4,) and c.used == () and c.track == 0
    assert s.table.guild_pawns == 1  # rule S7
    assert dict(s.known) == {v4: (0,), v6: (0,)}
    assert (where(s, "G1"), where(s, "P1")) == ("D5", "B1")
    assert s.active == 1
    faces = [e for e in events if e.key == "sahwari.log.face"]
    assert [e.params["handle"] for e in faces] == ["V4", "V6"] and all(e.to == 0 for e in faces)
    assert v4 not in repr(public(events)) and v6 not in repr(public(events))


def test_17_4_camel_cannot_move_relocates() -> None:
    """§17.4, R8: `relocate D2; guild G2 S; guild G2 E; end` (phases 1-2 lost)."""
    s = started(2)
    s = camels(s, P1="A1", P2="B1", G1="A2")  # P1 walled in; G2 stays on the Guild
    s = tile(s, "A1", ())
    s = at(s, 0, "W0")
    assert top(s) == (RELOCATE, 0, ())
    assert prompts(s)[1] == (WINDOW, ("W2",))  # W1 and phase 2 are gone
    assert legal(s, 0) == [f"relocate {t}" for t in ("B2", "D2", "C3", "B4", "D4")]
    s, events = run(s, 0, "relocate D2; guild G2 S; guild G2 E; end")
    assert keys(events)[0] == "relocate" and "take" not in keys(events)
    assert (where(s, "P1"), where(s, "G2")) == ("D2", "E4")
    assert s.active == 1


def test_17_4_explorer_two_moves_collects_at_the_last_stop() -> None:
    """§17.4 Explorer: `move W; move N; take convoy Y14; use now; tornado G2 E5; guild G1 W;
    guild G2 N; end`."""
    s = started(4, ("merchant", "diplomat", "brigand", "explorer"))
    yellow = next(i for i in items_at(s, "A3") if i.startswith("Y"))
    s = swap_tokens(s, yellow, "Y14")
    a4 = items_at(s, "A4")
    s = clan(s, 3, track=1)  # keeps W3 open for the typed `end`
    s = at(s, 3, "W0")
    assert where(s, "P4") == "B4"
    s, events = run(s, 3, "move W")
    assert top(s)[0] == "second" and "move E" not in legal(s, 3)  # no going back (R12)
    assert {"move N", "move S", "stay"} <= set(legal(s, 3))
    s, events2 = run(s, 3, "move N; take convoy Y14; use now; tornado G2 E5")
    assert items_at(s, "A4") == a4  # the first stop gives nothing
    assert "Y14" in s.clans[3].used and where(s, "G2") == "E5"
    s, _ = run(s, 3, "guild G1 W; guild G2 N; end")
    assert (where(s, "P4"), where(s, "G1"), where(s, "G2")) == ("A3", "B3", "E4")
    assert s.active == 0 and s.round == 2


# ----------------------------------------------------------------------- movement in play (R8-R13)


def test_r8_relocate_on_own_common_tile_is_allowed() -> None:
    """R8, D43: a walled-in camel on an oasis may stay on that oasis."""
    s = started(3, ("merchant", "diplomat", "brigand"))
    s = camels(s, P2="B1", P3="B3", G1="A2", G2="C2")  # P1 on oasis B2, walled in
    s = at(s, 0, "W0")
    assert top(s) == (RELOCATE, 0, ())
    s, events = run(s, 0, "relocate B2")
    assert where(s, "P1") == "B2" and s.arrival == -1  # R13: no arrival tile


def test_r8_relocation_onto_the_guild_collects_nothing() -> None:
    """R8: phases 1 and 2 are lost, even on a Guild tile holding items."""
    s = started(2)
    s = camels(s, P1="A1", P2="B1", G1="A2", G2="D3")
    s = tile(s, "A1", ())
    s = guild(s, pawns=1, cubes=1)
    s = clan(s, 0, track=1)
    s = at(s, 0, "W0")
    s, events = run(s, 0, "relocate C3")
    assert top(s) == (WINDOW, 0, ("W2",)) and "take" not in keys(events)
    assert (s.table.guild_pawns, s.table.guild_cubes) == (1, 1)


def test_r9_one_guild_camel_may_move_twice_without_a_window_between() -> None:
    """R9: two guild moves, one camel twice allowed; no window between them."""
    s = clan(started(2), 0, track=1)
    s = at(s, 0, "GUILD1")
    s, _ = run(s, 0, "guild G1 N")
    assert top(s) == (GUILD_MOVE, 0, ("2",))
    s, _ = run(s, 0, "guild G1 N")
    assert where(s, "G1") == "C1" and top(s) == (WINDOW, 0, ("W3",))


def test_r10_guild_camel_jumps_the_other_and_may_stop_on_a_desert() -> None:
    """R10: the other guild camel is crossed; an unoccupied desert is an optional stop."""
    s = started(2)
    s = camels(s, G2="C2")
    s = at(s, 0, "GUILD1")
    assert "guild G1 N" in legal(s, 0) and where(s, "G2") == "C2"
    s1, _ = run(s, 0, "guild G1 N")
    assert where(s1, "G1") == "C1"  # jumped over G2 on C2
    s = tile(camels(s, G2="C3"), "C2", ())
    assert "guild G1 N C2" in legal(s, 0)  # desert C2: optional stop
    s2, _ = run(s, 0, "guild G1 N C2")
    assert where(s2, "G1") == "C2"
    with pytest.raises(MoveError):  # a player camel never stops on a desert (R6)
        GAME.parse(at(camels(s, P1="C1"), 0, "MOVE"), 0, "move S C2")


def test_r12_explorer_stay_collects_on_the_first_stop() -> None:
    """R12: the Explorer may stay; the arrival tile is then the first stop."""
    s = started(2, ("explorer", "merchant"))
    s, events = run(s, 0, "move N; stay; take convoy Y02")
    assert s.arrival == 1 and s.clans[0].convoys == ("Y02",)


def test_r12_explorer_without_second_move_stays_by_itself() -> None:
    """R12, §17.3: no legal second move → the camel stays, automatically (T6)."""
    s = started(2, ("explorer", "merchant"))
    s = camels(s, G1="C1", G2="A1")  # from B1: E and W blocked, S goes back
    s, events = run(s, 0, "move N")
    assert keys(events) == ["move", "stay"]
    assert top(s) == (COLLECT, 0, ()) and s.arrival == 1 and where(s, "P1") == "B1"


def test_c1_tornado_away_from_the_arrival_tile_cancels_collection() -> None:
    """C1, D24: a camel moved off its arrival tile in W1 collects nothing."""
    s = clan(started(2), 0, track=2)
    s = at(s, 0, "W0")
    s, events = run(s, 0, "move N; use track TORNADO; tornado P1 A1; next")
    assert where(s, "P1") == "A1" and "take" not in keys(events)
    assert items_at(s, "B1") == ("A", "Y02") and items_at(s, "A1") == ("A", "A", "B11")
    assert top(s) is not None and top(s)[0] in (WINDOW, GUILD_MOVE)


def test_c1_guild_tile_with_items_must_be_collected_when_stopped_on() -> None:
    """C1, R4, D9: the Guild is an optional stop; stopping there with items collects."""
    s = started(2)
    s = camels(s, P1="C2")
    s = tile(s, "C2", ())
    s = guild(s, pawns=1, cubes=1)
    s = at(s, 0, "W0")
    assert "move S C3" in legal(s, 0) and "move S" in legal(s, 0)  # C4 mandatory
    s, _ = run(s, 0, "move S C3")
    assert top(s) == (COLLECT, 0, ())
    assert set(legal(s, 0)) == {"take artefact", "take recruit"}
    s, _ = run(s, 0, "take artefact")
    assert s.table.guild_cubes == 0 and s.table.sides[12] == "g"  # never flips


def test_c1_empty_guild_collects_nothing() -> None:
    """C1: stopping on an empty Guild collects nothing."""
    s = started(2)
    s = camels(s, P1="C2")
    s = tile(s, "C2", ())
    s = at(s, 0, "W0")
    s, events = run(s, 0, "move S C3")
    assert "take" not in keys(events) and where(s, "P1") == "C3"
    assert top(s) is not None and top(s)[0] == GUILD_MOVE


def test_c2_a_blue_token_is_taken_by_handle_and_its_face_told_privately() -> None:
    """C2, C5, H3: a blue token is chosen by handle; only the taker sees its face."""
    s = started(2)
    s = tile(s, "B1", ("A", "B10"))  # B10 (INF-4) moved from tile B3, its handle kept
    h = s.table.handle("B10")
    s, events = run(s, 0, f"move N; take convoy {h}")
    assert s.clans[0].convoys == ("B10",) and top(s)[0] == "convoy"
    assert set(legal(s, 0)) == {"use now", "keep"}  # always asked for blue (H5)
    face = [e for e in events if e.key == "sahwari.log.face"]
    assert len(face) == 1 and face[0].to == 0
    assert "B10" not in repr(public(events))


def test_c3_cube_without_room_returns_to_the_supply() -> None:
    """C3, D34: storage full and no empty slot → the cube goes back to the supply."""
    s = clan(started(2), 0, storage=8, locked=(2, 3))  # no lock left: no window opens
    s = at(tile(s, "B1", ("A", "A")), 0, "W0")
    cubes = s.table.cubes
    s, events = run(s, 0, "move N")
    assert "cube_lost" in keys(events) and s.clans[0].storage == 8
    assert s.table.cubes == cubes + 1


def test_c4_pawn_with_full_track_returns_to_supply_and_card_is_still_taken() -> None:
    """C4, D34: a full track sends the pawn to the supply; the card is still taken."""
    s = clan(started(2), 0, track=8)
    s = tile(s, "B1", ("R", "Y02"))
    s = recruitment_row(s, ("C09", "C01", "C04", "C10"))
    pawns = s.table.pawns
    s, events = run(s, 0, "move N; take recruit")
    assert "pawn_lost" in keys(events) and s.table.pawns == pawns + 1
    assert top(s) == (PICK_CARD, 0, ("pawn",))
    assert "skip" not in legal(s, 0) and "skip CARD" not in legal(s, 0)
    s, _ = run(s, 0, "recruit 1 right")
    assert s.clans[0].row.right == ("C09",)


def test_c6_emptied_tile_flips_and_the_camel_stays() -> None:
    """C6: the instant a resource tile holds nothing it flips; camels on it stay."""
    s = tile(started(2), "B1", ("Y02",))
    s, events = run(s, 0, "move N")
    assert "flip" in keys(events) and s.table.sides[1] == "d" and where(s, "P1") == "B1"


# --------------------------------------------------------------------------- the end (E1-E3)


def _near_end(players: int = 2) -> tuple:
    """A map one flip away from the end: B1 holds one cube; 8 (2p) / 6 (3p) more tiles."""
    others = ("E1", "E2", "E3", "E4", "E5", "D5", "C5", "A5")
    s = started(players, ("merchant", "diplomat", "brigand")[:players])
    count = 8 if players == 2 else 6
    s = only_face_up(s, "B1", *others[:count])
    s = tile(s, "B1", ("A",))
    return s, count


def test_e1_trigger_the_first_time_face_up_tiles_reach_the_threshold() -> None:
    """E1: the end triggers when face-up resource tiles ≤ 8 (2p); the Guild never counts."""
    s, count = _near_end(2)
    assert s.table.face_up() == count + 1
    s, events = run(s, 0, "move N")
    assert keys(events)[:4] == ["move", "take", "flip", "trigger"]
    assert s.trigger == 1 and s.table.face_up() == 8 and not s.over


def test_e2_round_is_finished_after_a_trigger_by_the_first_seat() -> None:
    """E2: after P1 triggers, P2 still plays; the game ends at the end of P2's turn."""
    s, _ = _near_end(2)
    s, _ = run(s, 0, "move N; guild G1 N C2; guild G1 S C3; end")
    assert s.trigger == 1 and s.active == 1 and not s.over
    s = clan(s, 1, track=1)
    s = at(s, 1, "W3")
    s, events = run(s, 1, "end")
    assert s.over and keys(events)[0] == "end_trigger" and GAME.decisions(s) == ()
    assert keys(events).count("final") == 2


def test_e2_trigger_in_the_last_seats_turn_ends_that_turn() -> None:
    """E2: a trigger during the last seat's turn ends the game at the end of that turn."""
    s, _ = _near_end(2)
    s = camels(s, P1="D4", P2="B2")
    s = at(s, 1, "W0")
    s, events = run(s, 1, "move N; guild G1 N C2; guild G1 S C3")
    assert s.trigger == 1 and not s.over and top(s) == (WINDOW, 1, ("W3",))
    s, events = run(s, 1, "end")
    assert s.over and keys(events)[0] == "end_trigger" and s.round == 1


def test_e2_three_players_the_round_finishes_after_a_middle_seat_trigger() -> None:
    """E2: P2 triggers in 3p; P3 plays; P1 does not play again."""
    s, _ = _near_end(3)
    s = camels(s, P1="D4", P2="B2")
    s = at(s, 1, "W0")
    s, _ = run(s, 1, "move N; guild G1 N C2; guild G1 S C3; end")
    assert s.trigger == 1 and s.active == 2 and not s.over
    s = clan(s, 2, track=1)
    s = at(s, 2, "W3")
    s, events = run(s, 2, "end")
    assert s.over and s.round == 1


def test_e2_flips_after_the_trigger_change_nothing() -> None:
    """E2: later flips do not trigger again (the trigger round stays)."""
    s, _ = _near_end(3)
    s = replace(s, trigger=1)
    s = tile(s, "E1", ("A",))
    s = camels(s, P2="E2")
    s = tile(s, "E2", ())
    s = at(s, 1, "W0")
    s, events = run(s, 1, "move N")
    assert "flip" in keys(events) and "trigger" not in keys(events) and s.trigger == 1


def test_e3_safety_cap_ends_the_game_after_round_30() -> None:
    """E3: 30 full rounds without trigger: the game ends after round 30."""
    s = clan(started(2), 1, track=1)
    s = replace(s, round=30)
    s = at(s, 1, "W3")
    s, events = run(s, 1, "end")
    assert s.over and keys(events)[0] == "end_cap" and s.trigger == 0
    s2 = replace(clan(started(2), 1, track=1), round=29)
    s2, _ = run(at(s2, 1, "W3"), 1, "end")
    assert not s2.over and s2.round == 30 and s2.active == 0


# ---------------------------------------------------------------------- scoring through the engine


def _amira(s, seat: int = 0, leader: str = "merchant"):
    """§12.1: Amira's clan zone at the end of a 3-player game."""
    r = row(
        left=["C02", "C20"],
        right=["C09", "C07", "C29"],
        cubes=["L2", "L1", "R1", "R3"],
        padlocks=["R2"],
    )
    s = with_row(s, seat, r, storage=3, track=2)
    s = give_convoys(s, seat, ["Y01", "Y05", "B03", "B09"], used=["Y05", "B03"])
    c = s.clans[seat]
    return replace(s, clans=s.clans[:seat] + (replace(c, leader=leader),) + s.clans[seat + 1 :])


def test_e4_worked_example_12_1_scores_28_with_tie_break_12() -> None:
    """§12.1 through GAME.outcome: 6 + 3 + 3 + 2 + 8 + 3 + 3 = 28; tie-break 5 cards + 7 cubes."""
    s = _amira(started(3, ("merchant", "diplomat", "brigand")))
    out = GAME.outcome(finished(s))
    assert out is not None
    assert out.scores[0] == 28
    assert dict(out.breakdown[0]) == {
        "convoys": 6,
        "cards": 3,
        "storage": 3,
        "track": 2,
        "slots": 8,
        "leader": 3,
        "clan_cards": 3,
    }
    assert out.winners == (0,) and out.ranks[0] == 1
    view = GAME.view(finished(s), None)
    assert view.scores is not None and sum(p for _, p in view.scores[0]) == 28


def test_e4_worked_example_as_spy_leader_scores_one_for_three_spy_icons() -> None:
    """§12.1: as the Spy, spy = 3 (C02 right, clan left, Y05) → 1, C02's Merchant still 3."""
    s = _amira(started(3, ("spy", "diplomat", "brigand")), leader="spy")
    out = GAME.outcome(finished(s))
    assert out is not None and dict(out.breakdown[0])["leader"] == 1
    assert out.scores[0] == 26


def test_e4_game_end_reveals_unused_blue_tokens_and_scores_through_the_engine() -> None:
    """E2, E4.1, E4: the last turn's end reveals V-tokens publicly and scores §12.1 = 28."""
    s = _amira(started(3, ("merchant", "diplomat", "brigand")))
    s = replace(s, trigger=1)
    s = clan(s, 2, track=1)
    s = at(s, 2, "W3")
    h = s.table.handle("B09")
    s, events = run(s, 2, "end")
    assert s.over
    reveal = [e for e in events if e.key == "sahwari.log.reveal"]
    assert len(reveal) == 1 and reveal[0].seat == 0 and reveal[0].to is None
    assert h in repr(reveal[0].params) and "B09" in repr(reveal[0].params)
    final = [e for e in events if e.key == "sahwari.log.final" and e.seat == 0]
    assert final[0].params["score"] == 28 and final[0].params["tiebreak"] == 12
    out = GAME.outcome(s)
    assert out is not None and out.scores[0] == 28 and out.winners == (0,)


def test_e5_tie_on_score_is_broken_by_cards_plus_cubes() -> None:
    """E5, D27: tied players: the most recruit cards + artefact cubes wins."""
    s = started(2, ("explorer", "merchant"))
    # P1 Explorer: storage 3 → 3; P2 Merchant: storage 2 → 2, leader ⌊2/2⌋ = 1
    s = clan(s, 0, storage=3)
    s = clan(s, 1, storage=2)
    out = GAME.outcome(finished(s))
    assert out is not None and out.scores == (3, 3)
    assert out.winners == (0,) and out.ranks == (1, 2)


def test_d35_unbroken_tie_nobody_wins_and_nobody_ranks_first() -> None:
    """E5, D35: still tied after the tie-break: no winner, the tied seats are not rank 1."""
    s = started(3, ("merchant", "diplomat", "brigand"))
    s = clan(s, 2, storage=0)  # P3 scores less
    out = GAME.outcome(finished(s))
    assert out is not None and out.scores[0] == out.scores[1] > out.scores[2]
    assert out.winners == ()
    assert 1 not in out.ranks and out.ranks[0] == out.ranks[1]
    assert GAME.view(finished(s), 0).winners == ()


def test_outcome_is_none_while_the_game_runs() -> None:
    """E4: no score before the end (H1: scores only at the end)."""
    s = started(2)
    assert GAME.outcome(s) is None and GAME.view(s, None).scores is None
