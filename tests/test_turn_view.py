"""The buttons under a turn post speak the language of the text above them.

A private step's answer was in the reader's language with the buttons in the
game's: a French player read "Your move" under French text.
"""

from __future__ import annotations

from typing import Any

import discord

from bot import i18n
from bot.service import GameService
from cogs.turn_post import turn_view
from tests.service_games import BOB, start_desert


def labels(view: discord.ui.View | None) -> list[str]:
    assert view is not None
    buttons: list[Any] = [getattr(item, "item", item) for item in view.children]
    return [str(button.label) for button in buttons]


async def test_buttons_follow_the_language_they_are_given(service: GameService) -> None:
    session = await start_desert(service, BOB)
    assert session.lang == "en"
    public = labels(turn_view(session))
    private = labels(turn_view(session, "fr"))
    assert public[-1] == i18n.t("en", "button.move") == "Your move"
    assert private[-1] == i18n.t("fr", "button.move") == "À vous de jouer"
