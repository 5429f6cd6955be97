"""Registered application commands (global and per guild), stored as Discord returns them."""

from __future__ import annotations

import builtins
import copy
from typing import Any

from .errors import ApiError, FormErrors
from .schema import CHAT_INPUT, COMMAND_LIMITS, validate_command, validate_command_list
from .snowflake import SnowflakeGenerator

JSON = dict[str, Any]

_IDENTITY_KEYS = ("id", "application_id", "version", "guild_id")


class CommandStore:
    def __init__(self, application_id: int, ids: SnowflakeGenerator) -> None:
        self.application_id = application_id
        self._ids = ids
        self._scopes: dict[int | None, dict[int, JSON]] = {None: {}}
        self.bulk_overwrites = 0  # how many PUTs were accepted (a "sync" counter for tests)

    # -- queries --------------------------------------------------------------------
    def list(self, guild_id: int | None = None) -> list[JSON]:
        return [copy.deepcopy(c) for c in self._scope(guild_id).values()]

    def get(self, guild_id: int | None, command_id: int) -> JSON:
        try:
            return copy.deepcopy(self._scope(guild_id)[command_id])
        except KeyError:
            raise ApiError(404, 10063, "Unknown application command") from None

    def find(self, name: str, guild_id: int | None, ctype: int = CHAT_INPUT) -> JSON | None:
        """What a user in ``guild_id`` sees for ``/name``: guild commands shadow global ones."""
        scopes = ([guild_id] if guild_id is not None else []) + [None]
        for scope in scopes:
            for cmd in self._scope(scope).values():
                if cmd["name"] == name and cmd.get("type", CHAT_INPUT) == ctype:
                    return cmd
        return None

    def all_visible(self, guild_id: int | None) -> builtins.list[JSON]:
        seen: dict[tuple[str, int], JSON] = {}
        for scope in ([guild_id] if guild_id is not None else []) + [None]:
            for cmd in self._scope(scope).values():
                seen.setdefault((cmd["name"], cmd.get("type", CHAT_INPUT)), cmd)
        return list(seen.values())

    # -- mutations ------------------------------------------------------------------
    def bulk_overwrite(self, guild_id: int | None, payload: object) -> builtins.list[JSON]:
        validate_command_list(payload).raise_if_any()
        assert isinstance(payload, list)
        old = {(c["name"], c.get("type", CHAT_INPUT)): c for c in self._scope(guild_id).values()}
        new: dict[int, JSON] = {}
        for body in payload:
            key = (body["name"], body.get("type", CHAT_INPUT))
            cmd = self._build(guild_id, body, old.get(key))
            new[int(cmd["id"])] = cmd
        self._scopes[guild_id] = new
        self.bulk_overwrites += 1
        return self.list(guild_id)

    def upsert(self, guild_id: int | None, body: object) -> tuple[JSON, bool]:
        errors = FormErrors()
        validate_command(body, errors)
        errors.raise_if_any()
        assert isinstance(body, dict)
        scope = self._scope(guild_id)
        ctype = body.get("type", CHAT_INPUT)
        existing = next(
            (c for c in scope.values() if c["name"] == body["name"] and c.get("type", 1) == ctype),
            None,
        )
        if existing is None and sum(1 for c in scope.values() if c.get("type", 1) == ctype) >= (
            COMMAND_LIMITS.get(ctype, 100)
        ):
            raise ApiError(400, 30032, "Maximum number of application commands reached")
        cmd = self._build(guild_id, body, existing)
        scope[int(cmd["id"])] = cmd
        return copy.deepcopy(cmd), existing is None

    def edit(self, guild_id: int | None, command_id: int, patch: object) -> JSON:
        current = self.get(guild_id, command_id)
        if not isinstance(patch, dict):
            raise ApiError(400, 50035, "Invalid Form Body")
        merged = {k: v for k, v in current.items() if k not in _IDENTITY_KEYS}
        merged.update(patch)
        errors = FormErrors()
        validate_command(merged, errors)
        errors.raise_if_any()
        cmd = self._build(guild_id, merged, self._scope(guild_id)[command_id])
        self._scope(guild_id)[command_id] = cmd
        return copy.deepcopy(cmd)

    def delete(self, guild_id: int | None, command_id: int) -> None:
        self.get(guild_id, command_id)
        del self._scope(guild_id)[command_id]

    # -- internals ------------------------------------------------------------------
    def _scope(self, guild_id: int | None) -> dict[int, JSON]:
        return self._scopes.setdefault(guild_id, {})

    def _build(self, guild_id: int | None, body: JSON, existing: JSON | None) -> JSON:
        ctype = body.get("type", CHAT_INPUT) or CHAT_INPUT
        perms = body.get("default_member_permissions")
        cmd: JSON = {
            "id": existing["id"] if existing else str(self._ids.next()),
            "application_id": str(self.application_id),
            "version": "",
            "default_member_permissions": None if perms is None else str(perms),
            "type": ctype,
            "name": body["name"],
            "name_localizations": body.get("name_localizations") or None,
            "description": body.get("description", "") or "",
            "description_localizations": body.get("description_localizations") or None,
            "contexts": body.get("contexts"),
            "integration_types": body.get("integration_types") or [0],
            "nsfw": bool(body.get("nsfw", False)),
        }
        if guild_id is None:
            cmd["dm_permission"] = bool(body.get("dm_permission", True))
        else:
            cmd["guild_id"] = str(guild_id)
        if body.get("options"):
            cmd["options"] = copy.deepcopy(body["options"])
        unchanged = existing is not None and _content(existing) == _content(cmd)
        cmd["version"] = existing["version"] if existing and unchanged else str(self._ids.next())
        return cmd


def _content(cmd: JSON) -> JSON:
    return {k: v for k, v in cmd.items() if k not in _IDENTITY_KEYS}
