"""Sahwari content (spec §2-§4, §11, §14, §15, Appendix B): the data file, its loader and checks.

Expected values are typed by hand from the spec's tables; nothing here reads the spec.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import replace
from importlib import resources
from typing import Any

import pytest

from games.sahwari.content import (
    CONTENT,
    Card,
    Content,
    Edge,
    Formula,
    Leader,
    MapTile,
    SetupFigures,
    Token,
    influence,
    load,
    parse,
    read_drawing,
    setup_figures,
    validate,
)

TEXT = resources.files("games.sahwari").joinpath("content.toml").read_text("utf-8")

# --------------------------------------------------------------------------- (a) everything loaded


def test_every_id_is_loaded() -> None:
    assert [t.coord for t in CONTENT.tiles] == [f"{c}{r}" for r in "12345" for c in "ABCDE"]
    assert [c.id for c in CONTENT.cards] == [f"C{i:02}" for i in range(1, 37)]
    assert [t.id for t in CONTENT.tokens] == [f"Y{i:02}" for i in range(1, 21)] + [
        f"B{i:02}" for i in range(1, 15)
    ]
    assert [t.colour for t in CONTENT.tokens] == ["yellow"] * 20 + ["blue"] * 14
    assert [leader.id for leader in CONTENT.leaders] == [
        "merchant",
        "diplomat",
        "brigand",
        "spy",
        "trafficker",
        "explorer",
    ]


# §15.3 rows: id, left colour/ability/value, right colour/ability/value, clan, printed influence.
# All 10 clan cards plus six others spread over C01-C36.
CARD_ROWS = [
    ("C01", "R", "SPY", 1, "R", "BOWL", 1, None, 1),
    ("C02", "R", "CHEST", 0, "R", "SPY", 1, "MERCHANT", 0),
    ("C05", "G", "CARD", 0, "G", "REFRESH", 1, "DIPLOMAT", 0),
    ("C07", "P", "SPY", 2, "P", "TORNADO", 1, None, 2),
    ("C08", "P", "SPY", 1, "P", "BIRD", 1, "SPY", 0),
    ("C10", "O", "CHEST", 0, "O", "ATTACK", 1, None, 0),
    ("C11", "O", "ATTACK", 1, "O", "SPY", 1, "TRAFFICKER", 0),
    ("C14", "R", "BOWL", 0, "G", "SPY", 1, "BRIGAND", 0),
    ("C18", "R", "CHEST", 0, "O", "BOWL", 0, "BRIGAND", 0),
    ("C20", "G", "SPY", 1, "R", "REFRESH", 2, None, 1),
    ("C22", "G", "SPY", 1, "P", "CHEST", 0, "MERCHANT", 0),
    ("C26", "P", "CARD", 0, "R", "BIRD", 0, "DIPLOMAT", 0),
    ("C29", "P", "ATTACK", 1, "O", "CARD", 0, None, 0),
    ("C30", "P", "SPY", 2, "O", "SPY", 1, "SPY", 0),
    ("C34", "O", "ATTACK", 1, "G", "BIRD", 0, "TRAFFICKER", 0),
    ("C36", "O", "BIRD", 1, "P", "ATTACK", 0, None, 1),
]


@pytest.mark.parametrize("row", CARD_ROWS, ids=[r[0] for r in CARD_ROWS])
def test_card_rows(row: tuple[str, str, str, int, str, str, int, str | None, int]) -> None:
    cid, lc, la, lv, rc, ra, rv, clan, printed = row
    assert CONTENT.card(cid) == Card(cid, Edge(lc, la, lv), Edge(rc, ra, rv), clan, printed)


def test_the_ten_clan_cards() -> None:
    clan = {c.id: c.clan for c in CONTENT.cards if c.clan}
    assert clan == {
        "C02": "MERCHANT",
        "C22": "MERCHANT",
        "C05": "DIPLOMAT",
        "C26": "DIPLOMAT",
        "C14": "BRIGAND",
        "C18": "BRIGAND",
        "C08": "SPY",
        "C30": "SPY",
        "C11": "TRAFFICKER",
        "C34": "TRAFFICKER",
    }


# §15.4 full list: id, icons, influence at end (9 yellow, all 14 blue).
TOKEN_ROWS = [
    ("Y01", ("INF+3",), 3),
    ("Y04", ("INF+2", "SPY"), 2),
    ("Y08", ("INF+1", "CHEST"), 1),
    ("Y10", ("INF+1", "CARD"), 1),
    ("Y12", ("INF+2", "REFRESH"), 2),
    ("Y14", ("INF+2", "TORNADO"), 2),
    ("Y16", ("INF+1", "BOWL"), 1),
    ("Y17", ("INF+1", "ATTACK"), 1),
    ("Y20", ("INF+1", "BIRD"), 1),
    ("B01", ("INF+6",), 6),
    ("B02", ("INF+5", "SPY"), 5),
    ("B03", ("INF+4", "CHEST"), 4),
    ("B04", ("INF+3", "ATTACK"), 3),
    ("B05", ("CHEST", "BOWL"), 0),
    ("B06", ("CARD", "CHEST"), 0),
    ("B07", ("BIRD", "SPY"), 0),
    ("B08", ("INF+3", "BIRD"), 3),
    ("B09", ("INF-3",), -3),
    ("B10", ("INF-4",), -4),
    ("B11", ("INF-2", "CARD"), -2),
    ("B12", ("INF-2", "ATTACK"), -2),
    ("B13", ("INF-5",), -5),
    ("B14", ("INF-3", "CHEST"), -3),
]


@pytest.mark.parametrize("row", TOKEN_ROWS, ids=[r[0] for r in TOKEN_ROWS])
def test_token_rows(row: tuple[str, tuple[str, ...], int]) -> None:
    tid, icons, value = row
    colour = "yellow" if tid[0] == "Y" else "blue"
    assert CONTENT.token(tid) == Token(tid, colour, icons, value)


def test_token_effects_leave_out_influence() -> None:
    assert CONTENT.token("Y01").effects == ()
    assert CONTENT.token("B11").effects == ("CARD",)
    assert CONTENT.token("B05").effects == ("CHEST", "BOWL")
    assert (influence("INF+6"), influence("INF-2"), influence("SPY")) == (6, -2, None)


# §3.2 / §15.1, drawn like the map: base, +3p and +4p per tile ("." = common tile).
BASE = """
    AAB AY  ARY RY  RRB
    RY  .   ARB .   AY
    ARY ARB .   ARB ARY
    AY  .   ARB .   RY
    RRB RY  ARY AY  AAB
"""
PLUS3 = """
    Y   R   A   -   Y
    -   .   -   .   R
    A   -   .   -   A
    R   .   -   .   -
    Y   -   A   R   Y
"""
PLUS4 = """
    R   -   B   A   A
    A   .   Y   .   -
    B   R   .   R   B
    -   .   Y   .   A
    A   A   B   -   R
"""


def _grid(text: str) -> list[str]:
    return ["" if w in ".-" else w for w in text.split()]


def test_every_tile_content() -> None:
    for tile, base, plus3, plus4 in zip(
        CONTENT.tiles, _grid(BASE), _grid(PLUS3), _grid(PLUS4), strict=True
    ):
        assert (tile.base, tile.plus3, tile.plus4) == (base, plus3, plus4), tile.coord
    kinds = {t.coord: t.kind for t in CONTENT.tiles if t.kind != "resource"}
    assert kinds == {"C3": "guild", "B2": "oasis", "D2": "oasis", "B4": "oasis", "D4": "oasis"}
    assert CONTENT.tile("A1").totals == (3, 4, 5)
    assert CONTENT.tile("C2").totals == (3, 3, 4)


def test_starting_items_per_player_count() -> None:
    assert [CONTENT.starting_items("A1", n) for n in (2, 3, 4)] == ["AAB", "AABY", "AABYR"]
    assert [CONTENT.starting_items("D1", n) for n in (2, 3, 4)] == ["RY", "RY", "RYA"]
    assert CONTENT.starting_items("C3", 4) == ""
    with pytest.raises(ValueError):
        CONTENT.tile("A1").items(5)
    with pytest.raises(KeyError):
        CONTENT.tile("F1")


def test_camels_start() -> None:
    assert dict(CONTENT.camels) == {
        "G1": "C3",
        "G2": "C3",
        "P1": "B2",
        "P2": "D4",
        "P3": "D2",
        "P4": "B4",
    }


def test_leaders_and_formulas() -> None:
    assert CONTENT.leaders == (
        Leader("merchant", "PAIRS", "MERCHANT"),
        Leader("diplomat", "PAIRS", "DIPLOMAT"),
        Leader("brigand", "PAIRS", "BRIGAND"),
        Leader("spy", "PAIRS", "SPY"),
        Leader("trafficker", "PAIRS", "TRAFFICKER"),
        Leader("explorer", "EXPLORER", None),
    )
    assert dict(CONTENT.formulas) == {
        "MERCHANT": Formula("half", ("cubes",)),
        "DIPLOMAT": Formula("half", ("cards",)),
        "BRIGAND": Formula("min", ("cubes", "convoys")),
        "SPY": Formula("half", ("spy",)),
        "TRAFFICKER": Formula("min", ("attack", "cubes")),
    }


def test_clan_sheet_tracks_and_supplies() -> None:
    sheet = CONTENT.clan_sheet
    assert (sheet.left.colours, sheet.left.ability, sheet.left.value) == (("R", "G"), "SPY", 1)
    assert (sheet.right.colours, sheet.right.ability, sheet.right.value) == (("P", "O"), "BOWL", 1)
    assert (sheet.lock_tokens, sheet.start_storage) == (2, 1)
    values = (0, 1, 2, 3, 4, 6, 8, 10, 13)
    assert CONTENT.storage.values == values
    assert CONTENT.recruitment.values == values
    abilities = [CONTENT.storage.ability(space) for space in range(1, 9)]
    assert abilities == [None, "SPY", "TORNADO", "CARD", "BIRD", "ATTACK", "BOWL", "CHEST"]
    assert CONTENT.recruitment.abilities == (
        ("SPY", 1),
        ("REFRESH", 1),
        ("CHEST", 2),
        ("TORNADO", 2),
        ("ATTACK", 2),
        ("BIRD", 3),
    )
    assert CONTENT.recruitment.cost("BIRD") == 3
    s = CONTENT.supplies
    assert (s.cubes, s.pawns, s.yellow_tokens, s.blue_tokens) == (40, 30, 20, 14)
    assert (s.attack_tokens, s.lock_tokens, s.recruit_cards, s.recruitment_row) == (16, 8, 36, 4)


def test_content_is_immutable() -> None:
    def walk(value: object) -> None:
        assert not isinstance(value, list | dict | set), value
        if dataclasses.is_dataclass(value) and not isinstance(value, type):
            fields = dataclasses.fields(value)
            with pytest.raises(dataclasses.FrozenInstanceError):
                setattr(value, fields[0].name, None)
            for f in fields:
                walk(getattr(value, f.name))
        elif isinstance(value, tuple):
            for item in value:
                walk(item)

    walk(CONTENT)
    hash(CONTENT)


# --------------------------------------------------------------------------- (b) the checks pass


def test_the_content_passes_every_check() -> None:
    assert validate(CONTENT) == []


def test_the_drawing_reads_back_as_the_table() -> None:
    tiles, camels = read_drawing(CONTENT.drawing)
    assert tiles["A1"] == ("resource", "AAB", "Y", "R")
    assert tiles["C3"] == ("guild", "", "", "")
    assert tiles["B2"] == ("oasis", "", "", "")
    assert camels == dict(CONTENT.camels)


# --------------------------------------------------------------------------- (c) broken copies


def _tile(coord: str, **changes: Any) -> Callable[[Content], Content]:
    return lambda c: replace(
        c, tiles=tuple(replace(t, **changes) if t.coord == coord else t for t in c.tiles)
    )


def _card(cid: str, **changes: Any) -> Callable[[Content], Content]:
    return lambda c: replace(
        c, cards=tuple(replace(x, **changes) if x.id == cid else x for x in c.cards)
    )


def _edge(cid: str, side: str, **changes: Any) -> Callable[[Content], Content]:
    return lambda c: _card(cid, **{side: replace(getattr(c.card(cid), side), **changes)})(c)


def _token(tid: str, **changes: Any) -> Callable[[Content], Content]:
    return lambda c: replace(
        c, tokens=tuple(replace(t, **changes) if t.id == tid else t for t in c.tokens)
    )


def _sub(name: str, **changes: Any) -> Callable[[Content], Content]:
    """Change fields of one of the content's parts (supplies, clan_sheet, storage, ...)."""
    return lambda c: replace(c, **{name: replace(getattr(c, name), **changes)})


def _setup(players: int, **changes: Any) -> Callable[[Content], Content]:
    return lambda c: replace(
        c, setups=tuple(replace(s, **changes) if s.players == players else s for s in c.setups)
    )


def _without_refresh(c: Content) -> Content:
    """REFRESH replaced by SPY on every card edge and token, and dropped from the track."""

    def edge(e: Edge) -> Edge:
        return replace(e, ability="SPY") if e.ability == "REFRESH" else e

    cards = tuple(replace(x, left=edge(x.left), right=edge(x.right)) for x in c.cards)
    tokens = tuple(
        replace(t, icons=tuple("SPY" if i == "REFRESH" else i for i in t.icons)) for t in c.tokens
    )
    track = tuple(a for a in c.recruitment.abilities if a[0] != "REFRESH")
    return replace(
        c, cards=cards, tokens=tokens, recruitment=replace(c.recruitment, abilities=track)
    )


def _blue_all_positive(c: Content) -> Content:
    tokens = tuple(
        replace(t, icons=("INF+2",), influence=2) if t.influence < 0 else t for t in c.tokens
    )
    return replace(c, tokens=tokens)


BROKEN: list[tuple[str, Callable[[Content], Content], str]] = [
    # tiles (§3.1, §15.1)
    (
        "tile missing",
        lambda c: replace(c, tiles=c.tiles[:-1]),
        "tiles: expected A1..E5 in order, missing ['E5'], extra []",
    ),
    ("tile kind", _tile("B2", kind="resource"), "tile B2: kind 'resource', §3.1 makes it 'oasis'"),
    ("oasis with items", _tile("D4", base="A"), "tile D4: oasis tiles hold no resources"),
    ("guild with items", _tile("C3", plus4="R"), "tile C3: guild tiles hold no resources"),
    ("unknown item", _tile("A1", base="AAX"), "tile A1: unknown item letters in 'AAXYR'"),
    ("empty resource tile", _tile("B1", base=""), "tile B1: a resource tile has a base content"),
    ("tile totals", _tile("A1", totals=(3, 4, 6)), "tile A1: printed totals 2p/3p/4p (3, 4, 6)"),
    ("tile vs drawing", _tile("E5", plus3="A"), "map drawing: tile E5 shows"),
    ("drawing unreadable", lambda c: replace(c, drawing="A1 AAB"), "map drawing: cannot read"),
    (
        "drawing vs table",
        lambda c: replace(c, drawing=c.drawing.replace("| RRB      |\n", "| RRA      |\n", 1)),
        "map drawing: tile E1 shows ('resource', 'RRA', 'Y', 'A')",
    ),
    (
        "guild camel",
        lambda c: replace(c, camels=(("G1", "A1"), *c.camels[1:])),
        "guild camels start on the Guild",
    ),
    (
        "player camel",
        lambda c: replace(c, camels=tuple((n, "C2" if n == "P3" else at) for n, at in c.camels)),
        "player camels start one per oasis",
    ),
    # supplies and per-count figures (§4, §15.6)
    ("map total", _setup(2, map_total=51), "setup 2p: map_total stated 51, the content gives 52"),
    ("map items", _setup(4, map_items=(26, 24, 18, 11)), "setup 4p: map_items stated"),
    (
        "cubes left",
        _setup(3, cubes_left=18),
        "setup 3p: cubes_left stated 18, the content gives 17",
    ),
    ("pawns left", _setup(4, pawns_left=5), "setup 4p: pawns_left stated 5, the content gives 6"),
    ("unused", _setup(2, unused_tokens=(8, 5)), "setup 2p: unused_tokens stated (8, 5)"),
    ("setup count", lambda c: replace(c, setups=c.setups[:2]), "expected figures for 2, 3 and 4"),
    ("cube supply", _sub("supplies", cubes=37), "setup 4p: only 7 cubes left in the supply"),
    ("pawn supply", _sub("supplies", pawns=20), "setup 4p: the map needs 4 more pawns"),
    ("blue supply", _sub("supplies", blue_tokens=10), "setup 4p: the map needs 2 more blue tokens"),
    ("token count", _sub("supplies", yellow_tokens=21), "yellow tokens: 20 rows, 21 in the box"),
    # cards (§15.3)
    (
        "card missing",
        lambda c: replace(c, cards=c.cards[:-1]),
        "cards: expected C01..C36 in order, missing ['C36']",
    ),
    (
        "card order",
        lambda c: replace(c, cards=(c.cards[1], c.cards[0], *c.cards[2:])),
        "cards: expected C01..C36 in order, missing [], extra []",
    ),
    ("card count", _sub("supplies", recruit_cards=35), "cards: 36 rows, 35 in the box (§2)"),
    ("card colour", _edge("C01", "right", colour="X"), "card C01: bad right edge"),
    ("card icon", _edge("C01", "left", ability="FLY"), "card C01: bad left edge"),
    ("card value", _edge("C01", "left", value=3), "card C01: bad left edge"),
    ("colour pairs", _edge("C01", "right", colour="G"), "cards: colour pair R-R on 2 cards"),
    ("edges per colour", _edge("C01", "right", colour="G"), "cards: G on 10 right edges"),
    ("edge abilities", _edge("C01", "left", ability="BIRD"), "cards: SPY on 15 edges"),
    ("clan category", _card("C01", clan="PIRATE"), "card C01: bad clan ability PIRATE"),
    ("clan cards", _card("C22", clan=None), "cards: MERCHANT clan cards ('C02',)"),
    ("clan influence", _card("C02", influence=1), "card C02: a clan card has printed influence 0"),
    ("printed influence", _card("C01", influence=2), "cards: printed influence"),
    # tokens (§15.4)
    (
        "token missing",
        lambda c: replace(c, tokens=c.tokens[:-1]),
        "blue tokens: expected B01..B14 in order, missing ['B14']",
    ),
    ("token colour", _token("Y01", colour="red"), "tokens: colour is yellow or blue"),
    ("token no icon", _token("B01", icons=(), influence=0), "token B01: 1-2 icons"),
    ("token 3 icons", _token("Y04", icons=("INF+2", "SPY", "SPY")), "token Y04: 1-2 icons"),
    ("token icon", _token("Y20", icons=("INF+1", "FLY")), "token Y20: 1-2 icons of the §14"),
    ("token influence", _token("Y01", influence=2), "token Y01: influence at end +2"),
    ("yellow negative", _token("Y01", icons=("INF-3",), influence=-3), "never negative"),
    ("blue signs", _blue_all_positive, "blue tokens are both positive and negative"),
    ("yellow total", _sub("token_stats", yellow_influence=33), "yellow influence 34, §15.4"),
    ("blue total", _sub("token_stats", blue_influence=3), "blue influence 2, §15.4 states 3"),
    ("blue negative", _sub("token_stats", blue_negative=5), "negative blue tokens 6"),
    ("INF+ range", _sub("token_stats", inf_plus=(1, 5)), "INF+n on tokens for n = 1..6"),
    ("INF- range", _token("B10", icons=("INF-7",), influence=-7), "INF-n on tokens for n = 2..7"),
    # effect kinds (§14)
    ("kind unused", _without_refresh, "the resolvable kind REFRESH is used nowhere"),
    (
        "§14.4 list",
        lambda c: replace(
            c, sources=tuple((k, ("SPY",) if k == "clan_sheet" else v) for k, v in c.sources)
        ),
        "kinds: clan_sheet carries ['BOWL', 'SPY'], §14.4 states ['SPY']",
    ),
    (
        "§14.4 blue signs",
        lambda c: replace(
            c,
            sources=tuple(
                (k, ("INF+n", *v[1:]) if k == "blue_tokens" else v) for k, v in c.sources
            ),
        ),
        "kinds: blue_tokens carries",
    ),
    ("§14.4 sources", lambda c: replace(c, sources=c.sources[1:]), "kinds: §14.4 sources are"),
    # leaders (§15.5)
    (
        "leader missing",
        lambda c: replace(c, leaders=c.leaders[:-1]),
        "leaders: expected merchant..explorer in order, missing ['explorer']",
    ),
    (
        "leader kind",
        lambda c: replace(c, leaders=(Leader("merchant", "SUM", "MERCHANT"), *c.leaders[1:])),
        "leader merchant: PAIRS(category) or EXPLORER",
    ),
    (
        "leader category",
        lambda c: replace(c, leaders=(Leader("merchant", "PAIRS", "SPY"), *c.leaders[1:])),
        "leaders: one leader per PAIRS category",
    ),
    (
        "formula",
        lambda c: replace(c, formulas=(("MERCHANT", Formula("half", ("gold",))), *c.formulas[1:])),
        "formula MERCHANT: 'half x' or 'min x y'",
    ),
    ("formulas", lambda c: replace(c, formulas=c.formulas[1:]), "formulas: one per PAIRS category"),
    # clan sheet and tracks (§11, §15.2)
    (
        "opening colours",
        lambda c: _sub("clan_sheet", left=replace(c.clan_sheet.left, colours=("R",)))(c),
        "every card colour connects to one opening",
    ),
    (
        "opening ability",
        lambda c: _sub("clan_sheet", right=replace(c.clan_sheet.right, ability="FLY"))(c),
        "clan sheet: bad right half-slot FLY 1",
    ),
    ("lock tokens", _sub("clan_sheet", lock_tokens=3), "clan sheet: 3 locks each, 8 in the box"),
    (
        "storage decreasing",
        _sub("storage", values=(0, 1, 2, 3, 4, 6, 5, 10, 13)),
        "storage track: 9 values that never decrease",
    ),
    (
        "recruitment length",
        _sub("recruitment", values=(0, 1, 2, 3, 4, 6, 8, 10)),
        "recruitment track: 9 values that never decrease",
    ),
    (
        "storage space 1",
        lambda c: _sub("storage", abilities=((1, "SPY"), *c.storage.abilities[1:]))(c),
        "storage track: abilities sit on spaces 2-8",
    ),
    (
        "storage kind",
        lambda c: _sub("storage", abilities=((2, "FLY"), *c.storage.abilities[1:]))(c),
        "storage track: abilities are §14.1 kinds",
    ),
    (
        "track kind",
        lambda c: _sub("recruitment", abilities=(("FLY", 1), *c.recruitment.abilities[1:]))(c),
        "recruitment track: abilities are distinct §14.1 kinds",
    ),
    (
        "track cost",
        lambda c: _sub("recruitment", abilities=(("SPY", 9), *c.recruitment.abilities[1:]))(c),
        "recruitment track: SPY costs 9 pawns, costs are 1-8",
    ),
]


@pytest.mark.parametrize(
    ("break_it", "message"), [b[1:] for b in BROKEN], ids=[b[0] for b in BROKEN]
)
def test_a_broken_copy_is_reported(break_it: Callable[[Content], Content], message: str) -> None:
    problems = validate(break_it(CONTENT))
    assert any(message in p for p in problems), problems


def test_a_broken_file_does_not_load() -> None:
    broken = TEXT.replace('["C01", "R", "SPY",', '["C01", "X", "FLY",', 1)
    assert broken != TEXT
    with pytest.raises(ValueError, match="(?s)fails its checks.*card C01: bad left edge"):
        load(broken)
    with pytest.raises(ValueError, match="card 'C02': expected a number"):
        parse(TEXT.replace('"CHEST",   0,', '"CHEST",   "0",', 1))
    with pytest.raises(ValueError, match="cannot read"):
        parse(TEXT.replace("[supplies]", "[stock]"))
    assert load(TEXT) == CONTENT


# ------------------------------------------------------------------------- (d) supplies, totals


@pytest.mark.parametrize(
    ("players", "figures"),
    [
        (2, SetupFigures(2, (16, 16, 12, 8), 52, 22, 14, (8, 6))),
        (3, SetupFigures(3, (20, 20, 16, 8), 64, 17, 10, (4, 6))),
        (4, SetupFigures(4, (26, 24, 18, 12), 80, 10, 6, (2, 2))),
    ],
)
def test_setup_figures_per_player_count(players: int, figures: SetupFigures) -> None:
    assert setup_figures(CONTENT, players) == figures
    items = "".join(CONTENT.starting_items(t.coord, players) for t in CONTENT.tiles)
    assert len(items) == figures.map_total
    assert 40 - items.count("A") - players == figures.cubes_left >= 8


# --------------------------------------------------------------------------- (e) worked examples


def test_section_12_1_example_content() -> None:
    card, token, sheet = CONTENT.card, CONTENT.token, CONTENT.clan_sheet
    # clan row L2 C20 | L1 C02 | clan sheet | R1 C09 | R2 C07 | R3 C29, all matching (K5)
    assert card("C20").right.colour == card("C02").left.colour == "R"
    assert card("C02").right.colour in sheet.left.colours
    assert card("C09").left.colour in sheet.right.colours
    assert card("C09").right.colour == card("C07").left.colour == "P"
    assert card("C07").right.colour == card("C29").left.colour == "P"
    slots = {
        "L2": (card("C20").right, card("C02").left),
        "L1": (card("C02").right, Edge("R", sheet.left.ability, sheet.left.value)),
        "R1": (Edge("P", sheet.right.ability, sheet.right.value), card("C09").left),
        "R2": (card("C09").right, card("C07").left),
        "R3": (card("C07").right, card("C29").left),
    }
    icons = {j: ((a.ability, a.value), (b.ability, b.value)) for j, (a, b) in slots.items()}
    assert icons == {
        "L2": (("REFRESH", 2), ("CHEST", 0)),
        "L1": (("SPY", 1), ("SPY", 1)),
        "R1": (("BOWL", 1), ("BOWL", 1)),
        "R2": (("CHEST", 0), ("SPY", 2)),
        "R3": (("TORNADO", 1), ("ATTACK", 1)),
    }
    assert all(a.value + b.value == 2 for a, b in slots.values())
    assert token("Y01").icons == ("INF+3",)
    assert token("Y05").icons == ("INF+2", "SPY")
    assert token("B03").icons == ("INF+4", "CHEST")
    assert token("B09").icons == ("INF-3",)
    convoys = sum(token(t).influence for t in ("Y01", "Y05", "B03", "B09"))
    printed = sum(card(c).influence for c in ("C20", "C02", "C09", "C07", "C29"))
    filled = sum(a.value + b.value for j, (a, b) in slots.items() if j != "R2")
    assert (convoys, printed, filled) == (6, 3, 8)
    assert (CONTENT.storage.values[3], CONTENT.recruitment.values[2]) == (3, 2)
    assert card("C02").clan == CONTENT.leader("merchant").category == "MERCHANT"
    assert CONTENT.formula("MERCHANT") == Formula("half", ("cubes",))
    cubes = 3 + 4  # storage + filled slots
    assert convoys + printed + 3 + 2 + filled + cubes // 2 + cubes // 2 == 28


def test_other_examples_use_real_content() -> None:
    # K7: C10 is O-O, left CHEST/0, right ATTACK/1
    assert CONTENT.card("C10") == Card(
        "C10", Edge("O", "CHEST", 0), Edge("O", "ATTACK", 1), None, 0
    )
    # §17.4 and §17.5: Y14 = INF+2 + TORNADO, B04 = INF+3 + ATTACK, B07 = BIRD + SPY
    assert CONTENT.token("Y14").icons == ("INF+2", "TORNADO")
    assert CONTENT.token("B04").icons == ("INF+3", "ATTACK")
    assert CONTENT.token("B07").icons == ("BIRD", "SPY")
    # §17.4: a cube on B1, a pawn on E4, a yellow token on A3
    assert "A" in CONTENT.tile("B1").base
    assert "R" in CONTENT.tile("E4").base
    assert "Y" in CONTENT.tile("A3").base


def test_tile_type_is_the_content_tile() -> None:
    assert isinstance(CONTENT.tile("A1"), MapTile)
