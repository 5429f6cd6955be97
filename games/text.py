"""Localisable values: a word or sentence in the reader's language (:class:`Term`),
a player named by the reader's table (:class:`Player`), message parameters
(:data:`Param`) and their JSON forms.

Engines put them in events, decisions and errors; the catalogue formats them in
the reader's language. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Term:
    """A message inside a message, in the reader's language.

    ``Term("desert.colour.white")`` is a word ("white", "blanc");
    ``Term("desert.r9", {"space": "G8"})`` a whole sentence, e.g. the reason
    wrapped by another error. Used as a param value: the catalogue formats
    it in the reader's language first.
    """

    key: str
    params: Mapping[str, Param] = field(default_factory=dict)


@dataclass(frozen=True)
class Player:
    """A seat named in a message: people read a person, never a seat number.

    Engines know seats, not names; the platform formats a message with the
    table's names (see :func:`games.catalogue.text`), so ``Player(2)`` reads
    "🔴 Zoë". Where no names are at hand (an engine's own English error
    text, a test) it reads ``fallback`` — e.g. "red (seat 3)" — or "seat 3".
    """

    seat: int
    fallback: Term | None = None


# A message param: text, a number, a translatable Term, a player, or a list
# of them (shown joined by commas).
Param = str | int | Term | Player | tuple["Param", ...]
Params = Mapping[str, Param]


def _param_json(value: Param) -> Any:
    if isinstance(value, Player):
        player: dict[str, Any] = {"seat": value.seat}
        if value.fallback is not None:
            player["fallback"] = _param_json(value.fallback)
        return player
    if isinstance(value, Term):
        data: dict[str, Any] = {"term": value.key}
        if value.params:
            data["params"] = params_json(value.params)
        return data
    if isinstance(value, tuple):
        return [_param_json(v) for v in value]
    return value


def _param_from_json(value: Any) -> Param:
    if isinstance(value, dict) and "seat" in value:
        fallback = value.get("fallback")
        named = _param_from_json(fallback) if fallback is not None else None
        if named is not None and not isinstance(named, Term):
            raise ValueError(f"not a player's fallback: {fallback!r}")
        return Player(int(value["seat"]), named)
    if isinstance(value, dict):
        return Term(str(value["term"]), params_from_json(value.get("params", {})))
    if isinstance(value, list):
        return tuple(_param_from_json(v) for v in value)
    if isinstance(value, str | int):
        return value
    raise ValueError(f"not a message param: {value!r}")


def ints_of(value: Any) -> tuple[int, ...]:
    """A JSON list of integers as a tuple (for ``load``), or ValueError."""
    if not isinstance(value, list) or not all(type(v) is int for v in value):
        raise ValueError(f"expected a list of integers, got {value!r}")
    return tuple(value)


def strs_of(value: Any) -> tuple[str, ...]:
    """A JSON list of strings as a tuple (for ``load``), or ValueError."""
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ValueError(f"expected a list of strings, got {value!r}")
    return tuple(value)


def params_json(params: Params) -> dict[str, Any]:
    return {k: _param_json(v) for k, v in params.items()}


def params_from_json(data: Mapping[str, Any]) -> dict[str, Param]:
    return {k: _param_from_json(v) for k, v in data.items()}
