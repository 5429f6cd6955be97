"""The replay GIF: which frames are kept, how they are timed, shrunk and fitted
under Discord's attachment limit. The frames are drawn here with Pillow
(coloured cells, a moving token, a line of text), not by a game."""

from __future__ import annotations

import io
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image, ImageDraw
from PIL.GifImagePlugin import GifImageFile

from render.palette import BACKDROP, GOLD, PAPER, PLAYER_STYLES
from render.png import png_bytes
from render.replay import MAX_BYTES, MIN_WIDTH, animate, sample_indices
from render.text import font

CELL = 50  # px of a board cell
SIZE = (600, 450)  # px of a test board: 12 x 9 cells


# --------------------------------------------------------------------------- frames


@cache
def board(move: int, size: tuple[int, int] = SIZE) -> bytes:
    """A board as PNG: seat-coloured cells, the gold token in column ``move`` of
    the top row (left free), more cells filled as the game goes, and a caption."""
    image = Image.new("RGB", size, BACKDROP)
    draw = ImageDraw.Draw(image)
    columns, rows = size[0] // CELL, size[1] // CELL
    for row in range(1, rows):
        for column in range(columns):
            if (row * 7 + column * 3) % 11 <= move % 11:
                colour = PLAYER_STYLES[(row + column) % len(PLAYER_STYLES)].colour
                box = (
                    column * CELL + 3,
                    row * CELL + 3,
                    column * CELL + CELL - 3,
                    row * CELL + CELL - 3,
                )
                draw.rounded_rectangle(box, radius=8, fill=colour, outline=PAPER, width=2)
    x = (move % columns) * CELL + CELL // 2
    draw.ellipse((x - 20, 5, x + 20, 45), fill=GOLD)
    draw.text((10, size[1] - 40), f"Move {move}: camel to F{move}", fill=PAPER, font=font(28))
    return png_bytes(image)


def game(moves: int, size: tuple[int, int] = SIZE) -> list[bytes]:
    return [board(move, size) for move in range(moves)]


def opened(gif: bytes) -> GifImageFile:
    image = Image.open(io.BytesIO(gif))
    assert isinstance(image, GifImageFile)
    return image


def frames_of(gif: bytes) -> list[Image.Image]:
    image = opened(gif)
    shown = []
    for k in range(image.n_frames):
        image.seek(k)
        shown.append(image.convert("RGB"))
    return shown


def durations(gif: bytes) -> list[int]:
    image = opened(gif)
    out = []
    for k in range(image.n_frames):
        image.seek(k)
        out.append(image.info["duration"])
    return out


def close(a: tuple[int, ...] | float | None, b: tuple[int, ...], tolerance: int = 12) -> bool:
    assert isinstance(a, tuple)
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=False))


def token_column(frame: Image.Image, width: int = SIZE[0]) -> int:
    """The column of the gold token in the top row of a shown frame (of a board
    ``width`` px wide)."""
    k = frame.width / width
    columns = [
        column
        for column in range(width // CELL)
        if close(frame.getpixel((round((column + 0.5) * CELL * k), round(25 * k))), GOLD)
    ]
    assert len(columns) == 1, columns
    return columns[0]


# --------------------------------------------------------------------------- sampling


@given(st.integers(0, 400), st.integers(0, 500))
def test_every_frame_is_kept_when_they_fit(count: int, spare: int) -> None:
    assert sample_indices(count, count + spare) == list(range(count))


@given(st.integers(2, 400), st.integers(1, 5000))
def test_kept_frames_are_spread_from_first_to_last(limit: int, more: int) -> None:
    count = limit + more
    kept = sample_indices(count, limit)
    assert len(kept) == limit
    assert kept[0] == 0 and kept[-1] == count - 1
    assert all(a < b for a, b in zip(kept, kept[1:], strict=False))  # increasing, no duplicate
    gaps = {b - a for a, b in zip(kept, kept[1:], strict=False)}
    assert max(gaps) - min(gaps) <= 1  # evenly spread
    ideal = (count - 1) / (limit - 1)
    assert all(abs(index - i * ideal) <= 0.5 + 1e-9 for i, index in enumerate(kept))


def test_sampling_examples() -> None:
    assert sample_indices(0, 60) == []
    assert sample_indices(1, 1) == [0]
    assert sample_indices(10, 4) == [0, 3, 6, 9]
    assert sample_indices(300, 2) == [0, 299]
    assert sample_indices(7, 6) == [0, 1, 2, 4, 5, 6]


def test_first_and_last_cannot_fit_in_one_frame() -> None:
    with pytest.raises(ValueError):
        sample_indices(5, 1)


# --------------------------------------------------------------------------- the GIF


def test_the_gif_loops_over_the_sampled_frames_shrunk_and_timed() -> None:
    frames = game(12)
    gif = animate(frames, limit=5, width=300)
    assert len(gif) <= MAX_BYTES
    image = opened(gif)
    assert image.n_frames == 5
    assert image.size == (300, 225)  # aspect ratio kept
    assert image.info["loop"] == 0  # forever
    assert durations(gif) == [700, 700, 700, 700, 4000]
    # the frames shown are the sampled ones, in order: the token's column tells which
    kept = sample_indices(12, 5)
    assert [token_column(frame) for frame in frames_of(gif)] == kept == [0, 3, 6, 8, 11]


def test_all_frames_when_they_fit_and_custom_timings() -> None:
    gif = animate(game(6), limit=60, width=240, frame_ms=250, last_ms=1500)
    assert durations(gif) == [250] * 5 + [1500]
    assert [token_column(frame) for frame in frames_of(gif)] == list(range(6))


def test_frames_are_never_enlarged() -> None:
    gif = animate(game(3), width=2000)
    assert opened(gif).size == SIZE
    assert opened(animate(game(3))).size == SIZE  # the default 800 px: smaller boards stay


def test_colours_stay_faithful() -> None:
    """One palette for the whole replay, adapted to the boards: flat colours come out
    (nearly) as they went in, on the first frame and on the last."""
    frames = game(11)
    shown = frames_of(animate(frames, width=SIZE[0]))
    for source, frame in ((frames[0], shown[0]), (frames[-1], shown[-1])):
        board_image = Image.open(io.BytesIO(source)).convert("RGB")
        for row in range(1, SIZE[1] // CELL):
            for column in range(SIZE[0] // CELL):
                centre = (column * CELL + CELL // 2, row * CELL + CELL // 2)
                want = board_image.getpixel(centre)
                assert isinstance(want, tuple)
                assert close(frame.getpixel(centre), want, tolerance=6), (centre, want)


def test_a_small_byte_limit_gives_fewer_frames_or_a_narrower_gif() -> None:
    frames = game(14, (800, 600))
    full = animate(frames, limit=14, width=800)
    assert opened(full).n_frames == 14
    assert opened(full).width == 800
    limit = len(full) // 3
    small = animate(frames, limit=14, width=800, max_bytes=limit)
    assert len(small) <= limit
    image = opened(small)
    assert image.n_frames < 14 or image.width < 800
    assert image.n_frames >= 2 and image.width >= MIN_WIDTH
    shown = frames_of(small)
    assert token_column(shown[0], 800) == 0  # the first board
    assert token_column(shown[-1], 800) == 13  # the last one
    assert durations(small)[-1] == 4000


def test_too_small_a_byte_limit_is_an_error() -> None:
    with pytest.raises(ValueError):
        animate(game(4), max_bytes=500)


def test_bad_arguments_are_errors() -> None:
    with pytest.raises(ValueError):
        animate([])
    with pytest.raises(ValueError):
        animate(game(3), limit=1)


def test_one_frame() -> None:
    gif = animate(game(1), width=300)
    image = opened(gif)
    assert image.n_frames == 1
    assert image.size == (300, 225)


def test_frames_of_other_sizes_are_letterboxed_on_the_first_ones_size() -> None:
    small = board(1, (300, 200))  # smaller: centred as is, backdrop around
    large = board(2, (900, 900))  # larger: shrunk to fit the height, centred
    gif = animate([board(0), small, large, board(3)], width=SIZE[0])
    image = opened(gif)
    assert image.n_frames == 4
    assert image.size == SIZE
    first, padded, fitted, last = frames_of(gif)
    assert token_column(first) == 0 and token_column(last) == 3
    # the small board sits in the middle, with the backdrop around it
    left, top = (SIZE[0] - 300) // 2, (SIZE[1] - 200) // 2
    for corner in ((5, 5), (SIZE[0] - 5, SIZE[1] - 5), (left - 5, top - 5)):
        assert close(padded.getpixel(corner), BACKDROP, 4), corner
    assert close(padded.getpixel((left + CELL + CELL // 2, top + 25)), GOLD)  # its token
    # the large one is shrunk to 450 x 450, centred: backdrop left and right only
    k, side = SIZE[1] / 900, (SIZE[0] - SIZE[1]) // 2
    assert close(fitted.getpixel((side // 2, SIZE[1] // 2)), BACKDROP, 4)
    assert close(fitted.getpixel((SIZE[0] - side // 2, SIZE[1] // 2)), BACKDROP, 4)
    token = (side + round((2 * CELL + CELL // 2) * k), round(25 * k))
    assert close(fitted.getpixel(token), GOLD)


def test_transparent_frames_show_on_the_backdrop() -> None:
    clear = Image.new("RGBA", SIZE, (0, 0, 0, 0))
    ImageDraw.Draw(clear).ellipse((100, 100, 200, 200), fill=(*GOLD, 255))
    out = io.BytesIO()
    clear.save(out, format="PNG")
    frame = frames_of(animate([out.getvalue(), board(0)], width=SIZE[0]))[0]
    assert close(frame.getpixel((10, 10)), BACKDROP, 4)
    assert close(frame.getpixel((150, 150)), GOLD)
