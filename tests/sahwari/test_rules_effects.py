"""Sahwari rule tests, the effects (spec sahwari.md §7-§11, §13, §14, §17.3-§17.4):
every effect kind F1-F8, the procedures GAIN_CUBE, GAIN_PAWN, GAIN_CONVOY,
PICK_CARD, TRIGGER_SLOT and RESOLVE_ATTACK, storage (S1-S3) and track (S6-S7)
abilities, attacks (A1-A8), convoys and spying (V1-V10) and hidden information
(H1-H5) in events and views.

Every test drives ``GAME`` from a position set with ``tests/sahwari/scenario.py``;
names carry the rule id (D41: ``rule C3``, ``tile C3``, ``slot R1``).
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.contract import MoveError
from games.sahwari import GAME
from games.sahwari.state import CONVOY, EFFECTS, PICK_CARD, PLACE_CUBE, WINDOW
from tests.sahwari.scenario import (
    T,
    at,
    behind,
    camels,
    clan,
    count_cubes,
    deserts,
    finished,
    give_convoys,
    guild,
    handle,
    items_at,
    keys,
    legal,
    only_face_up,
    private,
    prompts,
    public,
    recruitment_row,
    row,
    run,
    started,
    supply,
    tile,
    token_of,
    top,
    where,
    with_row,
)


def _blue_ids(text: str) -> set[str]:
    return {f"B{n:02}" for n in range(1, 15) if f"B{n:02}" in text}


def _w2(s, seat: int = 0):
    """``seat``'s turn at window W2 (any ability usable there)."""
    return at(s, seat, "W2")


# --------------------------------------------------------------------------- F1 CARD


def test_f1_card_from_a_convoy_recruits_without_a_pawn_and_may_be_skipped() -> None:
    """F1, K3-K6: CARD takes a row card (no pawn gained); `skip CARD` declines it."""
    s = give_convoys(started(2), 0, ["Y10"])  # INF+1, CARD
    s = recruitment_row(s, ("C09", "C01", "C04", "C10"))
    s = _w2(s)
    s, events = run(s, 0, "use convoy Y10")
    assert top(s) == (EFFECTS, 0, ("CARD",))
    assert {"recruit 1 right", "recruit 2 left", "skip CARD"} <= set(legal(s, 0))
    assert "recruit 1 left" not in legal(s, 0)  # K6: C09 matches on the right only
    declined, ev = run(s, 0, "skip CARD")
    assert "skip" in keys(ev) and declined.table.row == s.table.row
    s, ev = run(s, 0, "recruit 2 left")
    c = s.clans[0]
    assert c.row.left == ("C01",) and c.row.left_junctions == ("empty",) and c.track == 0
    assert s.table.row == ("C09", "", "C04", "C10")


def test_f1_card_with_an_empty_row_reveals_first() -> None:
    """K3, D39: CARD with an empty row first reveals up to 4 cards."""
    s = give_convoys(started(2), 0, ["Y10"])
    s = recruitment_row(s, ("", "", "", ""))
    deck_top = s.table.deck[:4]
    s, _ = run(_w2(s), 0, "use convoy Y10")
    assert s.table.row == deck_top and top(s) == (EFFECTS, 0, ("CARD",))


def test_f1_card_with_no_card_anywhere_is_skipped() -> None:
    """K3, T5: row, deck and discard empty: nothing is taken (the effect is skipped)."""
    s = give_convoys(started(2), 0, ["Y10"])
    s = recruitment_row(s, ("", "", "", ""))
    s = replace(s, table=replace(s.table, deck=(), discard=()))
    s, events = run(_w2(s), 0, "use convoy Y10")
    assert "no_target" in keys(events) and s.clans[0].row.cards == ()
    assert top(s) is not None and top(s)[0] != EFFECTS


def test_k6_a_card_matching_one_end_must_go_there() -> None:
    """K6, D10: a card that matches an end cannot be placed at the other end."""
    s = clan(started(2), 0, track=1)
    s = tile(s, "B1", ("R", "Y02"))
    s = recruitment_row(s, ("C09", "C01", "C04", "C10"))
    s, _ = run(s, 0, "move N; take recruit")
    assert top(s) == (PICK_CARD, 0, ("pawn",))
    with pytest.raises(MoveError) as refused:
        GAME.parse(s, 0, "recruit 1 left")
    assert refused.value.key == "sahwari.err.k6"


def test_k6_a_card_matching_neither_end_goes_to_either_as_a_dead_junction() -> None:
    """K6, K7: no matching end: either end, mismatched, the junction is dead."""
    s = with_row(started(2), 0, row(left=["C01"], right=["C09"]))  # exposed: R left, P right
    s = tile(s, "B1", ("R", "Y02"))
    s = recruitment_row(s, ("C04", "C10", "C12", "C24"))  # G-G: matches neither end
    s, _ = run(s, 0, "move N; take recruit")
    assert {"recruit 1 left", "recruit 1 right"} <= set(legal(s, 0))
    s, events = run(s, 0, "recruit 1 left")
    assert "recruit_dead" in keys(events) and s.clans[0].row.left_junctions == ("empty", "dead")


# --------------------------------------------------------------------------- F2 REFRESH


def test_f2_refresh_discards_the_row_and_reveals_four() -> None:
    """F2, K14: REFRESH sends the row to the discard pile and reveals 4 new cards."""
    s = clan(started(2), 0, track=1)
    old, top4 = s.table.row, s.table.deck[:4]
    s, events = run(_w2(s), 0, "use track REFRESH; refresh")
    assert keys(events)[-1] == "refresh"
    assert s.table.row == top4 and s.table.discard == old


def test_f2_refresh_reshuffles_mid_refresh() -> None:
    """K14: the discard pile (the old row included) is reshuffled when the deck runs out."""
    s = clan(started(2), 0, track=1)
    s = replace(s, table=replace(s.table, deck=("C20", "C21"), discard=()))
    old = s.table.row
    s, events = run(_w2(s), 0, "use track REFRESH; refresh")
    assert "reshuffle" in keys(events)
    assert s.table.row[:2] == ("C20", "C21") and set(s.table.row[2:]) <= set(old)
    assert len(s.table.deck) == 2 and s.table.discard == ()


# --------------------------------------------------------------------------- F3 SPY, V9, H3, H4


def test_f3_v9_spy_shows_the_face_to_the_spy_only() -> None:
    """F3, V9, H3: the spy sees the face privately; the log names the handle only."""
    s = clan(started(2), 0, track=1)
    token = token_of(s, "V3")
    s, events = run(_w2(s), 0, "use track SPY; spy V3")
    spy = [e for e in events if e.key == "sahwari.log.spy"]
    assert spy[0].to is None and spy[0].params == {"handle": "V3"}
    face = private(events, 0)
    assert len(face) == 1 and token in repr(face[0].params)
    assert token not in repr(public(events)) and not private(events, 1)
    assert dict(s.known) == {token: (0,)}
    assert dict(GAME.view(s, 0).faces)["V3"] == token
    assert "V3" not in dict(GAME.view(s, 1).faces) and "V3" not in dict(GAME.view(s, None).faces)


def test_v9_spy_targets_hidden_tokens_on_the_map_and_unused_in_other_zones() -> None:
    """V9, F3: targets are face-down blue tokens on the map or unused in another zone;
    never one's own, never a used (public) one, never a yellow one."""
    s = started(2)
    mine, theirs, used = token_of(s, "V1"), token_of(s, "V2"), token_of(s, "V3")
    s = give_convoys(s, 0, [mine])
    s = give_convoys(s, 1, [theirs, used], used=[used])
    s = clan(s, 0, track=1)
    s, _ = run(_w2(s), 0, "use track SPY")
    targets = {m for m in legal(s, 0) if m.startswith("spy ")}
    assert "spy V2" in targets and "spy V4" in targets
    assert "spy V1" not in targets and "spy V3" not in targets
    assert not any(t.startswith("spy Y") for t in targets)
    s, events = run(s, 0, "spy V2")
    assert private(events, 0) and dict(s.known)[theirs] == (0, 1)


def test_f3_spy_without_any_hidden_token_is_skipped() -> None:
    """F3, T5, H5: no face-down blue token anywhere but one's own: SPY is skipped."""
    s = started(2)
    for tile_name in ("A1", "E1", "C2", "B3", "D3", "C4", "A5", "E5"):
        s = tile(s, tile_name, tuple(i for i in items_at(s, tile_name) if not i.startswith("B")))
    s = clan(s, 0, track=1)
    s, events = run(_w2(s), 0, "use track SPY")
    assert "no_target" in keys(events) and top(s) is not None and top(s)[0] != EFFECTS


def test_h3_knowledge_persists_after_another_player_takes_the_token() -> None:
    """H3: a spy who looked at a token still knows it after someone else takes it."""
    s = clan(started(2), 0, track=1)
    s = tile(s, "E4", ("R", token_of(s, "V3")))
    token = token_of(s, "V3")
    s, _ = run(_w2(s), 0, "use track SPY; spy V3")
    s = at(s, 1, "W0")
    s, events = run(s, 1, "move E; take convoy V3")
    assert private(events, 1) and not private(events, 0)
    assert dict(s.known)[token] == (0, 1)
    assert dict(GAME.view(s, 0).faces)["V3"] == token
    assert dict(GAME.view(s, 1).faces)["V3"] == token
    assert "V3" not in dict(GAME.view(s, None).faces)


def test_h4_hand_lists_the_faces_a_seat_knows_privately() -> None:
    """H4: `/game hand` — the faces a seat knows (its own and spied) reach it only."""
    s = started(2)
    assert [e.key for e in GAME.hand(s, 0)] == ["sahwari.hand.none"]
    own, spied = token_of(s, "V1"), token_of(s, "V2")
    s = give_convoys(s, 0, [own])
    s = replace(s, known=tuple(sorted({**dict(s.known), spied: (0,)}.items())))
    hand = GAME.hand(s, 0)
    assert [(e.key, e.params["handle"]) for e in hand] == [
        ("sahwari.hand.own", "V1"),
        ("sahwari.hand.spied", "V2"),
    ]
    assert all(e.to == 0 for e in hand)
    assert [e.key for e in GAME.hand(s, 1)] == ["sahwari.hand.none"]


# ------------------------------------------------------------------------- F4 CHEST, GAIN_CUBE, C7


def test_f4_chest_takes_a_supply_cube_then_gain_cube_offers_storage_or_slot() -> None:
    """F4, C3, C7: CHEST takes a supply cube; GAIN_CUBE offers storage and each empty slot."""
    s = with_row(started(2), 0, row(right=["C09"]), track=2)
    cubes, total = s.table.cubes, count_cubes(s)
    s, events = run(_w2(s), 0, "use track CHEST; chest")
    assert top(s) == (PLACE_CUBE, 0, ())
    assert set(legal(s, 0)) == {"place storage", "place R1"}
    s, events = run(s, 0, "place storage")
    assert s.table.cubes == cubes - 1 and s.clans[0].storage == 2
    assert count_cubes(s) == total


def test_f4_chest_with_an_empty_supply_gives_nothing() -> None:
    """F4, §15.6: the supply is empty: CHEST has no target and is skipped."""
    s = clan(started(2), 0, track=2)
    s = supply(s, cubes=0)
    s, events = run(_w2(s), 0, "use track CHEST")
    assert "no_target" in keys(events) and s.clans[0].storage == 1


def test_c3_gain_cube_on_a_slot_triggers_it() -> None:
    """C3, K9: a collected cube placed on an empty slot triggers the slot's two abilities."""
    s = with_row(started(2), 0, row(right=["C09"]))  # slot R1 = clan BOWL + C09 BOWL
    s, events = run(s, 0, "move N; take artefact; place R1")
    assert keys(events)[-1] == "cube_slot"
    assert top(s) == (EFFECTS, 0, ("BOWL", "BOWL"))
    assert s.clans[0].row.right_junctions == ("cube",) and s.clans[0].storage == 1


# --------------------------------------------------------------------------- F5 BIRD, C7


def test_f5_bird_takes_an_item_next_to_a_guild_camel() -> None:
    """F5, C7: BIRD takes an item on a tile next to a guild camel, as if collected."""
    s = clan(started(2), 0, track=3)
    s, _ = run(_w2(s), 0, "use track BIRD")
    birds = {m for m in legal(s, 0) if m.startswith("bird ")}
    assert "bird G1 C2 artefact" in birds and "bird G2 B3 recruit" in birds
    assert not any(" A1 " in b for b in birds)  # not next to a guild camel
    c2 = items_at(s, "C2")
    s, events = run(s, 0, "bird G1 C2 artefact")
    assert keys(events)[0] == "bird" and "cube_storage" in keys(events)
    assert items_at(s, "C2") == tuple(i for i in c2 if i != "A")
    assert s.clans[0].storage == 2 and s.table.guild_pawns == 3  # S7: 3 pawns to the Guild


def test_f5_bird_may_take_from_the_guild_tile() -> None:
    """F5, D8: the Guild tile's pawns and cubes are BIRD targets (GAIN_PAWN here)."""
    s = clan(started(2), 0, track=3)
    s = camels(s, G1="C2")
    s = recruitment_row(s, ("C09", "C01", "C04", "C10"))
    s, _ = run(_w2(s), 0, "use track BIRD")  # the 3 spent pawns fill the Guild
    assert s.table.guild_pawns == 3 and "bird G1 C3 recruit" in legal(s, 0)
    s, events = run(s, 0, "bird G1 C3 recruit")
    assert s.table.guild_pawns == 2 and s.clans[0].track == 1
    assert top(s) == (PICK_CARD, 0, ("pawn",))


def test_c1_bird_emptying_the_arrival_tile_cancels_the_collection() -> None:
    """C1, C6, F5: the arrival tile flipped meanwhile (BIRD in W1): nothing is collected."""
    s = clan(started(2), 0, track=3)
    s = tile(s, "B1", ("Y02",))
    s = camels(s, G1="A1")
    s = tile(s, "A1", ())
    s = at(s, 0, "W0")
    s, events = run(s, 0, "move N; use track BIRD; bird G1 B1 Y02; next")
    assert "flip" in keys(events) and "keep" in keys(events)
    assert keys(events).count("take") == 0 and s.table.sides[T("B1")] == "d"
    assert s.clans[0].convoys == ("Y02",)


def test_c7_bird_in_w1_does_not_replace_the_collection() -> None:
    """C7: BIRD is not a collection; phase 2 still collects on the arrival tile."""
    s = clan(started(2), 0, track=3)
    s = at(s, 0, "W0")
    s, events = run(s, 0, "move N; use track BIRD; bird G1 C2 artefact; take convoy Y02")
    assert s.clans[0].convoys == ("Y02",) and s.clans[0].storage == 2


# --------------------------------------------------------------------------- F6 BOWL


def test_f6_bowl_takes_any_convoy_on_the_map_and_flips_an_emptied_tile() -> None:
    """F6, C6: BOWL takes a token from anywhere on the map; an emptied tile flips."""
    s = clan(started(2), 0, storage=7)
    s = tile(s, "E5", ("Y03",))
    s, events = run(_w2(s), 0, "use storage 7")
    bowls = {m for m in legal(s, 0) if m.startswith("bowl ")}
    assert "bowl Y03" in bowls and "bowl V1" in bowls and "bowl Y02" in bowls
    s, events = run(s, 0, "bowl Y03")
    assert keys(events)[:3] == ["bowl", "flip", "keep"]  # Y03 has only influence: kept
    assert s.table.sides[T("E5")] == "d" and s.clans[0].convoys == ("Y03",)
    assert s.clans[0].locked == (7,)


# --------------------------------------------------------------------------- F7 TORNADO


def test_f7_tornado_places_any_camel_on_any_tile_without_camel() -> None:
    """F7, D32, R14: any camel (own, opponent, guild) to any camel-free tile, desert too."""
    s = clan(started(2), 0, track=2)
    s = deserts(s, "A5")
    s, _ = run(_w2(s), 0, "use track TORNADO")
    moves = set(legal(s, 0))
    assert {"tornado P2 A5", "tornado P1 E1", "tornado G1 D2", "tornado P2 B4"} <= moves
    assert "tornado P2 B2" not in moves  # P1 stands on oasis B2 (D32: unoccupied)
    assert "tornado P1 C3" not in moves  # the guild camels stand on C3
    before = items_at(s, "A1")
    s, events = run(s, 0, "tornado P2 A5")
    assert where(s, "P2") == "A5" and keys(events) == ["tornado"]
    s2, _ = run(_w2(clan(started(2), 0, track=2)), 0, "use track TORNADO; tornado P2 A1")
    assert items_at(s2, "A1") == before  # a placement: nothing collected


# --------------------------------------------------------------------------- F8 ATTACK (A1)


def test_f8_a1_attack_icon_of_a_slot_gives_an_attack_token() -> None:
    """F8, A1, T5: a card edge's ATTACK gives one attack token, automatically."""
    s = with_row(started(2), 0, row(right=["C10", "C31"]), storage=2)  # slot R2: ATTACK+BOWL
    tokens = s.table.attack_tokens
    s, events = run(_w2(s), 0, "use slot R2")
    assert "attack_token" in keys(events)
    assert s.clans[0].attack_tokens == 1 and s.table.attack_tokens == tokens - 1
    assert top(s) == (EFFECTS, 0, ("BOWL",))


def test_f8_a1_storage_and_track_attack_give_a_token_or_none_when_the_supply_is_empty() -> None:
    """F8, A1, S6, §15.6: storage or track ATTACK gives a token; none from an empty supply."""
    s = clan(started(2), 0, storage=6, track=2)
    s, events = run(_w2(s), 0, "use storage 6; use track ATTACK")
    assert keys(events).count("attack_token") == 2 and s.clans[0].attack_tokens == 2
    s = supply(clan(started(2), 0, track=2), attack_tokens=0)
    s, events = run(_w2(s), 0, "use track ATTACK")
    assert "attack_token_none" in keys(events) and s.clans[0].attack_tokens == 0


def test_f8_v7_convoy_attack_icon_attacks_now_instead_of_giving_a_token() -> None:
    """F8, V7: a convoy's ATTACK resolves as an attack now; no attack token."""
    s = give_convoys(started(2), 0, ["Y17"])  # INF+1, ATTACK
    s, _ = run(_w2(s), 0, "use convoy Y17")
    assert top(s) == (EFFECTS, 0, ("ATTACK",)) and s.clans[0].attack_tokens == 0
    assert "attack me convoy Y02" in legal(s, 0) and "skip ATTACK" in legal(s, 0)


def test_a7_convoy_attack_icon_without_legal_attack_is_skipped() -> None:
    """A7, V7: no legal attack: the convoy's ATTACK icon is skipped."""
    s = give_convoys(started(2), 0, ["Y17"])
    s = camels(s, P1="A5", G1="E1", G2="E5", P2="C3")
    s = deserts(s, "A4", "B5", "A5", "E1", "D1", "E2", "E5", "E4", "D5")
    s, events = run(_w2(s), 0, "use convoy Y17")
    assert "no_target" in keys(events) and top(s) is not None and top(s)[0] != EFFECTS


# -------------------------------------------------------------------- §17.4 convoy attack, A6, V10


def test_17_4_convoy_attack_removes_a_token_face_down() -> None:
    """§17.4, A6, V10: `take convoy V2; use now` reveals B04; `attack me convoy V9`."""
    s = started(4, ("merchant", "diplomat", "brigand", "spy"))
    s = behind(s, "V2", "B04")
    v9 = token_of(s, "V9")
    s = tile(s, "B1", ("A", "B04"))
    s = tile(s, "C1", ("R", v9))
    s, events = run(s, 0, "move N; take convoy V2; use now")
    used = [e for e in events if e.key == "sahwari.log.convoy_used"]
    assert used and used[0].to is None and "B04" in repr(used[0].params)  # public now
    assert top(s) == (EFFECTS, 0, ("ATTACK",))
    s, events = run(s, 0, "attack me convoy V9")
    assert s.removed == (v9,) and items_at(s, "C1") == ("R",)
    assert v9 not in repr(events) and "attack_convoy" in keys(events)
    assert s.clans[0].attack_tokens == 0
    for viewer in (None, 0, 1, 2, 3):
        view = GAME.view(s, viewer)
        assert view.removed == ("V9",) and "V9" not in dict(view.faces)
    assert "V9" in dict(GAME.view(finished(s), None).faces)  # E6


def test_a6_convoy_attack_on_the_origin_tile_flips_it_and_checks_the_end() -> None:
    """A6, C6, E1: a token on the origin tile itself; the emptied tile flips (end check)."""
    s = clan(started(2), 0, attack_tokens=1)
    s = camels(s, P1="B1")
    s = only_face_up(s, "B1", "E1", "E2", "E3", "E4", "E5", "D5", "C5", "A5")
    s = tile(s, "B1", ("Y02",))
    s = at(s, 0, "W0")
    assert "use attack me convoy Y02" in legal(s, 0)
    s, events = run(s, 0, "use attack me convoy Y02")
    assert keys(events)[-2:] == ["flip", "trigger"] and s.table.sides[T("B1")] == "d"
    assert s.trigger == 1
    assert s.removed == ("Y02",) and s.clans[0].attack_tokens == 0


# --------------------------------------------------------------------------- attacks A1-A8


def _attack_setup(victim_storage: int = 1, cubes: tuple[str, ...] = ()):
    """3 players; P1 holds an attack token; G1 on C2 is next to P3 on oasis D2."""
    s = started(3, ("merchant", "diplomat", "brigand"))
    s = camels(s, G1="C2")
    s = clan(s, 0, attack_tokens=1)
    r = row(right=["C09", "C07"], cubes=cubes)
    s = with_row(s, 2, r, storage=victim_storage)
    return at(s, 0, "W0")


def test_17_4_a5_attack_from_a_guild_camel_takes_the_rightmost_storage_cube() -> None:
    """§17.4, A5: `use attack G1 camel P3 B4`: P3 loses a storage cube to the Guild; G1 retreats."""
    s = _attack_setup(victim_storage=2, cubes=("R1",))
    supply_tokens, total = s.table.attack_tokens, count_cubes(s)
    assert "use attack G1 camel P3 R1 B4" not in legal(s, 0)  # storage first (A5.1)
    s, events = run(s, 0, "use attack G1 camel P3 B4")
    assert keys(events) == ["use_attack", "attack_storage", "retreat"]
    assert s.clans[2].storage == 1 and s.clans[2].row.right_junctions == ("cube", "empty")
    assert s.table.guild_cubes == 1 and where(s, "G1") == "B4"
    assert s.clans[0].attack_tokens == 0 and s.table.attack_tokens == supply_tokens + 1
    assert count_cubes(s) == total


def test_17_4_a5_padlock_attack_on_an_empty_storage_uses_the_spent_token() -> None:
    """§17.4, A5.2, K11: `use attack G1 camel P3 R2 B4` padlocks slot R2 with the token."""
    s = _attack_setup(victim_storage=0, cubes=("R1", "R2"))
    supply_tokens = s.table.attack_tokens
    assert "use attack G1 camel P3 B4" not in legal(s, 0)  # a slot must be named
    s, events = run(s, 0, "use attack G1 camel P3 R2 B4")
    assert "attack_slot" in keys(events)
    assert s.clans[2].row.right_junctions == ("cube", "padlock")
    assert s.table.attack_tokens == supply_tokens  # the spent token became the padlock
    assert s.table.guild_cubes == 1 and where(s, "G1") == "B4"


def test_a5_padlock_from_a_convoy_attack_takes_a_supply_token_or_a_flag() -> None:
    """A5.2: a convoy attack's padlock comes from the supply; with none left, padlocked anyway."""
    for tokens in (5, 0):
        s = _attack_setup(victim_storage=0, cubes=("R1",))
        s = give_convoys(clan(s, 0, attack_tokens=0), 0, ["Y17"])
        s = supply(s, attack_tokens=tokens)
        s, _ = run(at(s, 0, "W0"), 0, "use convoy Y17; attack G1 camel P3 R1 B4")
        assert s.clans[2].row.right_junctions == ("padlock", "empty")
        assert s.table.attack_tokens == max(tokens - 1, 0)


def test_a5_padlocked_slot_scores_nothing_and_takes_no_cube() -> None:
    """K11, E4.4: a padlocked slot never receives a cube again and scores no influence."""
    s = _attack_setup(victim_storage=0, cubes=("R1", "R2"))
    s, _ = run(s, 0, "use attack G1 camel P3 R2 B4")
    out = GAME.outcome(finished(s))
    assert out is not None and dict(out.breakdown[2])["slots"] == 2  # only R1 (BOWL 1 + BOWL 1)
    s = clan(s, 2, storage=1)
    s = at(s, 2, "W2")
    assert "use slot R2" not in legal(s, 2)


def test_a5_cube_goes_to_the_supply_when_the_guild_spaces_are_full() -> None:
    """A5.3: all 3 Guild artefact spaces full: the cube returns to the supply."""
    s = guild(_attack_setup(victim_storage=1), cubes=3)
    cubes = s.table.cubes
    s, _ = run(s, 0, "use attack G1 camel P3 B4")
    assert s.table.guild_cubes == 3 and s.table.cubes == cubes + 1


def test_a5_d20_d21_no_attack_on_a_player_without_cubes_nor_on_oneself() -> None:
    """A5, D20, D21: option 2 needs an opponent holding a cube."""
    s = _attack_setup(victim_storage=0)
    assert not [m for m in legal(s, 0) if "camel P3" in m]  # P3 holds no cube
    s = camels(s, G1="B1")  # next to P1's own camel on B2
    s = at(s, 0, "W0")
    assert not [m for m in legal(s, 0) if "camel P1" in m]


def test_a3_camel_on_the_guild_cannot_be_targeted_but_may_attack() -> None:
    """A3: a camel on C3 is immune; an attack may originate from C3."""
    s = started(2)
    s = camels(s, P2="C3", G2="D3", P1="C2")
    s = tile(s, "C2", ())
    s = clan(s, 0, attack_tokens=1)
    s = at(s, 0, "W0")
    moves = legal(s, 0)
    assert not [m for m in moves if "camel P2" in m]  # P2 on the Guild
    assert not [m for m in moves if "guild G1" in m and m.startswith("use attack me")]
    assert "use attack G1 guild G2 B2" in moves  # G1 attacks from the Guild
    s, events = run(s, 0, "use attack G1 guild G2 B2")
    assert where(s, "G2") == "B2" and "attack_guild" in keys(events)


def test_a4_guild_camel_displaced_to_the_guild_or_another_common_tile() -> None:
    """A4, R14: a guild camel next to the origin goes to the Guild or an oasis but its own."""
    s = started(2)
    s = camels(s, G2="B4", P2="A3", P1="B3", G1="E1")  # G2 and P2 next to P1 on B3
    s = clan(s, 0, attack_tokens=2)
    s = at(s, 0, "W0")
    targets = {m for m in legal(s, 0) if m.startswith("use attack me guild G2")}
    assert targets == {f"use attack me guild G2 {t}" for t in ("B2", "D2", "C3", "D4")}
    s, _ = run(s, 0, "use attack me guild G2 D4; use attack me camel P2 C3")
    assert where(s, "G2") == "D4" and where(s, "P1") == "C3"  # A8: two attacks, A5.4 retreat
    assert s.clans[1].storage == 0 and s.clans[0].attack_tokens == 0


def test_a7_attack_token_without_legal_attack_cannot_be_spent() -> None:
    """A7, §17.3: no legal attack: the token cannot be spent; the window is not opened for it."""
    s = started(2)
    s = camels(s, P1="A5", G1="E1", G2="E5", P2="C3")
    s = deserts(s, "A4", "B5", "A5", "E1", "D1", "E2", "E5", "E4", "D5")
    s = clan(s, 0, attack_tokens=1)
    s = at(s, 0, "W0")
    assert top(s) is not None and top(s)[0] != WINDOW
    with pytest.raises(MoveError):
        GAME.parse(s, 0, "use attack me convoy Y02")


# --------------------------------------------------------------- GAIN_PAWN, GAIN_CONVOY, PICK_CARD


def test_c4_gain_pawn_with_a_single_legal_card_places_it_by_itself() -> None:
    """C4, T6, D45: one legal (card, side) after a pawn: taken automatically."""
    s = tile(started(2), "B1", ("R", "Y02"))
    s = recruitment_row(s, ("C09", "", "", ""))
    s = replace(s, table=replace(s.table, deck=(), discard=()))
    s, events = run(s, 0, "move N; take recruit")
    assert keys(events)[-2:] == ["pawn_track", "recruit_slot"]
    assert s.clans[0].row.right == ("C09",) and s.clans[0].track == 1


def test_k3_gain_pawn_with_no_card_anywhere_takes_nothing() -> None:
    """K3, D45: no card can be revealed: nothing is taken (the pawn stays on the track)."""
    s = tile(started(2), "B1", ("R", "Y02"))
    s = recruitment_row(s, ("", "", "", ""))
    s = replace(s, table=replace(s.table, deck=(), discard=()))
    s, events = run(s, 0, "move N; take recruit")
    assert "no_card" in keys(events) and s.clans[0].track == 1 and not s.clans[0].row.cards


def test_c5_gain_convoy_yellow_with_only_influence_is_kept_by_itself() -> None:
    """C5, T6: a yellow token with only INF icons is kept without a prompt."""
    s, events = run(started(2), 0, "move N; take convoy Y02")
    assert keys(events)[-1] == "keep" and s.clans[0].used == ()


def test_c5_h5_blue_token_use_or_keep_is_always_asked() -> None:
    """C5, H5: the use/keep choice is asked for a blue token, even INF only (B01)."""
    s = started(2)
    s = tile(s, "B1", ("A", "B01"))
    h = handle(s, "B01")
    s, events = run(s, 0, f"move N; take convoy {h}")
    assert top(s) == (CONVOY, 0, (h,))
    s, events = run(s, 0, "use now")
    assert s.clans[0].used == ("B01",)
    assert dict(GAME.view(s, 1).faces)[h] == "B01"  # V5: a used token is public


def test_c5_yellow_with_an_effect_is_asked_and_v6_kept_token_is_used_later() -> None:
    """C5, V6: a kept token is used in a later window of its owner's turn."""
    s = started(2)
    s = tile(s, "B1", ("A", "Y08"))  # INF+1, CHEST
    s, _ = run(s, 0, "move N; take convoy Y08")
    assert top(s) == (CONVOY, 0, ("Y08",))
    s, _ = run(s, 0, "keep")
    assert s.clans[0].convoys == ("Y08",) and s.clans[0].used == ()
    s = at(s, 0, "W0")  # a later turn
    assert "use convoy Y08" in legal(s, 0)
    s, events = run(s, 0, "use convoy Y08; chest")
    assert s.clans[0].used == ("Y08",) and s.clans[0].storage == 2
    assert "use convoy Y08" not in legal(s, 0)  # used at most once


# --------------------------------------------------------------------------- TRIGGER_SLOT, K10, T4


def test_k10_use_slot_moves_the_rightmost_storage_cube_and_triggers_it() -> None:
    """K10, K9: in a window, the rightmost storage cube goes on an empty slot and triggers it."""
    s = with_row(started(2), 0, row(right=["C10"]), storage=3)
    s, events = run(_w2(s), 0, "use slot R1")
    assert keys(events) == ["use_slot"]
    assert s.clans[0].storage == 2 and s.clans[0].row.right_junctions == ("cube",)
    assert top(s) == (EFFECTS, 0, ("BOWL", "CHEST"))


def test_t4_siblings_in_any_order_and_nested_effects_first() -> None:
    """T4, K9: siblings resolve in the chosen order; nested decisions come first (depth first)."""
    s = with_row(started(2), 0, row(left=["C13"], right=["C10"]), storage=2, track=1)
    s, _ = run(_w2(s), 0, "use slot R1; chest; place L1")
    assert prompts(s)[:3] == [
        (EFFECTS, ("SPY", "TORNADO")),  # slot L1 = clan SPY + C13 TORNADO
        (EFFECTS, ("BOWL",)),
        (WINDOW, ("W2",)),
    ]
    s, _ = run(s, 0, "skip TORNADO; skip SPY")
    assert top(s) == (EFFECTS, 0, ("BOWL",))
    s, events = run(s, 0, "skip")  # only one pending kind: `skip` names it
    assert keys(events) == ["skip"] and top(s) == (WINDOW, 0, ("W2",))


def test_t5_skip_needs_a_kind_when_several_are_pending() -> None:
    """T5, §17.2: `skip` alone is ambiguous with two pending kinds."""
    s = with_row(started(2), 0, row(right=["C10"]), storage=2)
    s, _ = run(_w2(s), 0, "use slot R1")
    with pytest.raises(MoveError) as refused:
        GAME.parse(s, 0, "skip")
    assert refused.value.key == "sahwari.err.skip_which"
    s, events = run(s, 0, "skip CHEST")
    assert top(s) == (EFFECTS, 0, ("BOWL",))


# --------------------------------------------------------------------------- storage S1-S3


def test_s3_storage_ability_unlocked_by_a_cube_and_locked_once_used() -> None:
    """S3: the ability under space s is usable while k ≥ s, once (a lock token)."""
    s = clan(started(2), 0, storage=3)
    s = _w2(s)
    assert {"use storage 2", "use storage 3"} <= set(legal(s, 0))
    assert "use storage 4" not in legal(s, 0)
    with pytest.raises(MoveError) as refused:
        GAME.parse(s, 0, "use storage 4")
    assert refused.value.key == "sahwari.err.s3"
    s, events = run(s, 0, "use storage 3; tornado G1 A5")
    assert s.clans[0].locked == (3,) and where(s, "G1") == "A5"
    assert "use storage 3" not in legal(s, 0)


def test_s3_two_lock_tokens_per_game() -> None:
    """S3: at most 2 storage abilities per game (the lock tokens never return)."""
    s = clan(started(2), 0, storage=8, locked=(2, 3))
    s = clan(s, 0, track=1)
    s = _w2(s)
    assert not [m for m in legal(s, 0) if m.startswith("use storage")]


def test_s3_usable_in_the_turn_the_cube_arrived_and_lost_with_the_cube() -> None:
    """S3, D22: usable the turn the cube arrives; unavailable once the cube leaves."""
    s = tile(started(2), "B1", ("A", "A"))
    s, _ = run(s, 0, "move N")  # the cube goes to storage space 2
    assert top(s) == (WINDOW, 0, ("W2",)) and "use storage 2" in legal(s, 0)
    s = with_row(s, 0, row(right=["C09"]))
    s = _w2(s)
    s, _ = run(s, 0, "use slot R1")  # the space-2 cube leaves storage
    s, _ = run(s, 0, "skip BOWL; skip BOWL")
    assert "use storage 2" not in legal(s, 0)


# --------------------------------------------------------------------------- track S6-S7


def test_s6_track_ability_costs_pawns_once_per_turn() -> None:
    """S6, D33: each track ability once per turn, its full cost paid from the track."""
    s = clan(started(2), 0, track=3)
    s = _w2(s)
    s, _ = run(s, 0, "use track SPY; spy V1")
    assert s.clans[0].track == 2 and s.track_used == ("SPY",)
    with pytest.raises(MoveError) as refused:
        GAME.parse(s, 0, "use track SPY")
    assert refused.value.key == "sahwari.err.s6_once"
    with pytest.raises(MoveError) as refused:
        GAME.parse(s, 0, "use track BIRD")  # 3 pawns, 2 on the track
    assert refused.value.key == "sahwari.err.s6_cost"
    s, _ = run(s, 0, "use track REFRESH; refresh")
    assert s.clans[0].track == 1
    s = at(s, 0, "W0")  # a new turn: SPY is usable again
    assert "use track SPY" in legal(s, 0)


def test_s7_spent_pawns_fill_the_guild_then_leave_the_game() -> None:
    """S7: spent pawns go to the Guild's 3 recruit spaces; beyond, out of the game."""
    s = clan(started(2), 0, track=5)
    s = guild(s, pawns=2)
    pawns = s.table.pawns
    s, events = run(_w2(s), 0, "use track CHEST; chest")
    assert s.table.guild_pawns == 3 and s.table.pawns == pawns  # one left the game
    use = [e for e in events if e.key == "sahwari.log.use_track"][0]
    assert use.params["count"] == 2 and use.params["guild"] == 1


# ------------------------------------------------------------------------ hidden information H1-H5


def test_h1_h2_public_view_shows_handles_and_counts_never_blue_faces_or_deck_order() -> None:
    """H1, H2: the public view holds handles, counts and public faces only."""
    s = started(2)
    s = give_convoys(s, 1, [token_of(s, "V1")])
    for viewer in (None, 0):
        view = GAME.view(s, viewer)
        text = repr((view.items, view.faces, view.clans, view.removed))
        assert not _blue_ids(text)
        assert view.clans[1].convoys == ("V1",) and view.deck == len(s.table.deck)
    assert dict(GAME.view(s, 1).faces)["V1"] == token_of(s, "V1")


def test_h2_no_public_event_of_a_whole_game_names_a_hidden_blue_face() -> None:
    """H2, H4, §17.5: public events never show a face still hidden; private ones go to one seat."""
    s = clan(started(2), 0, track=1)
    s = tile(s, "B1", ("A", token_of(s, "V2")))
    hidden = token_of(s, "V2")
    s = _w2(s)
    s, events = run(s, 0, "use track SPY; spy V3")
    s = at(s, 0, "W0")
    s, events2 = run(s, 0, "move N; take convoy V2; keep")
    events = events + events2
    for e in public(events):
        assert not _blue_ids(repr(e.params)), e
    assert {e.to for e in events if e.to is not None} == {0}
    assert hidden in repr(private(events2, 0))


def test_h5_spy_is_legal_on_a_token_the_spy_already_knows() -> None:
    """H5: SPY's targets are judged on public information (a known face stays a target)."""
    s = clan(started(2), 0, track=1)
    s = replace(s, known=((token_of(s, "V1"), (0,)),))
    s, _ = run(_w2(s), 0, "use track SPY")
    assert "spy V1" in legal(s, 0)


def test_h6_resample_keeps_what_the_seat_knows_and_redraws_the_rest() -> None:
    """H6, H3: a twin for a seat keeps the faces it knows; public handles stay where they are."""
    s = clan(started(2), 0, track=1)
    s, _ = run(_w2(s), 0, "use track SPY; spy V3")
    twin = GAME.resample(s, 0, 99)
    assert twin.table.token("V3") == s.table.token("V3")
    assert GAME.view(twin, None).items == GAME.view(s, None).items
    assert sorted(twin.table.deck) == sorted(s.table.deck)


# --------------------------------------------------------------------------- §17.3 prompts


def test_17_3_every_prompt_is_a_decision_for_its_seat() -> None:
    """§17.3: each prompt is the single decision awaited, named for its seat."""
    seen: set[str] = set()

    def note(state) -> None:
        decision = GAME.decisions(state)
        if decision:
            seen.add(decision[0].key.removeprefix("sahwari.decision."))

    s = GAME.new(2, 1, {"leaders": "choose"})
    note(s)
    s, _ = run(s, 1, "leader explorer")
    s, _ = run(s, 0, "leader merchant")
    s = with_row(s, 0, row(right=["C10"]), track=1)
    s = at(s, 0, "W0")
    for command in (
        "next",
        "move N",
        "next",
        "take artefact",
        "place R1",
        "chest",
        "bowl V4",
        "keep",
        "guild G1 E",
        "guild G1 S",
        "end",
    ):
        note(s)
        s, _ = run(s, 0, command)
    note(s)
    s, _ = run(s, 1, "move N")
    note(s)  # the Explorer's second move
    s = camels(s, P1="A1", P2="B1", G1="A2")
    s = at(s, 0, "MOVE")
    note(s)  # relocate
    s = recruitment_row(started(2), ("C09", "C01", "C04", "C10"))
    s = tile(s, "B1", ("R", "Y02"))
    s, _ = run(s, 0, "move N; take recruit")
    note(s)  # pick a card
    assert seen == {
        "leader",
        "window",
        "move",
        "relocate",
        "second",
        "collect",
        "cube",
        "convoy",
        "card",
        "effects",
        "guild",
    }
