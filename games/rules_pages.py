"""The short rules of each game, as pages for ``/rules``.

A game package may hold ``rulebook/en.md`` and ``rulebook/fr.md``: a summary of
its rules and its notation, one Discord message per page. Pages are
separated by a line holding only ``---``; each starts with a ``## `` title
and stays within :data:`PAGE_LIMIT` characters (tests check both). The full
rules as played stay in ``docs/rules``.

Pure and stdlib only, like the rest of ``games``: the files are read with
:mod:`importlib.resources`, so they come along wherever the package is
installed.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

from games.catalogue import FALLBACK, LANGUAGES

PAGE_LIMIT = 1800  # characters: a Discord message holds 2000, leaving room for a footer
SEPARATOR = "---"
TITLE_PREFIX = "## "


def _read(package: str, lang: str) -> str | None:
    path = resources.files(package).joinpath("rulebook").joinpath(f"{lang}.md")
    if not path.is_file():
        return None
    return path.read_text(encoding="utf-8")


def split(text: str) -> tuple[str, ...]:
    """The pages of one file: cut at lines that are exactly ``---``, stripped,
    empty ones left out."""
    pages: list[list[str]] = [[]]
    for line in text.splitlines():
        if line.rstrip() == SEPARATOR:
            pages.append([])
        else:
            pages[-1].append(line)
    stripped = ("\n".join(lines).strip() for lines in pages)
    return tuple(page for page in stripped if page)


@cache
def pages(package: str, lang: str) -> tuple[str, ...]:
    """The rules pages of a game package (e.g. ``"games.desert"``) in ``lang``
    (``"en"`` or ``"fr"``; anything else, or a language the package lacks,
    falls back to English), read from ``<package>/rulebook/<lang>.md``. A package
    without rules files gives ``()``."""
    wanted = lang if lang in LANGUAGES else FALLBACK
    for candidate in dict.fromkeys((wanted, FALLBACK)):
        text = _read(package, candidate)
        if text is not None:
            return split(text)
    return ()


def page_title(page: str) -> str:
    """The text of the page's first ``## `` line (``""`` if it has none)."""
    for line in page.splitlines():
        if line.startswith(TITLE_PREFIX):
            return line[len(TITLE_PREFIX) :].strip()
    return ""
