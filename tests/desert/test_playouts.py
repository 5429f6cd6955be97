"""Whole games with the baseline AI and with random legal moves (hypothesis).

The AI's own properties (strength, seeing only its view) are in test_ai.py.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.contract import IllegalMove, InvalidMove, bot_move
from games.desert import COLOURS, GAME, DesertState, Move, PlaceCamel, PlaceLeader
from games.desert.ai import choose_move
from games.desert.board import COORDS, GRID_NEIGHBOURS, SIZE, layout
from games.desert.engine import SUPPLY
from games.desert.state import EMPTY, NCOLOURS
from tests.desert.helpers import connected

Chooser = Callable[[DesertState, int], Move]
MAX_STEPS = 1000  # 5 discards + 25 leaders + 5 x 34 camels is far below


def check_invariants(s: DesertState) -> None:
    """Facts every reachable state keeps (R8-R11, supply bookkeeping)."""
    lay = layout(s.players)
    for sq in range(SIZE):
        cid = s.cells[sq]
        if cid == EMPTY:
            continue
        assert sq in lay.active and sq not in s.oases  # R1, R8
        for n in GRID_NEIGHBOURS[sq]:
            other = s.cells[n]
            # R10: same colour, different players, never side by side.
            assert not (other != EMPTY and other != cid and other % 5 == cid % 5)
        owner = s.areas[sq]
        assert owner in (EMPTY, cid // NCOLOURS)  # R11
    for cid, leader in enumerate(s.leaders):
        squares = {i for i in range(SIZE) if s.cells[i] == cid}
        if leader == EMPTY:
            assert not squares
            continue
        # R9: each caravan is one connected group around its leader.
        assert leader in squares and connected(squares)
    if s.phase in ("camels", "over"):
        for c in range(NCOLOURS):
            pieces = sum(1 for v in s.cells if v != EMPTY and v % 5 == c)
            leaders = sum(1 for seat in range(s.players) if s.discarded[seat] != c)
            assert s.supply[c] == SUPPLY[s.players] - (pieces - leaders)


def play_out(players: int, seed: int, chooser: Chooser) -> list[tuple[DesertState, int, Move]]:
    """Play a whole game, checking the contract at every step."""
    state = GAME.new(players, seed)
    history = []
    for _ in range(MAX_STEPS):
        data = GAME.dump(state)
        assert GAME.load(json.loads(json.dumps(data))) == state
        check_invariants(state)
        to_act = GAME.to_act(state)
        if not to_act:
            break
        seat = to_act[0]
        legal = GAME.legal_moves(state, seat)
        assert legal
        assert all(
            GAME.legal_moves(state, other) == [] for other in range(players) if other != seat
        )
        move = chooser(state, seat)
        assert move in legal
        history.append((state, seat, move))
        state = GAME.apply(state, seat, move)
    else:
        raise AssertionError("the game did not end")
    outcome = GAME.outcome(state)
    assert outcome is not None and state.phase == "over"
    assert 0 in state.supply or state.passes >= players  # EG1 or EG2
    assert outcome.scores == tuple(sum(p for _, p in b) for b in outcome.breakdown)
    history.append((state, -1, move))
    return history


@settings(max_examples=15, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**64 - 1))
def test_ai_games_run_to_the_end(players: int, seed: int) -> None:
    history = play_out(players, seed, lambda s, seat: bot_move(GAME, choose_move, s, seat, seed))
    # Determinism: the same seed and moves give the same states.
    state = GAME.new(players, seed)
    for before, seat, move in history[:-1]:
        assert state == before
        assert bot_move(GAME, choose_move, state, seat, seed) == move
        state = GAME.apply(state, seat, move)
    assert state == history[-1][0]


@settings(max_examples=10, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**64 - 1), pick=st.randoms())
def test_random_games_every_legal_move_applies(
    players: int, seed: int, pick: random.Random
) -> None:
    checked = 0

    def chooser(state: DesertState, seat: int) -> Move:
        nonlocal checked
        legal = GAME.legal_moves(state, seat)
        if checked < 40 or pick.random() < 0.1:  # every move of some states
            checked += 1
            for move in legal:
                GAME.apply(state, seat, move)
        return pick.choice(legal)

    play_out(players, seed, chooser)


@settings(max_examples=6, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**64 - 1), pick=st.randoms())
def test_apply_accepts_exactly_the_legal_moves(
    players: int, seed: int, pick: random.Random
) -> None:
    """Every colour on every square: apply succeeds iff legal_moves lists the move."""
    history = play_out(players, seed, lambda s, seat: pick.choice(GAME.legal_moves(s, seat)))
    for state, seat, _ in pick.sample(history[:-1], 4):
        legal = set(GAME.legal_moves(state, seat))
        kind = PlaceLeader if state.phase == "riders" else PlaceCamel
        for colour in COLOURS:
            for coord in COORDS:
                move = kind(colour, coord)
                try:
                    GAME.apply(state, seat, move)
                except (IllegalMove, InvalidMove):
                    assert move not in legal
                else:
                    assert move in legal


def test_load_rejects_malformed_data() -> None:
    data = GAME.dump(GAME.new(3, 1))
    assert GAME.load(data) == GAME.new(3, 1)
    for key, bad in (
        ("version", 2),
        ("players", 9),
        ("phase", "lunch"),
        ("oases", ["Z99"]),
        ("supply", [1, 2]),
        ("discarded", [None]),
        ("rng", "x"),
    ):
        with pytest.raises(ValueError):
            GAME.load({**data, key: bad})
    with pytest.raises(ValueError):
        GAME.load({k: v for k, v in data.items() if k != "pieces"})
