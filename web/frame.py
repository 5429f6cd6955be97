"""What every page shares: escaping (:func:`e`), small text helpers, and the
frame of a page (its head with the link preview, the header with the language
switch, the footer), plus the short page that says something went wrong.

Pages are built with the standard library, every value escaped with
:func:`e`, every text from the catalogue in the page's language.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from html import escape

from games.text import Param
from web.language import LANGUAGES, t
from web.links import Links

SITE_NAME = "Caravanserai"
THEME_COLOUR = "#2e261f"  # the boards' backdrop
OG_LOCALES = {"en": "en_GB", "fr": "fr_FR"}
LANGUAGE_NAMES = {"en": "English", "fr": "Français"}


def e(value: object) -> str:
    """Any value as HTML text or attribute value."""
    return escape(str(value), quote=True)


@dataclass(frozen=True)
class Preview:
    """What a link preview shows (Open Graph, Twitter, oEmbed)."""

    title: str
    description: str
    url: str  # the page's absolute address
    image: str | None = None  # an absolute, immutable image address
    size: tuple[int, int] | None = None


# --------------------------------------------------------------------------- pieces


def game_title(lang: str, kind: str) -> str:
    """The game's title; its key for a game this bot no longer hosts."""
    return t(lang, f"{kind}.title", default=kind)


def numbered(lang: str, kind: str, game_id: int) -> str:
    return t(lang, "web.game_title", game=game_title(lang, kind), id=game_id)


def decimal(lang: str, value: float) -> str:
    """One decimal, with the language's separator; never ``-0.0``."""
    text = f"{value:.1f}"
    if text == "-0.0":
        text = "0.0"
    return text.replace(".", ",") if lang == "fr" else text


def when(moment: str | None) -> str:
    """A stored time as ``<time>``, shown in UTC (no script to localise it)."""
    if not moment:
        return ""
    try:
        parsed = datetime.fromisoformat(moment)
    except ValueError:
        return ""
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=UTC)
    utc = parsed.astimezone(UTC)
    machine = utc.strftime("%Y-%m-%dT%H:%M:%SZ")  # HTML allows 3 decimals at most: none
    return f'<time datetime="{machine}">{e(utc.strftime("%Y-%m-%d %H:%M UTC"))}</time>'


def listed(names: Sequence[str]) -> str:
    return ", ".join(names)


def status_text(lang: str, status: str) -> str:
    return t(lang, f"web.status.{status}")


def around(lang: str, key: str, slot: str, **params: Param) -> tuple[str, str]:
    """The text of ``key`` before and after its ``slot`` placeholder, so that
    markup (a name in bold, an <output>) can go there, the text escaped around it."""
    marker = "\x00"
    values: dict[str, Param] = {**params, slot: marker}
    before, _, after = t(lang, key, None, **values).partition(marker)
    return before, after


# --------------------------------------------------------------------------- the frame


def document(
    lang: str, heading: str, preview: Preview, body: str, links: Links, switch: dict[str, str]
) -> str:
    """A whole page: head (with its link preview) and body. ``switch`` maps each
    language to this page's address in it."""
    head = [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{e(heading)} · {SITE_NAME}</title>",
        f'<meta name="description" content="{e(preview.description)}">',
        f'<meta name="theme-color" content="{THEME_COLOUR}">',
        f'<link rel="stylesheet" href="{e(links.style())}">',
        f'<link rel="icon" type="image/png" href="{e(links.icon())}">',
        f'<link rel="canonical" href="{e(preview.url)}">',
        *open_graph(lang, preview),
        '<link rel="alternate" type="application/json+oembed"'
        f' href="{e(links.oembed(preview.url))}" title="{e(preview.title)}">',
    ]
    languages = " · ".join(
        f'<a href="{e(switch[code])}" hreflang="{code}" lang="{code}"'
        + (' aria-current="true"' if code == lang else "")
        + f">{e(LANGUAGE_NAMES.get(code, code))}</a>"
        for code in LANGUAGES
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{e(lang)}">',
            "<head>",
            *head,
            "</head>",
            "<body>",
            f'<header class="top"><span class="brand">{SITE_NAME}</span>'
            f'<nav class="langs" aria-label="{e(t(lang, "web.languages"))}">{languages}</nav>'
            "</header>",
            "<main>",
            body,
            "</main>",
            f'<footer class="bottom">{e(t(lang, "web.footer"))}</footer>',
            "</body>",
            "</html>",
            "",
        ]
    )


def open_graph(lang: str, preview: Preview) -> list[str]:
    tags = [
        '<meta property="og:type" content="website">',
        f'<meta property="og:site_name" content="{SITE_NAME}">',
        f'<meta property="og:title" content="{e(preview.title)}">',
        f'<meta property="og:description" content="{e(preview.description)}">',
        f'<meta property="og:url" content="{e(preview.url)}">',
        f'<meta property="og:locale" content="{OG_LOCALES.get(lang, "en_GB")}">',
    ]
    if preview.image is not None:
        tags.append(f'<meta property="og:image" content="{e(preview.image)}">')
        tags.append(f'<meta property="og:image:alt" content="{e(preview.title)}">')
        if preview.size is not None:
            tags.append(f'<meta property="og:image:width" content="{preview.size[0]}">')
            tags.append(f'<meta property="og:image:height" content="{preview.size[1]}">')
        tags.append('<meta name="twitter:card" content="summary_large_image">')
        tags.append(f'<meta name="twitter:image" content="{e(preview.image)}">')
    else:
        tags.append('<meta name="twitter:card" content="summary">')
    tags.append(f'<meta name="twitter:title" content="{e(preview.title)}">')
    tags.append(f'<meta name="twitter:description" content="{e(preview.description)}">')
    return tags


def message_page(lang: str, key: str) -> str:
    """A short page saying what went wrong (``web.<key>.title`` and ``.text``),
    without any detail of it."""
    title = t(lang, f"web.{key}.title")
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="{e(lang)}">',
            '<head><meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{e(title)} · {SITE_NAME}</title></head>",
            f"<body><h1>{e(title)}</h1><p>{e(t(lang, f'web.{key}.text'))}</p></body>",
            "</html>",
            "",
        ]
    )
