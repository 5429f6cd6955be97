"""Bot levels: ``easy`` (the game's greedy bot), ``normal`` and ``hard`` (the
search of games/search.py, with less or more time), and :func:`play_level`,
the one function that plays one decision for a level.

A game declares its levels in its spec: ``GameSpec(..., bots=search_bots(
choose_move, evaluate, policy))``; a spec without them has ``easy`` only, and
:func:`play_level` plays a level the game lacks as the highest it has below it.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from games.contract import Bot, Budget, GameSpec, GreedyBot, LevelBot, Seat
from games.search import Evaluate, Policy, SearchBot, Tuning, greedy_policy

LEVELS = ("easy", "normal", "hard")

# The default budgets (seconds of one core per decision) and how they are spent.
NORMAL = Tuning(seconds=0.25)
HARD = Tuning(seconds=1.0)


def search_bots(
    bot: Bot,
    evaluate: Evaluate,
    policy: Policy | None = None,
    *,
    rollout_turns: int | None = 1,
) -> dict[str, LevelBot]:
    """A game's three levels from its greedy bot, its evaluation and its rollout
    policy (the greedy bot on the seat's view, if none). ``rollout_turns``: how
    far a rollout plays before the evaluation, in turns (None: a round); one
    (the rest of the turn) suits long turns, a round short ones."""
    rollout = policy if policy is not None else greedy_policy(bot)
    return {
        "easy": GreedyBot(bot),
        "normal": SearchBot(evaluate, rollout, replace(NORMAL, rollout_turns=rollout_turns)),
        "hard": SearchBot(evaluate, rollout, replace(HARD, rollout_turns=rollout_turns)),
    }


def level_bot(spec: GameSpec, level: str) -> LevelBot:
    """The bot of ``level`` (one of :data:`LEVELS`), or of the highest level
    below it that the game has."""
    if level not in LEVELS:
        raise ValueError(f"no bot level {level!r} (levels: {', '.join(LEVELS)})")
    for name in reversed(LEVELS[: LEVELS.index(level) + 1]):
        if name in spec.bots:
            return spec.bots[name]
    return GreedyBot(spec.bot)


def play_level(
    spec: GameSpec,
    level: str,
    state: Any,
    seat: Seat,
    seed: int,
    *,
    seconds: float | None = None,
    iterations: int | None = None,
) -> Any:
    """The move a bot of ``level`` makes for ``seat`` now.

    ``state`` is the true state; the bot learns from it only what ``seat``
    sees (see games/search.py). ``seed`` is the bot's own random stream (never
    the game's seed). Budget: ``seconds`` of thinking and/or ``iterations`` of
    search (deterministic: same arguments, same move); neither given, the
    level's default (``normal`` 0.25 s, ``hard`` 1 s). ``easy`` ignores it.
    Raises ValueError for an unknown level or a seat with no move to make.
    Run it in a CPU worker, never on the event loop: it takes its budget.
    """
    budget = None if seconds is None and iterations is None else Budget(seconds, iterations)
    return level_bot(spec, level)(spec.engine, state, seat, seed, budget)
