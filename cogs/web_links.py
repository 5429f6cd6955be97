"""Links from Discord posts to the bot's web pages (web/, ``bot.weblinks``).

A post links to a page only when the bot serves the pages (``WEB_PORT`` set)
and its server has not turned them off (``/game settings web:off``). With no
pages served, the database is not even asked: the posts stay as they were.
Each link is a link button, labelled in the language of the post it sits in.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord

from bot import i18n
from bot.weblinks import game_url, server_url

if TYPE_CHECKING:
    from bot.app import Caravanserai
    from bot.session import Session

EMOJI = "🌐"


async def pages_base(client: discord.Client, guild_id: int) -> str | None:
    """The pages' public address for links in server ``guild_id``; None when
    there is nothing to link to (no pages served, or the server opted out)."""
    bot = cast("Caravanserai", client)
    base = bot.config.web_base_url
    if bot.config.web_port is None or base is None:
        return None
    return base if await bot.service.web_enabled(guild_id) else None


async def game_page_link(
    client: discord.Client, session: Session, locale: object
) -> list[discord.ui.Item[Any]]:
    """The link to ``session``'s page, as a button for the post's row (none
    when there is no page to link to)."""
    guild_id = session.record.guild_id
    base = await pages_base(client, guild_id)
    if base is None:
        return []
    return [link_button(game_url(base, guild_id, session.id), i18n.t(locale, "links.game_page"))]


async def server_page_view(
    client: discord.Client, guild_id: int, locale: object
) -> discord.ui.View | None:
    """The link to the server's standings and games, as the view of a message
    with an embed (None when there is no page to link to)."""
    base = await pages_base(client, guild_id)
    if base is None:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(link_button(server_url(base, guild_id), i18n.t(locale, "links.server_page")))
    return view


def link_button(url: str, label: str) -> discord.ui.Button[Any]:
    # A link button has no custom_id: Discord opens the URL, the bot hears nothing.
    return discord.ui.Button(label=label, url=url, emoji=EMOJI)


def web_setting_line(locale: object, enabled: bool, served: bool) -> str:
    """/game settings' line about the web pages: the server's choice, and, when
    the bot serves no pages, that the choice waits until it does."""
    line = i18n.t(locale, "settings.web_on" if enabled else "settings.web_off")
    return line if served else f"{line} {i18n.t(locale, 'settings.web_not_served')}"
