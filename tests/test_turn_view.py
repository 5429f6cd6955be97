"""The buttons under a turn post speak the language of the text above them.

A private step's answer was in the reader's language with the buttons in the
game's: a French player read "Your move" under French text. And the post is
one Components V2 card (texts, board, buttons in one container) whose texts
keep within Discord's limit.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot import i18n
from bot.service import GameService
from cogs.replies import EMBED_COLOUR, TEXT_LIMIT, GameMessage
from cogs.turn_post import turn_buttons, turn_view
from tests.service_games import BOB, start_desert


def labels(view: discord.ui.View | None) -> list[str]:
    assert view is not None
    return labels_of(view.children)


def labels_of(items: Sequence[discord.ui.Item[Any]]) -> list[str]:
    buttons: list[Any] = [getattr(item, "item", item) for item in items]
    return [str(button.label) for button in buttons]


async def test_buttons_follow_the_language_they_are_given(service: GameService) -> None:
    session = await start_desert(service, BOB)
    assert session.lang == "en"
    public = labels(turn_view(session))
    private = labels(turn_view(session, "fr"))
    assert public[-1] == i18n.t("en", "button.move") == "Your move"
    assert private[-1] == i18n.t("fr", "button.move") == "À vous de jouer"


def card(lines: tuple[str, ...], buttons: tuple[discord.ui.Item[Any], ...] = ()) -> GameMessage:
    return GameMessage(
        heading="Oasis · game #1",
        lines=lines,
        scores=("▶ **1. alice** — 3", "**2. bob** — 1"),
        footer="Move with /oasis move",
        colour=EMBED_COLOUR,
        file=None,
        mentions=discord.AllowedMentions.none(),
        buttons=buttons,
    )


def test_a_long_turn_keeps_its_newest_lines_within_discords_text_limit() -> None:
    """All the card's texts fit Discord's 4000 characters together: the oldest
    lines go first, who is next (the last line) stays, with the scores."""
    lines = (*(f"line {i}: " + "x" * 100 for i in range(100)), "➡️ <@1>: your move")
    top, scores, footer = card(lines).texts()
    assert len(top) + len(scores) + len(footer) <= TEXT_LIMIT
    assert top.startswith("### Oasis · game #1\n") and top.endswith("➡️ <@1>: your move")
    assert "line 0:" not in top and "line 99:" in top
    assert scores == "▶ **1. alice** — 3\n**2. bob** — 1" and footer == "-# Move with /oasis move"
    view = card(lines).layout()
    assert view.content_length() <= TEXT_LIMIT


async def test_a_card_holds_its_texts_and_buttons_in_one_container(service: GameService) -> None:
    session = await start_desert(service, BOB)
    buttons = tuple(turn_buttons(session))
    view = card(("alice: placed",), buttons).layout()
    [container] = view.children
    assert isinstance(container, discord.ui.Container)
    kinds = [type(item).__name__ for item in container.children]
    assert kinds == [
        "TextDisplay",
        "TextDisplay",
        "TextDisplay",
        "ActionRow",
    ]  # no board: no gallery
    [row] = [item for item in container.children if isinstance(item, discord.ui.ActionRow)]
    assert labels_of(row.children) == labels_of(buttons)
    assert view.total_children_count <= 40
