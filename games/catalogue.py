"""Message catalogues: every text a player reads, in English and French.

A *source* is a package with ``locales/en.json`` and ``locales/fr.json``:
flat objects mapping a key (``"desert.log.camel"``) to a template. A
template is a ``str.format`` string with ``{named}`` params, or a plural
object ``{"one": …, "other": …}`` chosen by the ``count`` param with each
language's own rule (French says "0 case", English "0 spaces").

Sources: this package (``core.*`` engine-wide messages and ``common.*`` board
words), the bot's replies, and one per registered game (``GameSpec.package``).
Stdlib only, so engines (error texts), renderers (board labels) and the bot
(replies) all share it.
"""

from __future__ import annotations

import json
import string
import threading
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from games.text import Params, Player, Term

LANGUAGES = ("en", "fr")
FALLBACK = "en"
PLURAL_FORMS = ("one", "other")

Template = str | Mapping[str, str]

_sources: list[str] = ["games"]
_lock = threading.Lock()


def add_source(package: str) -> None:
    """Merge ``package``'s catalogues in (idempotent)."""
    with _lock:
        if package in _sources:
            return
        _sources.append(package)
        messages.cache_clear()


def sources() -> tuple[str, ...]:
    return tuple(_sources)


@cache
def load_source(package: str, lang: str) -> dict[str, Template]:
    """One source's catalogue in one language, exactly as written: its
    ``locales/<lang>.json`` and any ``locales/<lang>.<part>.json`` beside it
    (a big source may keep one part per area; a key lives in one part only)."""
    folder = resources.files(package).joinpath("locales")
    parts = [folder.joinpath(f"{lang}.json")] + sorted(
        (
            f
            for f in folder.iterdir()
            if f.name.startswith(f"{lang}.")
            and f.name.endswith(".json")
            and f.name != f"{lang}.json"
        ),
        key=lambda f: f.name,
    )
    data: dict[str, Any] = {}
    for part in parts:
        found: dict[str, Any] = json.loads(part.read_text(encoding="utf-8"))
        twice = set(found) & set(data)
        if twice:
            raise ValueError(f"{package} {lang}: {sorted(twice)[0]!r} is defined twice")
        data.update(found)
    for key, value in data.items():
        if isinstance(value, dict):
            if set(value) != set(PLURAL_FORMS) or not all(
                isinstance(v, str) for v in value.values()
            ):
                raise ValueError(
                    f"{package} {lang}: plural {key!r} needs exactly 'one' and 'other'"
                )
        elif not isinstance(value, str):
            raise ValueError(f"{package} {lang}: {key!r} is neither text nor a plural")
    return data


@cache
def messages(lang: str) -> dict[str, Template]:
    """Every source merged, for one language; later sources may not redefine keys."""
    merged: dict[str, Template] = {}
    for package in sources():
        for key, value in load_source(package, lang).items():
            if key in merged:
                raise ValueError(f"catalogue key {key!r} is defined twice ({package})")
            merged[key] = value
    return merged


def has(key: str, lang: str = FALLBACK) -> bool:
    return key in messages(lang)


def plural_form(lang: str, count: int) -> str:
    """CLDR's rule for the two languages: French treats 0 and 1 as singular."""
    if lang == "fr":
        return "one" if abs(count) < 2 else "other"
    return "one" if count == 1 else "other"


# How a table names its seats, by seat: the display name with the seat's mark,
# ready for where the text goes (escaped for Discord Markdown, or plain).
Names = Sequence[str]


def text(
    lang: str,
    key: str,
    params: Params | None = None,
    default: str | None = None,
    names: Names | None = None,
) -> str:
    """The message ``key`` in ``lang`` (English if missing there), formatted.

    ``names`` names the seats a :class:`~games.text.Player` param refers to
    (in nested Terms too); without it, or past its end, a player reads as
    the param's fallback or "seat N".

    Only a catalogue template is ever formatted. A missing key gives
    ``default`` (or, without one, the key itself) verbatim: it may hold
    what a player typed (an engine's English error echoing his input), so
    its braces are text, never placeholders. Param values are inserted as
    they are, never read as templates themselves.
    """
    lang = lang if lang in LANGUAGES else FALLBACK
    params = params or {}
    template = messages(lang).get(key)
    if template is None:
        template = messages(FALLBACK).get(key)
    if template is None:
        return default if default is not None else key
    if not isinstance(template, str):
        count = params.get("count", 0)
        template = template[plural_form(lang, count if isinstance(count, int) else 0)]
    values = {name: _value(lang, value, names) for name, value in params.items()}
    return fill(template, values)


def fill(template: str, values: Mapping[str, object]) -> str:
    """``template`` with its ``{name}`` placeholders (and ``{name:spec}``,
    ``{name!r}``) replaced by ``values``.

    Stricter than ``str.format``: only plain names are looked up — positional
    (``{0}``), attribute (``{x.__class__}``) and index (``{x[0]}``) fields, nested
    specs, unknown conversions and unknown names stay visible as written — and nothing raises: a
    value its spec does not suit is inserted with ``str``, a malformed
    template comes back as it is.
    """
    try:
        parts = list(_FORMATTER.parse(template))
    except ValueError:
        return template
    out: list[str] = []
    for literal, name, spec, conversion in parts:
        out.append(literal)
        if name is None:
            continue
        if (
            name.isidentifier()
            and name in values
            and conversion in (None, "r", "s", "a")
            and "{" not in (spec or "")
        ):
            out.append(_field(values[name], spec or "", conversion))
        else:
            bang = f"!{conversion}" if conversion else ""
            colon = f":{spec}" if spec else ""
            out.append("{" + name + bang + colon + "}")
    return "".join(out)


_FORMATTER = string.Formatter()


def _field(value: object, spec: str, conversion: str | None) -> str:
    if conversion == "r":
        value = repr(value)
    elif conversion == "a":
        value = ascii(value)
    elif conversion == "s":
        value = str(value)
    try:
        return format(value, spec)
    except (TypeError, ValueError):
        return str(value)


def term(lang: str, value: Term, names: Names | None = None) -> str:
    return text(lang, value.key, value.params, names=names)


def player(lang: str, value: Player, names: Names | None = None) -> str:
    """A seat as the reader's table names it (see :class:`~games.text.Player`)."""
    if names is not None and 0 <= value.seat < len(names):
        return names[value.seat]
    if value.fallback is not None:
        return term(lang, value.fallback)
    return text(lang, "common.seat", {"number": value.seat + 1})


def _value(lang: str, value: object, names: Names | None) -> object:
    if isinstance(value, Term):
        return term(lang, value, names)
    if isinstance(value, Player):
        return player(lang, value, names)
    if isinstance(value, tuple):
        return ", ".join(str(_value(lang, v, names)) for v in value)
    return value


def placeholders(template: Template) -> set[str]:
    """The ``{named}`` params a template uses (all plural forms together)."""
    forms = [template] if isinstance(template, str) else list(template.values())
    return {name for form in forms for _, name, _, _ in string.Formatter().parse(form) if name}
