"""Paged private replies: ◀ n/N ▶ buttons that rebuild the page they lead to.

Each *kind* of paged reply (``history``, ``rules``) is a subclass of
:class:`PageButton` that builds its pages::

    class RulesPages(PageButton, kind="rules"):
        @classmethod
        async def build(cls, interaction, args, page): ...

:func:`send_pages` answers a command with its first page and the buttons.
Each button is a discord.py ``DynamicItem`` whose ``custom_id`` names the
kind, its arguments and the page it leads to (``page:history:12:2:n``); the
cog that owns a kind adds its class to the bot's dynamic items, so discord.py
routes a click to it, even after a restart, and the page is rebuilt from the
database or the files and edits the message in place.

Pages count from 1; a page out of range is clamped by the builder (see
:func:`clamp`). The replies are ephemeral: only the user who asked sees
them, so whoever clicks may page.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Self

import discord

from cogs.interactions import run_component

CUSTOM_ID_LIMIT = 100  # Discord's limit for a component's custom_id
KIND = re.compile(r"[a-z_]{1,20}")
PREVIOUS, INDICATOR, NEXT = "p", "i", "n"  # the three buttons; each custom_id is unique


@dataclass(frozen=True)
class PageContent:
    """One page: its text and/or embed, which page it is (clamped) and how many there are."""

    text: str | None = None
    embed: discord.Embed | None = None
    page: int = 1
    pages: int = 1


# --------------------------------------------------------------------------- arithmetic


def page_count(total: int, per_page: int) -> int:
    """How many pages ``total`` items fill, ``per_page`` at a time (at least one)."""
    return max(1, -(-total // per_page))


def clamp(page: int, pages: int) -> int:
    """``page`` brought into ``1..pages``."""
    return min(max(page, 1), max(pages, 1))


def newest_first(total: int, page: int, per_page: int) -> tuple[int, int]:
    """The slice ``[start, end)`` of ``total`` items (oldest first) that page ``page``
    shows when page 1 holds the newest ones; ``page`` is clamped first."""
    page = clamp(page, page_count(total, per_page))
    end = max(total - (page - 1) * per_page, 0)
    return max(end - per_page, 0), end


# --------------------------------------------------------------------------- buttons


def custom_id(kind: str, args: Sequence[str], page: int, button: str) -> str:
    """``page:<kind>:<arg>…:<page>:<button>``; arguments may not hold ``:``."""
    if any(":" in arg for arg in args):
        raise ValueError(f"pager arguments may not contain ':': {args!r}")
    text = ":".join(("page", kind, *args, str(page), button))
    if len(text) > CUSTOM_ID_LIMIT:
        raise ValueError(f"custom_id too long ({len(text)}): {text!r}")
    return text


def template(kind: str) -> str:
    """The ``custom_id`` pattern of one kind's buttons (``kind`` fixed)."""
    return rf"page:{kind}(?P<args>(?::[^:]*)*):(?P<page>\d{{1,6}}):(?P<button>[pin])"


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=template(r"(?P<kind>[a-z_]+)")
):
    """◀ (previous), the n/N indicator (disabled) and ▶ (next) of one kind of
    paged reply; a subclass per kind (``kind=``) builds its pages. This base
    class is never added to a bot: its template is the shape of every kind's."""

    LABELS = {PREVIOUS: "◀", NEXT: "▶"}
    kind: ClassVar[str]

    def __init_subclass__(cls, *, kind: str) -> None:
        if not KIND.fullmatch(kind):
            raise ValueError(f"pager kind {kind!r} must be lowercase letters")
        super().__init_subclass__(template=template(kind))
        cls.kind = kind

    def __init__(
        self,
        args: tuple[str, ...],
        page: int,
        button: str,
        *,
        label: str = "",
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label or self.LABELS.get(button, str(page)),
                style=discord.ButtonStyle.secondary,
                custom_id=custom_id(self.kind, args, page, button),
                disabled=disabled,
            )
        )
        self.args = args
        self.page = page

    @classmethod
    async def build(
        cls, interaction: discord.Interaction, args: tuple[str, ...], page: int
    ) -> PageContent:
        """Page ``page`` (1-based, maybe out of range: clamp it) of a reply of this
        kind, in the interaction's language."""
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        args = tuple(match["args"].split(":")[1:])
        return cls(args, int(match["page"]), match["button"])

    async def callback(self, interaction: discord.Interaction) -> None:
        await run_component(interaction, self.turn(interaction))

    async def turn(self, interaction: discord.Interaction) -> None:
        content = await self.build(interaction, self.args, self.page)
        await interaction.response.edit_message(
            content=content.text,
            embed=content.embed,
            view=pager_view(type(self), self.args, content.page, content.pages),
            allowed_mentions=discord.AllowedMentions.none(),
        )


def pager_view(
    kind: type[PageButton], args: Sequence[str], page: int, pages: int
) -> discord.ui.View | None:
    """◀ n/N ▶ for a reply of several pages; None for a single page."""
    if pages <= 1:
        return None
    page = clamp(page, pages)
    args = tuple(args)
    view = discord.ui.View(timeout=None)
    view.add_item(kind(args, max(page - 1, 1), PREVIOUS, disabled=page <= 1))
    view.add_item(kind(args, page, INDICATOR, label=f"{page}/{pages}", disabled=True))
    view.add_item(kind(args, min(page + 1, pages), NEXT, disabled=page >= pages))
    return view


async def send_pages(
    interaction: discord.Interaction,
    kind: type[PageButton],
    args: Sequence[str],
    page: int = 1,
    *,
    content: PageContent | None = None,
    file: discord.File | None = None,
) -> None:
    """Answer ``interaction`` privately with page ``page`` of a ``kind`` reply and
    its buttons (and ``file``, which stays on the message while it is paged).
    ``content``: that page, when the caller has already built it."""
    args = tuple(args)
    if content is None:
        content = await kind.build(interaction, args, page)
    kwargs: dict[str, Any] = {
        "ephemeral": True,
        "allowed_mentions": discord.AllowedMentions.none(),
    }
    if content.text is not None:
        kwargs["content"] = content.text
    if content.embed is not None:
        kwargs["embed"] = content.embed
    view = pager_view(kind, args, content.page, content.pages)
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    await interaction.response.send_message(**kwargs)
