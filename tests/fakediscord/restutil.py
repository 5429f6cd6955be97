"""Small helpers shared by the REST route modules."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from .bodies import Body, read_body
from .errors import ApiError, not_found

BODY_KEY: web.RequestKey[Any] = web.RequestKey("fakediscord_body", object)


async def read(request: web.Request) -> Body:
    body = await read_body(request)
    request[BODY_KEY] = body.payload
    return body


def ok(data: Any, status: int = 200) -> web.Response:
    """JSON with Discord's exact ``Content-Type: application/json`` (discord.py compares it)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def no_content() -> web.Response:
    return web.Response(status=204)


def snowflake(request: web.Request, key: str) -> int:
    raw = request.match_info[key]
    if not raw.isdigit():
        raise not_found()
    return int(raw)


def flag(request: web.Request, key: str) -> bool:
    return request.query.get(key, "").lower() in ("1", "true")


def query_int(request: web.Request, key: str, default: int, lo: int, hi: int) -> int:
    raw = request.query.get(key)
    if raw is None:
        return default
    if not raw.lstrip("-").isdigit() or not lo <= int(raw) <= hi:
        raise ApiError(
            400,
            50035,
            "Invalid Form Body",
            {
                key: {
                    "_errors": [
                        {"code": "NUMBER_TYPE_MAX", "message": f"Must be between {lo} and {hi}."}
                    ]
                }
            },
        )
    return int(raw)
