"""Randomness that lives inside a game's state: a seeded PRNG whose whole state is
one integer (:class:`Rng`), seeds mixed from several integers, and the bots'
tie-breaking pick (:func:`best_of`). Replaying a game's moves from its seed
reproduces it exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

_MASK64 = (1 << 64) - 1


@dataclass(frozen=True)
class Rng:
    """Seeded PRNG (splitmix64) whose whole state is one integer.

    Functional: every draw returns the value and the next generator, so a
    state holding an ``Rng`` stays immutable and dumps to JSON as an int.
    """

    state: int

    @staticmethod
    def from_seed(seed: int) -> Rng:
        return Rng(seed & _MASK64)

    def next_u64(self) -> tuple[int, Rng]:
        s = (self.state + 0x9E3779B97F4A7C15) & _MASK64
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31), Rng(s)

    def randbelow(self, n: int) -> tuple[int, Rng]:
        """Uniform integer in [0, n) without modulo bias."""
        if n <= 0:
            raise ValueError("randbelow needs n > 0")
        limit = (1 << 64) - ((1 << 64) % n)
        rng = self
        while True:
            value, rng = rng.next_u64()
            if value < limit:
                return value % n, rng

    def roll(self, sides: int = 6) -> tuple[int, Rng]:
        value, rng = self.randbelow(sides)
        return value + 1, rng

    def shuffled(self, items: Iterable[T]) -> tuple[tuple[T, ...], Rng]:
        """Fisher-Yates shuffle of a copy."""
        out = list(items)
        rng = self
        for i in range(len(out) - 1, 0, -1):
            j, rng = rng.randbelow(i + 1)
            out[i], out[j] = out[j], out[i]
        return tuple(out), rng

    def sample(self, items: Sequence[T], k: int) -> tuple[tuple[T, ...], Rng]:
        shuffled, rng = self.shuffled(items)
        return shuffled[:k], rng


def derive_seed(*parts: int) -> int:
    """A 64-bit seed mixed from several integers (e.g. game id and ply).

    Each part is folded into the previous *mixed* value, so nearby tuples
    ((7, 1, 0) and (7, 0, 1)) give unrelated seeds; chaining the raw
    generator state instead only mixed at the end and made small tuples collide.
    """
    value = 0
    for part in parts:
        value, _ = Rng((value ^ part) & _MASK64).next_u64()
    return value


def best_of(items: Sequence[T], rng: Rng, score: Callable[[T], float]) -> T:
    """For bots: an item of highest score, ties broken by ``rng``."""
    best: list[T] = []
    top = float("-inf")
    for item in items:
        value = float(score(item))
        if value > top + 1e-9:
            top, best = value, [item]
        elif abs(value - top) <= 1e-9:
            best.append(item)
    index, _ = rng.randbelow(len(best))
    return best[index]
