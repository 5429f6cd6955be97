"""Build INTERACTION_CREATE bodies the way Discord's client would, refusing what it would refuse."""

from __future__ import annotations

import base64
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from . import locales, payloads
from . import permissions as perms
from .commands import CommandStore
from .schema import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    MAX_SAFE,
    MENTIONABLE,
    NUMBER,
    ROLE,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
)
from .world import Attachment, Channel, Message, Role, User, World

JSON = dict[str, Any]
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
OPTION_TYPE_NAMES = {
    1: "SUB_COMMAND", 2: "SUB_COMMAND_GROUP", 3: "STRING", 4: "INTEGER", 5: "BOOLEAN",
    6: "USER", 7: "CHANNEL", 8: "ROLE", 9: "MENTIONABLE", 10: "NUMBER", 11: "ATTACHMENT",
}  # fmt: skip


class DriverError(Exception):
    """The fake's Discord client refused to send this interaction (as the real client would)."""


class CommandNotFound(DriverError):
    pass


class InvalidOption(DriverError):
    pass


@dataclass
class Built:
    """An interaction body plus what the fake needs to remember about it."""

    id: int
    token: str
    body: JSON
    name: str | None = None
    focused_type: int | None = None
    uploads: list[Attachment] = field(default_factory=list)


class InteractionBuilder:
    def __init__(
        self,
        world: World,
        commands: CommandStore,
        application_id: int,
        bot: User,
        cdn_base: Callable[[], str],
    ) -> None:
        self.world = world
        self.commands = commands
        self.application_id = application_id
        self.bot = bot
        self._cdn_base = cdn_base

    @property
    def cdn_base(self) -> str:
        return self._cdn_base()

    # -- public builders ---------------------------------------------------------------
    def slash(
        self,
        user: User,
        channel: Channel,
        path: str,
        options: JSON | None,
        locale: str | None,
        *,
        focused: str | None = None,
    ) -> Built:
        words = path.split()
        if not words:
            raise CommandNotFound("empty command path")
        cmd = self.commands.find(words[0], channel.guild_id)
        if cmd is None:
            known = sorted(c["name"] for c in self.commands.all_visible(channel.guild_id))
            raise CommandNotFound(f"/{words[0]} is not registered here (registered: {known})")
        self._check_usable(cmd, user, channel)
        schema: list[JSON] = cmd.get("options") or []
        chain: list[JSON] = []
        for word in words[1:]:
            sub = next(
                (
                    o
                    for o in schema
                    if o["name"] == word and o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
                ),
                None,
            )
            if sub is None:
                names = [o["name"] for o in schema if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
                raise CommandNotFound(f"/{path}: no subcommand {word!r} (have {names})")
            chain.append(sub)
            schema = sub.get("options") or []
        if (chain and chain[-1]["type"] == SUB_COMMAND_GROUP) or any(
            o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in schema
        ):
            raise CommandNotFound(f"/{path} is a group; name one of its subcommands")
        iid = self.world.ids.next()
        resolved: JSON = {}
        uploads: list[Attachment] = []
        leaf, focused_type = self._options(
            schema, dict(options or {}), resolved, channel, uploads, focused=focused, path=path
        )
        for sub in reversed(chain):
            leaf = [{"type": sub["type"], "name": sub["name"], "options": leaf}]
        data: JSON = {"id": cmd["id"], "name": cmd["name"], "type": 1}
        if leaf:
            data["options"] = leaf
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        itype = 4 if focused is not None else 2
        token = self._token(iid)
        body = self._envelope(iid, token, itype, data, user, channel, locale)
        return Built(iid, token, body, path, focused_type, uploads)

    def click(
        self,
        user: User,
        message: Message,
        custom_id: str,
        values: list[Any] | None,
        locale: str | None,
    ) -> Built:
        channel = self.world.channels[message.channel_id]
        if message.ephemeral and message.visible_to not in (None, user.id):
            raise DriverError("that ephemeral message is not visible to this user")
        if not self.world.permissions_in(channel, user.id) & perms.VIEW_CHANNEL:
            raise DriverError(f"{user.username} cannot see channel {channel.name!r}")
        self._check_thread(user, channel, typing=False)
        comp = message.component(custom_id)
        if comp is None:
            raise DriverError(
                f"message {message.id} has no component {custom_id!r} (has {message.custom_ids()})"
            )
        if comp.get("disabled"):
            raise DriverError(f"component {custom_id!r} is disabled")
        ctype = int(comp["type"])
        data: JSON = {"custom_id": custom_id, "component_type": ctype}
        if ctype == 2:
            if values:
                raise DriverError("buttons take no values")
        elif ctype in (3, 5, 6, 7, 8):
            data["values"], resolved = self._select_values(comp, values or [], channel)
            if resolved:
                data["resolved"] = resolved
        else:
            raise DriverError(f"component {custom_id!r} (type {ctype}) is not interactive")
        iid = self.world.ids.next()
        token = self._token(iid)
        body = self._envelope(iid, token, 3, data, user, channel, locale)
        body["message"] = payloads.message(message, self.world)
        return Built(iid, token, body, custom_id)

    def modal_submit(
        self,
        user: User,
        channel: Channel,
        modal: JSON,
        values: dict[str, Any],
        locale: str | None,
        source: Message | None,
    ) -> Built:
        values = dict(values)
        components = [self._submitted(c, values) for c in modal.get("components") or []]
        if values:
            raise DriverError(f"modal {modal.get('custom_id')!r} has no inputs {sorted(values)}")
        iid = self.world.ids.next()
        token = self._token(iid)
        data = {"custom_id": modal["custom_id"], "components": components}
        body = self._envelope(iid, token, 5, data, user, channel, locale)
        if source is not None:
            body["message"] = payloads.message(source, self.world)
        return Built(iid, token, body, str(modal["custom_id"]))

    # -- envelope -------------------------------------------------------------------------
    def _envelope(
        self,
        iid: int,
        token: str,
        itype: int,
        data: JSON,
        user: User,
        channel: Channel,
        locale: str | None,
    ) -> JSON:
        locale = locale or user.locale
        if not locales.is_valid(locale):
            raise DriverError(f"{locale!r} is not a Discord locale ({locales.VALID_LOCALES})")
        guild = self.world.guild_of(channel)
        body: JSON = {
            "id": str(iid),
            "application_id": str(self.application_id),
            "type": itype,
            "data": data,
            "channel_id": str(channel.id),
            "token": token,
            "version": 1,
            "locale": locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "app_permissions": str(self.world.permissions_in(channel, self.bot.id)),
        }
        user_perms = self.world.permissions_in(channel, user.id)
        body["channel"] = payloads.channel(channel, permissions=user_perms)
        if guild is not None:
            member = guild.members.get(user.id)
            if member is None:
                raise DriverError(f"{user.username} is not a member of guild {guild.name}")
            body.update(
                guild_id=str(guild.id),
                guild={
                    "id": str(guild.id),
                    "locale": guild.preferred_locale,
                    "features": list(guild.features),
                },
                guild_locale=guild.preferred_locale,
                member=payloads.member(member, permissions=user_perms),
                authorizing_integration_owners={"0": str(guild.id)},
                context=0,
            )
        else:
            body.update(
                user=payloads.user(user), authorizing_integration_owners={"0": "0"}, context=1
            )
        return body

    def _token(self, iid: int) -> str:
        raw = f"interaction:{iid}:{secrets.token_urlsafe(48)}".encode()
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def _check_usable(self, cmd: JSON, user: User, channel: Channel) -> None:
        guild = self.world.guild_of(channel)
        name = cmd["name"]
        contexts = cmd.get("contexts")
        if guild is None:
            if (
                cmd.get("guild_id")
                or cmd.get("dm_permission") is False
                or (contexts is not None and 1 not in contexts)
            ):
                raise CommandNotFound(f"/{name} is not available in DMs")
            return
        if contexts is not None and 0 not in contexts:
            raise CommandNotFound(f"/{name} is not available in guilds")
        user_perms = self.world.permissions_in(channel, user.id)
        self._check_thread(user, channel, typing=True)
        if not perms.has(user_perms, perms.USE_APPLICATION_COMMANDS):
            raise DriverError(f"{user.username} cannot use application commands here")
        required = cmd.get("default_member_permissions")
        if required is not None:
            base = self.world.base_permissions(guild, user.id)
            need = int(required)
            if (need == 0 and not base & perms.ADMINISTRATOR) or (
                need and not perms.has(base, need)
            ):
                raise DriverError(f"/{name} needs permissions {need} which {user.username} lacks")

    def _check_thread(self, user: User, channel: Channel, *, typing: bool) -> None:
        """What Discord's client allows in a thread: seeing it (private: members/moderators),
        nothing in archived threads (no commands, no components), and for commands the chat box:
        SEND_MESSAGES_IN_THREADS, and MANAGE_THREADS if the thread is locked."""
        if not channel.is_thread:
            return
        user_perms = self.world.permissions_in(channel, user.id)
        if not user_perms & perms.VIEW_CHANNEL:
            raise DriverError(f"{user.username} cannot see thread {channel.name!r}")
        if channel.archived:
            raise DriverError(
                f"thread {channel.name!r} is archived: no commands or components there "
                "(a message posted in it unarchives it: fake.user_message)"
            )
        if not typing:
            return
        if not perms.has(user_perms, perms.SEND_MESSAGES_IN_THREADS):
            raise DriverError(f"{user.username} cannot send messages in thread {channel.name!r}")
        if channel.locked and not perms.has(user_perms, perms.MANAGE_THREADS):
            raise DriverError(f"thread {channel.name!r} is locked")

    # -- options ------------------------------------------------------------------------
    def _options(
        self,
        schema: list[JSON],
        given: JSON,
        resolved: JSON,
        channel: Channel,
        uploads: list[Attachment],
        *,
        focused: str | None,
        path: str,
    ) -> tuple[list[JSON], int | None]:
        known = {o["name"]: o for o in schema}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise InvalidOption(f"/{path}: unknown option(s) {unknown}; has {list(known)}")
        if focused is not None and focused not in known:
            raise InvalidOption(f"/{path}: cannot focus unknown option {focused!r}")
        out: list[JSON] = []
        focused_type: int | None = None
        for opt in schema:
            name = opt["name"]
            if name == focused:
                if not opt.get("autocomplete"):
                    raise InvalidOption(f"/{path}: option {name!r} has no autocomplete")
                focused_type = int(opt["type"])
                out.append(
                    {
                        "type": opt["type"],
                        "name": name,
                        "value": str(given.get(name, "")),
                        "focused": True,
                    }
                )
                continue
            if name not in given:
                if opt.get("required") and focused is None:
                    raise InvalidOption(f"/{path}: required option {name!r} is missing")
                continue
            value = self._value(
                opt, given[name], resolved, channel, uploads, path, lenient=focused is not None
            )
            out.append({"type": opt["type"], "name": name, "value": value})
        return out, focused_type

    def _value(
        self,
        opt: JSON,
        value: Any,
        resolved: JSON,
        channel: Channel,
        uploads: list[Attachment],
        path: str,
        *,
        lenient: bool,
    ) -> Any:
        otype, name = int(opt["type"]), opt["name"]
        where = f"/{path} option {name!r} ({OPTION_TYPE_NAMES.get(otype)})"
        if otype == STRING:
            if not isinstance(value, str):
                raise InvalidOption(f"{where}: expected a string, got {value!r}")
            lo, hi = opt.get("min_length"), opt.get("max_length")
            if not lenient and (
                (lo is not None and len(value) < lo)
                or (hi is not None and len(value) > hi)
                or len(value) > 6000
            ):
                raise InvalidOption(f"{where}: length {len(value)} outside [{lo}, {hi}]")
        elif otype in (INTEGER, NUMBER):
            ok = isinstance(value, int) if otype == INTEGER else isinstance(value, (int, float))
            if isinstance(value, bool) or not ok:
                raise InvalidOption(f"{where}: expected a number, got {value!r}")
            lo, hi = opt.get("min_value", -MAX_SAFE), opt.get("max_value", MAX_SAFE)
            if not lenient and not (lo if lo is not None else -MAX_SAFE) <= value <= (
                hi if hi is not None else MAX_SAFE
            ):
                raise InvalidOption(f"{where}: {value} outside [{lo}, {hi}]")
        elif otype == BOOLEAN:
            if not isinstance(value, bool):
                raise InvalidOption(f"{where}: expected a bool, got {value!r}")
        elif otype in (USER, CHANNEL, ROLE, MENTIONABLE):
            return self._snowflake_value(otype, opt, value, resolved, channel, where)
        elif otype == ATTACHMENT:
            return self._attachment_value(value, resolved, channel, uploads, where)
        choices = opt.get("choices")
        if choices and not lenient and value not in [c["value"] for c in choices]:
            raise InvalidOption(f"{where}: {value!r} is not one of {[c['value'] for c in choices]}")
        return value

    def _snowflake_value(
        self, otype: int, opt: JSON, value: Any, resolved: JSON, channel: Channel, where: str
    ) -> str:
        guild = self.world.guild_of(channel)
        if otype in (USER, MENTIONABLE) and isinstance(value, User):
            resolved.setdefault("users", {})[str(value.id)] = payloads.user(value)
            member = guild.members.get(value.id) if guild else None
            if member is not None:
                data = payloads.member(
                    member,
                    with_user=False,
                    permissions=self.world.permissions_in(channel, value.id),
                )
                resolved.setdefault("members", {})[str(value.id)] = data
            return str(value.id)
        if otype in (ROLE, MENTIONABLE) and isinstance(value, Role):
            resolved.setdefault("roles", {})[str(value.id)] = payloads.role(value)
            return str(value.id)
        if otype == CHANNEL and isinstance(value, Channel):
            allowed = opt.get("channel_types")
            if allowed and value.type not in allowed:
                raise InvalidOption(f"{where}: channel type {value.type} not in {allowed}")
            data = {
                k: v
                for k, v in payloads.channel(value).items()
                if k in ("id", "name", "type", "parent_id", "thread_metadata", "guild_id")
            }
            data["permissions"] = str(self.world.permissions_in(value, self.bot.id))
            resolved.setdefault("channels", {})[str(value.id)] = data
            return str(value.id)
        raise InvalidOption(f"{where}: expected a fake User/Channel/Role object, got {value!r}")

    def _attachment_value(
        self, value: Any, resolved: JSON, channel: Channel, uploads: list[Attachment], where: str
    ) -> str:
        if not (isinstance(value, tuple) and len(value) == 2 and isinstance(value[1], bytes)):
            raise InvalidOption(f"{where}: expected (filename, bytes)")
        att_id = self.world.ids.next()
        filename = str(value[0])
        att = Attachment(
            att_id,
            filename,
            value[1],
            f"{self.cdn_base}/attachments/{channel.id}/{att_id}/{filename}",
            ephemeral=True,
        )
        uploads.append(att)
        resolved.setdefault("attachments", {})[str(att_id)] = payloads.attachment(att)
        return str(att_id)

    def _select_values(
        self, comp: JSON, values: list[Any], channel: Channel
    ) -> tuple[list[str], JSON]:
        lo = int(comp.get("min_values", 1))
        hi = int(comp.get("max_values", 1))
        if not lo <= len(values) <= hi:
            raise DriverError(f"select {comp.get('custom_id')!r} takes {lo}..{hi} values")
        ctype = int(comp["type"])
        if ctype == 3:
            allowed = [o["value"] for o in comp.get("options") or []]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise DriverError(f"select {comp.get('custom_id')!r}: {bad} not in {allowed}")
            return [str(v) for v in values], {}
        resolved: JSON = {}
        otype = {5: USER, 6: ROLE, 7: MENTIONABLE, 8: CHANNEL}[ctype]
        out = [self._snowflake_value(otype, comp, v, resolved, channel, "select") for v in values]
        return out, resolved

    def _submitted(self, comp: JSON, values: dict[str, Any]) -> JSON:
        ctype = comp.get("type")
        if ctype == 1:
            return {
                "type": 1,
                "components": [self._submitted(c, values) for c in comp["components"]],
            }
        if ctype == 18:
            out = {"type": 18, "component": self._submitted(comp["component"], values)}
            if "id" in comp:
                out["id"] = comp["id"]
            return out
        custom_id = comp.get("custom_id")
        out = {"type": ctype}
        if "id" in comp:
            out["id"] = comp["id"]
        if custom_id is None:
            return out
        out["custom_id"] = custom_id
        if ctype == 4:
            value = values.pop(custom_id, comp.get("value") or "")
            if comp.get("required", True) and not value:
                raise DriverError(f"modal input {custom_id!r} is required")
            out["value"] = str(value)
        else:
            picked = values.pop(custom_id, [])
            out["values"] = [str(v) for v in picked]
        return out
