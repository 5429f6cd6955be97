"""Benchmarks of async play: judging an undo, replaying a finished game as a
GIF, and looking at turn clocks with many games in the database.

An undo is judged before /game undo answers (a replay of the whole log from
the seed, then resampled twins), so it must stay far inside Discord's 3 s.
A replay is deferred, but a player waits for it. The clock check runs every
minute over the due index.
"""

from __future__ import annotations

import asyncio
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from benchmarks.common import Figure, percentile
from bot.replay import Row, replay
from bot.service import GameService, Limits
from bot.storage import open_storage
from bot.undo_rules import judge
from games.contract import GameSpec, bot_move
from games.rng import derive_seed
from render.replay import MAX_BYTES, animate, sample_indices

MAX_FRAMES = 60


def bot_game(
    spec: GameSpec, players: int, seed: int
) -> tuple[list[Row], list[bool], dict[str, str]]:
    """A whole bot game as the move log stores it: rows and whether each ended a turn."""
    engine = spec.engine
    options: dict[str, str] = {}
    state = engine.new(players, seed, options)
    rows: list[Row] = []
    ends: list[bool] = []
    while seats := engine.to_act(state):
        seat = seats[0]
        move = bot_move(engine, spec.bot, state, seat, derive_seed(seed, len(rows), seat))
        step = engine.play(state, seat, move)
        state = step.state
        rows.append(Row(seat, engine.format_move(move)))
        ends.append(engine.outcome(state) is not None or step.ends_turn)
    return rows, ends, options


def bench_undo(spec: GameSpec, positions: int) -> list[Figure]:
    """The undo of a late command: the replay of everything before it, then the judgement."""
    engine = spec.engine
    players = engine.max_players
    rows, ends, options = bot_game(spec, players, seed=7)
    samples = []
    for back in range(2, 2 + positions):
        index = len(rows) - back
        start = time.perf_counter()
        before = replay(engine, players, 7, options, rows[:index])[-1]
        judge(
            engine,
            before,
            rows[index : index + 1],
            rows[index].seat,
            ai_seats=(),
            ends_turn=ends[index : index + 1],
            players=players,
        )
        samples.append(time.perf_counter() - start)
    p95 = percentile(samples, 0.95)
    return [
        Figure(
            f"{spec.kind}: /game undo judged late in a {players}-player game"
            f" ({len(rows)} rows), p95",
            f"{p95 * 1000:.0f} ms",
            "≤ 1000 ms",
            p95 <= 1,
        )
    ]


def bench_replay_gif(spec: GameSpec) -> list[Figure]:
    """A finished game's GIF: rebuild, draw the sampled frames, animate."""
    engine = spec.engine
    players = engine.max_players
    rows, ends, options = bot_game(spec, players, seed=11)
    start = time.perf_counter()
    states = replay(engine, players, 11, options, rows)
    turn_ends = [0, *(i + 1 for i, ended in enumerate(ends) if ended)]
    if turn_ends[-1] != len(rows):
        turn_ends.append(len(rows))
    chosen = [turn_ends[i] for i in sample_indices(len(turn_ends), MAX_FRAMES)]
    names = [f"P{seat + 1}" for seat in range(players)]
    draw = spec.load_picture().board
    frames = [draw(engine.view(states[i], None), names, "en", ()) for i in chosen]
    gif = animate(frames, limit=MAX_FRAMES)
    seconds = time.perf_counter() - start
    return [
        Figure(
            f"{spec.kind}: /game replay of a {players}-player game ({len(chosen)} frames)",
            f"{seconds:.1f} s, {len(gif) / 1e6:.2f} MB",
            f"≤ 15 s, ≤ {MAX_BYTES / 1e6:.1f} MB",
            seconds <= 15 and len(gif) <= MAX_BYTES,
        )
    ]


async def bench_clocks(spec: GameSpec, games: int) -> list[Figure]:
    """Many running games: the minutely look when none is due, and when all are."""
    with tempfile.TemporaryDirectory() as folder:
        storage = await open_storage(f"sqlite:///{Path(folder) / 'clocks.db'}")
        try:
            unbounded = Limits(lobbies=games, games=games)
            service = GameService(storage, {spec.kind: spec}, unbounded)
            for channel in range(1, games + 1):
                await service.create(
                    kind=spec.kind, guild_id=1, channel_id=channel, user_id=1, name="A"
                )
                await service.join(channel, 2, "B")
                await service.start(channel, 1, first=0)
            now = datetime.now(UTC)
            quiet = []
            for _ in range(20):
                start = time.perf_counter()
                assert await service.absence.due(now) == []
                quiet.append(time.perf_counter() - start)
            start = time.perf_counter()
            news = await service.absence.due(now + timedelta(hours=13))
            busy = time.perf_counter() - start
            assert len(news) == games
        finally:
            await storage.close()
    quiet_p95 = percentile(quiet, 0.95)
    return [
        Figure(
            f"clocks: look with {games} running games, none due, p95",
            f"{quiet_p95 * 1000:.2f} ms",
            "≤ 50 ms",
            quiet_p95 <= 0.05,
        ),
        Figure(
            f"clocks: {games} games due at once, per game",
            f"{busy / games * 1000:.2f} ms",
            "≤ 20 ms",
            busy / games <= 0.02,
        ),
    ]


def async_play_figures(specs: list[GameSpec], scale: float) -> list[Figure]:
    figures: list[Figure] = []
    for spec in specs:
        figures += bench_undo(spec, max(5, int(20 * scale)))
        figures += bench_replay_gif(spec)
    desert = next(s for s in specs if s.kind == "desert")
    figures += asyncio.run(bench_clocks(desert, max(100, int(1000 * scale))))
    return figures
