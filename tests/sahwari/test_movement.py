"""Sahwari map geometry and movement (spec §3, §6 rules R1-R14, §10 rules A2-A6, §17.4).

Test names carry the rule id they check (D41: `rule R2`, `tile C3`).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.sahwari.board import (
    COMMON_TILES,
    DIRECTIONS,
    GUILD,
    GUILD_CAMELS,
    OASES,
    PLAYER_CAMELS,
    RESOURCE_TILES,
    TILES,
    Direction,
    GuildMove,
    Move,
    Snapshot,
    adjacent,
    can_move,
    convoy_target_tiles,
    displacement_targets,
    explorer_second_moves,
    guild_camel_targets,
    guild_first_moves,
    guild_moves,
    guild_second_moves,
    guild_stops,
    is_common,
    is_guild_camel,
    name,
    opposite,
    parse_tile,
    path,
    player_camel_targets,
    player_moves,
    player_stops,
    relocation_targets,
    retreat_targets,
    step,
)

T = parse_tile
COMMON_NAMES = ["B2", "D2", "C3", "B4", "D4"]  # reading order


def snap(*, up: str | None = None, desert: str = "", **camels: str) -> Snapshot:
    """``up``: the face-up tiles (default: every resource tile not listed in ``desert``)."""
    if up is None:
        face_up = {name(t) for t in RESOURCE_TILES} - set(desert.split())
    else:
        face_up = set(up.split())
    return Snapshot.of(face_up, camels)


def names(tiles: tuple[int, ...]) -> list[str]:
    return [name(t) for t in tiles]


def moves(ms: tuple[Move, ...]) -> set[tuple[str, str]]:
    return {(m.direction, name(m.stop)) for m in ms}


def stops(s: Snapshot, camel: str, direction: Direction) -> list[str]:
    if is_guild_camel(camel):
        return names(guild_stops(s, camel, direction))
    return names(player_stops(s, camel, direction))


# --- Map (§3): tiles, directions, kinds ------------------------------------------------------


def test_notation_tiles_in_reading_order() -> None:
    assert [name(t) for t in (0, 4, 5, 12, 24)] == ["A1", "E1", "A2", "C3", "E5"]
    assert [parse_tile(name(t)) for t in TILES] == list(TILES)
    assert parse_tile(" c3 ") == 12 == parse_tile("C3")
    assert parse_tile("e5") == 24


@pytest.mark.parametrize("bad", ["", "A", "F1", "A0", "A6", "A10", "11", "3C", "guild"])
def test_notation_bad_tile_rejected(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_tile(bad)


def test_notation_name_out_of_range() -> None:
    for bad in (-1, 25):
        with pytest.raises(ValueError):
            name(bad)


def test_r1_step_directions_and_map_edge() -> None:
    c3 = T("C3")
    assert [name(s) for d in DIRECTIONS if (s := step(c3, d)) is not None] == [
        "C2",
        "D3",
        "C4",
        "B3",
    ]
    assert step(T("A1"), "N") is None and step(T("A1"), "W") is None
    assert step(T("E5"), "S") is None and step(T("E5"), "E") is None
    for d in DIRECTIONS:
        assert opposite(opposite(d)) == d != opposite(d)
    assert opposite("N") == "S" and opposite("E") == "W"


def test_d19_adjacent_is_orthogonal_only() -> None:
    assert names(adjacent(T("A1"))) == ["B1", "A2"]
    assert names(adjacent(T("C3"))) == ["C2", "D3", "C4", "B3"]
    assert len(adjacent(T("A3"))) == 3
    assert T("B2") not in adjacent(T("A1"))  # diagonal
    for a in TILES:
        for b in adjacent(a):
            assert a in adjacent(b)
    assert sum(len(adjacent(t)) for t in TILES) == 4 * 2 + 12 * 3 + 9 * 4


def test_tile_kinds_guild_oases_resources() -> None:
    assert name(GUILD) == "C3"
    assert sorted(names(tuple(OASES))) == ["B2", "B4", "D2", "D4"]
    assert names(COMMON_TILES) == COMMON_NAMES
    assert len(RESOURCE_TILES) == 20 and not set(RESOURCE_TILES) & set(COMMON_TILES)
    assert [t for t in TILES if is_common(t)] == list(COMMON_TILES)


def test_r1_path_straight_to_the_edge_never_off_the_map() -> None:
    assert names(path(T("A1"), "E")) == ["B1", "C1", "D1", "E1"]
    assert path(T("A1"), "N") == () == path(T("A1"), "W")
    for t in TILES:
        for d in DIRECTIONS:
            p = path(t, d)
            assert t not in p and all(x in TILES for x in p)
            assert len({x % 5 for x in (t, *p)}) == 1 or len({x // 5 for x in (t, *p)}) == 1
            assert len(p) == {"N": t // 5, "S": 4 - t // 5, "W": t % 5, "E": 4 - t % 5}[d]


# --- Snapshot ------------------------------------------------------------------------------


def test_r5_snapshot_rejects_two_camels_on_a_non_common_tile() -> None:
    with pytest.raises(ValueError):
        snap(P1="B3", G1="B3")
    s = snap(P1="C3", P2="C3", G1="C3", G2="C3")  # rule R4: common tiles are shared
    assert s.camels_on(GUILD) == ("G1", "G2", "P1", "P2")


def test_snapshot_validation_and_normal_form() -> None:
    with pytest.raises(ValueError):
        snap(up="C3")  # the Guild never has a face-up resource side
    with pytest.raises(ValueError):
        snap(up="B2")  # nor an oasis
    with pytest.raises(ValueError):
        snap(P5="A1")
    with pytest.raises(ValueError):
        Snapshot(frozenset(), (("P1", 0), ("P1", 1)))
    with pytest.raises(ValueError):
        Snapshot(frozenset(), (("P1", 25),))
    a = Snapshot(frozenset({0}), (("P2", 3), ("G1", 12)))
    assert a == Snapshot(frozenset({0}), (("G1", 12), ("P2", 3))) and hash(a)
    with pytest.raises(ValueError):
        a.tile_of("P1")


# --- Player camels: R1-R7 ----------------------------------------------------------------


def test_d36_r7_starting_positions_have_four_moves_each() -> None:
    s = snap(P1="B2", P2="D4", P3="D2", P4="B4", G1="C3", G2="C3")
    for camel in PLAYER_CAMELS:
        ms = player_moves(s, camel)
        assert [m.direction for m in ms] == list(DIRECTIONS)
        assert [m.stop for m in ms] == list(adjacent(s.tile_of(camel)))


def test_r3_mandatory_stop_is_the_first_face_up_tile() -> None:
    s = snap(P1="A1")
    assert stops(s, "P1", "E") == ["B1"]  # never passed (rule R3)
    assert stops(s, "P1", "S") == ["A2"]


def test_r2_r6_desert_crossed_never_a_stop() -> None:
    s = snap(desert="B1 C1", P1="A1")
    assert stops(s, "P1", "E") == ["D1"]


def test_r6_only_deserts_no_legal_stop_no_move() -> None:
    s = snap(desert="B1 C1 D1 E1", P1="A1")
    assert stops(s, "P1", "E") == []
    assert "E" not in {m.direction for m in player_moves(s, "P1")}


def test_r6_camel_on_a_desert_may_leave_it() -> None:
    s = snap(desert="A1", P1="A1")
    assert moves(player_moves(s, "P1")) == {("E", "B1"), ("S", "A2")}


def test_r2_r4_common_tile_is_an_optional_stop_before_the_mandatory_one() -> None:
    s = snap(desert="B3", P1="A3")
    assert stops(s, "P1", "E") == ["C3", "D3"]


def test_r4_d3_guild_tile_never_mandatory() -> None:
    s = snap(desert="B3 D3 E3", P1="A3")
    assert stops(s, "P1", "E") == ["C3"]  # an optional stop only; nothing forces it


def test_r4_several_optional_stops() -> None:
    s = snap(desert="B3 B5", P1="B1")
    assert stops(s, "P1", "S") == ["B2", "B4"]
    s = snap(desert="B3", P1="B1")
    assert stops(s, "P1", "S") == ["B2", "B4", "B5"]


def test_r4_occupied_common_tiles_are_crossed_and_shared() -> None:
    s = snap(desert="B3", P1="A3", P2="C3", G1="C3", G2="C3")
    assert stops(s, "P1", "E") == ["C3", "D3"]
    s = snap(P1="A2", P2="B2", G1="B2")
    assert stops(s, "P1", "E") == ["B2", "C2"]


def test_r5_blocked_by_an_opponent_on_a_resource_tile() -> None:
    s = snap(P1="A3", P2="B3")
    assert stops(s, "P1", "E") == []


def test_r5_blocked_by_a_camel_on_a_desert() -> None:
    s = snap(desert="B1", P1="A1", P2="B1")
    assert stops(s, "P1", "E") == []  # D1 beyond is face up but unreachable


def test_r5_d4_guild_camels_block_player_camels() -> None:
    s = snap(desert="B1", P1="A1", G1="C1")
    assert stops(s, "P1", "E") == []


def test_r5_optional_stops_before_the_blocker_remain() -> None:
    s = snap(desert="B3", P1="A3", P2="D3")
    assert stops(s, "P1", "E") == ["C3"]


def test_r1_never_stops_on_its_start_tile() -> None:
    s = snap(P1="B1")  # B1 is face up under the camel
    assert T("B1") not in {m.stop for m in player_moves(s, "P1")}
    s = snap(desert="C2 C4 B3 D3", P1="C3")
    assert GUILD not in {m.stop for m in player_moves(s, "P1")}


def test_r1_never_leaves_the_map() -> None:
    s = snap(P1="A1")
    assert stops(s, "P1", "N") == [] == stops(s, "P1", "W")


def test_r7_every_direction_and_stop() -> None:
    s = snap(desert="B3 C4 C5", P1="A3", P2="E3", G1="C2")
    assert moves(player_moves(s, "P1")) == {
        ("N", "A2"),
        ("E", "C3"),
        ("E", "D3"),
        ("S", "A4"),
    }
    assert moves(player_moves(snap(desert="C4 C5", P1="C3", G1="C2"), "P1")) == {
        ("E", "D3"),
        ("W", "B3"),
    }


def test_player_functions_reject_guild_camels() -> None:
    s = snap(P1="A1", G1="C3")
    with pytest.raises(ValueError):
        player_stops(s, "G1", "N")
    with pytest.raises(ValueError):
        guild_stops(s, "P1", "N")


# --- R8: cannot move -----------------------------------------------------------------------


def test_r8_boxed_in_camel_cannot_move_and_relocates_to_a_common_tile() -> None:
    s = snap(P1="A1", P2="B1", G1="A2")
    assert not can_move(s, "P1")
    assert names(relocation_targets(s, "P1")) == COMMON_NAMES


def test_r8_cannot_move_among_deserts() -> None:
    s = snap(desert="B1 C1 D1 E1 A2 A3 A4 A5", P1="A1")
    assert not can_move(s, "P1") and T("D2") in relocation_targets(s, "P1")  # §17.4 relocate D2


def test_r8_d43_relocation_may_keep_the_current_common_tile() -> None:
    s = snap(P1="B2", P2="B1", P3="C2", G1="A2", G2="B3")
    assert not can_move(s, "P1")
    assert T("B2") in relocation_targets(s, "P1")
    assert names(relocation_targets(s, "P1")) == COMMON_NAMES


def test_r8_no_relocation_when_a_move_exists() -> None:
    s = snap(P1="A1", P2="B1")
    assert can_move(s, "P1") and relocation_targets(s, "P1") == ()


# --- R12: the Explorer ---------------------------------------------------------------------


def test_r12_explorer_example_17_4() -> None:
    s = snap(up="A4 A3", P4="B4", G1="C3", G2="C3")
    first = Move("W", T("A4"))
    assert first in player_moves(s, "P4")
    assert moves(explorer_second_moves(s, "P4", first)) == {("N", "A3")}


def test_r12_explorer_no_going_back_but_same_direction_allowed() -> None:
    s = snap(P1="A2")
    first = Move("E", T("B2"))  # optional stop on the oasis, C2 is the mandatory one
    assert moves(player_moves(s, "P1")) >= {("E", "B2"), ("E", "C2")}
    second = explorer_second_moves(s, "P1", first)
    assert "W" not in {m.direction for m in second}  # A2 would be back
    assert moves(second) == {("N", "B1"), ("E", "C2"), ("S", "B3")}


def test_r12_explorer_second_move_follows_r2_from_the_first_stop() -> None:
    s = snap(desert="B3 B5", P1="A3", P2="C2")
    first = Move("E", T("C3"))
    assert moves(explorer_second_moves(s, "P1", first)) == {("E", "D3"), ("S", "C4")}


def test_r12_r8_no_second_move_means_the_camel_stays() -> None:
    s = snap(up="A4", P4="B4", P1="A3")
    first = Move("W", T("A4"))
    assert explorer_second_moves(s, "P4", first) == ()  # R8 is not applied again


def test_r12_explorer_first_move_must_be_legal() -> None:
    s = snap(P1="A1")
    with pytest.raises(ValueError):
        explorer_second_moves(s, "P1", Move("E", T("C1")))  # passes the mandatory stop B1


# --- Guild camels: R9-R11 ------------------------------------------------------------------


def test_r10_guild_camel_crosses_the_other_guild_camel_without_stopping() -> None:
    s = snap(G1="A3", G2="B3")
    assert stops(s, "G1", "E") == ["C3", "D3"]
    s = snap(desert="B1 C1", G1="A1", G2="B1")
    assert stops(s, "G1", "E") == ["C1", "D1"]


def test_r10_unoccupied_desert_is_an_optional_guild_stop() -> None:
    s = snap(desert="B1 C1", G1="A1", P1="A5")
    assert stops(s, "G1", "E") == ["B1", "C1", "D1"]
    s = snap(desert="B1 C1 D1 E1", G1="A1")
    assert stops(s, "G1", "E") == ["B1", "C1", "D1", "E1"]


def test_r10_player_camels_block_guild_camels() -> None:
    s = snap(desert="B1", G1="A1", P1="C1")
    assert stops(s, "G1", "E") == ["B1"]
    s = snap(desert="B1", G1="A1", G2="B1", P1="C1")
    assert stops(s, "G1", "E") == []  # the jump over G2 lands on a blocked tile


def test_r10_mandatory_stop_on_face_up_unoccupied_tile() -> None:
    s = snap(G1="A1")
    assert stops(s, "G1", "E") == ["B1"]


def test_r10_r4_guild_camel_crosses_player_camels_on_common_tiles() -> None:
    s = snap(desert="B3", G1="A3", P1="C3")
    assert stops(s, "G1", "E") == ["B3", "C3", "D3"]


def test_r11_guild_camels_sharing_the_guild_move_independently() -> None:
    s = snap(G1="C3", G2="C3")
    for g in GUILD_CAMELS:
        assert moves(guild_moves(s, g)) == {("N", "C2"), ("E", "D3"), ("S", "C4"), ("W", "B3")}


def test_r11_guild_camel_may_stop_on_a_common_tile_holding_the_other() -> None:
    s = snap(G1="C2", G2="C3")
    assert stops(s, "G1", "S") == ["C3", "C4"]
    s = snap(desert="B3", G1="B1", G2="B2", P1="B4")
    assert stops(s, "G1", "S") == ["B2", "B3", "B4", "B5"]


def test_r9_first_guild_move_either_camel() -> None:
    s = snap(P1="B2", P2="D4", G1="C3", G2="C3")
    first = guild_first_moves(s)
    assert len(first) == 8 and {m.camel for m in first} == {"G1", "G2"}


def test_r9_one_guild_camel_twice_or_each_once() -> None:
    s = snap(P1="B2", P2="D4", G1="C3", G2="C3")
    first = GuildMove("G1", "N", T("C2"))
    second = guild_second_moves(s, first)
    assert GuildMove("G1", "N", T("C1")) in second  # the same camel again
    assert GuildMove("G2", "N", T("C1")) in second  # the other: jumps G1 on tile C2
    assert GuildMove("G2", "N", T("C2")) not in second  # but never stops there (D5)
    assert GuildMove("G2", "W", T("B3")) in second


def test_r9_guild_move_skipped_when_none_is_legal() -> None:
    s = snap(G1="A1", G2="E1", P1="B1", P2="A2", P3="D1", P4="E2")
    assert not can_move(s, "G1") and not can_move(s, "G2")
    assert guild_first_moves(s) == ()
    assert guild_second_moves(s, None) == ()


def test_r9_d6_guild_moves_are_mandatory_and_must_be_legal() -> None:
    s = snap(G1="C3", G2="C3")
    with pytest.raises(ValueError):
        guild_second_moves(s, None)
    with pytest.raises(ValueError):
        guild_second_moves(s, GuildMove("G1", "N", T("C1")))  # passes the mandatory stop C2


# --- §17.4 examples ------------------------------------------------------------------------


def test_r2_r10_example_17_4_simple_turn() -> None:
    s = snap(P2="D4", G1="C3", G2="C3")
    assert stops(s, "P2", "E") == ["E4"]
    first = GuildMove("G1", "N", T("C2"))
    assert first in guild_first_moves(s) and stops(s, "G1", "N") == ["C2"]
    assert GuildMove("G2", "W", T("B3")) in guild_second_moves(s, first)


def test_r10_example_17_4_guild_camel_twice_crossing_an_oasis() -> None:
    s = snap(P1="B2", P2="D4", G1="C3", G2="C3")
    assert stops(s, "P1", "N") == ["B1"]
    s = s.placed("P1", T("B1"))
    first = GuildMove("G1", "E", T("D3"))
    assert stops(s, "G1", "E") == ["D3"]
    second = guild_second_moves(s, first)
    g1_south = [name(m.stop) for m in second if m.camel == "G1" and m.direction == "S"]
    assert g1_south == ["D4", "D5"]  # D4 optional (shared with P2), D5 mandatory


def test_a2_a5_example_17_4_attack_from_a_guild_camel() -> None:
    s = snap(P1="C4", P3="A3", G1="B3", G2="C3")
    assert player_camel_targets(s, "G1", "P1") == ("P3",)
    assert T("B4") in retreat_targets(s, "G1")


# --- Attacks (A2-A6) and placements (R14) --------------------------------------------------


def test_a2_targets_only_on_adjacent_tiles() -> None:
    s = snap(P1="B2", G2="B2", P2="B1", G1="C2", P3="C1", P4="A3")
    assert player_camel_targets(s, "P1", "P1") == ("P2",)  # P3 and P4 are diagonal
    assert guild_camel_targets(s, "P1") == ("G1",)  # G2 on the same tile is not adjacent


def test_a3_camel_on_the_guild_cannot_be_targeted() -> None:
    s = snap(P1="B3", P2="C3", G1="C3", G2="B4")
    assert player_camel_targets(s, "P1", "P1") == ()
    assert guild_camel_targets(s, "P1") == ("G2",)


def test_a3_attack_may_originate_from_the_guild() -> None:
    s = snap(P1="C3", G1="C3", P2="C2", G2="D3")
    assert player_camel_targets(s, "P1", "P1") == ("P2",)
    assert guild_camel_targets(s, "G1") == ("G2",)
    assert player_camel_targets(s, "G1", "P2") == ()  # rule A5 D21: never one's own camel


def test_a4_guild_camel_displacement_targets_exclude_its_tile() -> None:
    s = snap(G1="D4", G2="A1")
    assert names(displacement_targets(s, "G1")) == ["B2", "D2", "C3", "B4"]
    assert names(displacement_targets(s, "G2")) == COMMON_NAMES
    with pytest.raises(ValueError):
        displacement_targets(snap(P1="A1"), "P1")


def test_a5_retreat_targets_all_common_tiles_staying_allowed() -> None:
    assert names(retreat_targets(snap(P1="B4"), "P1")) == COMMON_NAMES
    assert names(retreat_targets(snap(G1="A1"), "G1")) == COMMON_NAMES


def test_a6_d38_convoy_targets_on_and_around_the_origin_tile() -> None:
    s = snap(P1="A1", G1="C3")
    assert names(convoy_target_tiles(s, "P1")) == ["A1", "B1", "A2"]
    assert names(convoy_target_tiles(s, "G1")) == ["C2", "B3", "C3", "D3", "C4"]


def test_r14_placements_ignore_paths_but_keep_r5() -> None:
    s = snap(P1="B2", P2="C2", G1="D2")
    moved = s.placed("P1", T("E2"))  # beyond two blockers: a placement, not a move
    assert moved.tile_of("P1") == T("E2") and s.tile_of("P1") == T("B2")
    assert s.placed("P2", T("D2")).camels_on(T("D2")) == ("G1", "P2")  # common tile shared
    with pytest.raises(ValueError):
        s.placed("P1", T("C2"))


# --- Property over random snapshots --------------------------------------------------------


@st.composite
def snapshots(draw: st.DrawFn) -> Snapshot:
    """2-4 player camels and both guild camels; some moved onto shared common tiles (R4, R5)."""
    ids = (*PLAYER_CAMELS[: draw(st.integers(2, 4))], *GUILD_CAMELS)
    n = len(ids)
    tiles = draw(st.lists(st.sampled_from(TILES), min_size=n, max_size=n, unique=True))
    common = draw(st.lists(st.none() | st.sampled_from(COMMON_TILES), min_size=n, max_size=n))
    face_up = draw(st.frozensets(st.sampled_from(RESOURCE_TILES)))
    camels = tuple((c, t if o is None else o) for c, t, o in zip(ids, tiles, common, strict=True))
    return Snapshot(face_up, camels)


def stops_of(s: Snapshot, camel: str, d: Direction) -> tuple[int, ...]:
    return guild_stops(s, camel, d) if is_guild_camel(camel) else player_stops(s, camel, d)


def check_stops(s: Snapshot, camel: str, direction: Direction) -> None:
    found = stops_of(s, camel, direction)
    guild = is_guild_camel(camel)
    line = path(s.tile_of(camel), direction)
    # The reachable part of the path: up to a blocking tile (excluded) or the mandatory stop.
    reach, mandatory = line, None
    for i, t in enumerate(line):
        held = s.camels_on(t)
        if is_common(t):
            continue
        if held and not (guild and all(is_guild_camel(c) for c in held)):
            reach = line[:i]
            break
        if not held and t in s.face_up:
            reach, mandatory = line[: i + 1], t
            break
    assert list(found) == [t for t in line if t in found], "stops out of path order"
    assert s.tile_of(camel) not in found
    for t in found:
        assert t in reach, "stop beyond a blocker or beyond the mandatory stop"
        assert is_common(t) or not s.camels_on(t), "stop on an occupied non-common tile"
        if not guild:
            assert is_common(t) or t in s.face_up, "player camel stopped on a desert"
    offered = [t for t in reach if is_common(t) or (guild and not s.camels_on(t))]
    assert [t for t in found if t != mandatory] == [t for t in offered if t != mandatory]
    assert mandatory is None or found[-1] == mandatory, "mandatory stop missing"


@settings(max_examples=150, deadline=None)
@given(snapshots())
def test_r1_r2_r10_r12_stops_on_random_snapshots(s: Snapshot) -> None:
    for camel, start in s.camels:
        for d in DIRECTIONS:
            check_stops(s, camel, d)
        if is_guild_camel(camel):
            continue
        assert bool(relocation_targets(s, camel)) != can_move(s, camel)  # rule R8
        for first in player_moves(s, camel):
            after = s.placed(camel, first.stop)
            for d in DIRECTIONS:
                check_stops(after, camel, d)
            for second in explorer_second_moves(s, camel, first):
                assert second.direction != opposite(first.direction)
                assert second.stop not in (start, first.stop)
                assert second in player_moves(after, camel)
    for g1 in guild_first_moves(s):  # rule R9
        after = s.placed(g1.camel, g1.stop)
        for g2 in guild_second_moves(s, g1):
            assert (g2.direction, g2.stop) in guild_moves(after, g2.camel)
