"""Board image of Nomadi, drawn from a :class:`NomadiView`.

Layout, 1000 px wide: the 16 x 19 square board on top (column letters A-P
above and below, row numbers 1-19 left and right, row 1 on top), then a
dice bar (this turn's six dice, and the last finished turn: whose it was,
its dice and what its unused dice cost), then the shared score panel
(:mod:`render.panel`).

The board: sand in two tints, lighter on the goal side of the valley, the
valley itself a thick line between squares (one segment under each
column's last goal-side row, joined where neighbouring columns differ,
spec §3.2); the start area M16-P19 in terracotta; the goal in oasis green
(A1-D4, or with the short course the finish card M5-P8, framed like a
finish line, A1-D4 then being ordinary squares); the thirteen water points
as wells. Those never change during a game, so they form a static layer
cached per course; each render copies it and draws only what moves:
the face-down cards, the name of every square without a pawn, the last die
move's path and the turn's earlier moves (a jump along the squares it
crossed, turning where it turned, never across a diagonal: R6), pawns, the
pending card deal, the dice and the panel. The names, the dice bar's lines
and the panel's are mostly pasted back from earlier renders (kept by what
they show: :mod:`render.memo`), so a render costs little
more than encoding its PNG.

Pawns are filled with their owner's Nomadi colour (blue, yellow, red,
green, black) *and* cut in the owner's shape (:func:`render.palette.player_style`,
the shape the panel's marker has) with the seat number on them, so no
player is told apart by hue alone. Arrived pawns wear a gold star.

Hidden information (spec §9): card values are drawn only where the view
carries them: the mover's own view of the card he prices, and everyone's
once the game is over (the score panel lists each hand then). Words come
from the catalogue (``nomadi.render.*``, ``nomadi.*`` and the shared
``common.*``). Every text stays legible once a phone shows the image 550 px
wide (:func:`render.text.legible_size`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache, partial

from PIL import Image, ImageDraw

from games import catalogue
from games.contract import Seat
from games.nomadi.messages import MINUS, signed
from games.nomadi.model import (  # importing games.nomadi adds its catalogue
    BOARD,
    COLOURS,
    COLUMNS,
    HEIGHT,
    NomadiView,
    TurnRecord,
    name,
)
from games.nomadi.rules import path_to
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
    contrast_ratio,
    mix,
    player_style,
    with_alpha,
)
from render.panel import (
    CARD,
    CARD_EDGE,
    Cell,
    Column,
    Panel,
    Row,
    panel_height,
    panel_metrics,
)
from render.panel_memo import draw_panel_cached, panel_card
from render.png import png_bytes
from render.shapes import Box, Point, draw_palm, shape_points
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

WIDTH = 1000  # px: the image, at every player count
BOARD_COLUMNS = len(COLUMNS)  # 16, A-P
CELL = 56  # px: a square
MARGIN_X = (WIDTH - BOARD_COLUMNS * CELL) // 2  # room for the row numbers
MARGIN_TOP = 40  # room for the column letters
GRID = SquareGrid(CELL, (MARGIN_X, MARGIN_TOP))
BOARD_BOTTOM = MARGIN_TOP + HEIGHT * CELL + 40  # below the bottom letters

# Text sizes, legible on a phone (Discord shows the image 550 px wide there).
SPACE_SIZE = legible_size("space", WIDTH)  # square names ("K6")
COORD_SIZE = legible_size("coordinate", WIDTH, 20)  # letters and numbers around the board
VALUE_SIZE = legible_size("value", WIDTH)  # numbers on pawns, dice tags, the priced card
TITLE_SIZE = legible_size("title", WIDTH)  # dice bar labels
NAME_SIZE = legible_size("name", WIDTH)  # dice bar: whose turn it was
SCORE_SIZE = legible_size("score", WIDTH)  # dice bar: what it cost

SAND_GOAL: RGB = (240, 226, 184)  # goal side of the valley: lighter…
SAND_START: RGB = (224, 200, 146)  # …than the start side
GRID_LINE: RGB = (194, 166, 116)
START_FILL: RGB = (226, 170, 128)  # the start area, terracotta
START_EDGE: RGB = (150, 78, 44)
OASIS_FILL: RGB = (172, 214, 138)  # the goal
OASIS_LINE: RGB = (132, 178, 104)
OASIS_EDGE: RGB = (46, 110, 44)
WATER_SQUARE: RGB = (196, 226, 236)  # a water point's square
WATER_FILL: RGB = (30, 110, 186)
VALLEY_LINE: RGB = (120, 36, 24)
VALLEY_WIDTH = 6  # px
LABEL: RGB = (120, 96, 62)  # square names: faint brown, still legible on every tint
CARD_BACK: RGB = (128, 52, 36)
CARD_TRIM: RGB = (226, 176, 96)
CARD_FACE: RGB = (252, 248, 236)
GOOD: RGB = (24, 112, 48)  # a positive card value
BAD: RGB = (178, 34, 30)  # a negative one
# The last move's path: a hue no seat wears (gold was the yellow player's), told
# apart from every pawn colour under colour-blindness too (tests/nomadi/test_picture).
PATH: RGB = (0, 196, 214)
USED_DIE: RGB = (128, 118, 104)

# The pawns' colours: the game's own (spec §2), not the interface's seat colours.
PAWN_RGB: Mapping[str, RGB] = {
    "blue": (36, 96, 206),
    "yellow": (248, 206, 36),
    "red": (212, 44, 36),
    "green": (40, 150, 64),
    "black": (44, 42, 40),
}
PAWN_R = CELL * 0.34  # pawn radius, px (the shape's nominal radius)
_SPRITE = 4  # supersampling factor for sprites


def pawn_colour(seat: Seat) -> RGB:
    """The seat's Nomadi colour: blue, yellow, red, green, black (spec §2)."""
    return PAWN_RGB[COLOURS[seat % len(COLOURS)]]


def amount(value: int) -> str:
    """A coin balance: "7", or "−3" for a debt."""
    return f"{MINUS}{-value}" if value < 0 else str(value)


def cell_of(square: int) -> tuple[int, int]:
    """The 1-based (column, row) of a square index."""
    return square % BOARD_COLUMNS + 1, square // BOARD_COLUMNS + 1


def centre_of(square: int) -> Point:
    return GRID.centre(*cell_of(square))


def box_of(square: int) -> Box:
    return GRID.box(*cell_of(square))


# --------------------------------------------------------------------------- public API


def render_nomadi(
    view: NomadiView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> bytes:
    """PNG bytes of the board, dice and score panel as ``view`` shows them.

    ``names[i]`` is seat i's display name (missing or unprintable ones fall
    back to "Player N"); ``tags[i]``, when given, badges seat i's row: "bot",
    "resigned" or None. Pure and CPU-only: safe in a worker process (bot/cpu.py).
    """
    return png_bytes(render_nomadi_image(view, names, lang, tags))


def render_nomadi_image(
    view: NomadiView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> Image.Image:
    """The same picture as a Pillow RGB image (for tests and tools)."""
    shown = display_names(names, view.players, lang)
    panel = score_panel(view, names, lang, tags)
    bar = dice_bar_height(view)
    canvas = _canvas(view.course, bar, panel_height(panel, WIDTH))
    image = canvas.copy()
    draw = ImageDraw.Draw(image)  # opaque fills: no blending needed…
    _draw_cards(image, view)
    _draw_space_names(image, view)
    _draw_moves(image, ImageDraw.Draw(image, "RGBA"), view)  # …but for the moves' see-through lines
    _draw_pawns(image, view)
    _draw_landing(draw, view)
    _draw_deal(image, draw, view)
    if bar:
        _draw_dice_bar(image, draw, view, shown, lang, BOARD_BOTTOM)
    draw_panel_cached(image, panel, lang, top=BOARD_BOTTOM + bar)
    return image


def render_nomadi_hand(view: NomadiView, names: Sequence[str], lang: str = "en") -> bytes | None:
    """A seat's private image for ``/game hand``: its coins, the values of the
    cards it holds and, while it prices a card (``view.deal.value``), that card.
    None for a spectator's view (``view.viewer`` None)."""
    image = render_nomadi_hand_image(view, names, lang)
    return None if image is None else png_bytes(image)


def named_squares(view: NomadiView) -> list[int]:
    """Squares whose name is written on the board: every square without a pawn."""
    taken = {p.square for p in view.pawns if p.square >= 0}
    return [sq for sq in range(BOARD_COLUMNS * HEIGHT) if sq not in taken]


def goal_squares(course: str) -> frozenset[int]:
    """The goal drawn as the oasis: A1-D4, or the finish card M5-P8 on the short course."""
    return BOARD.goal_of(course)


def valley_segments() -> list[tuple[Point, Point]]:
    """The valley as line segments between squares, in px (spec §3.2): one
    horizontal segment under each column's row V, and a vertical one between
    two neighbouring columns whose V differ."""
    segments: list[tuple[Point, Point]] = []
    for c, v in enumerate(BOARD.valley):
        left, _, right, bottom = GRID.box(c + 1, v)
        segments.append(((left, bottom), (right, bottom)))
        if c + 1 < BOARD_COLUMNS and BOARD.valley[c + 1] != v:
            other = GRID.box(c + 2, BOARD.valley[c + 1])[3]
            segments.append(((right, min(bottom, other)), (right, max(bottom, other))))
    return segments


def acting(view: NomadiView) -> tuple[Seat, ...]:
    """Who the game waits for (an optional bribe is not waited for)."""
    return view.awaiting


def winners(view: NomadiView) -> tuple[Seat, ...]:
    """The seats sharing the best final score (spec §8), once over."""
    if view.final is None:
        return ()
    best = max(view.final)
    return tuple(seat for seat, score in enumerate(view.final) if score == best)


# --------------------------------------------------------------------------- static layers


@drawing_cache
@lru_cache(maxsize=8)
def _canvas(course: str, bar: int, panel: int) -> Image.Image:
    """The board layer with room below for the dice bar and the panel, their
    cards drawn (shared: callers copy it before drawing)."""
    canvas = Image.new("RGB", (WIDTH, BOARD_BOTTOM + bar + panel), BACKDROP)
    canvas.paste(_board_layer(course), (0, 0))
    if bar:
        _draw_bar_card(ImageDraw.Draw(canvas), BOARD_BOTTOM, bar)
    canvas.paste(panel_card(WIDTH, panel), (0, BOARD_BOTTOM + bar))
    return canvas


@drawing_cache
@lru_cache(maxsize=2)
def _board_layer(course: str) -> Image.Image:
    """The terrain with the coordinates written around it, once per course."""
    layer = _terrain(course).copy()
    draw = ImageDraw.Draw(layer)
    draw_grid_labels(
        draw, GRID, BOARD_COLUMNS, HEIGHT, columns=tuple(COLUMNS), size=COORD_SIZE, gap=8
    )
    return layer


@lru_cache(maxsize=2)
def _terrain(course: str) -> Image.Image:
    """Sand, areas, wells, grid and valley (no text: kept when texts are recorded)."""
    goal = goal_squares(course)
    size = (WIDTH, BOARD_BOTTOM)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        draw.rectangle((0, 0, size[0] * k, size[1] * k), fill=BACKDROP)
        for sq in range(BOARD_COLUMNS * HEIGHT):
            draw.rectangle(_scaled_box(box_of(sq), k), fill=_square_fill(sq, goal))
        for sq in range(BOARD_COLUMNS * HEIGHT):
            line = OASIS_LINE if sq in goal else GRID_LINE
            draw.rectangle(_scaled_box(box_of(sq), k), outline=line, width=round(k))
        _paint_oasis(draw, goal, k, finish=course == "short")
        _paint_block_edge(draw, BOARD.start, START_EDGE, k)
        for sq in BOARD.water:
            _paint_well(draw, sq, k)
        _paint_valley(draw, k)

    layer = supersampled(size, paint, scale=3).convert("RGB")
    draw = ImageDraw.Draw(layer)
    left, top = GRID.origin
    right, bottom = left + CELL * BOARD_COLUMNS, top + CELL * HEIGHT
    draw.rectangle((left - 2, top - 2, right + 1, bottom + 1), outline=INK, width=2)
    return layer


def _scaled_box(box: Box, k: float) -> Box:
    return box[0] * k, box[1] * k, box[2] * k, box[3] * k


def _square_fill(sq: int, goal: frozenset[int]) -> RGB:
    if sq in goal:
        return OASIS_FILL
    if sq in BOARD.start:
        return START_FILL
    if sq in BOARD.water:
        return WATER_SQUARE
    return SAND_GOAL if BOARD.goal_side(sq) else SAND_START


def _block_box(squares: frozenset[int]) -> Box:
    boxes = [box_of(sq) for sq in squares]
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def _paint_block_edge(
    draw: ImageDraw.ImageDraw, squares: frozenset[int], colour: RGB, k: float
) -> None:
    """A frame just inside a 4 x 4 block (start or goal)."""
    x0, y0, x1, y1 = _block_box(squares)
    inset = 2
    draw.rectangle(
        ((x0 + inset) * k, (y0 + inset) * k, (x1 - inset) * k, (y1 - inset) * k),
        outline=colour,
        width=round(3 * k),
    )


def _paint_oasis(
    draw: ImageDraw.ImageDraw, goal: frozenset[int], k: float, *, finish: bool
) -> None:
    """The goal: faint palms around a pool behind the square names, framed in
    green, or in a chequered finish line for the short course's finish card."""
    x0, y0, x1, y1 = _block_box(goal)
    w = x1 - x0
    pool = (x0 + w * 0.3, y0 + w * 0.56, x0 + w * 0.74, y0 + w * 0.74)
    draw.ellipse(
        _scaled_box(pool, k), fill=(150, 200, 214), outline=(118, 170, 190), width=round(k)
    )
    for fx, fy, size in ((0.3, 0.55, 0.2), (0.72, 0.5, 0.17), (0.52, 0.34, 0.15)):
        _paint_palm(draw, ((x0 + w * fx) * k, (y0 + w * fy) * k), w * size * k)
    if not finish:
        _paint_block_edge(draw, goal, OASIS_EDGE, k)
        return
    step = CELL / 6  # chequered frame, like a finish line
    for i in range(int(w / step)):
        for side in range(4):
            a = i * step
            if side == 0:
                cell = (x0 + a, y0, x0 + a + step, y0 + step / 2)
            elif side == 1:
                cell = (x0 + a, y1 - step / 2, x0 + a + step, y1)
            elif side == 2:
                cell = (x0, y0 + a, x0 + step / 2, y0 + a + step)
            else:
                cell = (x1 - step / 2, y0 + a, x1, y0 + a + step)
            draw.rectangle(_scaled_box(cell, k), fill=INK if i % 2 == side % 2 else PAPER)


def _paint_palm(draw: ImageDraw.ImageDraw, base: Point, size: float) -> None:
    """A faint palm (drawn behind the names): trunk foot at ``base``, ``size`` high."""
    draw_palm(draw, base, size * 0.75, (150, 170, 110), (128, 176, 96))


def well_centre(sq: int) -> Point:
    """Where a water point's well (or the card on it) is drawn: above the square's name."""
    x, y = centre_of(sq)
    return x, y - CELL * 0.14


def _paint_well(draw: ImageDraw.ImageDraw, sq: int, k: float) -> None:
    """A well: a blue pool in a stone ring, with a ripple."""
    x, y = well_centre(sq)
    r = CELL * 0.2
    draw.ellipse(
        ((x - r) * k, (y - r) * k, (x + r) * k, (y + r) * k),
        fill=(150, 140, 124),
        outline=INK,
        width=round(k),
    )
    r2 = r * 0.72
    draw.ellipse(((x - r2) * k, (y - r2) * k, (x + r2) * k, (y + r2) * k), fill=WATER_FILL)
    ripple = (x - r2 * 0.6, y - r2 * 0.3, x + r2 * 0.6, y + r2 * 0.5)
    draw.arc(_scaled_box(ripple, k), 200, 340, fill=(170, 214, 240), width=round(1.5 * k))


def _paint_valley(draw: ImageDraw.ImageDraw, k: float) -> None:
    """The valley: one thick line between squares, with round joints."""
    width = round(VALLEY_WIDTH * k)
    rr = width / 2
    for a, b in valley_segments():
        draw.line([(a[0] * k, a[1] * k), (b[0] * k, b[1] * k)], fill=VALLEY_LINE, width=width)
        for x, y in (a, b):
            draw.ellipse((x * k - rr, y * k - rr, x * k + rr, y * k + rr), fill=VALLEY_LINE)


# --------------------------------------------------------------------------- sprites


def pawn_rim(fill: RGB) -> RGB:
    """A pawn's rim: ink, or paper for a pawn as dark as ink (the black seat's),
    which an ink rim left invisible on the dark panel."""
    return INK if contrast_ratio(fill, INK) >= 2 else PAPER


@drawing_cache
@lru_cache(maxsize=64)
def pawn_sprite(seat: Seat, radius: float, arrived: bool = False) -> Image.Image:
    """A pawn: the owner's shape in the owner's Nomadi colour, rimmed in ink,
    with the seat number; an arrived pawn wears a gold star."""
    style = player_style(seat)
    d = math.ceil(radius * 3)
    centre = (d / 2, d / 2)
    fill = pawn_colour(seat)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        c = (centre[0] * k, centre[1] * k)
        r = radius * k
        draw.polygon(
            shape_points(style.shape, (c[0], c[1] + r * 0.08), r * 1.02), fill=with_alpha(INK, 90)
        )
        draw.polygon(shape_points(style.shape, c, r), fill=pawn_rim(fill))
        draw.polygon(shape_points(style.shape, c, r - 2.2 * k), fill=fill)
        glint = mix(fill, (255, 255, 255), 0.35)
        draw.arc(
            (c[0] - r * 0.55, c[1] - r * 0.62, c[0] + r * 0.35, c[1] + r * 0.2),
            200,
            260,
            fill=glint,
            width=round(1.6 * k),
        )
        if arrived:
            star = shape_points("star", (c[0] + r * 0.88, c[1] - r * 0.88), r * 0.5)
            draw.polygon(star, fill=GOLD, outline=INK, width=round(1.2 * k))

    sprite = supersampled((d, d), paint, _SPRITE)
    ink = INK if sum(fill) > 420 else PAPER
    text_y = centre[1] + (radius * 0.2 if style.shape == "triangle" else 0)
    size = max(VALUE_SIZE, round(radius * 0.9))
    draw_text(
        ImageDraw.Draw(sprite),
        (centre[0], text_y),
        style.letter,
        size,
        ink,
        anchor="mm",
        bold=True,
        role="value",
    )
    return sprite


@lru_cache(maxsize=4)
def _card_back(width: int, height: int) -> Image.Image:
    """A face-down desert card."""

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        box = (1 * k, 1 * k, (width - 1) * k, (height - 1) * k)
        draw.rounded_rectangle(box, radius=4 * k, fill=CARD_BACK, outline=INK, width=round(1.5 * k))
        inner = (4 * k, 4 * k, (width - 4) * k, (height - 4) * k)
        draw.rounded_rectangle(inner, radius=2 * k, outline=CARD_TRIM, width=round(1.2 * k))
        cx, cy = width / 2 * k, height / 2 * k
        rx, ry = (width / 2 - 7) * k, (height / 2 - 8) * k
        draw.polygon([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)], fill=CARD_TRIM)
        rx, ry = rx * 0.45, ry * 0.45
        draw.polygon([(cx, cy - ry), (cx + rx, cy), (cx, cy + ry), (cx - rx, cy)], fill=CARD_BACK)

    return supersampled((width, height), paint, _SPRITE)


@drawing_cache
@lru_cache(maxsize=64)
def card_face(value: int | None, width: int, height: int, size: int) -> Image.Image:
    """A desert card face up: its value ("+3", "−2") in green or red, "?" when unknown."""

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        box = (1 * k, 1 * k, (width - 1) * k, (height - 1) * k)
        draw.rounded_rectangle(box, radius=5 * k, fill=CARD_FACE, outline=INK, width=round(2 * k))
        inner = (5 * k, 5 * k, (width - 5) * k, (height - 5) * k)
        edge = MUTED if value is None else GOOD if value > 0 else BAD
        draw.rounded_rectangle(inner, radius=3 * k, outline=edge, width=round(1.5 * k))

    sprite = supersampled((width, height), paint, _SPRITE)
    text = "?" if value is None else signed(value)
    ink = INK if value is None else GOOD if value > 0 else BAD
    draw_text(
        ImageDraw.Draw(sprite),
        (width / 2, height / 2),
        text,
        size,
        ink,
        anchor="mm",
        bold=True,
        role="value",
    )
    return sprite


@lru_cache(maxsize=32)
def die_sprite(value: int, size: int, kind: str) -> Image.Image:
    """A die showing ``value`` pips: "free" (to use), "used" (greyed) or
    "paid" (left unused and paid for: crossed out in warning colour)."""
    pips = {
        1: ((0, 0),),
        2: ((-1, -1), (1, 1)),
        3: ((-1, -1), (0, 0), (1, 1)),
        4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
        5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
        6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
    }.get(value, ())
    face = USED_DIE if kind == "used" else PAPER
    pip = mix(USED_DIE, INK, 0.5) if kind == "used" else INK

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        s = size * k
        draw.rounded_rectangle(
            (k, k, s - k, s - k), radius=s * 0.18, fill=face, outline=INK, width=round(1.5 * k)
        )
        r = s * 0.09
        for dx, dy in pips:
            x, y = s / 2 + dx * s * 0.26, s / 2 + dy * s * 0.26
            draw.ellipse((x - r, y - r, x + r, y + r), fill=pip)
        if kind == "paid":
            w = max(1, round(s * 0.09))
            draw.line([(s * 0.12, s * 0.12), (s * 0.88, s * 0.88)], fill=WARN, width=w)
            draw.line([(s * 0.88, s * 0.12), (s * 0.12, s * 0.88)], fill=WARN, width=w)

    return supersampled((size, size), paint, _SPRITE)


# --------------------------------------------------------------------------- dynamic layers

CARD_W, CARD_H = round(CELL * 0.5), round(CELL * 0.6)  # a face-down card on the board


def _draw_cards(image: Image.Image, view: NomadiView) -> None:
    """Face-down cards: on a water point over its well, elsewhere in the same place."""
    back = _card_back(CARD_W, CARD_H)
    for sq in view.cards:
        paste_centred(image, back, well_centre(sq))


def space_name_anchor(view: NomadiView, sq: int) -> Point:
    """Where a square's name goes (baseline centre): under the well or card of a
    square holding one, else in the middle of the square."""
    return _name_anchor(sq, sq in view.cards)


def _name_anchor(sq: int, card: bool) -> Point:
    """:func:`space_name_anchor` of a square holding a ``card`` or not."""
    x, y = centre_of(sq)
    if sq in BOARD.water or card:
        return x, y + CELL * 0.42
    return x, y + SPACE_SIZE * 0.34


NAME_REGIONS = RegionCache(64)  # runs of named squares along a board row


def _draw_space_names(image: Image.Image, view: NomadiView) -> None:
    """The name of every square without a pawn, faint but legible on a phone;
    names of neighbouring squares along a row pasted back together while they
    stay (under them lie only the course's board and the face-down cards)."""
    cards = set(view.cards)
    for run in square_runs(named_squares(view), BOARD_COLUMNS):
        holding = tuple(sq in cards for sq in run)
        paint = partial(_stamp_space_names, image, run, holding)
        key = (view.course, run, holding)  # the course decides the board under them
        NAME_REGIONS.draw(image, _names_region(run, holding), key, paint)


def _stamp_space_names(image: Image.Image, squares: Sequence[int], cards: Sequence[bool]) -> None:
    """The names of ``squares``, each holding a card or not."""
    for sq, card in zip(squares, cards, strict=True):
        stamp_text(
            image,
            _name_anchor(sq, card),
            name(sq),
            SPACE_SIZE,
            LABEL,
            anchor="ms",
            bold=True,
            role="space",
        )


@lru_cache(maxsize=256)
def _names_region(squares: tuple[int, ...], cards: tuple[bool, ...]) -> Region:
    """The px the names of ``squares`` (holding a card or not) may ink."""
    return union(
        text_region(name(sq), SPACE_SIZE, _name_anchor(sq, card), "ms", bold=True)
        for sq, card in zip(squares, cards, strict=True)
    )


def _recent_moves(view: NomadiView) -> tuple[tuple[int, int, int], ...]:
    """The die moves shown: this turn's so far, or else the last finished turn's
    (when the path still shows its last move)."""
    if view.moves:
        return view.moves
    prev = view.previous
    if (
        prev is not None
        and prev.moves
        and view.path
        and prev.moves[-1][1:] == (view.path[0], view.path[-1])
    ):
        return prev.moves
    return ()


def move_paths(view: NomadiView) -> tuple[tuple[int, ...], ...]:
    """The squares each shown move went through (:func:`_recent_moves`, in
    order): a jump along the squares it crossed, orthogonal steps turning at
    most once (R6), found on the board as it stood before the move (the later
    moves taken back); a 1 is its one step, diagonal or not (R5)."""
    occupied = {p.square for p in view.pawns if p.square >= 0}
    paths: list[tuple[int, ...]] = []
    for die, frm, to in reversed(_recent_moves(view)):
        occupied = occupied - {to} | {frm}
        paths.append(path_to(frm, die, to, occupied))
    return tuple(reversed(paths))


def _draw_moves(image: Image.Image, draw: ImageDraw.ImageDraw, view: NomadiView) -> None:
    """The last die move's path, square by square, as a cyan band (under the
    pawns it jumped), a ring where it started and its die value; the turn's
    earlier moves as faint arrows along the squares they crossed, each tagged
    with its die."""
    moves = _recent_moves(view)
    last = (
        moves[-1]
        if moves and view.path and moves[-1][1:] == (view.path[0], view.path[-1])
        else None
    )
    earlier = moves[:-1] if last is not None else moves
    for path in move_paths(view)[: len(earlier)]:
        _arrow(draw, [centre_of(sq) for sq in path])
    if len(view.path) >= 2:
        points = [centre_of(sq) for sq in view.path]
        draw.line(points, fill=with_alpha(INK, 200), width=14, joint="curve")
        draw.line(points, fill=with_alpha(PATH, 230), width=8, joint="curve")
        x, y = points[0]
        r = CELL * 0.3
        draw.ellipse((x - r, y - r, x + r, y + r), outline=INK, width=5)
        draw.ellipse((x - r + 2, y - r + 2, x + r - 2, y + r - 2), outline=PATH, width=2)
    for die, frm, _ in earlier:
        _die_tag(image, frm, die, strong=False)
    if last is not None:
        _die_tag(image, last[1], last[0], strong=True)


def _arrow(draw: ImageDraw.ImageDraw, points: Sequence[Point]) -> None:
    """An arrow through ``points`` (square centres), stopping short of the pawn
    on the last one: ink on a light halo, so it shows on sand, tints and pawns
    alike. A jump's arrow bends where the jump turned, never cutting across."""
    if len(points) < 2:
        return
    a, b = points[-2], points[-1]
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    if length < 1:
        return
    ux, uy = dx / length, dy / length
    tip = (b[0] - ux * PAWN_R * 1.1, b[1] - uy * PAWN_R * 1.1)
    head = 12.0

    def head_points(grow: float) -> list[Point]:
        h = head + grow
        return [
            (tip[0] + ux * grow, tip[1] + uy * grow),
            (tip[0] - ux * h - uy * h * 0.6, tip[1] - uy * h + ux * h * 0.6),
            (tip[0] - ux * h + uy * h * 0.6, tip[1] - uy * h - ux * h * 0.6),
        ]

    base = (tip[0] - ux * head * 0.8, tip[1] - uy * head * 0.8)
    line = [*points[:-1], base]
    draw.line(line, fill=with_alpha(PAPER, 170), width=7, joint="curve")
    draw.polygon(head_points(2.5), fill=with_alpha(PAPER, 170))
    draw.line(line, fill=with_alpha(INK, 220), width=3, joint="curve")
    draw.polygon(head_points(0), fill=with_alpha(INK, 220))


def tag_centre(sq: int) -> Point:
    """A die tag's place: the top-left corner of the square the move started from."""
    left, top, _, _ = box_of(sq)
    return left + CELL * 0.24, top + CELL * 0.24


def _die_tag(image: Image.Image, sq: int, die: int, *, strong: bool) -> None:
    paste_centred(image, _tag_sprite(die, strong), tag_centre(sq))


@drawing_cache
@lru_cache(maxsize=16)
def _tag_sprite(die: int, strong: bool) -> Image.Image:
    """The die value of a move, on a small rounded square (cyan for the last move)."""
    d = round(CELL * 0.44)

    def paint(draw: ImageDraw.ImageDraw, k: float) -> None:
        s = d * k
        fill = PATH if strong else (236, 230, 214)
        draw.rounded_rectangle(
            (k, k, s - k, s - k), radius=s * 0.22, fill=fill, outline=INK, width=round(1.5 * k)
        )

    sprite = supersampled((d, d), paint, _SPRITE)
    draw_text(
        ImageDraw.Draw(sprite),
        (d / 2, d / 2 + 1),
        str(die),
        VALUE_SIZE,
        INK,
        anchor="mm",
        bold=True,
        role="value",
    )
    return sprite


def _draw_pawns(image: Image.Image, view: NomadiView) -> None:
    for pawn in view.pawns:
        if pawn.square < 0:  # still in the box (caravan forming)
            continue
        paste_centred(image, pawn_sprite(pawn.owner, PAWN_R, pawn.arrived), centre_of(pawn.square))


def _ring(draw: ImageDraw.ImageDraw, sq: int, outer: RGB, inner: RGB) -> None:
    """A two-tone frame just inside a square: visible on any tint, in any colour vision."""
    x0, y0, x1, y1 = box_of(sq)
    draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), outline=outer, width=5)
    draw.rectangle((x0 + 5, y0 + 5, x1 - 5, y1 - 5), outline=inner, width=2)


def _draw_landing(draw: ImageDraw.ImageDraw, view: NomadiView) -> None:
    """The last die move's landing square, framed in ink and gold."""
    if view.path and (view.deal is None or view.deal.square != view.path[-1]):
        _ring(draw, view.path[-1], INK, PATH)


def _draw_deal(image: Image.Image, draw: ImageDraw.ImageDraw, view: NomadiView) -> None:
    """A pending card deal: its square framed in gold, the card beside the pawn,
    face down ("?") or, in the mover's own view only, face up with its value."""
    deal = view.deal
    if deal is None:
        return
    _ring(draw, deal.square, GOLD, INK)
    paste_centred(image, _deal_card(deal.value), deal_card_centre(deal.square))


def deal_card_centre(sq: int) -> Point:
    """Where the card being dealt is shown: astride the square's right edge (its
    left edge in column P), level with the top of the pawn."""
    x0, y0, x1, _ = box_of(sq)
    x = x1 if sq % BOARD_COLUMNS < BOARD_COLUMNS - 1 else x0
    return x, y0 + CELL * 0.2


def _deal_card(value: int | None) -> Image.Image:
    return card_face(value, round(CELL * 0.64), round(CELL * 0.84), VALUE_SIZE + 3)


# --------------------------------------------------------------------------- dice bar

BAR_INSET = 24  # image side to the bar's card, as the panel's
DICE_LINE = 66  # this turn's dice
PREVIOUS_LINE = 50  # the last finished turn
DIE = 46  # px, this turn's dice
SMALL_DIE = 32  # px, the last turn's dice


def dice_bar_height(view: NomadiView) -> int:
    """Height of the bar under the board: none during setup."""
    lines = (DICE_LINE if view.dice else 0) + (PREVIOUS_LINE if view.previous is not None else 0)
    return lines + 18 if lines else 0


BAR_REGIONS = RegionCache(4)  # the dice bar's lines, by what they show


def _draw_bar_card(draw: ImageDraw.ImageDraw, top: int, height: int) -> None:
    draw.rounded_rectangle(
        (BAR_INSET, top + 2, WIDTH - BAR_INSET, top + height - 6),
        radius=12,
        fill=CARD,
        outline=CARD_EDGE,
        width=2,
    )


def _draw_dice_bar(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: NomadiView,
    names: Sequence[str],
    lang: str,
    top: int,
) -> None:
    """This turn's dice (used ones greyed), and the last finished turn: whose it
    was, its dice, and the coins its unused dice cost (crossed out); on the
    bar's card (drawn in the canvas)."""
    height = dice_bar_height(view)  # the card's: what lies under the lines
    y = top + 6
    if view.dice:
        line = (0, y, WIDTH, y + DICE_LINE)
        now = (view.active, view.dice, view.used, view.rerolled)
        paint = partial(_draw_dice_line, image, draw, now, lang, y + DICE_LINE / 2)
        BAR_REGIONS.draw(image, line, ("dice", now, lang, height, line), paint)
        y += DICE_LINE
    prev = view.previous
    if prev is None:
        return
    line = (0, y, WIDTH, y + PREVIOUS_LINE)
    name = names[prev.seat] if prev.seat < len(names) else ""
    paint = partial(_draw_previous_line, image, draw, prev, name, lang, y + PREVIOUS_LINE / 2 - 2)
    BAR_REGIONS.draw(image, line, ("previous", prev, name, lang, height, line), paint)


def _draw_dice_line(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    turn: tuple[Seat, tuple[int, ...], tuple[bool, ...], bool],
    lang: str,
    mid: float,
) -> None:
    """Who rolls, this turn's dice (used ones greyed), and whether they were rolled again."""
    seat, dice, used, rerolled = turn
    x = _bar_who(image, draw, seat, "", BAR_INSET + 16, mid, 0)
    label = catalogue.text(lang, "nomadi.render.dice")
    x += draw_text(draw, (x, mid), label, TITLE_SIZE, MUTED, anchor="lm", bold=True, role="title")
    x += 14
    for value, spent in zip(dice, used, strict=False):
        kind = "used" if spent else "free"
        paste_centred(image, die_sprite(value, DIE, kind), (x + DIE / 2, mid))
        x += DIE + 8
    if rerolled:
        note = catalogue.text(lang, "nomadi.render.rerolled")
        draw_text(draw, (x + 8, mid), note, TITLE_SIZE, GOLD, anchor="lm", bold=True, role="title")


def _draw_previous_line(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    prev: TurnRecord,
    name: str,
    lang: str,
    mid: float,
) -> None:
    """The last finished turn: whose it was, its dice, and what its unused dice cost."""
    label = catalogue.text(lang, "nomadi.render.previous")
    x: float = BAR_INSET + 16
    x += draw_text(draw, (x, mid), label, TITLE_SIZE, MUTED, anchor="lm", bold=True, role="title")
    x = _bar_who(image, draw, prev.seat, name, x + 12, mid, 190)
    paid = prev.paid > 0
    for value, used in zip(prev.dice, prev.used, strict=False):
        kind = "used" if used else "paid" if paid else "free"
        paste_centred(image, die_sprite(value, SMALL_DIE, kind), (x + SMALL_DIE / 2, mid))
        x += SMALL_DIE + 6
    if paid:
        cost = catalogue.text(lang, "nomadi.render.paid", {"count": prev.paid})
        draw_text(draw, (x + 10, mid), cost, SCORE_SIZE, WARN, anchor="lm", bold=True, role="score")


def _bar_who(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: Seat,
    name: str,
    x: float,
    mid: float,
    name_room: float,
) -> float:
    """A seat's pawn and, with ``name_room`` px, its ``name``; returns the x after them."""
    r = 13.0
    paste_centred(image, pawn_sprite(seat, r), (x + r + 2, mid))
    x += 2 * r + 12
    if name_room <= 0:
        return x
    who = fit_text(name, NAME_SIZE, name_room, bold=True)
    width = draw_text(draw, (x, mid), who, NAME_SIZE, PAPER, anchor="lm", bold=True, role="name")
    return x + max(width, 0) + 14


# --------------------------------------------------------------------------- score panel

# px at the panel's design width (render.panel.DESIGN_WIDTH), which is WIDTH
NAME_W = 270  # marker and name
PAWN_W = 150  # the pawn and its colour's name
COINS_W = 92
ARRIVED_W = 96
TOTAL_W = 80


def _word(lang: str, key: str, params: Params | None = None) -> str:
    return catalogue.text(lang, key, params)


def _title(lang: str, key: str) -> str:
    """A column title from a lower-case catalogue word ("coins" gives "Coins")."""
    word = catalogue.text(lang, key)
    return word[:1].upper() + word[1:]


def score_panel(
    view: NomadiView,
    names: Sequence[str],
    lang: str,
    tags: Sequence[str | None] | None = None,
) -> Panel:
    """The shared panel filled in for this view: the phase and who acts (or the
    winners); per player the pawn and its colour, coins (a debt as "−3"), the
    cards held (their values where this view knows them, all of them once
    over), pawns at the goal, bribes offered (option bribes) and the final score."""
    over = view.phase == "over"
    offers = view.bribes == "on" and not over
    columns = [
        Column(_word(lang, "nomadi.render.pawns"), width=PAWN_W),
        Column(_title(lang, "nomadi.score.coins"), width=COINS_W),
        Column(_title(lang, "nomadi.score.cards")),
        Column(_word(lang, "nomadi.render.arrived"), width=ARRIVED_W),
    ]
    if offers:
        columns.append(Column(_word(lang, "nomadi.render.offer")))
    if view.final is not None:
        columns.append(Column(catalogue.text(lang, "common.total"), width=TOTAL_W, space_before=8))
    offered = {seat: (amount_, message) for seat, amount_, message in view.offers}
    rows = []
    for seat in range(view.players):
        cells: list[Cell] = [
            Cell(paint=PawnCell(seat, lang)),
            Cell(amount(view.coins[seat]), warning=view.coins[seat] < 0),
            Cell(cards_text(view, seat)),
            Cell(str(sum(1 for p in view.pawns if p.owner == seat and p.arrived))),
        ]
        if offers:
            offer = offered.get(seat)
            text = ""
            if offer is not None:
                text = str(offer[0]) + (f" “{offer[1]}”" if offer[1] else "")
            cells.append(Cell(text))
        if view.final is not None:
            cells.append(Cell(amount(view.final[seat]), strong=True))
        rows.append(
            Row(
                tuple(cells),
                seat=seat,
                name=names[seat] if seat < len(names) else "",
                tag=tags[seat] if tags is not None and seat < len(tags) else None,
                colour=pawn_colour(seat),
            )
        )
    status, note = status_words(view, display_names(names, view.players, lang), lang)
    return Panel(
        status=status,
        columns=tuple(columns),
        rows=tuple(rows),
        acting=acting(view),
        winners=winners(view),
        note=note,
        name_width=NAME_W,
    )


def cards_text(view: NomadiView, seat: Seat) -> str:
    """How many cards a seat holds and, in brackets, their values where this view
    knows them ("?" for the others): "2", "3 (+3 ? ?)". Once over, the count
    and the total ("8 (= +5)"): the final log line lists every value in full,
    which a panel cell would cut."""
    held = view.held[seat]
    count = str(len(held))
    if not any(v is not None for v in held):
        return count
    if view.phase == "over" and held:
        return f"{count} (= {signed(sum(v for v in held if v is not None))})"
    values = " ".join("?" if v is None else signed(v) for v in held)
    return f"{count} ({values})"


def status_words(view: NomadiView, names: Sequence[str], lang: str) -> tuple[str, str]:
    """The panel's status line (the phase) and its note (what the acting seat does)."""
    if view.phase == "setup":
        return catalogue.text(lang, "nomadi.render.status.setup"), setup_note(view, lang)
    if view.phase == "cards":
        note = _word(lang, "nomadi.render.note.cards", {"count": view.pile})
        return catalogue.text(lang, "nomadi.render.status.cards"), note
    if view.phase == "caravan":
        left = sum(1 for p in view.pawns if p.square < 0)
        note = _word(lang, "nomadi.render.note.pawns", {"count": left})
        return catalogue.text(lang, "nomadi.render.status.caravan"), note
    round_ = _word(lang, "nomadi.render.status.round", {"round": view.rounds + 1})
    if view.phase == "over":
        why = _word(lang, f"nomadi.render.end.{view.end}") if view.end else round_
        return f"{catalogue.text(lang, 'common.game_over')} · {why}", ""
    deal = view.deal
    if deal is None:
        return round_, _word(lang, "nomadi.render.note.roll_choice") if view.roll_choice else ""
    where = _word(lang, "nomadi.render.status.deal", {"square": name(deal.square)})
    owner = names[deal.owner] if deal.owner < len(names) else ""
    if deal.price is not None:
        note = _word(lang, "nomadi.render.note.answer", {"price": deal.price})
    elif deal.value is not None:
        note = _word(
            lang, "nomadi.render.note.price_value", {"value": signed(deal.value), "owner": owner}
        )
    else:
        note = _word(lang, "nomadi.render.note.price", {"owner": owner})
    return f"{round_} · {where}", note


def setup_note(view: NomadiView, lang: str) -> str:
    """What the seat placing its setup (grouped) has left to place: "3 cards
    and 8 pawns", or what remains of one kind."""
    if not view.awaiting:
        return ""
    seat = view.awaiting[0]
    cards = view.owed[seat]
    pawns = sum(1 for p in view.pawns if p.owner == seat and p.square < 0)
    if not pawns:
        return _word(lang, "nomadi.render.note.cards", {"count": cards})
    if not cards:
        return _word(lang, "nomadi.render.note.pawns", {"count": pawns})
    counts: Params = {
        "cards": Term("nomadi.count.cards", {"count": cards}),
        "pawns": Term("nomadi.count.pawns", {"count": pawns}),
    }
    return _word(lang, "nomadi.render.note.setup", counts)


@dataclass(frozen=True)
class PawnCell:
    """The seat's pawn as on the board, and its colour's name (a value, not a
    partial, so the panel's rows are cached by what they show: render.panel_memo)."""

    seat: Seat
    lang: str

    def __call__(self, image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
        m = panel_metrics(image.width)
        mid = (box[1] + box[3]) / 2
        r = m.px(14)
        x = box[0] + m.px(8) + r
        paste_centred(image, pawn_sprite(self.seat, r), (x, mid))
        colour = catalogue.text(self.lang, f"nomadi.colour.{COLOURS[self.seat % len(COLOURS)]}")
        room = box[2] - (x + r + m.px(10)) - m.px(4)
        draw_text(
            draw,
            (x + r + m.px(10), mid),
            fit_text(colour, m.cell_size, room),
            m.cell_size,
            PAPER,
            anchor="lm",
            role="score",
        )


# --------------------------------------------------------------------------- the hand

HAND_WIDTH = 800
HAND_CARD = (76, 104)  # px, a card in the hand
HAND_GAP = 10
HAND_PER_ROW = 8


def render_nomadi_hand_image(
    view: NomadiView, names: Sequence[str], lang: str = "en"
) -> Image.Image | None:
    """The hand as a Pillow RGB image (for tests and tools); None for a spectator."""
    seat = view.viewer
    if seat is None:
        return None
    width = HAND_WIDTH
    name_size = legible_size("name", width, 26)
    score_size = legible_size("score", width, 23)
    title_size = legible_size("title", width, 20)
    value_size = legible_size("value", width, 34)
    shown = display_names(names, view.players, lang)
    held = view.held[seat]
    rows = max(1, math.ceil(len(held) / HAND_PER_ROW)) if held else 0
    card_w, card_h = HAND_CARD
    deal = view.deal if view.deal is not None and view.deal.value is not None else None
    others = [
        (other, [v for v in view.held[other] if v is not None])
        for other in range(view.players)
        if other != seat and view.phase != "over"
    ]
    others = [(o, vs) for o, vs in others if vs]
    height = 24 + 56  # header
    height += 44 + (rows * (card_h + HAND_GAP) if rows else 40)
    if deal is not None:
        height += 44 + card_h + HAND_GAP
    height += 40 * len(others) + 20
    image = Image.new("RGB", (width, height), BACKDROP)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (12, 12, width - 12, height - 12),
        radius=12,
        fill=CARD,
        outline=CARD_EDGE,
        width=2,
    )
    x, y = 32, 24 + 28
    r = 18.0
    paste_centred(image, pawn_sprite(seat, r), (x + r, y))
    coins = _word(lang, "nomadi.hand.coins", {"count": amount(view.coins[seat])})
    coins_w = text_width(coins, score_size, bold=True)
    colour = WARN if view.coins[seat] < 0 else GOLD
    draw_text(
        draw, (width - 32, y), coins, score_size, colour, anchor="rm", bold=True, role="score"
    )
    room = width - 32 - coins_w - 24 - (x + 2 * r + 14)
    who = fit_text(shown[seat], name_size, room, bold=True)
    draw_text(draw, (x + 2 * r + 14, y), who, name_size, PAPER, anchor="lm", bold=True, role="name")
    y = 24 + 56
    title = catalogue.text(lang, "nomadi.render.hand.cards")
    known = [v for v in held if v is not None]
    if held:
        total = _word(lang, "nomadi.render.hand.total", {"total": signed(sum(known))})
        title = f"{title} · {total}"
    draw_text(draw, (32, y + 22), title, title_size, MUTED, anchor="lm", bold=True, role="title")
    y += 44
    if not held:
        none = catalogue.text(lang, "nomadi.hand.no_cards")
        draw_text(draw, (32, y + 16), none, score_size, PAPER, anchor="lm", role="score")
        y += 40
    for i, value in enumerate(held):
        row, col = divmod(i, HAND_PER_ROW)
        cx = 32 + col * (card_w + HAND_GAP) + card_w / 2
        cy = y + row * (card_h + HAND_GAP) + card_h / 2
        paste_centred(image, card_face(value, card_w, card_h, value_size), (cx, cy))
    y += rows * (card_h + HAND_GAP)
    if deal is not None:
        owner = shown[deal.owner] if deal.owner < len(shown) else ""
        words = _word(
            lang, "nomadi.render.hand.deal", {"square": name(deal.square), "owner": owner}
        )
        words = fit_text(words, title_size, width - 64, bold=True)
        draw_text(draw, (32, y + 22), words, title_size, GOLD, anchor="lm", bold=True, role="title")
        y += 44
        cx, cy = 32 + card_w / 2, y + card_h / 2
        draw.rounded_rectangle(
            (cx - card_w / 2 - 5, cy - card_h / 2 - 5, cx + card_w / 2 + 5, cy + card_h / 2 + 5),
            radius=8,
            outline=GOLD,
            width=3,
        )
        paste_centred(image, card_face(deal.value, card_w, card_h, value_size), (cx, cy))
        y += card_h + HAND_GAP
    for other, values in others:
        seen = " ".join(signed(v) for v in values)
        line = _word(lang, "nomadi.hand.seen", {"player": shown[other], "values": seen})
        paste_centred(image, pawn_sprite(other, 12.0), (32 + 12, y + 20))
        line = fit_text(line, score_size, width - 100)
        draw_text(draw, (32 + 34, y + 20), line, score_size, PAPER, anchor="lm", role="score")
        y += 40
    return image


# --------------------------------------------------------------------------- the platform's entry


class NomadiPicture:
    """What the platform draws with (``SPEC.picture``), in a worker process."""

    def board(
        self, view: NomadiView, names: Sequence[str], lang: str, tags: Sequence[str | None] = ()
    ) -> bytes:
        return render_nomadi(view, names, lang, tags or None)

    def hand(self, view: NomadiView, names: Sequence[str], lang: str) -> bytes | None:
        return render_nomadi_hand(view, names, lang)

    def seat_colour(self, seat: int) -> RGB:
        return pawn_colour(seat)
