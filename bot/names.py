"""Names and user text made safe to store and to post (pure, stdlib only).

Two steps, kept apart:

- :func:`clean_name` (and :func:`clean_text`) decide *what we keep* of a
  player's text: NFC, no invisible characters (bidi overrides, zero-width
  spaces, soft hyphens, controls), one line, one space between words, at most
  ``limit`` characters. That is what we store as a display name.
- :func:`md` decides *how to show it* inside a Discord message: Markdown
  escaped so it reads literally (no bold, spoiler, heading, list, quote or
  masked link can form), no mention (``<@id>``, ``<#id>``, ``@everyone``…),
  one line.

Use ``md(name)`` wherever Discord renders Markdown (message content, embed
descriptions and field values). Where it does not (embed footers and
authors, thread names, button labels, select options), the backslashes would
show: use the cleaned text alone there — those places ping no one.

No discord import here, so engines and renderers could share it.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator

NAME_LIMIT = 32  # characters: Discord's own limit for a display name
ELLIPSIS = "…"
MAX_MARKS = 4  # combining marks kept on one character ("Zalgo" text stacks more)

# Unicode categories never kept: controls, format characters (bidi overrides
# and isolates, zero-width spaces and joiners, word joiner, BOM, soft hyphen,
# invisible operators, tags…) and lone surrogates (not even UTF-8-encodable).
DROPPED_CATEGORIES = frozenset({"Cc", "Cf", "Cs"})

# Emoji skin-tone modifiers: they belong to the emoji before them.
_MODIFIERS = range(0x1F3FB, 0x1F400)
# Regional indicators: two of them make one flag.
_REGIONAL = range(0x1F1E6, 0x1F200)

# Characters Discord's Markdown gives a meaning to; each is shown literally
# once preceded by a backslash. ``:`` stops links (``https\://``) and emoji
# codes, ``<`` every mention, channel, emoji or timestamp tag (``<@123>``).
_MARKDOWN = frozenset("\\*_~`|>#-[]()<:")
_ORDERED_ITEM = re.compile(r"^(\s*\d+)\.")  # "1. item" would start a list
_ZWSP = "\u200b"


def _kept(ch: str) -> bool:
    return unicodedata.category(ch) not in DROPPED_CATEGORIES


def _visible(raw: str) -> str:
    """NFC ``raw`` without the characters we never keep; whitespace stays
    (controls that are whitespace, like tab or newline, become spaces)."""
    text = unicodedata.normalize("NFC", raw)
    return "".join(" " if ch.isspace() else ch for ch in text if ch.isspace() or _kept(ch))


def _is_mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def clusters(text: str) -> Iterator[str]:
    """``text`` cut into user-perceived characters, roughly: a character with
    its combining marks (at most :data:`MAX_MARKS`, extra ones are dropped),
    an emoji with its skin tone, a flag's two regional indicators. Never
    splits a pair Python could hold (surrogate pairs do not exist in ``str``)."""
    current = ""
    marks = 0
    for ch in text:
        code = ord(ch)
        if current and _is_mark(ch):
            if marks < MAX_MARKS:
                current += ch
                marks += 1
            continue
        if current and code in _MODIFIERS:
            current += ch
            continue
        if len(current) == 1 and ord(current) in _REGIONAL and code in _REGIONAL:
            current += ch
            continue
        if current:
            yield current
        if _is_mark(ch):  # a mark with nothing to sit on
            current, marks = "", 0
            continue
        current, marks = ch, 0
    if current:
        yield current


def clean_text(raw: str, limit: int | None = None) -> str:
    """User text as we keep it: NFC, no control or format character (Cc, Cf,
    Cs), whitespace runs made one space, stripped, and when ``limit`` is
    given at most ``limit`` characters, cut between whole characters (see
    :func:`clusters`) and ended with "…". May be empty."""
    if limit is not None and limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")
    text = " ".join(_visible(raw).split())
    parts = list(clusters(text))
    text = "".join(parts)
    if limit is None or len(text) <= limit:
        return text
    kept = ""
    for part in parts:
        if len(kept) + len(part) > limit - len(ELLIPSIS):
            break
        kept += part
    return kept.rstrip() + ELLIPSIS


def clean_name(raw: str, limit: int = NAME_LIMIT, fallback: str = "?") -> str:
    """A player's display name as we store it: :func:`clean_text` capped at
    ``limit`` characters, or ``fallback`` (returned as given) when nothing
    visible is left. Never empty."""
    if not fallback:
        raise ValueError("the fallback name must not be empty")
    return clean_text(raw, limit) or fallback


def md(text: str) -> str:
    """``text`` to put inside a Discord message so it shows literally, on one line.

    Line breaks become spaces and invisible characters go (as in
    :func:`clean_text`, without collapsing spaces or capping); every Markdown
    character gets a backslash (``\\ * _ ~ ` | > # - [ ] ( ) < :``, and the
    dot of a leading "1."), so no style, heading, list, quote, masked link,
    URL, mention or tag can form; a zero-width space follows every ``@`` so
    ``@everyone`` and ``@here`` never ping. Escape the text, not the message
    around it; not for code spans or places Discord shows without Markdown.
    """
    line = _visible(text)  # newlines (\n, \r, U+2028…) are whitespace: now spaces
    escaped = "".join("\\" + ch if ch in _MARKDOWN else ch for ch in line)
    escaped = _ORDERED_ITEM.sub(lambda m: m.group(1) + "\\.", escaped)
    return escaped.replace("@", "@" + _ZWSP)
