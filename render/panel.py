"""The score and turn panel drawn under every game's board.

One look for all games: a status line (the phase on the left; on the right
who acts now, with an arrow, or the winners, with a crown), a header row of
column titles, then one row per player: the seat's marker (colour, shape,
number), the name (cut with an ellipsis when long; bold and framed in gold
while that player acts or once they won) and the game's own cells. Rows
without a seat carry shared information (a supply, a market…).

Everything shown comes from the caller, except the shared words
``common.to_play``, ``common.winner``, ``common.won`` and ``common.player``.

Example::

    panel = Panel(
        status="Round 3",
        acting=(1,),
        columns=(Column("Gold"), Column("Total", width=90)),
        rows=(
            Row(("4", Cell("12", strong=True)), seat=0, name="Alice"),
            Row(("7", Cell("15", strong=True)), seat=1, name="Bob"),
        ),
    )
    image = render_panel(panel, 1000, "en")  # or draw_panel(board, panel, "en", top=y)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from games import catalogue
from render.palette import BACKDROP, GOLD, MUTED, PAPER, RGB, WARN, player_style
from render.shapes import Box, draw_arrow, draw_crown, draw_player_marker
from render.text import display_name, draw_text, fit_text, text_width

Painter = Callable[[Image.Image, ImageDraw.ImageDraw, Box], None]
"""Paints custom content (a sprite, a swatch…) into the cell's box."""

Align = Literal["left", "centre", "right"]

# look
CARD: RGB = (62, 52, 43)
CARD_EDGE: RGB = (92, 78, 64)
ROW: RGB = (74, 63, 52)
ROW_HILITE: RGB = (104, 88, 60)
INFO_ROW: RGB = (54, 45, 37)

# layout, px
CARD_INSET = 24  # image side to card side
TABLE_INSET = 38  # image side to row side
PAD_TOP = 14
STATUS_H = 46
HEADER_H = 40
ROW_H = 46
INFO_ROW_H = 38
PAD_BOTTOM = 10  # last row to the card's bottom edge
MARGIN_BOTTOM = 12  # card to the bottom of the panel
MARKER_W = 78  # strip, marker and seat number, before the name
RIGHT_PAD = 10  # after the last column

STATUS_SIZE = 26
TITLE_SIZE = 20
NAME_SIZE = 24
CELL_SIZE = 22
STRONG_SIZE = 24


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
    falls back to "Player N"), or a shared row (``seat`` None; ``name`` is its label)."""

    cells: tuple[CellLike, ...]
    seat: int | None = None
    name: str = ""


@dataclass(frozen=True)
class Panel:
    """What the panel shows; see the module doc for an example.

    ``acting``: seats to act now (arrow, highlighted rows); ``note`` follows
    their names on the status line (e.g. "2 to place"). ``winners``: once
    the game is over (crown, highlighted rows, strong cells in gold); they
    replace ``acting`` on the status line. ``name_width``: px for marker and
    name before the first column.
    """

    status: str
    columns: tuple[Column, ...]
    rows: tuple[Row, ...]
    acting: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    note: str = ""
    name_width: int = 380


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


def _row_height(row: Row) -> int:
    return ROW_H if row.seat is not None else INFO_ROW_H


def _has_header(panel: Panel) -> bool:
    return any(c.title for c in panel.columns)


def panel_height(panel: Panel) -> int:
    header = HEADER_H if _has_header(panel) else 0
    rows = sum(_row_height(r) for r in panel.rows)
    return PAD_TOP + STATUS_H + header + rows + PAD_BOTTOM + MARGIN_BOTTOM


def panel_layout(panel: Panel, width: int) -> PanelLayout:
    """Boxes of the status line, header, rows and columns for a panel ``width`` px wide."""
    for row in panel.rows:
        if len(row.cells) != len(panel.columns):
            raise ValueError(
                f"row {row.name!r} has {len(row.cells)} cells for {len(panel.columns)} columns"
            )
    left, right = float(TABLE_INSET), float(width - TABLE_INSET)
    name_end = left + panel.name_width
    fixed = sum(c.width or 0 for c in panel.columns) + sum(c.space_before for c in panel.columns)
    flexible = sum(1 for c in panel.columns if c.width is None)
    room = right - RIGHT_PAD - name_end - fixed
    if room < 0 or (flexible and room < 24 * flexible):
        raise ValueError(f"the panel's columns do not fit in {width} px")
    share = room / flexible if flexible else 0.0
    columns: list[tuple[float, float]] = []
    x = name_end
    for column in panel.columns:
        x += column.space_before
        w = column.width if column.width is not None else share
        columns.append((x, x + w))
        x += w
    y = float(PAD_TOP)
    status = (left, y, right, y + STATUS_H)
    y += STATUS_H
    header: Box | None = None
    if _has_header(panel):
        header = (left, y, right, y + HEADER_H)
        y += HEADER_H
    rows: list[Box] = []
    for row in panel.rows:
        h = _row_height(row)
        rows.append((left, y, right, y + h))
        y += h
    height = panel_height(panel)
    card = (float(CARD_INSET), 0.0, float(width - CARD_INSET), float(height - MARGIN_BOTTOM))
    return PanelLayout(
        width, height, card, status, header, tuple(rows), (left, name_end), tuple(columns)
    )


def render_panel(panel: Panel, width: int, lang: str, *, background: RGB = BACKDROP) -> Image.Image:
    """The panel alone, as an RGB image ``width`` px wide."""
    image = Image.new("RGB", (width, panel_height(panel)), background)
    draw_panel(image, panel, lang)
    return image


def draw_panel(image: Image.Image, panel: Panel, lang: str, *, top: int = 0) -> None:
    """Draw ``panel`` across the whole width of ``image``, from ``top`` down."""
    layout = panel_layout(panel, image.width)
    draw = ImageDraw.Draw(image)

    def at(box: Box) -> Box:
        return box[0], box[1] + top, box[2], box[3] + top

    draw.rounded_rectangle(at(layout.card), radius=12, fill=CARD, outline=CARD_EDGE, width=2)
    names = {
        row.seat: display_name(row.name, row.seat, lang)
        for row in panel.rows
        if row.seat is not None
    }
    _draw_status(draw, panel, names, lang, at(layout.status))
    if layout.header is not None:
        _draw_header(image, draw, panel, layout, at(layout.header))
    for row, box in zip(panel.rows, layout.rows, strict=True):
        _draw_row(image, draw, panel, layout, row, names, at(box))


def _seat_name(names: dict[int, str], seat: int, lang: str) -> str:
    return names.get(seat) or display_name("", seat, lang)


def _draw_status(
    draw: ImageDraw.ImageDraw, panel: Panel, names: dict[int, str], lang: str, box: Box
) -> None:
    """Phase on the left; winners (crown) or who acts (arrow) on the right."""
    left, right = box[0] + 12, box[2] - 6
    mid = (box[1] + box[3]) / 2 - 4
    seats = panel.winners or panel.acting
    room = right - left
    status = fit_text(panel.status, STATUS_SIZE, room * 0.6 if seats else room, bold=True)
    width = draw_text(draw, (left, mid), status, STATUS_SIZE, PAPER, anchor="lm", bold=True)
    if not seats:
        return
    room -= width + 80  # a gap, then the crown or arrow
    who = [_seat_name(names, s, lang) for s in seats]
    if panel.winners:
        label = catalogue.text(lang, "common.winner", {"count": len(seats)})
        words = catalogue.text(lang, "common.won", {"label": label, "names": "{names}"})
    else:
        words = "{names} " + catalogue.text(lang, "common.to_play")
        if panel.note:
            words += f" · {panel.note}"
    others = text_width(words.replace("{names}", ""), STATUS_SIZE, bold=True)
    side = words.replace("{names}", _names_within(who, room - others - 6))  # 6: kerning slack
    side = fit_text(side, STATUS_SIZE, room, bold=True)
    colour = GOLD if panel.winners else PAPER
    shown = draw_text(draw, (right, mid), side, STATUS_SIZE, colour, anchor="rm", bold=True)
    if not shown:
        return
    if panel.winners:
        draw_crown(draw, (right - shown - 24, mid), 13)
    else:
        draw_arrow(draw, (right - shown - 22, mid), 11)


def _names_within(names: Sequence[str], room: float) -> str:
    """``names`` joined by commas within ``room`` px: short names stay whole and
    the longer ones share what is left equally, so every one of them (and the
    words around them) stays visible."""
    joined = ", ".join(names)
    if text_width(joined, STATUS_SIZE, bold=True) <= room:
        return joined
    left = room - text_width(", ", STATUS_SIZE, bold=True) * (len(names) - 1)
    widths = {i: text_width(name, STATUS_SIZE, bold=True) for i, name in enumerate(names)}
    waiting = sorted(widths, key=widths.__getitem__)
    while waiting and widths[waiting[0]] <= left / len(waiting):
        left -= widths[waiting.pop(0)]  # fits in its share: kept whole
    share = max(0.0, left / len(waiting)) if waiting else 0.0
    return ", ".join(
        fit_text(name, STATUS_SIZE, share, bold=True) if i in waiting else name
        for i, name in enumerate(names)
    )


def _draw_header(
    image: Image.Image, draw: ImageDraw.ImageDraw, panel: Panel, layout: PanelLayout, box: Box
) -> None:
    mid = (box[1] + box[3]) / 2
    for column, (x0, x1) in zip(panel.columns, layout.columns, strict=True):
        if callable(column.title):
            column.title(image, draw, (x0, box[1], x1, box[3]))
        elif column.title:
            text = fit_text(column.title, TITLE_SIZE, x1 - x0 - 4, bold=True)
            _draw_aligned(draw, text, (x0, x1), mid, TITLE_SIZE, MUTED, column.align, bold=True)


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
) -> None:
    x0, x1 = span
    if align == "left":
        draw_text(draw, (x0 + 4, mid), text, size, fill, anchor="lm", bold=bold)
    elif align == "right":
        draw_text(draw, (x1 - 4, mid), text, size, fill, anchor="rm", bold=bold)
    else:
        draw_text(draw, ((x0 + x1) / 2, mid), text, size, fill, anchor="mm", bold=bold)


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
) -> None:
    seat = row.seat
    winner = seat is not None and seat in panel.winners
    acting = seat is not None and not panel.winners and seat in panel.acting
    mid = (box[1] + box[3]) / 2
    name_x0, name_x1 = layout.name
    if seat is None:
        mid -= 1
        draw.rounded_rectangle((box[0], box[1] + 2, box[2], box[3] - 4), radius=8, fill=INFO_ROW)
        label = fit_text(row.name, TITLE_SIZE, name_x1 - name_x0 - 21, bold=True)
        draw_text(draw, (name_x1 - 9, mid), label, TITLE_SIZE, MUTED, anchor="rm", bold=True)
    else:
        _draw_seat(
            draw,
            seat,
            names[seat],
            (box[0], box[1] + 3, box[2], box[3] - 3),
            name_x1,
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
        size = STRONG_SIZE if cell.strong else CELL_SIZE
        colour = WARN if cell.warning else GOLD if cell.strong and winner else PAPER
        text = fit_text(cell.text, size, x1 - x0 - 6, bold=strong)
        _draw_aligned(draw, text, (x0, x1), mid, size, colour, column.align, bold=strong)


def _draw_seat(
    draw: ImageDraw.ImageDraw,
    seat: int,
    name: str,
    box: Box,
    name_end: float,
    *,
    acting: bool,
    winner: bool,
) -> None:
    """Row background, colour strip, marker, seat number, then the name with its sign."""
    highlight = acting or winner
    draw.rounded_rectangle(
        box,
        radius=8,
        fill=ROW_HILITE if highlight else ROW,
        outline=GOLD if highlight else None,
        width=2,
    )
    style = player_style(seat)
    mid = (box[1] + box[3]) / 2
    draw.rectangle((box[0], box[1] + 6, box[0] + 5, box[3] - 6), fill=style.colour)
    x = box[0] + 12
    draw_player_marker(draw, seat, (x + 22, mid), 13)
    draw_text(draw, (x + 44, mid), style.letter, NAME_SIZE - 2, MUTED, anchor="lm", bold=True)
    x = box[0] + MARKER_W
    room = name_end - 9 - x - (34 if highlight else 0)
    text = fit_text(name, NAME_SIZE, room, bold=highlight)
    width = draw_text(draw, (x, mid), text, NAME_SIZE, PAPER, anchor="lm", bold=highlight)
    if acting:
        draw_arrow(draw, (x + width + 20, mid), 10)
    elif winner:
        draw_crown(draw, (x + width + 22, mid), 12)
