"""Texts that name a slash command name one that exists, in the text's language.

A French player typing "/nomadi move" from the footer met an unknown command:
the French command is ``/nomadi coup``. Every catalogue message is searched for
``/command sub`` and checked against the command tree the bot registers (its
translated payloads, as Discord receives them). Embed footers are plain text
too: Discord renders no Markdown there, so no backticks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from typing import Any

import pytest

from bot import registry
from games import catalogue
from tests.test_commands import command_payloads

# A slash at a word's start (not "1/2", not a URL's path), then a name and maybe a subcommand.
MENTION = re.compile(r"(?:^|(?<=[\s`(«\"']))/([^\W\d][\w-]*)(?: ([^\W\d][\w-]*))?")


def named_commands(payloads: list[dict[str, Any]], lang: str) -> dict[str, set[str]]:
    """Each top-level command's name in ``lang`` -> its subcommands' names there."""

    def name(item: Mapping[str, Any]) -> str:
        return str(
            item.get("name_localizations", {}).get(lang, item["name"])
            if lang != "en"
            else item["name"]
        )

    return {
        name(command): {name(o) for o in command.get("options", []) if o.get("type") in (1, 2)}
        for command in payloads
    }


def texts(lang: str) -> Iterator[tuple[str, str]]:
    for key, template in catalogue.messages(lang).items():
        if isinstance(template, str):
            yield key, template
        else:
            yield from ((key, form) for form in template.values())


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_every_command_a_text_names_exists_in_its_language(lang: str) -> None:
    # With the test game: another test may have added its texts to the catalogue.
    commands = named_commands(await command_payloads(("tests.nim",)), lang)
    wrong = []
    for key, text in texts(lang):
        for group, sub in MENTION.findall(text):
            if group not in commands:
                wrong.append((key, f"/{group}"))
            elif commands[group] and sub and sub not in commands[group]:
                wrong.append((key, f"/{group} {sub}"))
    assert not wrong


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_footers_hold_no_markdown(lang: str) -> None:
    footers = {k: t for k, t in texts(lang) if k.endswith(".footer")}
    assert footers
    assert not {k: t for k, t in footers.items() if "`" in t or "*" in t}


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_every_game_has_a_help_section_and_a_footer(lang: str) -> None:
    """Sahwari had neither: /help skipped it and its posts ended on nothing."""
    messages = catalogue.messages(lang)
    shipped = [s.kind for s in registry.specs().values() if s.package in registry.GAMES]
    assert shipped
    for kind in shipped:
        for key in (f"{kind}.help", f"{kind}.footer"):
            text = messages.get(key)
            assert isinstance(text, str) and text.strip(), key
        assert len(str(messages[f"{kind}.help"])) <= 1024  # an embed field's limit
