"""FakeDiscord: the loopback server (REST + gateway + CDN) and the test-facing API."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from aiohttp import web

from . import permissions as perms
from .commands import CommandStore
from .driver import InteractionBuilder
from .driving import Driving
from .errors import ApiError, method_not_allowed, not_found, unauthorized
from .gateway import ALL_INTENTS, Gateway, Session
from .holds import CallbackHold
from .interactions import InteractionRecord
from .message_hub import MessageHub
from .messages import MessageFactory
from .restutil import BODY_KEY, ok
from .signals import Signal
from .snowflake import SnowflakeGenerator
from .threads import ThreadHub
from .world import Attachment, User, World
from .world_api import WorldApi

JSON = dict[str, Any]
API_PREFIX = "/api/v"
NO_AUTH_PREFIXES = ("/interactions/", "/webhooks/")


@dataclass
class RequestRecord:
    method: str
    path: str
    query: str
    status: int
    body: Any = None

    def __str__(self) -> str:
        q = f"?{self.query}" if self.query else ""
        return f"{self.method} {self.path}{q} -> {self.status}"


class FakeDiscord(WorldApi, MessageHub, Driving, ThreadHub):
    """A loopback Discord: REST under ``api_base``, a gateway at ``gateway_url``, files on a CDN."""

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "Caravanserai",
        interaction_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41250,
        allowed_intents: int = ALL_INTENTS,
        host: str = "127.0.0.1",
        port: int = 0,
        shards: int = 1,
    ) -> None:
        self.ids = SnowflakeGenerator()
        self.world = World(self.ids)
        self.bot_user: User = self.world.add_user(bot_name, bot=True)
        self.world.bot_id = self.bot_user.id
        self.application_id: int = self.bot_user.id
        self.app_owner: User = self.world.add_user(f"{bot_name.lower()}-owner")
        self._token = token or self._make_token()
        self.interaction_deadline = interaction_deadline
        self.token_lifetime = token_lifetime
        self.default_bot_permissions = perms.DEFAULT_BOT
        self.application_flags = 0
        self.shards = shards  # GET /gateway/bot's recommended shard count (a plain attribute)
        self.commands = CommandStore(self.application_id, self.ids)
        self.gateway = Gateway(
            self.world,
            self.bot_user,
            self.application_id,
            lambda: self._token,
            lambda: self.gateway_url,
            heartbeat_interval_ms=heartbeat_interval_ms,
            allowed_intents=allowed_intents,
        )
        self.messages_factory = MessageFactory(self.world, lambda: self.cdn_base)
        self.builder = InteractionBuilder(
            self.world, self.commands, self.application_id, self.bot_user, lambda: self.cdn_base
        )
        self.interactions: dict[int, InteractionRecord] = {}
        self.by_token: dict[str, InteractionRecord] = {}
        self.uploads: dict[int, Attachment] = {}
        self.requests: list[RequestRecord] = []
        self.unhandled: list[RequestRecord] = []
        self.message_signal = Signal()
        self._host, self._port = host, port
        self._runner: web.AppRunner | None = None
        self._site_port: int | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.callback_holds: list[CallbackHold] = []

    # -- lifecycle --------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        from . import rest, rest_commands, rest_interactions, rest_threads

        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self.gateway.handle)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn)
        for module in (rest, rest_commands, rest_interactions, rest_threads):
            module.register(app, self)
        self._runner = web.AppRunner(
            app, access_log=None, handle_signals=False, shutdown_timeout=2.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self._host, self._port)
        await site.start()
        self._site_port = int(self._runner.addresses[0][1])
        return self

    async def stop(self) -> None:
        for hold in self.callback_holds:
            hold.release()
        await self.flush()
        self.gateway.accepting = False
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    # -- addresses --------------------------------------------------------------------
    @property
    def port(self) -> int:
        if self._site_port is None:
            raise RuntimeError("FakeDiscord is not started")
        return self._site_port

    @property
    def base_url(self) -> str:
        return f"http://{self._host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self._host}:{self.port}/gateway"

    @property
    def cdn_base(self) -> str:
        return self.base_url

    @property
    def token(self) -> str:
        return self._token

    def bot_env(self) -> dict[str, str]:
        """Environment for ``python -m bot`` (bot/config.py names) to use this fake."""
        return {
            "DISCORD_TOKEN": self._token,
            "DISCORD_API_BASE": self.api_base,
            "DISCORD_GATEWAY_URL": self.gateway_url,
        }

    def _make_token(self) -> str:
        head = base64.b64encode(str(self.bot_user.id).encode()).decode().rstrip("=")
        stamp = base64.urlsafe_b64encode(int(time.time()).to_bytes(4, "big")).decode().rstrip("=")
        return f"{head}.{stamp}.{secrets.token_urlsafe(27)}"

    # -- holding the bot's answers ----------------------------------------------------------
    def hold_callback(self, command: str | None = None) -> CallbackHold:
        """Hold the bot's next callback to ``command`` (None: any interaction but an
        autocomplete): it is applied, but the bot's request is answered only at
        ``hold.release()`` (or ``stop()``). ``await hold.reached()`` waits for it."""
        hold = CallbackHold(command)
        self.callback_holds.append(hold)
        return hold

    async def held(self, record: InteractionRecord) -> None:
        """Called by the callback route once applied: waits if a hold takes it."""
        hold = next((h for h in self.callback_holds if h.matches(record)), None)
        if hold is not None:
            await hold.hold(record)

    # -- gateway state ------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        return self.gateway.connected

    @property
    def ready_count(self) -> int:
        """How many IDENTIFYs got READY + GUILD_CREATEs (pass to ``wait_ready(after=...)``)."""
        return self.gateway.ready_count

    async def wait_ready(
        self, timeout: float = 10.0, *, after: int | None = None, count: int = 1
    ) -> list[Session]:
        """Until ``count`` sessions have identified and got their GUILD_CREATEs (``after``: with
        newer identifies than that ready_count, e.g. after restarting a bot process) and are still
        connected. A process with two shards identifies twice: ``count=2``. Returns those
        sessions, newest first."""
        gw = self.gateway
        floor = after or 0

        def fresh() -> list[Session]:
            found = [s for s in gw.connected_sessions() if s.ready_index > floor]
            return found if len(found) >= count else []

        what = f"{count} bot session(s) to connect and identify"
        return await gw.changed.wait_for(fresh, timeout, what)

    async def wait_resumed(self, timeout: float = 10.0, *, after: int = 0) -> None:
        gw = self.gateway
        await gw.changed.wait_for(
            lambda: gw.resume_count > after and gw.connected,
            timeout,
            "the bot to resume its session",
        )

    async def wait_disconnected(self, timeout: float = 10.0) -> None:
        gw = self.gateway
        await gw.changed.wait_for(lambda: not gw.connected, timeout, "the bot to disconnect")

    async def disconnect(self, code: int = 4000, *, resumable: bool = True) -> None:
        """Close the bot's socket(s) from the server side (the bot should reconnect/resume)."""
        await self.gateway.disconnect(code, resumable=resumable)

    async def request_reconnect(self) -> None:
        """Send op 7 RECONNECT."""
        await self.gateway.request_reconnect()

    async def invalidate_session(self, *, resumable: bool = False) -> None:
        """Send op 9 INVALID_SESSION."""
        await self.gateway.invalidate(resumable=resumable)

    # -- HTTP plumbing --------------------------------------------------------------------
    @web.middleware
    async def _middleware(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        path = request.path
        is_api = path.startswith(API_PREFIX)
        route_path = path.split("/", 3)[3] if is_api and path.count("/") >= 3 else ""
        route_path = "/" + route_path
        unmatched = request.match_info.http_exception is not None
        response: web.StreamResponse
        try:
            if unmatched:
                raise (
                    method_not_allowed()
                    if isinstance(request.match_info.http_exception, web.HTTPMethodNotAllowed)
                    else not_found()
                )
            needs_auth = is_api and not route_path.startswith(NO_AUTH_PREFIXES)
            if needs_auth and request.headers.get("Authorization") != f"Bot {self._token}":
                raise unauthorized()
            response = await handler(request)
        except ApiError as exc:
            response = ok(exc.body(), exc.status)
        record = RequestRecord(
            request.method,
            route_path if is_api else path,
            request.query_string,
            response.status,
            request.get(BODY_KEY),
        )
        if is_api or unmatched:
            self.requests.append(record)
        if unmatched:
            self.unhandled.append(record)
        if is_api:
            self._ratelimit_headers(request, response)
        return response

    def _ratelimit_headers(self, request: web.Request, response: web.StreamResponse) -> None:
        resource = request.match_info.route.resource
        canonical = resource.canonical if resource is not None else request.path
        bucket = hashlib.sha1(f"{request.method} {canonical}".encode()).hexdigest()[:16]
        response.headers.update(
            {
                "X-RateLimit-Limit": "50",
                "X-RateLimit-Remaining": "49",
                "X-RateLimit-Reset": f"{time.time() + 1:.3f}",
                "X-RateLimit-Reset-After": "1.000",
                "X-RateLimit-Bucket": bucket,
                "X-RateLimit-Scope": "user",
            }
        )

    async def _cdn(self, request: web.Request) -> web.StreamResponse:
        att_id = int(request.match_info["attachment_id"])
        att = self.uploads.get(att_id)
        if att is None:
            for message in self.world.messages.values():
                att = next((a for a in message.attachments if a.id == att_id), None)
                if att is not None:
                    break
        if att is None or att.filename != request.match_info["filename"]:
            return web.Response(status=404, text="Not Found")
        return web.Response(
            body=att.data, content_type=att.content_type or "application/octet-stream"
        )
