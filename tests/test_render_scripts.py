"""Every player's name is drawn: CJK, Arabic and Hebrew (right to left,
shaped), Cyrillic, Greek and accented Latin, with fonts the project's own
packages bring, never the host's. Real Pillow, real fonts."""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw, ImageFont, ImageStat

from bot import registry
from games.contract import bot_move
from games.desert.engine import GAME as DESERT
from games.desert.picture import render_desert_image
from render.chart import score_chart
from render.text import (
    ARABIC_FACE,
    FACES,
    _reverse,
    display_name,
    display_names,
    draw_text,
    face_font,
    fit_text,
    font,
    font_path,
    printable,
    recording_text,
    shape_arabic,
    stamp_text,
    text_runs,
    text_width,
)

NAMES = ["李雷", "さくら", "김민준", "سعيد", "שלום", "Ωmega", "Жанна", "Zoë", "Ünal Çelik"]
SAID = "سعيد"
WHITE = (255, 255, 255)
SIZE = 24


def drawn(text: str, *, anchor: str = "lm", x: float = 10, bold: bool = False) -> Image.Image:
    """``text`` drawn white on black, 400 x 50."""
    image = Image.new("RGB", (400, 50))
    draw_text(ImageDraw.Draw(image), (x, 25), text, SIZE, WHITE, anchor=anchor, bold=bold)
    return image


def ink(image: Image.Image) -> float:
    """How much ink: the sum of the grey levels."""
    return float(ImageStat.Stat(image.convert("L")).sum[0])


# --------------------------------------------------------------------------- printable


@pytest.mark.parametrize("name", NAMES)
def test_every_script_is_printable_and_kept_as_the_name(name: str) -> None:
    whole = unicodedata.normalize("NFC", name)
    assert printable(name) == whole
    assert display_name(name, 0, "en") == whole  # no "Player 1"
    assert display_names([name, "🐪"], 2, "fr") == [whole, "Joueur 2"]


def test_decomposed_hangul_and_kana_are_composed() -> None:
    jamo = unicodedata.normalize("NFD", "김민준")
    assert len(jamo) > 3 and printable(jamo) == "김민준"
    assert printable("か\u3099") == "が"  # kana and its combining voiced mark


def test_an_emoji_only_name_still_falls_back() -> None:
    assert display_name("🐪🌵", 3, "en") == "Player 4"
    assert display_name("❤️", 0, "en") == "Player 1"
    assert display_name("李雷 🐪", 0, "en") == "李雷"
    assert printable("🐪 سعيد 🌵 علي") == "سعيد علي"


# --------------------------------------------------------------------------- drawing


@pytest.mark.parametrize("name", NAMES)
def test_every_script_is_drawn(name: str) -> None:
    image = drawn(name)
    assert image.getbbox() is not None
    assert image.tobytes() != drawn("Player 1").tobytes()
    assert image.tobytes() != drawn("").tobytes()
    assert drawn("").getbbox() is None


@pytest.mark.parametrize("name", NAMES)
def test_measuring_matches_drawing(name: str) -> None:
    """The ink lies within the measured width, whatever the anchor."""
    width = text_width(name, SIZE)
    assert width > SIZE  # two letters at least
    slack = 3  # ink may overhang its advance a little
    for anchor, left in (("lm", 10.0), ("mm", 200 - width / 2), ("rm", 390 - width)):
        x = {"l": 10, "m": 200, "r": 390}[anchor[0]]
        box = drawn(name, anchor=anchor, x=x).getbbox()
        assert box is not None
        assert left - slack <= box[0] and box[2] <= left + width + slack, (anchor, box)
        assert box[2] - box[0] >= width * 0.7  # the ink spans most of it
        assert box[1] > 0 and box[3] < 50  # vertically inside the line
    image = Image.new("RGB", (400, 50))
    assert draw_text(ImageDraw.Draw(image), (10, 25), name, SIZE, WHITE) == width


def test_a_name_of_mixed_scripts_is_drawn_in_runs() -> None:
    assert text_runs("Zoë 李雷") == [
        ("Zoë ", "Source Sans Pro", "ltr"),
        ("李雷", "Noto Sans CJK JP", "ltr"),
    ]
    assert text_runs("Ünal Çelik") == [("Ünal Çelik", "Source Sans Pro", "ltr")]
    width = text_width("Zoë 李雷", SIZE)
    parts = text_width("Zoë", SIZE) + font(SIZE).getlength(" ") + text_width("李雷", SIZE)
    assert width == pytest.approx(parts, abs=1)
    # the Latin part is drawn exactly as on its own
    mixed, alone = drawn("Zoë 李雷", anchor="lm"), drawn("Zoë", anchor="lm")
    latin = (0, 0, 10 + round(text_width("Zoë", SIZE)), 50)
    assert mixed.crop(latin).tobytes() == alone.crop(latin).tobytes()


def test_fit_text_cuts_a_cjk_name_to_its_room() -> None:
    name = "李雷" * 20
    cut = fit_text(name, SIZE, 150)
    assert cut.endswith("…") and cut.startswith("李雷李")
    assert text_width(cut, SIZE) <= 150 < text_width(cut[:-1] + "李…", SIZE)
    cut = fit_text("سعيد " * 10, SIZE, 150, bold=True)
    assert cut.endswith("…") and text_width(cut, SIZE, bold=True) <= 150


def test_bold_is_drawn_heavier_in_every_script() -> None:
    for name in ("李雷", "김민준", SAID, "שלום", "Жанна"):
        assert ink(drawn(name, bold=True)) > ink(drawn(name)) * 1.1, name


def test_a_stamp_draws_what_draw_text_draws() -> None:
    for name in ("李雷", SAID, "Zoë 李雷"):
        for outline in (None, (0, 0, 255)):
            direct = Image.new("RGB", (300, 60), (40, 80, 40))
            stamped = direct.copy()
            at = (150, 30)
            draw = ImageDraw.Draw(direct)
            draw_text(draw, at, name, SIZE, WHITE, anchor="mm", outline=outline, outline_width=2)
            stamp_text(
                stamped, at, name, SIZE, WHITE, anchor="mm", outline=outline, outline_width=2
            )
            difference = ImageChops.difference(direct, stamped).convert("L")
            assert ImageStat.Stat(difference).extrema[0][1] <= 2, (name, outline)


# --------------------------------------------------------------------------- right to left


def test_arabic_letters_are_joined() -> None:
    """Shaped, "سعيد" is one joined word, far narrower than its four letters
    drawn apart in their isolated forms, and not the same picture."""
    assert text_width(SAID, SIZE) < 0.8 * sum(text_width(ch, SIZE) for ch in SAID)
    apart = Image.new("RGB", (400, 50))
    x = 10.0
    for ch in reversed(SAID):  # right to left: the last letter leftmost
        x += draw_text(ImageDraw.Draw(apart), (x, 25), ch, SIZE, WHITE, anchor="lm")
    joined = drawn(SAID)
    assert joined.tobytes() != apart.tobytes()
    joined_box, apart_box = joined.getbbox(), apart.getbbox()
    assert joined_box is not None and apart_box is not None
    assert joined_box[2] - joined_box[0] < 0.8 * (apart_box[2] - apart_box[0])


def test_right_to_left_text_reads_from_the_right() -> None:
    """The first word of an Arabic (or Hebrew) name is its rightmost: the
    right end of "سعيد علي" is drawn exactly as "سعيد" alone; and a
    right-aligned Arabic name's ink ends at the anchor."""
    for first, whole in ((SAID, SAID + " علي"), ("שלום", "שלום עולם")):
        assert text_runs(whole)[-1][0] == first
        both, alone = drawn(whole, anchor="rm", x=390), drawn(first, anchor="rm", x=390)
        right = (390 - round(text_width(first, SIZE)) + 2, 0, 400, 50)
        assert both.crop(right).tobytes() == alone.crop(right).tobytes()
        assert both.tobytes() != alone.tobytes()  # the second word is on the left
        box = alone.getbbox()
        assert box is not None and 386 <= box[2] <= 392


def test_digits_in_an_arabic_name_stay_left_to_right_on_its_left() -> None:
    assert text_runs(SAID + " 42") == [
        ("42", "Source Sans Pro", "ltr"),
        (" ", "Source Sans Pro", "rtl"),
        (SAID, "Noto Sans Arabic", "rtl"),
    ]
    assert text_runs("Zoë سعيد") == [
        ("Zoë ", "Source Sans Pro", "ltr"),
        (SAID, "Noto Sans Arabic", "rtl"),
    ]
    (first, *_, last) = text_runs("محمد (Mo)")
    assert first == (")", "Source Sans Pro", "rtl") and last[0] == "محمد"


def test_without_raqm_arabic_is_shaped_by_hand() -> None:
    """Where the host has no FriBiDi (so Pillow no Raqm), Arabic is drawn from
    its presentation forms in visual order: joined like HarfBuzz joins it."""
    assert shape_arabic(SAID) == "\ufeb3\ufecc\ufef4\ufeaa"  # initial, medial, medial, final
    assert shape_arabic("لا") == "\ufefb"  # lam-alef ligature
    assert shape_arabic("دار") == "\ufea9\ufe8d\ufead"  # dal and alef never join on
    assert shape_arabic("بار") == "\ufe91\ufe8e\ufead"  # but alef joins ba before it
    assert _reverse("ab(c") == "c)ba"
    size = 40
    path = str(font_path(ARABIC_FACE))
    basic = ImageFont.truetype(path, size, layout_engine=ImageFont.Layout.BASIC)
    shaped = basic.getlength(_reverse(shape_arabic(SAID)))
    isolated = basic.getlength(_reverse(SAID))
    raqm = text_width(SAID, size)  # as drawn here: by HarfBuzz where Pillow has Raqm
    assert shaped == pytest.approx(raqm, rel=0.1) and isolated > 1.3 * shaped


# --------------------------------------------------------------------------- fonts


def test_fonts_come_from_the_projects_packages() -> None:
    for face, spec in enumerate(FACES):
        package = Path(str(resources.files(spec.package))).resolve()
        for bold in (False, True):
            path = font_path(face, bold).resolve()
            assert path.is_relative_to(package) and path.is_file()
            assert not path.is_relative_to("/usr/share/fonts")
            loaded = face_font(face, SIZE, bold)
            assert Path(str(loaded.path)).resolve() == path
    assert font(SIZE).getname() == ("Source Sans Pro", "Regular")
    assert [face_font(face, SIZE).getname()[0] for face in range(len(FACES))] == [
        spec.name for spec in FACES
    ]


def test_fallback_fonts_load_only_when_a_name_needs_them() -> None:
    code = """
from PIL import Image, ImageDraw
from render import text
draw = ImageDraw.Draw(Image.new("RGB", (300, 40)))
text.draw_text(draw, (5, 20), "Ünal Çelik Ωmega Жанна", 24, (255, 255, 255))
print(text._fallback.cache_info().currsize, text._probe.cache_info().currsize)
text.draw_text(draw, (5, 20), "李雷", 24, (255, 255, 255))
print(text._fallback.cache_info().currsize, text._probe.cache_info().currsize)
"""
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=root, capture_output=True, text=True, check=True
    ).stdout.split("\n")
    assert out[:2] == ["0 1", "1 2"]  # then the CJK font only, at one size


# --------------------------------------------------------------------------- on a board


def test_a_board_draws_cjk_and_arabic_names() -> None:
    view = DESERT.view(DESERT.new(2, 5), None)
    with recording_text() as texts:
        named = render_desert_image(view, ["李雷", SAID])
    stand_ins = render_desert_image(view, ["Player 1", "Player 2"])
    assert named.tobytes() != stand_ins.tobytes()
    shown = {t.text for t in texts}
    assert "李雷" in shown and SAID in shown
    assert not {"Player 1", "Player 2"} & shown


# --------------------------------------------------------------------------- every game


WORLD = ["李雷", SAID, "Жанна", "Ωmega", "Zoë"]


def mid_game_view(kind: str) -> tuple[Any, int]:
    """A public view some twenty bot moves into a game of ``kind``, and its seats."""
    spec = registry.load(registry.GAMES)[kind]
    game = spec.engine
    players = min(game.max_players, 4)
    state = game.new(players, 7)
    for number in range(20):
        acting = game.to_act(state)
        if not acting:
            break
        seat = acting[0]
        state = game.play(state, seat, bot_move(game, spec.bot, state, seat, number)).state
    return game.view(state, None), players


@pytest.mark.parametrize("kind", list(registry.load(registry.GAMES)))
def test_every_games_board_draws_names_in_every_script(kind: str) -> None:
    """Each game's board draws CJK, Arabic, Cyrillic and Greek names as they
    are, where stand-ins ("Player N") used to be."""
    picture = registry.load(registry.GAMES)[kind].load_picture()
    view, players = mid_game_view(kind)
    names = WORLD[:players]
    with recording_text() as texts:
        named = picture.board(view, names, "en")
    shown = {t.text for t in texts}
    assert all(any(name in text for text in shown) for name in names), (names, shown)
    assert not any(text.startswith("Player ") for text in shown)
    stand_ins = picture.board(view, [f"Player {n + 1}" for n in range(players)], "en")
    assert named != stand_ins


def test_the_score_chart_draws_names_in_every_script() -> None:
    series = [[0, 3, 5], [0, 2, 7], [0, 1, 1], [0, 4, 4]]
    with recording_text() as texts:
        named = score_chart(series, WORLD[:4], "en", title="Scores", x_label="Turn")
    shown = {t.text for t in texts}
    assert set(WORLD[:4]) <= shown
    stand_ins = score_chart(
        series, [f"Player {n}" for n in range(1, 5)], "en", title="Scores", x_label="Turn"
    )
    assert named != stand_ins
