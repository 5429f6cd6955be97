"""PNG encoding for Discord: small and fast."""

from __future__ import annotations

import io

from PIL import Image

MAX_PNG_BYTES = 400 * 1024


def png_bytes(image: Image.Image, *, palette: bool = True) -> bytes:
    """Encode as PNG for Discord: small and fast.

    Boards are flat colours plus anti-aliased edges, which a 256-colour
    palette (fast octree, no dithering) shows without visible loss while
    cutting both the size (about 2.5x) and the encode time (about 2x) of
    RGB. ``palette=False`` keeps full colour for photos or gradients; it
    falls back to the palette anyway if the result would exceed the limit.
    """
    rgb = image.convert("RGB") if image.mode != "RGB" else image
    if not palette:
        out = io.BytesIO()
        rgb.save(out, format="PNG", compress_level=3)
        if out.tell() <= MAX_PNG_BYTES:
            return out.getvalue()
    quantised = rgb.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantised.save(out, format="PNG", compress_level=3)
    return out.getvalue()
