"""Colours: ink and paper, blending, the interface accents and the seat styles.

Every seat has a colour from Okabe & Ito's colour-blind-safe palette *and* a
marker shape *and* a number, so no player's identity rests on hue alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
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
