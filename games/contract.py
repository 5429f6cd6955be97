"""The engine contract shared by every game.

An engine is a pure object: states are immutable values, ``play`` returns a
new state plus the events of the move, randomness comes only from the
:class:`~games.rng.Rng` stored inside the state. Nothing here imports discord,
PIL or does I/O. A game declares itself once with a :class:`GameSpec`.
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Generic, Protocol, TypeVar

from games.rng import Rng
from games.text import Param, Params, Term, params_from_json, params_json

Seat = int  # 0-based seat index; players see seat + 1.


# --------------------------------------------------------------------------- errors


class MoveError(ValueError):
    """A move the engine refuses. ``key``/``params`` let the bot localise it.

    ``str(error)`` is the English text; ``key`` names a message in the game's
    catalogue (e.g. ``"desert.r10"``) whose French version uses the same params.
    ``names`` is for the platform, which knows the table: it sets the seats'
    names there so a refusal names people (engines leave it None).
    """

    def __init__(self, message: str, *, key: str = "", **params: Param) -> None:
        super().__init__(message)
        self.message = message
        self.key = key
        self.params: dict[str, Param] = dict(params)
        self.names: Sequence[str] | None = None


class InvalidMove(MoveError):
    """The text is not notation at all (syntax)."""


class IllegalMove(MoveError):
    """Well-formed, but the rules forbid it now (or it is not this seat's turn)."""


class AmbiguousMove(MoveError):
    """The text matches several legal moves."""


class InvalidOption(MoveError):
    """A game option that does not exist or a value it cannot take."""


# --------------------------------------------------------------------------- events and decisions


@dataclass(frozen=True)
class Event:
    """Something that happened, as a localisable message.

    Public events (``to is None``) go to the game's channel; a private event
    is shown only to seat ``to`` (a card looked at, a value drawn). ``details``
    are shown in brackets after the text and share the event's audience.
    """

    key: str
    params: Params = field(default_factory=dict)
    seat: Seat | None = None  # who acted; None for the game itself
    to: Seat | None = None
    details: tuple[Event, ...] = ()

    @property
    def private(self) -> bool:
        return self.to is not None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"key": self.key}
        if self.params:
            data["params"] = params_json(self.params)
        if self.seat is not None:
            data["seat"] = self.seat
        if self.to is not None:
            data["to"] = self.to
        if self.details:
            data["details"] = [d.to_json() for d in self.details]
        return data

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> Event:
        return Event(
            key=str(data["key"]),
            params=params_from_json(data.get("params", {})),
            seat=data.get("seat"),
            to=data.get("to"),
            details=tuple(Event.from_json(d) for d in data.get("details", ())),
        )


def public(events: Iterable[Event]) -> tuple[Event, ...]:
    return tuple(e for e in events if e.to is None)


def private_to(events: Iterable[Event], seat: Seat) -> tuple[Event, ...]:
    return tuple(e for e in events if e.to == seat)


@dataclass(frozen=True)
class Decision:
    """What one seat owes now: a catalogue key (its prompt) and params.

    The key names the kind of decision (``"desert.decision.camels"``), so
    prompts, reminders and buttons need no game-specific code.
    """

    seat: Seat
    key: str
    params: Params = field(default_factory=dict)
    # A seat that *may* act, though nothing waits for it (a Nomadi bribe):
    # it can move, but is neither pinged, reminded nor named as awaited.
    optional: bool = False


StateT = TypeVar("StateT")
MoveT = TypeVar("MoveT")


@dataclass(frozen=True)
class Step(Generic[StateT]):
    """The result of one atomic move: the new state and what happened.

    ``ends_turn`` is False while the mover's turn goes on (a first camel of
    two): the platform then answers the step privately and posts the whole
    turn once, when it ends. A seat that no longer acts has ended its turn.

    ``reveals`` is True when the mover could not foresee what the move
    showed him: a die rolled, a card drawn or turned up, a hidden face seen.
    Suggestions stop after such a step (what comes next depends on it), so
    they never show what the asking seat cannot see yet. Engines may set it
    when in doubt; the contract suite proves it set wherever resampled
    twins of the mover end differently for him.
    """

    state: StateT
    events: tuple[Event, ...] = ()
    ends_turn: bool = True
    reveals: bool = False


# --------------------------------------------------------------------------- outcome


@dataclass(frozen=True)
class Outcome:
    """Final result. ``ranks[i]`` is 1 for the best; tied seats share a rank.

    The ranks already include the game's tie-breaks, so the platform never
    re-ranks by score.
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    winners: tuple[Seat, ...]
    # Per seat, ordered (category, points) pairs, e.g. (("water", 7), ("oases", 10)).
    breakdown: tuple[tuple[tuple[str, int], ...], ...] = ()

    @staticmethod
    def from_scores(
        scores: Sequence[int],
        breakdown: Sequence[Sequence[tuple[str, int]]] = (),
        tiebreak: Sequence[Sequence[int]] | None = None,
    ) -> Outcome:
        """Rank by score, highest first, then by ``tiebreak[seat]`` (higher is better).

        Seats equal on score and tie-break share the rank and the victory.
        """
        keys = [(s, *(tiebreak[i] if tiebreak is not None else ())) for i, s in enumerate(scores)]
        ranks = tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)
        return Outcome(
            scores=tuple(scores),
            ranks=ranks,
            winners=tuple(i for i, r in enumerate(ranks) if r == 1),
            breakdown=tuple(tuple(b) for b in breakdown),
        )


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class OptionSpec:
    """A game option chosen at ``/game new`` (e.g. Nomadi's short course).

    Its label is the catalogue message ``<game>.option.<name>`` and each
    choice's label ``<game>.option.<name>.<choice>``.
    """

    name: str
    choices: tuple[str, ...]
    default: str


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, str] | None) -> dict[str, str]:
    """Every option with its value: the given ones checked, the rest defaulted."""
    by_name = {spec.name: spec for spec in specs}
    chosen = {spec.name: spec.default for spec in specs}
    for name, value in (given or {}).items():
        spec = by_name.get(name)
        if spec is None:
            known = ", ".join(sorted(by_name)) or "-"
            raise InvalidOption(
                f"There is no option '{name}' (options: {known}).",
                key="core.option_unknown",
                name=name,
                known=known,
            )
        if value not in spec.choices:
            raise InvalidOption(
                f"Option '{name}' can be {', '.join(spec.choices)}, not '{value}'.",
                key="core.option_value",
                name=name,
                value=value,
                choices=", ".join(spec.choices),
            )
        chosen[name] = value
    return chosen


# --------------------------------------------------------------------------- the engine


class Game(ABC, Generic[StateT, MoveT]):
    """What every engine object exposes (one instance per game kind).

    Subclasses implement the abstract methods; ``apply``, ``to_act`` and
    ``options`` have sensible defaults built on them.
    """

    kind: str  # "desert", "nomadi", …
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...] = ()

    @abstractmethod
    def new(self, players: int, seed: int, options: Mapping[str, str] | None = None) -> StateT:
        """Set up a game, including every random draw of the setup.

        Options are checked with :func:`resolve_options` (InvalidOption).
        """

    @abstractmethod
    def decisions(self, state: StateT) -> tuple[Decision, ...]:
        """What each seat that must act now owes; empty when the game is over."""

    def to_act(self, state: StateT) -> tuple[Seat, ...]:
        """Seats that must decide now, in order; several may act at once."""
        return tuple(dict.fromkeys(d.seat for d in self.decisions(state)))

    @abstractmethod
    def legal_moves(self, state: StateT, seat: Seat) -> list[MoveT]:
        """Every atomic move ``seat`` may make now (empty if it has none)."""

    @abstractmethod
    def play(self, state: StateT, seat: Seat, move: MoveT) -> Step[StateT]:
        """The state after the move and its events; raise IllegalMove, never mutate."""

    def apply(self, state: StateT, seat: Seat, move: MoveT) -> StateT:
        return self.play(state, seat, move).state

    def simulate(self, state: StateT, seat: Seat, move: MoveT) -> Step[StateT]:
        """:meth:`play` for a bot's search (games/search.py), thousands of times a
        decision: a game may leave out of the state what only its pictures read
        (a record of the last move to light on the board), never anything its
        rules, views, legal moves or evaluation read. The state is then a
        sample's, never stored nor shown."""
        return self.play(state, seat, move)

    @abstractmethod
    def parse(self, state: StateT, seat: Seat, text: str) -> tuple[MoveT, ...]:
        """Parse a command into the atomic moves it stands for, in order.

        Resolved against the legal moves: each later move is checked on the
        state after the earlier ones, and the whole command is all-or-nothing.
        """

    @abstractmethod
    def format_move(self, move: MoveT) -> str:
        """The notation of one atomic move; ``parse`` accepts it back."""

    def join_moves(self, parts: Sequence[str]) -> str:
        """One command made of several moves, each already written out (their
        notation, or the reader's words for a suggestion's label), the way
        ``parse`` reads it back: one after the other (``orange F7 white G8``) by
        default; a game whose moves take optional words joins them otherwise."""
        return " ".join(parts)

    def format_command(self, moves: Sequence[MoveT]) -> str:
        """The notation of several moves as one command ``parse`` reads back."""
        return self.join_moves([self.format_move(m) for m in moves])

    def move_words(self, move: MoveT) -> Term | None:
        """The move in the reader's words (``blanc F7``), if they differ from the
        notation; ``parse`` must accept them too. Autocomplete matches both."""
        return None

    def summary(self, state: StateT) -> tuple[Term, ...]:
        """Per seat, its public score state in a few words (the turn post's text
        summary beside the board); empty if the board says it all."""
        return ()

    def move_hint(self, state: StateT, seat: Seat, move: MoveT) -> Term | None:
        """A short note on what the move does now (``+5 oasis``), for suggestions."""
        return None

    @abstractmethod
    def outcome(self, state: StateT) -> Outcome | None:
        """Final scores and ranks (tie-breaks included) once the game is over."""

    @abstractmethod
    def progress(self, state: StateT) -> float:
        """How far the game has run: 0.0 just set up, 1.0 over.

        A public estimate (from what every seat sees) of the share of the game
        played, like Board Game Arena's "game progression". The platform
        rates a game that resignations cut short only past half of it.
        """

    def scores(self, state: StateT) -> tuple[int, ...] | None:
        """Each seat's score if the game ended now, with full information
        (hidden things counted as they truly are); None if the game has none.

        Used only once a game is over, for the score-over-time chart: never
        shown during play, since it may count what some seats cannot see. On
        a finished state it equals ``outcome(state).scores``.
        """
        return None

    @abstractmethod
    def view(self, state: StateT, seat: Seat | None) -> Any:
        """Exactly what ``seat`` (or a spectator, ``None``) may see."""

    @abstractmethod
    def hand(self, state: StateT, seat: Seat) -> tuple[Event, ...]:
        """``seat``'s private information as lines (``/game hand``)."""

    @abstractmethod
    def resample(self, state: StateT, seat: Seat | None, seed: int) -> StateT:
        """A state ``seat`` cannot tell from ``state``: hidden details redrawn.

        Same view, same legal moves for ``seat``; what it cannot see (other
        seats' secrets, the draw order, the PRNG) drawn anew from ``seed``.
        Searching bots use it to sample worlds; leak tests use it to prove
        views and events show nothing hidden.
        """

    @abstractmethod
    def dump(self, state: StateT) -> dict[str, Any]: ...

    @abstractmethod
    def load(self, data: Mapping[str, Any]) -> StateT: ...


# A bot player: (its seat's view, its legal moves, its own random stream) -> a move.
Bot = Callable[[Any, Sequence[Any], Rng], Any]


@dataclass(frozen=True)
class Budget:
    """How long a level's bot may think over one decision.

    ``seconds``: wall-clock time (a search starts no iteration it expects to
    end past it, so the decision comes within it); ``iterations``: a count of search
    iterations, the same on every machine (tests and seeded benchmarks). Either
    may be None (no such limit); a field left None falls back to the level's
    own default only when the whole budget is None.
    """

    seconds: float | None = None
    iterations: int | None = None


class LevelBot(Protocol):
    """A bot of one level (``GameSpec.bots``): plays one decision for ``seat``.

    It is handed the true ``state`` because that is what the platform holds,
    and must not learn from it more than ``seat`` sees: the greedy level looks
    at ``game.view(state, seat)`` only, a searching level only at states that
    ``game.resample(state, seat, ...)`` draws (tests/test_search.py proves
    it on every game). Same arguments and an iteration budget: same move.
    Instances are picklable (a CPU worker runs them).
    """

    def __call__(
        self, game: Game[Any, Any], state: Any, seat: Seat, seed: int, budget: Budget | None = None
    ) -> Any: ...


@dataclass(frozen=True)
class GreedyBot:
    """The ``easy`` level: the game's :data:`Bot` on the seat's view (the budget
    does not matter to it)."""

    bot: Bot

    def __call__(
        self, game: Game[Any, Any], state: Any, seat: Seat, seed: int, budget: Budget | None = None
    ) -> Any:
        return bot_move(game, self.bot, state, seat, seed)


class Picture(Protocol):
    """A game's board images (``games/<g>/picture.py``); it only ever sees views.

    The platform draws in worker processes: a picture is pickled by its class,
    so it holds no state of its own.
    """

    def board(
        self, view: Any, names: Sequence[str], lang: str, tags: Sequence[str | None] = ()
    ) -> bytes:
        """The board as ``view`` shows it (public, or one seat's), as PNG;
        ``tags[seat]`` is "bot", "resigned" or None, for the panel's badges."""
        ...

    def hand(self, view: Any, names: Sequence[str], lang: str) -> bytes | None:
        """A seat's private image for /game hand, or None if the text says it all."""
        ...

    def seat_colour(self, seat: int) -> tuple[int, int, int]:
        """The colour ``seat`` wears on this game's board (RGB): the score chart
        draws the seat's line in it, so a player is one colour everywhere."""
        ...


@dataclass(frozen=True)
class GameSpec:
    """A game's one declaration: the registry, menus, cogs and catalogues come from it.

    ``package`` is the module whose ``locales/en.json`` and ``locales/fr.json``
    hold the game's texts (its title is ``<key>.title``). The game's other two
    faces are named, not imported, so that loading a game loads neither Pillow
    nor discord.py: ``picture`` is ``"module:Class"`` of its :class:`Picture`
    (made with no arguments, see :meth:`load_picture`), ``commands`` the module
    of its Discord commands, a discord.py extension the bot loads.
    ``marks`` are the seats' marks beside their names in texts, one emoji per
    seat in the colour the seat wears on the board (none: names alone).
    ``bots`` are its opponents by level, ``bot`` (the greedy one) as ``easy``.
    """

    engine: Game[Any, Any]
    bot: Bot
    package: str
    picture: str
    commands: str
    marks: tuple[str, ...] = ()
    # Level -> its bot (games/levels.py: LEVELS, play_level). "easy" is always
    # there, built from ``bot`` when not given; a game without a search has it only.
    bots: Mapping[str, LevelBot] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        if "easy" not in self.bots:
            object.__setattr__(self, "bots", {"easy": GreedyBot(self.bot), **self.bots})

    def mark(self, seat: int) -> str:
        """The seat's mark, or "" for a game without marks."""
        return self.marks[seat] if 0 <= seat < len(self.marks) else ""

    @property
    def kind(self) -> str:
        return self.engine.kind

    def load_picture(self) -> Picture:
        """The game's picture, its module imported on first use (once per process)."""
        return _load_picture(self.picture)


@cache
def _load_picture(reference: str) -> Picture:
    module, _, name = reference.partition(":")
    picture: Picture = getattr(importlib.import_module(module), name)()
    return picture


# --------------------------------------------------------------------------- helpers


def apply_all(
    game: Game[StateT, MoveT], state: StateT, seat: Seat, moves: Iterable[MoveT]
) -> StateT:
    """Apply several atomic moves of one seat in order (all or nothing)."""
    for move in moves:
        state = game.apply(state, seat, move)
    return state


def play_all(
    game: Game[StateT, MoveT], state: StateT, seat: Seat, moves: Iterable[MoveT]
) -> Step[StateT]:
    """Like :func:`apply_all`, collecting every move's events."""
    events: list[Event] = []
    ends_turn, reveals = True, False
    for move in moves:
        step = game.play(state, seat, move)
        state, ends_turn = step.state, step.ends_turn
        reveals = reveals or step.reveals
        events.extend(step.events)
    return Step(state, tuple(events), ends_turn, reveals)


def bot_move(game: Game[StateT, MoveT], bot: Bot, state: StateT, seat: Seat, seed: int) -> MoveT:
    """What ``bot`` plays for ``seat``: it is shown only that seat's view and legal moves."""
    legal = game.legal_moves(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has no move to make")
    move: MoveT = bot(game.view(state, seat), tuple(legal), Rng.from_seed(seed))
    return move
