"""The baseline bot: it decides from its seat's view only, and it plays well enough.

The bot is a :data:`games.contract.Bot`: ``bot_move`` shows it the seat's view,
the legal moves and a random stream, nothing else. These tests check it is
stronger than random play and that hidden information (the values of water
holes other seats took, §9) cannot change what it does.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import pytest

from games.contract import bot_move
from games.desert import GAME, DesertState, DesertView, Move
from games.desert.ai import choose_move, public_board
from games.desert.state import EMPTY
from games.rng import Rng, derive_seed
from tests.contract import bots_against_random
from tests.desert.helpers import play, position


def play_game(
    players: int, seed: int, bots: set[int], stop: int | None = None
) -> tuple[DesertState, list[DesertState]]:
    """A seeded game: seats in ``bots`` play the AI, the others random legal moves."""
    return bots_against_random(GAME, choose_move, players, seed, bots, stop)


# --------------------------------------------------------------------------- strength


def test_bot_beats_random_players() -> None:
    """3 players, one bot among two random players: it wins nearly every game."""
    wins = 0
    for seed in range(10):
        bot = seed % 3
        final, _ = play_game(3, seed, {bot})
        outcome = GAME.outcome(final)
        assert outcome is not None
        wins += bot in outcome.winners
    assert wins >= 8


def test_bot_takes_an_oasis_now() -> None:
    """SC2: next to the orange leader, C4 touches the oasis D3 (+5)."""
    state = position(
        4,
        leaders={"C5": (0, "orange"), "E5": (0, "white"), "K10": (1, "orange")},
        water={"B4": 2},
    )
    for k in range(5):
        assert GAME.format_move(bot_move(GAME, choose_move, state, 0, k)) == "orange C4"


def test_bot_closes_an_area() -> None:
    """SC3 (§7 example 2): after B9, B11 encloses A9-A11 and the 3 on A10."""
    state = play(
        position(4, leaders={"B10": (0, "white"), "K10": (1, "white")}, water={"A10": 3}),
        0,
        "white B9",
    )
    state = replace(state, current=0, allowance=2)
    for k in range(5):
        assert GAME.format_move(bot_move(GAME, choose_move, state, 0, k)) == "white B11"


def test_a_whole_five_player_bot_game_is_fast() -> None:
    start = time.perf_counter()
    final, seen = play_game(5, 3, set(range(5)))
    elapsed = time.perf_counter() - start
    assert GAME.outcome(final) is not None and len(seen) > 100
    assert elapsed < 5.0, elapsed  # about 0.1 s on a laptop


# --------------------------------------------------------------------------- the contract


def test_bot_raises_without_legal_moves() -> None:
    view = GAME.view(GAME.new(3, 1), 0)
    with pytest.raises(ValueError):
        choose_move(view, (), Rng.from_seed(1))
    with pytest.raises(ValueError):
        bot_move(GAME, choose_move, GAME.new(3, 1), 1, 0)  # not seat 2's turn


def test_bot_is_deterministic_given_view_legal_and_rng() -> None:
    _, seen = play_game(4, 21, {0, 1, 2, 3}, stop=80)
    for state in seen[::7]:
        seat = GAME.to_act(state)[0]
        view, legal = GAME.view(state, seat), tuple(GAME.legal_moves(state, seat))
        first = choose_move(view, legal, Rng.from_seed(5))
        assert choose_move(view, legal, Rng.from_seed(5)) == first
        assert first in legal


def test_bot_receives_only_the_view_and_the_legal_moves() -> None:
    """bot_move calls the bot with the seat's DesertView, a tuple of legal moves and an Rng."""
    calls: list[tuple[Any, ...]] = []

    def spy(view: DesertView, legal: tuple[Move, ...], rng: Rng) -> Move:
        calls.append((view, legal, rng))
        return choose_move(view, legal, rng)

    _, seen = play_game(3, 8, set(), stop=40)
    state = seen[-1]
    seat = GAME.to_act(state)[0]
    move = bot_move(GAME, spy, state, seat, 77)
    ((view, legal, rng),) = calls
    assert view == GAME.view(state, seat) and view.viewer == seat
    assert legal == tuple(GAME.legal_moves(state, seat)) and move in legal
    assert rng == Rng.from_seed(77)
    assert "water_taken" not in repr(view)


def test_spectator_views_are_refused() -> None:
    with pytest.raises(ValueError):
        public_board(GAME.view(GAME.new(3, 1), None))


def test_public_board_matches_the_public_parts_of_the_state() -> None:
    _, seen = play_game(5, 4, set(range(5)), stop=150)
    state = seen[-1]
    seat = GAME.to_act(state)[0]
    board = public_board(GAME.view(state, seat))
    assert board.cells == state.cells
    assert board.areas == state.areas
    assert board.water == state.water  # holes still on the board are face up
    assert board.oases == state.oases
    assert board.scored == state.scored
    assert board.leaders == {cid: sq for cid, sq in enumerate(state.leaders) if sq != EMPTY}
    assert board.seat == seat and board.players == 5


# --------------------------------------------------------------------------- hidden information


def positions(players: int, seed: int) -> list[DesertState]:
    """Every 9th position of a seeded bot game, from the riders to the end."""
    _, seen = play_game(players, seed, set(range(players)))
    return seen[::9]


@pytest.mark.parametrize(("players", "seed"), [(2, 31), (3, 32), (4, 33), (5, 34)])
def test_bots_see_only_their_seats_view(players: int, seed: int) -> None:
    """§9: a twin state with other seats' water values redrawn gets the same move.

    ``resample`` keeps what the seat sees and redraws what it cannot; the
    bot's view, legal moves and choice must not change.
    """
    hidden_differs = 0
    checked = 0
    for number, state in enumerate(positions(players, seed)):
        seat = GAME.to_act(state)[0]
        others_hold_water = any(state.water_taken[p] for p in range(players) if p != seat)
        for other_seed in range(3):
            twin = GAME.resample(state, seat, derive_seed(seed, number, other_seed))
            assert GAME.view(twin, seat) == GAME.view(state, seat)
            assert GAME.legal_moves(twin, seat) == GAME.legal_moves(state, seat)
            assert twin.water_taken[seat] == state.water_taken[seat]
            for k in (number, number + 1000):
                assert bot_move(GAME, choose_move, twin, seat, k) == bot_move(
                    GAME, choose_move, state, seat, k
                )
            checked += 1
            if others_hold_water and twin.water_taken != state.water_taken:
                hidden_differs += 1
    assert checked >= 10
    # The twins really differ where the seat cannot see, so the test can fail.
    assert hidden_differs > 0


def test_the_twin_check_catches_a_peeking_bot() -> None:
    """The check above can fail: a bot reading another seat's water values is caught."""
    peeked: list[DesertState] = []

    def peeking(view: DesertView, legal: tuple[Move, ...], rng: Rng) -> Move:
        state = peeked[-1]  # smuggled in, as a bot with access to the state could
        assert view.viewer is not None
        neighbour = (view.viewer + 1) % state.players
        return legal[sum(state.water_taken[neighbour]) % len(legal)]

    caught = 0
    for number, state in enumerate(positions(3, 32)):
        seat = GAME.to_act(state)[0]
        twin = GAME.resample(state, seat, number)
        peeked.append(state)
        real = bot_move(GAME, peeking, state, seat, 0)
        peeked.append(twin)
        caught += bot_move(GAME, peeking, twin, seat, 0) != real
    assert caught
