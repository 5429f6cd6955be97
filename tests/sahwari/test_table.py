"""Sahwari's table and its setup (spec §4 steps 2-6 and 9, §15.1, §15.6)."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest

from games.rng import Rng
from games.sahwari import board
from games.sahwari.content import CONTENT, TOKEN_IDS
from games.sahwari.table import DESERT, FACE_UP, Table, setup_table

FIGURES = {s.players: s for s in CONTENT.setups}


def table(players: int, seed: int = 1, random_layout: bool = False) -> Table:
    return setup_table(players, Rng.from_seed(seed), random_layout)[0]


def letters(items: tuple[str, ...]) -> str:
    """Items as the spec's letters: A, R, and Y or B for a token."""
    return "".join(i if i in "AR" else i[0] for i in items)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_step_4_every_tile_gets_its_content_for_the_player_count(players: int) -> None:
    t = table(players)
    for tile in board.TILES:
        printed = CONTENT.tile(board.name(tile))
        expected = printed.items(players) if printed.kind == "resource" else ""
        assert letters(t.items[tile]) == expected
    counts = Counter("".join(letters(items) for items in t.items))
    assert (counts["A"], counts["R"], counts["Y"], counts["B"]) == FIGURES[players].map_items


@pytest.mark.parametrize("players", [2, 3, 4])
def test_section_15_6_supplies_after_setup(players: int) -> None:
    t = table(players)
    figures = FIGURES[players]
    assert t.cubes == figures.cubes_left  # 22 / 17 / 10: the starting cubes left too
    assert t.pawns == figures.pawns_left
    assert t.attack_tokens == CONTENT.supplies.attack_tokens
    on_map = [i for items in t.items for i in items if i not in "AR"]
    assert len(set(on_map)) == len(on_map)
    unused = (
        len(TOKEN_IDS["yellow"]) - sum(i[0] == "Y" for i in on_map),
        len(TOKEN_IDS["blue"]) - sum(i[0] == "B" for i in on_map),
    )
    assert unused == figures.unused_tokens


def test_setup_step_4_blue_handles_follow_placement_order() -> None:
    t = table(4, seed=7)
    placed = [i for tile in board.TILES for i in t.items[tile] if i.startswith("B")]
    assert t.handles == tuple(placed)
    assert [t.handle(token) for token in placed] == [f"V{n}" for n in range(1, len(placed) + 1)]
    assert all(t.token(t.handle(token)) == token for token in placed)
    yellow = next(i for items in t.items for i in items if i.startswith("Y"))
    assert t.handle(yellow) == yellow and t.token(yellow) == yellow
    assert t.token("V13") is None and t.token("V0") is None


def test_setup_steps_5_6_9_camels_guild_and_recruitment_row() -> None:
    t = table(3)
    where = {camel: board.name(tile) for camel, tile in t.camels}
    assert where == {"P1": "B2", "P2": "D4", "P3": "D2", "G1": "C3", "G2": "C3"}
    assert (t.guild_pawns, t.guild_cubes) == (0, 0)
    assert len(t.row) == 4 and len(t.deck) == 32 and not t.discard
    assert sorted(t.row + t.deck) == sorted(c.id for c in CONTENT.cards)
    assert t.face_up() == 20 and t.sides[board.GUILD] == "g"


def test_setup_is_decided_by_the_seed() -> None:
    assert table(4, seed=3) == table(4, seed=3)
    assert table(4, seed=3) != table(4, seed=4)


def test_random_layout_moves_whole_tiles_and_never_the_guild_or_oases() -> None:
    standard = table(4, seed=5)
    moved = table(4, seed=5, random_layout=True)
    assert sorted(letters(moved.items[t]) for t in board.RESOURCE_TILES) == sorted(
        CONTENT.tile(board.name(t)).items(4) for t in board.RESOURCE_TILES
    )
    assert any(
        letters(moved.items[t]) != CONTENT.tile(board.name(t)).items(4)
        for t in board.RESOURCE_TILES
    )
    for tile in board.COMMON_TILES:
        assert moved.items[tile] == () and moved.sides[tile] == standard.sides[tile]


def test_c6_a_tile_flips_when_its_last_item_is_taken() -> None:
    t = table(2)
    tile = board.parse_tile("B1")  # A Y with 2 players
    first, second = t.items[tile]
    t = t.take(tile, first)
    assert t.sides[tile] == FACE_UP and t.face_up() == 20
    t = t.take(tile, second)
    assert t.sides[tile] == DESERT and t.items[tile] == () and t.face_up() == 19
    assert board.parse_tile("B1") not in t.snapshot().face_up


def test_the_guild_holds_spent_pawns_and_attacked_cubes_and_never_flips() -> None:
    t = replace(table(2), guild_pawns=2, guild_cubes=1)
    t = t.take(board.GUILD, "R").take(board.GUILD, "A")
    assert (t.guild_pawns, t.guild_cubes) == (1, 0) and t.sides[board.GUILD] == "g"
