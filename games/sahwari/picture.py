"""Board and hand images of Sahwari, drawn from a :class:`SahwariView`.

Layout of the board image, 1200 px wide: the 5 x 5 map on the left (column
letters A-E above and below, row numbers 1-5 left and right, A1 top left),
then on the right the Guild's 3 recruit and 3 artefact spaces, the supplies,
the deck and discard, and the recruitment row (4 cards drawn in full: both
colour bands with their letters, both edge abilities and values, the clan
ability and the printed influence). Under them one compact strip per clan
(its cards in reading order with every junction's state, its convoys by
handle), then the shared score panel (:mod:`render.panel`): leader, storage
and track with their current value, locks, attack tokens and cards; once
over, the score lines of E4 and the total, with the winners (or nobody).

Tiles: face-up resource tiles in sand, deserts in a duller dune with ridges,
oases in green with a pool, the Guild in terracotta. Items: artefact cubes
as black squares, recruit pawns as white pawns, yellow tokens as yellow
chips with their id and icons, blue tokens as blue chips with their handle.
Player camels are their seat's shape, colour and number; guild camels are
grey hexagons marked G1 / G2. The grid, the oases, the Guild and the
coordinates never change: they form a static layer, cached.

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
from functools import lru_cache

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
from games.sahwari.table import FACE_UP, GUILD_SPACES
from games.sahwari.views import ClanView, SahwariView
from games.text import Params
from render.grids import SquareGrid, draw_grid_labels
from render.palette import BACKDROP, GOLD, INK, MUTED, PAPER, RGB, mix, player_style
from render.panel import CARD as PANEL_CARD
from render.panel import CARD_EDGE, Cell, Column, Panel, Row, draw_panel, panel_height
from render.png import png_bytes
from render.shapes import Box, Point, draw_player_marker, regular_polygon
from render.text import (
    display_names,
    draw_text,
    drawing_cache,
    fit_text,
    legible_size,
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
STRIP_H = 118  # a clan strip
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
BAND: dict[str, RGB] = {
    "R": (206, 58, 48),
    "G": (52, 146, 72),
    "P": (128, 78, 172),
    "O": (236, 146, 36),
}
MINUS = "\u2212"


def signed(value: int) -> str:
    """An influence as printed: "+3", "−2", "0"."""
    return f"+{value}" if value > 0 else f"{MINUS}{-value}" if value < 0 else "0"


def amount(value: int) -> str:
    return f"{MINUS}{-value}" if value < 0 else str(value)


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


def icon_label(icon: str, lang: str) -> tuple[str, RGB]:
    """A token icon as drawn on a chip: "+3" (blue) / "−2" (red), or the kind's
    abbreviation."""
    inf = influence(icon)
    if inf is not None:
        return signed(inf), GOOD if inf > 0 else BAD
    return _word(lang, f"abbr.{icon}"), INK


# --------------------------------------------------------------------------- public API


def render_sahwari(
    view: SahwariView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> bytes:
    """PNG bytes of the map, the Guild, the recruitment row, the clans and the
    score panel as ``view`` shows them. ``names[i]`` is seat i's display name;
    ``tags[i]`` badges seat i's row ("bot", "resigned" or None)."""
    return png_bytes(render_sahwari_image(view, names, lang, tags))


def render_sahwari_image(
    view: SahwariView,
    names: Sequence[str],
    lang: str = "en",
    tags: Sequence[str | None] | None = None,
) -> Image.Image:
    """The same picture as a Pillow RGB image (for tests and tools)."""
    panel = score_panel(view, names, lang, tags)
    strips_top = MAP_BOTTOM + 8
    panel_top = strips_top + STRIP_H * view.players + 6
    height = panel_top + panel_height(panel, WIDTH)
    image = Image.new("RGB", (WIDTH, height), BACKDROP)
    image.paste(_map_layer(), (0, 0))
    draw = ImageDraw.Draw(image, "RGBA")
    for tile in board.RESOURCE_TILES:
        _draw_resource_tile(draw, tile, view.sides[tile])
    for tile in board.TILES:
        _draw_items(draw, view, tile, lang)
    _draw_camels(draw, view)
    _draw_side(draw, view, lang)
    shown = display_names(names, view.players, lang)
    for seat in range(view.players):
        _draw_strip(draw, view, seat, shown[seat], lang, strips_top + seat * STRIP_H)
    draw_panel(image, panel, lang, top=panel_top)
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

CHIP_W, CHIP_H = 62, 66
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
    draw: ImageDraw.ImageDraw, box: Box, handle: str, face: str | None, lang: str
) -> None:
    """A convoy token: yellow with its id and icons, blue face down with its
    handle, or a revealed blue token with handle, id and icons."""
    x0, y0, x1, y1 = box
    cx = (x0 + x1) / 2
    if face is None:
        draw.rounded_rectangle(box, radius=9, fill=BLUE, outline=PAPER, width=2)
        draw_text(
            draw,
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
    label = face if face == handle else f"{handle}"
    draw_text(draw, (cx, y0 + 12), label, VALUE_SIZE, INK, anchor="mm", bold=True, role="value")
    for i, icon in enumerate(token.icons):
        text, colour = icon_label(icon, lang)
        y = y0 + 32 + i * 20
        draw_text(draw, (cx, y), text, VALUE_SIZE, colour, anchor="mm", bold=True, role="value")
    if face != handle:  # a revealed blue token: its id under the handle
        draw.line((x0 + 6, y1 - 3, x1 - 6, y1 - 3), fill=BLUE, width=3)


def _draw_items(draw: ImageDraw.ImageDraw, view: SahwariView, tile: int, lang: str) -> None:
    x0, y0, x1, y1 = tile_box(tile)
    label = board.name(tile)
    if tile == board.GUILD:
        label = f"{label} · {_word(lang, 'guild')}"
    draw_text(
        draw,
        (x0 + 7, y0 + 5),
        label,
        SPACE_SIZE,
        INK,
        anchor="la",
        bold=True,
        role="space",
        outline=mix(PAPER, SAND, 0.5),
        outline_width=2,
    )
    items = view.items[tile]
    small = [i for i in items if i in ("A", "R")]
    chips = [i for i in items if i not in ("A", "R")]
    x = x0 + 8
    for item in small:
        (_draw_cube if item == "A" else _draw_pawn)(draw, x, y0 + 36, ITEM)
        x += ITEM + 6
    n = len(chips)
    if not n:
        return
    gap = (CELL - n * CHIP_W) / (n + 1)
    for k, handle in enumerate(chips):
        cx0 = x0 + gap + k * (CHIP_W + gap)
        box = (cx0, y1 - CHIP_H - 6, cx0 + CHIP_W, y1 - 6)
        _draw_chip(draw, box, handle, board_face(view, handle), lang)


CAMEL_R = 15.0


def _draw_camel(draw: ImageDraw.ImageDraw, camel: str, centre: Point) -> None:
    if board.is_guild_camel(camel):
        hexagon = regular_polygon(centre, CAMEL_R + 5, 6, rotation=30)
        draw.polygon(hexagon, fill=GUILD_CAMEL, outline=PAPER, width=2)
        draw_text(draw, centre, camel, VALUE_SIZE, PAPER, anchor="mm", bold=True, role="value")
        return
    seat = int(camel[1:]) - 1
    style = player_style(seat)
    draw_player_marker(draw, seat, centre, CAMEL_R + 3, edge=INK)
    ink = INK if sum(style.colour) > 420 else PAPER
    y = centre[1] + (3 if style.shape == "triangle" else 0)
    draw_text(
        draw, (centre[0], y), style.letter, VALUE_SIZE, ink, anchor="mm", bold=True, role="value"
    )


def _draw_camels(draw: ImageDraw.ImageDraw, view: SahwariView) -> None:
    by_tile: dict[int, list[str]] = {}
    for camel, tile in view.camels:
        by_tile.setdefault(tile, []).append(camel)
    for tile, camels in by_tile.items():
        x0, y0, x1, y1 = tile_box(tile)
        if board.is_common(tile):  # several camels: a grid in the tile's body
            for k, camel in enumerate(camels):
                row, col = divmod(k, 3)
                centre = (x0 + 28 + col * 42, y0 + 50 + row * 44)
                _draw_camel(draw, camel, centre)
        else:
            for k, camel in enumerate(camels):
                _draw_camel(draw, camel, (x1 - 24, y0 + 24 + k * 40))
        if tile == view.arrival and not view.over:
            draw.rectangle((x0 + 3, y0 + 3, x1 - 3, y1 - 3), outline=GOLD, width=4)


# --------------------------------------------------------------------------- right column

ROW_CARD_W, ROW_CARD_H = 198, 128


def _draw_side(draw: ImageDraw.ImageDraw, view: SahwariView, lang: str) -> None:
    x, y = SIDE_X, MAP_Y - 30
    right = SIDE_X + SIDE_W
    # the Guild's spaces
    draw.rounded_rectangle((x, y, right, y + 108), radius=10, fill=PANEL_CARD, outline=CARD_EDGE)
    draw_text(
        draw, (x + 12, y + 8), _word(lang, "guild"), TITLE_SIZE, MUTED, bold=True, role="title"
    )
    for k, (key, count, paint) in enumerate(
        (
            ("guild.pawns", view.guild_pawns, _draw_pawn),
            ("guild.cubes", view.guild_cubes, _draw_cube),
        )
    ):
        yy = y + 38 + k * 34
        label = fit_text(_word(lang, key), TITLE_SIZE, 160)
        draw_text(draw, (x + 12, yy + 13), label, TITLE_SIZE, PAPER, anchor="lm", role="title")
        for s in range(GUILD_SPACES):
            bx = x + 190 + s * 36
            draw.rectangle((bx, yy, bx + 28, yy + 26), outline=MUTED, width=2)
            if s < count:
                paint(draw, bx + 5, yy + 4, 18)
        draw_text(
            draw,
            (right - 12, yy + 13),
            f"{count}/{GUILD_SPACES}",
            VALUE_SIZE,
            MUTED,
            anchor="rm",
            role="value",
        )
    y += 118
    # supplies
    draw.rounded_rectangle((x, y, right, y + 76), radius=10, fill=PANEL_CARD, outline=CARD_EDGE)
    draw_text(
        draw, (x + 12, y + 8), _word(lang, "supply"), TITLE_SIZE, MUTED, bold=True, role="title"
    )
    sx: float = x + 12
    yy = y + 50
    _draw_cube(draw, sx, yy - 10, 20)
    sx += 26 + draw_text(
        draw, (sx + 28, yy), str(view.cubes), SCORE_SIZE, PAPER, anchor="lm", role="score"
    )
    sx += 28
    _draw_pawn(draw, sx, yy - 11, 22)
    sx += 30 + draw_text(
        draw, (sx + 30, yy), str(view.pawns), SCORE_SIZE, PAPER, anchor="lm", role="score"
    )
    sx += 30
    _draw_attack_token(draw, (sx + 11, yy))
    draw_text(
        draw, (sx + 28, yy), str(view.attack_tokens), SCORE_SIZE, PAPER, anchor="lm", role="score"
    )
    deck = _word(lang, "deck", {"count": view.deck})
    discard = _word(lang, "discard", {"count": len(view.discard)})
    draw_text(
        draw,
        (right - 12, y + 8),
        f"{deck} · {discard}",
        TITLE_SIZE,
        PAPER,
        anchor="ra",
        role="title",
    )
    y += 86
    # the recruitment row
    draw_text(draw, (x, y), _word(lang, "row"), TITLE_SIZE, MUTED, bold=True, role="title")
    y += 30
    for pos in range(4):
        row, col = divmod(pos, 2)
        cx0 = x + col * (ROW_CARD_W + (SIDE_W - 2 * ROW_CARD_W))
        cy0 = y + row * (ROW_CARD_H + 30)
        draw_text(
            draw,
            (cx0 + 4, cy0 + 2),
            str(pos + 1),
            VALUE_SIZE,
            GOLD,
            anchor="la",
            bold=True,
            role="value",
        )
        card = view.row[pos] if pos < len(view.row) else ""
        box = (cx0, cy0 + 26, cx0 + ROW_CARD_W, cy0 + 26 + ROW_CARD_H)
        if card:
            draw_card(draw, box, CONTENT.card(card), lang)
        else:
            draw.rounded_rectangle(box, radius=8, outline=MUTED, width=2)
    y += 2 * (ROW_CARD_H + 30) + 8
    if view.removed:
        text = _word(lang, "removed", {"handles": " ".join(view.removed)})
        draw_text(draw, (x, y), fit_text(text, TITLE_SIZE, SIDE_W), TITLE_SIZE, PAPER, role="title")


def _draw_attack_token(draw: ImageDraw.ImageDraw, centre: Point, r: float = 11) -> None:
    """An attack token: a red disc with crossed blades."""
    cx, cy = centre
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=PADLOCK_FILL, outline=PAPER, width=2)
    d = r * 0.55
    draw.line((cx - d, cy - d, cx + d, cy + d), fill=PAPER, width=3)
    draw.line((cx - d, cy + d, cx + d, cy - d), fill=PAPER, width=3)


def _influence_disc(draw: ImageDraw.ImageDraw, centre: Point, value: int, size: int) -> None:
    r = size * 0.68
    cx, cy = centre
    fill = GOOD if value > 0 else BAD if value < 0 else MUTED
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=INK, width=2)
    draw_text(draw, centre, signed(value), size, PAPER, anchor="mm", bold=True, role="value")


def _hand_line(
    draw: ImageDraw.ImageDraw, at: tuple[float, float], text: str, size: int, room: float
) -> None:
    """One line of the hand image's text, shrunk to fit ``room`` px."""
    draw_text(draw, at, fit_text(text, size, room), size, PAPER, anchor="lm", role="score")


def _half_slot(
    draw: ImageDraw.ImageDraw,
    at: tuple[float, float],
    word: str,
    value: int,
    size: int,
    anchor: str,
    gap: int,
) -> None:
    """A half-slot (rule K2): its ability's abbreviation, and its value ``gap`` px below."""
    x, y = at
    draw_text(draw, (x, y), word, size, INK, anchor=anchor + "m", bold=True, role="value")
    draw_text(
        draw, (x, y + gap), str(value), size, GOOD, anchor=anchor + "m", bold=True, role="value"
    )


def draw_card(
    draw: ImageDraw.ImageDraw, box: Box, card: Card, lang: str, *, size: int = VALUE_SIZE
) -> None:
    """A recruit card in full: its id, printed influence, both colour bands (with
    their letter), both edge abilities and values, and its clan ability."""
    x0, y0, x1, y1 = box
    band = max(22, size + 2)
    draw.rounded_rectangle(box, radius=8, fill=CARD_FACE, outline=INK, width=2)
    for edge, bx0 in ((card.left, x0), (card.right, x1 - band)):
        draw.rectangle((bx0 + 2, y0 + 2, bx0 + band - 2, y1 - 2), fill=BAND[edge.colour])
        draw_text(
            draw,
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
    inner_w = (x1 - x0 - 2 * band) / 2 - 4
    for edge, ex, anchor in ((card.left, x0 + band + 4, "l"), (card.right, x1 - band - 4, "r")):
        word = fit_text(_word(lang, f"abbr.{edge.ability}"), size, inner_w, bold=True)
        _half_slot(draw, (ex, y0 + 40), word, edge.value, size, anchor, 26)
    cx = (x0 + x1) / 2
    draw_text(draw, (cx, y0 + 14), card.id, size, CARD_ID, anchor="mm", bold=True, role="value")
    _influence_disc(draw, (cx, y0 + 66), card.influence, size)
    if card.clan:
        clan = fit_text(
            _word(lang, f"leader.{card.clan.lower()}"), size, x1 - x0 - 2 * band - 6, bold=True
        )
        pill_w = text_width(clan, size, bold=True) + 12
        draw.rounded_rectangle(
            (cx - pill_w / 2, y1 - size - 14, cx + pill_w / 2, y1 - 6), radius=6, fill=GOLD
        )
        draw_text(
            draw, (cx, y1 - 10 - size / 2), clan, size, INK, anchor="mm", bold=True, role="value"
        )


# --------------------------------------------------------------------------- clan strips

MINI_W, MINI_H = 58, 56
JUNCTION_W = 30


def row_elements(row: ClanRow) -> list[str]:
    """The clan row in reading order: card ids with "" for the clan sheet."""
    return [*reversed(row.left), "", *row.right]


def row_junctions(row: ClanRow) -> list[str]:
    """Junction states between consecutive :func:`row_elements`."""
    return [state for _, state in junctions(row)]


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


def _draw_mini_card(draw: ImageDraw.ImageDraw, box: Box, card_id: str, seat: Seat) -> None:
    """A card of a clan strip: its two colour bands (with letters) and its id;
    the clan sheet ("") as the seat's marker."""
    x0, y0, x1, y1 = box
    if not card_id:
        draw.rounded_rectangle(box, radius=6, fill=PAPER, outline=INK, width=2)
        draw_player_marker(draw, seat, ((x0 + x1) / 2, (y0 + y1) / 2), 14, edge=INK)
        return
    card = CONTENT.card(card_id)
    mid = (x0 + x1) / 2
    draw.rectangle((x0, y0, mid, y1), fill=BAND[card.left.colour])
    draw.rectangle((mid, y0, x1, y1), fill=BAND[card.right.colour])
    draw.rectangle(box, outline=INK, width=2)
    draw_text(
        draw,
        (mid, y0 + 15),
        card_id,
        VALUE_SIZE,
        PAPER,
        anchor="mm",
        bold=True,
        role="value",
        outline=INK,
        outline_width=2,
    )
    for colour, x in ((card.left.colour, x0 + 12), (card.right.colour, x1 - 12)):
        draw_text(
            draw,
            (x, y1 - 14),
            colour,
            VALUE_SIZE,
            PAPER,
            anchor="mm",
            bold=True,
            role="value",
            outline=INK,
            outline_width=2,
        )


def _draw_strip(
    draw: ImageDraw.ImageDraw, view: SahwariView, seat: Seat, name: str, lang: str, top: int
) -> None:
    c = view.clans[seat]
    x0, x1 = 20, WIDTH - 20
    active = not view.over and seat in (view.prompt_seat, view.active)
    draw.rounded_rectangle(
        (x0, top, x1, top + STRIP_H - 8),
        radius=10,
        fill=PANEL_CARD,
        outline=GOLD if active else CARD_EDGE,
        width=3 if active else 2,
    )
    draw_player_marker(draw, seat, (x0 + 24, top + 22), 12)
    leader = leader_name(c.leader, lang)
    who = fit_text(name, NAME_SIZE, 300, bold=True)
    w = draw_text(
        draw, (x0 + 44, top + 22), who, NAME_SIZE, PAPER, anchor="lm", bold=True, role="name"
    )
    draw_text(draw, (x0 + 56 + w, top + 22), leader, TITLE_SIZE, MUTED, anchor="lm", role="title")
    # convoys on the right, by handle (a used one face up)
    x: float = x1 - 10
    for handle in reversed(c.convoys):
        face = board_face(view, handle)
        used = handle in c.used
        label = handle if face is None or face == handle else f"{handle}={face}"
        tw = text_width(label, VALUE_SIZE, bold=True) + 14
        box = (x - tw, top + 8, x, top + 36)
        fill = YELLOW if not is_blue(handle) else BLUE if face is None else mix(BLUE, PAPER, 0.7)
        draw.rounded_rectangle(box, radius=7, fill=fill, outline=MUTED if used else PAPER, width=2)
        ink = PAPER if fill == BLUE else INK
        draw_text(
            draw,
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
        x -= tw + 6
    # the row
    elements = row_elements(c.row)
    states = row_junctions(c.row)
    room = x1 - x0 - 24
    step = MINI_W + JUNCTION_W
    scale = min(1.0, room / (len(elements) * step - JUNCTION_W))
    w_card, w_gap = MINI_W * scale, JUNCTION_W * scale
    x = x0 + 12 + (room - (len(elements) * (w_card + w_gap) - w_gap)) / 2
    y = top + 44
    for k, element in enumerate(elements):
        _draw_mini_card(draw, (x, y, x + w_card, y + MINI_H), element, seat)
        x += w_card
        if k < len(states):
            _draw_junction(draw, (x + w_gap / 2, y + MINI_H / 2), states[k], min(11, w_gap / 2.4))
            x += w_gap


# --------------------------------------------------------------------------- the panel


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
    height = 24 + 60 + 40 + lines * (HAND_CARD_H + 56) + 3 * 40 + 50
    height += 44 * max(1, len(faces)) + 50 + 40
    image = Image.new("RGB", (width, height), BACKDROP)
    draw = ImageDraw.Draw(image, "RGBA")
    draw.rounded_rectangle(
        (12, 12, width - 12, height - 12), radius=12, fill=PANEL_CARD, outline=GOLD, width=3
    )
    shown = display_names(names, view.players, lang)
    y = 50
    draw_player_marker(draw, seat, (44, y), 16)
    title = f"{_word(lang, 'hand.title')} · {leader_name(c.leader, lang)}"
    draw_text(
        draw,
        (72, y),
        fit_text(shown[seat], name_size, 300, bold=True),
        name_size,
        PAPER,
        anchor="lm",
        bold=True,
        role="name",
    )
    draw_text(
        draw,
        (width - 32, y),
        fit_text(title, status_size, 560, bold=True),
        status_size,
        GOLD,
        anchor="rm",
        bold=True,
        role="status",
    )
    y += 34
    draw_text(draw, (32, y), _word(lang, "hand.private"), title_size, MUTED, role="title")
    y += 40
    draw_text(draw, (32, y), _word(lang, "hand.row"), title_size, MUTED, bold=True, role="title")
    y += 34
    junction_names = [name for name, _ in junctions(c.row)]
    for k, element in enumerate(elements):
        line, col = divmod(k, HAND_PER_LINE)
        x = 32 + HAND_GAP + col * (HAND_CARD_W + HAND_GAP)
        top = y + line * (HAND_CARD_H + 56)
        box = (x, top, x + HAND_CARD_W, top + HAND_CARD_H)
        if element:
            draw_card(draw, box, CONTENT.card(element), lang, size=value_size)
        else:
            _draw_sheet(draw, box, seat, lang, value_size)
        if k > 0:  # the junction on this element's left
            state = states[k - 1]
            centre = (x - HAND_GAP / 2, top + HAND_CARD_H / 2)
            _draw_junction(draw, centre, state, 13)
            draw_text(
                draw,
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
                draw_text(
                    draw,
                    (centre[0], top + HAND_CARD_H + 36),
                    signed(value),
                    value_size,
                    GOLD,
                    anchor="mm",
                    bold=True,
                    role="value",
                )
    if not c.row.cards:
        draw_text(
            draw,
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
        _hand_line(draw, (32, y + 16), text, score_size, width - 64)
        y += 40
    y += 10
    draw_text(draw, (32, y), _word(lang, "hand.faces"), title_size, GOLD, bold=True, role="title")
    y += 36
    if not faces:
        _hand_line(draw, (32, y + 8), _word(lang, "hand.none"), score_size, width - 64)
        y += 44
    for handle, token_id, owned in faces:
        token = CONTENT.token(token_id)
        chip = (32, y - 8, 32 + 64, y + 26)
        draw.rounded_rectangle(chip, radius=7, fill=BLUE, outline=PAPER, width=2)
        draw_text(
            draw, (64, y + 9), handle, value_size, PAPER, anchor="mm", bold=True, role="value"
        )
        icons = ", ".join(_icon_word(icon, lang) for icon in token.icons)
        why = _word(lang, "hand.own" if owned else "hand.spied")
        text = f"{token_id} · {icons} · {why}"
        _hand_line(draw, (110, y + 9), text, score_size, width - 150)
        y += 44
    y += 6
    legend = " · ".join(
        f"{_word(lang, f'abbr.{kind}')} {_word(lang, f'kind.{kind}')}"
        for kind in ("CARD", "REFRESH", "SPY", "CHEST", "BIRD", "BOWL", "TORNADO", "ATTACK")
    )
    legend = f"{_word(lang, 'hand.legend')}: {legend}"
    draw_text(
        draw,
        (32, y + 8),
        fit_text(legend, title_size, width - 64),
        title_size,
        MUTED,
        anchor="lm",
        role="title",
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


def _draw_sheet(draw: ImageDraw.ImageDraw, box: Box, seat: Seat, lang: str, size: int) -> None:
    """The clan sheet: its two openings (colours, half-slot ability and value)."""
    x0, y0, x1, y1 = box
    draw.rounded_rectangle(box, radius=8, fill=PAPER, outline=INK, width=2)
    sheet = CONTENT.clan_sheet
    for opening, ex, anchor in ((sheet.left, x0 + 6, "l"), (sheet.right, x1 - 6, "r")):
        for k, colour in enumerate(opening.colours):
            bx = ex + (k * 20 if anchor == "l" else -(k + 1) * 20)
            draw.rectangle((bx, y0 + 6, bx + 18, y0 + 30), fill=BAND[colour])
        word = _word(lang, f"abbr.{opening.ability}")
        _half_slot(draw, (ex, y0 + 50), word, opening.value, size, anchor, 24)
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
