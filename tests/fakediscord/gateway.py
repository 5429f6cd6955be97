"""The gateway websocket: HELLO/IDENTIFY/READY/RESUME/heartbeats, sessions and dispatches."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import zlib
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

from . import payloads
from .restutil import ok
from .signals import Signal
from .world import Guild, User, World

log = logging.getLogger(__name__)
JSON = dict[str, Any]

DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT
ALL_INTENTS = (1 << 26) - 1

DataFor = Callable[["Session"], JSON | None]


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard that gets a guild's events (Discord's formula); DMs and guildless events: 0."""
    return 0 if guild_id is None else (guild_id >> 22) % shard_count


@dataclass
class Session:
    id: str
    intents: int
    shard: tuple[int, int] | None
    large_threshold: int
    seq: int = 0
    resumable: bool = True
    connection: Connection | None = None
    buffer: deque[tuple[int, str]] = field(default_factory=lambda: deque(maxlen=2000))
    ready_index: int = 0  # this session's IDENTIFY was the n-th READY (Gateway.ready_count)
    attached: int = 0  # ordinal of its last IDENTIFY/RESUME: the highest is the newest session

    @property
    def connected(self) -> bool:
        return self.connection is not None and self.connection.open

    def sees_guild(self, guild_id: int) -> bool:
        """Whether this session's shard holds ``guild_id`` (unsharded sessions hold every guild)."""
        return self.sees(guild_id)

    def sees(self, guild_id: int | None) -> bool:
        """Whether events of ``guild_id`` come here; ``None`` (DMs, guildless): shard 0 only."""
        if self.shard is None:
            return True
        shard_id, count = self.shard
        return shard_of(guild_id, count) == shard_id

    def describe(self) -> str:
        shard = "unsharded" if self.shard is None else f"shard {list(self.shard)}"
        return f"session {self.id[:8]} ({shard})"


class Connection:
    """One websocket: JSON text frames, or zlib-stream binary frames (one shared zlib context,
    each payload flushed with Z_SYNC_FLUSH)."""

    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.session: Session | None = None
        self._zlib = zlib.compressobj() if compress == "zlib-stream" else None
        self._lock = asyncio.Lock()
        self.received: list[JSON] = []
        self.server_closed = False

    @property
    def open(self) -> bool:
        return not self.ws.closed

    async def send(self, text: str) -> None:
        async with self._lock:
            if self.ws.closed:
                return
            try:
                if self._zlib is not None:
                    data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                    await self.ws.send_bytes(data)
                else:
                    await self.ws.send_str(text)
            except (ConnectionError, RuntimeError) as exc:
                log.debug("gateway send failed: %s", exc)

    async def send_op(self, op: int, d: Any) -> None:
        await self.send(json.dumps({"op": op, "d": d, "s": None, "t": None}))

    async def close(self, code: int, message: str = "") -> None:
        self.server_closed = True
        with contextlib.suppress(Exception):
            await self.ws.close(code=code, message=message.encode())


class Gateway:
    def __init__(
        self,
        world: World,
        bot: User,
        application_id: int,
        token: Callable[[], str],
        url: Callable[[], str],
        *,
        heartbeat_interval_ms: int = 41250,
        application_flags: int = 0,
        allowed_intents: int = ALL_INTENTS,
    ) -> None:
        self.world = world
        self.bot = bot
        self.application_id = application_id
        self._token = token
        self._url = url
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.application_flags = application_flags
        self.allowed_intents = allowed_intents
        self.sessions: dict[str, Session] = {}
        self.connections: set[Connection] = set()
        self.changed = Signal()
        self.ready_count = 0
        self.resume_count = 0
        self.identify_payloads: list[JSON] = []
        self.close_codes: list[int | None] = []
        self.compress_modes: list[str | None] = []  # ?compress= of each connection, in order
        self._attachments = 0
        self.accepting = True

    # -- state ----------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """Whether any session (of any shard, any process) has an open socket."""
        return self.live_session() is not None

    def connected_sessions(self) -> list[Session]:
        """Sessions with an open socket, newest (last identified or resumed) first."""
        live = [s for s in self.sessions.values() if s.connected]
        return sorted(live, key=lambda s: s.attached, reverse=True)

    def sessions_for(self, guild_id: int | None) -> list[Session]:
        """Connected sessions that get ``guild_id``'s events, newest first; ``None``: those that
        get DMs and guildless interactions (shard 0 or unsharded)."""
        return [s for s in self.connected_sessions() if s.sees(guild_id)]

    def live_session(self) -> Session | None:
        """The newest connected session (of any shard); ``sessions_for`` picks per guild."""
        found = self.connected_sessions()
        return found[0] if found else None

    # -- dispatching ----------------------------------------------------------------
    async def dispatch(
        self,
        event: str,
        data: JSON | DataFor,
        *,
        guild_id: int | None,
        intent: int = 0,
        session: Session | None = None,
    ) -> None:
        """Send ``event`` to every resumable session that sees ``guild_id`` (``None``: a DM or
        guildless event, shard 0 only), or to ``session`` alone; ``data`` may be a function of
        the session returning None to skip it. Disconnected sessions buffer it for RESUME."""
        if session is not None:
            if not session.sees(guild_id):
                raise ValueError(f"{session.describe()} does not hold guild {guild_id}")
            targets = [session]
        else:
            targets = [s for s in self.sessions.values() if s.resumable and s.sees(guild_id)]
        for target in targets:
            if intent and not target.intents & intent:
                continue
            body = data(target) if callable(data) else data
            if body is None:
                continue
            await self._dispatch_to(target, event, body)

    async def _dispatch_to(self, session: Session, event: str, body: JSON) -> None:
        session.seq += 1
        text = json.dumps({"op": DISPATCH, "t": event, "s": session.seq, "d": body})
        session.buffer.append((session.seq, text))
        if session.connection is not None and session.connection.open:
            await session.connection.send(text)

    async def guild_available(self, guild: Guild) -> None:
        """GUILD_CREATE for a guild the bot joined while connected."""
        await self.dispatch(
            "GUILD_CREATE", lambda s: self._guild_create(s, guild), guild_id=guild.id, intent=GUILDS
        )

    # -- control from tests -----------------------------------------------------------
    async def disconnect(self, code: int = 4000, *, resumable: bool = True) -> None:
        for conn in list(self.connections):
            if conn.session is not None and not resumable:
                conn.session.resumable = False
            await conn.close(code)

    async def request_reconnect(self) -> None:
        for conn in list(self.connections):
            await conn.send_op(RECONNECT, None)

    async def invalidate(self, *, resumable: bool = False) -> None:
        for conn in list(self.connections):
            if conn.session is not None and not resumable:
                conn.session.resumable = False
            await conn.send_op(INVALID_SESSION, resumable)

    async def close_all(self) -> None:
        for conn in list(self.connections):
            await conn.close(1001, "fake discord shutting down")

    # -- the websocket handler -----------------------------------------------------------
    async def handle(self, request: web.Request) -> web.StreamResponse:
        if not self.accepting:
            return ok({"message": "503: Service Unavailable", "code": 0}, 503)
        encoding = request.query.get("encoding", "json")
        compress = request.query.get("compress")
        if encoding != "json" or compress not in (None, "zlib-stream"):
            return ok(
                {"message": f"unsupported encoding={encoding} compress={compress}", "code": 0}, 400
            )
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        conn = Connection(ws, compress)
        self.connections.add(conn)
        self.compress_modes.append(compress)
        try:
            version = request.query.get("v", "10")
            if version not in ("9", "10"):
                await conn.close(4012, "Invalid API version")
                return ws
            await conn.send_op(
                HELLO,
                {
                    "heartbeat_interval": self.heartbeat_interval_ms,
                    "_trace": ["fakediscord-gateway"],
                },
            )
            await self._serve(conn)
        finally:
            self.connections.discard(conn)
            self._detach(conn)
        return ws

    async def _serve(self, conn: Connection) -> None:
        async for msg in conn.ws:
            if msg.type not in (WSMsgType.TEXT, WSMsgType.BINARY):
                break
            try:
                raw = msg.data if msg.type is WSMsgType.TEXT else msg.data.decode()
                packet = json.loads(raw)
                op = packet["op"]
            except (ValueError, KeyError, TypeError, UnicodeDecodeError):
                await conn.close(4002, "Error while decoding payload.")
                return
            conn.received.append(packet)
            if not await self._handle_op(conn, op, packet.get("d")):
                return

    async def _handle_op(self, conn: Connection, op: int, d: Any) -> bool:
        if op == HEARTBEAT:
            await conn.send_op(HEARTBEAT_ACK, None)
            return True
        if op == IDENTIFY:
            return await self._identify(conn, d)
        if op == RESUME:
            return await self._resume(conn, d)
        if conn.session is None:
            await conn.close(4003, "Not authenticated.")
            return False
        if op == REQUEST_MEMBERS:
            await self._members_chunk(conn.session, d or {})
            return True
        if op in (PRESENCE, VOICE_STATE):
            return True
        await conn.close(4001, "Unknown opcode.")
        return False

    async def _identify(self, conn: Connection, d: Any) -> bool:
        if conn.session is not None:
            await conn.close(4005, "Already authenticated.")
            return False
        if not isinstance(d, dict) or d.get("token") != self._token():
            await conn.close(4004, "Authentication failed.")
            return False
        intents = d.get("intents")
        if not isinstance(intents, int) or intents < 0 or intents > ALL_INTENTS:
            await conn.close(4013, "Invalid intent(s).")
            return False
        if intents & PRIVILEGED & ~self.allowed_intents:
            await conn.close(4014, "Disallowed intent(s).")
            return False
        shard = d.get("shard")
        if shard is not None and (
            not isinstance(shard, list) or len(shard) != 2 or not 0 <= shard[0] < shard[1]
        ):
            await conn.close(4010, "Invalid shard.")
            return False
        self.identify_payloads.append(d)
        session = Session(
            id=secrets.token_hex(16),
            intents=intents,
            shard=(int(shard[0]), int(shard[1])) if shard else None,
            large_threshold=int(d.get("large_threshold") or 50),
        )
        self.sessions[session.id] = session
        conn.session = session
        session.connection = conn
        self._attachments += 1
        session.attached = self._attachments
        await self._dispatch_to(session, "READY", self._ready(session))
        if intents & GUILDS:
            for guild in list(self.world.guilds.values()):
                if session.sees(guild.id):
                    await self._dispatch_to(
                        session, "GUILD_CREATE", self._guild_create(session, guild)
                    )
        self.ready_count += 1
        session.ready_index = self.ready_count
        self.changed.notify()
        return True

    async def _resume(self, conn: Connection, d: Any) -> bool:
        if conn.session is not None:
            await conn.close(4005, "Already authenticated.")
            return False
        if not isinstance(d, dict) or d.get("token") != self._token():
            await conn.close(4004, "Authentication failed.")
            return False
        session = self.sessions.get(str(d.get("session_id")))
        seq = d.get("seq")
        if (
            session is None
            or not session.resumable
            or not isinstance(seq, int)
            or seq > session.seq
        ):
            await conn.send_op(INVALID_SESSION, False)
            return True
        old = session.connection
        session.connection = conn
        conn.session = session
        if old is not None and old is not conn:
            old.session = None
            await old.close(4000, "Session resumed elsewhere.")
        for s, text in list(session.buffer):
            if s > seq:
                await conn.send(text)
        await self._dispatch_to(session, "RESUMED", {"_trace": ["fakediscord-gateway"]})
        self._attachments += 1
        session.attached = self._attachments
        self.resume_count += 1
        self.changed.notify()
        return True

    def _detach(self, conn: Connection) -> None:
        code = conn.ws.close_code
        self.close_codes.append(code)
        session = conn.session
        if session is not None and session.connection is conn:
            session.connection = None
            # Discord invalidates a session that the *client* closes with 1000/1001.
            if not conn.server_closed and code in (1000, 1001):
                session.resumable = False
        self.changed.notify()

    # -- payloads ---------------------------------------------------------------------
    def _ready(self, session: Session) -> JSON:
        guild_ids = [g for g in self.world.guilds if session.sees(g)]
        data: JSON = {
            "v": 10,
            "user": payloads.current_user(self.bot),
            "user_settings": {},
            "guilds": [{"id": str(g), "unavailable": True} for g in guild_ids],
            "presences": [],
            "private_channels": [],
            "relationships": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": ["local"],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self._url(),
            "application": {"id": str(self.application_id), "flags": self.application_flags},
            "auth": {},
            "_trace": ["fakediscord-gateway"],
        }
        if session.shard is not None:
            data["shard"] = list(session.shard)
        return data

    def _guild_create(self, session: Session, guild: Guild) -> JSON:
        members = list(guild.members.values())
        if not session.intents & GUILD_PRESENCES or len(members) > session.large_threshold:
            members = [m for m in members if m.user.id == self.bot.id]
        return payloads.guild_create(
            guild,
            self.world,
            members=members,
            large_threshold=session.large_threshold,
            me=self.bot.id,
        )

    async def _members_chunk(self, session: Session, d: JSON) -> None:
        guild = self.world.guilds.get(int(d.get("guild_id") or 0))
        if guild is None or not session.sees(guild.id):
            return  # a guild of another shard: this session gets no chunk for it
        query = str(d.get("query") or "").lower()
        limit = int(d.get("limit") or 0)
        wanted = {int(u) for u in d.get("user_ids") or []}
        if wanted:
            found = [m for m in guild.members.values() if m.user.id in wanted]
        else:
            found = [m for m in guild.members.values() if m.user.username.lower().startswith(query)]
        if limit:
            found = found[:limit]
        body: JSON = {
            "guild_id": str(guild.id),
            "members": [payloads.member(m) for m in found],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [str(u) for u in wanted - {m.user.id for m in found}],
        }
        if d.get("nonce") is not None:
            body["nonce"] = d["nonce"]
        if d.get("presences"):
            body["presences"] = []
        await self._dispatch_to(session, "GUILD_MEMBERS_CHUNK", body)
