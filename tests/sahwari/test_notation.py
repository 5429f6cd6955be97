"""Sahwari notation (spec §17.1-§17.4): parse_text, format_move, french, and the catalogue.

Syntax only: no game state. Test names cite ids as the spec asks (D41: `tile C3`, `slot R1`).
"""

from __future__ import annotations

import json
import re
import typing
from pathlib import Path
from typing import Any, cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import catalogue
from games.contract import InvalidMove
from games.sahwari.board import COMMON_TILES, DIRECTIONS, GUILD_CAMELS, PLAYER_CAMELS, parse_tile
from games.sahwari.moves import (
    Attack,
    Bird,
    Bowl,
    Chest,
    ChooseLeader,
    End,
    GuildMove,
    Keep,
    Move,
    MoveCamel,
    Next,
    PlaceCube,
    Recruit,
    Refresh,
    Relocate,
    Skip,
    Spy,
    Stay,
    Take,
    Tornado,
    UseAttack,
    UseConvoy,
    UseNow,
    UseSlot,
    UseStorage,
    UseTrack,
)
from games.sahwari.notation import (
    ARG_WORDS,
    ENGLISH_WORDS,
    KEYWORDS,
    KINDS,
    LEADERS,
    STEP_WORDS,
    TRACK_ABILITIES,
    format_move,
    french,
    parse_text,
)
from games.text import Term

PACKAGE = Path(__file__).resolve().parents[2] / "games" / "sahwari"


def t(name: str) -> int:
    return parse_tile(name)


def parses(text: str, *moves: Move) -> None:
    assert parse_text(text) == moves


# --------------------------------------------------------------------------- §17.4 examples

EXAMPLES: list[tuple[str, tuple[Move, ...]]] = [
    (  # simple turn
        "move E; take recruit; recruit 3 right; guild G1 N; guild G2 W; end",
        (
            MoveCamel("E"),
            Take("recruit"),
            Recruit(3, "right"),
            GuildMove("G1", "N"),
            GuildMove("G2", "W"),
            End(),
        ),
    ),
    (  # multi-step turn with nested effects (the command spans two lines)
        "move N; take artefact; place R1; chest; place storage; bowl V4; keep;\n"
        "                     use track SPY; spy V6; guild G1 E; guild G1 S; end",
        (
            MoveCamel("N"),
            Take("artefact"),
            PlaceCube("R1"),
            Chest(),
            PlaceCube("storage"),
            Bowl("V4"),
            Keep(),
            UseTrack("SPY"),
            Spy("V6"),
            GuildMove("G1", "E"),
            GuildMove("G1", "S"),
            End(),
        ),
    ),
    (  # camel cannot move (rule R8)
        "relocate D2; guild G2 S; guild G2 E; end",
        (Relocate(t("D2")), GuildMove("G2", "S"), GuildMove("G2", "E"), End()),
    ),
    (  # Explorer (rule R12)
        "move W; move N; take convoy Y14; use now; tornado G2 E5; guild G1 W; guild G2 N; end",
        (
            MoveCamel("W"),
            MoveCamel("N"),
            Take("Y14"),
            UseNow(),
            Tornado("G2", t("E5")),
            GuildMove("G1", "W"),
            GuildMove("G2", "N"),
            End(),
        ),
    ),
    (  # attack from a guild camel
        "use attack G1 camel P3 B4",
        (UseAttack(Attack("G1", "camel", "P3", None, t("B4"))),),
    ),
    (  # ... when P3's storage is empty: slot R2 is padlocked
        "use attack G1 camel P3 R2 B4",
        (UseAttack(Attack("G1", "camel", "P3", "R2", t("B4"))),),
    ),
    ("take convoy V2; use now", (Take("V2"), UseNow())),  # convoy attack
    ("attack me convoy V9", (Attack("me", "convoy", "V9"),)),
    ("skip TORNADO", (Skip("TORNADO"),)),  # skipping
    ("next", (Next(),)),
    ("place storage", (PlaceCube("storage"),)),  # §17.1 (D46)
]


@pytest.mark.parametrize(("text", "moves"), EXAMPLES)
def test_every_example_of_17_4_parses_to_its_steps(text: str, moves: tuple[Move, ...]) -> None:
    assert parse_text(text) == moves
    # The canonical notation of each step writes the example back.
    written = "; ".join(format_move(m) for m in moves)
    assert written == "; ".join(part.strip() for part in text.split(";"))
    assert parse_text("; ".join(french(m) for m in moves)) == moves


# --------------------------------------------------------------------------- §17.2 grammar


@pytest.mark.parametrize(
    ("text", "move"),
    [
        # leader LEADER
        *((f"leader {leader}", ChooseLeader(leader)) for leader in LEADERS),
        ("LEADER Explorer", ChooseLeader("explorer")),
        # move DIR [COORD], every direction word
        ("move N", MoveCamel("N")),
        ("move north", MoveCamel("N")),
        ("move E", MoveCamel("E")),
        ("move east D3", MoveCamel("E", t("D3"))),
        ("move S", MoveCamel("S")),
        ("move South e5", MoveCamel("S", t("E5"))),
        ("move W", MoveCamel("W")),
        ("move west a3", MoveCamel("W", t("A3"))),
        ("move N guild", MoveCamel("N", t("C3"))),  # `guild` is tile C3 wherever a tile goes
        # stay, relocate COMMON
        ("stay", Stay()),
        *((f"relocate {name}", Relocate(t(name))) for name in ("C3", "B2", "D2", "B4", "D4")),
        ("relocate guild", Relocate(t("C3"))),
        ("relocate b4", Relocate(t("B4"))),
        # take artefact | recruit | convoy HANDLE, with the ITEM aliases
        ("take artefact", Take("artefact")),
        ("take cube", Take("artefact")),
        ("take recruit", Take("recruit")),
        ("take pawn", Take("recruit")),
        ("take convoy Y14", Take("Y14")),
        ("take convoy y1", Take("Y01")),
        ("take convoy V03", Take("V3")),
        ("take convoy v14", Take("V14")),
        ("take V3", Take("V3")),
        ("take y20", Take("Y20")),
        # place storage | JUNCTION
        ("place storage", PlaceCube("storage")),
        ("place R1", PlaceCube("R1")),
        ("place l2", PlaceCube("L2")),
        ("place R01", PlaceCube("R1")),
        ("place L36", PlaceCube("L36")),
        # use now | keep
        ("use now", UseNow()),
        ("keep", Keep()),
        # recruit POS SIDE, with l / r
        ("recruit 3 right", Recruit(3, "right")),
        ("recruit 1 left", Recruit(1, "left")),
        ("recruit 2 l", Recruit(2, "left")),
        ("recruit 4 R", Recruit(4, "right")),
        # window_use
        ("use convoy V4", UseConvoy("V4")),
        ("use convoy Y7", UseConvoy("Y07")),
        ("use attack me guild G2 guild", UseAttack(Attack("me", "guild", "G2", None, t("C3")))),
        ("use attack G2 camel P1 D4", UseAttack(Attack("G2", "camel", "P1", None, t("D4")))),
        ("use attack g1 convoy y3", UseAttack(Attack("G1", "convoy", "Y03"))),
        *((f"use storage {n}", UseStorage(n)) for n in range(2, 9)),
        *((f"use track {a}", UseTrack(a)) for a in TRACK_ABILITIES),
        ("use track refresh", UseTrack("REFRESH")),
        ("use slot L3", UseSlot("L3")),
        ("use slot r12", UseSlot("R12")),
        # effects
        ("spy V6", Spy("V6")),
        ("chest", Chest()),
        ("refresh", Refresh()),
        ("bird G1 B1 artefact", Bird("G1", t("B1"), "artefact")),
        ("bird g2 c2 pawn", Bird("G2", t("C2"), "recruit")),
        ("bird G1 D3 cube", Bird("G1", t("D3"), "artefact")),
        ("bird G1 guild recruit", Bird("G1", t("C3"), "recruit")),
        ("bird G1 D3 V5", Bird("G1", t("D3"), "V5")),
        ("bird G2 A2 y2", Bird("G2", t("A2"), "Y02")),
        ("bowl Y07", Bowl("Y07")),
        ("bowl v4", Bowl("V4")),
        ("tornado G2 E5", Tornado("G2", t("E5"))),
        ("tornado P3 A1", Tornado("P3", t("A1"))),
        ("tornado p4 guild", Tornado("P4", t("C3"))),
        # attack_spec: the three options
        ("attack G1 guild G2 B4", Attack("G1", "guild", "G2", None, t("B4"))),
        ("attack me guild G1 D2", Attack("me", "guild", "G1", None, t("D2"))),
        ("attack me camel P2 B2", Attack("me", "camel", "P2", None, t("B2"))),
        ("attack G2 camel P4 L10 guild", Attack("G2", "camel", "P4", "L10", t("C3"))),
        ("attack me convoy V9", Attack("me", "convoy", "V9")),
        ("attack G2 convoy Y11", Attack("G2", "convoy", "Y11")),
        # skip [KIND]
        ("skip", Skip()),
        *((f"skip {kind}", Skip(kind)) for kind in KINDS),
        ("skip card", Skip("CARD")),
        # guild GCAMEL DIR [COORD], next, end
        ("guild G1 N", GuildMove("G1", "N")),
        ("guild G2 S D5", GuildMove("G2", "S", t("D5"))),
        ("guild g1 west b3", GuildMove("G1", "W", t("B3"))),
        ("next", Next()),
        ("end", End()),
    ],
)
def test_every_production_and_alias(text: str, move: Move) -> None:
    parses(text, move)
    parses(text.upper(), move)
    parses(f"  {text}  ", move)


def test_case_spaces_and_both_separators() -> None:
    expected = (MoveCamel("E", t("D4")), Take("recruit"), Recruit(3, "right"), End())
    parses("move E D4; take recruit; recruit 3 right; end", *expected)
    parses("MOVE   e   d4 ,take Recruit,recruit 3 R;END", *expected)
    parses(";  move E D4 ;; take recruit ,, recruit 3 right ;\tend ;", *expected)
    parses("move\u00a0E D4\n;\ntake recruit; recruit 3 right;\n end", *expected)


def test_aliases_are_words_in_their_place_only() -> None:
    """`pawn`, `cube`, `l`, `north`… are argument words: none starts a step."""
    for text in ("pawn 3 left", "cube", "north", "l", "now", "storage", "convoy V3"):
        with pytest.raises(InvalidMove) as info:
            parse_text(text)
        assert info.value.key == "sahwari.err.syntax"


def test_discord_mentions_name_seats_given_the_seating() -> None:
    seats = {42: "P2", 7: "P1"}
    assert parse_text("tornado <@42> E5", seats=seats) == (Tornado("P2", t("E5")),)
    assert parse_text("attack me camel <@!7> B4", seats=seats) == (
        Attack("me", "camel", "P1", None, t("B4")),
    )
    with pytest.raises(InvalidMove) as info:
        parse_text("tornado <@42> E5")  # without the seating a mention names nobody
    assert info.value.key == "sahwari.err.mention"
    with pytest.raises(InvalidMove) as info:
        parse_text("tornado <@9> E5", seats=seats)
    assert (info.value.key, info.value.params) == ("sahwari.err.mention", {"text": "<@9>"})


# --------------------------------------------------------------------------- French


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("chef marchand", ChooseLeader("merchant")),
        ("chef diplomate", ChooseLeader("diplomat")),
        ("chef brigand", ChooseLeader("brigand")),
        ("chef espion", ChooseLeader("spy")),
        ("chef trafiquant", ChooseLeader("trafficker")),
        ("chef explorateur", ChooseLeader("explorer")),
        ("aller N", MoveCamel("N")),
        ("déplacer nord", MoveCamel("N")),
        ("Deplacer EST d3", MoveCamel("E", t("D3"))),
        ("aller sud", MoveCamel("S")),
        ("aller ouest", MoveCamel("W")),
        ("aller O A3", MoveCamel("W", t("A3"))),
        ("rester", Stay()),
        ("reste", Stay()),
        ("replacer guilde", Relocate(t("C3"))),
        ("replacer B2", Relocate(t("B2"))),
        ("prendre artefact", Take("artefact")),
        ("prends cube", Take("artefact")),
        ("prendre recrue", Take("recruit")),
        ("prendre pion", Take("recruit")),
        ("prendre convoi Y14", Take("Y14")),
        ("poser stockage", PlaceCube("storage")),
        ("pose R1", PlaceCube("R1")),
        ("utiliser maintenant", UseNow()),
        ("utilise maintenant", UseNow()),
        ("garder", Keep()),
        ("garde", Keep()),
        ("recruter 3 droite", Recruit(3, "right")),
        ("recrute 1 gauche", Recruit(1, "left")),
        ("recruter 2 g", Recruit(2, "left")),
        ("recruter 4 d", Recruit(4, "right")),
        ("utiliser convoi V4", UseConvoy("V4")),
        ("utiliser attaque G1 chameau P3 R2 B4", UseAttack(Attack("G1", "camel", "P3", "R2", 16))),
        ("utiliser attaque moi guilde G2 guilde", UseAttack(Attack("me", "guild", "G2", None, 12))),
        ("utiliser stockage 4", UseStorage(4)),
        ("utiliser piste espion", UseTrack("SPY")),
        ("utiliser piste RENOUVELLEMENT", UseTrack("REFRESH")),
        ("utiliser piste coffre", UseTrack("CHEST")),
        ("utiliser piste tornade", UseTrack("TORNADO")),
        ("utiliser piste attaque", UseTrack("ATTACK")),
        ("utiliser piste oiseau", UseTrack("BIRD")),
        ("utiliser emplacement L2", UseSlot("L2")),
        ("espionner V6", Spy("V6")),
        ("espionne v6", Spy("V6")),
        ("coffre", Chest()),
        ("renouveler", Refresh()),
        ("oiseau G1 B1 artefact", Bird("G1", t("B1"), "artefact")),
        ("oiseau G2 guilde recrue", Bird("G2", t("C3"), "recruit")),
        ("bol V4", Bowl("V4")),
        ("tornade G2 E5", Tornado("G2", t("E5"))),
        ("attaquer moi convoi V9", Attack("me", "convoy", "V9")),
        ("attaque G1 guilde G2 B4", Attack("G1", "guild", "G2", None, t("B4"))),
        ("attaquer moi chameau P3 B4", Attack("me", "camel", "P3", None, t("B4"))),
        ("passer", Skip()),
        ("passe", Skip()),
        ("passer TORNADE", Skip("TORNADO")),
        ("passer carte", Skip("CARD")),
        ("passer renouveler", Skip("REFRESH")),
        ("passer bol", Skip("BOWL")),
        ("guilde G1 N", GuildMove("G1", "N")),
        ("guilde G2 ouest B3", GuildMove("G2", "W", t("B3"))),
        ("suivant", Next()),
        ("fin", End()),
        ("terminer", End()),
    ],
)
def test_french_words(text: str, move: Move) -> None:
    parses(text, move)
    parses(text.upper(), move)


def test_accents_are_optional_and_languages_mix() -> None:
    explorer = EXAMPLES[3][1]
    parses(
        "Déplacer OUEST; aller nord; prends convoi y14; Utiliser MAINTENANT; tornade g2 e5;"
        " guilde G1 O; guilde G2 nord; fin",
        *explorer,
    )
    parses("deplacer w, move north, take convoi Y14, use maintenant, tornado G2 E5,"
           " guild G1 ouest, guilde G2 N, end", *explorer)  # fmt: skip
    parses("DÉPLACER É", MoveCamel("E"))  # an accent on an English letter is ignored too


def test_no_french_word_is_an_english_word_of_the_notation() -> None:
    assert not set(STEP_WORDS) & ENGLISH_WORDS
    assert not set(ARG_WORDS) & ENGLISH_WORDS
    assert set(STEP_WORDS.values()) <= set(KEYWORDS)
    assert set(ARG_WORDS.values()) <= ENGLISH_WORDS
    assert len(KEYWORDS) == 20 and set(KEYWORDS) <= ENGLISH_WORDS


@pytest.mark.parametrize(
    ("move", "english", "in_french"),
    [
        (ChooseLeader("trafficker"), "leader trafficker", "chef trafiquant"),
        (MoveCamel("W"), "move W", "aller O"),
        (MoveCamel("E", 13), "move E D3", "aller E D3"),
        (Stay(), "stay", "rester"),
        (Relocate(12), "relocate C3", "replacer C3"),
        (Take("recruit"), "take recruit", "prendre recrue"),
        (Take("Y14"), "take convoy Y14", "prendre convoi Y14"),
        (PlaceCube("storage"), "place storage", "poser stockage"),
        (UseNow(), "use now", "utiliser maintenant"),
        (Keep(), "keep", "garder"),
        (Recruit(3, "right"), "recruit 3 right", "recruter 3 droite"),
        (
            UseAttack(Attack("G1", "camel", "P3", "R2", 16)),
            "use attack G1 camel P3 R2 B4",
            "utiliser attaque G1 chameau P3 R2 B4",
        ),
        (
            Attack("me", "guild", "G2", None, 12),
            "attack me guild G2 C3",
            "attaquer moi guilde G2 C3",
        ),
        (UseStorage(4), "use storage 4", "utiliser stockage 4"),
        (UseTrack("SPY"), "use track SPY", "utiliser piste ESPION"),
        (UseSlot("L1"), "use slot L1", "utiliser emplacement L1"),
        (UseConvoy("V4"), "use convoy V4", "utiliser convoi V4"),
        (Spy("V6"), "spy V6", "espionner V6"),
        (Chest(), "chest", "coffre"),
        (Refresh(), "refresh", "renouveler"),
        (Bird("G1", 1, "artefact"), "bird G1 B1 artefact", "oiseau G1 B1 artefact"),
        (Bowl("Y07"), "bowl Y07", "bol Y07"),
        (Tornado("G2", 24), "tornado G2 E5", "tornade G2 E5"),
        (Skip(), "skip", "passer"),
        (Skip("REFRESH"), "skip REFRESH", "passer RENOUVELLEMENT"),
        (GuildMove("G2", "S", 23), "guild G2 S D5", "guilde G2 S D5"),
        (Next(), "next", "suivant"),
        (End(), "end", "fin"),
    ],
)
def test_canonical_english_and_french(move: Move, english: str, in_french: str) -> None:
    assert format_move(move) == english
    assert french(move) == in_french


def test_format_move_refuses_what_is_not_a_move() -> None:
    with pytest.raises(ValueError):
        format_move(cast(Any, "move N"))


# --------------------------------------------------------------------------- round trips

TILES = st.integers(0, 24)
COMMONS = st.sampled_from(COMMON_TILES)
HANDLES = st.one_of(
    st.integers(1, 20).map(lambda n: f"Y{n:02}"), st.integers(1, 14).map(lambda n: f"V{n}")
)
JUNCTIONS = st.builds(lambda side, n: f"{side}{n}", st.sampled_from("LR"), st.integers(1, 36))
GCAMELS = st.sampled_from(GUILD_CAMELS)
SEATS = st.sampled_from(PLAYER_CAMELS)
ORIGINS = st.sampled_from(("me", *GUILD_CAMELS))
ITEMS = st.sampled_from(("artefact", "recruit")) | HANDLES
DIRS = st.sampled_from(DIRECTIONS)
ATTACKS = st.one_of(
    st.builds(Attack, ORIGINS, st.just("guild"), GCAMELS, st.none(), COMMONS),
    st.builds(Attack, ORIGINS, st.just("camel"), SEATS, st.none() | JUNCTIONS, COMMONS),
    st.builds(Attack, ORIGINS, st.just("convoy"), HANDLES),
)
STEPS: dict[type, st.SearchStrategy[Any]] = {
    ChooseLeader: st.builds(ChooseLeader, st.sampled_from(LEADERS)),
    MoveCamel: st.builds(MoveCamel, DIRS, st.none() | TILES),
    Stay: st.just(Stay()),
    Relocate: st.builds(Relocate, COMMONS),
    Take: st.builds(Take, ITEMS),
    PlaceCube: st.builds(PlaceCube, st.just("storage") | JUNCTIONS),
    UseNow: st.just(UseNow()),
    Keep: st.just(Keep()),
    Recruit: st.builds(Recruit, st.integers(1, 4), st.sampled_from(("left", "right"))),
    Attack: ATTACKS,
    UseConvoy: st.builds(UseConvoy, HANDLES),
    UseAttack: st.builds(UseAttack, ATTACKS),
    UseStorage: st.builds(UseStorage, st.integers(2, 8)),
    UseTrack: st.builds(UseTrack, st.sampled_from(TRACK_ABILITIES)),
    UseSlot: st.builds(UseSlot, JUNCTIONS),
    Spy: st.builds(Spy, HANDLES),
    Chest: st.just(Chest()),
    Refresh: st.just(Refresh()),
    Bird: st.builds(Bird, GCAMELS, TILES, ITEMS),
    Bowl: st.builds(Bowl, HANDLES),
    Tornado: st.builds(Tornado, GCAMELS | SEATS, TILES),
    Skip: st.builds(Skip, st.none() | st.sampled_from(KINDS)),
    GuildMove: st.builds(GuildMove, GCAMELS, DIRS, st.none() | TILES),
    Next: st.just(Next()),
    End: st.just(End()),
}
MOVES: st.SearchStrategy[Move] = st.one_of(*STEPS.values())


def test_the_generated_moves_cover_every_step_kind() -> None:
    assert set(STEPS) == set(typing.get_args(Move))


@settings(max_examples=400, deadline=None)
@given(MOVES)
def test_format_move_and_french_read_back(move: Move) -> None:
    assert parse_text(format_move(move)) == (move,)
    assert parse_text(format_move(move).lower()) == (move,)
    assert parse_text(french(move)) == (move,)
    assert parse_text(french(move).upper()) == (move,)
    # french() writes French words only (ids and the words both languages share aside).
    shared = {"artefact", "brigand", "n", "e", "s"}
    assert not {w.lower() for w in french(move).split()} & (ENGLISH_WORDS - shared)


@settings(max_examples=100, deadline=None)
@given(st.lists(MOVES, min_size=1, max_size=8), st.sampled_from([";", ",", " ; ", " ,\n"]))
def test_chained_steps_read_back_in_order(moves: list[Move], separator: str) -> None:
    assert parse_text(separator.join(format_move(m) for m in moves)) == tuple(moves)
    assert parse_text(separator.join(french(m) for m in moves)) == tuple(moves)


# --------------------------------------------------------------------------- errors


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "sahwari.err.empty"),
        ("   ", "sahwari.err.empty"),
        (" ; , ;", "sahwari.err.empty"),
        ("hello", "sahwari.err.syntax"),
        ("🐪", "sahwari.err.syntax"),
        ("a" * 2000, "sahwari.err.syntax"),
        ("E4", "sahwari.err.syntax"),
        ("P1: take convoy V4", "sahwari.err.syntax"),  # a log line (§17.5) is not a command
        ("move", "sahwari.err.usage"),
        ("move N D4 D5", "sahwari.err.usage"),
        ("stay now", "sahwari.err.usage"),
        ("end turn", "sahwari.err.usage"),
        ("chest 3", "sahwari.err.usage"),
        ("take", "sahwari.err.usage"),
        ("take convoy", "sahwari.err.usage"),
        ("place", "sahwari.err.usage"),
        ("use", "sahwari.err.usage"),
        ("use fly", "sahwari.err.usage"),
        ("use attack", "sahwari.err.usage"),
        ("attack me dance V2", "sahwari.err.usage"),
        ("attack me camel P2", "sahwari.err.usage"),
        ("skip a b", "sahwari.err.usage"),
        ("bird G1 B1", "sahwari.err.usage"),
        ("guild G1", "sahwari.err.usage"),
        ("move X", "sahwari.err.direction"),
        ("move up", "sahwari.err.direction"),
        ("guild G1 nordd", "sahwari.err.direction"),
        ("move N F9", "sahwari.err.tile"),
        ("move N A0", "sahwari.err.tile"),
        ("move N A10", "sahwari.err.tile"),
        ("tornado G1 Z", "sahwari.err.tile"),
        ("relocate A1", "sahwari.err.common"),
        ("relocate Z9", "sahwari.err.common"),
        ("attack me guild G1 A1", "sahwari.err.common"),
        ("take gold", "sahwari.err.item"),
        ("bird G1 B1 camel", "sahwari.err.item"),
        ("take convoy B03", "sahwari.err.handle"),  # a blue token's face, not its handle
        ("take B3", "sahwari.err.handle"),
        ("spy V15", "sahwari.err.handle"),
        ("spy V0", "sahwari.err.handle"),
        ("spy Y21", "sahwari.err.handle"),
        ("spy Y00", "sahwari.err.handle"),
        ("spy V1a", "sahwari.err.handle"),
        ("bowl X3", "sahwari.err.handle"),
        ("use convoy 3", "sahwari.err.handle"),
        ("place L0", "sahwari.err.junction"),
        ("place X1", "sahwari.err.junction"),
        ("place R37", "sahwari.err.junction"),
        ("place artefact", "sahwari.err.junction"),
        ("use slot M2", "sahwari.err.junction"),
        ("attack me camel P2 X9 B4", "sahwari.err.junction"),
        ("recruit 3", "sahwari.err.no_side"),
        ("recruit 5 left", "sahwari.err.position"),
        ("recruit 0 left", "sahwari.err.position"),
        ("recruit ³ left", "sahwari.err.position"),
        ("recruit 3 up", "sahwari.err.side"),
        ("use storage 1", "sahwari.err.space"),
        ("use storage 9", "sahwari.err.space"),
        ("use track CARD", "sahwari.err.track"),
        ("use track BOWL", "sahwari.err.track"),
        ("skip DANCE", "sahwari.err.kind"),
        ("leader king", "sahwari.err.leader"),
        ("guild P1 N", "sahwari.err.guild_camel"),
        ("guild G3 N", "sahwari.err.guild_camel"),
        ("bird P1 B1 artefact", "sahwari.err.guild_camel"),
        ("attack me guild P2 B4", "sahwari.err.guild_camel"),
        ("tornado G3 E5", "sahwari.err.camel"),
        ("tornado X E5", "sahwari.err.camel"),
        ("attack me camel P5 B4", "sahwari.err.seat"),
        ("attack me camel G1 B4", "sahwari.err.seat"),
        ("attack P1 convoy V2", "sahwari.err.origin"),
        ("tornado <@42> E5", "sahwari.err.mention"),
        ("move N; move X; end", "sahwari.err.direction"),  # a chain fails as a whole
    ],
)
def test_bad_input_is_an_invalid_move_with_its_key(text: str, key: str) -> None:
    with pytest.raises(InvalidMove) as info:
        parse_text(text)
    error = info.value
    assert error.key == key
    assert str(error) == catalogue.text("en", key, error.params)
    assert "a" * 100 not in str(error)  # long input is never echoed whole
    text_param = error.params.get("text", "")
    assert isinstance(text_param, str) and len(text_param) <= 60
    for lang in catalogue.LANGUAGES:
        assert "{" not in catalogue.text(lang, key, error.params)


def test_errors_quote_the_word_as_typed() -> None:
    cases = {
        "aller Élan": ("sahwari.err.direction", "Élan"),
        "move N f9": ("sahwari.err.tile", "f9"),
        "Replacer a1": ("sahwari.err.common", "a1"),
        "SPY b03": ("sahwari.err.handle", "b03"),
        "recruter 3 haut": ("sahwari.err.side", "haut"),
        "Sauter": ("sahwari.err.syntax", "Sauter"),
    }
    for text, (key, word) in cases.items():
        with pytest.raises(InvalidMove) as info:
            parse_text(text)
        assert (info.value.key, info.value.params) == (key, {"text": word})


def test_a_misshapen_step_names_its_keyword_usage() -> None:
    for text, keyword in (
        ("move", "move"),
        ("aller", "move"),
        ("use attack G1 dance", "attack"),
        ("utiliser attaque", "attack"),
        ("attaquer moi", "attack"),
        ("use fly away", "use"),
        ("recruit", "recruit"),
        ("fin maintenant", "end"),
    ):
        with pytest.raises(InvalidMove) as info:
            parse_text(text)
        assert info.value.key == "sahwari.err.usage"
        assert info.value.params == {"text": text, "usage": Term(f"sahwari.usage.{keyword}")}
    with pytest.raises(InvalidMove) as info:
        parse_text("recruit 3")
    assert info.value.params == {"position": 3}


# --------------------------------------------------------------------------- catalogue


def test_every_key_the_notation_raises_exists_in_both_languages() -> None:
    source = (PACKAGE / "notation.py").read_text(encoding="utf-8")
    used = set(re.findall(r'"(sahwari\.[a-z_.]+)"', source))
    used |= {f"sahwari.usage.{keyword}" for keyword in KEYWORDS}
    assert len(used) > 40
    for lang in catalogue.LANGUAGES:
        assert used <= set(catalogue.load_source("games.sahwari", lang))


def test_the_catalogue_matches_across_languages_and_is_well_formatted() -> None:
    english = catalogue.load_source("games.sahwari", "en")
    french_ = catalogue.load_source("games.sahwari", "fr")
    assert set(english) == set(french_)
    assert english["sahwari.title"] == french_["sahwari.title"] == "Sahwari"
    for key, template in english.items():
        assert key.startswith("sahwari.")
        assert catalogue.placeholders(template) == catalogue.placeholders(french_[key]), key
    for lang in catalogue.LANGUAGES:
        raw = (PACKAGE / "locales" / f"{lang}.json").read_text(encoding="utf-8")
        dumped = json.dumps(json.loads(raw), ensure_ascii=False, indent=2, sort_keys=True)
        assert raw == dumped + "\n", lang


def test_each_language_shows_its_own_notation_words() -> None:
    """The examples in backticks use the words a reader of that language is taught."""
    shared = {"artefact", "brigand", "n", "e", "s", "cube"}
    french_words = set(STEP_WORDS) | set(ARG_WORDS)
    for lang, foreign in (("en", french_words), ("fr", ENGLISH_WORDS - shared)):
        for key, template in catalogue.load_source("games.sahwari", lang).items():
            forms = [template] if isinstance(template, str) else list(template.values())
            for example in re.findall(r"`([^`]+)`", " ".join(forms)):
                words = {w.lower() for w in example.split()}
                assert not words & foreign, (lang, key, example)
