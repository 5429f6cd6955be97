"""Discord's documented limits on message payloads, components, autocomplete results, modals."""

from __future__ import annotations

from typing import Any

from .errors import ENTITY_TOO_LARGE, ApiError, FormErrors
from .schema import STRING, validate_choice
from .world import Message

JSON = dict[str, Any]
Path = tuple[str | int, ...]

MAX_CONTENT = 2000
MAX_EMBEDS = 10
MAX_EMBED_TOTAL = 6000
MAX_FILES = 10
MAX_AUTOCOMPLETE_CHOICES = 25
IS_COMPONENTS_V2 = 1 << 15
_EMBED_TEXT = (("title", 256), ("description", 4096))

# Components V2 (a message flagged IS_COMPONENTS_V2): its text is in TextDisplays,
# all of them together at most MAX_V2_TEXT characters; at most MAX_V2_COMPONENTS
# components in all, nested ones counted.
MAX_V2_TEXT = 4000
MAX_V2_COMPONENTS = 40
MAX_GALLERY_ITEMS = 10
ACTION_ROW, BUTTON, SECTION, TEXT_DISPLAY, THUMBNAIL = 1, 2, 9, 10, 11
MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER = 12, 13, 14, 17
SELECTS = (3, 5, 6, 7, 8)
# Which component types may sit where: at a message's top, in a container, in an
# action row, as a section's accessory; a section holds TextDisplays only.
V2_TOP = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR, CONTAINER)
IN_CONTAINER = (ACTION_ROW, SECTION, TEXT_DISPLAY, MEDIA_GALLERY, FILE, SEPARATOR)
IN_ROW = (BUTTON, *SELECTS)
ACCESSORY = (BUTTON, THUMBNAIL)
# The fields a V2 message cannot carry (Discord: "cannot be used when using
# MessageFlags.IS_COMPONENTS_V2"); upgrading a message by an edit must clear them.
LEGACY_FIELDS = ("content", "embeds", "sticker_ids", "poll")
LEGACY_CODE = "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2"


def check_message(
    payload: JSON,
    errors: FormErrors,
    path: Path = (),
    *,
    files: int = 0,
    creating: bool = True,
    current: Message | None = None,
) -> None:
    """A message payload against Discord's limits; ``current``: the message an
    edit changes (its flags: a V2 message stays V2; its content and embeds, which
    an edit that makes it V2 must clear)."""
    flags = int(payload.get("flags") or 0)
    was_v2 = current is not None and bool(current.flags & IS_COMPONENTS_V2)
    v2 = was_v2 or bool(flags & IS_COMPONENTS_V2)
    if v2:
        _check_v2_fields(payload, errors, path, current=None if was_v2 else current)
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
        check_components(components, errors, (*path, "components"), v2=v2)
    if files > MAX_FILES:
        errors.add(
            (*path, "files"), "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_FILES} or fewer in length."
        )
    if creating and not errors:
        shown = components or (
            not v2
            and (
                content
                or embeds
                or files
                or payload.get("attachments")
                or payload.get("sticker_ids")
                or payload.get("poll")
            )
        )
        if not shown:  # a V2 message shows only its components
            raise ApiError(400, 50006, "Cannot send an empty message")


def _check_v2_fields(
    payload: JSON, errors: FormErrors, path: Path, *, current: Message | None
) -> None:
    """No content, embeds, stickers nor poll in a V2 message; an edit that makes
    a message V2 (``current``, not V2 yet) must clear the ones it has."""
    for field_name in LEGACY_FIELDS:
        sent = payload.get(field_name)
        kept = current is not None and field_name not in payload and _has(current, field_name)
        if sent or kept:
            errors.add(
                (*path, field_name),
                LEGACY_CODE,
                f"The '{field_name}' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            )


def _has(message: Message, field_name: str) -> bool:
    return bool(getattr(message, field_name, None))  # the fake keeps no stickers nor polls


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
    """A message's components: action rows of buttons or a select (at most five
    rows); with ``v2``, the layout components too, as Discord nests them, at
    most ``MAX_V2_COMPONENTS`` in all and ``MAX_V2_TEXT`` characters of text."""
    if not isinstance(components, list):
        errors.add(p, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    seen: set[str] = set()
    if not v2 and len(components) > 5:
        errors.add(p, "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
    tally = _Tally()
    for i, row in enumerate(components):
        _check_tree(row, errors, (*p, i), seen, V2_TOP if v2 else (ACTION_ROW,), tally)
    if v2 and tally.count > MAX_V2_COMPONENTS:
        errors.add(p, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_V2_COMPONENTS} or fewer in length.")
    if v2 and tally.text > MAX_V2_TEXT:
        errors.add(
            p,
            "MAX_TEXT_DISPLAY_LENGTH_EXCEEDED",
            f"The total length of the text components must be {MAX_V2_TEXT} or fewer.",
        )


class _Tally:
    """How many components, and how much TextDisplay text, a message holds."""

    def __init__(self) -> None:
        self.count = 0
        self.text = 0


def _check_tree(
    comp: object,
    errors: FormErrors,
    p: Path,
    seen: set[str],
    allowed: tuple[int, ...],
    tally: _Tally,
) -> None:
    if not isinstance(comp, dict):
        errors.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    tally.count += 1
    ctype = comp.get("type")
    if ctype not in allowed:
        choices = ", ".join(str(t) for t in allowed)
        errors.add(
            (*p, "type"),
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of ({choices},).',
        )
        return
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
    children: tuple[int, ...] = ()
    if ctype == ACTION_ROW:
        children = IN_ROW
        kids = comp.get("components") or []
        selects = [c for c in kids if isinstance(c, dict) and c.get("type") in SELECTS]
        if not 1 <= len(kids) <= 5 or (selects and len(kids) > 1):
            errors.add(
                (*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length."
            )
    elif ctype == BUTTON:
        style = comp.get("style")
        if style == 5 and not comp.get("url"):
            errors.add((*p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        elif style in (1, 2, 3, 4) and custom_id is None:
            errors.add((*p, "custom_id"), "BASE_TYPE_REQUIRED", "This field is required")
        label = comp.get("label")
        if label is not None and len(str(label)) > 80:
            errors.add((*p, "label"), "BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.")
    elif ctype in SELECTS:
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
    elif ctype == CONTAINER:
        children = IN_CONTAINER
        _check_v2_children(comp, errors, p)
        colour = comp.get("accent_color")
        if colour is not None and (not isinstance(colour, int) or not 0 <= colour <= 0xFFFFFF):
            errors.add(
                (*p, "accent_color"),
                "NUMBER_TYPE_MAX",
                "int value should be less than or equal to 16777215.",
            )
    elif ctype == SECTION:
        children = (TEXT_DISPLAY,)
        kids = comp.get("components")
        if not isinstance(kids, list) or not 1 <= len(kids) <= 3:
            errors.add(
                (*p, "components"), "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 3 in length."
            )
        accessory = comp.get("accessory")
        if accessory is None:
            errors.add((*p, "accessory"), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            _check_tree(accessory, errors, (*p, "accessory"), seen, ACCESSORY, tally)
    elif ctype == TEXT_DISPLAY:
        content = comp.get("content")
        if not isinstance(content, str) or not content:
            errors.add((*p, "content"), "BASE_TYPE_REQUIRED", "This field is required")
        else:
            tally.text += len(content)
    elif ctype == MEDIA_GALLERY:
        items = comp.get("items")
        if not isinstance(items, list) or not 1 <= len(items) <= MAX_GALLERY_ITEMS:
            errors.add(
                (*p, "items"),
                "BASE_TYPE_BAD_LENGTH",
                f"Must be between 1 and {MAX_GALLERY_ITEMS} in length.",
            )
        else:
            for i, item in enumerate(items):
                media = item.get("media") if isinstance(item, dict) else None
                _check_media(media, errors, (*p, "items", i, "media"))
    elif ctype == THUMBNAIL:
        _check_media(comp.get("media"), errors, (*p, "media"))
    elif ctype == FILE:
        _check_media(comp.get("file"), errors, (*p, "file"), attachment_only=True)
    for i, child in enumerate(comp.get("components") or []):
        _check_tree(child, errors, (*p, "components", i), seen, children, tally)


def _check_v2_children(comp: JSON, errors: FormErrors, p: Path) -> None:
    kids = comp.get("components")
    if not isinstance(kids, list) or not kids:
        errors.add((*p, "components"), "BASE_TYPE_REQUIRED", "This field is required")


def _check_media(
    media: object, errors: FormErrors, p: Path, *, attachment_only: bool = False
) -> None:
    """An unfurled media item: a URL (http(s) or ``attachment://<filename>``; a
    File component takes attachments only)."""
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url:
        errors.add((*p, "url"), "BASE_TYPE_REQUIRED", "This field is required")
        return
    schemes = ("attachment://",) if attachment_only else ("attachment://", "https://", "http://")
    if not url.startswith(schemes):
        errors.add((*p, "url"), "URL_TYPE_INVALID_PROTOCOL", "Not a well formed URL.")


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
