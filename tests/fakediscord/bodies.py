"""Request bodies: JSON, or multipart/form-data with ``payload_json`` and ``files[n]`` parts."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from aiohttp import BodyPartReader, web

from .errors import INVALID_JSON, ApiError


@dataclass
class UploadedFile:
    field: str
    filename: str
    data: bytes
    content_type: str | None = None

    @property
    def index(self) -> int | None:
        """``files[3]`` -> 3."""
        if self.field.startswith("files[") and self.field.endswith("]"):
            inner = self.field[6:-1]
            return int(inner) if inner.isdigit() else None
        return None


@dataclass
class Body:
    payload: Any = None
    files: list[UploadedFile] = field(default_factory=list)
    multipart: bool = False

    def obj(self) -> dict[str, Any]:
        if self.payload is None:
            return {}
        if not isinstance(self.payload, dict):
            raise ApiError(400, 50035, "Invalid Form Body")
        return self.payload


async def read_body(request: web.Request) -> Body:
    ctype = request.content_type
    if ctype.startswith("multipart/"):
        return await _read_multipart(request)
    raw = await request.read()
    if not raw:
        return Body()
    try:
        return Body(json.loads(raw))
    except ValueError:
        raise ApiError(400, INVALID_JSON, "The request body contains invalid JSON.") from None


async def _read_multipart(request: web.Request) -> Body:
    reader = await request.multipart()
    body = Body(multipart=True)
    while True:
        part = await reader.next()
        if part is None:
            break
        if not isinstance(part, BodyPartReader):
            continue
        name = part.name or ""
        data = await part.read(decode=False)
        if name == "payload_json":
            try:
                body.payload = json.loads(bytes(data))
            except ValueError:
                raise ApiError(
                    400, INVALID_JSON, "The request body contains invalid JSON."
                ) from None
        elif part.filename is not None:
            body.files.append(
                UploadedFile(name, part.filename, bytes(data), part.headers.get("Content-Type"))
            )
    return body
