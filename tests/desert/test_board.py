"""The board of spec §3: neighbours (§3.1), the map and its facts (§3.2)."""

from __future__ import annotations

from collections.abc import Iterable
from importlib import resources

import pytest

from games.desert import board
from games.desert.board import (
    COORDS,
    GRID_NEIGHBOURS,
    NAMES,
    SIZE,
    TERRAIN,
    MapError,
    hex_distance,
    layout,
    parse_map,
    validate_map,
)
from tests.desert.helpers import connected, sq


def names(squares: Iterable[int]) -> set[str]:
    return {NAMES[i] for i in squares}


def spaces(text: str) -> set[str]:
    return set(text.split())


def of(kind: str, small: bool | None = None) -> set[str]:
    return {
        NAMES[i]
        for i in range(SIZE)
        if TERRAIN[i] == kind and (small is None or board.SMALL[i] == small)
    }


@pytest.mark.parametrize(
    ("space", "expected"),
    [
        ("F7", "E7 G7 E6 F6 E8 F8"),
        ("F8", "E8 G8 F7 G7 F9 G9"),
        ("D3", "C3 E3 C2 D2 C4 D4"),
        ("A1", "B1 A2"),  # corner: odd row, only 2 on the grid
        ("S14", "R14 S13"),  # corner: even row
    ],
)
def test_neighbours_follow_the_odd_even_row_rule(space: str, expected: str) -> None:
    """§3.1: examples F7, F8, D3, and the grid corners."""
    assert names(GRID_NEIGHBOURS[sq(space)]) == set(expected.split())


def test_neighbourhood_is_symmetric_and_matches_hex_distance() -> None:
    for a in range(SIZE):
        assert a not in GRID_NEIGHBOURS[a]
        for b in GRID_NEIGHBOURS[a]:
            assert a in GRID_NEIGHBOURS[b]
        adjacent = {b for b in range(SIZE) if hex_distance(a, b) == 1}
        assert adjacent == set(GRID_NEIGHBOURS[a])


def test_map_matches_the_explicit_lists_of_section_3_2() -> None:
    mountains = spaces(
        "A1 B1 C1 G1 H1 L1 M1 N1 R1 S1 A2 S2 A3 S5 S6 A7 A8 S9 S10 A12 A13 S13 A14 B14 C14 "
        "F14 G14 H14 K14 L14 M14 Q14 R14 S14 B2 R2 B13 R13 H5 G6 H6 G7 H7 I7 H8 I8 H9"
    )
    assert len(mountains) == 47
    assert of("mountain") == mountains
    assert of("palm", small=False) == spaces("D3 K3 M7 D8 L11 G12")
    assert of("palm", small=True) == {"Q8"}
    main_water = spaces(
        "E1 J1 H2 M2 F3 N3 B4 H4 L4 D5 J5 O5 B6 F6 K6 J7 O7 B8 F8 K8 J9 N9 A10 C10 G10 "
        "E11 I11 O11 B12 J12 E13 L13 N13 I14"
    )
    assert len(main_water) == 34
    assert of("water", small=False) == main_water
    assert of("water", small=True) == spaces("Q2 P4 R4 Q6 S8 P10 R10 Q12 P13")
    assert len(of("sand", small=False)) == 136
    assert len(of("sand", small=True)) == 33


def test_small_section_is_columns_p_to_s() -> None:
    for i, (col, _row) in enumerate(COORDS):
        assert board.SMALL[i] == (col >= 16)


def test_active_squares_per_player_count() -> None:
    """§3.3/§10.6: 2-3 players use the main section only (176), 4-5 the whole board (219)."""
    for players in (2, 3):
        assert len(layout(players).active) == 176
        assert not any(board.SMALL[i] for i in layout(players).active)
        assert names(layout(players).palm_sites) == spaces("D3 K3 M7 D8 L11 G12")
        assert len(layout(players).water_circles) == 34
    for players in (4, 5):
        assert len(layout(players).active) == 219
        assert len(layout(players).palm_sites) == 7
        assert len(layout(players).water_circles) == 43


def test_inactive_squares_are_not_neighbours() -> None:
    """§10.6: with 2-3 players the small section works as a board edge."""
    lay = layout(3)
    assert names(lay.neighbours[sq("O4")]) == {"N4", "O3", "O5"}
    assert lay.neighbours[sq("Q8")] == ()
    assert names(layout(4).neighbours[sq("O4")]) == {"N4", "O3", "O5", "P3", "P4", "P5"}


def test_palm_sites_are_four_steps_apart_and_clear_of_water() -> None:
    palms = [i for i in range(SIZE) if TERRAIN[i] == "palm"]
    assert min(hex_distance(a, b) for a in palms for b in palms if a < b) == 4
    for p in palms:
        near = [TERRAIN[n] for n in GRID_NEIGHBOURS[p]]
        assert len(near) == 6 and not {"mountain", "water", "palm"} & set(near)


def test_no_single_sand_space_cuts_the_active_board() -> None:
    """§10.25: so a lone leader can never bound an area."""
    for players in (3, 4):
        active = set(layout(players).active)
        assert connected(active)
        for cut in active:
            if TERRAIN[cut] == "sand":
                assert connected(active - {cut}), NAMES[cut]


def test_r6_counts_of_spaces_meeting_r1_and_r2() -> None:
    """R6: 106 spaces meet R1-R2 with 2-3 players, 139 with 4-5, whatever the oases."""
    from games.desert import GAME
    from games.desert.rules import leader_spaces

    for players, expected in ((2, 106), (3, 106), (4, 139), (5, 139)):
        for seed in range(4):
            state = GAME.new(players, seed)
            assert len(leader_spaces(state)) == expected


def test_the_shipped_map_validates_and_broken_maps_fail_loudly() -> None:
    text = (resources.files("games.desert") / "map.txt").read_text(encoding="utf-8")
    validate_map(parse_map(text))
    row3 = "   3   # . . P . W . . . . P . . W . , , , ,"
    assert row3 in text
    with pytest.raises(MapError, match="palm sites"):  # a palm site lost
        validate_map(parse_map(text.replace(row3, row3.replace("P", ".", 1))))
    with pytest.raises(MapError, match="wrong section"):  # small-section symbol in column D
        parse_map(text.replace(row3, row3.replace("P", "p", 1)))
    with pytest.raises(MapError, match="unknown symbol"):
        parse_map(text.replace(row3, row3.replace("P", "X", 1)))
    with pytest.raises(MapError, match="rows"):
        parse_map(text.replace(row3 + "\n", ""))
    cut = text.replace("  10    W . W", "  10    W # W")  # sand -> mountain: counts break
    with pytest.raises(MapError):
        validate_map(parse_map(cut))
