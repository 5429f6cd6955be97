"""Board grids: hexes and squares, and the coordinates written around them.

Both grids number cells ``(col, row)`` from 1, row 1 on top, which is how
players type them ("F7"): :func:`draw_grid_labels` writes the column letters
and row numbers around any grid so a move can be read straight off the image.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from PIL import ImageDraw

from render.palette import PAPER
from render.shapes import Box, Point
from render.text import draw_text

SQRT3 = math.sqrt(3.0)


class Grid(Protocol):
    """What :func:`draw_grid_labels` needs: cell centres and a cell's extent."""

    def centre(self, col: int, row: int) -> Point: ...

    @property
    def cell_size(self) -> tuple[float, float]: ...


@dataclass(frozen=True)
class HexGrid:
    """Pointy-topped hexes in horizontal rows; even rows shifted half a hex right.

    ``origin`` is the centre of (1, 1). Edge and neighbour directions are
    numbered clockwise from the upper right: 0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW.
    """

    radius: float  # centre to corner
    origin: Point

    @property
    def width(self) -> float:
        """Distance between the centres of two neighbours in a row."""
        return SQRT3 * self.radius

    @property
    def row_step(self) -> float:
        return 1.5 * self.radius

    @property
    def cell_size(self) -> tuple[float, float]:
        return self.width, 2 * self.radius

    def centre(self, col: int, row: int) -> Point:
        shift = self.width / 2 if row % 2 == 0 else 0.0
        return (
            self.origin[0] + (col - 1) * self.width + shift,
            self.origin[1] + (row - 1) * self.row_step,
        )

    def corners(self, col: int, row: int, scale: float = 1.0) -> list[Point]:
        """Corners clockwise from the top: top, upper right, lower right, bottom, …"""
        return hex_corners(self.centre(col, row), self.radius * scale)

    def edge(self, col: int, row: int, direction: int, scale: float = 1.0) -> tuple[Point, Point]:
        """The side facing neighbour ``direction`` (see the class doc)."""
        pts = self.corners(col, row, scale)
        return pts[direction], pts[(direction + 1) % 6]

    def size(self, cols: int, rows: int) -> tuple[float, float]:
        """Pixel extent of a cols x rows grid (including the even-row shift)."""
        return (cols + 0.5) * self.width, (rows - 1) * self.row_step + 2 * self.radius


def hex_corners(centre: Point, radius: float) -> list[Point]:
    cx, cy = centre
    half = SQRT3 / 2 * radius
    return [
        (cx, cy - radius),
        (cx + half, cy - radius / 2),
        (cx + half, cy + radius / 2),
        (cx, cy + radius),
        (cx - half, cy + radius / 2),
        (cx - half, cy - radius / 2),
    ]


def hex_neighbour(col: int, row: int, direction: int) -> tuple[int, int]:
    """Neighbour in ``direction`` (0 NE … 5 NW) with even rows shifted right."""
    odd = (0, 1, 0, -1, -1, -1)
    even = (1, 1, 1, 0, -1, 0)
    rows = (-1, 0, 1, 1, 0, -1)
    dc = (odd if row % 2 else even)[direction]
    return col + dc, row + rows[direction]


def hex_neighbours(col: int, row: int) -> Iterator[tuple[int, tuple[int, int]]]:
    """(direction, neighbour) pairs, off-board ones included."""
    for d in range(6):
        yield d, hex_neighbour(col, row, d)


@dataclass(frozen=True)
class SquareGrid:
    """Square cells of ``cell`` px; ``origin`` is the top-left corner of (1, 1)."""

    cell: float
    origin: Point

    @property
    def cell_size(self) -> tuple[float, float]:
        return self.cell, self.cell

    def centre(self, col: int, row: int) -> Point:
        return (
            self.origin[0] + (col - 0.5) * self.cell,
            self.origin[1] + (row - 0.5) * self.cell,
        )

    def box(self, col: int, row: int) -> Box:
        """(left, top, right, bottom) of the cell."""
        left = self.origin[0] + (col - 1) * self.cell
        top = self.origin[1] + (row - 1) * self.cell
        return left, top, left + self.cell, top + self.cell

    def size(self, cols: int, rows: int) -> tuple[float, float]:
        """Pixel extent of a cols x rows grid."""
        return cols * self.cell, rows * self.cell


def column_letters(count: int) -> tuple[str, ...]:
    """Spreadsheet-style column names: A … Z, AA, AB, …"""
    names: list[str] = []
    for i in range(1, count + 1):
        name = ""
        while i:
            i, rest = divmod(i - 1, 26)
            name = chr(ord("A") + rest) + name
        names.append(name)
    return tuple(names)


def draw_grid_labels(
    draw: ImageDraw.ImageDraw,
    grid: Grid,
    cols: int,
    rows: int,
    *,
    columns: Sequence[str] | None = None,
    row_names: Sequence[str] | None = None,
    size: int = 22,
    fill: Sequence[int] = PAPER,
    gap: float = 6,
    sides: str = "tblr",
) -> None:
    """Column names above/below and row names left/right of a ``cols`` x ``rows`` grid.

    Each label sits next to the end cell of its own column or row, so it also
    follows grids whose rows zigzag (hexes). ``sides`` picks among top,
    bottom, left and right; leave ``gap`` + about ``size`` px of margin there.
    """
    col_names = columns if columns is not None else column_letters(cols)
    names = row_names if row_names is not None else [str(r) for r in range(1, rows + 1)]
    half_w, half_h = grid.cell_size[0] / 2, grid.cell_size[1] / 2
    for col in range(1, cols + 1):
        name = col_names[col - 1]
        if "t" in sides:
            x, y = grid.centre(col, 1)
            draw_text(
                draw,
                (x, y - half_h - gap),
                name,
                size,
                fill,
                anchor="ms",
                bold=True,
                role="coordinate",
            )
        if "b" in sides:
            x, y = grid.centre(col, rows)
            draw_text(
                draw,
                (x, y + half_h + gap),
                name,
                size,
                fill,
                anchor="mt",
                bold=True,
                role="coordinate",
            )
    for row in range(1, rows + 1):
        name = names[row - 1]
        if "l" in sides:
            x, y = grid.centre(1, row)
            draw_text(
                draw,
                (x - half_w - gap, y),
                name,
                size,
                fill,
                anchor="rm",
                bold=True,
                role="coordinate",
            )
        if "r" in sides:
            x, y = grid.centre(cols, row)
            draw_text(
                draw,
                (x + half_w + gap, y),
                name,
                size,
                fill,
                anchor="lm",
                bold=True,
                role="coordinate",
            )
