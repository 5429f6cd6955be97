"""Player ratings per server and per game, computed with openskill (pure).

No I/O, no Discord, no database: the caller keeps the finished games and the
ratings; this module only turns one game's result into new ratings
(:func:`rate_game`) or replays a whole history (:func:`rebuild`).

The model is openskill's Plackett-Luce with its default settings
(``mu`` 25, ``sigma`` 25/3, ``beta`` 25/6, ``tau`` 25/300): every seat is a
team of one, ranks are "1 is best", equal ranks are ties.

Choices made here:

- Only the *order* of the ranks counts. They are made dense (1..k) before
  they reach openskill, which only ever compares them with each other, so
  ``(2, 4)`` rates exactly as ``(1, 2)`` and ``(1, 3, 3)`` as ``(1, 2, 2)``.
- The seats are handed to openskill sorted by rank, then by player id, so the
  order of the placings given never changes the result, not even in the last
  bit of a float.
- A game of fewer than two players rates nobody (``{}``). A game where every
  player shares one rank is a draw: it is rated (openskill supports it; the
  sigmas shrink and unequal players move towards each other).
- The same player twice in one game is a caller's bug: :class:`ValueError`.
- A human who played fewer than a quarter of his seat's turns himself (the AI
  played the rest: he resigned, or was away or removed most of the game) is
  left out of the rating, as a bot seat is (:func:`rated_placings`): an alt
  account that moves once and resigns rates nobody. He keeps his place in the
  result; only the rating skips him.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce, PlackettLuceRating

_MODEL = PlackettLuce()


SHOWN_BASE = 1000  # what a new player's rating reads
SHOWN_STEP = 40  # shown points per unit of openskill's ordinal


@dataclass(frozen=True)
class Rating:
    """A player's skill estimate: mean ``mu`` and uncertainty ``sigma``."""

    mu: float
    sigma: float

    @property
    def ordinal(self) -> float:
        """The conservative value to show and sort by (openskill's ordinal,
        ``mu - 3 * sigma`` with the defaults): low while a player is new."""
        return float(self._to_openskill().ordinal())

    @property
    def shown(self) -> int:
        """The rating as players read it: :data:`SHOWN_BASE` for a new player,
        :data:`SHOWN_STEP` points per unit of the ordinal. The ordinal alone
        starts at 0 and a first middling game made it "-1.8"; on this scale
        that is 928, a number like any other."""
        return round(SHOWN_BASE + SHOWN_STEP * self.ordinal)

    def _to_openskill(self) -> PlackettLuceRating:
        return _MODEL.rating(mu=self.mu, sigma=self.sigma)

    @staticmethod
    def _from_openskill(rating: PlackettLuceRating) -> Rating:
        return Rating(mu=float(rating.mu), sigma=float(rating.sigma))


DEFAULT: Rating = Rating._from_openskill(_MODEL.rating())


def _dense(ranks: Sequence[int]) -> list[float]:
    """``(2, 4, 4, 9)`` -> ``[1.0, 2.0, 2.0, 3.0]``: same order, same ties."""
    position = {rank: index for index, rank in enumerate(sorted(set(ranks)), start=1)}
    return [float(position[rank]) for rank in ranks]


def rate_game(
    previous: Mapping[int, Rating], placings: Sequence[tuple[int, int]]
) -> dict[int, Rating]:
    """One finished game. ``placings`` are (player_id, rank) of the HUMAN seats
    that count (1 is best; equal ranks are ties; only the order of the ranks
    matters). Players missing from ``previous`` start at :data:`DEFAULT`.

    Returns the new rating of every player in ``placings``; ``{}`` for a game
    of fewer than two players (nothing changes). A game where all players tie
    is rated as a draw. Duplicate player ids raise :class:`ValueError`.
    """
    ids = [player for player, _ in placings]
    if len(set(ids)) != len(ids):
        raise ValueError(f"a player appears twice in one game: {sorted(ids)}")
    if len(placings) < 2:
        return {}
    ordered = sorted(placings, key=lambda placing: (placing[1], placing[0]))
    teams = [[previous.get(player, DEFAULT)._to_openskill()] for player, _ in ordered]
    ranks = _dense([rank for _, rank in ordered])
    rated = _MODEL.rate(teams, ranks=ranks)
    return {
        player: Rating._from_openskill(team[0])
        for (player, _), team in zip(ordered, rated, strict=True)
    }


def played_enough(own_turns: int, turns: int) -> bool:
    """Whether a human played at least a quarter of his seat's turns himself.

    Counted in turns (the log's turn-ending rows, ``by_ai`` telling who ended
    each), not in log rows: a player may type a whole turn as one command
    where the AI logs each of its steps. Whole numbers, so exactly a quarter
    counts; a seat that had no turn at all counts too.
    """
    return 4 * own_turns >= turns


@dataclass(frozen=True)
class Seated:
    """A human's seat in one finished game, as the rating looks at it."""

    user_id: int
    rank: int
    own_turns: int  # turns he ended himself
    turns: int  # all of his seat's turns, the AI's included


def rated_placings(humans: Iterable[Seated]) -> list[tuple[int, int]]:
    """The (player, rank) that a finished game rates: its humans who played
    enough of their seat themselves (:func:`played_enough`); ``[]`` when fewer
    than two remain, so nobody's rating moves. The finishing write and a
    rebuild both go through here, so they fold the same games the same way."""
    placings = [(h.user_id, h.rank) for h in humans if played_enough(h.own_turns, h.turns)]
    return placings if len(placings) >= 2 else []


def rebuild(games: Iterable[Sequence[tuple[int, int]]]) -> dict[int, Rating]:
    """Fold :func:`rate_game` over finished games in the order given (oldest
    first), starting from nobody rated; the result equals applying
    :func:`rate_game` game after game."""
    ratings: dict[int, Rating] = {}
    for placings in games:
        ratings.update(rate_game(ratings, placings))
    return ratings
