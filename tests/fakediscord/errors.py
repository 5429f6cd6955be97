"""Discord-style JSON API errors."""

from __future__ import annotations

from typing import Any

JSON = dict[str, Any]

UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MEMBER = 10007
UNKNOWN_MESSAGE = 10008
UNKNOWN_USER = 10013
UNKNOWN_WEBHOOK = 10015
UNKNOWN_INTERACTION = 10062
UNKNOWN_COMMAND = 10063
MAX_COMMANDS = 30032
ENTITY_TOO_LARGE = 40005
ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
CANNOT_EXECUTE_ON_DM = 50003
CANNOT_EDIT_OTHERS = 50005
EMPTY_MESSAGE = 50006
INVALID_CHANNEL_TYPE = 50024
INVALID_WEBHOOK_TOKEN = 50027
INVALID_FORM_BODY = 50035
THREAD_ARCHIVED = 50083
INVALID_JSON = 50109
MISSING_PERMISSIONS = 50013
THREAD_ALREADY_CREATED = 160004
THREAD_LOCKED = 160005


class ApiError(Exception):
    """Raised inside handlers; rendered as Discord's ``{"message", "code", "errors"?}`` body."""

    def __init__(self, status: int, code: int, message: str, errors: JSON | None = None) -> None:
        super().__init__(f"{status} {code}: {message}")
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors

    def body(self) -> JSON:
        data: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            data["errors"] = self.errors
        return data


def unauthorized() -> ApiError:
    return ApiError(401, 0, "401: Unauthorized")


def not_found() -> ApiError:
    return ApiError(404, 0, "404: Not Found")


def method_not_allowed() -> ApiError:
    return ApiError(405, 0, "405: Method Not Allowed")


def unknown(code: int, what: str) -> ApiError:
    return ApiError(404, code, f"Unknown {what}")


def missing_permissions() -> ApiError:
    return ApiError(403, MISSING_PERMISSIONS, "Missing Permissions")


def missing_access() -> ApiError:
    return ApiError(403, MISSING_ACCESS, "Missing Access")


def dm_channel_refused() -> ApiError:
    return ApiError(400, CANNOT_EXECUTE_ON_DM, "Cannot execute action on a DM channel")


def wrong_channel_type() -> ApiError:
    return ApiError(400, INVALID_CHANNEL_TYPE, "Cannot execute action on this channel type")


def thread_archived() -> ApiError:
    return ApiError(400, THREAD_ARCHIVED, "Thread is archived")


def thread_locked() -> ApiError:
    return ApiError(403, THREAD_LOCKED, "Thread is locked")


class FormErrors:
    """Accumulates field errors into Discord's nested ``errors`` tree."""

    def __init__(self) -> None:
        self.tree: JSON = {}

    def add(self, path: tuple[str | int, ...], code: str, message: str) -> None:
        node = self.tree
        for key in path:
            node = node.setdefault(str(key), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})

    def __bool__(self) -> bool:
        return bool(self.tree)

    def raise_if_any(self) -> None:
        if self.tree:
            raise ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", self.tree)


def form_error(path: tuple[str | int, ...], code: str, message: str) -> ApiError:
    errors = FormErrors()
    errors.add(path, code, message)
    return ApiError(400, INVALID_FORM_BODY, "Invalid Form Body", errors.tree)


def flatten(errors: JSON, prefix: str = "") -> dict[str, str]:
    """``{"0": {"name": {"_errors": [...]}}}`` -> ``{"0.name": "CODE"}`` (for assertions)."""
    out: dict[str, str] = {}
    for key, value in errors.items():
        if key == "_errors":
            out[prefix] = ",".join(e["code"] for e in value)
        elif isinstance(value, dict):
            out.update(flatten(value, f"{prefix}.{key}" if prefix else key))
    return out
