"""Names and user text safe to store and to post: nothing invisible is kept,
nothing a player types turns into Markdown, a link or a mention."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.names import ELLIPSIS, NAME_LIMIT, clean_name, clean_text, clusters, md

ZWSP = "\u200b"
MARKDOWN = set("\\*_~`|>#-[]()<:")
FORMAT_CHARS = (
    "\u202a\u202b\u202c\u202d\u202e"  # bidi embeddings and overrides
    "\u2066\u2067\u2068\u2069"  # bidi isolates
    "\u200b\u200c\u200d\u2060\ufeff"  # zero-width space, (non-)joiner, word joiner, BOM
    "\u00ad\u200e\u200f\u061c\u2061\U000e0001"  # soft hyphen, marks, invisible operator, tag
)


def invisible(text: str) -> list[str]:
    return [ch for ch in text if unicodedata.category(ch) in {"Cc", "Cf", "Cs"}]


def discord_shows(message: str) -> tuple[str, set[str]]:
    """What Discord's Markdown shows for ``message`` (a backslash before any
    ASCII punctuation shows that character alone), and the Markdown
    characters left unescaped (which Discord could act on)."""
    shown: list[str] = []
    active: set[str] = set()
    i = 0
    while i < len(message):
        ch = message[i]
        if ch == "\\" and i + 1 < len(message) and not message[i + 1].isalnum():
            shown.append(message[i + 1])
            i += 2
            continue
        if ch in MARKDOWN:
            active.add(ch)
        shown.append(ch)
        i += 1
    return "".join(shown), active


def check_literal(raw: str) -> str:
    """``md(raw)`` shows ``raw`` as is (on one line), with nothing left to act on."""
    escaped = md(raw)
    shown, active = discord_shows(escaped)
    assert not active, (raw, escaped)
    assert "\n" not in escaped and "\r" not in escaped
    bare = re.sub(r"\\.", "", escaped)  # what is not escaped
    assert "](" not in bare and "<" not in bare and "[" not in bare
    assert "@everyone" not in escaped and "@here" not in escaped
    assert shown.replace("@" + ZWSP, "@") == raw
    return escaped


# --------------------------------------------------------------------------- md


def test_markdown_in_a_name_shows_literally() -> None:
    raw = "**bold** __u__ ~~s~~ ||spoiler|| `code`"
    escaped = check_literal(raw)
    assert escaped == (r"\*\*bold\*\* \_\_u\_\_ \~\~s\~\~ \|\|spoiler\|\| \`code\`")


def test_no_masked_link_or_url_can_form() -> None:
    escaped = check_literal("[free nitro](https://evil.example)")
    assert escaped == r"\[free nitro\]\(https\://evil.example\)"
    assert "https://" not in md("see https://evil.example")


@pytest.mark.parametrize(
    "raw",
    [
        "@everyone",
        "@here",
        "hi @everyone!",
        "<@123>",
        "<@!123>",
        "<@&456>",
        "<#789>",
        "<:camel:1>",
        "<t:1700000000:R>",
        "</play:1>",
        "@EVERYONE",
    ],
)
def test_no_mention_or_tag_can_form(raw: str) -> None:
    escaped = check_literal(raw)
    assert "<" not in escaped.replace("\\<", "")
    if "@" in raw:
        assert "@" + ZWSP in escaped


@pytest.mark.parametrize(
    "raw",
    [
        "# Title",
        "## Title",
        "### Title",
        "-# small",
        "- item",
        "* item",
        "> quote",
        ">>> quotes",
        "1. item",
        "  12. item",
        "a\\b",
        "\\*",
        "`` x ``",
        "```py",
    ],
)
def test_line_start_syntax_and_backslashes_show_literally(raw: str) -> None:
    escaped = check_literal(raw)
    assert escaped.lstrip()[:1] not in MARKDOWN - {"\\"}
    if raw.lstrip()[:1].isdigit():
        assert "\\." in escaped


def test_md_keeps_everything_on_one_line() -> None:
    escaped = md("line one\nline two\r\n# three\u2028four\rfive")
    assert escaped == r"line one line two  \# three four five"


def test_md_drops_invisible_characters() -> None:
    assert md("\u202eevil\u200b") == "evil"
    assert md(FORMAT_CHARS + "x") == "x"


def test_md_leaves_plain_text_alone() -> None:
    assert md("Chloé & Zoë 🐪, 3 + 4 = 7!") == "Chloé & Zoë 🐪, 3 + 4 = 7!"


@given(st.text())
def test_md_always_shows_the_text_literally(raw: str) -> None:
    escaped = md(raw)
    shown, active = discord_shows(escaped)
    assert not active
    assert not any(ch in escaped for ch in "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029")
    assert invisible(escaped.replace("@" + ZWSP, "@")) == []
    visible = "".join(
        " " if ch.isspace() else ch
        for ch in unicodedata.normalize("NFC", raw)
        if ch.isspace() or not invisible(ch)
    )
    assert shown.replace("@" + ZWSP, "@") == visible


# --------------------------------------------------------------------------- clean_name


def test_a_name_keeps_its_markdown_to_be_escaped_when_shown() -> None:
    raw = "**bold** __u__ ~~s~~ ||spoiler|| `code`"
    assert clean_name(raw, limit=64) == raw  # stored as typed; md() escapes it
    assert clean_name(raw) == raw[:31] + ELLIPSIS


def test_bidi_overrides_and_zero_width_characters_go() -> None:
    assert clean_name("\u202eevil") == "evil"
    assert clean_name("ad\u200bmin\u200d\u2060\ufeff") == "admin"
    assert clean_name("\u2066Zoë\u2069 \u200e") == "Zoë"
    assert clean_name("So\u00adphie") == "Sophie"  # soft hyphen


def test_an_all_format_characters_name_falls_back() -> None:
    assert clean_name(FORMAT_CHARS) == "?"
    assert clean_name(FORMAT_CHARS, fallback="player") == "player"
    assert clean_name("  \t\n ", fallback="Player 2") == "Player 2"
    assert clean_name("\x00\x07\x1b[31m") == "[31m"  # controls go, the rest stays
    with pytest.raises(ValueError):
        clean_name("x", fallback="")


def test_whitespace_is_collapsed_and_newlines_go() -> None:
    assert clean_name("  Jean \t\n  Pierre  ") == "Jean Pierre"
    assert clean_name("a\u2028b\u00a0c") == "a b c"


def test_long_names_are_capped_with_an_ellipsis() -> None:
    name = clean_name("A" * 200)
    assert len(name) == NAME_LIMIT and name == "A" * 31 + ELLIPSIS
    assert clean_name("Bartholomew " * 20, limit=20) == "Bartholomew Barthol…"
    assert clean_name("word " * 3 + "x" * 40, limit=16) == "word word word…"  # no space before …
    assert clean_name("Alice", limit=5) == "Alice"
    assert clean_name("Alice!", limit=5) == "Alic…"
    assert clean_name("Alice", limit=1) == ELLIPSIS
    with pytest.raises(ValueError):
        clean_name("Alice", limit=0)


def test_names_are_nfc() -> None:
    assert clean_name("Zoe\u0308") == "Zoë" and len(clean_name("Zoe\u0308")) == 3


def test_a_cut_never_splits_a_character_from_its_marks() -> None:
    # "q" + acute + dot below (no precomposed form): 3 code points, one character
    letter = unicodedata.normalize("NFC", "q\u0301\u0323")
    assert len(letter) == 3
    name = clean_name(letter * 20, limit=10)
    assert name == letter * 3 + ELLIPSIS
    emoji = "👍🏽"  # thumbs up + skin tone: one character on screen
    name = clean_name("x" + emoji * 20, limit=6)
    assert name == "x" + emoji * 2 + ELLIPSIS
    flags = "🇫🇷🇩🇪🇮🇹"
    assert clean_name(flags * 3, limit=6) == "🇫🇷🇩🇪" + ELLIPSIS


def test_emoji_with_combining_marks_stay_whole() -> None:
    raw = "Ka\u0301ra 🐪\ufe0f 1\ufe0f\u20e3"  # accent, emoji variation selector, keycap
    assert clean_name(raw) == unicodedata.normalize("NFC", raw)
    assert list(clusters("1\ufe0f\u20e3🐪\ufe0f")) == ["1\ufe0f\u20e3", "🐪\ufe0f"]


def test_stacked_marks_are_capped() -> None:
    zalgo = "q" + "\u0301\u0300\u0302\u0308\u0303\u0304" * 5 + "oe"
    name = clean_name(zalgo)
    assert name == "q\u0301\u0300\u0302\u0308oe"
    assert clean_name("\u0301\u0301Zoë") == "Zoë"  # marks with nothing to sit on


def test_lone_surrogates_go() -> None:
    assert clean_name("Zo\ud83dë") == "Zoë"
    assert clean_name("Zo\ud83dë").encode("utf-8")


def test_clean_text_may_be_empty_and_uncapped() -> None:
    assert clean_text("\u202e") == ""
    assert clean_text("x" * 500) == "x" * 500
    assert clean_text("x" * 500, 100) == "x" * 99 + ELLIPSIS


@given(st.text(), st.integers(min_value=1, max_value=64))
def test_a_clean_name_is_never_empty_never_too_long_never_invisible(raw: str, limit: int) -> None:
    name = clean_name(raw, limit)
    assert name and len(name) <= limit
    assert invisible(name) == []
    assert name == name.strip() and "  " not in name
    assert unicodedata.is_normalized("NFC", name) or name.endswith(ELLIPSIS)
    assert clean_name(name, limit) == name  # cleaning twice changes nothing


def test_a_name_to_post_is_cleaned_then_escaped() -> None:
    posted = md(clean_name("\u202e@everyone [x](https://e.example) **" + "z" * 200, limit=64))
    shown, active = discord_shows(posted)
    assert not active and "@everyone" not in posted and "](" not in posted
    assert shown.replace("@" + ZWSP, "@").startswith("@everyone [x](https://e.example) **z")
    assert shown.endswith(ELLIPSIS)
