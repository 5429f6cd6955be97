"""Geometry primitives and marker shapes: polygons, seat markers, crown, arrow."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PIL import ImageDraw

from render.palette import GOLD, INK, PAPER, Shape, player_style

Point = tuple[float, float]
Box = tuple[float, float, float, float]  # left, top, right, bottom


def regular_polygon(centre: Point, radius: float, sides: int, rotation: float = 0.0) -> list[Point]:
    """Corners of a regular polygon; rotation 0 puts a corner straight up."""
    cx, cy = centre
    return [
        (
            cx + radius * math.sin(math.radians(rotation + 360 * i / sides)),
            cy - radius * math.cos(math.radians(rotation + 360 * i / sides)),
        )
        for i in range(sides)
    ]


def shape_points(shape: Shape, centre: Point, radius: float) -> list[Point]:
    """Outline of a marker shape of roughly equal visual weight at ``radius``."""
    cx, cy = centre
    if shape == "square":
        r = radius * 0.86
        return [(cx - r, cy - r), (cx + r, cy - r), (cx + r, cy + r), (cx - r, cy + r)]
    if shape == "triangle":
        # centroid at the centre, slightly larger so it looks as big as the others
        return regular_polygon((cx, cy + radius * 0.12), radius * 1.22, 3)
    if shape == "diamond":
        return regular_polygon(centre, radius * 1.12, 4)
    if shape == "star":
        outer = regular_polygon(centre, radius * 1.15, 5)
        inner = regular_polygon(centre, radius * 0.62, 5, rotation=36)
        return [p for pair in zip(outer, inner, strict=True) for p in pair]
    return regular_polygon(centre, radius, 48)  # circle


def draw_shape(
    draw: ImageDraw.ImageDraw,
    shape: Shape,
    centre: Point,
    radius: float,
    fill: Sequence[int] | None,
    outline: Sequence[int] | None = None,
    width: int = 1,
) -> None:
    draw.polygon(
        shape_points(shape, centre, radius),
        fill=None if fill is None else tuple(fill),
        outline=None if outline is None else tuple(outline),
        width=width,
    )


def draw_player_marker(
    draw: ImageDraw.ImageDraw,
    seat: int,
    centre: Point,
    radius: float,
    edge: Sequence[int] = PAPER,
    colour: Sequence[int] | None = None,
) -> None:
    """The seat's shape in its colour (or ``colour``: a game's own piece colour),
    edged so it shows on dark or light."""
    style = player_style(seat)
    fill = style.colour if colour is None else colour
    draw_shape(draw, style.shape, centre, radius, fill, edge, width=2)


def draw_crown(draw: ImageDraw.ImageDraw, centre: Point, size: float) -> None:
    """A gold crown ``2 * size`` wide: a winner, or a leader piece's rider."""
    cx, cy = centre
    w, h = size, size * 0.7
    points = [
        (cx - w, cy + h / 2),
        (cx - w, cy - h / 2),
        (cx - w / 2, cy),
        (cx, cy - h * 0.75),
        (cx + w / 2, cy),
        (cx + w, cy - h / 2),
        (cx + w, cy + h / 2),
    ]
    draw.polygon(points, fill=GOLD, outline=INK, width=max(1, round(size / 7)))


def draw_arrow(draw: ImageDraw.ImageDraw, centre: Point, size: float) -> None:
    """A gold arrow pointing right: whose turn it is."""
    cx, cy = centre
    draw.polygon(
        [(cx - size * 0.7, cy - size), (cx + size, cy), (cx - size * 0.7, cy + size)],
        fill=GOLD,
        outline=INK,
    )


def draw_robot(draw: ImageDraw.ImageDraw, centre: Point, size: float, fill: Sequence[int]) -> None:
    """A robot's head about ``2 * size`` wide (an AI plays this seat): a rounded
    head with two eyes, a mouth and an antenna, in ``fill``."""
    cx, cy = centre
    colour = tuple(fill)
    line = max(1, round(size / 5))
    top = cy - size * 0.45
    draw.line([(cx, top), (cx, cy - size * 0.95)], fill=colour, width=line)
    r = size * 0.2
    draw.ellipse((cx - r, cy - size * 0.95 - r, cx + r, cy - size * 0.95 + r), fill=colour)
    draw.rounded_rectangle(
        (cx - size * 0.85, top, cx + size * 0.85, cy + size * 0.8),
        radius=size * 0.3,
        outline=colour,
        width=line,
    )
    e = size * 0.2
    for dx in (-0.38, 0.38):
        ex, ey = cx + dx * size, cy + size * 0.05
        draw.ellipse((ex - e, ey - e, ex + e, ey + e), fill=colour)
    draw.line(
        [(cx - size * 0.35, cy + size * 0.48), (cx + size * 0.35, cy + size * 0.48)],
        fill=colour,
        width=max(1, line - 1),
    )


def draw_flag(draw: ImageDraw.ImageDraw, centre: Point, size: float, fill: Sequence[int]) -> None:
    """A white flag on its pole about ``2 * size`` high (the player gave up), in ``fill``."""
    cx, cy = centre
    colour = tuple(fill)
    pole = cx - size * 0.6
    draw.line([(pole, cy - size), (pole, cy + size)], fill=colour, width=max(1, round(size / 5)))
    draw.polygon(
        [
            (pole, cy - size),
            (cx + size * 0.1, cy - size * 0.85),
            (cx + size * 0.8, cy - size * 0.95),
            (cx + size * 0.8, cy - size * 0.05),
            (cx + size * 0.1, cy + size * 0.05),
            (pole, cy - size * 0.1),
        ],
        fill=colour,
    )


def draw_palm(
    draw: ImageDraw.ImageDraw,
    base: Point,
    size: float,
    trunk: Sequence[int],
    leaf: Sequence[int],
    edge: Sequence[int] | None = None,
) -> None:
    """A palm tree: trunk foot at ``base``, crown about ``size`` above it, five
    leaves (edged in ``edge`` when given)."""
    bx, by = base
    top = (bx + size * 0.12, by - size * 1.0)
    draw.line(
        [(bx, by + size * 0.55), (bx + size * 0.14, by - size * 0.2), top],
        fill=tuple(trunk),
        width=max(1, round(size * 0.18)),
        joint="curve",
    )
    for angle in (-150, -110, -65, -20, 25):
        a = math.radians(angle)
        tip = (top[0] + math.cos(a) * size * 0.95, top[1] + math.sin(a) * size * 0.75 + size * 0.3)
        mid = (top[0] + math.cos(a) * size * 0.5, top[1] + math.sin(a) * size * 0.55 - size * 0.08)
        normal = (-math.sin(a) * size * 0.13, math.cos(a) * size * 0.13)
        outline = None if edge is None else tuple(edge)
        draw.polygon(
            [
                top,
                (mid[0] + normal[0], mid[1] + normal[1]),
                tip,
                (mid[0] - normal[0], mid[1] - normal[1]),
            ],
            fill=tuple(leaf),
            outline=outline,
            width=max(1, round(size / 22)),
        )
