"""Oasis Nim's board, drawn with the shared toolkit: a square grid of stones
with typeable coordinates, and the common score/turn panel under it."""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image, ImageDraw

from games import catalogue
from render.grids import SquareGrid, column_letters, draw_grid_labels
from render.palette import BACKDROP, INK, PAPER, RGB, player_style
from render.panel import Cell, Column, Panel, Row, draw_panel, panel_height
from render.png import png_bytes
from render.text import draw_text
from tests.nim.engine import PILES, NimView

WIDTH = 1000
COLS = 5
ROWS = max(PILES.values()) // COLS
GRID = SquareGrid(110, ((WIDTH - COLS * 110) / 2, 70))
BOARD_BOTTOM = round(GRID.origin[1] + GRID.size(COLS, ROWS)[1] + 50)
STONE = (176, 164, 150)
SAND = (236, 218, 170)


def stone_cell(number: int) -> tuple[int, int]:
    """Stone 1 is A1, then along the rows."""
    return (number - 1) % COLS + 1, (number - 1) // COLS + 1


@lru_cache(maxsize=4)
def _board(lang: str) -> Image.Image:
    image = Image.new("RGB", (WIDTH, BOARD_BOTTOM), BACKDROP)
    draw = ImageDraw.Draw(image)
    for number in range(1, COLS * ROWS + 1):
        draw.rectangle(GRID.box(*stone_cell(number)), fill=SAND, outline=INK, width=2)
    draw_grid_labels(draw, GRID, COLS, ROWS, columns=column_letters(COLS))
    return image


def _panel(view: NimView, names: Sequence[str], lang: str, tags: Sequence[str | None]) -> Panel:
    def word(key: str, **params: int) -> str:
        return catalogue.text(lang, key, params)

    status = word("nim.board.pile", count=view.pile)
    if view.phase != "over":
        status += " · " + word(f"nim.board.{view.phase}")
    winners = view.outcome.winners if view.outcome else ()
    rows = tuple(
        Row(
            (
                str(view.taken[seat]),
                "?" if view.cards[seat] is None else str(view.cards[seat]),
                Cell(str(view.outcome.scores[seat]) if view.outcome else "", strong=True),
            ),
            seat=seat,
            name=names[seat] if seat < len(names) else "",
            tag=tags[seat] if seat < len(tags) else None,
        )
        for seat in range(view.players)
    )
    return Panel(
        status=status,
        columns=(
            Column(word("nim.board.stones")),
            Column(word("nim.board.card")),
            Column(catalogue.text(lang, "common.total")),
        ),
        rows=rows,
        acting=view.to_act,
        winners=winners,
    )


def render_nim(
    view: NimView, names: Sequence[str], lang: str, tags: Sequence[str | None] = ()
) -> bytes:
    panel = _panel(view, names, lang, tags)
    image = Image.new("RGB", (WIDTH, BOARD_BOTTOM + panel_height(panel)), BACKDROP)
    image.paste(_board(lang), (0, 0))
    draw = ImageDraw.Draw(image)
    for number in range(1, view.pile + 1):
        x, y = GRID.centre(*stone_cell(number))
        draw.ellipse((x - 38, y - 30, x + 38, y + 30), fill=STONE, outline=INK, width=3)
    if view.last_take is not None:  # the stones just taken, ringed in the taker's colour
        seat, count = view.last_take
        for number in range(view.pile + 1, view.pile + count + 1):
            box = GRID.box(*stone_cell(number))
            draw.rectangle(box, outline=player_style(seat).colour, width=8)
            draw_text(
                draw,
                GRID.centre(*stone_cell(number)),
                str(seat + 1),
                40,
                PAPER,
                anchor="mm",
                bold=True,
                outline=INK,
                outline_width=3,
            )
    draw_panel(image, panel, lang, top=BOARD_BOTTOM)
    return png_bytes(image)


# Test knob: a board that takes this long to draw (tests/test_e2e_cpu.py), like a
# heavy board on a busy machine.
SLOW_BOARD_SECONDS = "NIM_BOARD_SECONDS"


class NimPicture:
    """What the platform draws with (``SPEC.picture``), in a worker process."""

    def board(
        self, view: NimView, names: Sequence[str], lang: str, tags: Sequence[str | None] = ()
    ) -> bytes:
        time.sleep(float(os.environ.get(SLOW_BOARD_SECONDS) or 0))
        return render_nim(view, names, lang, tags)

    def hand(self, view: NimView, names: Sequence[str], lang: str) -> bytes | None:
        return None  # a card is a number: the text says it

    def seat_colour(self, seat: int) -> RGB:
        return player_style(seat).colour
