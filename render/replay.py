"""A finished game as an animated GIF, from its board images.

:func:`animate` takes the PNG boards of a game in order, keeps at most
``limit`` of them (evenly spread, always the first and the last:
:func:`sample_indices`), shrinks them to ``width`` px and writes a looping
GIF that stays under Discord's attachment limit (:data:`MAX_BYTES`),
retrying with fewer frames and a smaller width when it does not.

Why it is small and fast:

- one adaptive palette (fast octree, 255 colours, no dithering) is built
  from a few frames spread over the game and shared by every frame, so an
  unchanged pixel keeps its palette index from one frame to the next and
  the colours never flicker; Pillow's writer then stores each frame as the
  box that changed, its unchanged pixels made transparent (the 256th
  index), which compresses far better (about 3x smaller than a palette
  per frame, and closer to the boards' colours);
- frames are shrunk with the Hamming filter: as sharp as Lanczos on boards
  and text at these ratios (1.2x to 4x), at half the cost.

Consecutive frames that are exactly alike are stored once by Pillow's
writer, shown for their added durations.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence

from PIL import Image

from render.palette import BACKDROP

MAX_BYTES = 8 * 1024 * 1024 - 64 * 1024  # under Discord's 8 MiB attachment limit with margin
MIN_WIDTH = 320  # px: the narrowest replay tried before giving up
PALETTE_FRAMES = 4  # frames spread over the game that the shared palette is built from
COLOURS = 255  # palette size, leaving one index free for the writer's transparency
RESAMPLE = Image.Resampling.HAMMING
SAFETY = 1.1  # shrink a little more than the size ratio asks, to fit on the next try
FRAME_POWER = 0.5  # the GIF's size grows about as frames ** FRAME_POWER…
WIDTH_POWER = 1.5  # …times width ** WIDTH_POWER


def sample_indices(count: int, limit: int) -> list[int]:
    """Which of ``count`` frames to keep when at most ``limit`` fit: evenly spread,
    always the first and the last, increasing, no duplicates; all of them if
    ``count <= limit``.

    Raises ValueError if ``count`` frames must be cut to fewer than 2 (``limit < 2``).
    """
    if count < 0:
        raise ValueError(f"negative frame count {count}")
    if count <= limit:
        return list(range(count))
    if limit < 2:
        raise ValueError(f"cannot keep the first and the last of {count} frames in {limit}")
    # round(i * (count - 1) / (limit - 1)) in integers: the step is > 1, so no two are equal
    span, steps = count - 1, limit - 1
    return [(2 * i * span + steps) // (2 * steps) for i in range(limit)]


def animate(
    frames: Sequence[bytes],
    *,
    limit: int = 60,
    width: int = 800,
    frame_ms: int = 700,
    last_ms: int = 4000,
    max_bytes: int = MAX_BYTES,
) -> bytes:
    """GIF bytes replaying ``frames`` (PNG bytes, in order), looping forever.

    At most ``limit`` frames are kept (:func:`sample_indices`), shrunk to
    ``width`` px wide (aspect ratio kept, never enlarged), each shown
    ``frame_ms`` and the last ``last_ms`` (GIF counts in steps of 10 ms).
    A frame whose size differs from the first one's is shrunk to fit if
    larger and centred on the first frame's size, on the
    :data:`~render.palette.BACKDROP` colour.

    If the GIF exceeds ``max_bytes``, it is made again with fewer frames
    and/or a smaller width until it fits; ValueError if even 2 frames (1 if
    there is only one) :data:`MIN_WIDTH` px wide (or narrower, if asked or
    if the boards are) do not fit, if ``frames`` is empty, or if ``limit``
    is below 2 for several frames.
    """
    if not frames:
        raise ValueError("no frames to animate")
    least_frames = min(2, len(frames))
    if limit < least_frames or width < 1:
        raise ValueError(f"cannot show {len(frames)} frames with limit {limit}, width {width}")
    with Image.open(io.BytesIO(frames[0])) as first:
        canvas = first.size
    width = min(width, canvas[0])
    least_width = min(MIN_WIDTH, width)
    count = min(limit, len(frames))
    while True:
        gif = _gif(frames, sample_indices(len(frames), count), canvas, width, frame_ms, last_ms)
        if len(gif) <= max_bytes:
            return gif
        if count <= least_frames and width <= least_width:
            raise ValueError(
                f"a replay of {count} frame(s) {width} px wide takes {len(gif)} bytes,"
                f" over the {max_bytes} allowed"
            )
        count, width = _smaller(count, width, len(gif) / max_bytes, least_frames, least_width)


def _smaller(
    count: int, width: int, ratio: float, least_count: int, least_width: int
) -> tuple[int, int]:
    """Fewer frames and/or a narrower width, for a GIF ``ratio`` times too big.

    Measured on real games, the size grows about as frames ** FRAME_POWER x
    width ** WIDTH_POWER (the first frame is whole, the others only their
    changes, which grow as frames are spread further apart): half of the cut
    (in log) comes from each, and what a floor keeps one from giving comes
    from the other. Always strictly smaller than ``(count, width)`` somewhere.
    """
    cut = max(ratio, 1.0) * SAFETY
    half = math.sqrt(cut)  # the factor asked of the frames, and of the width
    new_count = max(least_count, math.floor(count / half ** (1 / FRAME_POWER)))
    left = cut / (count / new_count) ** FRAME_POWER  # what fewer frames do not give
    new_width = max(least_width, math.floor(width / left ** (1 / WIDTH_POWER)))
    if new_width == least_width:  # the width is at its floor: the rest from the frames
        left = cut / (width / new_width) ** WIDTH_POWER
        new_count = max(least_count, math.floor(count / left ** (1 / FRAME_POWER)))
    if (new_count, new_width) == (count, width):
        if width > least_width:
            new_width = max(least_width, width - 16)
        else:
            new_count = count - 1
    return new_count, new_width


# --------------------------------------------------------------------------- frames


def _decoded(png: bytes) -> Image.Image:
    """The image as RGB, any transparency shown over the backdrop."""
    with Image.open(io.BytesIO(png)) as image:
        image.load()
        if image.mode in ("RGBA", "LA", "PA") or "transparency" in image.info:
            rgba = image.convert("RGBA")
            flat = Image.new("RGBA", rgba.size, (*BACKDROP, 255))
            flat.alpha_composite(rgba)
            return flat.convert("RGB")
        return image.convert("RGB") if image.mode != "RGB" else image.copy()


def _on_canvas(image: Image.Image, canvas: tuple[int, int]) -> Image.Image:
    """``image`` at the first frame's size: shrunk to fit if larger, centred on the backdrop."""
    if image.size == canvas:
        return image
    k = min(1.0, canvas[0] / image.width, canvas[1] / image.height)
    if k < 1.0:
        size = (max(1, round(image.width * k)), max(1, round(image.height * k)))
        image = image.resize(size, RESAMPLE)
    out = Image.new("RGB", canvas, BACKDROP)
    out.paste(image, ((canvas[0] - image.width) // 2, (canvas[1] - image.height) // 2))
    return out


def _source(frames: Sequence[bytes], index: int, canvas: tuple[int, int]) -> Image.Image:
    return _on_canvas(_decoded(frames[index]), canvas)


def _output_size(canvas: tuple[int, int], width: int) -> tuple[int, int]:
    return width, max(1, round(canvas[1] * width / canvas[0]))


def _shrunk(image: Image.Image, size: tuple[int, int]) -> Image.Image:
    return image if image.size == size else image.resize(size, RESAMPLE)


def _palette(frames: Sequence[Image.Image]) -> Image.Image:
    """A 255-colour adaptive palette for all of ``frames`` (stacked), as a "P" image."""
    w = frames[0].width
    sheet = Image.new("RGB", (w, sum(f.height for f in frames)))
    y = 0
    for f in frames:
        sheet.paste(f, (0, y))
        y += f.height
    return sheet.quantize(COLOURS, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _gif(
    frames: Sequence[bytes],
    indices: Sequence[int],
    canvas: tuple[int, int],
    width: int,
    frame_ms: int,
    last_ms: int,
) -> bytes:
    size = _output_size(canvas, width)
    picks = [indices[k] for k in sample_indices(len(indices), PALETTE_FRAMES)]
    palette = _palette([_shrunk(_source(frames, i, canvas), size) for i in picks])

    def shown(index: int) -> Image.Image:
        small = _shrunk(_source(frames, index, canvas), size)
        return small.quantize(palette=palette, dither=Image.Dither.NONE)

    out = io.BytesIO()
    shown(indices[0]).save(
        out,
        format="GIF",
        save_all=True,
        append_images=(shown(i) for i in indices[1:]),  # made as written: less memory
        duration=[frame_ms] * (len(indices) - 1) + [last_ms],
        loop=0,
        optimize=True,
        disposal=1,
    )
    return out.getvalue()
