"""Helpers of the contract suite: registered games, seeded playouts, event walks."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from bot import registry
from games.contract import Event, Game, GameSpec, Seat, Step, bot_move
from games.rng import Rng

TEST_GAMES = ("tests.nim",)  # games that exist only in tests/, registered the same way


def all_specs() -> Mapping[str, GameSpec]:
    """Every registered game, the test-only ones included."""
    return registry.load((*registry.GAMES, *TEST_GAMES))


@dataclass(frozen=True)
class Ply:
    before: Any
    seat: Seat
    move: Any
    step: Step[Any]


def playout(
    spec: GameSpec,
    players: int,
    seed: int,
    options: Mapping[str, str] | None = None,
    *,
    limit: int = 2000,
) -> Iterator[Ply]:
    """A whole game where bots (and, one seat in three, random moves) play every seat.

    When several seats must act, which one moves first is drawn too, so the
    order of simultaneous decisions varies between seeds.
    """
    engine = spec.engine
    state = engine.new(players, seed, options)
    rng = Rng.from_seed(seed ^ 0x5EED)
    # Scores are checked on the first playout of each game only: the same
    # arguments play the same game again, and the suite plays each many times.
    game = (spec.key, players, seed, tuple(sorted((options or {}).items())))
    scored = game in _SCORED
    for ply in range(limit):
        seats = engine.to_act(state)
        if not scored:
            check_scores(spec, players, state, over=not seats)
        if not seats:
            _SCORED.add(game)
            return
        pick, rng = rng.randbelow(len(seats))
        seat = seats[pick]
        if seat % 3 == 2:
            legal = engine.legal_moves(state, seat)
            index, rng = rng.randbelow(len(legal))
            move = legal[index]
        else:
            move = bot_move(engine, spec.bot, state, seat, seed + ply)
        step = engine.play(state, seat, move)
        yield Ply(state, seat, move, step)
        state = step.state
    raise AssertionError(f"{spec.key}: no end after {limit} moves")


_SCORED: set[tuple[str, int, int, tuple[tuple[str, str], ...]]] = set()


def check_scores(spec: GameSpec, players: int, state: Any, *, over: bool) -> None:
    """``Game.scores`` is None or an int per seat at every step; at the end of
    the game, for an engine that implements it, the outcome's scores exactly."""
    engine = spec.engine
    scores = engine.scores(state)
    assert scores is None or (
        isinstance(scores, tuple)
        and len(scores) == players
        and all(type(score) is int for score in scores)
    ), (spec.key, scores)
    if over and type(engine).scores is not Game.scores:
        outcome = engine.outcome(state)
        assert outcome is not None and scores == outcome.scores, (spec.key, scores, outcome)


def walk(events: tuple[Event, ...]) -> Iterator[Event]:
    """Every event and every detail inside it."""
    for event in events:
        yield event
        yield from walk(event.details)
