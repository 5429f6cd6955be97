"""The web application: routes, the guard around every request, start and stop.

Routes (every id a plain decimal number; anything else is "not found")::

    GET /s/<server>                         standings and games (?page=N)
    GET /s/<server>/g/<game>                one game (?position=N shows a replay position)
    GET /s/<server>/g/<game>/board.png      the public board now (revalidated, ETag)
    GET /s/<server>/g/<game>/board/<n>.png  the public board at position n (immutable)
    GET /s/<server>/g/<game>/chart.png      a finished game's score chart (immutable)
    GET /oembed?url=<page address>          link preview data (JSON)
    GET /static/site-<hash>.css             the style sheet (immutable)
    GET /static/icon-<hash>.png             the pages' icon (immutable; /favicon.ico too)

Every page takes ``?lang=en|fr`` (else the browser's Accept-Language).

**Not found is one answer.** An unknown address, a malformed or oversized id,
a server that opted out or has no games, a game of another server, an unknown
game, a position past the game's last: all get the same 404 (same status,
body and headers), so an address reveals nothing about what exists.

**Malformed query values are ignored**, never an error: ``page`` and
``position`` that are not plain numbers read as absent, numbers past the end
are brought within it, an unknown ``lang`` falls back to the browser's. A
link shared with a typo still shows the page.

**Bounded work.** A per-client token bucket (429 with Retry-After; behind a
trusted proxy, by its X-Forwarded-For entry), a site-wide bound on draws
running (one fewer than the pool's workers) with a short line of its own (429
at once beyond it), drawing and replays in the CPU pool (``images.py``), no
board ever drawn for a page. Any
other failure is logged and answered with a 500 page without details.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import replace
from urllib.parse import parse_qs, urlsplit

from aiohttp import web

from bot.boards import Boards
from bot.charts import has_chart
from bot.service import GameService
from bot.session import Session
from web.data import find_game, load_game, load_server
from web.frame import SITE_NAME, message_page
from web.game_page import game_page, game_preview
from web.guard import (
    Busy,
    TokenBuckets,
    WebLimits,
    client_of,
    parse_count,
    parse_id,
    retry_after,
)
from web.images import Images, NotShown
from web.language import chosen, from_header, page_language
from web.links import Links
from web.positions import counting, tags_of
from web.server_page import server_page, server_preview
from web.style import CONTENT_SECURITY_POLICY, ICON, STATIC_FILES

__all__ = ["WebLimits", "WebSite"]

log = logging.getLogger(__name__)

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

NOT_FOUND_BODY = "404 Not Found\n"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
_POSITION_FILE = re.compile(r"(0|[1-9][0-9]{0,8})\.png")
SHUTDOWN_SECONDS = 5.0  # requests still running when the site stops get this long
MAX_REQUEST_BODY = 1024  # every route is a GET: no body worth reading


def not_found() -> web.Response:
    """The one answer for everything that is not shown."""
    return web.Response(
        status=404,
        text=NOT_FOUND_BODY,
        content_type="text/plain",
        headers={"Cache-Control": "no-store"},
    )


def matches(request: web.Request, tag: str) -> bool:
    """Whether the client's If-None-Match names ``tag`` (or is ``*``)."""
    header = request.headers.get("If-None-Match", "")
    for candidate in header.split(","):
        candidate = candidate.strip()
        if candidate == "*" or candidate.removeprefix("W/") == tag:
            return True
    return False


def png_response(png: bytes, tag: str, cache: str) -> web.Response:
    return web.Response(
        body=png, content_type="image/png", headers={"ETag": tag, "Cache-Control": cache}
    )


def not_modified(tag: str, cache: str) -> web.Response:
    return web.Response(status=304, headers={"ETag": tag, "Cache-Control": cache})


def html_response(text: str, lang: str, status: int = 200) -> web.Response:
    return web.Response(
        status=status,
        text=text,
        content_type="text/html",
        headers={"Cache-Control": REVALIDATE, "Content-Language": lang, "Vary": "Accept-Language"},
    )


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    """The same protective headers on every answer (404s included, so all of
    them stay alike)."""
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "strict-origin-when-cross-origin"
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY


class WebSite:
    """The bot's web pages, served from its own process and event loop."""

    def __init__(
        self,
        service: GameService,
        boards: Boards,
        base_url: str,
        *,
        limits: WebLimits | None = None,
        behind_proxy: bool = False,
    ) -> None:
        """``behind_proxy``: requests come through a reverse proxy, whose
        X-Forwarded-For names the client (WEB_BEHIND_PROXY)."""
        self.service = service
        limits = limits or WebLimits()
        if limits.draws is None:
            limits = replace(limits, draws=max(1, service.cpu.workers - 1))
        self.limits = limits
        self.behind_proxy = behind_proxy
        self.links = Links(base_url.rstrip("/"))
        self.images = Images(service, boards, self.limits)
        self.buckets = TokenBuckets(self.limits)
        self._app = self._build()
        self._runner: web.AppRunner | None = None

    @property
    def app(self) -> web.Application:
        return self._app

    async def start(self, host: str, port: int) -> int:
        """Listen on ``host``:``port`` (0: a free port); returns the port bound."""
        if self._runner is not None:
            raise RuntimeError("the web site is already started")
        runner = web.AppRunner(self._app, access_log=None, shutdown_timeout=SHUTDOWN_SECONDS)
        await runner.setup()
        try:
            site = web.TCPSite(runner, host, port)
            await site.start()
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        bound: int = runner.addresses[0][1]
        return bound

    async def stop(self) -> None:
        """Stop listening and close the connections; safe twice or before start."""
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    # ------------------------------------------------------------------ the app

    def _build(self) -> web.Application:
        app = web.Application(
            middlewares=[self._errors, self._guard], client_max_size=MAX_REQUEST_BODY
        )
        app.on_response_prepare.append(_secure)
        app.router.add_get("/s/{guild}", self._server)
        app.router.add_get("/s/{guild}/g/{game}", self._game)
        app.router.add_get("/s/{guild}/g/{game}/board.png", self._board)
        app.router.add_get("/s/{guild}/g/{game}/board/{file}", self._position)
        app.router.add_get("/s/{guild}/g/{game}/chart.png", self._chart)
        app.router.add_get("/oembed", self._oembed)
        app.router.add_get("/static/{file}", self._static)
        app.router.add_get("/favicon.ico", self._favicon)
        return app

    @web.middleware
    async def _errors(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(request)
        except (NotShown, web.HTTPNotFound):
            return not_found()
        except Busy:
            return self._too_many(request, self.limits.busy_retry_after)
        except web.HTTPException:
            raise  # aiohttp's own answers (405 for a method other than GET)
        except Exception:  # not CancelledError: a client that went away is no error
            log.exception("Web request %s %s failed", request.method, request.path)
            lang = from_header(request.headers.get("Accept-Language"))
            return html_response(message_page(lang, "error"), lang, 500)

    @web.middleware
    async def _guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        client = client_of(
            request.remote, request.headers.get("X-Forwarded-For"), self.behind_proxy
        )
        wait = self.buckets.take(client)
        if wait > 0:
            return self._too_many(request, wait)
        return await handler(request)

    @staticmethod
    def _too_many(request: web.Request, wait: float) -> web.Response:
        lang = from_header(request.headers.get("Accept-Language"))
        response = html_response(message_page(lang, "busy"), lang, 429)
        response.headers["Retry-After"] = retry_after(wait)
        response.headers["Cache-Control"] = "no-store"
        return response

    # ------------------------------------------------------------------ helpers

    def _reader(self, request: web.Request) -> tuple[str, Links]:
        """The page's language and links keeping the reader's chosen one."""
        query = request.query.get("lang")
        lang = page_language(query, request.headers.get("Accept-Language"))
        return lang, Links(self.links.base, chosen(query))

    async def _session(self, request: web.Request) -> Session:
        guild_id = parse_id(request.match_info["guild"])
        game_id = parse_id(request.match_info["game"])
        if guild_id is None or game_id is None:
            raise NotShown
        session = await find_game(self.service, guild_id, game_id)
        if session is None:
            raise NotShown
        return session

    # ------------------------------------------------------------------ pages

    async def _server(self, request: web.Request) -> web.StreamResponse:
        guild_id = parse_id(request.match_info["guild"])
        if guild_id is None:
            raise NotShown
        lang, links = self._reader(request)
        page = parse_count(request.query.get("page")) or 1
        view = await load_server(self.service, guild_id, page, self.limits.leaders)
        if view is None:
            raise NotShown
        return html_response(server_page(view, lang, links), lang)

    async def _game(self, request: web.Request) -> web.StreamResponse:
        session = await self._session(request)
        lang, links = self._reader(request)
        view = await load_game(self.service, session)
        position = parse_count(request.query.get("position"))
        current = view.current
        if current is None or view.broken:
            position = None
        elif position is not None:
            position = min(position, current.number)
        size = None
        if current is not None:
            size = self.images.position_size(session, current.number, current.tag)
        page = game_page(
            view,
            lang,
            links,
            position,
            size=size,
            replay_failed=self.images.replay_failed(session),
        )
        return html_response(page, lang)

    # ------------------------------------------------------------------ images

    async def _board(self, request: web.Request) -> web.StreamResponse:
        session = await self._session(request)
        if session.broken or session.state is None:
            raise NotShown
        tag = self.images.board_etag(session)
        if matches(request, tag):
            return not_modified(tag, REVALIDATE)
        tags = tags_of(counting(await self.service.storage.moves(session.id)))
        png = await self.images.board(session, len(tags) - 1, tags[-1])
        return png_response(png, tag, REVALIDATE)

    async def _position(self, request: web.Request) -> web.StreamResponse:
        found = _POSITION_FILE.fullmatch(request.match_info["file"])
        if found is None:
            raise NotShown
        number = int(found[1])
        session = await self._session(request)
        if session.broken or session.state is None:
            raise NotShown
        counted = counting(await self.service.storage.moves(session.id))
        tags = tags_of(counted)
        if number >= len(tags):
            raise NotShown
        tag = self.images.position_etag(session, number, tags[number])
        if matches(request, tag):
            return not_modified(tag, IMMUTABLE)
        png = await self.images.position(session, counted, number)
        return png_response(png, tag, IMMUTABLE)

    async def _chart(self, request: web.Request) -> web.StreamResponse:
        session = await self._session(request)
        if not has_chart(session):
            raise NotShown
        tag = self.images.chart_etag(session)
        if matches(request, tag):
            return not_modified(tag, IMMUTABLE)
        png = await self.images.chart(session)
        return png_response(png, tag, IMMUTABLE)

    async def _static(self, request: web.Request) -> web.StreamResponse:
        """The style sheet and the icon, under names that change with them."""
        found = STATIC_FILES.get(request.match_info["file"])
        if found is None:
            raise NotShown
        body, content_type = found
        return web.Response(
            body=body,
            content_type=content_type,
            charset="utf-8" if content_type.startswith("text/") else None,
            headers={"Cache-Control": IMMUTABLE},
        )

    async def _favicon(self, request: web.Request) -> web.StreamResponse:
        """Browsers ask for /favicon.ico whatever the page says: the icon, for a day."""
        return web.Response(
            body=ICON, content_type="image/png", headers={"Cache-Control": "public, max-age=86400"}
        )

    # ------------------------------------------------------------------ oEmbed

    async def _oembed(self, request: web.Request) -> web.StreamResponse:
        """Link preview data for a page of this site (oEmbed 1.0, type "link")."""
        url = request.query.get("url", "")
        if request.query.get("format", "json") != "json":
            raise web.HTTPNotImplemented
        address = self.links.page_of(url)
        if address is None:
            raise NotShown
        asked = parse_qs(urlsplit(url).query).get("lang", [None])[-1]
        lang = page_language(asked, request.headers.get("Accept-Language"))
        links = Links(self.links.base)
        size = None
        if address.game_id is None:
            server = await load_server(self.service, address.guild_id, 1, self.limits.leaders)
            if server is None:
                raise NotShown
            preview = server_preview(server, lang, links)
        else:
            session = await find_game(self.service, address.guild_id, address.game_id)
            if session is None:
                raise NotShown
            view = await load_game(self.service, session)
            current = view.current
            if current is not None:
                size = self.images.position_size(session, current.number, current.tag)
            preview = game_preview(view, lang, links, size)
        answer: dict[str, str | int] = {
            "version": "1.0",
            "type": "link",
            "title": preview.title,
            "provider_name": SITE_NAME,
            "provider_url": self.links.base + "/",
        }
        if preview.image is not None:
            answer["thumbnail_url"] = preview.image
            if preview.size is not None:
                answer["thumbnail_width"], answer["thumbnail_height"] = preview.size
        return web.json_response(answer, headers={"Cache-Control": REVALIDATE})
