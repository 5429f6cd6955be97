"""Board and hand images of Sahwari, drawn from a :class:`SahwariView`.

Layout of the board image, 1200 px wide: the 5 x 5 map on the left (column
letters A-E above and below, row numbers 1-5 left and right, A1 top left),
then on the right the Guild's 3 recruit and 3 artefact spaces, the supplies,
the deck and discard, the recruitment row (4 cards drawn in full: both colour
bands with their letters, both edge abilities and values, the printed
influence and the clan ability) and the legend: every effect's pictogram and
what it does, in the reader's language. Under them one strip per clan: its
cards in reading order, each showing its two colours (fill and letter), its
two edge abilities (pictograms) with their values, its printed influence or
clan ability, and every junction's state between them (a row too long for
one line goes on to a second); its convoys by handle. Then the shared score
panel (:mod:`render.panel`): leader, storage and track with their current
value, locks, attack tokens and cards; once over, the score lines of E4 and
the total, with the winners (or nobody).

Tiles: face-up resource tiles in sand, deserts in a duller dune with ridges,
oases in green with a pool, the Guild in terracotta. Items: artefact cubes
as black squares, recruit pawns as white pawns, yellow tokens as yellow
chips with their id and icons, blue tokens as blue chips with their handle.
Player camels are their seat's shape, colour and number; guild camels are
grey hexagons marked G1 / G2. The grid, the oases, the Guild and the
coordinates never change: they form a static layer, cached. Effect icons are
the pictograms of :mod:`games.sahwari.picture_icons`.

Cost: a render draws only what changed since the boards drawn before it.
Texts come from their kept glyph masks (:mod:`render.glyphs`) and the parts
that a few values decide (a tile, a camel, a clan strip, a box or card of the
right column, the legend, the panel's rows) from the pixels they got last
time, by those values (:mod:`render.memo`); the picture is the same to the pixel.
About 10 MB of memos in all.

The last move (:class:`~games.sahwari.last_move.LastMove`, from the view's
``last`` when it carries one, or given to :func:`render_sahwari_image`) is
highlighted as Oasis does, in gold between ink lines: each camel's path as an
arrow from where it was to where it stands, the tiles it changed framed, the
items taken drawn as dashed ghosts where they lay (a convoy removed by an
attack crossed in red), the attacked camel ringed in red; on the right the
recruitment-row cards that changed; on the clan strips the cards placed, the
slots filled (gold ring) or padlocked (red ring) and the convoys taken.

Hidden information (spec §13, H2/H3): a blue face is drawn on the board
image only when the view carries it *and* the token is used or the game is
over, so the board image is the same for every seat; what a seat knows
privately (its own unused tokens, the ones it spied) is only drawn on its
hand image (:func:`render_sahwari_hand`), along with its clan row in full.

Words come from the catalogue (``sahwari.render.*`` and ``common.*``);
every text stays legible once a phone shows the image 550 px wide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache, partial
from typing import NamedTuple

from PIL import Image, ImageDraw

import games.sahwari.messages  # noqa: F401  (adds the Sahwari catalogue)
from games import catalogue
from games.contract import Seat
from games.sahwari import board
from games.sahwari.clan import (
    CUBE,
    DEAD,
    EMPTY,
    PADLOCK,
    ClanRow,
    junctions,
    slot_influence,
    storage_value,
    track_value,
)
from games.sahwari.content import CONTENT, TRACK_SPACES, Card, influence
from games.sahwari.last_move import LastMove
from games.sahwari.picture_icons import (
    CLAN,
    INFLUENCE,
    KINDS,
    draw_clan_mark,
    draw_influence,
    draw_legend,
    draw_token_icon,
    paste_icon,
    signed,
)
from games.sahwari.table import FACE_UP, GUILD_SPACES
from games.sahwari.views import ClanView, SahwariView
from games.text import Params
from render.grids import SquareGrid, draw_grid_labels
from render.memo import RegionCache, whole
from render.palette import BACKDROP, GOLD, INK, MUTED, PAPER, RGB, mix, player_style
from render.panel import CARD as PANEL_CARD
from render.panel import CARD_EDGE, Cell, Column, Panel, Row, panel_height
from render.panel_memo import draw_panel_cached
from render.png import png_bytes
from render.shapes import Box, Point, draw_player_marker, regular_polygon
from render.text import (
    display_names,
    draw_text_on,
    drawing_cache,
    fit_text,
    legible_size,
    stamp_text,
    text_width,
)

# --------------------------------------------------------------------------- look

WIDTH = 1200  # px: the board image, at every player count
CELL = 140  # px: a map tile
MAP_X, MAP_Y = 44, 44  # top-left corner of A1
GRID = SquareGrid(CELL, (MAP_X, MAP_Y))
MAP_BOTTOM = MAP_Y + board.WIDTH * CELL + 40  # below the bottom letters
SIDE_X = MAP_X + board.WIDTH * CELL + 34  # the right column
SIDE_W = WIDTH - SIDE_X - 20
HAND_WIDTH = 1000

SPACE_SIZE = legible_size("space", WIDTH)  # tile names
COORD_SIZE = legible_size("coordinate", WIDTH, 24)
VALUE_SIZE = legible_size("value", WIDTH)  # ids, handles, icons, values
TITLE_SIZE = legible_size("title", WIDTH)
NAME_SIZE = legible_size("name", WIDTH)
SCORE_SIZE = legible_size("score", WIDTH)

SAND: RGB = (236, 212, 158)  # a face-up resource tile
DUNE: RGB = (196, 172, 132)  # a desert (flipped resource tile)
DUNE_LINE: RGB = (170, 146, 108)
OASIS: RGB = (150, 204, 128)
POOL: RGB = (120, 180, 210)
GUILD: RGB = (196, 112, 78)
GRID_LINE: RGB = (120, 96, 62)
YELLOW: RGB = (246, 204, 52)
BLUE: RGB = (36, 76, 160)
CUBE_FILL: RGB = (34, 30, 28)
PAWN_FILL: RGB = (246, 244, 236)
GUILD_CAMEL: RGB = (92, 92, 100)
DEAD_MARK: RGB = (140, 130, 120)
PADLOCK_FILL: RGB = (196, 48, 40)
CARD_FACE: RGB = (248, 240, 222)
CARD_ID: RGB = (110, 96, 80)
GOOD: RGB = (30, 90, 180)  # influence gain (blue circle, §14)
BAD: RGB = (190, 40, 34)  # influence loss (red circle)
HIGHLIGHT: RGB = GOLD  # the last move, between ink lines (as Oasis does)
STRIKE: RGB = (214, 40, 32)  # an attack's target
BAND: dict[str, RGB] = {
    "R": (206, 58, 48),
    "G": (52, 146, 72),
    "P": (128, 78, 172),
    "O": (236, 146, 36),
}


def amount(value: int) -> str:
    return signed(value) if value < 0 else str(value)


def _word(lang: str, key: str, params: Params | None = None) -> str:
    return catalogue.text(lang, f"sahwari.render.{key}", params)


def tile_box(tile: int) -> Box:
    return GRID.box(tile % board.WIDTH + 1, tile // board.WIDTH + 1)


def tile_centre(tile: int) -> Point:
    return GRID.centre(tile % board.WIDTH + 1, tile // board.WIDTH + 1)


def is_blue(handle: str) -> bool:
    return handle.startswith("V")


def board_face(view: SahwariView, handle: str) -> str | None:
    """The face drawn on the board image for a token: a yellow one's id; a blue
    one's only once it is used or the game is over (never because this viewer
    happens to know it: that would make the board differ per seat)."""
    if not is_blue(handle):
        return handle
    if not (view.over or any(handle in c.used for c in view.clans)):
        return None
    return dict(view.faces).get(handle)


def private_faces(view: SahwariView) -> tuple[tuple[str, str, bool], ...]:
    """(handle, token id, owned) for every face-down blue token the viewer knows."""
    if view.viewer is None:
        return ()
    used = {h for c in view.clans for h in c.used}
    owned = set(view.clans[view.viewer].convoys) if view.viewer < len(view.clans) else set()
    return tuple(
        (handle, token, handle in owned)
        for handle, token in view.faces
        if is_blue(handle) and handle not in used
    )


def leader_name(leader: str, lang: str) -> str:
    return _word(lang, f"leader.{leader}") if leader else _word(lang, "leader.none")


def view_last(view: SahwariView) -> LastMove | None:
    """The last move the view carries (its ``last``), if it carries one."""
    last = getattr(view, "last", None)
    return last if isinstance(last, LastMove) and last else None


def _frame(draw: ImageDraw.ImageDraw, box: Box, outer: int = 7, inner: int = 4) -> None:
    """The last-move frame: gold between ink lines, just inside ``box``."""
    x0, y0, x1, y1 = box
    draw.rectangle(box, outline=INK, width=outer)
    d = (outer - inner) / 2
    draw.rectangle((x0 + d, y0 + d, x1 - d, y1 - d), outline=HIGHLIGHT, width=inner)


def _ring(draw: ImageDraw.ImageDraw, centre: Point, r: float, colour: RGB) -> None:
    """A ring in ``colour`` between ink lines, around ``centre``."""
    cx, cy = centre
    draw.ellipse((cx - r - 2, cy - r - 2, cx + r + 2, cy + r + 2), outline=INK, width=7)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=3)


def _dashed_box(draw: ImageDraw.ImageDraw, box: Box, colour: RGB, dash: float = 8) -> None:
    """A dashed rectangle, 3 px wide: where something was."""
    x0, y0, x1, y1 = box
    for a, b in (
        ((x0, y0), (x1, y0)),
        ((x1, y0), (x1, y1)),
        ((x1, y1), (x0, y1)),
        ((x0, y1), (x0, y0)),
    ):
        length = math.dist(a, b)
        steps = max(1, int(length // (2 * dash)))
        for k in range(steps + 1):
            t0 = min(1.0, k * 2 * dash / length)
            t1 = min(1.0, (k * 2 * dash + dash) / length)
            if t1 <= t0:
                continue
            p0 = (a[0] + (b[0] - a[0]) * t0, a[1] + (b[1] - a[1]) * t0)
            p1 = (a[0] + (b[0] - a[0]) * t1, a[1] + (b[1] - a[1]) * t1)
            draw.line((p0, p1), fill=colour, width=3)


# --------------------------------------------------------------------------- public API


def render_sahwari(
    view: SahwariView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
    last: LastMove | None = None,
) -> bytes:
    """PNG bytes of the map, the Guild, the recruitment row, the legend, the
    clans and the score panel as ``view`` shows them. ``names[i]`` is seat i's
    display name; ``tags[i]`` badges seat i's row ("bot", "resigned" or None);
    ``last`` (default: the view's own) is highlighted."""
    return png_bytes(render_sahwari_image(view, names, lang, tags, last))


def render_sahwari_image(
    view: SahwariView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
    last: LastMove | None = None,
) -> Image.Image:
    """The same picture as a Pillow RGB image (for tests and tools)."""
    last = last or view_last(view)
    panel = score_panel(view, names, lang, tags)
    heights = [strip_height(c.row) for c in view.clans]
    strips_top = MAP_BOTTOM + 8
    panel_top = strips_top + sum(heights) + 6
    height = panel_top + panel_height(panel, WIDTH)
    # every pixel is drawn below: the map, the strips on the backdrop, the panel
    image = Image.new("RGB", (WIDTH, height), None)
    image.paste(_map_layer(), (0, 0))
    image.paste(BACKDROP, (0, MAP_BOTTOM, WIDTH, panel_top))
    draw = ImageDraw.Draw(image)  # opaque colours only: blending would be ~9x slower
    spots = camel_spots(view)
    _draw_map(image, draw, view, lang, last, spots)
    if last:
        for tile in sorted(last.tiles):
            x0, y0, x1, y1 = tile_box(tile)
            _frame(draw, (x0 + 2, y0 + 2, x1 - 2, y1 - 2))
    _draw_camels(image, draw, view, spots, last)
    _draw_side(image, draw, view, lang, last)
    shown = display_names(names, view.players, lang)
    top = strips_top
    for seat in range(view.players):
        look = _strip_look(view, seat, shown[seat], lang, top, heights[seat], last)
        _draw_strip(image, draw, look)
        top += heights[seat]
    _draw_score_panel(image, panel, lang, panel_top)
    return image


def render_sahwari_hand(view: SahwariView, names: Sequence[str], lang: str = "en") -> bytes | None:
    """The viewer's private image: its clan row in full, its tracks and convoys,
    and the faces of the blue tokens it knows. None for a spectator."""
    image = render_sahwari_hand_image(view, names, lang)
    return None if image is None else png_bytes(image)


# --------------------------------------------------------------------------- the static map


@drawing_cache
@lru_cache(maxsize=1)
def _map_layer() -> Image.Image:
    """Backdrop, oases, the Guild, the grid and the coordinates (never change)."""
    layer = Image.new("RGB", (WIDTH, MAP_BOTTOM), BACKDROP)
    draw = ImageDraw.Draw(layer, "RGBA")
    for tile in board.OASES:
        x0, y0, x1, y1 = tile_box(tile)
        draw.rectangle((x0, y0, x1, y1), fill=OASIS)
        cx, cy = tile_centre(tile)
        draw.ellipse(
            (cx - 34, cy + 4, cx + 34, cy + 40), fill=POOL, outline=(90, 150, 180), width=2
        )
        for dx, h in ((-40, 46), (38, 38)):  # two palms
            draw.line((cx + dx, cy + 30, cx + dx + 4, cy + 30 - h), fill=(120, 90, 50), width=5)
            top = (cx + dx + 4, cy + 30 - h)
            for ang in (200, 250, 290, 340):
                rad = math.radians(ang)
                end = (top[0] + 20 * math.cos(rad), top[1] + 12 * math.sin(rad) + 6)
                draw.line((top, end), fill=(50, 120, 50), width=5)
    x0, y0, x1, y1 = tile_box(board.GUILD)
    draw.rectangle((x0, y0, x1, y1), fill=GUILD)
    draw.rectangle((x0 + 6, y0 + 6, x1 - 6, y1 - 6), outline=mix(GUILD, INK, 0.35), width=3)
    for tile in board.TILES:
        draw.rectangle(tile_box(tile), outline=GRID_LINE, width=2)
    draw.rectangle(
        (MAP_X - 3, MAP_Y - 3, MAP_X + board.WIDTH * CELL + 2, MAP_Y + board.WIDTH * CELL + 2),
        outline=INK,
        width=3,
    )
    draw_grid_labels(draw, GRID, board.WIDTH, board.WIDTH, size=COORD_SIZE, gap=8)
    return layer


def _draw_resource_tile(draw: ImageDraw.ImageDraw, tile: int, side: str) -> None:
    x0, y0, x1, y1 = tile_box(tile)
    if side == FACE_UP:
        draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=SAND, outline=GRID_LINE, width=2)
        return
    draw.rectangle((x0 + 1, y0 + 1, x1 - 1, y1 - 1), fill=DUNE, outline=GRID_LINE, width=2)
    for i in range(4):  # dune ridges: a desert at a glance, whatever the colour vision
        y = y0 + 40 + i * 24
        draw.arc((x0 + 14, y, x0 + 74, y + 26), 200, 340, fill=DUNE_LINE, width=3)
        draw.arc((x0 + 66, y + 10, x1 - 14, y + 36), 200, 340, fill=DUNE_LINE, width=3)


# --------------------------------------------------------------------------- items and camels

CHIP_W, CHIP_H = 64, 66
CHIP_ICON = 26  # px: a pictogram or influence circle on a chip
ITEM = 18  # a cube's side, a pawn's height


def _draw_cube(draw: ImageDraw.ImageDraw, x: float, y: float, size: float = ITEM) -> None:
    """An artefact cube, its top-left corner at (x, y)."""
    draw.rectangle((x, y, x + size, y + size), fill=CUBE_FILL, outline=PAPER, width=2)


def _draw_pawn(draw: ImageDraw.ImageDraw, x: float, y: float, size: float = ITEM) -> None:
    """A recruit pawn (white meeple-like), its bounding box's top-left at (x, y)."""
    r = size * 0.26
    draw.ellipse((x + size / 2 - r, y, x + size / 2 + r, y + 2 * r), fill=PAWN_FILL, outline=INK)
    draw.polygon(
        [(x + size / 2, y + r), (x + size, y + size), (x, y + size)], fill=PAWN_FILL, outline=INK
    )


def _draw_chip(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, handle: str, face: str | None
) -> None:
    """A convoy token: yellow with its id and icons, blue face down with its
    handle, or a revealed blue token with its handle and icons (underlined)."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    if face is None:
        draw.rounded_rectangle(box, radius=9, fill=BLUE, outline=PAPER, width=2)
        draw_text_on(
            image,
            (cx, (y0 + y1) / 2),
            handle,
            VALUE_SIZE,
            PAPER,
            anchor="mm",
            bold=True,
            role="value",
        )
        return
    token = CONTENT.token(face)
    fill = YELLOW if token.colour == "yellow" else mix(BLUE, PAPER, 0.7)
    draw.rounded_rectangle(box, radius=9, fill=fill, outline=INK, width=2)
    draw_text_on(
        image, (cx, y0 + 13), handle, VALUE_SIZE, INK, anchor="mm", bold=True, role="value"
    )
    _draw_token_icons(image, draw, token.icons, (cx, y0 + 43), CHIP_ICON)
    if face != handle:  # a revealed blue token
        draw.line((x0 + 6, y1 - 3, x1 - 6, y1 - 3), fill=BLUE, width=3)


def _draw_token_icons(
    image: Image.Image, draw: ImageDraw.ImageDraw, icons: Sequence[str], centre: Point, size: int
) -> None:
    """A token's icons side by side, centred on ``centre``."""
    cx, cy = centre
    step = size + 4
    x = cx - step * (len(icons) - 1) / 2
    for icon in icons:
        draw_token_icon(image, draw, icon, (x, cy), size, VALUE_SIZE)
        x += step


def _ghost_chip(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, handle: str, removed: bool
) -> None:
    """Where a convoy lay before the last move: a dashed outline with its handle;
    crossed in red when an attack removed it from the game (rule A6)."""
    x0, y0, x1, y1 = box
    veil = ImageDraw.Draw(image, "RGBA")  # translucent: the tile shows through
    veil.rounded_rectangle(box, radius=9, fill=(*PAPER, 70))
    _dashed_box(draw, box, INK)
    if removed:
        for a, b in (((x0 + 6, y0 + 6), (x1 - 6, y1 - 6)), ((x0 + 6, y1 - 6), (x1 - 6, y0 + 6))):
            draw.line((a, b), fill=INK, width=8)
            draw.line((a, b), fill=STRIKE, width=4)
    draw_text_on(
        image,
        ((x0 + x1) / 2, (y0 + y1) / 2),
        handle,
        VALUE_SIZE,
        INK,
        anchor="mm",
        bold=True,
        role="value",
        outline=PAPER,
        outline_width=3,
    )


@dataclass(frozen=True)
class _TileLook:
    """What a tile shows under the camels: its side, its name and its items
    (with the last move's ghosts). Keys the tile's memo: nothing else is drawn
    there, unless a path crosses it."""

    tile: int
    side: str  # a resource tile's side; "" for the Guild and the oases
    label: str
    small: tuple[tuple[str, bool], ...]  # cube or pawn, and whether it was just taken
    chips: tuple[tuple[str, str, str | None], ...]  # handle, "" / "taken" / "removed", face

    def fits(self) -> bool:
        """Whether its items stay inside the tile (they always do on a real board)."""
        return len(self.chips) <= 2 and len(self.small) <= 5


def _tile_look(view: SahwariView, tile: int, lang: str, last: LastMove | None) -> _TileLook:
    label = board.name(tile)
    if tile == board.GUILD:
        label = f"{label} · {_word(lang, 'guild')}"
    items = view.items[tile]
    small = [(i, False) for i in items if i in ("A", "R")]
    chips: list[tuple[str, str, str | None]] = [
        (i, "", board_face(view, i)) for i in items if i not in ("A", "R")
    ]
    if last and tile != board.GUILD:
        small += [(i, True) for t, i in last.taken if t == tile and i in ("A", "R")]
        chips += [(i, "taken", None) for t, i in last.taken if t == tile and i not in ("A", "R")]
        chips += [(i, "removed", None) for t, i in last.removed if t == tile]
    side = view.sides[tile] if tile in board.RESOURCE_TILES else ""
    return _TileLook(tile, side, label, tuple(small), tuple(chips))


def _draw_items(image: Image.Image, draw: ImageDraw.ImageDraw, look: _TileLook) -> None:
    x0, y0, x1, y1 = tile_box(look.tile)
    draw_text_on(
        image,
        (x0 + 7, y0 + 5),
        look.label,
        SPACE_SIZE,
        INK,
        anchor="la",
        bold=True,
        role="space",
        outline=mix(PAPER, SAND, 0.5),
        outline_width=2,
    )
    x = x0 + 8
    for item, gone in look.small:
        if gone:
            _dashed_box(draw, (x - 2, y0 + 34, x + ITEM + 2, y0 + 38 + ITEM), INK, dash=4)
        else:
            (_draw_cube if item == "A" else _draw_pawn)(draw, x, y0 + 36, ITEM)
        x += ITEM + 6
    n = len(look.chips)
    gap = (CELL - n * CHIP_W) / (n + 1)
    for k, (handle, why, face) in enumerate(look.chips):
        cx0 = x0 + gap + k * (CHIP_W + gap)
        box = (cx0, y1 - CHIP_H - 6, cx0 + CHIP_W, y1 - 6)
        if why:
            _ghost_chip(image, draw, box, handle, why == "removed")
        else:
            _draw_chip(image, draw, box, handle, face)


def _paint_tile(image: Image.Image, draw: ImageDraw.ImageDraw, look: _TileLook) -> None:
    if look.side:
        _draw_resource_tile(draw, look.tile, look.side)
    _draw_items(image, draw, look)


# Tiles as drawn, by look: a board shows 25, and few change in a move.
_TILES = RegionCache(28)


def _draw_map(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: SahwariView,
    lang: str,
    last: LastMove | None,
    spots: dict[str, Point],
) -> None:
    """Resource tiles, the last move's paths over them, then the items: in
    that order where a path crosses a tile; any other tile comes whole from
    the memo (its look says all it shows)."""
    looks = [_tile_look(view, tile, lang, last) for tile in board.TILES]
    paths = _path_lines(last, spots) if last else []
    # a drawing that spills over its tile would be cut by a neighbour's memo
    direct = _tiles_under(paths) if all(look.fits() for look in looks) else set(board.TILES)
    for look in looks:
        if look.side and look.tile in direct:
            _draw_resource_tile(draw, look.tile, look.side)
    _draw_paths(image, paths)
    for look in looks:
        if look.tile in direct:
            _draw_items(image, draw, look)
        else:
            x0, y0, x1, y1 = tile_box(look.tile)
            paint = partial(_paint_tile, image, draw, look)
            _TILES.draw(image, whole((x0 + 1, y0 + 1, x1 - 1, y1 - 1)), look, paint)


def _tiles_under(paths: Sequence[_PathLine]) -> set[int]:
    """The tiles a path's drawing may touch (its segments' boxes, widened by
    the line's half width, the start disc and the head)."""
    boxes: list[Box] = []
    for path in paths:
        for a, b in zip(path.points, path.points[1:], strict=False):
            boxes.append(
                _widened((min(a[0], b[0]), min(a[1], b[1]), max(a[0], b[0]), max(a[1], b[1])), 16)
            )
        xs, ys = [p[0] for p in path.head], [p[1] for p in path.head]
        boxes.append(_widened((min(xs), min(ys), max(xs), max(ys)), 4))
    return {tile for tile in board.TILES if any(_overlap(tile_box(tile), box) for box in boxes)}


def _widened(box: Box, by: float) -> Box:
    return (box[0] - by, box[1] - by, box[2] + by, box[3] + by)


def _overlap(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


CAMEL_R = 15.0


def camel_spots(view: SahwariView) -> dict[str, Point]:
    """Where each camel is drawn: on a common tile, in a grid in the tile's
    body; elsewhere (one camel at most, rule R5) in the top right corner."""
    by_tile: dict[int, list[str]] = {}
    for camel, tile in view.camels:
        by_tile.setdefault(tile, []).append(camel)
    spots: dict[str, Point] = {}
    for tile, camels in by_tile.items():
        x0, y0, x1, _ = tile_box(tile)
        for k, camel in enumerate(camels):
            if board.is_common(tile):
                row, col = divmod(k, 3)
                spots[camel] = (x0 + 28 + col * 42, y0 + 50 + row * 44)
            else:
                spots[camel] = (x1 - 24, y0 + 24 + k * 40)
    return spots


def _tile_spot(tile: int) -> Point:
    """Where a camel stood on a tile it left: the corner of a resource tile,
    the body of a common one."""
    x0, y0, x1, _ = tile_box(tile)
    return (x0 + 70, y0 + 60) if board.is_common(tile) else (x1 - 24, y0 + 24)


# Camels as drawn, by camel, place and what lay under them.
_CAMELS = RegionCache(16)


def _draw_camel(image: Image.Image, draw: ImageDraw.ImageDraw, camel: str, centre: Point) -> None:
    box = _widened((*centre, *centre), CAMEL_R + 11)  # the widest shape, a triangle, and more
    paint = partial(_paint_camel, image, draw, camel, centre)
    _CAMELS.draw(image, whole(box), (camel, centre), paint, behind=True)


def _paint_camel(image: Image.Image, draw: ImageDraw.ImageDraw, camel: str, centre: Point) -> None:
    if board.is_guild_camel(camel):
        hexagon = regular_polygon(centre, CAMEL_R + 5, 6, rotation=30)
        draw.polygon(hexagon, fill=GUILD_CAMEL, outline=PAPER, width=2)
        draw_text_on(image, centre, camel, VALUE_SIZE, PAPER, anchor="mm", bold=True, role="value")
        return
    seat = int(camel[1:]) - 1
    style = player_style(seat)
    draw_player_marker(draw, seat, centre, CAMEL_R + 3, edge=INK)
    ink = INK if sum(style.colour) > 420 else PAPER
    y = centre[1] + (3 if style.shape == "triangle" else 0)
    draw_text_on(
        image, (centre[0], y), style.letter, VALUE_SIZE, ink, anchor="mm", bold=True, role="value"
    )


def _draw_camels(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: SahwariView,
    spots: dict[str, Point],
    last: LastMove | None,
) -> None:
    framed = last.tiles if last else frozenset()
    if view.arrival >= 0 and not view.over and view.arrival not in framed:
        x0, y0, x1, y1 = tile_box(view.arrival)
        draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=GOLD, width=4)
    if last:  # an attack's target: the robbed seat's camel, ringed in red
        for seat in last.robbed:
            camel = board.PLAYER_CAMELS[seat]
            if camel in spots:
                _ring(draw, spots[camel], CAMEL_R + 10, STRIKE)
    for camel, centre in spots.items():
        _draw_camel(image, draw, camel, centre)


def _turns(path: Sequence[int]) -> list[int]:
    """A path's ends and the tiles where it turns."""
    kept = [path[0]]
    for k in range(1, len(path) - 1):
        a, b, c = path[k - 1], path[k], path[k + 1]
        if b - a != c - b:
            kept.append(b)
    kept.append(path[-1])
    return kept


class _PathLine(NamedTuple):
    """A camel's way as drawn: the line (from where it stood to short of where
    it stands) and the arrow's head."""

    points: tuple[Point, ...]
    head: tuple[Point, Point, Point]


def _path_lines(last: LastMove, spots: dict[str, Point]) -> list[_PathLine]:
    lines = []
    for camel, path in last.camels:
        if camel not in spots:
            continue
        tiles = _turns(path)
        points = [_tile_spot(t) for t in tiles[:-1]] + [spots[camel]]
        # stop short of the camel, so the head points at it
        (ax, ay), (bx, by) = points[-2], points[-1]
        length = math.dist((ax, ay), (bx, by))
        if length < 1:
            continue
        back = min(CAMEL_R + 8, length / 2)
        ux, uy = (bx - ax) / length, (by - ay) / length
        tip = (bx - ux * back, by - uy * back)
        points[-1] = tip
        nx, ny = -uy, ux
        head = (
            (tip[0] + ux * 6, tip[1] + uy * 6),
            (tip[0] - ux * 20 + nx * 15, tip[1] - uy * 20 + ny * 15),
            (tip[0] - ux * 20 - nx * 15, tip[1] - uy * 20 - ny * 15),
        )
        lines.append(_PathLine(tuple(points), head))
    return lines


def _draw_paths(image: Image.Image, paths: Sequence[_PathLine]) -> None:
    """Each camel's way, from where it stood to where it stands: a gold arrow
    between ink lines, under the items and the camels."""
    veil = ImageDraw.Draw(image, "RGBA")  # the ink line is translucent
    for path in paths:
        veil.line(path.points, fill=(*INK, 230), width=13, joint="curve")
        veil.line(path.points, fill=HIGHLIGHT, width=7, joint="curve")
        sx, sy = path.points[0]
        veil.ellipse((sx - 10, sy - 10, sx + 10, sy + 10), fill=HIGHLIGHT, outline=INK, width=3)
        veil.polygon(path.head, fill=HIGHLIGHT, outline=INK, width=3)


# --------------------------------------------------------------------------- right column

ROW_CARD_W, ROW_CARD_H = 198, 116
ROW_PITCH = ROW_CARD_H + 26  # a card and its position's number above it
ROW_ICON = 32  # px: a pictogram on a recruitment-row card
LEGEND_ICON = 24
# The legend in the right column: a line per kind, then influence and clan abilities.
SIDE_LEGEND: tuple[tuple[str, ...], ...] = (*((kind,) for kind in KINDS), (INFLUENCE, CLAN))


class _Supplies(NamedTuple):
    """What the supplies box shows."""

    cubes: int
    pawns: int
    attack_tokens: int
    deck: int
    discard: int


# The right column's boxes, cards and legend as drawn, by what they show:
# on the backdrop, which never changes there.
_BOXES = RegionCache(3)
_ROW_CARDS = RegionCache(6)
_LEGENDS = RegionCache(1)


def _draw_side(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: SahwariView,
    lang: str,
    last: LastMove | None,
) -> None:
    x, y = SIDE_X, MAP_Y - 30
    right = SIDE_X + SIDE_W
    guild = (view.guild_pawns, view.guild_cubes)
    paint = partial(_paint_guild, image, draw, y, *guild, lang)
    _BOXES.draw(image, whole((x, y, right, y + 108)), ("guild", *guild, lang), paint)
    y += 118
    supplies = _Supplies(view.cubes, view.pawns, view.attack_tokens, view.deck, len(view.discard))
    paint = partial(_paint_supplies, image, draw, y, supplies, lang)
    _BOXES.draw(image, whole((x, y, right, y + 76)), (supplies, lang), paint)
    y += 86
    _draw_recruitment_row(image, draw, view, lang, last, y)
    y += 30 + 2 * ROW_PITCH + 4
    if view.removed:
        text = _word(lang, "removed", {"handles": " ".join(view.removed)})
        draw_text_on(
            image, (x, y), fit_text(text, TITLE_SIZE, SIDE_W), TITLE_SIZE, PAPER, role="title"
        )
        y += 26
    # the legend, down to the map's bottom
    line = min(26.0, (MAP_BOTTOM - 2 - y) / len(SIDE_LEGEND))
    bottom = y + line * len(SIDE_LEGEND) + LEGEND_ICON / 2
    paint = partial(
        draw_legend,
        image,
        draw,
        (x, y),
        SIDE_W,
        SIDE_LEGEND,
        lang,
        line=line,
        icon=LEGEND_ICON,
        colour=PAPER,
    )
    # the line above may reach a pixel into the legend's box: in the key too
    _LEGENDS.draw(image, whole((x, y, right, bottom)), (lang, y, line, view.removed), paint)


def _paint_guild(
    image: Image.Image, draw: ImageDraw.ImageDraw, y: int, pawns: int, cubes: int, lang: str
) -> None:
    """The Guild's spaces: its pawns and cubes."""
    x, right = SIDE_X, SIDE_X + SIDE_W
    draw.rounded_rectangle((x, y, right, y + 108), radius=10, fill=PANEL_CARD, outline=CARD_EDGE)
    draw_text_on(
        image, (x + 12, y + 8), _word(lang, "guild"), TITLE_SIZE, MUTED, bold=True, role="title"
    )
    for k, (key, count, paint) in enumerate(
        (("guild.pawns", pawns, _draw_pawn), ("guild.cubes", cubes, _draw_cube))
    ):
        yy = y + 38 + k * 34
        label = fit_text(_word(lang, key), TITLE_SIZE, 160)
        draw_text_on(image, (x + 12, yy + 13), label, TITLE_SIZE, PAPER, anchor="lm", role="title")
        for s in range(GUILD_SPACES):
            bx = x + 190 + s * 36
            draw.rectangle((bx, yy, bx + 28, yy + 26), outline=MUTED, width=2)
            if s < count:
                paint(draw, bx + 5, yy + 4, 18)
        draw_text_on(
            image,
            (right - 12, yy + 13),
            f"{count}/{GUILD_SPACES}",
            VALUE_SIZE,
            MUTED,
            anchor="rm",
            role="value",
        )


def _paint_supplies(
    image: Image.Image, draw: ImageDraw.ImageDraw, y: int, supplies: _Supplies, lang: str
) -> None:
    """The supplies (cubes, pawns, attack tokens), the deck and the discard."""
    x, right = SIDE_X, SIDE_X + SIDE_W
    draw.rounded_rectangle((x, y, right, y + 76), radius=10, fill=PANEL_CARD, outline=CARD_EDGE)
    draw_text_on(
        image, (x + 12, y + 8), _word(lang, "supply"), TITLE_SIZE, MUTED, bold=True, role="title"
    )
    sx: float = x + 12
    yy = y + 50
    _draw_cube(draw, sx, yy - 10, 20)
    sx += 26 + draw_text_on(
        image, (sx + 28, yy), str(supplies.cubes), SCORE_SIZE, PAPER, anchor="lm", role="score"
    )
    sx += 28
    _draw_pawn(draw, sx, yy - 11, 22)
    sx += 30 + draw_text_on(
        image, (sx + 30, yy), str(supplies.pawns), SCORE_SIZE, PAPER, anchor="lm", role="score"
    )
    sx += 30
    _draw_attack_token(draw, (sx + 11, yy))
    attacks = str(supplies.attack_tokens)
    draw_text_on(image, (sx + 28, yy), attacks, SCORE_SIZE, PAPER, anchor="lm", role="score")
    deck = _word(lang, "deck", {"count": supplies.deck})
    discard = _word(lang, "discard", {"count": supplies.discard})
    draw_text_on(
        image,
        (right - 12, y + 8),
        f"{deck} · {discard}",
        TITLE_SIZE,
        PAPER,
        anchor="ra",
        role="title",
    )


def _draw_recruitment_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: SahwariView,
    lang: str,
    last: LastMove | None,
    y: int,
) -> None:
    """The recruitment row's title and its four positions, each card whole."""
    x = SIDE_X
    draw_text_on(image, (x, y), _word(lang, "row"), TITLE_SIZE, MUTED, bold=True, role="title")
    y += 30
    changed = set(last.row) if last else set()
    for pos in range(4):
        row, col = divmod(pos, 2)
        cx0 = x + col * (ROW_CARD_W + (SIDE_W - 2 * ROW_CARD_W))
        cy0 = y + row * ROW_PITCH
        draw_text_on(
            image,
            (cx0 + 4, cy0 + 1),
            str(pos + 1),
            VALUE_SIZE,
            GOLD,
            anchor="la",
            bold=True,
            role="value",
        )
        card = view.row[pos] if pos < len(view.row) else ""
        box = (cx0, cy0 + 24, cx0 + ROW_CARD_W, cy0 + 24 + ROW_CARD_H)
        if card:
            paint = partial(draw_card, image, draw, box, CONTENT.card(card), lang)
            _ROW_CARDS.draw(image, whole(box), (box, card, lang), paint)
            if pos in changed:
                bx0, by0, bx1, by1 = box
                _frame(draw, (bx0 - 4, by0 - 4, bx1 + 4, by1 + 4))
        elif pos in changed:  # taken during the last move
            _dashed_box(draw, box, HIGHLIGHT)
        else:
            draw.rounded_rectangle(box, radius=8, outline=MUTED, width=2)


def _draw_attack_token(draw: ImageDraw.ImageDraw, centre: Point, r: float = 11) -> None:
    """An attack token: a red disc with crossed blades."""
    cx, cy = centre
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PADLOCK_FILL, outline=PAPER, width=2)
    d = r * 0.55
    draw.line((cx - d, cy - d, cx + d, cy + d), fill=PAPER, width=3)
    draw.line((cx - d, cy + d, cx + d, cy - d), fill=PAPER, width=3)


def _influence_disc(
    image: Image.Image, draw: ImageDraw.ImageDraw, centre: Point, value: int, size: int
) -> None:
    """A card's printed influence: blue, or grey when 0."""
    if value:
        draw_influence(image, draw, centre, value, size, size * 1.36)
        return
    r = size * 0.68
    cx, cy = centre
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=MUTED, outline=INK, width=2)
    draw_text_on(image, centre, "0", size, PAPER, anchor="mm", bold=True, role="value")


def _hand_line(
    image: Image.Image, at: tuple[float, float], text: str, size: int, room: float
) -> None:
    """One line of the hand image's text, shrunk to fit ``room`` px."""
    draw_text_on(image, at, fit_text(text, size, room), size, PAPER, anchor="lm", role="score")


def _half_slot(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    at: Point,
    ability: str,
    value: int,
    size: int,
    icon: int,
) -> None:
    """A half-slot (rule K2): its ability's pictogram and its value under it."""
    x, y = at
    paste_icon(image, ability, (x, y), icon)
    draw_text_on(
        image,
        (x, y + icon / 2 + size / 2 + 2),
        str(value),
        size,
        GOOD,
        anchor="mm",
        bold=True,
        role="value",
    )


def draw_card(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    box: Box,
    card: Card,
    lang: str,
    *,
    size: int = VALUE_SIZE,
    icon: int = ROW_ICON,
) -> None:
    """A recruit card in full: its id, printed influence, both colour bands (with
    their letter), both edge abilities (pictograms) and values, and its clan
    ability."""
    x0, y0, x1, y1 = box
    band = max(22, size + 2)
    draw.rounded_rectangle(box, radius=8, fill=CARD_FACE, outline=INK, width=2)
    for edge, bx0 in ((card.left, x0), (card.right, x1 - band)):
        draw.rectangle((bx0 + 2, y0 + 2, bx0 + band - 2, y1 - 2), fill=BAND[edge.colour])
        draw_text_on(
            image,
            (bx0 + band / 2, (y0 + y1) / 2),
            edge.colour,
            size,
            PAPER,
            anchor="mm",
            bold=True,
            role="value",
            outline=INK,
            outline_width=1,
        )
    cx = (x0 + x1) / 2
    top = y0 + size + 8 + icon / 2
    for edge, ex in ((card.left, x0 + band + 4 + icon / 2), (card.right, x1 - band - 4 - icon / 2)):
        _half_slot(image, draw, (ex, top), edge.ability, edge.value, size, icon)
    draw_text_on(
        image, (cx, y0 + 4 + size / 2), card.id, size, CARD_ID, anchor="mm", bold=True, role="value"
    )
    _influence_disc(image, draw, (cx, top), card.influence, size)
    if card.clan:
        room = x1 - x0 - 2 * band - 6
        clan = fit_text(_word(lang, f"leader.{card.clan.lower()}"), size, room - 12, bold=True)
        pill_w = text_width(clan, size, bold=True) + 12
        draw.rounded_rectangle(
            (cx - pill_w / 2, y1 - size - 12, cx + pill_w / 2, y1 - 5), radius=6, fill=GOLD
        )
        draw_text_on(
            image, (cx, y1 - 8 - size / 2), clan, size, INK, anchor="mm", bold=True, role="value"
        )


# --------------------------------------------------------------------------- clan strips

MINI_W, MINI_H = 68, 80  # a card of a clan strip
SHEET_W = 92  # the clan sheet on a strip
MINI_ICON = 30
JUNCTION_W = 24
STRIP_X0, STRIP_X1 = 20, WIDTH - 20
STRIP_HEAD = 44  # the name line, above the row
STRIP_LINE = MINI_H + 12  # one line of the row
STRIP_ROOM = STRIP_X1 - STRIP_X0 - 24  # px a line of the row may take


def row_elements(row: ClanRow) -> list[str]:
    """The clan row in reading order: card ids with "" for the clan sheet."""
    return [*reversed(row.left), "", *row.right]


def row_junctions(row: ClanRow) -> list[str]:
    """Junction states between consecutive :func:`row_elements`."""
    return [state for _, state in junctions(row)]


def _element_w(element: str) -> int:
    return MINI_W if element else SHEET_W


def row_lines(row: ClanRow) -> list[list[int]]:
    """The row's elements (indices) split into lines that fit a strip, each
    line but the last ending with a junction gap."""
    lines: list[list[int]] = [[]]
    used = 0.0
    for k, element in enumerate(row_elements(row)):
        w = _element_w(element) + JUNCTION_W
        if lines[-1] and used + w > STRIP_ROOM:
            lines.append([])
            used = JUNCTION_W  # a line that goes on starts after the junction
        lines[-1].append(k)
        used += w
    return lines


def strip_height(row: ClanRow) -> int:
    return STRIP_HEAD + STRIP_LINE * len(row_lines(row)) + 6


def _draw_junction(draw: ImageDraw.ImageDraw, centre: Point, state: str, r: float = 11) -> None:
    """A junction: dead (grey cross), empty slot (ring), cube (black cube) or padlock."""
    cx, cy = centre
    if state == DEAD:
        d = r * 0.7
        draw.line((cx - d, cy - d, cx + d, cy + d), fill=DEAD_MARK, width=4)
        draw.line((cx - d, cy + d, cx + d, cy - d), fill=DEAD_MARK, width=4)
    elif state == EMPTY:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=PAPER, width=3)
    elif state == CUBE:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PAPER)  # a filled slot
        _draw_cube(draw, cx - r * 0.6, cy - r * 0.6, r * 1.2)
    elif state == PADLOCK:
        draw.arc(
            (cx - r * 0.6, cy - r * 1.1, cx + r * 0.6, cy + r * 0.2),
            180,
            360,
            fill=PADLOCK_FILL,
            width=4,
        )
        draw.rectangle(
            (cx - r * 0.85, cy - r * 0.3, cx + r * 0.85, cy + r),
            fill=PADLOCK_FILL,
            outline=PAPER,
            width=2,
        )


def _mini_text(image: Image.Image, at: Point, text: str) -> None:
    """A value or colour letter on a card's colour: paper on an ink halo."""
    stamp_text(
        image,
        at,
        text,
        VALUE_SIZE,
        PAPER,
        anchor="mm",
        bold=True,
        outline=INK,
        outline_width=2,
        role="value",
    )


def _draw_mini_card(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, card_id: str) -> None:
    """A card of a clan strip: each half in its colour band's colour with the
    colour's letter on top, the edge's pictogram and its value; its printed
    influence (or a crown for a clan ability) at the top in the middle."""
    x0, y0, x1, y1 = box
    card = CONTENT.card(card_id)
    mid = (x0 + x1) / 2
    draw.rectangle((x0, y0, mid, y1), fill=BAND[card.left.colour])
    draw.rectangle((mid, y0, x1, y1), fill=BAND[card.right.colour])
    draw.rectangle(box, outline=INK, width=2)
    half = (x1 - x0) / 4
    for edge, hx, lx in ((card.left, x0 + half, x0 + 10), (card.right, x1 - half, x1 - 10)):
        _mini_text(image, (lx, y0 + 13), edge.colour)
        paste_icon(image, edge.ability, (hx, y0 + 41), MINI_ICON)
        _mini_text(image, (hx, y0 + 67), str(edge.value))
    if card.influence:
        draw_influence(image, draw, (mid, y0 + 13), card.influence, VALUE_SIZE, 24)
    elif card.clan:
        draw_clan_mark(draw, (mid, y0 + 13), 26)


def _draw_mini_sheet(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, seat: Seat) -> None:
    """The clan sheet on a strip: the seat's marker, each opening's colours as
    bands at its edge, its half-slot's pictogram and value."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=6, fill=PAPER, outline=INK, width=2)
    sheet = CONTENT.clan_sheet
    for opening, side in ((sheet.left, -1), (sheet.right, 1)):
        edge = x0 + 2 if side < 0 else x1 - 2
        for k, colour in enumerate(opening.colours):
            bx = edge - side * (k * 6)
            draw.rectangle(
                (min(bx, bx - side * 6), y0 + 2, max(bx, bx - side * 6), y1 - 2), fill=BAND[colour]
            )
        hx = x0 + 31 if side < 0 else x1 - 31
        paste_icon(image, opening.ability, (hx, y0 + 41), MINI_ICON)
        draw_text_on(
            image,
            (hx, y0 + 67),
            str(opening.value),
            VALUE_SIZE,
            GOOD,
            anchor="mm",
            bold=True,
            role="value",
        )
    draw_player_marker(draw, seat, ((x0 + x1) / 2, y0 + 14), 10, edge=INK)


@dataclass(frozen=True)
class _StripLook:
    """Everything a clan strip shows, which keys its memo."""

    seat: Seat
    top: int
    height: int
    name: str  # as it fits
    leader: str  # in the reader's language
    active: bool
    convoys: tuple[tuple[str, RGB, bool, bool], ...]  # label, fill, used, fresh; right to left
    row: ClanRow
    placed: frozenset[str]  # cards placed in the last move…
    filled: frozenset[str]  # …junctions it filled…
    locked: frozenset[str]  # …and padlocked

    def fits(self) -> bool:
        """Whether its convoys stay inside the strip (they always do in a game)."""
        widths = sum(text_width(c[0], VALUE_SIZE, bold=True) + 22 for c in self.convoys)
        return widths < STRIP_X1 - STRIP_X0 - 20


def _strip_look(
    view: SahwariView,
    seat: Seat,
    name: str,
    lang: str,
    top: int,
    height: int,
    last: LastMove | None,
) -> _StripLook:
    c = view.clans[seat]
    fresh = {h for s, h in (last.convoys + last.used if last else ()) if s == seat}
    convoys = []
    for handle in reversed(c.convoys):
        face = board_face(view, handle)
        label = handle if face is None or face == handle else f"{handle}={face}"
        fill = YELLOW if not is_blue(handle) else BLUE if face is None else mix(BLUE, PAPER, 0.7)
        convoys.append((label, fill, handle in c.used, handle in fresh))

    def mine(pairs: Sequence[tuple[Seat, str]]) -> frozenset[str]:
        return frozenset(what for s, what in pairs if s == seat)

    return _StripLook(
        seat,
        top,
        height,
        fit_text(name, NAME_SIZE, 300, bold=True),
        leader_name(c.leader, lang),
        not view.over and seat in (view.prompt_seat, view.active),
        tuple(convoys),
        c.row,
        mine(last.cards) if last else frozenset(),
        mine(last.slots) if last else frozenset(),
        mine(last.padlocks) if last else frozenset(),
    )


# Clan strips as drawn, by look: one per seat, and most stay as they were in a move.
_STRIPS = RegionCache(5)


def _draw_strip(image: Image.Image, draw: ImageDraw.ImageDraw, look: _StripLook) -> None:
    box = (STRIP_X0, look.top, STRIP_X1, look.top + look.height - 8)
    paint = partial(_paint_strip, image, draw, look)
    if look.fits():
        _STRIPS.draw(image, whole(box), look, paint)
    else:
        paint()


def _paint_strip(image: Image.Image, draw: ImageDraw.ImageDraw, look: _StripLook) -> None:
    x0, top = STRIP_X0, look.top
    draw.rounded_rectangle(
        (x0, top, STRIP_X1, top + look.height - 8),
        radius=10,
        fill=PANEL_CARD,
        outline=GOLD if look.active else CARD_EDGE,
        width=3 if look.active else 2,
    )
    draw_player_marker(draw, look.seat, (x0 + 24, top + 22), 12)
    w = draw_text_on(
        image, (x0 + 44, top + 22), look.name, NAME_SIZE, PAPER, anchor="lm", bold=True, role="name"
    )
    draw_text_on(
        image, (x0 + 56 + w, top + 22), look.leader, TITLE_SIZE, MUTED, anchor="lm", role="title"
    )
    _paint_convoys(image, draw, look)
    _paint_row(image, draw, look)


def _paint_convoys(image: Image.Image, draw: ImageDraw.ImageDraw, look: _StripLook) -> None:
    """A strip's convoys on the right, by handle (a used one face up)."""
    x: float = STRIP_X1 - 10
    top = look.top
    for label, fill, used, fresh in look.convoys:
        tw = text_width(label, VALUE_SIZE, bold=True) + 14
        box = (x - tw, top + 8, x, top + 36)
        if fresh:
            draw.rounded_rectangle((x - tw - 5, top + 3, x + 5, top + 41), radius=10, fill=INK)
            draw.rounded_rectangle((x - tw - 3, top + 5, x + 3, top + 39), radius=9, fill=HIGHLIGHT)
        draw.rounded_rectangle(box, radius=7, fill=fill, outline=MUTED if used else PAPER, width=2)
        ink = PAPER if fill == BLUE else INK
        draw_text_on(
            image,
            (x - tw / 2, top + 22),
            label,
            VALUE_SIZE,
            ink,
            anchor="mm",
            bold=True,
            role="value",
        )
        if used:  # a used token: struck through
            draw.line((x - tw + 4, top + 22, x - 4, top + 22), fill=BAD, width=2)
        x -= tw + 8


def _paint_row(image: Image.Image, draw: ImageDraw.ImageDraw, look: _StripLook) -> None:
    """A strip's clan row, on as many lines as it needs."""
    elements = row_elements(look.row)
    states = row_junctions(look.row)
    junction_names = [junction for junction, _ in junctions(look.row)]
    lines = row_lines(look.row)
    for n, line in enumerate(lines):
        width = sum(_element_w(elements[k]) + JUNCTION_W for k in line) - JUNCTION_W
        if n < len(lines) - 1:
            width += JUNCTION_W
        if n:
            width += JUNCTION_W
        x = STRIP_X0 + 12 + (STRIP_ROOM - width) / 2 if len(lines) == 1 else STRIP_X0 + 12
        if n:
            x += JUNCTION_W
        y = look.top + STRIP_HEAD + n * STRIP_LINE
        for k in line:
            element = elements[k]
            w = _element_w(element)
            box = (x, y, x + w, y + MINI_H)
            if element:
                _draw_mini_card(image, draw, box, element)
                if element in look.placed:
                    _frame(draw, (x - 5, y - 5, x + w + 5, y + MINI_H + 5), outer=6, inner=3)
            else:
                _draw_mini_sheet(image, draw, box, look.seat)
            x += w
            if k < len(states):
                centre = (x + JUNCTION_W / 2, y + MINI_H / 2)
                if junction_names[k] in look.filled:
                    _ring(draw, centre, 13, HIGHLIGHT)
                elif junction_names[k] in look.locked:
                    _ring(draw, centre, 13, STRIKE)
                _draw_junction(draw, centre, states[k], 10)
                x += JUNCTION_W


# --------------------------------------------------------------------------- the panel


# The score panel as drawn, by what it shows: the boards of one state (the
# spectator's, each seat's) draw the same panel. 1.8 MB.
def _draw_score_panel(image: Image.Image, panel: Panel, lang: str, top: int) -> None:
    image.paste(BACKDROP, (0, top, image.width, image.height))
    draw_panel_cached(image, panel, lang, top=top)


def status_words(view: SahwariView, lang: str) -> tuple[str, str]:
    """The panel's status line and its note (what the acting seat is asked)."""
    if view.over:
        status = catalogue.text(lang, "common.game_over")
        if not view.winners:
            status += f" · {_word(lang, 'nobody')}"
        return status, ""
    status = _word(lang, "status.round", {"round": view.round})
    if view.trigger:
        status += f" · {_word(lang, 'status.last')}"
    note = _word(lang, f"prompt.{view.prompt}") if view.prompt else ""
    return status, note


def score_panel(
    view: SahwariView,
    names: Sequence[str],
    lang: str,
    tags: Sequence[str | None] | None = None,
) -> Panel:
    """Per seat: leader, storage and track (count and value), locks, attack
    tokens, cards; once over, the E4 score lines and the total."""
    rows: list[Row] = []
    if view.scores is not None:
        keys = [key for key, _ in view.scores[0]] if view.scores else []
        columns = [Column(_word(lang, f"score.{key}")) for key in keys]
        columns.append(Column(catalogue.text(lang, "common.total"), width=90, space_before=8))
        for seat, lines in enumerate(view.scores):
            total = sum(points for _, points in lines)
            cells: list[Cell] = [Cell(amount(points)) for _, points in lines]
            cells.append(Cell(amount(total), strong=True))
            rows.append(_row(seat, cells, names, tags))
        name_width = 250
    else:
        columns = [
            Column(_word(lang, "col.leader"), width=190),
            Column(_word(lang, "col.storage")),
            Column(_word(lang, "col.track")),
            Column(_word(lang, "col.locks")),
            Column(_word(lang, "col.attacks")),
            Column(_word(lang, "col.cards")),
        ]
        for seat, c in enumerate(view.clans):
            locks = " ".join(str(s) for s in sorted(c.locked)) or "–"
            cells = [
                Cell(leader_name(c.leader, lang)),
                Cell(f"{c.storage} → {storage_value(c.storage)}"),
                Cell(f"{c.track} → {track_value(c.track)}", warning=c.track >= TRACK_SPACES),
                Cell(locks),
                Cell(str(c.attack_tokens)),
                Cell(str(len(c.row.cards))),
            ]
            rows.append(_row(seat, cells, names, tags))
        name_width = 260
    status, note = status_words(view, lang)
    acting = () if view.over or view.prompt_seat is None else (view.prompt_seat,)
    return Panel(
        status=status,
        columns=tuple(columns),
        rows=tuple(rows),
        acting=acting,
        winners=view.winners,
        note=note,
        name_width=name_width,
    )


def _row(
    seat: Seat, cells: list[Cell], names: Sequence[str], tags: Sequence[str | None] | None
) -> Row:
    return Row(
        tuple(cells),
        seat=seat,
        name=names[seat] if seat < len(names) else "",
        tag=tags[seat] if tags is not None and seat < len(tags) else None,
    )


# --------------------------------------------------------------------------- the hand

HAND_CARD_W, HAND_CARD_H = 138, 128
HAND_ICON = 26  # px: a pictogram on a card of the hand
# The hand's legend: two columns, the kinds, then influence and clan abilities.
HAND_LEGEND: tuple[tuple[str, ...], ...] = (
    ("CARD", "REFRESH"),
    ("SPY", "CHEST"),
    ("BIRD", "BOWL"),
    ("TORNADO", "ATTACK"),
    (INFLUENCE, CLAN),
)
HAND_LEGEND_LINE = 30
HAND_GAP = 44  # room for a junction between two cards
# As many cards as fit between the margins, a junction gap before each.
HAND_PER_LINE = (HAND_WIDTH - 64) // (HAND_CARD_W + HAND_GAP)


def render_sahwari_hand_image(
    view: SahwariView, names: Sequence[str], lang: str = "en"
) -> Image.Image | None:
    """The hand as a Pillow RGB image (for tests and tools); None for a spectator."""
    seat = view.viewer
    if seat is None or seat >= len(view.clans):
        return None
    width = HAND_WIDTH
    status_size = legible_size("status", width, 26)
    name_size = legible_size("name", width, 24)
    score_size = legible_size("score", width, 22)
    title_size = legible_size("title", width, 20)
    value_size = legible_size("value", width, 18)
    c: ClanView = view.clans[seat]
    elements = row_elements(c.row)
    states = row_junctions(c.row)
    lines = math.ceil(len(elements) / HAND_PER_LINE)
    faces = private_faces(view)
    # the lines below, top to bottom: title, note, row title, the row, three
    # lines of tracks and convoys, the faces' title, the faces, the legend
    height = 50 + 34 + 40 + 34 + lines * (HAND_CARD_H + 56) + 10 + 3 * 40 + 10 + 36
    height += 44 * max(1, len(faces)) + 10 + HAND_LEGEND_LINE * len(HAND_LEGEND) + 32
    image = Image.new("RGB", (width, height), BACKDROP)
    draw = ImageDraw.Draw(image)  # opaque colours only: blending is slower
    draw.rounded_rectangle(
        (12, 12, width - 12, height - 12), radius=12, fill=PANEL_CARD, outline=GOLD, width=3
    )
    shown = display_names(names, view.players, lang)
    y = 50
    draw_player_marker(draw, seat, (44, y), 16)
    title = f"{_word(lang, 'hand.title')} · {leader_name(c.leader, lang)}"
    draw_text_on(
        image,
        (72, y),
        fit_text(shown[seat], name_size, 300, bold=True),
        name_size,
        PAPER,
        anchor="lm",
        bold=True,
        role="name",
    )
    draw_text_on(
        image,
        (width - 32, y),
        fit_text(title, status_size, 560, bold=True),
        status_size,
        GOLD,
        anchor="rm",
        bold=True,
        role="status",
    )
    y += 34
    draw_text_on(image, (32, y), _word(lang, "hand.private"), title_size, MUTED, role="title")
    y += 40
    draw_text_on(
        image, (32, y), _word(lang, "hand.row"), title_size, MUTED, bold=True, role="title"
    )
    y += 34
    junction_names = [name for name, _ in junctions(c.row)]
    for k, element in enumerate(elements):
        line, col = divmod(k, HAND_PER_LINE)
        x = 32 + HAND_GAP + col * (HAND_CARD_W + HAND_GAP)
        top = y + line * (HAND_CARD_H + 56)
        box = (x, top, x + HAND_CARD_W, top + HAND_CARD_H)
        if element:
            draw_card(
                image, draw, box, CONTENT.card(element), lang, size=value_size, icon=HAND_ICON
            )
        else:
            _draw_sheet(image, draw, box, seat, value_size)
        if k > 0:  # the junction on this element's left
            state = states[k - 1]
            centre = (x - HAND_GAP / 2, top + HAND_CARD_H / 2)
            _draw_junction(draw, centre, state, 13)
            draw_text_on(
                image,
                (centre[0], top + HAND_CARD_H + 14),
                junction_names[k - 1],
                value_size,
                MUTED,
                anchor="mm",
                bold=True,
                role="value",
            )
            if state != DEAD:
                value = slot_influence(c.row, junction_names[k - 1])
                draw_text_on(
                    image,
                    (centre[0], top + HAND_CARD_H + 36),
                    signed(value),
                    value_size,
                    GOLD,
                    anchor="mm",
                    bold=True,
                    role="value",
                )
    if not c.row.cards:
        draw_text_on(
            image,
            (32 + 2 * HAND_GAP + HAND_CARD_W, y + HAND_CARD_H / 2),
            _word(lang, "hand.no_cards"),
            score_size,
            PAPER,
            anchor="lm",
            role="score",
        )
    y += lines * (HAND_CARD_H + 56) + 10
    locked = " ".join(str(s) for s in sorted(c.locked)) or "–"
    texts = (
        _word(
            lang,
            "hand.storage",
            {"count": c.storage, "value": storage_value(c.storage), "locked": locked},
        ),
        _word(
            lang,
            "hand.track",
            {"count": c.track, "value": track_value(c.track), "attacks": c.attack_tokens},
        ),
        _word(lang, "hand.convoys", {"handles": _convoys_text(view, c) or "–"}),
    )
    for text in texts:
        _hand_line(image, (32, y + 16), text, score_size, width - 64)
        y += 40
    y += 10
    draw_text_on(
        image, (32, y), _word(lang, "hand.faces"), title_size, GOLD, bold=True, role="title"
    )
    y += 36
    if not faces:
        _hand_line(image, (32, y + 8), _word(lang, "hand.none"), score_size, width - 64)
        y += 44
    for handle, token_id, owned in faces:
        token = CONTENT.token(token_id)
        chip = (32, y - 8, 32 + 64, y + 26)
        draw.rounded_rectangle(chip, radius=7, fill=BLUE, outline=PAPER, width=2)
        draw_text_on(
            image, (64, y + 9), handle, value_size, PAPER, anchor="mm", bold=True, role="value"
        )
        icons = ", ".join(_icon_word(icon, lang) for icon in token.icons)
        why = _word(lang, "hand.own" if owned else "hand.spied")
        text = f"{token_id} · {icons} · {why}"
        _hand_line(image, (110, y + 9), text, score_size, width - 150)
        y += 44
    y += 10
    draw_legend(
        image,
        draw,
        (32, y),
        width - 64,
        HAND_LEGEND,
        lang,
        line=HAND_LEGEND_LINE,
        icon=24,
        colour=MUTED,
    )
    return image


def _icon_word(icon: str, lang: str) -> str:
    inf = influence(icon)
    return signed(inf) if inf is not None else _word(lang, f"kind.{icon}")


def _convoys_text(view: SahwariView, c: ClanView) -> str:
    """The viewer's convoys: handles, with the faces it may see."""
    faces = dict(view.faces)
    parts = []
    for handle in c.convoys:
        face = faces.get(handle)
        parts.append(handle if face is None or face == handle else f"{handle}={face}")
    return " ".join(parts)


def _draw_sheet(
    image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, seat: Seat, size: int
) -> None:
    """The clan sheet: its two openings (colours, half-slot ability and value)."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill=PAPER, outline=INK, width=2)
    sheet = CONTENT.clan_sheet
    for opening, ex, side in ((sheet.left, x0 + 6, 1), (sheet.right, x1 - 6, -1)):
        for k, colour in enumerate(opening.colours):
            bx = ex + k * 20 if side > 0 else ex - (k + 1) * 20
            draw.rectangle((bx, y0 + 6, bx + 18, y0 + 30), fill=BAND[colour])
        cx = ex + side * HAND_ICON / 2
        _half_slot(
            image,
            draw,
            (cx, y0 + 36 + HAND_ICON / 2),
            opening.ability,
            opening.value,
            size,
            HAND_ICON,
        )
    draw_player_marker(draw, seat, ((x0 + x1) / 2, y1 - 26), 16, edge=INK)


# --------------------------------------------------------------------------- the platform's entry


class SahwariPicture:
    """What the platform draws with (``SPEC.picture``), in a worker process."""

    def board(
        self, view: SahwariView, names: Sequence[str], lang: str, tags: Sequence[str | None] = ()
    ) -> bytes:
        return render_sahwari(view, names, lang, tags or None)

    def hand(self, view: SahwariView, names: Sequence[str], lang: str) -> bytes | None:
        return render_sahwari_hand(view, names, lang)

    def seat_colour(self, seat: int) -> RGB:
        return player_style(seat).colour
