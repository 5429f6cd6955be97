"""The fake's world model: users, guilds, roles, channels, members and messages."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

from . import permissions as perms
from .snowflake import SnowflakeGenerator

TEXT_CHANNEL = 0
DM_CHANNEL = 1
ANNOUNCEMENT_CHANNEL = 5
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
THREAD_PARENT_TYPES = (TEXT_CHANNEL, ANNOUNCEMENT_CHANNEL)
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)

MESSAGE_FLAG_HAS_THREAD = 1 << 5
MESSAGE_FLAG_EPHEMERAL = 1 << 6
MESSAGE_FLAG_LOADING = 1 << 7
MESSAGE_FLAG_COMPONENTS_V2 = 1 << 15

MESSAGE_THREAD_CREATED = 18
MESSAGE_THREAD_STARTER = 21


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass
class User:
    id: int
    username: str
    global_name: str | None = None
    locale: str = "en-US"
    bot: bool = False
    avatar: str | None = None

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False
    color: int = 0
    bot_id: int | None = None


@dataclass
class Overwrite:
    id: int
    type: int  # 0 role, 1 member
    allow: int = 0
    deny: int = 0


@dataclass
class Member:
    user: User
    guild_id: int
    roles: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))


@dataclass
class Channel:
    id: int
    type: int
    name: str | None
    guild_id: int | None = None
    position: int = 0
    parent_id: int | None = None
    topic: str | None = None
    overwrites: list[Overwrite] = field(default_factory=list)
    recipients: list[User] = field(default_factory=list)
    owner_id: int | None = None
    archived: bool = False
    last_message_id: int | None = None
    # thread-only state (Discord's thread_metadata, counters and explicit membership)
    locked: bool = False
    auto_archive_duration: int = 1440
    archive_timestamp: dt.datetime = field(default_factory=_now)
    created_at: dt.datetime = field(default_factory=_now)
    invitable: bool = True
    rate_limit_per_user: int = 0
    message_count: int = 0  # excludes the starter message and deleted messages
    total_message_sent: int = 0
    thread_members: dict[int, dt.datetime] = field(default_factory=dict)  # user id -> joined

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def is_private_thread(self) -> bool:
        return self.type == PRIVATE_THREAD

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channel_ids: list[int] = field(default_factory=list)
    preferred_locale: str = "en-US"
    features: list[str] = field(default_factory=list)
    joined_at: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))

    @property
    def everyone(self) -> Role:
        return self.roles[self.id]


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    url: str
    content_type: str | None = None
    description: str | None = None
    width: int | None = None
    height: int | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)


@dataclass
class Message:
    id: int
    channel_id: int
    author: User
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    timestamp: dt.datetime = field(default_factory=lambda: dt.datetime.now(dt.UTC))
    edited_timestamp: dt.datetime | None = None
    mentions: list[User] = field(default_factory=list)
    # Who Discord notified: the users mentioned when the message was created. An
    # edit changes ``mentions`` (the highlight) but notifies nobody, so a
    # "thinking…" placeholder filled in later pings no one.
    notified: list[User] = field(default_factory=list)
    mention_roles: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    message_reference: dict[str, Any] | None = None
    tts: bool = False
    pinned: bool = False
    deleted: bool = False
    interaction_id: int | None = None
    visible_to: int | None = None  # the only user who sees an ephemeral message
    edits: int = 0
    thread_id: int | None = None  # the thread started from this message (same id)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MESSAGE_FLAG_LOADING)

    @property
    def files(self) -> dict[str, bytes]:
        """Attachment bytes by filename."""
        return {a.filename: a.data for a in self.attachments}

    @property
    def is_v2(self) -> bool:
        """Flagged IS_COMPONENTS_V2: no content nor embeds, all is in components."""
        return bool(self.flags & MESSAGE_FLAG_COMPONENTS_V2)

    @property
    def text(self) -> str:
        """What the message says: a V2 message's TextDisplays (at any depth, in
        order, one per line), else its content."""
        if not self.is_v2:
            return self.content
        return "\n".join(
            str(c.get("content") or "") for c in _walk(self.components) if c.get("type") == 10
        )

    @property
    def media(self) -> list[str]:
        """The URLs a V2 message shows media from (media gallery items, thumbnails,
        file components), in order; an attachment's is its CDN URL."""
        urls: list[str] = []
        for component in _walk(self.components):
            parts = [item.get("media") for item in component.get("items") or []]
            parts += [component.get("media"), component.get("file")]
            urls += [str(p["url"]) for p in parts if isinstance(p, dict) and p.get("url")]
        return urls

    def of_type(self, ctype: int) -> list[dict[str, Any]]:
        """The components of type ``ctype`` at any depth, in order."""
        return [c for c in _walk(self.components) if c.get("type") == ctype]

    def component(self, custom_id: str) -> dict[str, Any] | None:
        """Find a component (at any depth) by custom_id."""
        return _find_component(self.components, custom_id)

    def custom_ids(self) -> list[str]:
        found: list[str] = []
        _collect_custom_ids(self.components, found)
        return found


def _walk(components: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every component, depth first, in the order a reader sees them."""
    out: list[dict[str, Any]] = []
    for component in components:
        out.append(component)
        out += _walk(_children(component))
    return out


def _children(component: dict[str, Any]) -> list[dict[str, Any]]:
    kids: list[dict[str, Any]] = list(component.get("components") or [])
    for key in ("accessory", "component"):
        if isinstance(component.get(key), dict):
            kids.append(component[key])
    return kids


def _find_component(components: list[dict[str, Any]], custom_id: str) -> dict[str, Any] | None:
    for component in components:
        if component.get("custom_id") == custom_id:
            return component
        found = _find_component(_children(component), custom_id)
        if found is not None:
            return found
    return None


def _collect_custom_ids(components: list[dict[str, Any]], out: list[str]) -> None:
    for component in components:
        if "custom_id" in component:
            out.append(str(component["custom_id"]))
        _collect_custom_ids(_children(component), out)


class World:
    """Plain in-memory state; the server layer turns changes into gateway events."""

    def __init__(self, ids: SnowflakeGenerator | None = None) -> None:
        self.ids = ids or SnowflakeGenerator()
        self.users: dict[int, User] = {}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.messages: dict[int, Message] = {}
        self._dm_by_user: dict[int, int] = {}
        self.bot_id: int | None = None  # "the current user" whose view payloads describe

    # -- creation -----------------------------------------------------------------
    def add_user(
        self, name: str, *, locale: str = "en-US", global_name: str | None = None, bot: bool = False
    ) -> User:
        user = User(
            self.ids.next(), name, global_name if global_name is not None else name, locale, bot
        )
        self.users[user.id] = user
        return user

    def add_guild(
        self,
        name: str,
        owner: User,
        *,
        locale: str = "en-US",
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """``shard=(shard_id, shard_count)``: an id that lands on that shard."""
        guild = Guild(self.ids.next(shard=shard), name, owner.id, preferred_locale=locale)
        guild.roles[guild.id] = Role(guild.id, guild.id, "@everyone", perms.DEFAULT_EVERYONE)
        self.guilds[guild.id] = guild
        self.add_member(guild, owner)
        return guild

    def add_role(
        self,
        guild: Guild,
        name: str,
        permissions: int = 0,
        *,
        managed: bool = False,
        bot_id: int | None = None,
    ) -> Role:
        position = max((r.position for r in guild.roles.values()), default=0) + 1
        role = Role(self.ids.next(), guild.id, name, permissions, position, managed, bot_id=bot_id)
        guild.roles[role.id] = role
        return role

    def add_member(self, guild: Guild, user: User, roles: list[Role] | None = None) -> Member:
        member = guild.members.get(user.id)
        if member is None:
            member = Member(user, guild.id)
            guild.members[user.id] = member
        for role in roles or []:
            if role.id not in member.roles:
                member.roles.append(role.id)
        return member

    def add_channel(
        self,
        guild: Guild,
        name: str,
        *,
        topic: str | None = None,
        overwrites: list[Overwrite] | None = None,
        announcement: bool = False,
    ) -> Channel:
        position = sum(1 for cid in guild.channel_ids if not self.channels[cid].is_thread)
        channel = Channel(
            self.ids.next(),
            ANNOUNCEMENT_CHANNEL if announcement else TEXT_CHANNEL,
            name,
            guild.id,
            position,
            topic=topic,
            overwrites=list(overwrites or []),
        )
        self.channels[channel.id] = channel
        guild.channel_ids.append(channel.id)
        return channel

    def add_thread(
        self,
        parent: Channel,
        name: str,
        owner: User,
        *,
        private: bool = False,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
        rate_limit_per_user: int = 0,
        invitable: bool = True,
    ) -> Channel:
        """A thread under ``parent``, its creator already a member (``thread_id``: the id of the
        message it starts from). Announcement channels get announcement threads."""
        assert parent.guild_id is not None, "threads live in guild channels"
        if private:
            kind = PRIVATE_THREAD
        else:
            kind = ANNOUNCEMENT_THREAD if parent.type == ANNOUNCEMENT_CHANNEL else PUBLIC_THREAD
        thread = Channel(
            thread_id if thread_id is not None else self.ids.next(),
            kind,
            name,
            parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            rate_limit_per_user=rate_limit_per_user,
            invitable=invitable if private else True,
        )
        thread.thread_members[owner.id] = thread.created_at
        self.channels[thread.id] = thread
        self.guilds[parent.guild_id].channel_ids.append(thread.id)
        return thread

    def add_thread_member(self, thread: Channel, user: User) -> bool:
        """Add ``user`` to the thread's members; False if they already were one."""
        if user.id in thread.thread_members:
            return False
        thread.thread_members[user.id] = _now()
        return True

    def dm_channel(self, user: User) -> Channel:
        cid = self._dm_by_user.get(user.id)
        if cid is not None:
            return self.channels[cid]
        channel = Channel(self.ids.next(), DM_CHANNEL, None, recipients=[user])
        self.channels[channel.id] = channel
        self._dm_by_user[user.id] = channel.id
        return channel

    # -- lookups --------------------------------------------------------------------
    def guild_of(self, channel: Channel) -> Guild | None:
        return self.guilds.get(channel.guild_id) if channel.guild_id is not None else None

    def guild_channels(self, guild: Guild) -> list[Channel]:
        return [self.channels[c] for c in guild.channel_ids if not self.channels[c].is_thread]

    def guild_threads(self, guild: Guild) -> list[Channel]:
        """Threads of a guild in creation order (archived ones included)."""
        return [self.channels[c] for c in guild.channel_ids if self.channels[c].is_thread]

    def threads_of(self, parent: Channel) -> list[Channel]:
        guild = self.guild_of(parent)
        if guild is None:
            return []
        return [t for t in self.guild_threads(guild) if t.parent_id == parent.id]

    def channel_messages(self, channel_id: int, *, include_hidden: bool = False) -> list[Message]:
        """Messages of a channel in creation order (oldest first)."""
        out = [m for m in self.messages.values() if m.channel_id == channel_id]
        if not include_hidden:
            out = [m for m in out if not m.deleted and not m.ephemeral]
        return sorted(out, key=lambda m: m.id)

    # -- permissions -------------------------------------------------------------------
    def base_permissions(self, guild: Guild, user_id: int) -> int:
        if user_id == guild.owner_id:
            return perms.ALL
        member = guild.members.get(user_id)
        value = guild.everyone.permissions
        if member is not None:
            for rid in member.roles:
                role = guild.roles.get(rid)
                if role is not None:
                    value |= role.permissions
        if value & perms.ADMINISTRATOR:
            return perms.ALL
        return value

    def permissions_in(self, channel: Channel, user_id: int) -> int:
        """Member permissions in a channel, overwrites applied (threads use their parent)."""
        guild = self.guild_of(channel)
        if guild is None:  # DMs
            return perms.DEFAULT_EVERYONE & ~perms.MENTION_EVERYONE
        value = self.base_permissions(guild, user_id)
        if value & perms.ADMINISTRATOR:
            return perms.ALL
        source = (
            self.channels.get(channel.parent_id or 0, channel) if channel.is_thread else channel
        )
        member = guild.members.get(user_id)
        role_ids = set(member.roles) if member else set()
        overwrites = {(o.type, o.id): o for o in source.overwrites}
        everyone = overwrites.get((0, guild.id))
        if everyone:
            value = (value & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for (kind, oid), ow in overwrites.items():
            if kind == 0 and oid in role_ids:
                allow |= ow.allow
                deny |= ow.deny
        value = (value & ~deny) | allow
        own = overwrites.get((1, user_id))
        if own:
            value = (value & ~own.deny) | own.allow
        if not value & perms.VIEW_CHANNEL:
            return 0
        if (
            channel.is_private_thread
            and user_id not in channel.thread_members
            and not value & perms.MANAGE_THREADS
        ):
            return 0  # private threads: members and moderators only
        return value
