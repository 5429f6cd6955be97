"""The games this bot hosts.

Each game declares itself once, as ``SPEC`` (a :class:`games.contract.GameSpec`)
in its package; this module lists the packages, one line per game, and
everything else (the service, ``/game new`` choices, cogs, catalogues) is
built from the specs. ``EXTRA_GAMES`` (see bot/config.py) adds packages
that live elsewhere, such as the test-only game in ``tests/nim``.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable, Mapping
from types import MappingProxyType

from games import catalogue
from games.contract import GameSpec

GAMES: tuple[str, ...] = (
    "games.desert",
    "games.nomadi",
    "games.oasis",
    "games.sahwari",
)

_extra: tuple[str, ...] = ()
_loaded: dict[tuple[str, ...], Mapping[str, GameSpec]] = {}


class RegistryError(Exception):
    """A registered module does not declare a usable game."""


def configure(extra: Iterable[str] = ()) -> None:
    """Add out-of-tree game packages (from EXTRA_GAMES) before the cogs load."""
    global _extra
    _extra = tuple(m for m in extra if m not in GAMES)


def load(modules: Iterable[str]) -> Mapping[str, GameSpec]:
    """Import each module's ``SPEC`` and merge its catalogue; key -> spec."""
    specs: dict[str, GameSpec] = {}
    for name in modules:
        spec = getattr(importlib.import_module(name), "SPEC", None)
        if not isinstance(spec, GameSpec):
            raise RegistryError(f"{name} has no SPEC = GameSpec(...)")
        if spec.kind in specs:
            raise RegistryError(f"two games use the key {spec.kind!r}")
        catalogue.add_source(spec.package)
        if not catalogue.has(f"{spec.kind}.title"):
            raise RegistryError(f"{spec.package}/locales/en.json lacks {spec.kind}.title")
        specs[spec.kind] = spec
    return MappingProxyType(specs)


def specs() -> Mapping[str, GameSpec]:
    """The registered games, in registry order (built games first, then extras)."""
    modules = (*GAMES, *_extra)
    if modules not in _loaded:
        _loaded[modules] = load(modules)
    return _loaded[modules]
