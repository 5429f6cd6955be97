"""Sahwari's effect icons (spec §14.1, the seed's pictures) and the legend that names them.

Each resolvable kind has a pictogram drawn with Pillow primitives on a cream
badge rimmed in ink, so it reads on a card's colour band, on the cream card
face and on the dark backdrop alike:

- ``CARD``: a recruit card with its meeple (the seed's "meeple in a rectangle");
- ``REFRESH``: four recruit cards side by side, a turning arrow over them
  (the seed's "meeple in a rectangle x4": the row drawn anew);
- ``SPY``: a spyglass (the seed's "longue-vue");
- ``CHEST``: a chest;
- ``BIRD``: a bird in flight with a fetching arrow;
- ``BOWL``: a round convoy token, half yellow, half blue (any convoy);
- ``TORNADO``: a funnel of wind;
- ``ATTACK``: crossed sabres.

Influence icons (``INF+n`` / ``INF-n``) are the seed's numbers in a blue or a
red circle: :func:`draw_influence`, the sign written too, so no one depends
on the colour. Sprites are drawn four times bigger and shrunk (anti-aliased),
once per kind and size.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games import catalogue
from games.sahwari.content import RESOLVABLE, influence
from render.palette import INK, PAPER, RGB
from render.shapes import Point, draw_crown
from render.sprites import paste_centred, supersampled
from render.text import draw_text_on, drawing_cache, fit_text, legible_size

KINDS: tuple[str, ...] = RESOLVABLE  # CARD REFRESH SPY CHEST BIRD BOWL TORNADO ATTACK

BADGE: RGB = (252, 248, 236)  # the cream disc behind every pictogram
GOOD: RGB = (30, 90, 180)  # influence gain (blue circle, §14)
BAD: RGB = (190, 40, 34)  # influence loss (red circle)
MINUS = "\u2212"

WOOD: RGB = (150, 96, 48)
BRASS: RGB = (214, 160, 52)
STEEL: RGB = (84, 96, 112)
SKY: RGB = (58, 110, 170)
WIND: RGB = (92, 100, 116)
CARD_FILL: RGB = (255, 255, 255)
TOKEN_YELLOW: RGB = (246, 204, 52)
TOKEN_BLUE: RGB = (36, 76, 160)
SABRE_HILT: RGB = (190, 40, 34)


class Pen:
    """Coordinates in the unit square of a pictogram, turned into pixels of the
    (supersampled) canvas: ``p(0.5, 0.5)`` is the middle of the drawing area."""

    def __init__(self, draw: ImageDraw.ImageDraw, left: float, top: float, side: float, k: float):
        self.draw, self.left, self.top, self.side = draw, left, top, side
        self.k = k  # canvas px per image px

    def p(self, x: float, y: float) -> Point:
        return (self.left + x * self.side, self.top + y * self.side)

    def box(self, x0: float, y0: float, x1: float, y1: float) -> tuple[float, float, float, float]:
        (a, b), (c, d) = self.p(x0, y0), self.p(x1, y1)
        return (a, b, c, d)

    def w(self, px: float) -> int:
        """A line ``px`` image px wide (at least one)."""
        return max(1, round(px * self.k))


Paint = Callable[[Pen, float], None]  # the pen, the base line width in image px


def _card(pen: Pen, line: float, box: tuple[float, float, float, float], meeple: bool) -> None:
    """A small recruit card: a white rectangle rimmed in ink, with its meeple."""
    x0, y0, x1, y1 = box
    pen.draw.rectangle(pen.box(*box), fill=CARD_FILL, outline=INK, width=pen.w(line))
    if not meeple:
        return
    cx, w, h = (x0 + x1) / 2, x1 - x0, y1 - y0
    r = w * 0.2
    head = y0 + h * 0.3
    pen.draw.ellipse(pen.box(cx - r, head - r, cx + r, head + r), fill=WOOD)
    pen.draw.polygon(
        [pen.p(cx, head), pen.p(cx + w * 0.34, y0 + h * 0.84), pen.p(cx - w * 0.34, y0 + h * 0.84)],
        fill=WOOD,
    )


def _paint_card(pen: Pen, line: float) -> None:
    _card(pen, line, (0.2, 0.04, 0.8, 0.96), meeple=True)


def _paint_refresh(pen: Pen, line: float) -> None:
    for k in range(4):  # the row: four cards
        x = 0.02 + k * 0.245
        _card(pen, line * 0.8, (x, 0.5, x + 0.22, 0.92), meeple=False)
    # a turning arrow over them
    pen.draw.arc(pen.box(0.12, 0.06, 0.88, 0.8), 190, 340, fill=SKY, width=pen.w(line * 1.6))
    tx = 0.5 + 0.38 * math.cos(math.radians(340))
    ty = 0.43 + 0.37 * math.sin(math.radians(340))
    pen.draw.polygon(
        [pen.p(tx + 0.14, ty + 0.06), pen.p(tx - 0.12, ty - 0.02), pen.p(tx + 0.06, ty - 0.2)],
        fill=SKY,
    )


def _paint_spy(pen: Pen, line: float) -> None:
    """A spyglass: three tubes widening towards the lens, on a diagonal."""
    angle = math.radians(-35)
    dx, dy = math.cos(angle), math.sin(angle)
    nx, ny = -dy, dx
    sx, sy = 0.08, 0.74
    for t0, t1, half in ((0.0, 0.3, 0.08), (0.28, 0.56, 0.11), (0.54, 0.86, 0.145)):
        ax, ay = sx + dx * t0, sy + dy * t0
        bx, by = sx + dx * t1, sy + dy * t1
        quad = [
            pen.p(ax + nx * half, ay + ny * half),
            pen.p(bx + nx * half, by + ny * half),
            pen.p(bx - nx * half, by - ny * half),
            pen.p(ax - nx * half, ay - ny * half),
        ]
        pen.draw.polygon(quad, fill=BRASS, outline=INK, width=pen.w(line * 0.8))


def _paint_chest(pen: Pen, line: float) -> None:
    lw = pen.w(line)
    pen.draw.pieslice(pen.box(0.12, 0.14, 0.88, 0.7), 180, 360, fill=WOOD, outline=INK, width=lw)
    pen.draw.rectangle(pen.box(0.12, 0.42, 0.88, 0.84), fill=WOOD, outline=INK, width=lw)
    pen.draw.rectangle(pen.box(0.4, 0.34, 0.6, 0.58), fill=BRASS, outline=INK, width=lw)


def _paint_bird(pen: Pen, line: float) -> None:
    """A bird in flight, wings up, over an arrow that fetches."""
    wing = [
        (0.04, 0.2),
        (0.3, 0.32),
        (0.5, 0.46),
        (0.7, 0.32),
        (0.96, 0.2),
        (0.74, 0.48),
        (0.5, 0.62),
        (0.26, 0.48),
    ]
    pen.draw.polygon([pen.p(x, y) for x, y in wing], fill=SKY, outline=INK, width=pen.w(line * 0.8))
    pen.draw.line([pen.p(0.14, 0.82), pen.p(0.64, 0.82)], fill=INK, width=pen.w(line * 1.3))
    pen.draw.polygon([pen.p(0.86, 0.82), pen.p(0.62, 0.68), pen.p(0.62, 0.96)], fill=INK)


def _paint_bowl(pen: Pen, line: float) -> None:
    """A round convoy token, half yellow and half blue: any convoy."""
    box = pen.box(0.1, 0.1, 0.9, 0.9)
    pen.draw.pieslice(box, 90, 270, fill=TOKEN_YELLOW)
    pen.draw.pieslice(box, 270, 450, fill=TOKEN_BLUE)
    pen.draw.ellipse(box, outline=INK, width=pen.w(line))
    pen.draw.ellipse(pen.box(0.32, 0.32, 0.68, 0.68), outline=INK, width=pen.w(line * 0.8))


def _paint_tornado(pen: Pen, line: float) -> None:
    lw = pen.w(line * 1.5)
    bands = ((0.42, 0.0), (0.33, 0.04), (0.24, 0.07), (0.15, 0.05), (0.07, 0.0))
    for k, (half, shift) in enumerate(bands):
        y = 0.14 + k * 0.18
        cx = 0.5 + shift
        pen.draw.line([pen.p(cx - half, y), pen.p(cx + half, y)], fill=WIND, width=lw)


def _paint_attack(pen: Pen, line: float) -> None:
    """Two crossed sabres, blades up, red hilts."""
    for sign in (1, -1):
        tip = (0.5 + sign * 0.42, 0.04)
        hilt = (0.5 - sign * 0.28, 0.74)
        dx, dy = tip[0] - hilt[0], tip[1] - hilt[1]
        norm = math.hypot(dx, dy)
        dx, dy = dx / norm, dy / norm
        bend = (-dy * sign * 0.08, dx * sign * 0.08)  # the blade curves outwards
        mid = ((tip[0] + hilt[0]) / 2 + bend[0], (tip[1] + hilt[1]) / 2 + bend[1])
        pen.draw.line(
            [pen.p(*hilt), pen.p(*mid), pen.p(*tip)],
            fill=STEEL,
            width=pen.w(line * 1.7),
            joint="curve",
        )
        nx, ny = -dy * 0.13, dx * 0.13  # the crossguard, across the blade at the hilt
        pen.draw.line(
            [pen.p(hilt[0] - nx, hilt[1] - ny), pen.p(hilt[0] + nx, hilt[1] + ny)],
            fill=SABRE_HILT,
            width=pen.w(line * 1.4),
        )
        grip = (hilt[0] - dx * 0.2, hilt[1] - dy * 0.2)
        pen.draw.line([pen.p(*hilt), pen.p(*grip)], fill=SABRE_HILT, width=pen.w(line * 1.8))


PAINTERS: dict[str, Paint] = {
    "CARD": _paint_card,
    "REFRESH": _paint_refresh,
    "SPY": _paint_spy,
    "CHEST": _paint_chest,
    "BIRD": _paint_bird,
    "BOWL": _paint_bowl,
    "TORNADO": _paint_tornado,
    "ATTACK": _paint_attack,
}


@drawing_cache
@lru_cache(maxsize=64)
def effect_icon(kind: str, size: int) -> Image.Image:
    """The kind's pictogram on its badge, ``size`` px across (RGBA)."""
    paint = PAINTERS[kind]

    def draw_it(draw: ImageDraw.ImageDraw, k: float) -> None:
        full = size * k
        rim = max(1.0, size / 18) * k
        draw.ellipse(
            (rim / 2, rim / 2, full - rim / 2, full - rim / 2),
            fill=BADGE,
            outline=INK,
            width=round(rim),
        )
        inset = full * 0.13
        paint(Pen(draw, inset, inset, full - 2 * inset, k), max(1.0, size / 16))

    return supersampled((size, size), draw_it)


def paste_icon(image: Image.Image, kind: str, centre: Point, size: int) -> None:
    """Paste ``kind``'s badge centred at ``centre``."""
    paste_centred(image, effect_icon(kind, size), centre)


def signed(value: int) -> str:
    """An influence as printed: "+3", "−2", "0"."""
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def draw_influence(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    centre: Point,
    value: int,
    size: int,
    diameter: float,
) -> None:
    """An influence icon: the signed number in a blue (gain) or red (loss) circle."""
    cx, cy = centre
    r = diameter / 2
    fill = GOOD if value > 0 else BAD
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=2)
    draw_text_on(image, centre, signed(value), size, PAPER, anchor="mm", bold=True, role="value")


def draw_token_icon(
    image: Image.Image, draw: ImageDraw.ImageDraw, icon: str, centre: Point, size: int, text: int
) -> None:
    """One icon of a convoy token: its pictogram, or its influence circle."""
    value = influence(icon)
    if value is None:
        paste_icon(image, icon, centre, size)
    else:
        draw_influence(image, draw, centre, value, text, size)


# --------------------------------------------------------------------------- the legend

INFLUENCE, CLAN = "INFLUENCE", "CLAN"  # the legend's two entries that are not kinds
LEGEND: tuple[str, ...] = (*KINDS, INFLUENCE, CLAN)


def legend_word(lang: str, entry: str) -> str:
    return catalogue.text(lang, f"sahwari.render.legend.{entry}")


def draw_clan_mark(draw: ImageDraw.ImageDraw, centre: Point, size: float) -> None:
    """A card's clan ability (a PAIRS formula, rule K13): a gold crown ``size`` px wide."""
    cx, cy = centre
    draw_crown(draw, (cx, cy + size * 0.1), size * 0.5)


def draw_legend(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    at: Point,
    width: float,
    rows: Sequence[Sequence[str]],
    lang: str,
    *,
    line: float,
    icon: int,
    colour: Sequence[int] = PAPER,
) -> None:
    """The legend, one line per row of :data:`LEGEND` entries from ``at`` (top
    left): each entry's picture and what it means, in the reader's language.
    A row's entries sit in columns ``width / (most entries in a row)`` wide; the
    last entry of a row may run to the right end."""
    x0, y0 = at
    size = legible_size("title", image.width)
    value = legible_size("value", image.width)
    columns = max(len(row) for row in rows)
    col_w = width / columns
    for r, row in enumerate(rows):
        y = y0 + r * line + line / 2
        for c, entry in enumerate(row):
            x = x0 + c * col_w
            if entry == INFLUENCE:
                draw_influence(image, draw, (x + icon / 2, y), 2, value, icon)
                draw_influence(image, draw, (x + icon * 1.65, y), -2, value, icon)
                tx = x + icon * 2.15 + 8
            elif entry == CLAN:
                draw_clan_mark(draw, (x + icon / 2, y), icon)
                tx = x + icon + 8
            else:
                paste_icon(image, entry, (x + icon / 2, y), icon)
                tx = x + icon + 8
            right = x0 + width if c == len(row) - 1 else x + col_w
            word = fit_text(legend_word(lang, entry), size, right - tx - 4)
            draw_text_on(image, (tx, y), word, size, colour, anchor="lm", role="title")
