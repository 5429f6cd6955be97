"""The score-over-time chart of a finished game, for every front end (the final
post in Discord, the game's web page).

The move log is replayed into each seat's score series (:mod:`bot.timeline`),
labelled in the chart's language and drawn in the CPU pool. The drawing
function is a parameter (``render.chart.score_chart`` in the bot): the
platform never imports Pillow or ``render/``, and a worker draws it by
reference.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from bot import i18n
from bot.replay import Row
from bot.service import GameService
from bot.session import Session
from bot.timeline import MAX_POINTS, sample_evenly, score_series, turn_ends

# ``render.chart.score_chart``: (series, names, lang, *, title, x_label, winners,
# turns, colours) -> PNG bytes. Picklable (a module-level function, or a partial of one).
ChartDrawing = Callable[..., bytes]


def has_chart(session: Session) -> bool:
    """Whether the game may have a chart: finished by its own rules (with an
    outcome; a game ended by resignations has none) and loadable."""
    return (
        not session.broken
        and session.hosted_spec is not None
        and session.record.status == "finished"
        and session.outcome is not None
    )


async def score_chart_png(
    service: GameService, session: Session, lang: str, draw: ChartDrawing
) -> bytes | None:
    """The chart of a finished game as PNG, its texts in ``lang``; None when the
    game has none (see :func:`has_chart`, or the engine gives no scores).

    The replay and the drawing run in the service's CPU pool. Raises what they
    raise (:class:`bot.replay.ReplayError` for a log that no longer replays):
    each front end decides how a failure shows.
    """
    if not has_chart(session):
        return None
    record = session.record
    counting = [m for m in await service.storage.moves(session.id) if m.counts]
    rows = [Row(m.seat, m.notation) for m in counting]
    ends = [m.ends_turn for m in counting]
    series = await service.cpu.run(
        score_series, session.engine, len(record.seats), record.seed, record.options, rows, ends
    )
    if series is None:
        return None
    winners = tuple(s.seat for s in session.standings() if s.won)
    language = i18n.language(lang)
    # The x axis counts points in time: the start, then each turn's end.
    points = turn_ends(len(rows), ends)
    turns = len(points) - 1
    if len(points) > MAX_POINTS:
        x_label = i18n.t(language, "chart.x_label_sampled", count=turns)
    else:
        x_label = i18n.t(language, "chart.x_label")
    numbers = {index: turn for turn, index in enumerate(points)}  # 0: the start
    # Each seat's line in the colour it wears on the board (Nomadi's, Oasis's own).
    picture = session.spec.load_picture()
    colours = tuple(picture.seat_colour(seat) for seat in range(len(record.seats)))
    drawing = partial(
        draw,
        title=i18n.t(language, f"{session.kind}.title"),
        x_label=x_label,
        winners=winners,
        turns=[numbers[i] for i in sample_evenly(points, MAX_POINTS)],
        colours=colours,
    )
    png: bytes = await service.cpu.run(drawing, series, session.names, language)
    return png
