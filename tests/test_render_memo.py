"""The shared drawing caches (render.glyphs, render.memo, render.panel_memo):
what they paste back is what the drawing made, and texts are still listed."""

from __future__ import annotations

from PIL import Image, ImageChops, ImageDraw, ImageFont

from render import glyphs
from render.memo import RegionCache, square_runs, union, whole
from render.palette import BACKDROP, PAPER
from render.panel import Column, Panel, Row, render_panel
from render.panel_memo import PANEL_REGIONS, draw_panel_cached
from render.text import draw_text, font, font_path, recording_text


def same(a: Image.Image, b: Image.Image) -> bool:
    return a.size == b.size and ImageChops.difference(a, b).getbbox() is None


def test_a_kept_region_pastes_the_pixels_its_drawing_made() -> None:
    cache = RegionCache(4)
    drawn = Image.new("RGB", (60, 40), BACKDROP)
    calls: list[str] = []

    def paint(image: Image.Image) -> None:
        calls.append("paint")
        ImageDraw.Draw(image).ellipse((10.5, 5.5, 40.2, 30.7), fill=PAPER, outline=(200, 0, 0))

    region = whole((10.5, 5.5, 40.2, 30.7))
    cache.draw(drawn, region, "disc", lambda: paint(drawn))
    pasted = Image.new("RGB", (60, 40), BACKDROP)
    cache.draw(pasted, region, "disc", lambda: paint(pasted))
    assert calls == ["paint"]  # the second came from the cache
    assert same(drawn, pasted)
    cache.draw(pasted, region, "another disc", lambda: paint(pasted))
    assert calls == ["paint", "paint"]  # another key, drawn again


def test_behind_puts_what_lies_under_in_the_key() -> None:
    cache = RegionCache(4)
    calls: list[int] = []
    for ground in ((0, 0, 0), (9, 9, 9), (0, 0, 0)):
        image = Image.new("RGB", (20, 20), ground)
        cache.draw(image, (0, 0, 20, 20), "ring", lambda: calls.append(1), behind=True)
    assert len(calls) == 2  # the third ground is the first one's


def test_region_caches_are_bounded_and_emptied_when_recording() -> None:
    cache = RegionCache(3)
    image = Image.new("RGB", (10, 10))
    for key in range(10):
        cache.draw(image, (0, 0, 5, 5), key, lambda: None)
    assert len(cache) == 3
    assert cache.get(9) is not None and cache.get(0) is None
    with recording_text():
        assert len(cache) == 0


def test_regions_helpers() -> None:
    assert whole((1.5, 2.2, 3.9, 4.0), top=10) == (1, 12, 4, 15)
    assert union([(0, 5, 3, 9), (2, 1, 8, 4)]) == (0, 1, 8, 9)
    assert square_runs([0, 1, 2, 4, 5, 6], 3) == [(0, 1, 2), (4, 5), (6,)]


def test_kept_glyph_masks_draw_what_freetype_draws() -> None:
    plain = ImageFont.truetype(str(font_path(0, True)), 23)
    for xy, anchor in (((10.0, 20.0), "la"), ((10.37, 20.5), "mm"), ((10.37, 20.5), "mm")):
        ours = Image.new("RGB", (200, 60), BACKDROP)
        ImageDraw.Draw(ours).text(xy, "Chloé 12", font=font(23, True), fill=PAPER, anchor=anchor)
        theirs = Image.new("RGB", (200, 60), BACKDROP)
        ImageDraw.Draw(theirs).text(xy, "Chloé 12", font=plain, fill=PAPER, anchor=anchor)
        assert same(ours, theirs)


def test_glyph_masks_are_kept_per_text_and_sub_pixel_offset() -> None:
    draw = ImageDraw.Draw(Image.new("RGB", (200, 60)))
    for text in ("Bob", "Bobby"):
        draw_text(draw, (0, 0), text, 20, PAPER, bold=True)  # its characters checked once
    glyphs.MASKS.cache_clear()
    draw_text(draw, (10, 10), "Bob", 20, PAPER)
    kept = len(glyphs.MASKS)
    draw_text(draw, (50, 30), "Bob", 20, PAPER)  # same offset and ink: kept
    assert len(glyphs.MASKS) == kept
    draw_text(draw, (50.5, 30), "Bob", 20, PAPER)
    draw_text(draw, (50, 30), "Bobby", 20, PAPER)
    draw_text(draw, (50, 30), "Bob", 20, PAPER, bold=True)
    assert len(glyphs.MASKS) == kept + 3
    with recording_text():
        assert len(glyphs.MASKS) == 0


def panel(scores: tuple[int, int], acting: int) -> Panel:
    return Panel(
        status="Round 3",
        columns=(Column("Score"), Column("Camels")),
        rows=(
            Row((str(scores[0]), "4"), seat=0, name="Alice"),
            Row((str(scores[1]), "2"), seat=1, name="محمد بن عبد الله", tag="bot"),
            Row(("", "9"), name="Supply"),
        ),
        acting=(acting,),
    )


def test_the_cached_panel_is_the_panel_drawn_and_lists_its_texts() -> None:
    PANEL_REGIONS.cache_clear()
    for shown in (panel((3, 5), 0), panel((3, 5), 1), panel((4, 5), 1), panel((4, 5), 1)):
        reference = render_panel(shown, 900, "en", background=BACKDROP)
        cached = Image.new("RGB", reference.size, BACKDROP)
        draw_panel_cached(cached, shown, "en", top=0)
        assert same(cached, reference)
    with recording_text() as texts:
        draw_panel_cached(Image.new("RGB", reference.size, BACKDROP), shown, "en", top=0)
    listed = {text.text for text in texts}
    assert {"Round 3", "Score", "Camels", "Alice", "4", "9", "Supply"} <= listed
