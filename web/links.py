"""The addresses the pages link to, from the configured base URL.

Links inside a page start with the base URL's path only (``/s/…``, or
``/games/s/…`` behind a proxy that serves the site under ``/games``), so a
page works whatever host name reached it; link previews and oEmbed need
absolute addresses and use the whole base URL. A language chosen with
``?lang=`` is kept in the links between pages.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import urlencode, urlsplit

from bot import weblinks
from web.data import Position
from web.guard import parse_id
from web.style import ICON_FILE, STYLE_FILE

# A page of this site: a server's or a game's, with any query or fragment.
_PAGE = re.compile(r"/s/(?P<guild>[^/?#]+)(?:/g/(?P<game>[^/?#]+))?(?:[?#].*)?", re.DOTALL)


@dataclass(frozen=True)
class PageAddress:
    guild_id: int
    game_id: int | None


@dataclass(frozen=True)
class Links:
    base: str  # the public address, without a trailing slash
    lang: str | None = None  # the language the reader chose with ?lang=, kept in links

    @property
    def prefix(self) -> str:
        return urlsplit(self.base).path.rstrip("/")

    def root(self, absolute: bool) -> str:
        return self.base if absolute else self.prefix

    def query(self, **values: int | str | None) -> str:
        """``?a=1&lang=fr``: the values given (None left out) and the chosen language."""
        pairs = [(k, str(v)) for k, v in values.items() if v is not None]
        if self.lang is not None:
            pairs.append(("lang", self.lang))
        return "?" + urlencode(pairs) if pairs else ""

    def with_lang(self, lang: str) -> Links:
        return Links(self.base, lang)

    def server(self, guild_id: int, *, absolute: bool = False, page: int | None = None) -> str:
        url = weblinks.server_url(self.root(absolute), guild_id)
        return url + ("" if absolute else self.query(page=page))

    def game(
        self, guild_id: int, game_id: int, *, absolute: bool = False, query: bool = True
    ) -> str:
        """A game's page (absolute: as shared, without the reader's language;
        ``query`` False: the bare path, for a form's action)."""
        url = weblinks.game_url(self.root(absolute), guild_id, game_id)
        return url if absolute or not query else url + self.query()

    def game_at(self, guild_id: int, game_id: int, position: int | None) -> str:
        """The game's page showing ``position`` (None: now)."""
        url = weblinks.game_url(self.prefix, guild_id, game_id)
        return url + self.query(position=position)

    def board(self, guild_id: int, at: Position, *, absolute: bool = False) -> str:
        """The immutable image of a position, its tag in the query so that an
        undo gives the position a new address."""
        url = weblinks.board_url(self.root(absolute), guild_id, at.game_id, at.number)
        return f"{url}?v={at.tag}"

    def current_board(self, guild_id: int, game_id: int) -> str:
        """The public board now (revalidated on every view)."""
        return weblinks.board_url(self.prefix, guild_id, game_id)

    def positions_base(self, guild_id: int, game_id: int) -> str:
        """``…/board/``: the script appends ``<n>.png?v=<tag>``."""
        return weblinks.game_url(self.prefix, guild_id, game_id) + "/board/"

    def chart(self, guild_id: int, game_id: int) -> str:
        return weblinks.game_url(self.prefix, guild_id, game_id) + "/chart.png"

    def style(self) -> str:
        return f"{self.prefix}/static/{STYLE_FILE}"

    def icon(self) -> str:
        return f"{self.prefix}/static/{ICON_FILE}"

    def oembed(self, page: str) -> str:
        return f"{self.base}/oembed?" + urlencode([("url", page), ("format", "json")])

    def page_of(self, url: str) -> PageAddress | None:
        """The server or game page an absolute address of this site names, or None."""
        if not url.startswith(self.base + "/"):
            return None
        match = _PAGE.fullmatch(url[len(self.base) :])
        if match is None:
            return None
        guild_id = parse_id(match["guild"])
        game_text = match["game"]
        game_id = None if game_text is None else parse_id(game_text)
        if guild_id is None or (game_text is not None and game_id is None):
            return None
        return PageAddress(guild_id, game_id)
