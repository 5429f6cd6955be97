"""Every message exists in English and French with the same placeholders."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

from bot import i18n
from games.desert.messages import MESSAGES as DESERT_MESSAGES

ROOT = Path(__file__).resolve().parents[1]


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def keys_used_in_code() -> set[str]:
    """Literal catalogue keys passed to t(...) or UserError(...) in bot/ and cogs/."""
    pattern = re.compile(r"""(?:\bt\([^,()]+,\s*|UserError\()"([a-z_]+(?:\.[a-z_]+)+)\"""")
    keys: set[str] = set()
    for folder in ("bot", "cogs"):
        for path in (ROOT / folder).rglob("*.py"):
            keys.update(pattern.findall(path.read_text(encoding="utf-8")))
    return keys


def test_english_and_french_have_the_same_keys() -> None:
    assert set(i18n.catalogue("en")) == set(i18n.catalogue("fr"))


def test_placeholders_match_between_languages() -> None:
    fr = i18n.catalogue("fr")
    for key, english in i18n.catalogue("en").items():
        assert placeholders(english) == placeholders(fr[key]), key


def test_every_key_used_in_code_exists() -> None:
    used = keys_used_in_code()
    assert len(used) > 40  # the scan really finds the keys
    missing = sorted(key for key in used if not i18n.has(key))
    assert not missing


@pytest.mark.parametrize("key", sorted(DESERT_MESSAGES))
def test_every_engine_error_is_translated(key: str) -> None:
    french = i18n.catalogue("fr").get(key)
    assert french, f"no French for engine message {key}"
    assert placeholders(french) == placeholders(DESERT_MESSAGES[key])
    assert i18n.catalogue("en")[key] == DESERT_MESSAGES[key]


def test_language_from_discord_locales() -> None:
    assert i18n.language("fr") == "fr"
    assert i18n.language("en-US") == "en"
    assert i18n.language(None) == "en"
    assert i18n.language("ja") == "en"


def test_colours_are_translated_as_params() -> None:
    assert i18n.t("fr", "desert.log.camel", colour="white", space="F7") == "blanc F7"
    assert i18n.t("en-GB", "desert.log.camel", colour="white", space="F7") == "white F7"


def test_unknown_placeholder_does_not_crash() -> None:
    assert "{players}" in i18n.t("fr", "game.not_your_turn")


def test_wrapped_engine_errors_translate_the_inner_reason() -> None:
    text = i18n.t(
        "fr",
        "desert.part_failed",
        index=2,
        part="white G8",
        reason="R9: …",
        reason_key="desert.r9",
        space="G8",
        colour="white",
    )
    assert "chameau 2" in text
    assert "R9 : G8 n'est pas voisine de votre caravane (blanc)." in text
