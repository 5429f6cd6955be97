"""Scores over a finished game (bot/timeline.py) and its chart (cogs/chart.py).

Whole games are played the way the service plays AI seats (the first AI seat
to act, its bot through ``bot_move``, one row per move holding
``format_move``, ``ends_turn`` as the service stores it); the series rebuilt
from those rows must start at the game's first scores and end at its outcome.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from functools import cache

import discord
import pytest
from PIL import Image

from bot import registry
from bot.replay import ReplayError, Row, replay
from bot.service import GameService
from bot.timeline import MAX_POINTS, sample_evenly, score_series, turn_ends
from cogs.chart import final_chart
from games.desert import GAME as DESERT
from tests.contract import all_specs, service_playout
from tests.service_games import BOB, CHANNEL, play_turn_as_ai, start_desert

SPECS = registry.specs()
GAME_ID = 77


def players_for(key: str) -> int:
    """Two players, or the fewest the game allows (Oasis needs three)."""
    return max(2, SPECS[key].engine.min_players)


@dataclass(frozen=True)
class Played:
    seed: int
    rows: tuple[Row, ...]
    ends: tuple[bool, ...]  # what the service stores as ends_turn for each row


@cache
def played(key: str, seed: int = 5) -> Played:
    """A whole game where the bots play every seat, as the service runs them."""
    plies = tuple(service_playout(SPECS[key], players_for(key), seed, {}, game_id=GAME_ID))
    return Played(seed, tuple(p.row for p in plies), tuple(p.ends for p in plies))


def test_every_registered_game_gives_scores() -> None:
    for spec in SPECS.values():
        engine = spec.engine
        scores = engine.scores(engine.new(players_for(spec.kind), 1, {}))
        assert scores is not None and len(scores) == players_for(spec.kind), spec.kind


@pytest.mark.parametrize("key", sorted(SPECS))
def test_a_whole_game_goes_from_its_first_scores_to_its_outcome(key: str) -> None:
    engine = SPECS[key].engine
    players = players_for(key)
    game = played(key)
    series = score_series(engine, players, game.seed, {}, game.rows, game.ends)
    assert series is not None and len(series) == players
    lengths = {len(points) for points in series}
    assert len(lengths) == 1 and 2 <= lengths.pop() <= MAX_POINTS
    assert all(type(p) is int for points in series for p in points)
    first = engine.scores(engine.new(players, game.seed, {}))
    assert tuple(points[0] for points in series) == first
    final = replay(engine, players, game.seed, {}, game.rows)[-1]
    outcome = engine.outcome(final)
    assert outcome is not None
    assert tuple(points[-1] for points in series) == outcome.scores == engine.scores(final)


def test_one_point_at_the_start_and_after_each_turn() -> None:
    """Unsampled, the series is the scores at the start and at every turn's end."""
    engine = SPECS["desert"].engine
    players = players_for("desert")
    game = played("desert")
    assert not all(game.ends), "a Desert game has turns of two camels"
    series = score_series(engine, players, game.seed, {}, game.rows, game.ends, limit=10**6)
    assert series is not None
    states = replay(engine, players, game.seed, {}, game.rows)
    expected = [engine.scores(states[0])] + [
        engine.scores(states[i + 1]) for i, end in enumerate(game.ends) if end
    ]
    assert [tuple(points[i] for points in series) for i in range(len(expected))] == expected
    assert len(series[0]) == len(expected) == 1 + sum(game.ends)


def test_long_games_are_sampled_keeping_the_start_and_the_end() -> None:
    engine = SPECS["oasis"].engine
    players = players_for("oasis")
    game = played("oasis")
    assert sum(game.ends) + 1 > MAX_POINTS, "the test needs a game longer than the chart"
    whole = score_series(engine, players, game.seed, {}, game.rows, game.ends, limit=10**6)
    sampled = score_series(engine, players, game.seed, {}, game.rows, game.ends)
    assert whole is not None and sampled is not None
    for all_points, points in zip(whole, sampled, strict=True):
        assert len(points) == MAX_POINTS
        assert points[0] == all_points[0] and points[-1] == all_points[-1]


def test_even_sampling() -> None:
    items = list(range(1000))
    picked = sample_evenly(items, 61)
    assert len(picked) == 61 and picked[0] == 0 and picked[-1] == 999
    assert picked == sorted(set(picked))
    gaps = {b - a for a, b in zip(picked, picked[1:], strict=False)}
    assert max(gaps) - min(gaps) <= 1
    assert sample_evenly(items[:61], 61) == items[:61]
    assert sample_evenly(items[:62], 61)[-1] == 61
    assert sample_evenly([7], 61) == [7]
    with pytest.raises(ValueError):
        sample_evenly(items, 1)


def test_turn_ends_pick_the_start_each_turn_end_and_the_end() -> None:
    assert turn_ends(4, [False, True, False, True]) == [0, 2, 4]
    assert turn_ends(3, [True, False, False]) == [0, 1, 3]  # the final state always
    assert turn_ends(2) == [0, 1, 2]
    assert turn_ends(0, []) == [0]
    with pytest.raises(ValueError):
        turn_ends(2, [True])


def test_a_game_without_scores_gives_no_series() -> None:
    nim = all_specs()["nim"].engine
    assert nim.scores(nim.new(2, 1, {})) is None
    assert score_series(nim, 2, 1, {}, []) is None


def test_a_log_that_does_not_replay_is_an_error() -> None:
    game = played("desert")
    rows = list(game.rows)
    rows[3] = Row(rows[3].seat, "garbled 99 zz")
    with pytest.raises(ReplayError):
        score_series(DESERT, 2, game.seed, {}, rows, game.ends)


# --------------------------------------------------------------------------- the chart


async def test_a_finished_game_gets_its_chart(
    service: GameService, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await start_desert(service, bots=1)
    assert await final_chart(service, session, "en") is None  # still running
    for _ in range(200):
        if session.record.status != "active":
            break
        session = await play_turn_as_ai(service, session)
    assert session.record.status == "finished" and session.outcome is not None
    for lang, title in (("en", "Scores over the game"), ("fr", "Les scores au fil de la partie")):
        chart = await final_chart(service, session, lang)
        assert chart is not None
        embed, file = chart
        assert isinstance(embed, discord.Embed) and isinstance(file, discord.File)
        assert embed.title == title
        assert embed.image.url == "attachment://scores.png" and file.filename == "scores.png"
        image = Image.open(io.BytesIO(file.fp.read()))
        assert image.format == "PNG" and image.width > 100 and image.height > 100
        image.load()

    def broken(*args: object, **kwargs: object) -> bytes:
        raise RuntimeError("no chart today")

    # Any failure is logged and gives no chart: the final post goes out anyway.
    monkeypatch.setattr("cogs.chart.score_chart", broken)
    assert await final_chart(service, session, "en") is None


async def test_a_game_ended_by_resignation_has_no_chart(service: GameService) -> None:
    session = await start_desert(service, BOB)
    while session.progress < 0.5:  # half the game, so it counts
        session = await play_turn_as_ai(service, session)
    report = await service.resign(CHANNEL, BOB)
    assert report.ended and report.after.record.status == "finished"
    assert report.after.outcome is None
    assert await final_chart(service, report.after, "en") is None
