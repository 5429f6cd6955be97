"""Rebuilding a game from its move log (bot/replay.py).

Whole games are played the way the service plays AI seats (the first AI seat
to act, its bot through ``bot_move`` with a seed derived from the game and
version, one row per move holding ``format_move``); replaying the rows from
the seed must go through exactly the same states.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache
from typing import Any

import pytest

from bot import registry
from bot.replay import ReplayError, Row, replay, states_after
from games.contract import MoveError
from tests.contract import options_for, service_playout

SPECS = registry.specs()
COUNTS = [
    (key, players)
    for key, spec in SPECS.items()
    for players in (2, 3, 4)
    if spec.engine.min_players <= players <= spec.engine.max_players
]
GAME_ID = 4242


@dataclass(frozen=True)
class Played:
    seed: int
    options: dict[str, str]
    rows: tuple[Row, ...]
    states: tuple[Any, ...]  # the start, then the state after each row
    ends: tuple[bool, ...]  # what the service stores as ends_turn for each row


@cache
def played(key: str, players: int, seed: int) -> Played:
    """A whole game where the bots play every seat, as the service runs them
    (options replayed too)."""
    spec = SPECS[key]
    options = options_for(spec, seed)
    plies = tuple(service_playout(spec, players, seed, options, game_id=GAME_ID))
    states = (plies[0].before, *(p.step.state for p in plies))
    return Played(seed, options, tuple(p.row for p in plies), states, tuple(p.ends for p in plies))


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_a_whole_bot_game_replays_state_by_state(key: str, players: int) -> None:
    engine = SPECS[key].engine
    game = played(key, players, seed=players + 7)
    states = replay(engine, players, game.seed, game.options, game.rows)
    assert len(states) == len(game.rows) + 1
    for number, (mine, theirs) in enumerate(zip(states, game.states, strict=True)):
        assert engine.dump(mine) == engine.dump(theirs), number
    assert engine.outcome(states[-1]) is not None
    assert engine.outcome(states[-1]) == engine.outcome(game.states[-1])


@pytest.mark.parametrize("key", sorted(SPECS))
def test_whole_turns_sent_as_one_command_replay_too(key: str) -> None:
    """A player may send a whole turn at once (moves joined by the game's
    separator): a row is then several moves, and replays to the same states."""
    engine = SPECS[key].engine
    players = engine.min_players
    game = played(key, players, seed=players + 7)
    rows: list[Row] = []
    kept = [game.states[0]]  # the state after each merged row
    open_turn = False
    merged = 0
    for number, row in enumerate(game.rows):
        before = game.states[number]
        if open_turn and rows[-1].seat == row.seat:
            joined = replace(
                rows[-1], notation=engine.join_moves([rows[-1].notation, row.notation])
            )
            start = kept[-2]
            try:  # the service stores only what parse accepts
                engine.parse(start, row.seat, joined.notation)
            except MoveError:
                pass
            else:
                rows[-1], kept[-1] = joined, game.states[number + 1]
                merged += 1
                open_turn = not game.ends[number]
                continue
        assert engine.dump(kept[-1]) == engine.dump(before)
        rows.append(row)
        kept.append(game.states[number + 1])
        open_turn = not game.ends[number]
    assert merged > 5, "no command of several moves was tried"
    states = replay(engine, players, game.seed, game.options, rows)
    assert [engine.dump(s) for s in states] == [engine.dump(s) for s in kept]


def test_states_after_gives_each_rows_moves_and_step() -> None:
    engine = SPECS["desert"].engine
    game = played("desert", 2, seed=9)
    out = list(states_after(engine, game.states[0], game.rows[:12]))
    assert len(out) == 12
    for number, (moves, step) in enumerate(out):
        assert engine.format_command(moves) == (game.rows[number].notation)
        assert engine.dump(step.state) == engine.dump(game.states[number + 1])
        assert step.ends_turn == game.ends[number]


@pytest.mark.parametrize("key", sorted(SPECS))
def test_a_garbled_row_raises_naming_the_row(key: str) -> None:
    engine = SPECS[key].engine
    players = engine.min_players
    game = played(key, players, seed=players + 7)
    rows = list(game.rows)
    at = len(rows) // 2
    rows[at] = Row(rows[at].seat, "garbled 99 zz")
    with pytest.raises(ReplayError) as caught:
        replay(engine, players, game.seed, game.options, rows)
    assert caught.value.index == at and caught.value.row == rows[at]
    assert f"row {at}" in str(caught.value) and "garbled 99 zz" in str(caught.value)
    assert isinstance(caught.value.cause, MoveError)


@pytest.mark.parametrize("key", sorted(SPECS))
def test_a_row_played_by_the_wrong_seat_raises(key: str) -> None:
    """Well-formed notation that is not that seat's move (not its turn)."""
    engine = SPECS[key].engine
    players = engine.min_players
    game = played(key, players, seed=players + 7)
    at = next(i for i in range(len(game.rows) - 1) if game.rows[i].seat != game.rows[i + 1].seat)
    rows = list(game.rows)
    rows[at + 1] = Row(rows[at].seat, rows[at + 1].notation)
    with pytest.raises(ReplayError) as caught:
        replay(engine, players, game.seed, game.options, rows)
    assert caught.value.index == at + 1
    assert rows[at + 1].notation in str(caught.value)


def test_another_seed_does_not_replay_the_same_log() -> None:
    """The seed is part of the log: the same rows from another deal break."""
    engine = SPECS["oasis"].engine
    game = played("oasis", 3, seed=10)
    with pytest.raises(ReplayError):
        replay(engine, 3, game.seed + 1, game.options, game.rows)
