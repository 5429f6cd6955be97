"""Discord's documented limits on message payloads, components, autocomplete results, modals."""

from __future__ import annotations

from typing import Any

from .errors import ENTITY_TOO_LARGE, ApiError, FormErrors
from .schema import STRING, validate_choice

JSON = dict[str, Any]
Path = tuple[str | int, ...]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_AUTOCOMPLETE_CHOICES = 25
IS_COMPONENTS_V2 = 1 << 15
_EMBED_TEXT = (("title", 256), ("description", 4096))


def check_message(
    payload: JSON, errors: FormErrors, path: Path = (), *, files: int = 0, creating: bool = True
) -> None:
    content = payload.get("content")
    if content is not None:
        if not isinstance(content, str):
            errors.add(
                (*path, "content"), "STRING_TYPE_CONVERT", "Could not interpret value as string."
            )
        elif len(content) > MAX_CONTENT:
            errors.add(
                (*path, "content"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_CONTENT} or fewer in length.",
            )
    embeds = payload.get("embeds")
    if embeds is not None:
        if not isinstance(embeds, list):
            errors.add(
                (*path, "embeds"), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"
            )
        else:
            if len(embeds) > MAX_EMBEDS:
                errors.add(
                    (*path, "embeds"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_EMBEDS} or fewer in length.",
                )
            total = 0
            for i, embed in enumerate(embeds):
                total += _check_embed(embed, errors, (*path, "embeds", i))
            if total > MAX_EMBED_TOTAL:
                errors.add(
                    (*path, "embeds"),
                    "MAX_EMBED_SIZE_EXCEEDED",
                    f"Embed size exceeds maximum size of {MAX_EMBED_TOTAL}",
                )
    components = payload.get("components")
    if components:
        flags = int(payload.get("flags") or 0)
        check_components(
            components, errors, (*path, "components"), v2=bool(flags & IS_COMPONENTS_V2)
        )
    if files > MAX_FILES:
        errors.add(
            (*path, "files"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."
        )
    if (
        creating
        and not errors
        and not (
            content
            or embeds
            or files
            or payload.get("attachments")
            or components
            or payload.get("sticker_ids")
            or payload.get("poll")
        )
    ):
        raise ApiError(400, 50006, "Cannot send an empty message")


def check_file_sizes(sizes: list[int], limit: int) -> None:
    if any(size > limit for size in sizes):
        raise ApiError(413, ENTITY_TOO_LARGE, "Request entity too large")


def _check_embed(embed: object, errors: FormErrors, p: Path) -> int:
    if not isinstance(embed, dict):
        errors.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return 0
    total = 0
    for key, limit in _EMBED_TEXT:
        value = embed.get(key)
        if value is not None:
            total += len(str(value))
            if len(str(value)) > limit:
                errors.add(
                    (*p, key), "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
                )
    for key, sub, limit in (("footer", "text", 2048), ("author", "name", 256)):
        part = embed.get(key)
        if isinstance(part, dict) and part.get(sub) is not None:
            total += len(str(part[sub]))
            if len(str(part[sub])) > limit:
                errors.add(
                    (*p, key, sub), "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length."
                )
    fields = embed.get("fields") or []
    if len(fields) > 25:
        errors.add((*p, "fields"), "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.")
    for i, f in enumerate(fields):
        for key, limit in (("name", 256), ("value", 1024)):
            value = f.get(key) if isinstance(f, dict) else None
            if value is None or value == "":
                errors.add((*p, "fields", i, key), "BASE_TYPE_REQUIRED", "This field is required")
            else:
                total += len(str(value))
                if len(str(value)) > limit:
                    errors.add(
                        (*p, "fields", i, key),
                        "BASE_TYPE_MAX_LENGTH",
                        f"Must be {limit} or fewer in length.",
                    )
    color = embed.get("color")
    if color is not None and (not isinstance(color, int) or not 0 <= color <= 0xFFFFFF):
        errors.add(
            (*p, "color"), "NUMBER_TYPE_MAX", "int value should be less than or equal to 16777215."
        )
    return total


def check_components(components: object, errors: FormErrors, p: Path, *, v2: bool = False) -> None:
    if not isinstance(components, list):
        errors.add(p, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    seen: set[str] = set()
    if not v2 and len(components) > 5:
        errors.add(p, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    for i, row in enumerate(components):
        rp = (*p, i)
        if not isinstance(row, dict):
            errors.add(rp, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        if not v2 and row.get("type") != 1:
            errors.add(
                (*rp, "type"), "UNION_TYPE_CHOICES", 'Value of field "type" must be one of (1,).'
            )
            continue
        _check_tree(row, errors, rp, seen)


def _check_tree(comp: JSON, errors: FormErrors, p: Path, seen: set[str]) -> None:
    ctype = comp.get("type")
    custom_id = comp.get("custom_id")
    if custom_id is not None:
        if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
            errors.add(
                (*p, "custom_id"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
            )
        elif custom_id in seen:
            errors.add(
                (*p, "custom_id"),
                "COMPONENT_CUSTOM_ID_DUPLICATED",
                "Component custom id cannot be duplicated",
            )
        else:
            seen.add(custom_id)
    if ctype == 1:
        children = comp.get("components") or []
        selects = [c for c in children if isinstance(c, dict) and c.get("type") in (3, 5, 6, 7, 8)]
        if not 1 <= len(children) <= 5 or (selects and len(children) > 1):
            errors.add(
                (*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
    elif ctype == 2:
        style = comp.get("style")
        if style == 5 and not comp.get("url"):
            errors.add((*p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        elif style in (1, 2, 3, 4) and custom_id is None:
            errors.add((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        label = comp.get("label")
        if label is not None and len(str(label)) > 80:
            errors.add((*p, "label"), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
    elif ctype in (3, 5, 6, 7, 8):
        if custom_id is None:
            errors.add((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        options = comp.get("options")
        if ctype == 3 and (not isinstance(options, list) or not 1 <= len(options) <= 25):
            errors.add(
                (*p, "options"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 25 in length."
            )
        for key in ("min_values", "max_values"):
            value = comp.get(key)
            if value is not None and not 0 <= int(value) <= 25:
                errors.add((*p, key), "NUMBER_TYPE_MAX", "Must be between 0 and 25.")
    for i, child in enumerate(comp.get("components") or []):
        if isinstance(child, dict):
            _check_tree(child, errors, (*p, "components", i), seen)
    for key in ("accessory", "component"):
        if isinstance(comp.get(key), dict):
            _check_tree(comp[key], errors, (*p, key), seen)


def check_autocomplete(data: JSON, option_type: int) -> None:
    errors = FormErrors()
    choices = data.get("choices")
    if not isinstance(choices, list):
        errors.add(("data", "choices"), "BASE_TYPE_REQUIRED", "This field is required")
    else:
        if len(choices) > MAX_AUTOCOMPLETE_CHOICES:
            errors.add(
                ("data", "choices"),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {MAX_AUTOCOMPLETE_CHOICES} or fewer in length.",
            )
        for i, choice in enumerate(choices):
            validate_choice(choice, option_type or STRING, errors, ("data", "choices", i))
    errors.raise_if_any()


def check_modal(data: JSON) -> None:
    errors = FormErrors()
    custom_id = data.get("custom_id")
    if not isinstance(custom_id, str) or not 1 <= len(custom_id) <= 100:
        errors.add(
            ("data", "custom_id"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length."
        )
    title = data.get("title")
    if not isinstance(title, str) or not 1 <= len(title) <= 45:
        errors.add(("data", "title"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 45 in length.")
    components = data.get("components")
    if not isinstance(components, list) or not 1 <= len(components) <= 5:
        errors.add(
            ("data", "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
        )
    errors.raise_if_any()
