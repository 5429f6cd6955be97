"""Game options as typed at ``/game new options:`` ("short_course:on bribes:on").

The engine declares its options (:class:`games.contract.OptionSpec`) and checks
the values; this module only reads the text, suggests completions and
shows the chosen options in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping

from bot import i18n
from bot.errors import UserError
from games.contract import GameSpec

SEPARATORS = (":", "=")


def parse(text: str) -> dict[str, str]:
    """``"a:x, b=y"`` -> ``{"a": "x", "b": "y"}`` (values checked by the engine)."""
    chosen: dict[str, str] = {}
    for token in text.replace(",", " ").split():
        for sep in SEPARATORS:
            if sep in token:
                name, _, value = token.partition(sep)
                break
        else:
            raise UserError("options.syntax", token=token[:40])
        if not name or not value:
            raise UserError("options.syntax", token=token[:40])
        chosen[name.lower()] = value.lower()
    return chosen


def label(spec: GameSpec, name: str, value: str, locale: object) -> str:
    option = i18n.t(locale, f"{spec.kind}.option.{name}", default=name)
    choice = i18n.t(locale, f"{spec.kind}.option.{name}.{value}", default=value)
    return i18n.t(locale, "options.pair", option=option, value=choice)


def describe(spec: GameSpec, options: Mapping[str, str], locale: object) -> str:
    """The options of a game as a reader sees them; empty when the game has none."""
    return " · ".join(label(spec, n, v, locale) for n, v in options.items())


def suggest(spec: GameSpec, typed: str, locale: object, limit: int = 25) -> list[tuple[str, str]]:
    """(label, value) completions: what was typed plus one more option."""
    words = typed.replace(",", " ").split()
    complete = typed.endswith((" ", ",")) or not words
    done_words = words if complete else words[:-1]
    partial = "" if complete else words[-1].lower()
    try:
        done = parse(" ".join(done_words))
    except UserError:
        return []
    out: list[tuple[str, str]] = []
    for option in spec.engine.options:
        if option.name in done:
            continue
        for choice in option.choices:
            token = f"{option.name}:{choice}"
            if partial and not token.startswith(partial):
                continue
            chosen = {**done, option.name: choice}
            value = " ".join(f"{n}:{v}" for n, v in chosen.items())
            out.append((describe(spec, chosen, locale)[:100], value[:100]))
    return out[:limit]
