"""Makes a CPU worker's first board as fast as its next ones.

A fresh process spends about 200 ms on its first board of each game (fonts
opened, each picture's static layers drawn and cached), about ten times a
board's own cost, and more on the first of each table size and of each seat's
pieces. :func:`warm` draws a half-played board of every game at its largest
table (every seat's pieces out) to pay most of that up front, in well under
a second. Importing this module runs it, once per
process: the pool names it as its forkserver's
preload (:mod:`bot.cpu`), so the forkserver warms once and every worker forked
from it, a replacement after a crash included, starts warm (copy-on-write).
Where there is no forkserver (spawn), each worker imports it itself.
"""

from __future__ import annotations

import contextlib
import random
from typing import Any

from bot import registry
from bot.drawing import draw_board
from games.contract import GameSpec

HALF = 0.5  # the boards drawn are this far into their game (every seat's pieces out)
MAX_PLIES = 300  # a game whose progress stays under HALF is drawn after this many moves


def half_played(spec: GameSpec, players: int, seed: int = 0) -> Any:
    """A game of ``players`` seats played at random to half its course (random
    legal moves: a bot's would cost seconds, and any board will do)."""
    engine, rng = spec.engine, random.Random(seed)
    state = engine.new(players, seed, {})
    for _ in range(MAX_PLIES):
        seats = engine.to_act(state)
        if not seats or engine.progress(state) >= HALF:
            break
        state = engine.apply(state, seats[0], rng.choice(engine.legal_moves(state, seats[0])))
    return state


def warm_one(spec: GameSpec) -> None:
    """What a turn post asks a worker (``bot.drawing.draw_board``: the view, the
    board, the summary) for two half-played games at the largest table."""
    engine, players = spec.engine, spec.engine.max_players
    names = [f"P{seat + 1}" for seat in range(players)]
    for seed in (0, 1):
        state = half_played(spec, players, seed)
        draw_board(spec.load_picture(), engine, state, None, names, "en", [None] * players)


def warm() -> None:
    """Every registered game's first boards; a game that fails is skipped (its
    first real board will say why, in the worker that draws it)."""
    for spec in registry.specs().values():
        with contextlib.suppress(Exception):
            warm_one(spec)


warm()
