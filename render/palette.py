"""Colours: ink and paper, blending, the interface accents and the seat styles.

Every seat has a colour from Okabe & Ito's colour-blind-safe palette *and* a
marker shape *and* a number, so no player's identity rests on hue alone.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

RGB = tuple[int, int, int]
RGBA = tuple[int, int, int, int]
Shape = Literal["circle", "square", "triangle", "diamond", "star"]

INK: RGB = (24, 20, 16)  # near-black: outlines and dark text
PAPER: RGB = (250, 246, 236)  # near-white: light text
BACKDROP: RGB = (46, 38, 31)  # dark brown behind boards and the score panel
GOLD: RGB = (255, 204, 40)  # who acts, who won, what is best
MUTED: RGB = (190, 176, 150)  # titles and secondary text on dark cards
WARN: RGB = (255, 140, 90)  # a value that needs attention (e.g. a stock running out)


def mix(a: Sequence[int], b: Sequence[int], t: float) -> RGB:
    """Linear blend: t=0 gives a, t=1 gives b."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def with_alpha(colour: Sequence[int], alpha: int) -> RGBA:
    return (colour[0], colour[1], colour[2], alpha)


@dataclass(frozen=True)
class PlayerStyle:
    """How one seat is shown: colour plus a shape and a number (never colour alone)."""

    colour: RGB
    shape: Shape
    letter: str  # the seat number as players see it

    @property
    def dark(self) -> RGB:
        return mix(self.colour, INK, 0.45)

    @property
    def light(self) -> RGB:
        return mix(self.colour, (255, 255, 255), 0.55)


# Okabe & Ito (2008) colours, in an order where neighbours stay apart for the
# common colour-vision deficiencies; shapes differ too, so no seat depends on hue.
PLAYER_STYLES: tuple[PlayerStyle, ...] = (
    PlayerStyle((0, 114, 178), "circle", "1"),  # blue
    PlayerStyle((213, 94, 0), "square", "2"),  # vermillion
    PlayerStyle((0, 158, 115), "triangle", "3"),  # bluish green
    PlayerStyle((204, 121, 167), "diamond", "4"),  # reddish purple
    PlayerStyle((86, 180, 233), "star", "5"),  # sky blue
)


def player_style(seat: int) -> PlayerStyle:
    return PLAYER_STYLES[seat % len(PLAYER_STYLES)]


# --------------------------------------------------------------------------- telling colours apart

# Colour-vision deficiencies simulated at full severity (Machado, Oliveira &
# Fernandes 2009), as matrices on linear RGB.
CVD_MATRICES: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": (
        (0.152286, 1.052583, -0.204868),
        (0.114503, 0.786281, 0.099216),
        (-0.003882, -0.048116, 1.051998),
    ),
    "deuteranopia": (
        (0.367322, 0.860646, -0.227968),
        (0.280085, 0.672501, 0.047413),
        (-0.011820, 0.042940, 0.968881),
    ),
    "tritanopia": (
        (1.255528, -0.076749, -0.178779),
        (-0.078411, 0.930809, 0.147602),
        (0.004733, 0.691367, 0.303900),
    ),
}

DISTINCT_DELTA_E = 30.0
"""CIEDE2000 difference from which two colours read as different colours, not shades."""


def _linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def _gamma(value: float) -> int:
    v = min(1.0, max(0.0, value))
    return round(255 * (v * 12.92 if v <= 0.0031308 else 1.055 * v ** (1 / 2.4) - 0.055))


def luminance(colour: Sequence[int]) -> float:
    """Relative luminance (WCAG): 0 for black, 1 for white."""
    r, g, b = (_linear(c) for c in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a: Sequence[int], b: Sequence[int]) -> float:
    """WCAG contrast ratio, 1 (same lightness) to 21 (black on white)."""
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def lab(colour: Sequence[int]) -> tuple[float, float, float]:
    """CIE L*a*b* (D65) of an sRGB colour."""
    r, g, b = (_linear(c) for c in colour[:3])
    x = (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047
    y = 0.2126 * r + 0.7152 * g + 0.0722 * b
    z = (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    fx, fy, fz = f(x), f(y), f(z)
    return 116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)


def delta_e(a: Sequence[int], b: Sequence[int]) -> float:
    """CIEDE2000 colour difference: about 2 is just noticeable, 20 and more clearly apart."""
    l1, a1, b1 = lab(a)
    l2, a2, b2 = lab(b)
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dlp, dcp = l2 - l1, c2p - c1p
    dhp = 0.0
    if c1p * c2p:
        dhp = h2p - h1p
        dhp -= 360 if dhp > 180 else -360 if dhp < -180 else 0
    dbig_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dhp / 2))
    l_bar, cp_bar = (l1 + l2) / 2, (c1p + c2p) / 2
    if not c1p * c2p:
        hp_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_bar = (h1p + h2p) / 2
    else:
        hp_bar = (h1p + h2p + (360 if h1p + h2p < 360 else -360)) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hp_bar - 30))
        + 0.24 * math.cos(math.radians(2 * hp_bar))
        + 0.32 * math.cos(math.radians(3 * hp_bar + 6))
        - 0.20 * math.cos(math.radians(4 * hp_bar - 63))
    )
    theta = 30 * math.exp(-(((hp_bar - 275) / 25) ** 2))
    rc = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    sl = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    sc = 1 + 0.045 * cp_bar
    sh = 1 + 0.015 * cp_bar * t
    rt = -math.sin(math.radians(2 * theta)) * rc
    return math.sqrt(
        (dlp / sl) ** 2 + (dcp / sc) ** 2 + (dbig_h / sh) ** 2 + rt * (dcp / sc) * (dbig_h / sh)
    )


def seen_with(colour: Sequence[int], deficiency: str) -> RGB:
    """``colour`` as someone with the named deficiency (a :data:`CVD_MATRICES` key) sees it."""
    lin = [_linear(c) for c in colour[:3]]
    m = CVD_MATRICES[deficiency]
    return (
        _gamma(sum(m[0][j] * lin[j] for j in range(3))),
        _gamma(sum(m[1][j] * lin[j] for j in range(3))),
        _gamma(sum(m[2][j] * lin[j] for j in range(3))),
    )


def worst_delta_e(a: Sequence[int], b: Sequence[int]) -> float:
    """The smallest CIEDE2000 difference of ``a`` and ``b`` over normal vision and
    the three dichromacies: how far apart they look to whoever sees them closest."""
    return min(
        delta_e(a, b),
        *(delta_e(seen_with(a, d), seen_with(b, d)) for d in CVD_MATRICES),
    )


@lru_cache(maxsize=256)
def distinct_shade(
    colour: RGB, backgrounds: tuple[RGB, ...], threshold: float = DISTINCT_DELTA_E
) -> RGB:
    """``colour``, darkened toward ink in steps of 5 % only as far as needed to
    stay distinct (:func:`delta_e` ≥ ``threshold``) from every background.

    For a seat's mark drawn on coloured pieces: the hue stays the seat's, but
    it can never be mistaken for the piece colour it sits on (vermillion on
    an orange camel, reddish purple on a pink one…).
    """
    for step in range(15):  # at most 70 % toward ink
        shade = mix(colour, INK, step * 0.05)
        if all(delta_e(shade, bg) >= threshold for bg in backgrounds):
            return shade
    return mix(colour, INK, 0.7)
