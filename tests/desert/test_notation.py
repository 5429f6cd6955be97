"""Notation of spec §11: parse, format_move, and the message catalogue."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from games import catalogue
from games.contract import IllegalMove, InvalidMove, MoveError, bot_move
from games.desert import GAME, DesertState, Discard, Pass, PlaceCamel, PlaceLeader, parse_coord
from games.desert.ai import choose_move
from games.suggestions import complete
from games.text import Player, Term
from tests.desert.helpers import play, position


def at(name: str) -> tuple[int, int]:
    coord = parse_coord(name)
    assert coord is not None
    return coord


def camel_state() -> DesertState:
    return position(
        4,
        leaders={"C5": (0, "orange"), "E5": (0, "white"), "K10": (1, "white")},
        water={"B4": 2},
    )


def states_of_every_phase() -> list[DesertState]:
    """A game of 5 walked with the AI: discard, riders and camels states."""
    state = GAME.new(5, 17)
    seen: list[DesertState] = []
    while GAME.to_act(state) and len(seen) < 60:
        seen.append(state)
        seat = GAME.to_act(state)[0]
        state = GAME.apply(state, seat, bot_move(GAME, choose_move, state, seat, len(seen)))
    return seen


def test_format_then_parse_round_trips_every_legal_move() -> None:
    phases = set()
    for state in states_of_every_phase():
        seat = GAME.to_act(state)[0]
        phases.add(state.phase)
        for move in GAME.legal_moves(state, seat):
            text = GAME.format_move(move)
            assert GAME.parse(state, seat, text) == (move,)
            assert GAME.parse(state, seat, f"  {text.upper()} ") == (move,)
    assert phases == {"discard", "riders", "camels"}


def test_format_move_notation() -> None:
    assert GAME.format_move(PlaceCamel("orange", at("F7"))) == "orange F7"
    assert GAME.format_move(PlaceLeader("green", at("S14"))) == "green S14"
    assert GAME.format_move(Discard("pink")) == "discard pink"
    assert GAME.format_move(Pass()) == "pass"


@pytest.mark.parametrize(
    "text",
    ["orange C4", "o c4", "ORANGE c4", "orange,C4", "Orange , c4", "orange   C4"],
)
def test_case_spaces_commas_and_codes(text: str) -> None:
    assert GAME.parse(camel_state(), 0, text) == (PlaceCamel("orange", at("C4")),)


@pytest.mark.parametrize(
    ("word", "colour"),
    [
        ("blanc", "white"),
        ("jaune", "yellow"),
        ("orange", "orange"),
        ("rose", "pink"),
        ("vert", "green"),
        ("w", "white"),
        ("y", "yellow"),
        ("p", "pink"),
        ("g", "green"),
    ],
)
def test_colour_words_and_french_aliases(word: str, colour: str) -> None:
    state = GAME.new(5, 2)
    assert GAME.parse(state, 0, f"discard {word}") == (Discard(colour),)
    assert GAME.parse(state, 0, f"défausse {word}") == (Discard(colour),)
    assert GAME.parse(state, 0, f"DEFAUSSE {word}") == (Discard(colour),)


def test_pass_and_passe() -> None:
    state = position(2, leaders={"A9": (0, "white"), "K10": (1, "white")}, oases=("A10", "B9"))
    assert GAME.parse(state, 0, "pass") == (Pass(),)
    assert GAME.parse(state, 0, "Passe") == (Pass(),)


def test_two_camel_command_is_two_atomic_moves() -> None:
    state = camel_state()
    moves = GAME.parse(state, 0, "orange C4 white E4")
    assert moves == (PlaceCamel("orange", at("C4")), PlaceCamel("white", at("E4")))
    moves = GAME.parse(state, 0, "orange C4, orange C3")
    assert moves[1] == PlaceCamel("orange", at("C3"))


def test_two_camel_command_is_all_or_nothing_and_names_the_failing_part() -> None:
    state = camel_state()
    with pytest.raises(IllegalMove) as info:
        GAME.parse(state, 0, "orange C4 white Q10")
    error = info.value
    assert error.key == "desert.part_failed"
    assert error.params["index"] == 2 and error.params["part"] == "white Q10"
    # The inner error comes along as a Term, so it is translated too.
    assert error.params["reason"] == Term(
        "desert.r9", {"space": "Q10", "colour": Term("desert.colour.white")}
    )
    assert "white Q10" in str(error) and error.params["reason"].key == "desert.r9"
    assert GAME.legal_moves(state, 0)
    # Nothing was applied: the same command minus the bad part still works from scratch.
    assert play(state, 0, "orange C4").cells != state.cells


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("", "desert.empty"),
        ("   ", "desert.empty"),
        (" , ,", "desert.empty"),
        ("xyz", "desert.syntax"),
        ("a", "desert.syntax"),
        ("🐪", "desert.syntax"),
        ("a" * 2000, "desert.syntax"),
        ("orange", "desert.syntax"),
        ("F7 orange", "desert.syntax"),
        ("hello world", "desert.syntax"),
        ("orange F7 white", "desert.syntax"),
        ("pass now", "desert.syntax"),
        ("discard", "desert.syntax"),
        ("orange Z99", "desert.bad_space"),
        ("orange F15", "desert.bad_space"),
        ("orange F0", "desert.bad_space"),
        ("purple F7", "desert.unknown_colour"),
        ("discard purple", "desert.unknown_colour"),
        ("orange F7 white G8 pink H9", "desert.too_many"),
    ],
)
def test_bad_input_is_invalid_move(text: str, key: str) -> None:
    with pytest.raises(InvalidMove) as info:
        GAME.parse(camel_state(), 0, text)
    assert info.value.key == key
    assert isinstance(info.value, ValueError)
    assert len(str(info.value)) < 300  # the 2000 characters are not echoed back


def test_not_your_turn_and_other_phase_errors_are_illegal_moves() -> None:
    state = camel_state()
    with pytest.raises(IllegalMove) as info:
        GAME.parse(state, 1, "white K11")
    assert info.value.key == "desert.not_your_turn" and info.value.params == {"other": Player(0)}
    with pytest.raises(IllegalMove) as info:
        GAME.parse(state, 7, "white K11")
    assert info.value.key == "desert.no_such_seat" and info.value.params == {"player": 8}
    with pytest.raises(IllegalMove) as info:
        GAME.parse(state, 0, "discard pink")
    assert info.value.key == "desert.expect_camel"
    riders = GAME.new(3, 1)
    for text, key in (
        ("orange F10 white C12", "desert.one_leader"),
        ("pass", "desert.expect_leader"),
        ("discard pink", "desert.expect_leader"),
    ):
        with pytest.raises(IllegalMove) as info:
            GAME.parse(riders, 0, text)
        assert info.value.key == key
    with pytest.raises(IllegalMove) as info:
        GAME.parse(GAME.new(5, 1), 0, "orange F10")
    assert info.value.key == "desert.expect_discard"


def test_apply_checks_move_objects_too() -> None:
    state = camel_state()
    with pytest.raises(InvalidMove):
        GAME.apply(state, 0, PlaceCamel("purple", at("C4")))
    with pytest.raises(InvalidMove):
        GAME.apply(state, 0, PlaceCamel("orange", (20, 1)))
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, 0, PlaceLeader("orange", at("C4")))
    assert info.value.key == "desert.expect_camel"
    with pytest.raises(IllegalMove) as info:
        GAME.apply(state, 5, PlaceCamel("orange", at("C4")))
    assert info.value.key == "desert.no_such_seat"


def test_complete_offers_legal_continuations() -> None:
    """core.complete: after 'orange C4 ' the second camel's options are offered."""
    state = camel_state()
    first = complete(GAME, state, 0, "orange")
    assert first and all(s.command.startswith("orange ") for s in first)
    second = complete(GAME, state, 0, "orange C4 orange c")
    assert any(s.command == "orange C4 orange C3" for s in second)
    assert complete(GAME, state, 1, "") == []


# Texts of the catalogue that are not errors nor grouped (log, board, hand, ...).
NOT_ERRORS = {"desert.title", "desert.footer", "desert.summary", "desert.hint", "desert.help"}


def test_every_message_key_is_used_and_every_used_key_exists() -> None:
    """Error keys raised by illegal()/invalid() and catalogue keys match one to one."""
    source = "\n".join(
        p.read_text(encoding="utf-8")
        for p in Path(__file__).parents[2].joinpath("games", "desert").glob("*.py")
    )
    english = catalogue.load_source("games.desert", "en")
    raised = set(re.findall(r'(?:illegal|invalid)\(\s*"(desert\.[a-z0-9_]+)"', source))
    raised |= set(re.findall(r'"(desert\.expect_[a-z]+)"', source))  # raise illegal(expect)
    assert raised <= set(english), raised - set(english)
    # Every ungrouped key ("desert.r9", not "desert.log.camel") is an error some code raises.
    errors = {key for key in english if key.count(".") == 1} - NOT_ERRORS
    assert errors == raised
    # Every other key the engine names (log, decisions, hand) exists too.
    used = set(re.findall(r'"(desert\.[a-z0-9_.]+)"', source))
    assert used <= set(english), used - set(english)
    assert all(key.startswith("desert.") for key in english)


def test_every_error_carries_its_key_and_translatable_params() -> None:
    state = camel_state()
    for text in ("orange G10", "orange H5", "pink C6", "orange C4 white Q10", "pass", "?"):
        with pytest.raises(MoveError) as info:
            GAME.parse(state, 0, text)
        error = info.value
        assert catalogue.has(error.key)
        assert str(error) == catalogue.text("en", error.key, error.params)
        assert "{" not in str(error)  # every placeholder was filled
        assert all(isinstance(v, str | int | Term) for v in error.params.values())
        for lang in ("en", "fr"):
            assert catalogue.text(lang, error.key, error.params)
