"""Serialise world objects into Discord-shaped JSON payloads (API v10)."""

from __future__ import annotations

from typing import Any

from .snowflake import iso
from .world import (
    DM_CHANNEL,
    MESSAGE_THREAD_STARTER,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    User,
    World,
)

JSON = dict[str, Any]


def user(u: User) -> JSON:
    data: JSON = {
        "id": str(u.id),
        "username": u.username,
        "discriminator": "0",
        "global_name": u.global_name,
        "avatar": u.avatar,
        "avatar_decoration_data": None,
        "banner": None,
        "accent_color": None,
        "public_flags": 0,
        "primary_guild": None,
        "collectibles": None,
    }
    if u.bot:
        data["bot"] = True
    return data


def current_user(u: User) -> JSON:
    """GET /users/@me for a bot user."""
    data = user(u)
    data.update(
        {"verified": True, "mfa_enabled": False, "flags": 0, "email": None, "locale": u.locale}
    )
    return data


def role(r: Role) -> JSON:
    data: JSON = {
        "id": str(r.id),
        "name": r.name,
        "description": None,
        "color": r.color,
        "colors": {"primary_color": r.color, "secondary_color": None, "tertiary_color": None},
        "hoist": False,
        "icon": None,
        "unicode_emoji": None,
        "position": r.position,
        "permissions": str(r.permissions),
        "managed": r.managed,
        "mentionable": False,
        "flags": 0,
    }
    if r.bot_id is not None:
        data["tags"] = {"bot_id": str(r.bot_id)}
    return data


def member(m: Member, *, permissions: int | None = None, with_user: bool = True) -> JSON:
    data: JSON = {
        "nick": m.nick,
        "avatar": None,
        "banner": None,
        "roles": [str(r) for r in m.roles],
        "joined_at": iso(m.joined_at),
        "premium_since": None,
        "deaf": False,
        "mute": False,
        "flags": 0,
        "pending": False,
        "communication_disabled_until": None,
        "unusual_dm_activity_until": None,
    }
    if with_user:
        data["user"] = user(m.user)
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def channel(c: Channel, *, permissions: int | None = None, me: int | None = None) -> JSON:
    """A channel object; for a thread ``me`` (the bot) adds its thread ``member`` if it joined."""
    if c.type == DM_CHANNEL:
        data: JSON = {
            "id": str(c.id),
            "type": c.type,
            "last_message_id": _opt_id(c.last_message_id),
            "recipients": [user(u) for u in c.recipients],
            "flags": 0,
        }
    elif c.is_thread:
        metadata: JSON = {
            "archived": c.archived,
            "auto_archive_duration": c.auto_archive_duration,
            "archive_timestamp": iso(c.archive_timestamp),
            "locked": c.locked,
            "create_timestamp": iso(c.created_at),
        }
        if c.is_private_thread:
            metadata["invitable"] = c.invitable
        data = {
            "id": str(c.id),
            "type": c.type,
            "guild_id": str(c.guild_id),
            "parent_id": _opt_id(c.parent_id),
            "owner_id": _opt_id(c.owner_id),
            "name": c.name,
            "last_message_id": _opt_id(c.last_message_id),
            "rate_limit_per_user": c.rate_limit_per_user,
            "message_count": c.message_count,
            "member_count": min(len(c.thread_members), 50),
            "total_message_sent": c.total_message_sent,
            "flags": 0,
            "thread_metadata": metadata,
        }
        if me is not None and me in c.thread_members:
            data["member"] = thread_member(c, me)
    else:
        data = {
            "id": str(c.id),
            "type": c.type,
            "guild_id": str(c.guild_id),
            "name": c.name,
            "position": c.position,
            "permission_overwrites": [
                {"id": str(o.id), "type": o.type, "allow": str(o.allow), "deny": str(o.deny)}
                for o in c.overwrites
            ],
            "topic": c.topic,
            "nsfw": False,
            "last_message_id": _opt_id(c.last_message_id),
            "rate_limit_per_user": 0,
            "parent_id": _opt_id(c.parent_id),
            "flags": 0,
        }
    if permissions is not None:
        data["permissions"] = str(permissions)
    return data


def thread_member(
    thread: Channel, user_id: int, *, ids: bool = True, guild_member: JSON | None = None
) -> JSON:
    """A thread member object (``ids=False``: the GUILD_CREATE form, without id/user_id)."""
    data: JSON = {"join_timestamp": iso(thread.thread_members[user_id]), "flags": 0}
    if ids:
        data = {"id": str(thread.id), "user_id": str(user_id), **data}
    if guild_member is not None:
        data["member"] = guild_member
    return data


def guild(g: Guild, world: World) -> JSON:
    """The REST guild object (GET /guilds/{id})."""
    text = world.guild_channels(g)
    return {
        "id": str(g.id),
        "name": g.name,
        "icon": None,
        "icon_hash": None,
        "splash": None,
        "discovery_splash": None,
        "owner_id": str(g.owner_id),
        "afk_channel_id": None,
        "afk_timeout": 300,
        "widget_enabled": False,
        "verification_level": 0,
        "default_message_notifications": 0,
        "explicit_content_filter": 0,
        "roles": [role(r) for r in sorted(g.roles.values(), key=lambda r: r.position)],
        "emojis": [],
        "stickers": [],
        "features": list(g.features),
        "mfa_level": 0,
        "application_id": None,
        "system_channel_id": str(text[0].id) if text else None,
        "system_channel_flags": 0,
        "rules_channel_id": None,
        "public_updates_channel_id": None,
        "safety_alerts_channel_id": None,
        "max_members": 500000,
        "max_video_channel_users": 25,
        "max_stage_video_channel_users": 50,
        "vanity_url_code": None,
        "description": None,
        "banner": None,
        "premium_tier": 0,
        "premium_subscription_count": 0,
        "preferred_locale": g.preferred_locale,
        "nsfw_level": 0,
        "premium_progress_bar_enabled": False,
        "incidents_data": None,
    }


def guild_create(
    g: Guild, world: World, *, members: list[Member], large_threshold: int, me: int | None = None
) -> JSON:
    """The GUILD_CREATE dispatch: the guild object plus the gateway-only extras; ``threads``
    are the active ones ``me`` (the bot) can see, with its thread ``member`` where it joined."""
    data = guild(g, world)
    threads: list[JSON] = []
    for t in world.guild_threads(g):
        if t.archived or (me is not None and not world.permissions_in(t, me)):
            continue
        payload = channel(t)
        if me is not None and me in t.thread_members:
            payload["member"] = thread_member(t, me, ids=False)
        threads.append(payload)
    data.update(
        {
            "joined_at": iso(g.joined_at),
            "large": len(g.members) > large_threshold,
            "unavailable": False,
            "member_count": len(g.members),
            "voice_states": [],
            "members": [member(m) for m in members],
            "channels": [channel(c) for c in world.guild_channels(g)],
            "threads": threads,
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }
    )
    return data


def attachment(a: Attachment) -> JSON:
    data: JSON = {
        "id": str(a.id),
        "filename": a.filename,
        "size": a.size,
        "url": a.url,
        "proxy_url": a.url,
        "content_type": a.content_type,
        "flags": 0,
    }
    if a.description is not None:
        data["description"] = a.description
    if a.width is not None:
        data["width"] = a.width
        data["height"] = a.height
    if a.ephemeral:
        data["ephemeral"] = True
    return data


def message(m: Message, world: World, *, gateway: bool = False, nested: bool = False) -> JSON:
    data: JSON = {
        "id": str(m.id),
        "type": m.type,
        "content": m.content,
        "channel_id": str(m.channel_id),
        "author": user(m.author),
        "attachments": [attachment(a) for a in m.attachments],
        "embeds": m.embeds,
        "mentions": [user(u) for u in m.mentions],
        "mention_roles": [str(r) for r in m.mention_roles],
        "mention_everyone": m.mention_everyone,
        "pinned": m.pinned,
        "tts": m.tts,
        "timestamp": iso(m.timestamp),
        "edited_timestamp": iso(m.edited_timestamp) if m.edited_timestamp else None,
        "flags": m.flags,
        "components": m.components,
    }
    if m.webhook_id is not None:
        data["webhook_id"] = str(m.webhook_id)
    if m.application_id is not None:
        data["application_id"] = str(m.application_id)
    if m.interaction_metadata is not None:
        data["interaction_metadata"] = m.interaction_metadata
    if m.message_reference is not None:
        data["message_reference"] = m.message_reference
        if m.type in (19, MESSAGE_THREAD_STARTER) and not nested:
            ref = world.messages.get(int(m.message_reference.get("message_id") or 0))
            data["referenced_message"] = (
                None if ref is None or ref.deleted else message(ref, world, nested=True)
            )
    thread = world.channels.get(m.thread_id) if m.thread_id is not None else None
    if thread is not None:
        data["thread"] = channel(thread, me=world.bot_id)
    if gateway and m.guild_id is not None:
        data["guild_id"] = str(m.guild_id)
        g = world.guilds.get(m.guild_id)
        author_member = g.members.get(m.author.id) if g else None
        if author_member is not None:
            data["member"] = member(author_member, with_user=False)
    return data


def application(app_id: int, bot: User, owner: User, flags: int) -> JSON:
    return {
        "id": str(app_id),
        "name": bot.username,
        "icon": None,
        "description": "",
        "summary": "",
        "type": None,
        "hook": True,
        "bot_public": True,
        "bot_require_code_grant": False,
        "verify_key": f"{app_id:064x}"[-64:],
        "owner": user(owner),
        "team": None,
        "flags": flags,
        "bot": user(bot),
        "tags": [],
        "redirect_uris": [],
        "interactions_endpoint_url": None,
        "role_connections_verification_url": None,
        "approximate_guild_count": 0,
        "integration_types_config": {"0": {}, "1": {}},
    }


def _opt_id(value: int | None) -> str | None:
    return None if value is None else str(value)
