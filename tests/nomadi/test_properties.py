"""Nomadi properties over many random games (hypothesis), and both variants
played to the end."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.nomadi import GAME, SPEC, DieMove, NomadiState
from games.nomadi.model import BOARD, HEIGHT, WIDTH, connected, surrounding
from games.nomadi.rules import jump_paths, landings
from games.rng import Rng


def pawn_squares(state: NomadiState) -> set[int]:
    return {p.square for p in state.pawns if p.square >= 0}


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 5),
    seed=st.integers(0, 2**32),
    picks=st.lists(st.integers(0, 10_000), min_size=60, max_size=60),
    options=st.sampled_from([{}, {"course": "short"}, {"bribes": "on"}, {"setup": "alternate"}]),
)
def test_r7_the_caravan_is_connected_after_every_applied_die(
    players: int, seed: int, picks: list[int], options: dict[str, str]
) -> None:
    """Random legal moves (any of them, not the bot's; bribes and deals included):
    after each die, one caravan; no pawn on a square another holds; arrived
    pawns never leave the goal."""
    state = GAME.new(players, seed, options)
    for pick in picks * 6:
        seats = GAME.to_act(state)
        if not seats:
            break
        seat = seats[pick % len(seats)]
        legal = GAME.legal_moves(state, seat)
        move = legal[pick % len(legal)]
        before = state
        state = GAME.apply(state, seat, move)
        if isinstance(move, DieMove):
            assert connected(pawn_squares(state)), (GAME.format_move(move), seed)
            squares = [p.square for p in state.pawns]
            assert len(squares) == len(set(squares))
            goal = BOARD.goal_of(state.course)
            frozen = [i for i, p in enumerate(before.pawns) if p.square in goal]
            assert all(state.pawns[i].square == before.pawns[i].square for i in frozen)
            assert all(state.pawns[i].square in goal for i in frozen)


@pytest.mark.parametrize("options", [{"course": "short"}, {"bribes": "on"}, {"setup": "alternate"}])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_variant_is_played_to_the_end_by_bots(players: int, options: dict[str, str]) -> None:
    state = GAME.new(players, 100 + players, options)
    steps = 0
    kinds: set[str] = set()
    while seats := GAME.to_act(state):
        seat = seats[-1]  # with bribes, the other seats answer before the active one
        legal = GAME.legal_moves(state, seat)
        move = SPEC.bot(GAME.view(state, seat), tuple(legal), Rng(steps))
        kinds.add(type(move).__name__)
        state = GAME.apply(state, seat, move)
        steps += 1
    assert ("NoBribe" in kinds) == (options.get("bribes") == "on")
    outcome = GAME.outcome(state)
    assert outcome is not None and state.end == "third"  # the bots reach the goal
    goal = BOARD.goal_of(state.course)
    assert sum(1 for p in state.pawns if p.square in goal) == 3
    assert GAME.view(state, None).arrivals == 3


@settings(max_examples=200, deadline=None)
@given(
    frm=st.integers(0, WIDTH * HEIGHT - 1),
    die=st.integers(1, 6),
    occupied=st.sets(st.integers(0, WIDTH * HEIGHT - 1), max_size=40),
)
def test_landings_are_the_ends_of_the_jump_paths(frm: int, die: int, occupied: set[int]) -> None:
    """R5/R6: the fast landing search (move generation) reaches exactly the squares
    the listed jump paths end on, on any board."""
    occupied.discard(frm)
    if die == 1:
        expected = {n for n in surrounding(frm) if n not in occupied}
    else:
        expected = {path[-1] for path in jump_paths(frm, die, occupied)}
    assert landings(frm, die, occupied) == expected
