"""Board image of Oasis, drawn from an :class:`OasisView`.

Layout, 1100 px wide: the 15 x 13 square board on top (column letters A-O
above and below, row numbers 1-13 left and right, row 1 on top); under it
the table: the public piles (landscape tiles, multiplier tiles, the draw
and discard piles, how full the camel track is) and this round's offers, a
table in rank order (the hierarchy) under column titles: each seat's rank
tile and the tile it received this round, the offering player (token and
name), its face-up cards in words ("2 oasis tiles", "3 camels", "2 goods",
"1 well", "3 cards"), dimmed once taken, and who took them (token and
name); then the
shared score panel (:mod:`render.panel`) with each player's public state:
rank, cards in the stack, face-down multiplier tiles (how many), pawns and
camels left in the supply, largest herd and squares owned per landscape;
once over, each score line (herd or squares × multipliers) and the total.

The board: free squares in sand, the camel track as a terracotta road,
springs as pools under a palm, bonus squares as their landscape with a white
star carrying the landscape's letter. Those never change during a game, so
they form a static layer cached once; each render copies it and draws only
what moves: landscape tiles, domain outlines, pawns, camels, the last
placements, the names of the squares a move may still target, the table
and the panel. Most of that is pasted back from earlier renders too (a tile
on its ground, the names of a row's open squares, each line of the table
and of the panel, kept by what they show: :mod:`render.memo`),
so a render costs little more than encoding its PNG.

Telling things apart without relying on hue: a landscape tile has its
colour *and* a pattern (oasis: palm, steppe: grass, stony desert: stones)
*and* the letter players type for it (``o``, ``s``, ``d``). A seat has its
game colour (red, blue, green, yellow, black, spec §2) *and* its marker
shape with its seat number (:func:`render.palette.player_style`) on every
pawn and camel. A domain is framed in its owner's colour and carries the
owner's pawn, in a corner of its square so the tile's letter and most of
its pattern stay in sight (on a one-tile domain too); an unowned domain has
a dashed paper-and-ink frame and no pawn. A player's camels that touch
along the track (a herd) are joined by a band of their colour.

Hidden information (spec §9): the board never shows which multiplier tiles
a player holds, whoever looks (the view's ``viewer`` is not read), only how
many; their types appear in the owner's private image
(:func:`render_oasis_hand`) and, once the game is over, in the score
breakdown. Stacks and the draw pile are shown by size only (the view has
nothing else). Words come from the catalogue (``oasis.render.*``,
``oasis.*`` and the shared ``common.*``); every text stays legible once a
phone shows the image 550 px wide (:func:`render.text.legible_size`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from games import catalogue
from games.contract import Seat
from games.oasis.model import (  # importing games.oasis adds its catalogue
    BOARD,
    COLOURS,
    COLUMNS,
    HEIGHT,
    LANDS,
    MULTIPLIER_OF,
    MULTIPLIERS,
    SQUARES,
    DomainView,
    OasisView,
    adjacent,
    card,
    name,
)
from games.oasis.model import (
    WIDTH as BOARD_COLUMNS,
)
from games.oasis.views import multiplier_count, supply_params
from games.text import Params, Term
from render.grids import SquareGrid, draw_grid_labels
from render.memo import Region, RegionCache, square_runs, text_region, union
from render.palette import (
    BACKDROP,
    GOLD,
    INK,
    MUTED,
    PAPER,
    RGB,
    WARN,
    mix,
    player_style,
    with_alpha,
)
from render.panel import (
    CARD,
    CARD_EDGE,
    ROW,
    ROW_HILITE,
    Cell,
    Column,
    Panel,
    Row,
    panel_height,
    panel_metrics,
)
from render.panel_memo import draw_panel_cached, panel_card
from render.png import png_bytes
from render.shapes import Box, Point, draw_arrow, draw_palm, shape_points
from render.sprites import paste_centred, supersampled
from render.text import (
    display_names,
    draw_text,
    drawing_cache,
    fit_text,
    legible_size,
    stamp_text,
    text_width,
)

# --------------------------------------------------------------------------- look

WIDTH = 1100  # px: the image, at every player count
CELL = 68  # px: a square
MARGIN_X = (WIDTH - BOARD_COLUMNS * CELL) // 2  # room for the row numbers
MARGIN_TOP = 42  # room for the column letters
GRID = SquareGrid(CELL, (MARGIN_X, MARGIN_TOP))
BOARD_BOTTOM = MARGIN_TOP + HEIGHT * CELL + 42  # below the bottom letters

# Text sizes, legible on a phone (Discord shows the image 550 px wide there).
SPACE_SIZE = legible_size("space", WIDTH)  # square names ("K6")
COORD_SIZE = legible_size("coordinate", WIDTH, 20)  # letters and numbers around the board
VALUE_SIZE = legible_size("value", WIDTH)  # letters and numbers on tiles and pieces
TITLE_SIZE = legible_size("title", WIDTH)  # the table's labels
NAME_SIZE = legible_size("name", WIDTH)  # the table's player names
SCORE_SIZE = legible_size("score", WIDTH)  # the table's cards and counts

SAND: RGB = (244, 236, 214)  # a free landscape square
GRID_LINE: RGB = (196, 176, 136)
LABEL: RGB = (128, 104, 70)  # square names on sand
TRACK: RGB = (190, 122, 80)  # the camel track, terracotta
TRACK_LINE: RGB = (150, 88, 52)
TRACK_LABEL: RGB = (255, 240, 220)  # square names on the track
WATER: RGB = (64, 146, 206)
WATER_EDGE: RGB = (30, 92, 150)
HIGHLIGHT: RGB = GOLD  # the last placements

# The landscapes (spec §2): colour, pattern ink and the letter typed for them.
LAND_FILL: Mapping[str, RGB] = {
    "o": (72, 170, 150),  # oasis: green
    "s": (230, 200, 80),  # steppe: straw
    "d": (120, 112, 108),  # stony desert: grey
}
LAND_INK: Mapping[str, RGB] = {
    "o": (22, 92, 74),
    "s": (132, 104, 24),
    "d": (62, 56, 52),
}

# The seats' game colours (spec §2), by COLOURS name.
SEAT_RGB: Mapping[str, RGB] = {
    "red": (212, 44, 36),
    "blue": (36, 96, 206),
    "green": (40, 150, 64),
    "yellow": (248, 206, 36),
    "black": (44, 42, 40),
}

# A card on the table, face up: its chip, and the same dimmed once taken.
CHIP: RGB = (240, 232, 214)
CHIP_DIM: RGB = (100, 88, 76)
CHIP_DIM_TEXT: RGB = (226, 216, 196)

CAMEL_R = CELL * 0.25  # a camel's radius, px
PAWN_R = CAMEL_R  # a pawn's radius, px: it stands in a corner of its tile…
PAWN_AT = 0.68  # …its centre this far into the square, across and down

_SPRITE = 4  # supersampling factor for sprites
TIMES = "\u00d7"  # "×"


def seat_colour(seat: Seat) -> RGB:
    """The seat's Oasis colour: red, blue, green, yellow, black (spec §2)."""
    return SEAT_RGB[COLOURS[seat % len(COLOURS)]]


def cell_of(square: int) -> tuple[int, int]:
    """The 1-based (column, row) of a square index."""
    return square % BOARD_COLUMNS + 1, square // BOARD_COLUMNS + 1


@lru_cache(maxsize=SQUARES)
def centre_of(square: int) -> Point:
    return GRID.centre(*cell_of(square))


@lru_cache(maxsize=SQUARES)
def box_of(square: int) -> Box:
    return GRID.box(*cell_of(square))


def _word(lang: str, key: str, params: Params | None = None) -> str:
    return catalogue.text(lang, key, params)


def _title(lang: str, key: str, params: Params | None = None) -> str:
    """A catalogue word with a capital first letter ("camels" gives "Camels")."""
    word = catalogue.text(lang, key, params)
    return word[:1].upper() + word[1:]


# --------------------------------------------------------------------------- public API


def render_oasis(
    view: OasisView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> bytes:
    """PNG bytes of the board, the table and the score panel as ``view`` shows them.

    ``names[i]`` is seat i's display name (missing or unprintable ones fall
    back to "Player N"); ``tags[i]``, when given, badges seat i's row: "bot",
    "resigned" or None. Pure and CPU-only: safe in a worker process (bot/cpu.py).
    """
    return png_bytes(render_oasis_image(view, names, lang, tags))


def render_oasis_image(
    view: OasisView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> Image.Image:
    """The same picture as a Pillow RGB image (for tests and tools)."""
    shown = display_names(names, view.players, lang)
    panel = score_panel(view, names, lang, tags)
    table = table_height(view)
    canvas = _canvas(table, panel_height(panel, WIDTH))
    image = canvas.copy()
    draw = ImageDraw.Draw(image)  # every fill is opaque: no blending needed
    _draw_tiles(image, view)
    _draw_domains(draw, view)
    _draw_camels(image, draw, view)
    _draw_pawns(image, view)
    _draw_last(draw, view)
    _draw_space_names(image, view)
    _draw_table(image, draw, view, shown, lang, BOARD_BOTTOM)
    draw_panel_cached(image, panel, lang, top=BOARD_BOTTOM + table)
    return image


def render_oasis_hand(view: OasisView, names: Sequence[str], lang: str = "en") -> bytes | None:
    """A seat's private image for ``/game hand``: its face-down multiplier tiles
    by type, next to what each multiplies, its supply and its stack's size.
    None for a spectator's view (``view.viewer`` None)."""
    image = render_oasis_hand_image(view, names, lang)
    return None if image is None else png_bytes(image)


def named_squares(view: OasisView) -> list[int]:
    """Squares whose name is written on the board: those a move may still
    target, i.e. free landscape squares without a tile and track squares
    without a camel."""
    tiled = {sq for sq, _ in view.tiles}
    camels = {sq for sq, _ in view.camels}
    return [
        sq
        for sq in range(SQUARES)
        if (sq in BOARD.free and sq not in tiled) or (BOARD.kind(sq) == "=" and sq not in camels)
    ]


def domain_edges(squares: Sequence[int]) -> list[tuple[int, str]]:
    """The sides of a domain's squares that face outside it: (square, side),
    side one of "top", "right", "bottom", "left"."""
    inside = set(squares)
    edges = []
    for sq in squares:
        col, row = sq % BOARD_COLUMNS, sq // BOARD_COLUMNS
        for side, (dc, dr) in (
            ("top", (0, -1)),
            ("right", (1, 0)),
            ("bottom", (0, 1)),
            ("left", (-1, 0)),
        ):
            c, r = col + dc, row + dr
            if (
                not (0 <= c < BOARD_COLUMNS and 0 <= r < HEIGHT)
                or r * BOARD_COLUMNS + c not in inside
            ):
                edges.append((sq, side))
    return edges


# --------------------------------------------------------------------------- static layers


@drawing_cache
@lru_cache(maxsize=8)
def _canvas(table: int, panel: int) -> Image.Image:
    """The board layer with room below for the table and the panel, their cards
    drawn (shared: callers copy it before drawing)."""
    canvas = Image.new("RGB", (WIDTH, BOARD_BOTTOM + table + panel), BACKDROP)
    canvas.paste(_board_layer(), (0, 0))
    _draw_table_cards(ImageDraw.Draw(canvas), table)
    canvas.paste(panel_card(WIDTH, panel), (0, BOARD_BOTTOM + table))
    return canvas


@drawing_cache
@lru_cache(maxsize=1)
def _board_layer() -> Image.Image:
    """The printed board with the coordinates written around it and the
    bonus squares' letters."""
    layer = _terrain().copy()
    draw = ImageDraw.Draw(layer)
    draw_grid_labels(
        draw, GRID, BOARD_COLUMNS, HEIGHT, columns=tuple(COLUMNS), size=COORD_SIZE, gap=8
    )
    for sq, land in BOARD.bonus.items():
        x, y = centre_of(sq)
        draw_text(draw, (x, y + 2), land, VALUE_SIZE + 2, INK, anchor="mm", bold=True, role="value")
    return layer


@lru_cache(maxsize=1)
def _terrain() -> Image.Image:
    """Sand, track, springs, bonus squares and the grid (no text: kept when
    texts are recorded)."""
    size = (WIDTH, BOARD_BOTTOM)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        draw.rectangle((0, 0, size[0] * k, size[1] * k), fill=BACKDROP)
        for sq in range(SQUARES):
            kind = BOARD.kind(sq)
            fill = (
                TRACK
                if kind == "="
                else mix(LAND_FILL[kind], SAND, 0.45)
                if kind in LANDS
                else SAND
            )
            draw.rectangle(_scaled(box_of(sq), k), fill=fill)
        for sq in range(SQUARES):
            draw.rectangle(_scaled(box_of(sq), k), outline=GRID_LINE, width=round(k))
        for sq in BOARD.track:
            _paint_track(draw, sq, k)
        for sq in BOARD.springs:
            _paint_spring(draw, sq, k)
        for sq, land in BOARD.bonus.items():
            _paint_bonus(draw, sq, land, k)

    layer = supersampled(size, paint, scale=3).convert("RGB")
    draw = ImageDraw.Draw(layer)
    left, top = GRID.origin
    right, bottom = left + CELL * BOARD_COLUMNS, top + CELL * HEIGHT
    draw.rectangle((left - 2, top - 2, right + 1, bottom + 1), outline=INK, width=2)
    return layer


def _scaled(box: Box, k: float) -> Box:
    return box[0] * k, box[1] * k, box[2] * k, box[3] * k


def _paint_track(draw: ImageDraw.ImageDraw, sq: int, k: float) -> None:
    """A stretch of road: a dashed centre line towards each neighbouring track square."""
    x, y = centre_of(sq)
    for n in adjacent(sq):
        if BOARD.kind(n) != "=":
            continue
        nx, ny = centre_of(n)
        ex, ey = (x + nx) / 2, (y + ny) / 2
        for i in range(3):
            t0, t1 = i / 3 + 0.04, i / 3 + 0.2
            a = (x + (ex - x) * t0, y + (ey - y) * t0)
            b = (x + (ex - x) * t1, y + (ey - y) * t1)
            draw.line(
                [(a[0] * k, a[1] * k), (b[0] * k, b[1] * k)], fill=TRACK_LINE, width=round(3 * k)
            )


def _paint_spring(draw: ImageDraw.ImageDraw, sq: int, k: float) -> None:
    """A spring (printed oasis square): a pool under a palm."""
    x, y = centre_of(sq)
    pool = (x - CELL * 0.36, y + CELL * 0.06, x + CELL * 0.36, y + CELL * 0.36)
    draw.ellipse(_scaled(pool, k), fill=WATER, outline=WATER_EDGE, width=round(1.5 * k))
    ripple = (x - CELL * 0.2, y + CELL * 0.14, x + CELL * 0.16, y + CELL * 0.28)
    draw.arc(_scaled(ripple, k), 200, 340, fill=(170, 214, 240), width=round(1.5 * k))
    draw_palm(
        draw,
        ((x - CELL * 0.06) * k, (y + CELL * 0.02) * k),
        CELL * 0.34 * k,
        (120, 84, 44),
        (36, 128, 60),
        INK,
    )


def _paint_bonus(draw: ImageDraw.ImageDraw, sq: int, land: str, k: float) -> None:
    """A bonus square: its landscape, faint, under a white star (the letter is
    written on it by the board layer)."""
    x0, y0, x1, y1 = box_of(sq)
    _paint_pattern(draw, land, (x0 + 1, y0 + 1, x1 - 1, y1 - 1), k, faint=True)
    x, y = centre_of(sq)
    star = shape_points("star", (x * k, y * k), CELL * 0.36 * k)
    draw.polygon(star, fill=PAPER, outline=INK, width=round(2 * k))


def _paint_pattern(
    draw: ImageDraw.ImageDraw, land: str, box: Box, k: float, *, faint: bool = False
) -> None:
    """A landscape's pattern in ``box``: oasis a palm, steppe grass tufts, stony
    desert stones."""
    x0, y0, x1, y1 = box
    w = x1 - x0
    ink = LAND_INK[land] if not faint else mix(LAND_INK[land], LAND_FILL[land], 0.5)
    if land == "o":
        draw_palm(
            draw,
            ((x0 + w * 0.62) * k, (y0 + w * 0.52) * k),
            w * 0.36 * k,
            mix(ink, (120, 84, 44), 0.5),
            ink,
        )
        wave = (x0 + w * 0.16, y0 + w * 0.7, x0 + w * 0.5, y0 + w * 0.86)
        draw.arc(_scaled(wave, k), 200, 340, fill=ink, width=round(2 * k))
        wave = (x0 + w * 0.5, y0 + w * 0.74, x0 + w * 0.84, y0 + w * 0.9)
        draw.arc(_scaled(wave, k), 200, 340, fill=ink, width=round(2 * k))
    elif land == "s":
        for fx, fy in ((0.38, 0.5), (0.7, 0.3), (0.5, 0.66), (0.2, 0.84), (0.82, 0.78)):
            bx, by = x0 + w * fx, y0 + w * fy
            for dx in (-0.08, 0.0, 0.08):
                tip = (bx + w * dx * 1.4, by - w * 0.16 + abs(dx) * w * 0.5)
                draw.line(
                    [(bx * k, by * k), (tip[0] * k, tip[1] * k)], fill=ink, width=round(2 * k)
                )
    else:
        light = mix(LAND_FILL[land], (255, 255, 255), 0.35 if not faint else 0.2)
        for fx, fy, r in (
            (0.38, 0.46, 0.1),
            (0.68, 0.3, 0.08),
            (0.56, 0.66, 0.12),
            (0.22, 0.78, 0.07),
            (0.84, 0.8, 0.07),
        ):
            cx, cy = x0 + w * fx, y0 + w * fy
            stone = (cx - w * r, cy - w * r * 0.72, cx + w * r, cy + w * r * 0.72)
            draw.ellipse(_scaled(stone, k), fill=ink, outline=None)
            shine = (cx - w * r * 0.6, cy - w * r * 0.6, cx + w * r * 0.2, cy)
            draw.ellipse(_scaled(shine, k), fill=light)


# --------------------------------------------------------------------------- sprites


@drawing_cache
@lru_cache(maxsize=32)
def tile_sprite(land: str, size: int, pattern: bool = True) -> Image.Image:
    """A landscape tile ``size`` px square: its colour, its pattern (when
    ``pattern``) and its letter (top-left with a pattern, else centred)."""
    fill = LAND_FILL[land]

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        s = size * k
        draw.rounded_rectangle(
            (0, 0, s - 1, s - 1),
            radius=s * 0.1,
            fill=fill,
            outline=mix(fill, INK, 0.45),
            width=round(2 * k),
        )
        if pattern:
            _paint_pattern(draw, land, (0, 0, size, size), k)

    sprite = supersampled((size, size), paint, _SPRITE)
    draw = ImageDraw.Draw(sprite)
    if pattern:
        xy, anchor = (size * 0.16, size * 0.1), "la"
    else:
        xy, anchor = (size / 2, size / 2 + 1), "mm"
    draw_text(draw, xy, land, VALUE_SIZE, INK, anchor=anchor, bold=True, role="value")
    return sprite


@drawing_cache
@lru_cache(maxsize=32)
def piece_sprite(seat: Seat, radius: float, pawn: bool) -> Image.Image:
    """A pawn (``pawn``) or a camel: the owner's shape in the owner's colour,
    rimmed in ink, with the seat number; a pawn also wears a paper halo so it
    stands out on any tile."""
    style = player_style(seat)
    fill = seat_colour(seat)
    d = math.ceil(radius * 3)
    centre = (d / 2, d / 2)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = (centre[0] * k, centre[1] * k)
        r = radius * k
        draw.polygon(
            shape_points(style.shape, (c[0], c[1] + r * 0.1), r * 1.04), fill=with_alpha(INK, 90)
        )
        if pawn:
            draw.polygon(shape_points(style.shape, c, r + 3 * k), fill=PAPER)
        draw.polygon(shape_points(style.shape, c, r), fill=INK)
        draw.polygon(shape_points(style.shape, c, r - 2.2 * k), fill=fill)

    sprite = supersampled((d, d), paint, _SPRITE)
    ink = INK if sum(fill) > 420 else PAPER
    text_y = centre[1] + (radius * 0.2 if style.shape == "triangle" else 0)
    draw_text(
        ImageDraw.Draw(sprite),
        (centre[0], text_y),
        style.letter,
        max(VALUE_SIZE, round(radius * 0.9)),
        ink,
        anchor="mm",
        bold=True,
        role="value",
    )
    return sprite


@lru_cache(maxsize=32)
def icon_sprite(kind: str, size: int) -> Image.Image:
    """An effect's icon on a light badge: a multiplier ("goods", "wells",
    "horses", "ovoos"), "camels", or "cards" (no text: the same in every
    language, and never a multiplier's word)."""

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        s = size * k
        draw.rounded_rectangle(
            (0, 0, s - 1, s - 1), radius=s * 0.2, fill=CHIP, outline=INK, width=round(1.5 * k)
        )
        _paint_icon(draw, kind, s)

    return supersampled((size, size), paint, _SPRITE)


def _paint_icon(draw: ImageDraw.ImageDraw, kind: str, s: float) -> None:
    """The glyph of :func:`icon_sprite` in a badge ``s`` px wide (supersampled px)."""
    line = max(1, round(s * 0.06))
    if kind == "goods":  # a crate
        box = (s * 0.2, s * 0.24, s * 0.8, s * 0.78)
        draw.rectangle(box, fill=(196, 134, 70), outline=INK, width=line)
        draw.line([(box[0], box[1]), (box[2], box[3])], fill=INK, width=line)
        draw.line([(box[2], box[1]), (box[0], box[3])], fill=INK, width=line)
    elif kind == "wells":  # a well: water in a stone ring
        ring = (s * 0.18, s * 0.18, s * 0.82, s * 0.82)
        draw.ellipse(ring, fill=(150, 140, 124), outline=INK, width=line)
        inner = (s * 0.3, s * 0.3, s * 0.7, s * 0.7)
        draw.ellipse(inner, fill=WATER)
    elif kind == "horses":  # a horseshoe
        shoe = (s * 0.2, s * 0.16, s * 0.8, s * 0.82)
        draw.arc(shoe, 130, 50, fill=INK, width=round(s * 0.17))
        draw.arc(
            (shoe[0] + s * 0.03, shoe[1] + s * 0.03, shoe[2] - s * 0.03, shoe[3] - s * 0.03),
            132,
            48,
            fill=(126, 132, 150),
            width=round(s * 0.1),
        )
    elif kind == "ovoos":  # a cairn with a blue scarf
        for fx, fy, rx, ry in (
            (0.5, 0.74, 0.3, 0.1),
            (0.5, 0.54, 0.22, 0.1),
            (0.5, 0.36, 0.13, 0.09),
        ):
            draw.ellipse(
                (s * (fx - rx), s * (fy - ry), s * (fx + rx), s * (fy + ry)),
                fill=(150, 140, 134),
                outline=INK,
                width=line,
            )
        draw.line([(s * 0.5, s * 0.26), (s * 0.5, s * 0.1)], fill=INK, width=line)
        draw.polygon([(s * 0.5, s * 0.1), (s * 0.74, s * 0.16), (s * 0.5, s * 0.22)], fill=WATER)
    elif kind == "camels":
        _paint_camel(draw, (s * 0.1, s * 0.14, s * 0.9, s * 0.86), (150, 98, 52))
    else:  # "cards": two cards, one over the other
        draw.rounded_rectangle(
            (s * 0.18, s * 0.16, s * 0.6, s * 0.74),
            radius=s * 0.06,
            fill=(128, 52, 36),
            outline=INK,
            width=line,
        )
        draw.rounded_rectangle(
            (s * 0.4, s * 0.28, s * 0.82, s * 0.86),
            radius=s * 0.06,
            fill=PAPER,
            outline=INK,
            width=line,
        )


def _paint_camel(draw: ImageDraw.ImageDraw, box: Box, fill: RGB) -> None:
    """A camel seen from the side, facing right, inside ``box``."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0

    def p(fx: float, fy: float) -> Point:
        return x0 + w * fx, y0 + h * fy

    legs = max(1, round(w * 0.07))
    for fx in (0.24, 0.34, 0.6, 0.7):
        draw.line([p(fx, 0.55), p(fx, 0.96)], fill=INK, width=legs)
    body = [
        p(0.12, 0.5),
        p(0.2, 0.3),
        p(0.34, 0.12),
        p(0.48, 0.3),
        p(0.62, 0.36),
        p(0.74, 0.38),
        p(0.8, 0.14),
        p(0.9, 0.08),
        p(0.98, 0.16),
        p(0.9, 0.22),
        p(0.86, 0.5),
        p(0.76, 0.62),
        p(0.2, 0.64),
    ]
    draw.polygon(body, fill=fill, outline=INK, width=max(1, round(w * 0.03)))


# --------------------------------------------------------------------------- dynamic layers


def _draw_tiles(image: Image.Image, view: OasisView) -> None:
    """Each tile with what lies under it, pasted as is (no blending per render)."""
    grounds, _ = _tile_grounds()
    for sq, land in view.tiles:
        image.paste(_tile_on(land, grounds[sq]), _tile_region(sq)[:2])


@lru_cache(maxsize=SQUARES)
def _tile_region(sq: int) -> Region:
    """The px of a tile on square ``sq``: inside its grid lines."""
    x0, y0, _, _ = box_of(sq)
    left, top = round(x0) + 1, round(y0) + 1
    return left, top, left + CELL - 2, top + CELL - 2


@lru_cache(maxsize=1)
def _tile_grounds() -> tuple[tuple[int, ...], tuple[Image.Image, ...]]:
    """What lies under a tile on each square, as an index into the distinct
    grounds (a few, each shared by many squares: sand, a landscape…), and those."""
    layer = _board_layer()
    index: dict[bytes, int] = {}
    grounds: list[Image.Image] = []
    under = []
    for sq in range(SQUARES):
        ground = layer.crop(_tile_region(sq))
        if (pixels := ground.tobytes()) not in index:
            index[pixels] = len(grounds)
            grounds.append(ground)
        under.append(index[pixels])
    return tuple(under), tuple(grounds)


@drawing_cache
@lru_cache(maxsize=32)
def _tile_on(land: str, ground: int) -> Image.Image:
    """A landscape tile blended onto ground ``ground`` of :func:`_tile_grounds`."""
    sprite = tile_sprite(land, CELL - 2)
    tile = _tile_grounds()[1][ground].copy()
    tile.paste(sprite, (0, 0), sprite)
    return tile


DOMAIN_LINE = 6  # px: a domain's frame, in its owner's colour
DOMAIN_EDGE = 2  # px: its ink edge, on the inner side


def _side_strip(sq: int, side: str, width: float) -> Box:
    """The strip ``width`` px wide along one side of a square, inside it."""
    x0, y0, x1, y1 = box_of(sq)
    x0, y0 = x0 + 1, y0 + 1  # inside the grid line
    if side == "top":
        return x0, y0, x1, y0 + width
    if side == "bottom":
        return x0, y1 - width, x1, y1
    if side == "left":
        return x0, y0, x0 + width, y1
    return x1 - width, y0, x1, y1


def _inner_corners(squares: Sequence[int]) -> list[tuple[int, int, int]]:
    """Concave corners of a domain: (square, dx, dy) where the square's
    neighbours towards dx and dy are in the domain but the diagonal one is
    not, so the frame must turn there."""
    inside = set(squares)
    out = []
    for sq in squares:
        col, row = sq % BOARD_COLUMNS, sq // BOARD_COLUMNS
        for dx in (-1, 1):
            for dy in (-1, 1):
                c, r = col + dx, row + dy
                if not (0 <= c < BOARD_COLUMNS and 0 <= r < HEIGHT):
                    continue
                if (
                    row * BOARD_COLUMNS + c in inside
                    and r * BOARD_COLUMNS + col in inside
                    and r * BOARD_COLUMNS + c not in inside
                ):
                    out.append((sq, dx, dy))
    return out


def _corner_box(sq: int, dx: int, dy: int, width: float) -> Box:
    x0, y0, x1, y1 = box_of(sq)
    x0, y0 = x0 + 1, y0 + 1
    x = x1 - width if dx > 0 else x0
    y = y1 - width if dy > 0 else y0
    return x, y, x + width, y + width


def _draw_domains(draw: ImageDraw.ImageDraw, view: OasisView) -> None:
    """Each domain framed just inside its outer edge: in its owner's colour
    with an ink edge, or dashed paper and ink when nobody owns it."""
    for domain in view.domains:
        _frame(draw, domain)


def _frame(draw: ImageDraw.ImageDraw, domain: DomainView) -> None:
    edge, line, dashes = _frame_boxes(domain.squares)
    for box in edge:
        draw.rectangle(box, fill=INK)
    colour = PAPER if domain.owner is None else seat_colour(domain.owner)
    for box in line:
        draw.rectangle(box, fill=colour)
    if domain.owner is None:  # dashes: unowned
        for box in dashes:
            draw.rectangle(box, fill=INK)


FrameBoxes = tuple[tuple[Box, ...], tuple[Box, ...], tuple[Box, ...]]


@lru_cache(maxsize=64)
def _frame_boxes(squares: tuple[int, ...]) -> FrameBoxes:
    """A domain's frame as boxes to fill: its ink edge, its line (the owner's
    colour) and the ink dashes of an unowned one; kept while the domain stays."""
    edges = domain_edges(squares)
    corners = _inner_corners(squares)
    outer = DOMAIN_LINE + DOMAIN_EDGE
    edge = [_side_strip(sq, side, outer) for sq, side in edges]
    edge += [_corner_box(sq, dx, dy, outer) for sq, dx, dy in corners]
    line = [_side_strip(sq, side, DOMAIN_LINE) for sq, side in edges]
    line += [_corner_box(sq, dx, dy, DOMAIN_LINE) for sq, dx, dy in corners]
    dash = CELL / 6
    dashes = []
    for sq, side in edges:
        x0, y0, x1, y1 = _side_strip(sq, side, DOMAIN_LINE)
        for i in range(0, 6, 2):
            if side in ("top", "bottom"):
                dashes.append((x0 + i * dash + dash / 2, y0, x0 + (i + 1) * dash + dash / 2, y1))
            else:
                dashes.append((x0, y0 + i * dash + dash / 2, x1, y0 + (i + 1) * dash + dash / 2))
    return tuple(edge), tuple(line), tuple(dashes)


def _draw_camels(image: Image.Image, draw: ImageDraw.ImageDraw, view: OasisView) -> None:
    """Camels on the track; a herd's neighbours joined by a band of their colour."""
    owner = dict(view.camels)
    for sq, seat in view.camels:
        for n in adjacent(sq):
            if n > sq and owner.get(n) == seat:
                a, b = centre_of(sq), centre_of(n)
                draw.line([a, b], fill=INK, width=16)
                draw.line([a, b], fill=seat_colour(seat), width=10)
    for sq, seat in view.camels:
        paste_centred(image, piece_sprite(seat, CAMEL_R, False), centre_of(sq))


def pawn_centre(sq: int) -> Point:
    """Where an owner pawn stands on its tile: the bottom-right quarter, so the
    tile's letter (top left) and most of its pattern stay in sight even on
    a one-tile domain."""
    x0, y0, _, _ = box_of(sq)
    return x0 + CELL * PAWN_AT, y0 + CELL * PAWN_AT


def _draw_pawns(image: Image.Image, view: OasisView) -> None:
    for domain in view.domains:
        if domain.owner is not None and domain.pawn is not None:
            paste_centred(image, piece_sprite(domain.owner, PAWN_R, True), pawn_centre(domain.pawn))


def _draw_last(draw: ImageDraw.ImageDraw, view: OasisView) -> None:
    """The squares the last acquisition or bonus changed, framed in gold
    between ink lines, just inside any domain frame."""
    inset = DOMAIN_LINE + DOMAIN_EDGE
    for sq in view.last:
        x0, y0, x1, y1 = box_of(sq)
        draw.rectangle((x0 + inset, y0 + inset, x1 - inset, y1 - inset), outline=INK, width=8)
        draw.rectangle(
            (x0 + inset + 1.5, y0 + inset + 1.5, x1 - inset - 1.5, y1 - inset - 1.5),
            outline=HIGHLIGHT,
            width=5,
        )


def space_name_anchor(sq: int) -> Point:
    """Where a square's name goes (baseline centre): the middle of the square."""
    x, y = centre_of(sq)
    return x, y + SPACE_SIZE * 0.34


NAME_REGIONS = RegionCache(48)  # runs of named squares along a board row


def _draw_space_names(image: Image.Image, view: OasisView) -> None:
    """The name of every square a move may target, faint but legible on a phone;
    names of neighbouring squares along a row pasted back together while they
    all stay open (on an open square, only a last placement's frame is drawn)."""
    last = set(view.last)
    for run in square_runs(named_squares(view), BOARD_COLUMNS):
        key = (run, tuple(sq in last for sq in run))
        paint = partial(_stamp_space_names, image, run)
        NAME_REGIONS.draw(image, _names_region(run), key, paint)


def _stamp_space_names(image: Image.Image, squares: Sequence[int]) -> None:
    """The names of ``squares``, light on the track, brown on sand."""
    for sq in squares:
        track = BOARD.kind(sq) == "="
        stamp_text(
            image,
            space_name_anchor(sq),
            name(sq),
            SPACE_SIZE,
            TRACK_LABEL if track else LABEL,
            anchor="ms",
            bold=True,
            role="space",
        )


@lru_cache(maxsize=256)
def _names_region(squares: tuple[int, ...]) -> Region:
    """The px the names of ``squares`` may ink."""
    return union(
        text_region(name(sq), SPACE_SIZE, space_name_anchor(sq), "ms", bold=True) for sq in squares
    )


# --------------------------------------------------------------------------- the table

TABLE_INSET = 26  # image side to the table's cards, as the panel's
PILE_LINE = 46  # one line of piles
PILES_H = 2 * PILE_LINE + 22  # the piles' card, and the gap after it
OFFERS_TITLE = 40  # the table's title line
OFFERS_COLUMNS = 30  # its column titles
OFFER_ROW = 52
SCORING_LINE = 40  # the scoring rule, once over
OFFERS_PAD = 18  # below the last row, and the gap before the panel
ICON = 32  # px: a pile's or a chip's icon
RANK_TILE = 36  # px: a rank tile
RANK_COL = 110  # px: the rank column (the tile held and the tile received)
ROW_PAD = 8  # px: a row's side to its first and last column
COLUMN_GAP = 16  # px: between two columns of the offer table
CHIP_GAP = 8  # px: between two cards of an offer
NAME_ROOM = 84  # px: a name is never shortened below this to make room for the cards
WARN_TILES = 4  # a landscape pile this low is shown as a warning


def table_height(view: OasisView) -> int:
    """Height of the table under the board: the piles and the offers."""
    over = SCORING_LINE if view.phase == "over" else 0
    return PILES_H + OFFERS_TITLE + OFFERS_COLUMNS + OFFER_ROW * len(view.order) + over + OFFERS_PAD


TABLE_REGIONS = RegionCache(16)  # the table's lines and rows, by what they show


def _draw_table(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: OasisView,
    names: Sequence[str],
    lang: str,
    top: int,
) -> None:
    """The piles and the offers, on their cards (drawn in the canvas)."""
    _draw_piles(image, draw, view, lang, top)
    _draw_offers(image, draw, view, names, lang, top + PILES_H)


def _card(draw: ImageDraw.ImageDraw, top: float, bottom: float) -> None:
    draw.rounded_rectangle(
        (TABLE_INSET, top, WIDTH - TABLE_INSET, bottom),
        radius=12,
        fill=CARD,
        outline=CARD_EDGE,
        width=2,
    )


def _draw_table_cards(draw: ImageDraw.ImageDraw, table: int) -> None:
    """The piles' card and the offers' card of a table ``table`` px high."""
    top = BOARD_BOTTOM
    _card(draw, top + 2, top + 2 * PILE_LINE + 12)
    _card(draw, top + PILES_H, top + table - OFFERS_PAD + 8)


def _band(top: float, height: float) -> Region:
    """A line of the table, across the image."""
    return 0, round(top), WIDTH, round(top + height)


def _draw_piles(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: OasisView, lang: str, top: int
) -> None:
    """Two lines: the landscape piles (and how full the track is), then the
    multiplier piles (by icon) and the draw and discard piles."""
    lands = tuple(view.lands.get(land, 0) for land in LANDS)
    filled = len(view.camels)
    line = _band(top + 8, PILE_LINE)
    mid = top + 8 + PILE_LINE / 2
    paint = partial(_draw_land_piles, image, draw, lang, lands, filled, mid)
    TABLE_REGIONS.draw(image, line, ("lands", lang, lands, filled, line), paint)
    piles = tuple(view.piles.get(kind, 0) for kind in MULTIPLIERS)
    cards = (view.draw, len(view.discard))
    line = _band(top + 8 + PILE_LINE, PILE_LINE)
    paint = partial(_draw_multiplier_piles, image, draw, lang, piles, cards, mid + PILE_LINE)
    TABLE_REGIONS.draw(image, line, ("multipliers", lang, piles, cards, line), paint)


def _pile_title(draw: ImageDraw.ImageDraw, lang: str, line: int, mid: float) -> float:
    """A pile line's title; returns where its piles start (both lines alike)."""
    titles = (_word(lang, "oasis.render.tiles"), _word(lang, "oasis.render.multipliers"))
    left = TABLE_INSET + 18
    title = titles[line]
    draw_text(draw, (left, mid), title, TITLE_SIZE, MUTED, anchor="lm", bold=True, role="title")
    return left + max(text_width(t, TITLE_SIZE, bold=True) for t in titles) + 22


PILES_RIGHT = WIDTH - TABLE_INSET - 18  # where the pile lines' right-hand words end


def _draw_land_piles(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    lang: str,
    lands: Sequence[int],
    filled: int,
    mid: float,
) -> None:
    """The landscape piles (tiles left, by landscape) and how full the track is."""
    x = _pile_title(draw, lang, 0, mid)
    for land, count in zip(LANDS, lands, strict=True):
        paste_centred(image, tile_sprite(land, ICON, False), (x + ICON / 2, mid))
        words = f"{_word(lang, f'oasis.land.{land}')} {count}"
        colour = WARN if count <= WARN_TILES else PAPER
        x += ICON + 8
        x += draw_text(draw, (x, mid), words, SCORE_SIZE, colour, anchor="lm", role="score")
        x += 26
    track = _word(lang, "oasis.render.track", {"count": filled, "total": len(BOARD.track)})
    colour = WARN if len(BOARD.track) - filled <= WARN_TILES else PAPER
    draw_text(draw, (PILES_RIGHT, mid), track, SCORE_SIZE, colour, anchor="rm", role="score")


def _draw_multiplier_piles(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    lang: str,
    piles: Sequence[int],
    cards: tuple[int, int],
    mid: float,
) -> None:
    """The multiplier piles (tiles left, by icon and word), the draw and discard piles."""
    x = _pile_title(draw, lang, 1, mid)
    for kind, count in zip(MULTIPLIERS, piles, strict=True):
        paste_centred(image, icon_sprite(kind, ICON), (x + ICON / 2, mid))
        x += ICON + 6
        # Words beside the icon, as the landscape line has: an icon alone needed a legend.
        pile = f"{_word(lang, f'oasis.multiplier.{kind}')} {count}"
        x += draw_text(draw, (x, mid), pile, SCORE_SIZE, PAPER, anchor="lm", role="score")
        x += 16
    words = "{} · {}".format(
        _word(lang, "oasis.render.draw", {"count": cards[0]}),
        _word(lang, "oasis.render.discard", {"count": cards[1]}),
    )
    draw_text(draw, (PILES_RIGHT, mid), words, SCORE_SIZE, PAPER, anchor="rm", role="score")


@dataclass(frozen=True)
class OfferColumns:
    """Where the offer table's columns start (x, px) and how wide the names
    and the cards may be: rank tiles, the offering player, the cards offered,
    who took them."""

    rank: float
    player: float
    offer: float
    taken: float
    player_name: float  # room for the offering player's name
    offer_width: float  # room for the cards
    taken_name: float  # room for the taker's name


def offer_words(code: str, lang: str) -> str:
    """A face-up card as the offer table says it: what taking it gives, in
    words ("2 oasis tiles", "3 camels", "2 goods", "1 well", "3 cards")."""
    kind = card(code)
    if kind.effect in LANDS:
        term = Term(
            "oasis.owed.tiles", {"count": kind.amount, "land": Term(f"oasis.land.{kind.effect}")}
        )
    elif kind.effect == "camels":
        term = Term("oasis.owed.camels", {"count": kind.amount})
    elif kind.effect in MULTIPLIERS:
        term = multiplier_count(kind.effect, kind.amount)
    else:
        term = Term("oasis.picture.offer.cards", {"count": kind.amount})
    return catalogue.term(lang, term)


def _chip_width(text: str) -> float:
    """A chip's natural width: its icon, its words and the padding."""
    return ICON + 20 + text_width(text, SCORE_SIZE)


def _offer_width(view: OasisView, seat: Seat, lang: str) -> float:
    """The width a seat's offer takes at its natural size (0 without cards)."""
    cards = view.offers[seat]
    return sum(_chip_width(offer_words(c, lang)) for c in cards) + CHIP_GAP * max(0, len(cards) - 1)


def offer_columns(view: OasisView, names: Sequence[str], lang: str) -> OfferColumns:
    """The offer table's columns, fitted to this table: names take the room
    they need unless the cards need it (then they are shortened, down to
    :data:`NAME_ROOM`), the cards keep their words, and the takers go on the
    right."""
    left = TABLE_INSET + 14 + ROW_PAD
    right = WIDTH - TABLE_INSET - 14 - ROW_PAD
    token = 2 * CAMEL_R + 8  # a seat's token and the gap after it
    titles = [
        text_width(_word(lang, key), TITLE_SIZE, bold=True)
        for key in (
            "oasis.picture.col.player",
            "oasis.picture.col.offer",
            "oasis.picture.col.taken",
        )
    ]
    seats = [s for s in view.order if s < len(names)]
    takers = [t for s in seats if (t := view.taken[s]) is not None and t < len(names)]
    player = max([titles[0] - token] + [text_width(names[s], NAME_SIZE, bold=True) for s in seats])
    taken = max([titles[2] - token] + [text_width(names[t], NAME_SIZE) for t in takers])
    offer = max([titles[1]] + [_offer_width(view, s, lang) for s in seats])
    room = right - left - RANK_COL - 2 * COLUMN_GAP - 2 * token
    excess = player + taken + offer - room
    if excess > 0:  # shorten the longer names first, never below NAME_ROOM
        spare = max(0.0, player - NAME_ROOM) + max(0.0, taken - NAME_ROOM)
        cut = min(excess, spare)
        if spare:
            player -= cut * max(0.0, player - NAME_ROOM) / spare
            taken -= cut * max(0.0, taken - NAME_ROOM) / spare
    player_x = left + RANK_COL
    offer_x = player_x + token + player + COLUMN_GAP
    taken_x = right - token - taken
    return OfferColumns(
        rank=left,
        player=player_x,
        offer=offer_x,
        taken=taken_x,
        player_name=player,
        offer_width=taken_x - COLUMN_GAP - offer_x,
        taken_name=taken,
    )


def _draw_offers(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: OasisView,
    names: Sequence[str],
    lang: str,
    top: int,
) -> None:
    """This round's offers as a table, one row per seat in rank order (the
    hierarchy), under column titles: rank, player, offer, taken by. Each line
    is pasted back while it shows the same (see :data:`TABLE_REGIONS`)."""
    table = table_height(view)  # the card's height: what lies under its last lines
    last = ""
    if view.last and view.last_seat is not None and view.last_seat < len(names):
        last = _word(lang, "oasis.render.last", {"player": names[view.last_seat]})
    line = _band(top, OFFERS_TITLE)
    paint = partial(_draw_offers_title, draw, lang, last, top)
    TABLE_REGIONS.draw(image, line, ("offers", lang, last, table, line), paint)
    columns = offer_columns(view, names, lang)
    line = _band(top + OFFERS_TITLE, OFFERS_COLUMNS)
    paint = partial(_draw_offer_titles, draw, lang, columns, top + OFFERS_TITLE)
    TABLE_REGIONS.draw(image, line, ("columns", lang, columns, table, line), paint)
    y = top + OFFERS_TITLE + OFFERS_COLUMNS
    for seat in view.order:
        row = offer_row(view, seat, names)
        box = (OFFERS_LEFT, y, OFFERS_RIGHT, y + OFFER_ROW - 6)
        line = _band(y, OFFER_ROW)
        paint = partial(_draw_offer_row, image, draw, row, lang, box, columns)
        TABLE_REGIONS.draw(image, line, ("offer", row, lang, columns, table, line), paint)
        y += OFFER_ROW
    if view.phase == "over":
        line = _band(y, SCORING_LINE)
        paint = partial(_draw_scoring_rule, draw, lang, y)
        TABLE_REGIONS.draw(image, line, ("scoring", lang, table, line), paint)


OFFERS_LEFT = TABLE_INSET + 14  # the offer table's rows
OFFERS_RIGHT = WIDTH - TABLE_INSET - 14


def _draw_offers_title(draw: ImageDraw.ImageDraw, lang: str, last: str, top: float) -> None:
    """The table's title and, on the right, whose placements are framed in gold."""
    mid = top + OFFERS_TITLE / 2 + 2
    title = _word(lang, "oasis.render.offers")
    width = draw_text(
        draw, (OFFERS_LEFT + 4, mid), title, TITLE_SIZE, MUTED, anchor="lm", bold=True, role="title"
    )
    if last:
        last = fit_text(last, TITLE_SIZE, OFFERS_RIGHT - OFFERS_LEFT - width - 40, bold=True)
        draw_text(
            draw,
            (OFFERS_RIGHT - 4, mid),
            last,
            TITLE_SIZE,
            GOLD,
            anchor="rm",
            bold=True,
            role="title",
        )


def _draw_offer_titles(
    draw: ImageDraw.ImageDraw, lang: str, columns: OfferColumns, top: float
) -> None:
    """The column titles: rank, player, offer, taken by."""
    mid = top + OFFERS_COLUMNS / 2 - 3
    for x, key in (
        (columns.rank, "oasis.render.col.rank"),
        (columns.player, "oasis.picture.col.player"),
        (columns.offer, "oasis.picture.col.offer"),
        (columns.taken, "oasis.picture.col.taken"),
    ):
        draw_text(
            draw,
            (x, mid),
            _word(lang, key),
            TITLE_SIZE,
            MUTED,
            anchor="lm",
            bold=True,
            role="title",
        )


def _draw_scoring_rule(draw: ImageDraw.ImageDraw, lang: str, top: float) -> None:
    """Once over, under the rows: how the scores were counted."""
    rule = fit_text(
        _word(lang, "oasis.render.scoring"),
        TITLE_SIZE,
        OFFERS_RIGHT - OFFERS_LEFT - 8,
        bold=True,
    )
    draw_text(
        draw,
        (OFFERS_LEFT + 4, top + SCORING_LINE / 2 - 4),
        rule,
        TITLE_SIZE,
        MUTED,
        anchor="lm",
        bold=True,
        role="title",
    )


def _rank_tile(
    draw: ImageDraw.ImageDraw, rank: int, centre: Point, size: float, *, received: bool = False
) -> None:
    """A rank tile: its number on parchment (gold for the Noble), dimmer when
    it is the tile received this round (it takes effect at the round's end)."""
    x, y = centre
    fill = GOLD if rank == 1 else (236, 226, 200)
    if received:
        fill = mix(fill, CARD, 0.3)
    draw.rounded_rectangle(
        (x - size / 2, y - size / 2, x + size / 2, y + size / 2),
        radius=size * 0.18,
        fill=fill,
        outline=INK,
        width=2,
    )
    draw_text(draw, (x, y + 1), str(rank), SCORE_SIZE, INK, anchor="mm", bold=True, role="score")


def _draw_seat(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: Seat,
    name: str,
    xy: Point,
    room: float,
    *,
    bold: bool = False,
) -> None:
    """A seat's token (its colour, shape and number) and its name beside it."""
    x, mid = xy
    paste_centred(image, piece_sprite(seat, CAMEL_R, False), (x + CAMEL_R, mid))
    who = fit_text(name, NAME_SIZE, room, bold=bold)
    draw_text(
        draw, (x + 2 * CAMEL_R + 8, mid), who, NAME_SIZE, PAPER, anchor="lm", bold=bold, role="name"
    )


@dataclass(frozen=True)
class OfferRow:
    """What a row of the offer table shows (so rows showing the same are drawn once)."""

    seat: Seat
    rank: int
    received: int | None  # the rank tile received this round
    acting: bool
    name: str
    cards: tuple[str, ...]
    taker: Seat | None
    taker_name: str
    empty: str  # without cards: the catalogue key of what the row says, or ""
    open: bool  # on the table, nobody has taken it yet


def offer_row(view: OasisView, seat: Seat, names: Sequence[str]) -> OfferRow:
    """Seat ``seat``'s row of the offer table, as ``view`` shows it."""
    taker = view.taken[seat]
    empty = ""
    if seat in view.out:
        empty = "oasis.render.no_offer"
    elif view.phase == "offer":
        empty = "oasis.render.waiting"
    return OfferRow(
        seat=seat,
        rank=view.ranks[seat],
        received=view.received[seat],
        acting=seat == view.current and view.phase != "over",
        name=names[seat] if seat < len(names) else "",
        cards=view.offers[seat],
        taker=taker,
        taker_name=names[taker] if taker is not None and taker < len(names) else "",
        empty=empty,
        open=view.phase != "offer",
    )


def _draw_offer_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    row: OfferRow,
    lang: str,
    box: Box,
    columns: OfferColumns,
) -> None:
    """One offer: the seat's rank tile (and the tile received this round),
    its token and name, its cards in words (dimmed once taken), and the
    token and name of who took them."""
    x0, y0, x1, y1 = box
    mid = (y0 + y1) / 2
    draw.rounded_rectangle(
        box,
        radius=8,
        fill=ROW_HILITE if row.acting else ROW,
        outline=GOLD if row.acting else None,
        width=2,
    )
    x = columns.rank
    _rank_tile(draw, row.rank, (x + RANK_TILE / 2, mid), RANK_TILE)
    if row.received:
        draw_arrow(draw, (x + RANK_TILE + 14, mid), 6)
        _rank_tile(draw, row.received, (x + RANK_TILE + 44, mid), RANK_TILE - 6, received=True)
    player = (columns.player, mid)
    _draw_seat(image, draw, row.seat, row.name, player, columns.player_name, bold=row.acting)
    x = columns.offer
    if not row.cards:
        if row.empty:
            words = fit_text(_word(lang, row.empty), TITLE_SIZE, columns.offer_width, bold=True)
            draw_text(
                draw, (x, mid), words, TITLE_SIZE, MUTED, anchor="lm", bold=True, role="title"
            )
        return
    texts = [offer_words(code, lang) for code in row.cards]
    room = columns.offer_width - CHIP_GAP * (len(row.cards) - 1)
    natural = [_chip_width(t) for t in texts]
    share = room / len(row.cards)
    widths = natural if sum(natural) <= room else [min(w, share) for w in natural]
    for code, text, width in zip(row.cards, texts, widths, strict=True):
        chip = (x, mid - 19, x + width, mid + 19)
        _draw_chip(image, draw, code, text, chip, dim=row.taker is not None)
        x += width + CHIP_GAP
    if row.taker is not None:
        taken = (columns.taken, mid)
        _draw_seat(image, draw, row.taker, row.taker_name, taken, columns.taken_name)
    elif row.open:  # on the table, nobody has taken it yet
        draw_text(
            draw, (columns.taken, mid), "\u2014", TITLE_SIZE, MUTED, anchor="lm", role="title"
        )


def _draw_chip(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    code: str,
    text: str,
    box: Box,
    *,
    dim: bool,
) -> None:
    """A face-up card: its effect's icon and its name; dimmed once taken."""
    x0, y0, x1, y1 = box
    mid = (y0 + y1) / 2
    draw.rounded_rectangle(
        box,
        radius=7,
        fill=CHIP_DIM if dim else CHIP,
        outline=INK if not dim else CARD_EDGE,
        width=2,
    )
    effect = card(code).effect  # a landscape letter, a multiplier, camels or cards
    size = ICON - 4
    paste_centred(image, chip_icon(effect, size, dim), (x0 + 5 + size / 2, mid))
    x = x0 + 10 + size
    shown = fit_text(text, SCORE_SIZE, x1 - x - 6)
    colour = CHIP_DIM_TEXT if dim else INK
    draw_text(draw, (x, mid), shown, SCORE_SIZE, colour, anchor="lm", role="score")


@drawing_cache
@lru_cache(maxsize=32)
def chip_icon(effect: str, size: int, dim: bool) -> Image.Image:
    """A card's effect icon: a landscape tile or an :func:`icon_sprite`; at
    about half opacity for a taken card (``dim``)."""
    icon = tile_sprite(effect, size, False) if effect in LANDS else icon_sprite(effect, size)
    if not dim:
        return icon
    faded = icon.copy()
    faded.putalpha(icon.getchannel("A").point(lambda a: a * 45 // 100))
    return faded


# --------------------------------------------------------------------------- score panel

# px at the panel's design width (render.panel.DESIGN_WIDTH)
NAME_W = 250  # marker and name
RANK_W = 86
COUNT_W = 72
WIDE_W = 98
TOTAL_W = 86
SUPPLY_W = 150


def score_panel(
    view: OasisView,
    names: Sequence[str],
    lang: str,
    tags: Sequence[str | None] | None = None,
) -> Panel:
    """The shared panel filled in for this view: the phase and who acts (or
    the winner); per player, during play, the rank tile (and the one
    received this round), cards in the stack, face-down multiplier tiles
    (how many), pawns and camels left in the supply, the largest herd and
    the squares owned per landscape; once over, the score line by line
    (factor × multipliers = points) and the total."""
    over = view.scores is not None
    columns: list[Column] = []
    if over:  # the rank order stays in the offers' rows, above
        for line in ("camels", "oasis", "steppe", "stony"):
            columns.append(Column(_title(lang, f"oasis.score.{line}")))
        columns.append(Column(catalogue.text(lang, "common.total"), width=TOTAL_W, space_before=8))
    else:
        columns += [
            Column(_word(lang, "oasis.render.col.rank"), width=RANK_W),
            Column(_word(lang, "oasis.render.col.stack"), width=COUNT_W),
            Column(_word(lang, "oasis.render.col.multipliers"), width=WIDE_W),
            Column(_word(lang, "oasis.render.col.supply"), width=SUPPLY_W),
            Column(_word(lang, "oasis.render.col.herd"), width=COUNT_W + 10),
        ]
        columns += [Column(LandTitle(land)) for land in LANDS]
    rows = []
    for seat in range(view.players):
        cells: list[Cell] = []
        if over:
            cells += [Cell(text) for text in score_texts(view, seat)]
            cells.append(Cell(str(total(view, seat)), strong=True))
        else:
            cells += [
                Cell(rank_text(view, seat)),
                Cell(str(view.stacks[seat])),
                Cell(str(view.multiplier_counts[seat])),
                Cell(paint=Supply(seat, view.pawns_left[seat], view.camels_left[seat])),
                Cell(str(view.herds[seat])),
            ]
            cells += [Cell(str(view.owned[seat].get(land, 0))) for land in LANDS]
        rows.append(
            Row(
                tuple(cells),
                seat=seat,
                name=names[seat] if seat < len(names) else "",
                tag=tags[seat] if tags is not None and seat < len(tags) else None,
                colour=seat_colour(seat),
            )
        )
    status, note = status_words(view, lang)
    return Panel(
        status=status,
        columns=tuple(columns),
        rows=tuple(rows),
        acting=() if over else view.awaiting,
        winners=view.winners,
        note=note,
        name_width=NAME_W,
    )


def rank_text(view: OasisView, seat: Seat) -> str:
    """The rank tile held ("3"), and the one received this round ("3 → 1")."""
    received = view.received[seat]
    rank = str(view.ranks[seat])
    return f"{rank} \u2192 {received}" if received else rank


def total(view: OasisView, seat: Seat) -> int:
    return sum(points for _, points in view.scores[seat]) if view.scores is not None else 0


LINE_LAND = {"oasis": "o", "steppe": "s", "stony": "d"}  # score line -> its landscape
LAND_OF = {kind: land for land, kind in MULTIPLIER_OF.items()}  # wells -> "o"…


def factor_of(view: OasisView, seat: Seat, kind: str) -> int:
    """What a multiplier multiplies for ``seat``: its largest herd (goods) or
    its squares of the matching landscape (wells: oasis, horses: steppe,
    ovoos: stony desert)."""
    land = LAND_OF.get(kind)
    return view.owned[seat].get(land, 0) if land else view.herds[seat]


def score_texts(view: OasisView, seat: Seat) -> list[str]:
    """Each score line once over: "6 × 3 = 18" (herd or squares × multipliers = points)."""
    if view.scores is None:
        return []
    held = view.multipliers[seat] or {}
    out = []
    for line, points in view.scores[seat]:
        land = LINE_LAND.get(line)
        kind = MULTIPLIER_OF[land] if land else "goods"
        if kind in held:
            out.append(f"{factor_of(view, seat, kind)} {TIMES} {held[kind]} = {points}")
        else:
            out.append(str(points))
    return out


# The panel's painters are values, not partials: rows equal when they show the
# same, so the panel's regions are cached by what they show (render.panel_memo).


@dataclass(frozen=True)
class LandTitle:
    """A column title for the squares owned of one landscape: its tile, with its letter."""

    land: str

    def __call__(self, image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
        m = panel_metrics(image.width)
        size = round(m.px(30))
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        paste_centred(image, tile_sprite(self.land, size, False), centre)


@dataclass(frozen=True)
class Supply:
    """Pawns and camels left in a seat's supply: its marker, then a camel, each
    with its count."""

    seat: Seat
    pawns: int
    camels: int

    def __call__(self, image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
        m = panel_metrics(image.width)
        mid = (box[1] + box[3]) / 2
        x = (box[0] + box[2]) / 2 - m.px(64)
        r = m.px(10)
        draw.polygon(
            shape_points(player_style(self.seat).shape, (x + r, mid), r),
            fill=seat_colour(self.seat),
            outline=PAPER,
            width=2,
        )
        x += 2 * r + m.px(6)
        pawns = str(self.pawns)
        x += draw_text(draw, (x, mid), pawns, m.cell_size, PAPER, anchor="lm", role="score")
        x += m.px(14)
        size = round(m.px(26))
        paste_centred(image, icon_sprite("camels", size), (x + size / 2, mid))
        x += size + m.px(6)
        camels = str(self.camels)
        draw_text(draw, (x, mid), camels, m.cell_size, PAPER, anchor="lm", role="score")


def owed_words(view: OasisView, lang: str) -> str:
    """The placements the chooser still owes: "2 oasis tiles, 1 camel"."""
    terms = []
    for kind, count in view.pending:
        if kind in LANDS:
            terms.append(
                Term("oasis.owed.tiles", {"count": count, "land": Term(f"oasis.land.{kind}")})
            )
        else:
            terms.append(Term("oasis.owed.camels", {"count": count}))
    return ", ".join(catalogue.term(lang, t) for t in terms)


def status_words(view: OasisView, lang: str) -> tuple[str, str]:
    """The panel's status line (the round and phase, or why the game ended)
    and its note (what the acting seat does)."""
    if view.phase == "over":
        if view.end == "track":
            why = _word(lang, "oasis.render.end.track")
        elif view.end in LANDS:
            land = _word(lang, f"oasis.land.{view.end}")
            why = _word(lang, "oasis.render.end.pile", {"land": land})
        else:
            why = ""
        over = catalogue.text(lang, "common.game_over")
        return (f"{over} · {why}" if why else over), ""
    status = _word(lang, f"oasis.render.status.{view.phase}", {"round": view.round})
    if view.phase == "offer":
        note = _word(
            lang, "oasis.render.note.reveal" if view.can_reveal else "oasis.render.note.stop"
        )
    elif view.phase == "choose":
        if view.pending:
            note = _word(lang, "oasis.render.note.place", {"owed": owed_words(view, lang)})
        else:
            note = _word(lang, "oasis.render.note.take")
    elif view.phase == "bonus":
        note = _word(lang, "oasis.render.note.bonus")
    else:
        note = ""
    return status, note


# --------------------------------------------------------------------------- the hand

HAND_WIDTH = 800
HAND_ROW = 64
HAND_ICON = 48


def render_oasis_hand_image(
    view: OasisView, names: Sequence[str], lang: str = "en"
) -> Image.Image | None:
    """The hand as a Pillow RGB image (for tests and tools); None for a spectator."""
    seat = view.viewer
    if seat is None:
        return None
    width = HAND_WIDTH
    name_size = legible_size("name", width, 26)
    score_size = legible_size("score", width, 24)
    title_size = legible_size("title", width, 20)
    shown = display_names(names, view.players, lang)
    mine = view.multipliers[seat] or {}
    height = 24 + 56 + 44 + HAND_ROW * len(MULTIPLIERS) + 2 * 40 + 30
    image = Image.new("RGB", (width, height), BACKDROP)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (12, 12, width - 12, height - 12), radius=12, fill=CARD, outline=CARD_EDGE, width=2
    )
    x, y = 32, 24 + 28
    r = 18.0
    paste_centred(image, piece_sprite(seat, r, True), (x + r, y))
    who = fit_text(shown[seat], name_size, width - 64 - 2 * r - 14, bold=True)
    draw_text(draw, (x + 2 * r + 14, y), who, name_size, PAPER, anchor="lm", bold=True, role="name")
    y = 24 + 56
    title = f"{_word(lang, 'oasis.render.hand.title')} ({sum(mine.values())})"
    draw_text(draw, (32, y + 22), title, title_size, MUTED, anchor="lm", bold=True, role="title")
    y += 44
    counts = {
        kind: catalogue.term(lang, multiplier_count(kind, mine.get(kind, 0)))
        for kind in MULTIPLIERS
    }
    what_x = (
        32
        + HAND_ICON
        + 16
        + max(text_width(t, score_size, bold=True) for t in counts.values())
        + 18
    )
    for kind in MULTIPLIERS:
        mid = y + HAND_ROW / 2
        held = mine.get(kind, 0)
        paste_centred(image, icon_sprite(kind, HAND_ICON), (32 + HAND_ICON / 2, mid))
        colour = PAPER if held else MUTED
        draw_text(
            draw,
            (32 + HAND_ICON + 16, mid),
            counts[kind],
            score_size,
            colour,
            anchor="lm",
            bold=True,
            role="score",
        )
        factor = factor_of(view, seat, kind)
        points = f"= {held * factor}"
        points_w = text_width(points, score_size, bold=True)
        what = _word(lang, f"oasis.render.hand.{kind}", {"count": factor})
        what = fit_text(what, score_size, width - 32 - points_w - 16 - what_x)
        draw_text(draw, (what_x, mid), what, score_size, MUTED, anchor="lm", role="score")
        draw_text(
            draw,
            (width - 32, mid),
            points,
            score_size,
            GOLD if held * factor else MUTED,
            anchor="rm",
            bold=True,
            role="score",
        )
        y += HAND_ROW
    y += 8
    for line in (
        _word(lang, "oasis.hand.supply", supply_params(view, seat)),
        _word(lang, "oasis.hand.stack", {"count": view.stacks[seat]}),
    ):
        line = fit_text(line, score_size, width - 64)
        draw_text(draw, (32, y + 20), line, score_size, PAPER, anchor="lm", role="score")
        y += 40
    return image


# --------------------------------------------------------------------------- the platform's entry


class OasisPicture:
    """What the platform draws with (``SPEC.picture``), in a worker process."""

    def board(
        self, view: OasisView, names: Sequence[str], lang: str, tags: Sequence[str | None] = ()
    ) -> bytes:
        return render_oasis(view, names, lang, tags or None)

    def hand(self, view: OasisView, names: Sequence[str], lang: str) -> bytes | None:
        return render_oasis_hand(view, names, lang)

    def seat_colour(self, seat: int) -> RGB:
        return seat_colour(seat)
