"""The engine contract shared by every game.

An engine is a pure object: states are immutable values, ``apply`` returns a
new state, randomness comes only from the :class:`Rng` stored inside the state.
Nothing here imports discord, PIL or does I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

Seat = int  # 0-based seat index; players see seat + 1.


# --------------------------------------------------------------------------- errors


class MoveError(ValueError):
    """A move the engine refuses. ``key``/``params`` let the bot localise it.

    ``str(error)`` is the English text; ``key`` names a message in the bot's
    catalogue (e.g. ``"desert.R10"``) whose French version uses the same params.
    """

    def __init__(self, message: str, *, key: str = "", **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.key = key
        self.params: dict[str, object] = dict(params)


class InvalidMove(MoveError):
    """The text is not notation at all (syntax)."""


class IllegalMove(MoveError):
    """Well-formed, but the rules forbid it now (or it is not this seat's turn)."""


class AmbiguousMove(MoveError):
    """The text matches several legal moves."""


# --------------------------------------------------------------------------- outcome


@dataclass(frozen=True)
class Outcome:
    """Final result. ``ranks[i]`` is 1 for the best; tied seats share a rank."""

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[Seat, ...]
    # Per seat, ordered (category, points) pairs, e.g. (("water", 7), ("oases", 10)).
    breakdown: tuple[tuple[tuple[str, int], ...], ...] = ()

    @staticmethod
    def from_scores(
        scores: Sequence[int],
        breakdown: Sequence[Sequence[tuple[str, int]]] = (),
    ) -> Outcome:
        """Rank by score, highest first; equal scores share rank and victory."""
        ranks = tuple(1 + sum(1 for other in scores if other > s) for s in scores)
        best = max(scores)
        winners = tuple(i for i, s in enumerate(scores) if s == best)
        return Outcome(
            scores=tuple(scores),
            ranks=ranks,
            winners=winners,
            breakdown=tuple(tuple(b) for b in breakdown),
        )


# --------------------------------------------------------------------------- randomness

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


T = TypeVar("T")
StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")
ViewT = TypeVar("ViewT", covariant=True)


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class OptionSpec:
    """A game option a lobby can offer (e.g. Nomadi's variant)."""

    name: str
    description: str
    choices: tuple[str, ...] = ()
    default: str = ""


# --------------------------------------------------------------------------- protocol


class Game(Protocol[StateT, MoveT]):
    """What every engine object exposes (one instance per game kind)."""

    key: str  # "desert", "nomadi", …
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]

    def new(self, players: int, seed: int, options: Mapping[str, str] | None = None) -> StateT:
        """Set up a game, including every random draw of the setup."""
        ...

    def to_act(self, state: StateT) -> tuple[Seat, ...]:
        """Seats that must decide now; empty when the game is over."""
        ...

    def legal_moves(self, state: StateT, seat: Seat) -> list[MoveT]:
        """Every atomic move ``seat`` may make now (empty if it has none)."""
        ...

    def apply(self, state: StateT, seat: Seat, move: MoveT) -> StateT:
        """Return the state after the move; raise IllegalMove, never mutate."""
        ...

    def parse(self, state: StateT, seat: Seat, text: str) -> tuple[MoveT, ...]:
        """Parse a command into the atomic moves it stands for, in order.

        Resolved against the legal moves: each later move is checked on the
        state after the earlier ones, and the whole command is all-or-nothing.
        """
        ...

    def format_move(self, move: MoveT) -> str:
        """The notation of one atomic move; ``parse`` accepts it back."""
        ...

    def outcome(self, state: StateT) -> Outcome | None: ...

    def view(self, state: StateT, seat: Seat | None) -> Any:
        """Exactly what ``seat`` (or a spectator, ``None``) may see."""
        ...

    def dump(self, state: StateT) -> dict[str, Any]: ...

    def load(self, data: Mapping[str, Any]) -> StateT: ...


# --------------------------------------------------------------------------- helpers


def apply_all(
    game: Game[StateT, MoveT], state: StateT, seat: Seat, moves: Iterable[MoveT]
) -> StateT:
    """Apply several atomic moves of one seat in order (all or nothing)."""
    for move in moves:
        state = game.apply(state, seat, move)
    return state


@dataclass(frozen=True)
class Suggestion:
    """One autocomplete entry: what is shown and the full command it stands for."""

    label: str
    command: str


def complete(
    game: Game[StateT, MoveT],
    state: StateT,
    seat: Seat,
    typed: str,
    limit: int = 25,
) -> list[Suggestion]:
    """Commands ``seat`` could send now, filtered by what was typed.

    If ``typed`` starts with whole moves (e.g. ``"orange F7 "``), the legal
    continuations after them are offered too, so a compound turn can be
    entered in one command. Returns [] when the seat has nothing to do.
    """
    if seat not in game.to_act(state):
        return []
    prefix_moves: list[str] = []
    scratch = state
    words = typed.lstrip()
    # Peel off complete leading moves (followed by a separator) one by one.
    while True:
        legal = game.legal_moves(scratch, seat)
        if not legal:
            break
        lowered = words.lower()
        matched = None
        for move in legal:
            text = game.format_move(move).lower()
            if lowered.startswith(text) and lowered[len(text) : len(text) + 1] in (" ", ","):
                matched = (text, move)
                break
        if matched is None:
            break
        text, move = matched
        try:
            nxt = game.apply(scratch, seat, move)
        except MoveError:
            break
        if seat not in game.to_act(nxt):
            break
        prefix_moves.append(game.format_move(move))
        scratch = nxt
        words = words[len(text) :].lstrip(" ,")
    needle = _norm(words)
    head = " ".join(prefix_moves)
    out: list[Suggestion] = []
    for move in game.legal_moves(scratch, seat):
        text = game.format_move(move)
        if needle and needle not in _norm(text):
            continue
        full = f"{head} {text}" if head else text
        out.append(Suggestion(label=full, command=full))
        if len(out) >= limit:
            break
    return out


def _norm(text: str) -> str:
    return " ".join(text.lower().replace(",", " ").split())


@dataclass(frozen=True)
class LogLine:
    """One structured, localisable line of a game's public log."""

    seat: Seat
    key: str
    params: Mapping[str, object] = field(default_factory=dict)
