"""Nomadi's setup in one turn, hence one public post, per player (option setup: grouped).

The rules (spec §4.4, §4.5; the French seed) have the extra cards and then the
pawns placed one at a time, round and round: about twenty pinging posts before
the first roll. Grouped, the default, each seat places its share of the cards
and all its pawns in one turn, seat by seat from seat 1; the printed order
stays available as ``setup: alternate``, and games stored before the option
existed keep it, so their move logs still replay.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.replay import Row, replay
from games.contract import IllegalMove, bot_move, play_all, resolve_options
from games.nomadi import GAME, SPEC, PlaceCard, PlacePawn
from games.nomadi.model import BOARD, PAWNS_EACH, name, parse_square
from games.nomadi.notation import format_moves, parse_text
from games.nomadi.state import NomadiState, card_share
from games.suggestions import turn_suggestion, whole_turn

PLAYERS = (2, 3, 4, 5)
DISCORD_VALUE = 100  # an autocomplete value's characters at most


def sq(word: str) -> int:
    found = parse_square(word)
    assert found is not None
    return found


def seeds(number: int) -> int:
    return 31 + number


def bot_setup(state: NomadiState, seat: int) -> tuple[Any, ...]:
    """The bot's whole setup turn for ``seat``, however long."""
    return whole_turn(GAME, SPEC.bot, state, seat, seeds, max_moves=40)


# --------------------------------------------------------------------------- one turn each


@pytest.mark.parametrize("players", PLAYERS)
def test_setup_takes_at_most_one_turn_per_player(players: int) -> None:
    """Move by move (as the bots play), from the new game to the first roll:
    the turn ends once per seat, seats 1, 2, … in order, the last one with the roll."""
    state = GAME.new(players, 7)
    ended: list[int] = []
    placements = 0
    while state.phase == "setup":
        (seat,) = GAME.to_act(state)
        step = GAME.play(state, seat, bot_move(GAME, SPEC.bot, state, seat, seeds(placements)))
        placements += 1
        if step.ends_turn:
            ended.append(seat)
        state = step.state
    assert ended == list(range(players))  # one public post per player
    assert placements == 5 + PAWNS_EACH[players] * players
    assert state.phase == "turn" and len(state.dice) == 6 and GAME.to_act(state) == (0,)
    assert sum(card_share(players, seat) for seat in range(players)) == 5


@pytest.mark.parametrize("players", PLAYERS)
def test_each_whole_setup_is_one_command_the_game_takes(players: int) -> None:
    """Each seat sends its whole setup as one command, written as the game
    writes it (``card F9 G10 place M16 N16 …``): it parses back to the same
    moves, plays in one go and ends the seat's turn; it fits in 100 characters."""
    state = GAME.new(players, 11)
    for seat in range(players):
        assert GAME.to_act(state) == (seat,)
        moves = bot_setup(state, seat)
        assert len(moves) == card_share(players, seat) + PAWNS_EACH[players]
        command = GAME.format_command(moves)
        assert len(command) <= DISCORD_VALUE, command
        assert command.count("card") == 1 and command.count("place") == 1, command
        assert GAME.parse(state, seat, command) == moves
        step = play_all(GAME, state, seat, GAME.parse(state, seat, command))
        assert step.ends_turn
        assert step.reveals == (seat == players - 1)  # the first roll comes with the last
        state = step.state
    assert state.phase == "turn"


def test_a_setup_command_is_read_in_any_order_and_in_french() -> None:
    state = GAME.new(2, 5)
    pawns = ("M16", "N16", "O16", "P16", "M17", "N17", "O17", "P17")
    english = "card F9 G10 H11 place " + " ".join(pawns)
    moves = GAME.parse(state, 0, english)
    assert moves == (
        *(PlaceCard(sq(w)) for w in ("F9", "G10", "H11")),
        *(PlacePawn(sq(w)) for w in pawns),
    )
    assert GAME.parse(state, 0, "carte F9 G10 H11 placer " + " ".join(pawns)) == moves
    # A square alone is the placement it can be: a pawn in the start area, else a card.
    mixed = "M16 N16 card F9 O16 P16 G10 M17 N17 O17 P17 H11"
    assert set(GAME.parse(state, 0, mixed)) == set(moves)
    assert parse_text("place M16 F9") == (PlacePawn(sq("M16")), PlaceCard(sq("F9")))
    assert play_all(GAME, state, 0, GAME.parse(state, 0, mixed)).ends_turn


def test_a_setup_command_is_all_or_nothing() -> None:
    state = GAME.new(2, 5)
    with pytest.raises(IllegalMove) as error:  # a fourth card: seat 1's share is 3
        GAME.parse(state, 0, "card F9 G10 H11 I11")
    assert error.value.key == "nomadi.err.cards_placed"
    with pytest.raises(IllegalMove) as error:
        GAME.parse(state, 0, "card F9 place M16 M16")
    assert error.value.key == "nomadi.err.occupied"
    with pytest.raises(IllegalMove) as error:
        GAME.parse(state, 0, "card F9 card M16")
    assert error.value.key == "nomadi.err.card_area"
    assert GAME.to_act(state) == (0,) and state == GAME.new(2, 5)


def test_the_compact_form_reads_back_for_every_placement() -> None:
    """``format_moves`` drops the repeated word only where a square alone reads
    back as the same placement."""
    every = [PlaceCard(sq) for sq in range(304) if sq not in BOARD.start]
    every += [PlacePawn(sq) for sq in sorted(BOARD.start)]
    assert parse_text(format_moves(every)) == tuple(every)
    odd = [PlaceCard(sq("F9")), PlaceCard(sq("M16")), PlacePawn(sq("N16")), PlacePawn(sq("F9"))]
    assert format_moves(odd) == "card F9 card M16 place N16 place F9"
    assert parse_text(format_moves(odd)) == tuple(odd)


# --------------------------------------------------------------------------- the ★


@pytest.mark.parametrize("players", PLAYERS)
def test_the_star_for_setup_is_taken_and_fits_discord(players: int) -> None:
    """The ★ (the bot's whole turn, as autocomplete offers it) is one command of
    at most 100 characters that the game takes. Followed from the first seat to
    the first roll, it needs one command per seat (two with 2 players, whose
    11 placements pass the platform's 8 moves of a ★), and the turn, hence the
    public post, still ends once per seat."""
    state = GAME.new(players, 13)
    ended: list[int] = []
    commands = 0
    while state.phase == "setup":
        (seat,) = GAME.to_act(state)
        star = turn_suggestion(GAME, SPEC.bot, state, seat, seeds, DISCORD_VALUE)
        assert star, "a setup turn of several placements has a ★"
        command = GAME.format_command(star)
        assert len(command) <= DISCORD_VALUE, command
        moves = GAME.parse(state, seat, command)
        assert moves == star
        step = play_all(GAME, state, seat, moves)
        commands += 1
        if step.ends_turn:
            ended.append(seat)
        state = step.state
    assert ended == list(range(players))
    assert commands == players or (players == 2 and commands <= 4)


# --------------------------------------------------------------------------- stored games

# Made by the engine before the setup option existed (2 players, seed 2027,
# the bots placing): the move log of its setup, and the state stored after it.
LEGACY_OPTIONS = {"course": "full", "bribes": "off"}
LEGACY_PAWNS = "O16 P16 N16 M16 M17 O17 P17 N17 P18 O18 N18 M18 P19 N19 M19 O19"
LEGACY_ROWS = [
    (0, "card J16"), (1, "card O13"), (0, "card J14"), (1, "card M13"), (0, "card P13"),
    *((k % 2, f"place {w}") for k, w in enumerate(LEGACY_PAWNS.split(" "))),
]  # fmt: skip
_VALUES = [-1, -2, 2, -1, -1, 1, 3, 2, 3, 1, -2, 2, 2, 1, -2, 1, 3, 3]
_WATER = [[21, 0], [54, 1], [82, 2], [90, 3], [103, 4], [113, 5], [116, 6], [185, 7], [189, 8]]
_BOTH: dict[str, Any] = {
    "players": 2,
    "course": "full",
    "bribes": "off",
    "values": _VALUES,
    "held": [[], []],
    "known": [[], []],
    "coins": [5, 5],
    "active": 0,
    "rerolled": False,
    "history": [],
    "deal": None,
    "turns": 0,
    "idle": 0,
    "offers": [],
    "spoken": [],
    "end": "",
    "previous": None,
}
_BOX = [[k % 2, -1] for k in range(16)]
LEGACY_MID_CARDS: dict[str, Any] = {  # after three cards
    **_BOTH,
    "phase": "cards",
    "rng": 9344711191398860112,
    "board_cards": [*_WATER, [198, 9], [206, 14], [217, 15], [219, 10], [222, 11]]
    + [[232, 12], [249, 13]],
    "pile": [16, 17],
    "pawns": _BOX,
    "dice": [],
    "used": [],
    "path": [217],
}
_PLACED = [[0, 254], [1, 255], [0, 253], [1, 252], [0, 268], [1, 270], [0, 271], [1, 269]]
_PLACED += [[0, 287], [1, 286], [0, 285], [1, 284], [0, 303], [1, 301], [0, 300], [1, 302]]
_ALL_CARDS = [*_WATER, [198, 9], [204, 16], [206, 14], [207, 17], [217, 15], [219, 10]]
_ALL_CARDS += [[222, 11], [232, 12], [249, 13]]
LEGACY_MID_CARAVAN: dict[str, Any] = {  # after four pawns
    **LEGACY_MID_CARDS,
    "phase": "caravan",
    "board_cards": _ALL_CARDS,
    "pile": [],
    "pawns": _PLACED[:4] + _BOX[4:],
    "path": [252],
}
LEGACY_AFTER: dict[str, Any] = {
    **LEGACY_MID_CARAVAN,
    "phase": "turn",
    "rng": 3962023812499844558,
    "pawns": _PLACED,
    "dice": [2, 1, 2, 4, 1, 4],
    "used": [False] * 6,
    "path": [302],
}


def test_states_stored_before_the_option_load_and_go_on_alternating() -> None:
    for stored, next_seat, left in ((LEGACY_MID_CARDS, 1, 2 + 16), (LEGACY_MID_CARAVAN, 0, 12)):
        state = GAME.load(json.loads(json.dumps(stored)))
        assert GAME.dump(state) == stored  # the JSON form did not change
        assert GAME.to_act(state) == (next_seat,)
        posts = 0
        while state.phase != "turn":
            (seat,) = GAME.to_act(state)
            step = GAME.play(state, seat, GAME.legal_moves(state, seat)[0])
            assert step.ends_turn  # still one placement a turn, as it was played
            posts += 1
            state = step.state
        assert posts == left


def test_games_stored_before_the_option_replay_their_move_log() -> None:
    """Their stored options name course and bribes only: the alternate setup."""
    rows = [Row(seat, notation) for seat, notation in LEGACY_ROWS]
    states = replay(GAME, 2, 2027, LEGACY_OPTIONS, rows)
    assert GAME.dump(states[-1]) == LEGACY_AFTER
    assert GAME.dump(states[3]) == LEGACY_MID_CARDS
    assert GAME.dump(states[9]) == LEGACY_MID_CARAVAN
    # A game opened now stores the option (resolved, as the platform does): grouped.
    assert GAME.new(2, 2027, resolve_options(GAME.options, LEGACY_OPTIONS)).phase == "setup"
    assert GAME.new(2, 2027).phase == "setup"
    assert GAME.new(2, 2027, {**LEGACY_OPTIONS, "setup": "alternate"}).phase == "cards"


def test_setup_posts_name_every_placement() -> None:
    """The one post of a seat's setup lists each card and pawn it placed."""
    state = GAME.new(3, 17)
    moves = bot_setup(state, 0)
    step = play_all(GAME, state, 0, moves)
    placed = [e.params["square"] for e in step.events if e.key.startswith("nomadi.log.")]
    assert placed == [name(m.square) for m in moves]
