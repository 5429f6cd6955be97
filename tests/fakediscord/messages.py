"""Turn message payloads (+ uploaded files) into stored messages, and apply edits."""

from __future__ import annotations

import copy
import datetime as dt
import mimetypes
import re
import struct
from collections.abc import Callable
from typing import Any

from .bodies import UploadedFile
from .world import (
    MESSAGE_FLAG_COMPONENTS_V2,
    MESSAGE_FLAG_EPHEMERAL,
    MESSAGE_FLAG_LOADING,
    Attachment,
    Channel,
    Message,
    User,
    World,
)

JSON = dict[str, Any]

SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = MESSAGE_FLAG_COMPONENTS_V2
SETTABLE_FLAGS = SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2

_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


def image_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return int(width), int(height)
    return None


class MessageFactory:
    def __init__(self, world: World, cdn_base: Callable[[], str]) -> None:
        self.world = world
        self._cdn_base = cdn_base

    def create(
        self,
        channel: Channel,
        author: User,
        payload: JSON,
        files: list[UploadedFile],
        *,
        flags: int = 0,
        msg_type: int = 0,
        **extra: Any,
    ) -> Message:
        message = Message(
            id=self.world.ids.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=author,
            type=msg_type,
            flags=(int(payload.get("flags") or 0) & SETTABLE_FLAGS) | flags,
            tts=bool(payload.get("tts", False)),
            **extra,
        )
        ephemeral = bool(message.flags & MESSAGE_FLAG_EPHEMERAL)
        message.attachments = self._attachments(channel, payload, files, [], ephemeral)
        self._apply_content(message, payload)
        message.notified = list(message.mentions)
        if payload.get("message_reference"):
            message.message_reference = dict(payload["message_reference"])
            message.message_reference.setdefault("channel_id", str(channel.id))
            if message.type == 0:
                message.type = 19
        self.world.messages[message.id] = message
        if not ephemeral:
            channel.last_message_id = message.id
        return message

    def edit(self, message: Message, payload: JSON, files: list[UploadedFile]) -> Message:
        channel = self.world.channels[message.channel_id]
        keep: list[Attachment] = message.attachments
        if "attachments" in payload:  # the list of existing attachments to retain
            wanted = {str(a.get("id")) for a in payload["attachments"] or [] if isinstance(a, dict)}
            keep = [a for a in message.attachments if str(a.id) in wanted]
        if "attachments" in payload or files:
            message.attachments = self._attachments(
                channel, payload, files, keep, message.ephemeral
            )
        if "flags" in payload and payload["flags"] is not None:
            # SUPPRESS_EMBEDS comes and goes; IS_COMPONENTS_V2 can be set by an edit
            # (the deferred "thinking…" placeholder filled in with a V2 answer) but
            # never removed.
            asked = int(payload["flags"])
            message.flags = (
                (message.flags & ~SUPPRESS_EMBEDS)
                | (asked & SUPPRESS_EMBEDS)
                | (asked & IS_COMPONENTS_V2)
            )
        self._apply_content(message, payload, editing=True)
        message.flags &= ~MESSAGE_FLAG_LOADING
        message.edited_timestamp = dt.datetime.now(dt.UTC)
        message.edits += 1
        return message

    # -- pieces ---------------------------------------------------------------------
    def _apply_content(self, message: Message, payload: JSON, *, editing: bool = False) -> None:
        if "content" in payload or not editing:
            message.content = payload.get("content") or ""
        if "embeds" in payload or not editing:
            message.embeds = [
                self._embed(e, message.attachments) for e in payload.get("embeds") or []
            ]
        if "components" in payload or not editing:
            message.components = copy.deepcopy(payload.get("components") or [])
            self._resolve_media(message.components, message.attachments)
        # A V2 message's text, mentions included, is in its components.
        text_changed = "components" in payload if message.is_v2 else "content" in payload
        if text_changed or "allowed_mentions" in payload or not editing:
            self._mentions(message, payload.get("allowed_mentions"))

    def _attachments(
        self,
        channel: Channel,
        payload: JSON,
        files: list[UploadedFile],
        keep: list[Attachment],
        ephemeral: bool,
    ) -> list[Attachment]:
        meta: dict[str, JSON] = {}
        for entry in payload.get("attachments") or []:
            if isinstance(entry, dict) and "id" in entry:
                meta[str(entry["id"])] = entry
        out = list(keep)
        for position, upload in enumerate(files):
            index = upload.index if upload.index is not None else position
            info = meta.get(str(index), {})
            filename = str(info.get("filename") or upload.filename)
            att_id = self.world.ids.next()
            size = image_size(upload.data)
            out.append(
                Attachment(
                    id=att_id,
                    filename=filename,
                    data=upload.data,
                    url=f"{self._cdn_base()}/attachments/{channel.id}/{att_id}/{filename}",
                    content_type=mimetypes.guess_type(filename)[0] or upload.content_type,
                    description=info.get("description"),
                    width=size[0] if size else None,
                    height=size[1] if size else None,
                    ephemeral=ephemeral,
                )
            )
        return out

    def _embed(self, embed: JSON, attachments: list[Attachment]) -> JSON:
        out = copy.deepcopy(embed)
        out.setdefault("type", "rich")
        by_name = {a.filename: a for a in attachments}
        for key, url_key in (
            ("image", "url"),
            ("thumbnail", "url"),
            ("author", "icon_url"),
            ("footer", "icon_url"),
        ):
            part = out.get(key)
            if not isinstance(part, dict):
                continue
            url = part.get(url_key)
            if isinstance(url, str) and url.startswith("attachment://"):
                att = by_name.get(url[len("attachment://") :])
                if att is not None:
                    part[url_key] = att.url
                    if key in ("image", "thumbnail"):
                        part.update(proxy_url=att.url, content_type=att.content_type, flags=0)
                        if att.width is not None:
                            part.update(width=att.width, height=att.height)
                    else:
                        part["proxy_" + url_key] = att.url
        return out

    def _resolve_media(self, components: list[JSON], attachments: list[Attachment]) -> None:
        """As Discord answers: each ``attachment://<filename>`` a media gallery item,
        thumbnail or file component references becomes that attachment's URL, with
        its id, size and type (an unknown name stays as sent)."""
        by_name = {a.filename: a for a in attachments}
        pending = list(components)
        while pending:
            component = pending.pop()
            media = [item.get("media") for item in component.get("items") or []]
            media += [component.get("media"), component.get("file")]
            for part in media:
                if not isinstance(part, dict):
                    continue
                url = part.get("url")
                if not isinstance(url, str) or not url.startswith("attachment://"):
                    continue
                att = by_name.get(url[len("attachment://") :])
                if att is None:
                    continue
                part.update(
                    url=att.url,
                    proxy_url=att.url,
                    content_type=att.content_type,
                    attachment_id=str(att.id),
                    placeholder=None,
                    placeholder_version=None,
                    loading_state=2,
                    flags=0,
                )
                if att.width is not None:
                    part.update(width=att.width, height=att.height)
            pending += [c for c in component.get("components") or [] if isinstance(c, dict)]
            pending += [component[k] for k in ("accessory",) if isinstance(component.get(k), dict)]

    def _mentions(self, message: Message, allowed: JSON | None) -> None:
        content = message.text
        parse = (
            {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse") or [])
        )
        allowed_users = {str(u) for u in (allowed or {}).get("users") or []}
        allowed_roles = {str(r) for r in (allowed or {}).get("roles") or []}
        users: list[User] = []
        for raw in _USER_MENTION.findall(content):
            user = self.world.users.get(int(raw))
            if user and ("users" in parse or raw in allowed_users) and user not in users:
                users.append(user)
        message.mentions = users
        message.mention_roles = [
            int(r) for r in _ROLE_MENTION.findall(content) if "roles" in parse or r in allowed_roles
        ]
        message.mention_everyone = "everyone" in parse and (
            "@everyone" in content or "@here" in content
        )
