"""People, not seats: engines name a seat with :class:`games.text.Player`; the
platform formats it with the table's names and each seat's colour mark."""

from __future__ import annotations

import json
from itertools import permutations

import pytest

from bot import i18n, registry
from bot.errors import refusal
from bot.session import Session
from bot.storage.base import GameRecord, SeatRecord
from games import catalogue
from games.contract import Event, MoveError
from games.desert import GAME as DESERT
from games.desert import SPEC as DESERT_SPEC
from games.nomadi.messages import player as nomadi_player
from games.oasis.messages import player as oasis_player
from games.sahwari import SPEC as SAHWARI_SPEC  # noqa: F401  (its catalogue)
from games.text import Player, Term, params_from_json, params_json

NAMES = ["🔵 Zoë", "🟠 李雷", "🟢 سعيد"]


def test_a_player_param_reads_as_the_tables_name_else_its_fallback() -> None:
    params = {"other": Player(1)}
    assert catalogue.text("en", "desert.r11", {"space": "A1", **params}, names=NAMES) == (
        "A1 lies in 🟠 李雷's area."
    )
    # Without the table (an engine's own English message): "seat N", in each language.
    assert catalogue.text("en", "desert.r11", {"space": "A1", **params}) == (
        "A1 lies in seat 2's area."
    )
    assert "siège 2" in catalogue.text("fr", "desert.r11", {"space": "A1", **params})
    # A game's own fallback words, and a seat past the names given.
    assert catalogue.text("en", "oasis.err.no_offer", {"player": oasis_player(4)}, names=NAMES) == (
        "black (seat 5) has no offer on the table."
    )


def test_players_inside_nested_terms_and_lists_are_named_too() -> None:
    nested = Term("sahwari.camel.player", {"player": Player(2)})
    assert catalogue.term("en", nested, NAMES) == "🟢 سعيد's camel"
    assert catalogue.term("fr", nested, NAMES) == "le chameau de 🟢 سعيد"
    ranks = {"order": (nomadi_player(0), nomadi_player(2))}
    assert catalogue.text("en", "oasis.log.ranks", ranks, names=NAMES).count("🔵 Zoë") == 1


def test_a_player_param_survives_json() -> None:
    params = {"a": Player(3), "b": nomadi_player(1), "c": (Player(0), "x", 2)}
    again = params_from_json(json.loads(json.dumps(params_json(params))))
    assert again == params
    with pytest.raises(ValueError):
        params_from_json({"a": {"seat": 1, "fallback": "red"}})


def session_of(names: list[str], kind: str = "desert") -> Session:
    spec = registry.specs()[kind]
    seats = tuple(SeatRecord(seat, 100 + seat, name, False) for seat, name in enumerate(names))
    record = GameRecord(
        id=7,
        kind=kind,
        guild_id=1,
        channel_id=2,
        status="lobby",
        creator_id=100,
        options={},
        seed=1,
        state=None,
        version=0,
        created_at="2026-11-27T00:00:00+00:00",
        updated_at="2026-11-27T00:00:00+00:00",
        seats=seats,
    )
    return Session(record, spec)


def test_people_carry_the_board_colour_mark_and_are_escaped_for_discord() -> None:
    session = session_of(["Zoë", "*bold*", "李雷"])
    marks = DESERT_SPEC.marks
    assert session.people() == [f"{marks[0]} Zoë", f"{marks[1]} \\*bold\\*", f"{marks[2]} 李雷"]
    # Buttons and autocomplete show Markdown as typed: the plain name there.
    assert session.people(plain=True)[1] == f"{marks[1]} *bold*"


def test_every_game_has_one_distinct_mark_per_seat() -> None:
    for spec in registry.load(registry.GAMES).values():
        most = spec.engine.max_players
        assert len(spec.marks) >= most, spec.kind
        assert len(set(spec.marks[:most])) == most, spec.kind


# The colour each mark emoji shows (Twemoji, as Discord draws them).
EMOJI_RGB = {
    "🔴": (221, 46, 68),
    "🟠": (244, 144, 12),
    "🟡": (253, 203, 88),
    "🟢": (120, 177, 89),
    "🔵": (85, 172, 238),
    "🟣": (170, 142, 214),
    "⚫": (49, 55, 61),
    "🩵": (142, 204, 243),
}


def test_the_marks_match_the_seats_board_colours() -> None:
    """A player is one colour everywhere: of every way to hand the game's marks
    to its seats, the one it uses is closest to the pieces on the board."""
    for spec in registry.load(registry.GAMES).values():
        picture = spec.load_picture()
        board = [picture.seat_colour(seat) for seat in range(len(spec.marks))]

        def cost(marks: tuple[str, ...], board: list[tuple[int, int, int]] = board) -> int:
            return sum(
                (a - b) ** 2
                for mark, colour in zip(marks, board, strict=True)
                for a, b in zip(EMOJI_RGB[mark], colour, strict=True)
            )

        best = min(permutations(spec.marks), key=cost)
        assert best == spec.marks, (spec.kind, best)


def test_a_refusal_names_the_player_when_the_platform_knows_the_table() -> None:
    state = DESERT.new(3, 1)
    with pytest.raises(MoveError) as refused:
        DESERT.parse(state, 1, "white A1")
    error = refused.value
    assert "seat 1" in i18n.translate("en", error.key, error.params, error.message)
    error.names = session_of(["Zoë", "Bob", "Carl"]).people()
    text = refusal("fr", error)
    assert text is not None and "🔵 Zoë" in text and "siège" not in text


def test_an_events_text_names_the_people_it_mentions() -> None:
    from cogs.replies import describe

    event = Event("nomadi.log.refuse", {"mover": nomadi_player(1)}, 0)
    assert describe(event, "en", names=NAMES) == "refuses: 🟠 李雷 keeps the card"
    assert "(seat 2)" in describe(event, "en")
