"""Anti-aliased sprites: draw big, shrink, paste centred."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

from render.palette import RGBA
from render.shapes import Point


def supersampled(
    size: tuple[int, int],
    paint: Callable[[ImageDraw.ImageDraw, float], None],
    scale: int = 4,
    background: RGBA = (0, 0, 0, 0),
) -> Image.Image:
    """An anti-aliased RGBA image: ``paint(draw, k)`` draws at k times the size.

    Pillow's primitives are not anti-aliased; drawing big and shrinking is.
    """
    big = Image.new("RGBA", (size[0] * scale, size[1] * scale), background)
    paint(ImageDraw.Draw(big), float(scale))
    return big.resize(size, Image.Resampling.BOX)


def scaled(points: Sequence[Point], k: float) -> list[Point]:
    """``points`` multiplied by ``k`` (to paint them on a supersampled canvas)."""
    return [(x * k, y * k) for x, y in points]


def paste_centred(base: Image.Image, sprite: Image.Image, centre: Point) -> None:
    """Alpha-blend ``sprite`` onto ``base`` centred at ``centre``."""
    x = round(centre[0] - sprite.width / 2)
    y = round(centre[1] - sprite.height / 2)
    base.paste(sprite, (x, y), sprite)
