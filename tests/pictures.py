"""Reading the pictures the games draw: PNG bytes back to an image, a pixel's colour."""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from render.palette import RGB


def decode(png: bytes) -> Image.Image:
    """The image of ``png`` (which must be a PNG), in RGB."""
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    return image.convert("RGB")


def pixel(image: Image.Image, xy: tuple[float, float]) -> RGB:
    """The colour at ``xy``, rounded to the nearest pixel."""
    value = image.getpixel((round(xy[0]), round(xy[1])))
    assert isinstance(value, tuple)
    return value[0], value[1], value[2]


def near(a: Sequence[int], b: Sequence[int], tolerance: int = 10) -> bool:
    """Whether two colours differ by ``tolerance`` at most in each of R, G and B."""
    return max(abs(x - y) for x, y in zip(a[:3], b[:3], strict=True)) <= tolerance
