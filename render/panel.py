"""The score and turn panel drawn under every game's board.

One look for all games: a status line (the phase on the left; on the right
who acts now, with an arrow, or the winners, with a crown), a header row of
column titles, then one row per player: the seat's marker (colour, shape,
number), the name (cut with an ellipsis when long; bold and framed in gold
while that player acts or once they won), a badge when an AI plays the seat
or its player resigned (``Row.tag``), and the game's own cells. Rows
without a seat carry shared information (a supply, a market…).

Sizes: every px value here (the layout constants, ``Panel.name_width``,
``Column.width``…) is for a panel :data:`DESIGN_WIDTH` px wide, and scales
with the real width, so the panel looks the same at any width and its texts
stay legible once a phone shows the image :data:`render.text.PHONE_WIDTH` px
wide (see :func:`panel_metrics`). Pass the same width to
:func:`panel_height` and :func:`draw_panel` (the image's).

Everything shown comes from the caller, except the shared words
``common.to_play``, ``common.winner``, ``common.won``, ``common.player``,
``common.bot`` and ``common.resigned``.

Example::

    panel = Panel(
        status="Round 3",
        acting=(1,),
        columns=(Column("Gold"), Column("Total", width=90)),
        rows=(
            Row(("4", Cell("12", strong=True)), seat=0, name="Alice"),
            Row(("7", Cell("15", strong=True)), seat=1, name="Bob", tag="bot"),
        ),
    )
    image = render_panel(panel, 1000, "en")  # or draw_panel(board, panel, "en", top=y)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from games import catalogue
from render.palette import BACKDROP, GOLD, MUTED, PAPER, RGB, WARN, player_style
from render.shapes import (
    Box,
    Point,
    draw_arrow,
    draw_crown,
    draw_flag,
    draw_player_marker,
    draw_robot,
)
from render.text import display_name, draw_text, fit_text, legible_size, text_width

Painter = Callable[[Image.Image, ImageDraw.ImageDraw, Box], None]
"""Paints custom content (a sprite, a swatch…) into the cell's box."""

Align = Literal["left", "centre", "right"]

# look
CARD: RGB = (62, 52, 43)
CARD_EDGE: RGB = (92, 78, 64)
ROW: RGB = (74, 63, 52)
ROW_HILITE: RGB = (104, 88, 60)
INFO_ROW: RGB = (54, 45, 37)
BADGE_FILL: dict[str, RGB] = {"bot": (58, 86, 112), "resigned": (120, 52, 40)}
BADGE_OTHER: RGB = (92, 78, 64)

# layout, px at DESIGN_WIDTH
DESIGN_WIDTH = 1000
CARD_INSET = 24  # image side to card side
TABLE_INSET = 38  # image side to row side
PAD_TOP = 14
STATUS_H = 46
HEADER_H = 40
ROW_H = 46
INFO_ROW_H = 38
PAD_BOTTOM = 10  # last row to the card's bottom edge
MARGIN_BOTTOM = 12  # card to the bottom of the panel
MARKER_W = 70  # strip, marker and seat number, before the name
RIGHT_PAD = 10  # after the last column

# text sizes at DESIGN_WIDTH; each is legible on a phone (render.text.MIN_PHONE_PX)
STATUS_SIZE = 24
TITLE_SIZE = 18
NAME_SIZE = 22
CELL_SIZE = 21
STRONG_SIZE = 23
BADGE_SIZE = 17


@dataclass(frozen=True)
class Cell:
    """One cell: text (``strong`` for totals, ``warning`` for alarming values) or a painter."""

    text: str = ""
    strong: bool = False
    warning: bool = False
    paint: Painter | None = None


CellLike = Cell | str | int | Painter


@dataclass(frozen=True)
class Column:
    """A column after the names: its title (text or painter) and its width.

    ``width`` None shares the room left by the fixed columns equally.
    ``space_before`` leaves a gap, e.g. between two groups of columns.
    """

    title: str | Painter = ""
    width: int | None = None
    space_before: int = 0
    align: Align = "centre"


@dataclass(frozen=True)
class Row:
    """A player's row (``seat`` set; ``name`` may be raw, it is made printable and
    falls back to "Player N"), or a shared row (``seat`` None; ``name`` is its label).

    ``tag`` marks a seat: "bot" (an AI plays it) or "resigned" (its player
    left; the name is dimmed) show a badge (``common.<tag>``) after the name.
    """

    cells: tuple[CellLike, ...]
    seat: int | None = None
    name: str = ""
    tag: str | None = None
    colour: RGB | None = None  # the seat's piece colour when the game fixes it (Nomadi)


@dataclass(frozen=True)
class Panel:
    """What the panel shows; see the module doc for an example.

    ``acting``: seats to act now (arrow, highlighted rows); ``note`` follows
    their names on the status line (e.g. "2 to place"). ``winners``: once
    the game is over (crown, highlighted rows, strong cells in gold); they
    replace ``acting`` on the status line. ``name_width``: px (at
    :data:`DESIGN_WIDTH`) for marker and name before the first column.
    """

    status: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    acting: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    note: str = ""
    name_width: int = 380


@dataclass(frozen=True)
class PanelMetrics:
    """The panel's sizes for one width: text sizes in px, ``scale`` for the rest."""

    width: int
    scale: float  # width / DESIGN_WIDTH
    status_size: int
    title_size: int
    name_size: int
    cell_size: int
    strong_size: int
    badge_size: int

    def px(self, value: float) -> float:
        """A length given at :data:`DESIGN_WIDTH`, at this width."""
        return value * self.scale

    def h(self, value: int) -> int:
        """A height given at :data:`DESIGN_WIDTH`, at this width, in whole px."""
        return round(value * self.scale)


def panel_metrics(width: int) -> PanelMetrics:
    """Sizes for a panel ``width`` px wide: the design sizes scaled, and every
    text at least as big as a phone needs (:func:`render.text.legible_size`)."""
    k = width / DESIGN_WIDTH

    def size(role: str, base: int) -> int:
        return legible_size(role, width, math.ceil(base * k - 1e-9))

    return PanelMetrics(
        width,
        k,
        status_size=size("status", STATUS_SIZE),
        title_size=size("title", TITLE_SIZE),
        name_size=size("name", NAME_SIZE),
        cell_size=size("score", CELL_SIZE),
        strong_size=size("score", STRONG_SIZE),
        badge_size=size("badge", BADGE_SIZE),
    )


@dataclass(frozen=True)
class PanelLayout:
    """Where things go, in px from the panel's top-left corner."""

    width: int
    height: int
    card: Box
    status: Box
    header: Box | None
    rows: tuple[Box, ...]  # each row's slot, full table width
    name: tuple[float, float]  # x range of marker + name
    columns: tuple[tuple[float, float], ...]  # x range of each column
    metrics: PanelMetrics


def _row_height(row: Row, m: PanelMetrics) -> int:
    return m.h(ROW_H) if row.seat is not None else m.h(INFO_ROW_H)


def _has_header(panel: Panel) -> bool:
    return any(c.title for c in panel.columns)


def panel_height(panel: Panel, width: int = DESIGN_WIDTH) -> int:
    """Height in px of ``panel`` drawn ``width`` px wide."""
    m = panel_metrics(width)
    header = m.h(HEADER_H) if _has_header(panel) else 0
    rows = sum(_row_height(r, m) for r in panel.rows)
    fixed = m.h(PAD_TOP) + m.h(STATUS_H) + m.h(PAD_BOTTOM) + m.h(MARGIN_BOTTOM)
    return fixed + header + rows


def panel_layout(panel: Panel, width: int) -> PanelLayout:
    """Boxes of the status line, header, rows and columns for a panel ``width`` px wide."""
    for row in panel.rows:
        if len(row.cells) != len(panel.columns):
            raise ValueError(
                f"row {row.name!r} has {len(row.cells)} cells for {len(panel.columns)} columns"
            )
    m = panel_metrics(width)
    left, right = m.px(TABLE_INSET), width - m.px(TABLE_INSET)
    name_end = left + m.px(panel.name_width)
    fixed = sum(c.width or 0 for c in panel.columns) + sum(c.space_before for c in panel.columns)
    flexible = sum(1 for c in panel.columns if c.width is None)
    room = right - m.px(RIGHT_PAD) - name_end - m.px(fixed)
    if room < 0 or (flexible and room < m.px(24) * flexible):
        raise ValueError(f"the panel's columns do not fit in {width} px")
    share = room / flexible if flexible else 0.0
    columns: list[tuple[float, float]] = []
    x = name_end
    for column in panel.columns:
        x += m.px(column.space_before)
        w = m.px(column.width) if column.width is not None else share
        columns.append((x, x + w))
        x += w
    y = float(m.h(PAD_TOP))
    status = (left, y, right, y + m.h(STATUS_H))
    y += m.h(STATUS_H)
    header: Box | None = None
    if _has_header(panel):
        header = (left, y, right, y + m.h(HEADER_H))
        y += m.h(HEADER_H)
    rows: list[Box] = []
    for row in panel.rows:
        h = _row_height(row, m)
        rows.append((left, y, right, y + h))
        y += h
    height = panel_height(panel, width)
    card = (m.px(CARD_INSET), 0.0, width - m.px(CARD_INSET), float(height - m.h(MARGIN_BOTTOM)))
    return PanelLayout(
        width, height, card, status, header, tuple(rows), (left, name_end), tuple(columns), m
    )


def render_panel(panel: Panel, width: int, lang: str, *, background: RGB = BACKDROP) -> Image.Image:
    """The panel alone, as an RGB image ``width`` px wide."""
    image = Image.new("RGB", (width, panel_height(panel, width)), background)
    draw_panel(image, panel, lang)
    return image


def draw_panel(
    image: Image.Image,
    panel: Panel,
    lang: str,
    *,
    top: int = 0,
    parts: Container[str | int] | None = None,
) -> None:
    """Draw ``panel`` across the whole width of ``image``, from ``top`` down
    (``panel_height(panel, image.width)`` px).

    ``parts``: draw only these on the card (``"status"``, ``"header"``, row
    indices), each where the whole panel has it; :mod:`render.panel_memo`
    pastes the others back."""
    layout = panel_layout(panel, image.width)
    m = layout.metrics
    draw = ImageDraw.Draw(image)

    def at(box: Box) -> Box:
        return box[0], box[1] + top, box[2], box[3] + top

    draw.rounded_rectangle(
        at(layout.card), radius=m.px(12), fill=CARD, outline=CARD_EDGE, width=m.h(2)
    )
    names = {
        row.seat: display_name(row.name, row.seat, lang)
        for row in panel.rows
        if row.seat is not None
    }
    if parts is None or "status" in parts:
        _draw_status(draw, panel, names, lang, at(layout.status), m)
    if layout.header is not None and (parts is None or "header" in parts):
        _draw_header(image, draw, panel, layout, at(layout.header))
    for index, (row, box) in enumerate(zip(panel.rows, layout.rows, strict=True)):
        if parts is None or index in parts:
            _draw_row(image, draw, panel, layout, row, names, at(box), lang)


def _seat_name(names: dict[int, str], seat: int, lang: str) -> str:
    return names.get(seat) or display_name("", seat, lang)


def _draw_status(
    draw: ImageDraw.ImageDraw,
    panel: Panel,
    names: dict[int, str],
    lang: str,
    box: Box,
    m: PanelMetrics,
) -> None:
    """Phase on the left; winners (crown) or who acts (arrow) on the right."""
    size = m.status_size
    left, right = box[0] + m.px(12), box[2] - m.px(6)
    mid = (box[1] + box[3]) / 2 - m.px(4)
    seats = panel.winners or panel.acting
    room = right - left
    status = fit_text(panel.status, size, room * 0.6 if seats else room, bold=True)
    width = draw_text(draw, (left, mid), status, size, PAPER, anchor="lm", bold=True, role="status")
    if not seats:
        return
    room -= width + m.px(80)  # a gap, then the crown or arrow
    who = [_seat_name(names, s, lang) for s in seats]
    if panel.winners:
        label = catalogue.text(lang, "common.winner", {"count": len(seats)})
        words = catalogue.text(lang, "common.won", {"label": label, "names": "{names}"})
    else:
        words = "{names} " + catalogue.text(lang, "common.to_play")
        if panel.note:
            words += f" · {panel.note}"
    others = text_width(words.replace("{names}", ""), size, bold=True)
    slack = m.px(6)  # kerning
    side = words.replace("{names}", _names_within(who, room - others - slack, size))
    side = fit_text(side, size, room, bold=True)
    colour = GOLD if panel.winners else PAPER
    shown = draw_text(draw, (right, mid), side, size, colour, anchor="rm", bold=True, role="status")
    if not shown:
        return
    if panel.winners:
        draw_crown(draw, (right - shown - m.px(24), mid), m.px(13))
    else:
        draw_arrow(draw, (right - shown - m.px(22), mid), m.px(11))


def _names_within(names: Sequence[str], room: float, size: int) -> str:
    """``names`` joined by commas within ``room`` px: short names stay whole and
    the longer ones share what is left equally, so every one of them (and the
    words around them) stays visible."""
    joined = ", ".join(names)
    if text_width(joined, size, bold=True) <= room:
        return joined
    left = room - text_width(", ", size, bold=True) * (len(names) - 1)
    widths = {i: text_width(name, size, bold=True) for i, name in enumerate(names)}
    waiting = sorted(widths, key=widths.__getitem__)
    while waiting and widths[waiting[0]] <= left / len(waiting):
        left -= widths[waiting.pop(0)]  # fits in its share: kept whole
    share = max(0.0, left / len(waiting)) if waiting else 0.0
    return ", ".join(
        fit_text(name, size, share, bold=True) if i in waiting else name
        for i, name in enumerate(names)
    )


def _draw_header(
    image: Image.Image, draw: ImageDraw.ImageDraw, panel: Panel, layout: PanelLayout, box: Box
) -> None:
    mid = (box[1] + box[3]) / 2
    size = layout.metrics.title_size
    for column, (x0, x1) in zip(panel.columns, layout.columns, strict=True):
        if callable(column.title):
            column.title(image, draw, (x0, box[1], x1, box[3]))
        elif column.title:
            text = fit_text(column.title, size, x1 - x0 - 4, bold=True)
            _draw_aligned(
                draw, text, (x0, x1), mid, size, MUTED, column.align, bold=True, role="title"
            )


def _draw_aligned(
    draw: ImageDraw.ImageDraw,
    text: str,
    span: tuple[float, float],
    mid: float,
    size: int,
    fill: RGB,
    align: Align,
    *,
    bold: bool,
    role: str,
) -> None:
    x0, x1 = span
    if align == "left":
        xy, anchor = (x0 + 4, mid), "lm"
    elif align == "right":
        xy, anchor = (x1 - 4, mid), "rm"
    else:
        xy, anchor = ((x0 + x1) / 2, mid), "mm"
    draw_text(draw, xy, text, size, fill, anchor=anchor, bold=bold, role=role)


def _cell(value: CellLike) -> Cell:
    if isinstance(value, Cell):
        return value
    if isinstance(value, str | int):
        return Cell(str(value))
    return Cell(paint=value)


def _draw_row(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    panel: Panel,
    layout: PanelLayout,
    row: Row,
    names: dict[int, str],
    box: Box,
    lang: str,
) -> None:
    m = layout.metrics
    seat = row.seat
    winner = seat is not None and seat in panel.winners
    acting = seat is not None and not panel.winners and seat in panel.acting
    mid = (box[1] + box[3]) / 2
    name_x0, name_x1 = layout.name
    if seat is None:
        mid -= m.px(1)
        draw.rounded_rectangle(
            (box[0], box[1] + m.px(2), box[2], box[3] - m.px(4)), radius=m.px(8), fill=INFO_ROW
        )
        size = m.title_size
        label = fit_text(row.name, size, name_x1 - name_x0 - m.px(21), bold=True)
        draw_text(
            draw,
            (name_x1 - m.px(9), mid),
            label,
            size,
            MUTED,
            anchor="rm",
            bold=True,
            role="title",
        )
    else:
        _draw_seat(
            draw,
            row,
            seat,
            names[seat],
            (box[0], box[1] + m.px(3), box[2], box[3] - m.px(3)),
            name_x1,
            m,
            lang,
            acting=acting,
            winner=winner,
        )
    for value, (x0, x1), column in zip(row.cells, layout.columns, panel.columns, strict=True):
        cell = _cell(value)
        if cell.paint is not None:
            cell.paint(image, draw, (x0, box[1], x1, box[3]))
        if not cell.text:
            continue
        strong = cell.strong or cell.warning
        size = m.strong_size if cell.strong else m.cell_size
        colour = WARN if cell.warning else GOLD if cell.strong and winner else PAPER
        text = fit_text(cell.text, size, x1 - x0 - m.px(6), bold=strong)
        _draw_aligned(
            draw, text, (x0, x1), mid, size, colour, column.align, bold=strong, role="score"
        )


def tag_text(tag: str, lang: str) -> str:
    """The badge's words for a row ``tag``: ``common.bot``, ``common.resigned``…"""
    return catalogue.text(lang, f"common.{tag}", default=tag)


TAG_ICONS: dict[str, Callable[[ImageDraw.ImageDraw, Point, float, Sequence[int]], None]] = {
    "bot": draw_robot,
    "resigned": draw_flag,
}


def _draw_seat(
    draw: ImageDraw.ImageDraw,
    row: Row,
    seat: int,
    name: str,
    box: Box,
    name_end: float,
    m: PanelMetrics,
    lang: str,
    *,
    acting: bool,
    winner: bool,
) -> None:
    """Row background, colour strip, marker, seat number, then the name with its
    sign (arrow or crown) and the row's badge."""
    highlight = acting or winner
    draw.rounded_rectangle(
        box,
        radius=m.px(8),
        fill=ROW_HILITE if highlight else ROW,
        outline=GOLD if highlight else None,
        width=m.h(2),
    )
    style = player_style(seat)
    colour = style.colour if row.colour is None else row.colour
    mid = (box[1] + box[3]) / 2
    draw.rectangle((box[0], box[1] + m.px(6), box[0] + m.px(5), box[3] - m.px(6)), fill=colour)
    x = box[0] + m.px(12)
    draw_player_marker(draw, seat, (x + m.px(20), mid), m.px(13), colour=colour)
    draw_text(
        draw,
        (x + m.px(40), mid),
        style.letter,
        m.name_size - 2,
        MUTED,
        anchor="lm",
        bold=True,
        role="name",
    )
    x = box[0] + m.px(MARKER_W)
    right = name_end - m.px(9)
    sign = m.px(34) if highlight else 0  # the arrow or crown after the name
    if row.tag:
        # the badge's words when the name still fits whole, else its icon alone
        whole = text_width(name, m.name_size, bold=highlight) + sign + m.px(8)
        words = row.tag not in TAG_ICONS or (
            whole + _badge_width(row.tag, m, lang, words=True) <= right - x
        )
        right -= _draw_badge(draw, row.tag, (right, mid), m, lang, words=words) + m.px(8)
    room = right - x - sign
    text = fit_text(name, m.name_size, room, bold=highlight)
    colour = MUTED if row.tag == "resigned" else PAPER
    width = draw_text(
        draw, (x, mid), text, m.name_size, colour, anchor="lm", bold=highlight, role="name"
    )
    if acting:
        draw_arrow(draw, (x + width + m.px(20), mid), m.px(10))
    elif winner:
        draw_crown(draw, (x + width + m.px(22), mid), m.px(12))


def _badge_width(tag: str, m: PanelMetrics, lang: str, *, words: bool) -> float:
    pad = m.px(7)
    icon = m.badge_size * 1.1 if tag in TAG_ICONS else 0.0
    if not words:
        return icon + 2 * pad
    gap = m.px(5) if icon else 0.0
    return icon + gap + text_width(tag_text(tag, lang), m.badge_size, bold=True) + 2 * pad


def _draw_badge(
    draw: ImageDraw.ImageDraw,
    tag: str,
    right_mid: tuple[float, float],
    m: PanelMetrics,
    lang: str,
    *,
    words: bool,
) -> float:
    """A small pill, its right end at ``right_mid``: the tag's icon (robot, white
    flag) and, when ``words``, its words. Returns its width."""
    size = m.badge_size
    width = _badge_width(tag, m, lang, words=words)
    x1, mid = right_mid
    x0 = x1 - width
    half = size * 0.62 + m.px(2)
    draw.rounded_rectangle(
        (x0, mid - half, x1, mid + half),
        radius=half,
        fill=BADGE_FILL.get(tag, BADGE_OTHER),
        outline=MUTED,
        width=max(1, m.h(1)),
    )
    x = x0 + m.px(7)
    icon = TAG_ICONS.get(tag)
    if icon is not None:
        icon(draw, (x + size * 0.55, mid), size * 0.45, PAPER)
        x += size * 1.1 + m.px(5)
    if words:
        draw_text(
            draw,
            (x, mid),
            tag_text(tag, lang),
            size,
            PAPER,
            anchor="lm",
            bold=True,
            role="badge",
        )
    return width
