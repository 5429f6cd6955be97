"""The bot levels (games/levels.py) and their search (games/search.py), on every game.

Legal decisions at every player count, determinism under an iteration
budget, the time budget, and fair play: the search reads the state only
through ``resample``, so states that look the same to the deciding seat
(twins resampled for it) get the same decision; a bot written on purpose to
search the true state instead is caught by the same comparison.
"""

from __future__ import annotations

import functools
import math
import pickle
import time
from dataclasses import replace
from typing import Any

import pytest

from bot import registry
from games.contract import Budget, Game, GameSpec, GreedyBot, Outcome, Seat, bot_move
from games.levels import LEVELS, level_bot, play_level
from games.rng import Rng, derive_seed
from games.search import Search, SearchBot, outcome_rewards, win_shares
from tests.contract import all_specs, options_for

SPECS = all_specs()
SEARCHED = {key: spec for key, spec in SPECS.items() if "hard" in spec.bots}
COUNTS = [
    (key, players)
    for key, spec in SEARCHED.items()
    for players in range(spec.engine.min_players, spec.engine.max_players + 1)
]
TABLES = [  # the smallest and the largest table of every game
    (key, players)
    for key, spec in SEARCHED.items()
    for players in sorted({spec.engine.min_players, spec.engine.max_players})
]
ITERATIONS = 12  # small budgets: these tests are about behaviour, not strength


@functools.cache
def greedy_game(key: str, players: int, seed: int) -> tuple[tuple[Any, Seat], ...]:
    """Every decision of a seeded greedy game: (state, the seat that decides)."""
    spec = SPECS[key]
    engine = spec.engine
    state = engine.new(players, seed, options_for(spec, seed))  # options vary with the seed
    out = []
    ply = 0
    while seats := engine.to_act(state):
        out.append((state, seats[0]))
        state = engine.apply(state, seats[0], bot_move(engine, spec.bot, state, seats[0], ply))
        ply += 1
    return tuple(out)


def decisions_at(
    key: str, players: int, fractions: tuple[float, ...], seed: int = 11
) -> list[tuple[Any, Seat]]:
    """Decisions with a choice (two legal moves or more), at these shares of a game."""
    engine = SPECS[key].engine
    plies = greedy_game(key, players, seed)
    out = []
    for fraction in fractions:
        for state, seat in plies[int(fraction * (len(plies) - 1)) :]:
            if len(engine.legal_moves(state, seat)) > 1:
                out.append((state, seat))
                break
    return out


# --------------------------------------------------------------------------- levels


def test_every_registered_game_has_the_three_levels() -> None:
    assert set(LEVELS) == {"easy", "normal", "hard"}
    real = [spec for spec in SPECS.values() if spec.package in registry.GAMES]
    assert len(real) == len(registry.GAMES)
    for spec in real:
        assert set(spec.bots) == set(LEVELS), spec.kind
        assert spec.bots["easy"] == GreedyBot(spec.bot)


def test_a_spec_without_levels_keeps_its_bot_as_easy() -> None:
    """The test game declares none: ``easy`` comes from its bot, and a level it
    lacks plays as the highest it has below it."""
    spec = SPECS["nim"]
    assert set(spec.bots) == {"easy"} and level_bot(spec, "hard") == GreedyBot(spec.bot)
    state = spec.engine.new(2, 3)
    seat = spec.engine.to_act(state)[0]
    expected = bot_move(spec.engine, spec.bot, state, seat, 5)
    assert play_level(spec, "hard", state, seat, 5, iterations=3) == expected
    with pytest.raises(ValueError, match="level"):
        play_level(spec, "grandmaster", state, seat, 5)


def test_level_bots_travel_to_a_cpu_worker() -> None:
    """A worker process gets the bot pickled, as bot/cpu.py sends its jobs."""
    for spec in SEARCHED.values():
        for level, bot in spec.bots.items():
            assert pickle.loads(pickle.dumps(bot)) == bot, (spec.kind, level)


@pytest.mark.parametrize(("key", "players"), COUNTS)
def test_levels_make_legal_moves(key: str, players: int) -> None:
    spec = SEARCHED[key]
    engine = spec.engine
    for state, first in decisions_at(key, players, (0.0, 0.5, 0.9)):
        for seat in engine.to_act(state):  # an off-turn seat too (a Nomadi bribe)
            legal = engine.legal_moves(state, seat)
            for level in LEVELS:
                move = play_level(spec, level, state, seat, 7, iterations=ITERATIONS // 2)
                assert move in legal, (level, move)
        assert play_level(spec, "easy", state, first, 7) == bot_move(
            engine, spec.bot, state, first, 7
        )


@pytest.mark.parametrize("key", sorted(SPECS))
def test_a_simulated_step_plays_as_the_real_one(key: str) -> None:
    """What a search plays (``Game.simulate``) may leave out only what pictures
    read: every seat's legal moves, who acts, the end, the views' decisions and
    the evaluation are those of ``play`` along a whole greedy game."""
    spec = SPECS[key]
    engine = spec.engine
    state = engine.new(engine.max_players, 11, options_for(spec, 11))
    evaluate = spec.bots["hard"].evaluate if "hard" in spec.bots else None  # type: ignore[attr-defined]
    ply = 0
    while (seats := engine.to_act(state)) and ply < 400:
        seat = seats[0]
        move = bot_move(engine, spec.bot, state, seat, ply)
        played, simulated = engine.play(state, seat, move), engine.simulate(state, seat, move)
        assert simulated.ends_turn == played.ends_turn, (ply, move)
        after, sim = played.state, simulated.state
        assert engine.to_act(sim) == engine.to_act(after), ply
        assert engine.outcome(sim) == engine.outcome(after), ply
        assert engine.decisions(sim) == engine.decisions(after), ply
        for other in range(engine.max_players):
            assert engine.legal_moves(sim, other) == engine.legal_moves(after, other), ply
        if evaluate is not None:
            assert evaluate(sim) == evaluate(after), ply
        state, ply = after, ply + 1


@pytest.mark.parametrize("seed", [0, 1])
def test_a_seat_owing_an_optional_decision_searches_it(seed: int) -> None:
    """Nomadi with bribes: while the active seat owes its dice, the others may
    bribe it; a searching bot decides for such a seat too, at the root, and
    the active seat's decision goes on below it."""
    spec = SEARCHED["nomadi"]
    engine = spec.engine
    state = engine.new(3, seed, {"bribes": "on"})
    while True:
        seats = engine.to_act(state)
        if len(seats) > 1:
            break
        state = engine.apply(state, seats[0], bot_move(engine, spec.bot, state, seats[0], 1))
    for seat in seats[1:]:
        move = play_level(spec, "hard", state, seat, 3, iterations=ITERATIONS)
        assert move in engine.legal_moves(state, seat)


@pytest.mark.parametrize(("key", "players"), TABLES)
def test_a_seeded_search_with_an_iteration_budget_is_deterministic(key: str, players: int) -> None:
    spec = SEARCHED[key]
    for state, seat in decisions_at(key, players, (0.3, 0.7)):
        first = play_level(spec, "hard", state, seat, 21, iterations=ITERATIONS)
        assert play_level(spec, "hard", state, seat, 21, iterations=ITERATIONS) == first


def test_a_decision_keeps_to_its_time_budget() -> None:
    """Even the widest decision of each game (hundreds of placements, ranked
    one by one) stops at its budget. Counted in this thread's CPU time, which
    a busy machine does not stretch nor another thread of the test run add to
    (the budget itself is wall-clock time, and a thread cannot work longer than
    the wall clock runs): a search that ignored its budget would work on far
    past it."""
    for key, spec in SEARCHED.items():
        engine = spec.engine
        plies = greedy_game(key, engine.max_players, 11)
        state, seat = max(plies, key=lambda p: len(engine.legal_moves(p[0], p[1])))
        start = time.thread_time()
        move = play_level(spec, "hard", state, seat, 3, seconds=0.2)
        worked = time.thread_time() - start
        assert move in engine.legal_moves(state, seat)
        assert worked < 1.0, (key, worked)  # 5 budgets: room for a garbage collection


def test_rewards_are_shares_in_the_unit_interval() -> None:
    won = outcome_rewards(Outcome.from_scores([30, 20, 25]))
    assert all(0 <= r <= 1 for r in won) and won[0] > won[2] > won[1]
    tied = outcome_rewards(Outcome.from_scores([30, 30]))
    assert tied[0] == tied[1] and 0.25 < tied[0] < 0.75
    shares = win_shares([10.0, 12.0, 4.0], spread=3.0)
    assert math.isclose(sum(shares), 1) and shares[1] > shares[0] > shares[2]


# --------------------------------------------------------------------------- fair play


class PeekingBot(SearchBot):
    """Written on purpose to cheat: the same search, on the true state itself
    (its hidden cards, draw order and PRNG) instead of worlds resampled for
    the seat. The fair-play comparison below must catch it."""

    def search(
        self, game: Game[Any, Any], state: Any, seat: Seat, seed: int, budget: Budget | None = None
    ) -> Search:
        search = Search(game, self.evaluate, self.policy, self.tuning, seat, seed)
        search.started, search.deadline = time.perf_counter(), math.inf
        assert budget is not None and budget.iterations is not None
        for k in range(budget.iterations):
            search.iterate(state, Rng.from_seed(derive_seed(seed, k, 1)))
        search.move = search.choice(game.legal_moves(state, seat))
        return search


LATE = (0.5, 0.85, 0.95)  # where hidden things weigh most: near the end


def disagreements(spec: GameSpec, bot: SearchBot, tables: list[int]) -> list[str]:
    """Decisions that differ between states the deciding seat cannot tell apart
    (the state itself and two twins ``resample`` draws for that seat): the move,
    or the search behind it (each move's visits and rewards at the root), which
    must not vary either, since the search reads nothing but resampled worlds."""
    engine = spec.engine
    found = []
    for players in tables:
        for state, seat in decisions_at(spec.kind, players, LATE):
            twins = [state, *(engine.resample(state, seat, 1000 + k) for k in range(2))]
            assert all(engine.view(t, seat) == engine.view(state, seat) for t in twins)
            searches = [bot.search(engine, t, seat, 5, Budget(None, ITERATIONS)) for t in twins]
            moves = {engine.format_move(s.move) for s in searches}
            if len(moves) > 1:
                found.append(f"{players} players, seat {seat}: moves {sorted(moves)}")
            elif len({s.summary() for s in searches}) > 1:
                found.append(f"{players} players, seat {seat}: same move, other search")
    return found


@pytest.mark.parametrize("key", sorted(SEARCHED))
def test_the_search_decides_from_what_the_seat_sees(key: str) -> None:
    spec = SEARCHED[key]
    hard = spec.bots["hard"]
    assert isinstance(hard, SearchBot)
    tables = sorted({spec.engine.min_players, spec.engine.max_players})
    assert disagreements(spec, hard, tables) == []


@pytest.mark.parametrize("key", sorted(SEARCHED))
def test_a_peeking_bot_is_caught(key: str) -> None:
    """The same comparison tells a bot that reads hidden things: some sampled
    decision's move changes with what the seat cannot see. This peeker takes
    the best mean at the root (``doubt=0``): the shipped tuning keeps to the
    greedy move unless the evidence is clear, so it would mostly differ in its
    search only. The honest search's root statistics being the same across
    twins (above), its move is the same under any ``doubt``."""
    spec = SEARCHED[key]
    hard = spec.bots["hard"]
    assert isinstance(hard, SearchBot)
    peeking = PeekingBot(hard.evaluate, hard.policy, replace(hard.tuning, doubt=0.0))
    tables = sorted({spec.engine.min_players, spec.engine.max_players})
    assert [found for found in disagreements(spec, peeking, tables) if "moves" in found]
