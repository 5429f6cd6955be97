"""The end-of-game score chart: its size, its lines and markers in the seats'
colours, labels that never overlap nor overflow, and texts legible once a
phone shows it :data:`render.text.PHONE_WIDTH` px wide."""

from __future__ import annotations

import io
import itertools
from collections.abc import Collection, Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from bot import registry
from render.chart import (
    HEIGHT,
    LABEL_BOTTOM,
    LABEL_TOP,
    MARGIN,
    WIDTH,
    halo_for,
    nice_ticks,
    plot_for,
    score_chart,
    spread,
    tick_places,
    turn_ticks,
)
from render.palette import BACKDROP, GOLD, contrast_ratio, player_style
from render.text import ELLIPSIS, MIN_PHONE_PX, DrawnText, font, phone_px, recording_text

NAMES = ("Alice", "Bob", "Chloé", "Driss", "Eve", "Farid")
Box = tuple[float, float, float, float]


def chart(
    series: Sequence[Sequence[int]],
    names: Sequence[str] = NAMES,
    winners: Collection[int] = (),
    lang: str = "en",
) -> tuple[Image.Image, list[DrawnText]]:
    with recording_text() as texts:
        png = score_chart(series, names, lang, title="Scores", x_label="Turn", winners=winners)
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB"), texts


def box(text: DrawnText) -> Box:
    left, top, right, bottom = font(text.size, text.bold).getbbox(text.text, anchor=text.anchor)
    x, y = text.xy
    return x + left, y + top, x + right, y + bottom


def overlapping(texts: Sequence[DrawnText]) -> list[tuple[str, str]]:
    return [
        (a.text, b.text)
        for a, b in itertools.combinations(texts, 2)
        if (ba := box(a))[0] < (bb := box(b))[2]
        and bb[0] < ba[2]
        and ba[1] < bb[3]
        and bb[1] < ba[3]
    ]


def climbing(seats: int, turns: int) -> list[list[int]]:
    """Scores that grow at different paces, far apart at the end."""
    return [[(seat + 1) * 3 * turn for turn in range(1, turns + 1)] for seat in range(seats)]


def near(pixel: tuple[int, ...], colour: Sequence[int], tolerance: int = 16) -> bool:
    return all(abs(a - b) <= tolerance for a, b in zip(pixel, colour, strict=False))


def pixel(image: Image.Image, xy: tuple[int, int]) -> tuple[int, ...]:
    value = image.getpixel(xy)
    assert isinstance(value, tuple)
    return value


def colours_around(
    image: Image.Image, centre: tuple[float, float], radius: int = 3
) -> list[tuple[int, ...]]:
    cx, cy = round(centre[0]), round(centre[1])
    out = []
    for dx in range(-radius, radius + 1):
        for dy in range(-radius, radius + 1):
            out.append(pixel(image, (cx + dx, cy + dy)))
    return out


# --------------------------------------------------------------------------- the picture


@pytest.mark.parametrize("seats", [1, 2, 3, 4, 5, 6])
def test_one_line_per_seat_ending_in_its_colour(seats: int) -> None:
    series = climbing(seats, 12)
    image, texts = chart(series)
    assert image.size == (WIDTH, HEIGHT)
    plot = plot_for(series)
    for seat in range(seats):
        end = plot.point(seat, 11, series[seat][-1])
        colour = player_style(seat).colour
        assert any(near(p, colour) for p in colours_around(image, end)), seat
        # and halfway along the line too
        middle = plot.point(seat, 5, series[seat][5])
        assert any(near(p, colour, 24) for p in colours_around(image, middle, 1)), seat
    names = [t.text for t in texts if t.role == "name"]
    scores = [t.text for t in texts if t.role == "score"]
    assert sorted(names) == sorted(NAMES[:seats])
    assert sorted(scores) == sorted(str(line[-1]) for line in series)
    assert not overlapping(texts)


@pytest.mark.parametrize("game", ["nomadi", "oasis"])
def test_each_line_wears_its_seats_board_colour(game: str) -> None:
    """Nomadi's and Oasis's boards colour seats their own way: the chart follows
    the board (Zoë red on the board was blue in the chart), and the black seat's
    line gets a light edge so it shows on the dark backdrop."""
    picture = registry.specs()[game].load_picture()
    seats = 5
    hues = [picture.seat_colour(seat) for seat in range(seats)]
    assert hues != [player_style(seat).colour for seat in range(seats)]
    series = climbing(seats, 12)
    png = score_chart(series, NAMES, "en", title="S", x_label="T", colours=hues)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    plot = plot_for(series)
    for seat in range(seats):
        middle = plot.point(seat, 5, series[seat][5])
        assert any(near(p, hues[seat], 24) for p in colours_around(image, middle, 1)), seat
    dark = min(range(seats), key=lambda seat: sum(hues[seat]))
    assert contrast_ratio(halo_for(hues[dark]), BACKDROP) > 3
    assert halo_for(player_style(0).colour) != halo_for(hues[dark])


def test_a_series_of_one_point() -> None:
    image, texts = chart([[4], [9]])
    assert image.size == (WIDTH, HEIGHT)
    plot = plot_for([[4], [9]])
    for seat, value in enumerate((4, 9)):
        end = plot.point(seat, 0, value)
        assert any(near(p, player_style(seat).colour) for p in colours_around(image, end))
    assert [t.text for t in texts if t.role == "coordinate" and t.anchor == "ms"] == ["1"]
    assert not overlapping(texts)


def test_negative_scores_extend_the_axis_below_zero() -> None:
    series = [[-2, -6, -12], [1, 3, 5], [0, -1, 2]]
    plot = plot_for(series)
    assert (plot.low, plot.high) == (-12, 5)
    image, texts = chart(series)
    ticks = [t.text for t in texts if t.role == "coordinate" and t.anchor == "rm"]
    assert "0" in ticks and any(t.startswith("\u2212") for t in ticks)  # a real minus sign
    assert "\u221212" in [t.text for t in texts if t.role == "score"]
    # the lowest line ends at the bottom, the highest at the top
    assert plot.point(0, 2, -12)[1] > plot.point(2, 2, 2)[1] > plot.point(1, 2, 5)[1]
    assert not overlapping(texts)


def test_the_y_axis_starts_at_zero_for_positive_scores() -> None:
    plot = plot_for([[5, 7], [6, 9]])
    assert (plot.low, plot.high) == (0, 9)
    assert plot.y(0) == plot.bottom and plot.y(9) == plot.top
    assert plot.x(1) == plot.left and plot.x(2) == plot.right


@pytest.mark.parametrize("seats", [2, 5, 6])
def test_equal_scores_keep_every_line_and_label_apart(seats: int) -> None:
    series = [[3, 3, 3, 3]] * seats
    image, texts = chart(series)
    labels = [t for t in texts if t.role in ("name", "score")]
    assert len(labels) == 2 * seats
    assert not overlapping(texts)
    rows = sorted({t.xy[1] for t in labels})
    assert len(rows) == seats
    assert all(LABEL_TOP - 1e-6 <= y <= LABEL_BOTTOM + 1e-6 for y in rows)
    # the lines lie side by side: each colour still shows halfway along
    plot = plot_for(series)
    for seat in range(min(seats, 5)):  # seat 6 looks like seat 1 (five seat styles)
        middle = plot.point(seat, 1, 3)
        colour = player_style(seat).colour
        assert any(near(p, colour, 24) for p in colours_around(image, middle, 1)), seat


def test_close_scores_spread_their_labels_in_score_order() -> None:
    series = [[10, 20, 30], [10, 21, 31], [10, 20, 29], [0, 1, 2]]
    _, texts = chart(series)
    assert not overlapping(texts)
    row = {t.text: t.xy[1] for t in texts if t.role == "name"}
    assert row["Bob"] < row["Alice"] < row["Chloé"] < row["Driss"]  # best on top


def test_winners_are_drawn_in_gold() -> None:
    series = climbing(3, 5)
    image, texts = chart(series, winners={2})
    names = {t.text: t for t in texts if t.role == "name"}
    assert names["Chloé"].bold and not names["Alice"].bold and not names["Bob"].bold

    def gold_pixels(text: DrawnText) -> int:
        left, top, right, bottom = (round(v) for v in box(text))
        return sum(
            1
            for x in range(left, right)
            for y in range(top, bottom)
            if near(pixel(image, (x, y)), GOLD, 40)
        )

    assert gold_pixels(names["Chloé"]) > 20
    assert gold_pixels(names["Alice"]) == 0


def test_long_and_odd_names_are_cut_or_replaced() -> None:
    names = [
        "Bartholomew the Magnificent Camel Driver of the Great Dunes",
        "🐪🐪",
        "Zoë 🐫 x\u202e",
    ]
    image, texts = chart(climbing(3, 4), names)
    shown = [t for t in texts if t.role == "name"]
    by_text = {t.text for t in shown}
    assert "Player 2" in by_text  # nothing printable: the catalogue's stand-in
    assert "Zoë x" in by_text  # emoji and bidi override dropped
    long = next(t for t in shown if t.text.startswith("Barth"))
    assert long.text.endswith(ELLIPSIS)
    assert all(box(t)[2] <= WIDTH - MARGIN + 1 for t in texts)  # nothing overflows the right side
    assert all(box(t)[0] >= 0 and box(t)[1] >= 0 and box(t)[3] <= HEIGHT for t in texts)
    assert not overlapping(texts)


def test_long_title_and_axis_label_are_cut() -> None:
    with recording_text() as texts:
        score_chart(climbing(2, 3), NAMES, "en", title="Scores " * 40, x_label="Turn " * 40)
    assert all(box(t)[2] <= WIDTH - MARGIN + 1 for t in texts)
    assert not overlapping(texts)


@pytest.mark.parametrize("seats", [1, 3, 6])
def test_every_text_is_legible_at_phone_width(seats: int) -> None:
    image, texts = chart(climbing(seats, 40), winners={0})
    roles = {t.role for t in texts}
    assert roles == {"status", "coordinate", "title", "name", "score"}
    too_small = [
        (t.role, t.text, t.size, round(phone_px(t.size, image.width), 2))
        for t in texts
        if phone_px(t.size, image.width) < MIN_PHONE_PX[t.role]
    ]
    assert not too_small


def test_bad_series_are_errors() -> None:
    with pytest.raises(ValueError):
        score_chart([], NAMES, "en", title="t", x_label="x")
    with pytest.raises(ValueError):
        score_chart([[1, 2], [3]], NAMES, "en", title="t", x_label="x")
    with pytest.raises(ValueError):
        score_chart([[]], NAMES, "en", title="t", x_label="x")


# --------------------------------------------------------------------------- the pieces


@given(st.integers(-1000, 1000), st.integers(0, 100_000))
def test_ticks_are_few_round_values_in_the_range(low: int, span: int) -> None:
    high = low + span
    ticks = nice_ticks(low, high)
    assert 1 <= len(ticks) <= 6
    assert all(low <= t <= high for t in ticks)
    step = ticks[1] - ticks[0] if len(ticks) > 1 else 1
    assert all(b - a == step for a, b in itertools.pairwise(ticks))
    assert str(step).strip("0") in {"1", "2", "5"}
    assert all(t % step == 0 for t in ticks)


def test_turn_ticks() -> None:
    assert turn_ticks(1) == [1]
    assert turn_ticks(5) == [1, 2, 3, 4, 5]
    assert turn_ticks(37) == [10, 20, 30]
    assert turn_ticks(300) == [50, 100, 150, 200, 250, 300]


@given(
    st.lists(st.floats(0, 500, allow_nan=False), min_size=1, max_size=6),
    st.floats(10, 40),
)
def test_spread_labels_keep_order_and_gap(wanted: list[float], gap: float) -> None:
    wanted.sort()
    low, high = 0.0, 500.0
    placed = spread(wanted, gap, low, high)
    assert len(placed) == len(wanted)
    assert all(b - a >= gap - 1e-6 for a, b in itertools.pairwise(placed))
    assert low - 1e-6 <= placed[0] and placed[-1] <= high + 1e-6
    if all(b - a >= gap for a, b in itertools.pairwise(wanted)):
        assert placed == pytest.approx(wanted)  # nothing moves when nothing overlaps


def test_spread_centres_a_crowd_on_its_targets() -> None:
    assert spread([100, 100, 100], 30, 0, 500) == pytest.approx([70, 100, 130])
    assert spread([0, 0], 30, 0, 500) == pytest.approx([0, 30])  # held inside


def test_turn_numbers_label_the_x_axis() -> None:
    """Points numbered by turn (0: the start; sampled points skip numbers): the
    ticks are round turn numbers, placed between the points around them."""
    turns = [0, 3, 6, 10, 13, 17, 20]
    places = tick_places(len(turns), turns)
    assert [label for _, label in places] == [0, 5, 10, 15, 20]
    assert places[0][0] == 1.0 and places[-1][0] == 7.0  # the first and last points
    assert places[2][0] == 4.0  # turn 10 is the fourth point
    assert 2 < places[1][0] < 3  # turn 5 lies between turns 3 and 6
    series = [[0, 2, 5, 9, 11, 15, 18], [0, 1, 4, 6, 12, 13, 20]]
    with recording_text() as texts:
        score_chart(series, NAMES, "en", title="Scores", x_label="Turns", turns=turns)
    ticks = {t.text for t in texts if t.role == "coordinate"}
    assert {"0", "5", "10", "15", "20"} <= ticks
    with pytest.raises(ValueError):
        score_chart(series, NAMES, "en", title="S", x_label="T", turns=[0, 1])
    assert tick_places(1, [0]) == [(1.0, 0)]
