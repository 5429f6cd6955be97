"""One translation system: every catalogue complete in English and French.

Sources are the engines' shared words (games/locales), the bot's replies
(bot/locales) and each registered game's package (the test-only game
included), all in the same format.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot import i18n
from games import catalogue
from games.text import Term
from tests.contract import all_specs

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ["games", "bot", *(spec.package for spec in all_specs().values())]


@pytest.mark.parametrize("source", SOURCES)
def test_each_catalogue_has_the_same_keys_and_placeholders_in_both_languages(
    source: str,
) -> None:
    english = catalogue.load_source(source, "en")
    french = catalogue.load_source(source, "fr")
    assert english and set(english) == set(french)
    for key, template in english.items():
        assert catalogue.placeholders(template) == catalogue.placeholders(french[key]), key
        # A plural is a plural in both languages.
        assert isinstance(template, str) == isinstance(french[key], str), key


@pytest.mark.parametrize("source", SOURCES[2:])
def test_a_game_owns_only_keys_under_its_own_name(source: str) -> None:
    spec = next(s for s in all_specs().values() if s.package == source)
    assert all(k.startswith(f"{spec.kind}.") for k in catalogue.load_source(source, "en"))


def keys_used_in_code() -> set[str]:
    """Literal catalogue keys passed to t(...), UserError(...), cmd(...) in bot/ and cogs/."""
    pattern = re.compile(
        r"""(?:\bt\([^,()]+,\s*|UserError\(|cmd\([^,()]+,\s*)"([a-z_]+(?:\.[a-z_]+)+)\""""
    )
    keys: set[str] = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def test_every_key_used_by_the_platform_exists() -> None:
    all_specs()  # the games' catalogues too (cogs name their commands' keys)
    used = keys_used_in_code()
    assert len(used) > 60  # the scan really finds the keys
    for lang in catalogue.LANGUAGES:
        missing = sorted(key for key in used if not catalogue.has(key, lang))
        assert not missing, lang


def test_plurals_follow_each_language() -> None:
    all_specs()
    assert i18n.t("en", "desert.log.area", count=1) == "encloses 1 space"
    assert i18n.t("en", "desert.log.area", count=2) == "encloses 2 spaces"
    assert i18n.t("fr", "desert.log.area", count=1) == "encercle 1 case"
    assert i18n.t("fr", "desert.log.area", count=2) == "encercle 2 cases"
    assert i18n.t("en", "common.points", count=0) == "0 points"
    assert i18n.t("fr", "common.points", count=0) == "0 point"


def test_language_from_discord_locales() -> None:
    assert i18n.language("fr") == "fr"
    assert i18n.language("en-US") == "en"
    assert i18n.language(None) == "en"
    assert i18n.language("ja") == "en"


def test_terms_and_lists_are_translated_as_params() -> None:
    all_specs()
    white = Term("desert.colour.white")
    assert i18n.t("fr", "desert.log.camel", colour=white, space="F7") == "blanc F7"
    assert i18n.t("en-GB", "desert.log.camel", colour=white, space="F7") == "white F7"
    both = (white, Term("desert.colour.green"))
    assert i18n.t("fr", "desert.hand.leaders_left", colours=both).endswith("blanc, vert")


def test_unknown_placeholder_does_not_crash() -> None:
    assert "{players}" in i18n.t("fr", "game.not_your_turn")


def test_wrapped_engine_errors_translate_the_inner_reason() -> None:
    all_specs()
    reason = Term("desert.r9", {"space": "G8", "colour": Term("desert.colour.white")})
    text = i18n.t("fr", "desert.part_failed", index=2, part="white G8", reason=reason)
    assert "chameau 2" in text
    assert "G8 n'est pas voisine de votre caravane (blanc)." in text and "R9" not in text


def test_leaderboard_rows_count_in_words() -> None:
    one, two = ({"count": n} for n in (1, 2))
    row = {"rank": 1, "player": "A", "rate": 50}
    wins, games = Term("leaderboard.wins", one), Term("leaderboard.games", two)
    assert i18n.t("en", "leaderboard.row", wins=wins, games=games, **row) == (
        "1. A — 1 win / 2 games (50%)"
    )
    assert i18n.t("fr", "leaderboard.row", wins=wins, games=games, **row) == (
        "1. A — 1 victoire / 2 parties (50 %)"
    )


# --------------------------------------------------------------------------- format safety

HOSTILE = "Cannot read '{0}' {__class__} {text} {x.__init__.__globals__} {y[0]} {"


def test_a_missing_key_returns_its_default_verbatim() -> None:
    params = {"text": "boom", "x": "X", "y": "Y", "count": 2}
    for lang in ("en", "fr", "de"):
        assert catalogue.text(lang, "no.such.key", params, HOSTILE) == HOSTILE
        assert i18n.t(lang, "no.such.key", default=HOSTILE, text="boom") == HOSTILE
        assert i18n.translate(lang, "", params, HOSTILE) == HOSTILE
    # without a default, the key itself, verbatim too
    assert catalogue.text("en", "no.such.{text}", {"text": "boom"}) == "no.such.{text}"


def test_an_engine_error_echoing_the_players_input_is_shown_as_typed() -> None:
    from bot.errors import refusal
    from games.contract import InvalidMove

    typed = "{0.__class__} {text} }{"
    error = InvalidMove(f"Cannot read '{typed}'", text=typed)  # no catalogue key
    assert refusal("fr", error) == f"Cannot read '{typed}'"


def test_params_are_values_never_templates() -> None:
    attacks = ["{0.__class__}", "{count.__class__.__mro__}", "{names}", "{{x}}", "{", "}"]
    for attack in attacks:
        assert catalogue.text("en", "common.player", {"number": attack}) == f"Player {attack}"
        assert i18n.t("fr", "common.won", label=attack, names="Zoë") == f"{attack} : Zoë"
        term = Term("common.player", {"number": attack})
        assert i18n.t("en", "common.won", label="Winner", names=term) == (
            f"Winner: Player {attack}"
        )


def test_only_plain_placeholders_are_filled() -> None:
    values: dict[str, object] = {"name": "Zoë", "n": 3}
    assert catalogue.fill("{name} has {n:02d}", values) == "Zoë has 03"
    assert catalogue.fill("{name!r}", values) == "'Zoë'"
    assert catalogue.fill("{name:d}", values) == "Zoë"  # a spec that does not suit: str
    for field in ("{0}", "{}", "{name.__class__}", "{name[0]}", "{other}", "{name:{n}}"):
        assert catalogue.fill(field, values) == field
    assert catalogue.fill("{{name}}", values) == "{name}"
    assert catalogue.fill("broken } {", values) == "broken } {"


def test_callers_that_pass_a_default_still_get_it() -> None:
    all_specs()
    assert i18n.t("en", "desert.score.no_such_category", default="camels") == "camels"
    assert i18n.t("en", "no.such.footer", default="") == ""
    assert catalogue.text("fr", "common.no_such_tag", default="bot") == "bot"
    assert catalogue.text("en", "desert.board.no_such_word", default="Oases") == "Oases"
