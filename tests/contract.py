"""Games played by their bots, for the contract suite and the tests of what the
platform does with whole games: registered games, option choices, seeded
playouts (bots and random moves mixed, as the service plays AI seats, bots
against random players), event walks."""

from __future__ import annotations

from collections.abc import Collection, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from bot import registry
from bot.replay import Row
from games.contract import Bot, Event, Game, GameSpec, Seat, Step, bot_move
from games.rng import Rng, derive_seed

StateT = TypeVar("StateT")

TEST_GAMES = ("tests.nim",)  # games that exist only in tests/, registered the same way


def all_specs() -> Mapping[str, GameSpec]:
    """Every registered game, the test-only ones included."""
    return registry.load((*registry.GAMES, *TEST_GAMES))


def options_for(spec: GameSpec, seed: int) -> dict[str, str]:
    """An option choice per seed (the defaults for some), so every variant is played."""
    return {o.name: o.choices[seed % len(o.choices)] for o in spec.engine.options}


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
    game = (spec.kind, players, seed, tuple(sorted((options or {}).items())))
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
    raise AssertionError(f"{spec.kind}: no end after {limit} moves")


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
    ), (spec.kind, scores)
    if over and type(engine).scores is not Game.scores:
        outcome = engine.outcome(state)
        assert outcome is not None and scores == outcome.scores, (spec.kind, scores, outcome)


def walk(events: tuple[Event, ...]) -> Iterator[Event]:
    """Every event and every detail inside it."""
    for event in events:
        yield event
        yield from walk(event.details)


@dataclass(frozen=True)
class LoggedPly:
    """A move as the service plays and logs it."""

    before: Any
    row: Row  # the move log's row: the seat and ``format_move``
    move: Any
    step: Step[Any]
    ends: bool  # what the service stores as ends_turn: the turn ended, or the game


def service_playout(
    spec: GameSpec,
    players: int,
    seed: int,
    options: Mapping[str, str] | None = None,
    *,
    game_id: int,
    limit: int = 3000,
) -> Iterator[LoggedPly]:
    """A whole game where the bots play every seat the way the service runs AI
    seats: the first seat to act, its bot through ``bot_move`` with a seed
    derived from ``game_id``, the ply and the seat."""
    engine = spec.engine
    state = engine.new(players, seed, options)
    for ply in range(limit):
        seats = engine.to_act(state)
        if not seats:
            return
        seat = seats[0]
        move = bot_move(engine, spec.bot, state, seat, derive_seed(game_id, ply, seat))
        step = engine.play(state, seat, move)
        ends = engine.outcome(step.state) is not None or step.ends_turn
        yield LoggedPly(state, Row(seat, engine.format_move(move)), move, step, ends)
        state = step.state
    raise AssertionError(f"{spec.kind}: the bots never finish")


def bots_against_random(
    game: Game[StateT, Any],
    bot: Bot,
    players: int,
    seed: int,
    bots: Collection[Seat],
    stop: int | None = None,
) -> tuple[StateT, list[StateT]]:
    """A seeded game: seats in ``bots`` play ``bot``, the others random legal moves.
    Returns the last state and every state a seat moved from (``stop`` at most)."""
    state = game.new(players, seed)
    rng = Rng.from_seed(derive_seed(seed, 1))
    seen: list[StateT] = []
    while game.to_act(state) and (stop is None or len(seen) < stop):
        seen.append(state)
        seat = game.to_act(state)[0]
        if seat in bots:
            move = bot_move(game, bot, state, seat, derive_seed(seed, len(seen)))
        else:
            legal = game.legal_moves(state, seat)
            pick, rng = rng.randbelow(len(legal))
            move = legal[pick]
        state = game.apply(state, seat, move)
    return state, seen
