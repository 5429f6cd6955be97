"""The render toolkit: font coverage, names, grids, the shared panel, layering."""

from __future__ import annotations

import ast
from functools import lru_cache
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageDraw

from render.grids import HexGrid, SquareGrid, column_letters, draw_grid_labels
from render.palette import (
    GOLD,
    INK,
    PAPER,
    PLAYER_STYLES,
    contrast_ratio,
    delta_e,
    distinct_shade,
    luminance,
    mix,
    player_style,
    seen_with,
)
from render.panel import (
    CARD,
    DESIGN_WIDTH,
    ROW,
    ROW_HILITE,
    Cell,
    Column,
    Panel,
    Row,
    panel_height,
    panel_layout,
    panel_metrics,
    render_panel,
)
from render.shapes import Box, draw_flag, draw_robot
from render.text import (
    MAX_MARKS,
    MIN_PHONE_PX,
    NAME_LIMIT,
    PHONE_WIDTH,
    display_name,
    draw_text,
    drawing_cache,
    fit_text,
    font,
    has_glyph,
    legible_size,
    phone_px,
    printable,
    recording_text,
    stamp_text,
    text_width,
)

ROOT = Path(__file__).resolve().parents[1]

# --------------------------------------------------------------------------- font

COVERED = "éèêçàùœÉ" + "αβΩ" + "Дя"
MISSING = ["🐪", "🌵", "\U0010fffd"]


def ink(ch: str, bold: bool = False) -> tuple[tuple[int, int], bytes]:
    mask = font(32, bold).getmask(ch)
    return mask.size, bytes(mask)


@pytest.mark.parametrize("ch", list(COVERED))
def test_font_draws_accents_greek_and_cyrillic(ch: str) -> None:
    assert has_glyph(ch)
    notdef = ink("\U0010fffd")
    assert ink(ch) != notdef and ink(ch, bold=True) != ink("\U0010fffd", bold=True)
    assert any(ink(ch)[1])


@pytest.mark.parametrize("ch", MISSING)
def test_missing_glyphs_are_detected(ch: str) -> None:
    assert not has_glyph(ch)


def test_accented_letters_differ_from_their_base() -> None:
    for accented, base in (("é", "e"), ("è", "e"), ("ç", "c"), ("É", "E"), ("ù", "u")):
        assert ink(accented) != ink(base)
    assert ink("é") != ink("è") != ink("ê")


def test_bold_is_a_real_face() -> None:
    assert font(24).getname() == ("Source Sans Pro", "Regular")
    assert font(24, bold=True).getname() == ("Source Sans Pro", "Bold")
    assert font(24, bold=True) is font(24, bold=True)  # cached
    assert text_width("Vainqueur", 24, bold=True) > text_width("Vainqueur", 24)


def test_printable_drops_what_the_font_cannot_draw() -> None:
    assert printable("Zoë 🐪") == "Zoë"
    assert printable("🐪 Zoë 🌵 Ça va") == "Zoë Ça va"
    assert printable("  Ανδρέας\tДмитрий ") == "Ανδρέας Дмитрий"
    assert printable("❤️ Eve") == "Eve"  # the variation selector goes with the heart
    assert printable("Zoe\u0308") == "Zoë"  # decomposed input is composed
    assert printable("日本 🐪") == "日本"  # CJK has its fallback font (test_render_scripts)


def test_display_name_falls_back_to_the_catalogue() -> None:
    assert display_name("🐪🐪", 2, "fr") == "Joueur 3"
    assert display_name("", 0, "en") == "Player 1"
    assert display_name("   ", 4, "de") == "Player 5"
    assert display_name(" Chloé 🐪", 1, "en") == "Chloé"


def test_invisible_characters_are_never_drawn() -> None:
    assert printable("\u202eevil") == "evil"  # a bidi override
    assert printable("\u2066Zoë\u2069 \u200f") == "Zoë"  # isolates, a direction mark
    assert printable("ad\u200bmin\u200d\u2060\ufeff") == "admin"  # zero-width characters
    assert printable("So\u00adphie") == "Sophie"  # the font has a soft hyphen: still not drawn
    assert printable("a\x00b\x1b[0m") == "ab[0m"
    assert display_name("\u202e\u2066\u200b\u00ad\ufeff", 0, "en") == "Player 1"
    assert display_name("\u202eevil", 1, "fr") == "evil"


def test_a_bidi_override_name_is_drawn_as_its_visible_letters() -> None:
    def drawn(text: str) -> bytes:
        image = Image.new("RGB", (200, 40))
        draw_text(ImageDraw.Draw(image), (4, 20), text, 24, (255, 255, 255), anchor="lm")
        return image.tobytes()

    assert drawn("\u202eevil\u202c") == drawn("evil") != drawn("live")
    assert drawn("\u2067Zo\u00adë\u2069") == drawn("Zoë")


def test_stacked_combining_marks_are_capped() -> None:
    zalgo = "q" + "\u0301\u0300\u0302\u0308" * 10 + "x"
    shown = printable(zalgo)
    assert shown == "q\u0301\u0300x" and MAX_MARKS == 2
    assert printable("\u0301\u0301Zoë") == "Zoë"  # marks with no letter to sit on


def test_display_names_are_capped() -> None:
    name = display_name("W" * 200, 0, "en")
    assert len(name) == NAME_LIMIT and name == "W" * (NAME_LIMIT - 1) + "…"
    assert display_name("Chloé", 0, "en") == "Chloé"
    letter = "q\u0323\u0301"  # one letter, three code points: never cut apart
    name = display_name(letter * 20, 0, "en")
    assert name == letter * 10 + "…"


def test_a_200_character_or_bidi_name_keeps_the_panel_layout() -> None:
    def panel(*names: str) -> Panel:
        rows = (Row((str(s), str(10 * s)), seat=s, name=n) for s, n in enumerate(names))
        return Panel(
            status="Round 2",
            columns=(Column("Gold"), Column("Total")),
            rows=tuple(rows),
            acting=(0, 1),
        )

    hostile = panel("\u202eevil\u202c", "W" * 200, "\u200b" * 50 + "Zoë")
    plain = panel("evil", "W" * 200, "Zoë")
    with recording_text() as texts:
        image = render_panel(hostile, 1000, "en")
    assert image.tobytes() == render_panel(plain, 1000, "en").tobytes()
    layout = panel_layout(hostile, 1000)
    assert image.size == (1000, panel_height(hostile, 1000))
    names = [t for t in texts if t.role == "name" and not t.text.isdigit()]  # not seat numbers
    assert [t.text for t in names][::2] == ["evil", "Zoë"]
    long = names[1].text
    assert long.startswith("WWW") and long.endswith("…") and len(long) <= NAME_LIMIT
    for t in names:  # each name ends before the first column
        assert t.xy[0] + text_width(t.text, t.size, bold=t.bold) < layout.columns[0][0]
    (status,) = [t for t in texts if t.role == "status" and "evil" in t.text]
    assert status.text.endswith("…") or "W" in status.text
    right = status.xy[0]  # anchored on its right end: it starts inside the status box
    assert right - text_width(status.text, status.size, bold=True) >= layout.status[0]
    # the cells are where they would be with a short name
    short = render_panel(panel("evil", "Alice", "Zoë"), 1000, "en")
    cells = (layout.columns[0][0], layout.rows[0][1], 1000, image.height)
    assert image.crop(rounded(cells)).tobytes() == short.crop(rounded(cells)).tobytes()


def test_fit_text_cuts_with_an_ellipsis() -> None:
    assert fit_text("Alice", 24, 500) == "Alice"
    cut = fit_text("Bartholomew " * 20, 24, 200)
    assert cut.endswith("…") and text_width(cut, 24) <= 200
    bold = fit_text("W" * 100, 24, 150, bold=True)
    assert bold.endswith("…") and text_width(bold, 24, bold=True) <= 150
    assert fit_text("Wide", 24, 2) == ""


def test_draw_text_draws_nothing_for_unprintable_text() -> None:
    image = Image.new("RGB", (200, 40))
    assert draw_text(ImageDraw.Draw(image), (4, 20), "🐪", 24, (255, 255, 255)) == 0
    assert image.getbbox() is None
    width = draw_text(ImageDraw.Draw(image), (4, 20), "Ça", 24, (255, 255, 255), anchor="lm")
    assert width > 10 and image.getbbox() is not None


# --------------------------------------------------------------------------- legibility


def test_legible_size_follows_the_image_width() -> None:
    assert PHONE_WIDTH == 550 and MIN_PHONE_PX["space"] == 9 and MIN_PHONE_PX["status"] == 11
    assert legible_size("space", 550) == 9
    assert legible_size("space", 1100) == 18
    assert legible_size("name", 1100) == 22
    assert legible_size("name", 1241) == 25  # 24.8…, rounded up
    assert legible_size("space", 1000, 30) == 30  # never made smaller
    for width in range(400, 2000, 37):
        for role, least in MIN_PHONE_PX.items():
            assert phone_px(legible_size(role, width), width) >= least


def test_recording_lists_every_text_with_its_size_and_role() -> None:
    calls = []

    @drawing_cache
    @lru_cache(maxsize=4)
    def sprite(word: str) -> Image.Image:
        calls.append(word)
        image = Image.new("RGB", (100, 40))
        draw_text(ImageDraw.Draw(image), (2, 20), word, 20, PAPER, anchor="lm", role="title")
        return image

    image = Image.new("RGB", (200, 60))
    sprite("cached")
    with recording_text() as texts:
        draw_text(ImageDraw.Draw(image), (4, 30), "Zoë 🐪", 24, PAPER, role="name")
        stamp_text(image, (100, 30), "F7", 18, PAPER, role="space")
        sprite("cached")  # emptied by the recording, so drawn (and listed) again
        draw_text(ImageDraw.Draw(image), (4, 30), "🐪", 24, PAPER, role="name")  # nothing drawn
    draw_text(ImageDraw.Draw(image), (4, 30), "after", 24, PAPER, role="name")
    assert [(t.text, t.size, t.role) for t in texts] == [
        ("Zoë", 24, "name"),
        ("F7", 18, "space"),
        ("cached", 20, "title"),
    ]
    assert calls == ["cached", "cached"]
    assert texts[1].xy == (100, 30)


@pytest.mark.parametrize("anchor", ["la", "mm", "ms", "rm"])
def test_stamped_text_looks_like_drawn_text(anchor: str) -> None:
    drawn = Image.new("RGB", (160, 80), (236, 218, 170))
    stamped = drawn.copy()
    kwargs = {"anchor": anchor, "bold": True, "outline": (250, 240, 210), "outline_width": 2}
    draw_text(ImageDraw.Draw(drawn), (80, 40), "B12", 22, INK, **kwargs)  # type: ignore[arg-type]
    stamp_text(stamped, (80, 40), "B12", 22, INK, **kwargs)  # type: ignore[arg-type]
    assert drawn.getbbox() is not None
    diff = ImageChops.difference(drawn, stamped).convert("L")
    assert diff.getextrema()[1] <= 40  # the same glyphs, at most a rounding apart
    assert stamped.tobytes() != Image.new("RGB", (160, 80), (236, 218, 170)).tobytes()


# --------------------------------------------------------------------------- colours


def test_colour_differences() -> None:
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert luminance((255, 255, 255)) == pytest.approx(1)
    assert delta_e((255, 0, 0), (0, 0, 255)) == pytest.approx(52.88, abs=0.01)  # reference
    assert delta_e((120, 120, 120), (120, 120, 120)) == 0
    assert delta_e((250, 214, 30), (242, 132, 24)) > 20  # yellow and orange: different colours
    assert seen_with((255, 255, 255), "deuteranopia") == (255, 255, 255)
    red, green = (213, 94, 0), (0, 158, 115)
    assert delta_e(seen_with(red, "protanopia"), seen_with(green, "protanopia")) < delta_e(
        red, green
    )


def test_distinct_shade_darkens_only_as_far_as_needed() -> None:
    orange = (242, 132, 24)
    vermillion = PLAYER_STYLES[1].colour
    shade = distinct_shade(vermillion, (orange,))
    assert delta_e(shade, orange) >= 30
    assert shade != vermillion and delta_e(mix(shade, vermillion, 0.2), orange) < 30
    blue = PLAYER_STYLES[0].colour
    assert distinct_shade(blue, (orange,)) == blue  # already distinct: unchanged


# --------------------------------------------------------------------------- grids


def test_square_grid_geometry() -> None:
    grid = SquareGrid(cell=50, origin=(30, 40))
    assert grid.centre(1, 1) == (55, 65)
    assert grid.centre(3, 2) == (155, 115)
    assert grid.box(1, 1) == (30, 40, 80, 90)
    assert grid.box(8, 8) == (380, 390, 430, 440)
    assert grid.size(8, 6) == (400, 300)
    assert grid.cell_size == (50, 50)


def test_hex_grid_cell_size() -> None:
    grid = HexGrid(radius=20, origin=(0, 0))
    assert grid.cell_size == pytest.approx((34.641, 40), abs=1e-3)


def test_column_letters() -> None:
    letters = column_letters(28)
    assert letters[:3] == ("A", "B", "C") and letters[25:] == ("Z", "AA", "AB")


def test_grid_labels_go_around_the_grid() -> None:
    grid = SquareGrid(cell=40, origin=(40, 40))
    image = Image.new("RGB", (40 + 8 * 40 + 40, 40 + 8 * 40 + 40))
    draw_grid_labels(ImageDraw.Draw(image), grid, 8, 8, size=20, sides="tblr")
    inner = image.crop((40, 40, 360, 360))
    assert inner.getbbox() is None  # nothing drawn on the cells
    for margin in ((40, 0, 360, 40), (40, 360, 360, 400), (0, 40, 40, 360), (360, 40, 400, 360)):
        assert image.crop(margin).getbbox() is not None
    only_top = Image.new("RGB", image.size)
    draw_grid_labels(ImageDraw.Draw(only_top), grid, 8, 8, sides="t")
    assert only_top.crop((0, 40, 400, 400)).getbbox() is None


# --------------------------------------------------------------------------- panel

LONG = "Bartholomew Fitzgerald-Montmorency de la Tour d'Auvergne 🐪"


def rounded(box: Box) -> tuple[int, int, int, int]:
    return round(box[0]), round(box[1]), round(box[2]), round(box[3])


def count(image: Image.Image, box: Box, colour: tuple[int, int, int]) -> int:
    crop = image.crop(rounded(box))
    return sum(n for n, c in crop.getcolors(crop.width * crop.height) or [] if c == colour)


def sample_panel(players: int, **kwargs: object) -> Panel:
    painted: list[Box] = []

    def swatch(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
        painted.append(box)
        draw.rectangle((box[0] + 10, box[1] + 10, box[2] - 10, box[3] - 10), fill=(0, 200, 0))

    rows = [Row(("", Cell("3", warning=True), ""), name="Stock")]
    rows += [
        Row((swatch, str(seat), Cell(str(10 * seat), strong=True)), seat=seat, name=LONG)
        for seat in range(players)
    ]
    return Panel(
        status="Round 2",
        columns=(Column(swatch, width=60), Column("Gold"), Column("Total", width=100)),
        rows=tuple(rows),
        **kwargs,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_panel_rows_with_long_names_fitted(players: int) -> None:
    panel = sample_panel(players, acting=(0,))
    image = render_panel(panel, 1200, "en")
    assert image.size == (1200, panel_height(panel, 1200))
    layout = panel_layout(panel, 1200)
    assert len(layout.rows) == players + 1
    name_end = layout.name[1]
    assert layout.columns[0][0] == name_end
    for row, box in zip(panel.rows[2:], layout.rows[2:], strict=True):  # not acting
        # the name stops before the first column: only row colour just before it
        gap = (name_end - 7, box[1] + 8, name_end, box[3] - 8)
        area = round(gap[2] - gap[0]) * round(gap[3] - gap[1])
        assert count(image, gap, ROW) == area, row.seat
        # …but the name is drawn: light text in the name area
        name_box = (layout.name[0] + 80, box[1] + 8, name_end - 10, box[3] - 8)
        lightest = image.crop(rounded(name_box)).convert("L").getextrema()[1]
        assert isinstance(lightest, int) and lightest > 200


def test_panel_highlights_acting_and_winning_rows() -> None:
    acting = sample_panel(3, acting=(1,))
    image = render_panel(acting, 1100, "en")
    layout = panel_layout(acting, 1100)
    hilite = [count(image, box, ROW_HILITE) for box in layout.rows]
    assert hilite[0] == hilite[1] == hilite[3] == 0 and hilite[2] > 5000
    assert count(image, layout.rows[2], GOLD) > 50  # frame and arrow

    over = sample_panel(3, acting=(1,), winners=(0, 2))  # winners win over acting
    image = render_panel(over, 1100, "fr")
    layout = panel_layout(over, 1100)
    hilite = [count(image, box, ROW_HILITE) for box in layout.rows]
    assert hilite[1] > 5000 and hilite[3] > 5000 and hilite[0] == hilite[2] == 0
    assert count(image, layout.status, GOLD) > 200  # crown and "Vainqueurs : …"


def test_panel_status_words_change_with_the_language() -> None:
    panel = sample_panel(2, winners=(1,))
    layout = panel_layout(panel, 1000)
    en, fr = render_panel(panel, 1000, "en"), render_panel(panel, 1000, "fr")
    status = rounded(layout.status)
    assert en.crop(status).tobytes() != fr.crop(status).tobytes()
    rows = (0, round(layout.rows[0][1]), 1000, en.height)
    assert en.crop(rows).tobytes() == fr.crop(rows).tobytes()


def test_panel_card_and_painters() -> None:
    panel = sample_panel(2)
    image = render_panel(panel, 1000, "en")
    layout = panel_layout(panel, 1000)
    assert count(image, layout.card, CARD) > 1000
    # the swatch painter ran in the first column of both player rows and the header
    first = layout.columns[0]
    for box in (layout.header, layout.rows[1], layout.rows[2]):
        assert box is not None
        assert count(image, (first[0], box[1], first[1], box[3]), (0, 200, 0)) > 100


def test_panel_layout_rejects_bad_rows() -> None:
    panel = Panel(status="", columns=(Column("A"),), rows=(Row(("1", "2"), seat=0),))
    with pytest.raises(ValueError):
        panel_layout(panel, 1000)
    wide = Panel(status="", columns=(Column("A", width=900),), rows=())
    with pytest.raises(ValueError):
        panel_layout(wide, 1000)


def test_player_styles_never_rely_on_colour_alone() -> None:
    assert len({s.shape for s in PLAYER_STYLES}) == len({s.colour for s in PLAYER_STYLES}) == 5
    assert player_style(7) == PLAYER_STYLES[2]


# --------------------------------------------------------------------------- layering


def test_render_imports_neither_bot_cogs_nor_discord() -> None:
    offences = []
    for path in (ROOT / "render").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                roots = {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                roots = {node.module.split(".")[0]}
            else:
                continue
            if roots & {"bot", "cogs", "discord"}:
                offences.append(f"{path.name}: {sorted(roots)}")
    assert not offences
    assert not (ROOT / "render" / "common.py").exists()


# --------------------------------------------------------------------------- panel at any width


@pytest.mark.parametrize("width", [700, DESIGN_WIDTH, 1241, 2000])
def test_panel_scales_with_its_width_and_stays_legible(width: int) -> None:
    panel = sample_panel(5, acting=(2,))
    with recording_text() as texts:
        image = render_panel(panel, width, "en")
    assert image.size == (width, panel_height(panel, width))
    k = width / DESIGN_WIDTH
    assert panel_height(panel, width) == pytest.approx(k * panel_height(panel), abs=6)
    assert panel_layout(panel, width).columns[-1][1] == pytest.approx(
        k * panel_layout(panel, DESIGN_WIDTH).columns[-1][1]
    )
    roles = {t.role for t in texts}
    assert {"status", "name", "score", "title"} <= roles
    for t in texts:
        assert phone_px(t.size, width) >= MIN_PHONE_PX[t.role], t
    m = panel_metrics(width)
    assert m.name_size * PHONE_WIDTH / width >= 11 and m.title_size * PHONE_WIDTH / width >= 9


def tagged_panel(tags: tuple[str | None, ...], name: str = "Alice") -> Panel:
    return Panel(
        status="Round 2",
        columns=(Column("Gold"),),
        rows=tuple(
            Row((str(seat),), seat=seat, name=name, tag=tag) for seat, tag in enumerate(tags)
        ),
    )


def test_bot_and_resigned_rows_carry_a_badge() -> None:
    plain = tagged_panel((None, None, None))
    tagged = tagged_panel((None, "bot", "resigned"))
    a, b = render_panel(plain, 1000, "en"), render_panel(tagged, 1000, "en")
    layout = panel_layout(tagged, 1000)
    for i, box in enumerate(layout.rows):
        names = (box[0], box[1], layout.name[1], box[3])
        same = a.crop(rounded(names)).tobytes() == b.crop(rounded(names)).tobytes()
        assert same == (i == 0)
        cells = (layout.columns[0][0], box[1], box[2], box[3])
        assert a.crop(rounded(cells)).tobytes() == b.crop(rounded(cells)).tobytes()
    with recording_text() as texts:
        render_panel(tagged, 1000, "fr")
    badges = [t.text for t in texts if t.role == "badge"]
    assert badges == ["IA", "abandon"]
    assert all(phone_px(t.size, 1000) >= 9 for t in texts if t.role == "badge")


def test_a_badge_gives_way_to_a_long_name() -> None:
    """With a name that fills the row, the badge shrinks to its icon (no words)."""
    with recording_text() as texts:
        image = render_panel(tagged_panel((None, "resigned"), name=LONG), 1000, "en")
    assert not [t for t in texts if t.role == "badge"]
    untagged = render_panel(tagged_panel((None, None), name=LONG), 1000, "en")
    assert image.tobytes() != untagged.tobytes()  # the icon is there


def test_tag_icons_draw_inside_their_box() -> None:
    for icon in (draw_robot, draw_flag):
        image = Image.new("RGB", (40, 40))
        icon(ImageDraw.Draw(image), (20, 20), 10, (255, 255, 255))
        box = image.getbbox()
        assert box is not None
        assert box[0] >= 8 and box[1] >= 8 and box[2] <= 32 and box[3] <= 32
