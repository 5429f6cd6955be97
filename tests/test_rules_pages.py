"""The ``/rules`` pages: every game has them in both languages, each page fits a
Discord message, and the notation they teach is the notation the engines read.

The last page of each file ("Playing here" / "Jouer ici") shows the game's
command and its notation. Its example lines have one format::

    - `<notation>` — what it does

Each example must read back through the game's notation, be written exactly
as the bot itself writes those moves in that language (so the French page
shows the French words players see suggested), and be made of moves that
real games offer: every step's shape (ids replaced by ``#``) is looked for
among the legal moves of seeded bot games. Every other backticked text on
that page is a slash command with the names Discord shows in that language,
or notation the game reads.
"""

from __future__ import annotations

import importlib
import re
import unicodedata
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from bot import registry
from games import catalogue
from games.contract import GameSpec, bot_move
from games.rules_pages import PAGE_LIMIT, page_title, pages, split

SPECS: Mapping[str, GameSpec] = registry.specs()
LANGS = ("en", "fr")
LAST_TITLE = {"en": "Playing here", "fr": "Jouer ici"}
EXAMPLE = re.compile(r"^- `([^`]+)` — \S", re.MULTILINE)
SPAN = re.compile(r"`([^`]+)`")
BY_LANG = [(key, lang) for key in SPECS for lang in LANGS]


def _last_page(key: str, lang: str) -> str:
    return pages(SPECS[key].package, lang)[-1]


def _examples(key: str, lang: str) -> list[str]:
    return EXAMPLE.findall(_last_page(key, lang))


# --------------------------------------------------------------------------- notation helpers


def _read(key: str, text: str) -> tuple[Any, ...]:
    """The atomic moves ``text`` names, by the game's notation alone (no state)."""
    notation = importlib.import_module(f"{SPECS[key].package}.notation")
    if key != "desert":
        moves: tuple[Any, ...] = notation.parse_text(text)
        return moves
    from games.desert import Discard, Pass, PlaceCamel

    command = notation.read(text)
    if command.kind == "pass":
        return (Pass(),)
    if command.kind == "discard":
        return (Discard(command.colour),)
    return tuple(PlaceCamel(colour, at) for colour, at in command.places)


def _written(spec: GameSpec, lang: str, move: Any) -> str:
    """A move as the bot writes it in ``lang`` (the words autocomplete shows)."""
    words = spec.engine.move_words(move)
    return spec.engine.format_move(move) if words is None else catalogue.term(lang, words)


def _norm(text: str) -> str:
    """Case, separators and bracketed notes (``prendre 2 (rouge (siège 2))``) aside."""
    text = unicodedata.normalize("NFC", text).casefold()
    while (bare := re.sub(r"\([^()]*\)", " ", text)) != text:  # innermost first
        text = bare
    return " ".join(text.replace(";", " ").replace(",", " ").split())


def _shape(text: str) -> str:
    """The words of a move with every id or number as ``#``: ``orange #``,
    ``# #-#`` (a die move), ``camel #>#`` (a camel moved), ``use convoy #``."""
    return re.sub(r"[^\W\d_]*\d+", "#", _norm(text))


def _names(source: str, lang: str) -> dict[str, str]:
    """A catalogue's command and option names (``….name`` keys) in ``lang``."""
    return {
        key: value
        for key, value in catalogue.load_source(source, lang).items()
        if key.endswith(".name") and isinstance(value, str)
    }


def _commands(key: str, lang: str) -> dict[str, set[str]]:
    """Slash command (``/desert coup``) -> its option names, as Discord shows them in ``lang``."""
    bot = _names("bot", lang)
    game = _names(SPECS[key].package, lang)
    group = f"/{game[f'{key}.cmd.name']}"
    found = {f"{group} {bot['cmd.move.name']}": {bot["cmd.move.notation.name"]}}
    for names, prefix, slash in (
        (game, f"{key}.cmd", group),
        (bot, "cmd.game", f"/{bot['cmd.game.name']}"),
    ):
        for k, name in names.items():
            sub = re.fullmatch(rf"{re.escape(prefix)}\.(\w+)\.name", k)
            if sub:
                options = rf"{re.escape(prefix)}\.{sub.group(1)}\.\w+\.name"
                found[f"{slash} {name}"] = {v for o, v in names.items() if re.fullmatch(options, o)}
    return found


def _move_command(key: str, lang: str) -> str:
    bot = _names("bot", lang)
    name = _names(SPECS[key].package, lang)[f"{key}.cmd.name"]
    return f"/{name} {bot['cmd.move.name']} {bot['cmd.move.notation.name']}:"


def _hand_command(lang: str) -> str:
    bot = _names("bot", lang)
    return f"/{bot['cmd.game.name']} {bot['cmd.game.hand.name']}"


# --------------------------------------------------------------------------- the loader


def test_pages_split_on_separator_lines_and_drop_empty_ones() -> None:
    text = "## One\nfirst --- not a separator\n---\n\n---   \n## Two\n- item\n\n---\n"
    assert split(text) == ("## One\nfirst --- not a separator", "## Two\n- item")
    assert split("") == ()


def test_page_title_is_the_first_heading() -> None:
    assert page_title("## Playing here\ntext\n## Later") == "Playing here"
    assert page_title("intro\n##  Spaced  \n") == "Spaced"
    assert page_title("no heading") == ""


def test_an_unknown_language_falls_back_to_english() -> None:
    for spec in SPECS.values():
        english = pages(spec.package, "en")
        assert pages(spec.package, "de") == english
        assert pages(spec.package, "") == english


def test_a_package_without_rules_files_has_no_pages() -> None:
    assert pages("games", "en") == ()
    assert pages("tests.nim", "fr") == ()


def test_pages_are_read_once() -> None:
    spec = next(iter(SPECS.values()))
    assert pages(spec.package, "fr") is pages(spec.package, "fr")


# --------------------------------------------------------------------------- the pages


@pytest.mark.parametrize("key", list(SPECS))
def test_both_languages_have_the_same_number_of_pages(key: str) -> None:
    english = pages(SPECS[key].package, "en")
    french = pages(SPECS[key].package, "fr")
    assert 3 <= len(english) <= 6
    assert len(french) == len(english)
    assert french != english


@pytest.mark.parametrize(("key", "lang"), BY_LANG)
def test_every_page_is_one_titled_discord_message(key: str, lang: str) -> None:
    found = pages(SPECS[key].package, lang)
    assert found, f"games/{key}/rulebook/{lang}.md is missing"
    titles = [page_title(page) for page in found]
    assert len(set(titles)) == len(titles)
    assert titles[-1] == LAST_TITLE[lang]
    for page, title in zip(found, titles, strict=True):
        assert page.startswith("## ") and title, page[:60]
        assert len(page) <= PAGE_LIMIT, f"{title}: {len(page)} characters"
        # Discord Markdown only: no tables, images, HTML or deeper headings.
        for line in page.splitlines():
            assert not line.lstrip().startswith("|"), line
            assert not line.startswith("### "), line
        assert "![" not in page and not re.search(r"</?[a-zA-Z]", page), title
        assert page.count("`") % 2 == 0 and page.count("**") % 2 == 0, title


@pytest.mark.parametrize(("key", "lang"), BY_LANG)
def test_the_last_page_names_the_commands_as_discord_shows_them(key: str, lang: str) -> None:
    page = _last_page(key, lang)
    spans = SPAN.findall(page)
    assert _move_command(key, lang) in spans
    assert _hand_command(lang) in spans  # every game here has private information
    commands = _commands(key, lang)
    for span in spans:
        if not span.startswith("/"):
            continue
        words = span.split()
        command = " ".join(words[:2])
        assert command in commands, f"{span!r}: no such command in {lang}"
        for option in words[2:]:
            assert option.endswith(":") and option[:-1] in commands[command], (span, option)


@pytest.mark.parametrize(("key", "lang"), BY_LANG)
def test_all_notation_on_the_last_page_is_read_by_the_game(key: str, lang: str) -> None:
    notation = [span for span in SPAN.findall(_last_page(key, lang)) if not span.startswith("/")]
    assert notation, "the last page shows no notation"
    for span in notation:
        assert _read(key, span), span  # raises InvalidMove if it is not notation


@pytest.mark.parametrize(("key", "lang"), BY_LANG)
def test_examples_are_written_as_the_bot_writes_them(key: str, lang: str) -> None:
    spec = SPECS[key]
    examples = _examples(key, lang)
    assert 4 <= len(examples) <= 8
    for example in examples:
        moves = _read(key, example)
        written = " ".join(_written(spec, lang, move) for move in moves)
        assert _norm(example) == _norm(written), (example, written)


def _wanted(key: str) -> set[tuple[str, str]]:
    """(language, shape) of every step of every example of the game."""
    spec = SPECS[key]
    return {
        (lang, _shape(_written(spec, lang, move)))
        for lang in LANGS
        for example in _examples(key, lang)
        for move in _read(key, example)
    }


def _offered(
    spec: GameSpec, wanted: set[tuple[str, str]], seeds: Sequence[int]
) -> set[tuple[str, str]]:
    """Shapes of the legal moves met in seeded bot games, in both languages;
    each game stops as soon as everything wanted has been met."""
    game = spec.engine
    players = max(game.min_players, min(3, game.max_players))
    seen: set[tuple[str, str]] = set()
    english: set[str] = set()
    for seed in seeds:
        state = game.new(players, seed)
        ply = 0
        while not wanted <= seen and game.outcome(state) is None:
            seats = game.to_act(state)
            for seat in seats:
                for move in game.legal_moves(state, seat):
                    shape = _shape(game.format_move(move))
                    if shape in english:
                        continue
                    english.add(shape)
                    seen.update((lang, _shape(_written(spec, lang, move))) for lang in LANGS)
            state = game.apply(state, seats[0], bot_move(game, spec.bot, state, seats[0], ply))
            ply += 1
        if wanted <= seen:
            break
    return seen


@pytest.mark.parametrize("key", list(SPECS))
def test_examples_are_moves_real_games_offer(key: str) -> None:
    wanted = _wanted(key)
    missing = wanted - _offered(SPECS[key], wanted, seeds=range(3))
    assert not missing, f"never a legal move in a bot game: {sorted(missing)}"
