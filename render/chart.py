"""The score-over-time chart shown at the end of a game.

One line per seat in the seat's colour, its marker shape (and so its
identity without colour) at the last point, and at the line's end a label:
the final score and the player's name, in gold for the winners. Labels of
close scores are spread apart vertically (each as near its line's end as
the others allow) and joined to their line by a short leader. Lines with
equal scores are drawn a line's width apart, so none hides another.

Looks like the boards (dark backdrop, paper and muted text) and reads on a
phone: 1000 px wide, every text legible once shown
:data:`render.text.PHONE_WIDTH` px wide (:func:`render.text.legible_size`).

Example::

    png = score_chart(
        [[0, 3, 5, 9], [0, 4, 4, 7]], ["Alice", "Bob"], "en",
        title="Scores", x_label="Turn", winners={0},
    )
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from render.palette import (
    BACKDROP,
    GOLD,
    INK,
    MUTED,
    PAPER,
    RGB,
    contrast_ratio,
    mix,
    player_style,
)
from render.png import png_bytes
from render.shapes import Point, draw_shape
from render.text import display_names, draw_text, fit_text, legible_size, text_width

WIDTH = 1000
HEIGHT = 600
MARGIN = 24  # px from the image's sides to any text
SCALE = 3  # supersampling of the lines and markers

TITLE_SIZE = legible_size("status", WIDTH, 30)
TICK_SIZE = legible_size("coordinate", WIDTH, 20)
AXIS_SIZE = legible_size("title", WIDTH, 22)
LABEL_SIZE = legible_size("name", WIDTH, 24)  # names and final scores
LABEL_STEP = math.ceil(LABEL_SIZE * 1.4)  # px between the centres of two end labels

TITLE_BASELINE = 46
PLOT_TOP = 86
PLOT_BOTTOM = HEIGHT - 96
TICK_BASELINE = PLOT_BOTTOM + 36  # of the turn numbers
AXIS_BASELINE = HEIGHT - 20  # of the x axis label
PLOT_RIGHT = 636  # the lines' end; the end labels are to its right
LABEL_LEFT = PLOT_RIGHT + 56  # where the end labels start, after the leaders
LABEL_TOP = PLOT_TOP - 14  # the end labels' centres stay between these two
LABEL_BOTTOM = PLOT_BOTTOM + 8
SCORE_GAP = 10  # px between a label's parts

LINE = 4  # px, width of a score line
HALO = 2  # px of edge each side of a line (dark, or light for a dark line)
MARKER = 10  # px, radius of the end markers
LABEL_MARKER = 8  # px, radius of the marker before each end label
MINUS = "\u2212"
MOST_TICKS = 6

GRID: tuple[int, int, int] = mix(BACKDROP, MUTED, 0.2)
AXIS: tuple[int, int, int] = mix(BACKDROP, MUTED, 0.5)
SHADOW: tuple[int, int, int] = mix(BACKDROP, INK, 0.6)
DARK_LINE_CONTRAST = 2.0  # below it against the backdrop, a line gets a light edge


def number(value: int) -> str:
    """``value`` as shown, with a real minus sign."""
    return str(value).replace("-", MINUS)


def nice_ticks(low: int, high: int, most: int = MOST_TICKS) -> list[int]:
    """At most ``most`` round values (multiples of 1, 2 or 5 x 10^k) from ``low`` to ``high``."""
    step = 1
    while True:
        for m in (1, 2, 5):
            first, last = -(-low // (step * m)), high // (step * m)
            if last - first + 1 <= most:
                return [k * step * m for k in range(first, last + 1)]
        step *= 10


@dataclass(frozen=True)
class Plot:
    """Where the chart draws values: the plot box and the value ranges."""

    left: float
    seats: int
    length: int  # points in time, drawn at x = 1…length
    low: int  # value at the bottom
    high: int  # value at the top
    top: float = PLOT_TOP
    right: float = PLOT_RIGHT
    bottom: float = PLOT_BOTTOM

    def x(self, turn: float) -> float:
        """The x of point ``turn`` (1 to :attr:`length`); a lone point sits at the end."""
        if self.length == 1:
            return self.right
        return self.left + (turn - 1) / (self.length - 1) * (self.right - self.left)

    def y(self, value: float) -> float:
        return self.bottom - (value - self.low) / (self.high - self.low) * (self.bottom - self.top)

    def dodge(self, seat: int) -> float:
        """Vertical offset of ``seat``'s line, so lines of equal scores lie side by side."""
        return (seat - (self.seats - 1) / 2) * LINE

    def point(self, seat: int, index: int, value: float) -> Point:
        """Where ``seat``'s line passes at its ``index``-th point (from 0), of ``value``."""
        return self.x(index + 1), self.y(value) + self.dodge(seat)


def plot_for(series: Sequence[Sequence[int]]) -> Plot:
    """The plot of ``series`` (checked: one or more seats, all of the same length >= 1)."""
    if not series:
        raise ValueError("no series to chart")
    length = len(series[0])
    if length < 1 or any(len(s) != length for s in series):
        raise ValueError("every series needs the same length, at least 1")
    low = min(0, *(min(s) for s in series))
    high = max(max(s) for s in series)
    if high <= low:
        high = low + 1
    widest = max(text_width(number(v), TICK_SIZE) for v in nice_ticks(low, high))
    return Plot(left=MARGIN + widest + 14, seats=len(series), length=length, low=low, high=high)


def spread(wanted: Sequence[float], gap: float, low: float, high: float) -> list[float]:
    """Positions as near ``wanted`` (sorted) as possible, in least squares, in the
    same order, at least ``gap`` apart, and within ``low``…``high`` if they fit.

    With ``q_i = p_i - i * gap`` the gaps hold when ``q`` never decreases: an
    isotonic regression (pool adjacent violators), then clipped to the bounds.
    """
    blocks: list[tuple[float, int]] = []  # pooled shifted targets: (sum, count)
    for i, w in enumerate(wanted):
        total, count = w - i * gap, 1
        while blocks and blocks[-1][0] / blocks[-1][1] > total / count:
            before, many = blocks.pop()
            total, count = total + before, count + many
        blocks.append((total, count))
    ceiling = max(low, high - (len(wanted) - 1) * gap)
    shifted = [total / count for total, count in blocks for _ in range(count)]
    return [min(max(q, low), ceiling) + i * gap for i, q in enumerate(shifted)]


def score_chart(
    series: Sequence[Sequence[int]],
    names: Sequence[str],
    lang: str,
    *,
    title: str,
    x_label: str,
    winners: Collection[int] = (),
    turns: Sequence[int] | None = None,
    colours: Sequence[RGB] = (),
) -> bytes:
    """PNG of the scores over time: ``series[seat][i]`` is the seat's score after
    the i-th point in time (turn), all of the same length >= 1.

    ``turns[i]``, increasing, numbers point ``i`` on the x axis (0 for the start;
    sampled points skip numbers); without it the points are numbered 1, 2, …

    ``title`` and ``x_label`` come translated; ``names`` may be short or
    unprintable (:func:`render.text.display_names` stands in, in ``lang``).
    ``colours[seat]`` is the seat's colour on its game's board (the palette's
    player colours without it); the marker shapes are the palette's either way.
    """
    plot = plot_for(series)
    finals = [line[-1] for line in series]
    ends = [plot.point(seat, plot.length - 1, finals[seat]) for seat in range(plot.seats)]
    rows = label_rows(ends)
    big = Image.new("RGB", (WIDTH * SCALE, HEIGHT * SCALE), BACKDROP)
    hues = [colours[s] if s < len(colours) else player_style(s).colour for s in range(plot.seats)]
    _draw_lines(ImageDraw.Draw(big), float(SCALE), plot, series, rows, hues)
    image = big.resize((WIDTH, HEIGHT), Image.Resampling.BOX)  # drawn big: anti-aliased
    draw = ImageDraw.Draw(image)
    if turns is not None and (len(turns) != plot.length or list(turns) != sorted(set(turns))):
        raise ValueError("turns numbers each point, increasing")
    _draw_axes(draw, plot, title, x_label, turns)
    shown = display_names(names, plot.seats, lang)
    scores = [number(v) for v in finals]
    score_left = LABEL_LEFT + 2 * LABEL_MARKER + SCORE_GAP
    score_right = score_left + max(text_width(v, LABEL_SIZE, bold=True) for v in scores)
    name_left = score_right + SCORE_GAP
    for seat, y in enumerate(rows):
        won = seat in winners
        colour = GOLD if won else PAPER
        draw_text(
            draw,
            (score_right, y),
            scores[seat],
            LABEL_SIZE,
            colour,
            anchor="rm",
            bold=True,
            role="score",
        )
        name = fit_text(shown[seat], LABEL_SIZE, WIDTH - MARGIN - name_left, bold=won)
        draw_text(
            draw, (name_left, y), name, LABEL_SIZE, colour, anchor="lm", bold=won, role="name"
        )
    return png_bytes(image)


def label_rows(ends: Sequence[Point]) -> list[float]:
    """The y of each seat's end label: spread :data:`LABEL_STEP` apart, each as near
    its line's end (``ends[seat]``) as the others allow, in the same order."""
    order = sorted(range(len(ends)), key=lambda seat: (ends[seat][1], seat))
    spread_out = spread([ends[s][1] for s in order], LABEL_STEP, LABEL_TOP, LABEL_BOTTOM)
    rows = [0.0] * len(ends)
    for seat, y in zip(order, spread_out, strict=True):
        rows[seat] = y
    return rows


def _draw_lines(
    draw: ImageDraw.ImageDraw,
    k: float,
    plot: Plot,
    series: Sequence[Sequence[int]],
    rows: Sequence[float],
    hues: Sequence[RGB],
) -> None:
    """Grid, score lines, end markers and leaders, at ``k`` times the size."""

    def at(p: Point) -> Point:
        return p[0] * k, p[1] * k

    for value in nice_ticks(plot.low, plot.high):
        y = plot.y(value)
        colour = AXIS if value == 0 else GRID
        draw.line([at((plot.left, y)), at((plot.right, y))], fill=colour, width=round(k))
    bottom = [at((plot.left, plot.bottom)), at((plot.right, plot.bottom))]
    draw.line(bottom, fill=AXIS, width=round(2 * k))
    lines = [
        [at(plot.point(seat, i, v)) for i, v in enumerate(line)] for seat, line in enumerate(series)
    ]
    for seat, points in enumerate(lines):  # every halo first: lines side by side stay whole
        if len(points) > 1:
            halo = halo_for(hues[seat])
            draw.line(points, fill=halo, width=round((LINE + 2 * HALO) * k), joint="curve")
    for seat, points in enumerate(lines):
        if len(points) > 1:
            draw.line(points, fill=hues[seat], width=round(LINE * k), joint="curve")
    edge = round(2 * k)
    for seat, line in enumerate(series):
        shape, hue = player_style(seat).shape, hues[seat]
        x, y = plot.point(seat, plot.length - 1, line[-1])
        row = rows[seat]
        leader = [(x + MARKER + 3, y), (x + MARKER + 9, y), (LABEL_LEFT - 9, row)]
        draw.line([at(p) for p in leader], fill=hue, width=edge)
        draw_shape(draw, shape, at((x, y)), MARKER * k, hue, PAPER, edge)
        label = at((LABEL_LEFT + LABEL_MARKER, row))
        draw_shape(draw, shape, label, LABEL_MARKER * k, hue, PAPER, edge)


def halo_for(hue: RGB) -> RGB:
    """The outline under a score line: a shadow, or a light edge for a dark hue
    (a game's black player) that a shadow would leave lost in the backdrop."""
    return SHADOW if contrast_ratio(hue, BACKDROP) >= DARK_LINE_CONTRAST else MUTED


def _draw_axes(
    draw: ImageDraw.ImageDraw,
    plot: Plot,
    title: str,
    x_label: str,
    turns: Sequence[int] | None = None,
) -> None:
    """The title, the tick values and the x axis label."""
    heading = fit_text(title, TITLE_SIZE, WIDTH - 2 * MARGIN, bold=True)
    draw_text(
        draw,
        (MARGIN, TITLE_BASELINE),
        heading,
        TITLE_SIZE,
        PAPER,
        anchor="ls",
        bold=True,
        role="status",
    )
    for value in nice_ticks(plot.low, plot.high):
        draw_text(
            draw,
            (plot.left - 10, plot.y(value)),
            number(value),
            TICK_SIZE,
            MUTED,
            anchor="rm",
            role="coordinate",
        )
    for where, turn in tick_places(plot.length, turns):
        draw_text(
            draw,
            (plot.x(where), TICK_BASELINE),
            str(turn),
            TICK_SIZE,
            MUTED,
            anchor="ms",
            role="coordinate",
        )
    label = fit_text(x_label, AXIS_SIZE, plot.right - plot.left)
    draw_text(
        draw,
        ((plot.left + plot.right) / 2, AXIS_BASELINE),
        label,
        AXIS_SIZE,
        MUTED,
        anchor="ms",
        role="title",
    )


def turn_ticks(length: int) -> list[int]:
    """Round turn numbers for the x axis, from 1 to ``length``."""
    return nice_ticks(1, length)


def tick_places(length: int, turns: Sequence[int] | None) -> list[tuple[float, int]]:
    """(point position from 1, label) of the x axis ticks: round turn numbers,
    placed between the points whose numbers surround them."""
    if turns is None or length == 1:
        return [(float(t), t) for t in turn_ticks(length)] if turns is None else [(1.0, turns[0])]
    places = []
    for tick in nice_ticks(turns[0], turns[-1]):
        at = next(i for i in range(length - 1) if turns[i] <= tick <= turns[i + 1])
        low, high = turns[at], turns[at + 1]
        places.append((1 + at + (tick - low) / (high - low), tick))
    return places
