"""Validate application command payloads the way Discord's API does (400 Invalid Form Body)."""

from __future__ import annotations

import re
from typing import Any

from . import locales
from .errors import FormErrors

JSON = dict[str, Any]
Path = tuple[str | int, ...]

CHAT_INPUT, USER_COMMAND, MESSAGE_COMMAND, PRIMARY_ENTRY_POINT = 1, 2, 3, 4
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)
OPTION_TYPES = range(1, 12)

MAX_OPTIONS = 25
MAX_CHOICES = 25
MAX_COMMAND_SIZE = 8000
MAX_SAFE = 2**53
COMMAND_LIMITS = {CHAT_INPUT: 100, USER_COMMAND: 15, MESSAGE_COMMAND: 15, PRIMARY_ENTRY_POINT: 1}

# Docs: ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ ; Python's \w covers letters/digits/_.
_NAME_RE = re.compile(r"^[-_'\w\u0900-\u097F\u0E00-\u0E7F]{1,32}$")

INVALID_NAME = ("APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid")


def valid_name(name: object) -> bool:
    """A CHAT_INPUT command/option name: the documented pattern, lowercase where possible."""
    return isinstance(name, str) and bool(_NAME_RE.match(name)) and name == name.lower()


def _length(errors: FormErrors, path: Path, value: object, lo: int, hi: int) -> None:
    if not isinstance(value, str):
        errors.add(
            path,
            "BASE_TYPE_REQUIRED" if value is None else "STRING_TYPE_CONVERT",
            "This field is required" if value is None else "Could not interpret value as string.",
        )
    elif not lo <= len(value) <= hi:
        errors.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {lo} and {hi} in length.")


def _localizations(
    errors: FormErrors, path: Path, value: object, *, kind: str, chat_input: bool = True
) -> None:
    if value is None:
        return
    if not isinstance(value, dict):
        errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    for loc, text in value.items():
        if not locales.is_valid(loc):
            errors.add((*path, loc), "BASE_TYPE_CHOICES", locales.choices_message())
        elif kind == "name":
            if chat_input and not valid_name(text):
                errors.add((*path, loc), *INVALID_NAME)
            elif not chat_input:
                _length(errors, (*path, loc), text, 1, 32)
        else:
            _length(errors, (*path, loc), text, 1, 100)


def _size(obj: JSON) -> int:
    total = len(str(obj.get("name") or "")) + len(str(obj.get("description") or ""))
    for choice in obj.get("choices") or []:
        total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    for option in obj.get("options") or []:
        if isinstance(option, dict):
            total += _size(option)
    return total


def validate_command(cmd: object, errors: FormErrors, path: Path = ()) -> None:
    if not isinstance(cmd, dict):
        errors.add(path, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    ctype = cmd.get("type", CHAT_INPUT)
    if ctype not in COMMAND_LIMITS:
        errors.add((*path, "type"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.")
        return
    chat = ctype == CHAT_INPUT
    name = cmd.get("name")
    if chat and not valid_name(name):
        errors.add((*path, "name"), *INVALID_NAME)
    elif not chat:
        _length(errors, (*path, "name"), name, 1, 32)
    _localizations(
        errors,
        (*path, "name_localizations"),
        cmd.get("name_localizations"),
        kind="name",
        chat_input=chat,
    )
    description = cmd.get("description", "" if not chat else None)
    if chat:
        _length(errors, (*path, "description"), description, 1, 100)
        _localizations(
            errors,
            (*path, "description_localizations"),
            cmd.get("description_localizations"),
            kind="description",
        )
    elif description not in ("", None):
        errors.add(
            (*path, "description"),
            "APPLICATION_COMMAND_CONTEXT_MENU_DESCRIPTION",
            "Context menu commands cannot have description",
        )
    perms = cmd.get("default_member_permissions")
    if perms is not None and not (isinstance(perms, (str, int)) and str(perms).isdigit()):
        errors.add(
            (*path, "default_member_permissions"),
            "NUMBER_TYPE_COERCE",
            f'Value "{perms}" is not snowflake.',
        )
    for key, allowed in (("contexts", {0, 1, 2}), ("integration_types", {0, 1})):
        values = cmd.get(key)
        if values is not None and (not isinstance(values, list) or not set(values) <= allowed):
            errors.add(
                (*path, key), "BASE_TYPE_CHOICES", f"Value must be one of {sorted(allowed)}."
            )
    options = cmd.get("options") or []
    if options and not chat:
        errors.add(
            (*path, "options"),
            "APPLICATION_COMMAND_OPTIONS_INVALID",
            "Only chat input commands may have options",
        )
        return
    _validate_options(options, errors, (*path, "options"), depth=0)
    if _size(cmd) > MAX_COMMAND_SIZE:
        errors.add(
            path,
            "APPLICATION_COMMAND_TOO_LARGE",
            f"Command exceeds maximum size ({MAX_COMMAND_SIZE})",
        )


def _validate_options(options: object, errors: FormErrors, path: Path, depth: int) -> None:
    """depth 0: command level, 1: inside a group or subcommand, 2: inside a grouped subcommand."""
    if not isinstance(options, list):
        errors.add(path, "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return
    if len(options) > MAX_OPTIONS:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {MAX_OPTIONS} or fewer in length.")
    seen: set[str] = set()
    seen_optional = False
    kinds: set[bool] = set()
    for i, opt in enumerate(options):
        p = (*path, i)
        if not isinstance(opt, dict):
            errors.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
            continue
        otype = opt.get("type")
        if not isinstance(otype, int) or isinstance(otype, bool) or otype not in OPTION_TYPES:
            errors.add((*p, "type"), "BASE_TYPE_CHOICES", "Value must be one of (1..11).")
            continue
        is_sub = otype in (SUB_COMMAND, SUB_COMMAND_GROUP)
        kinds.add(is_sub)
        name = opt.get("name")
        if not valid_name(name):
            errors.add((*p, "name"), *INVALID_NAME)
        elif name in seen:
            errors.add(
                (*p, "name"),
                "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME",
                "Option names must be unique",
            )
        else:
            seen.add(str(name))
        _length(errors, (*p, "description"), opt.get("description"), 1, 100)
        _localizations(
            errors, (*p, "name_localizations"), opt.get("name_localizations"), kind="name"
        )
        _localizations(
            errors,
            (*p, "description_localizations"),
            opt.get("description_localizations"),
            kind="description",
        )
        if otype == SUB_COMMAND_GROUP and depth != 0:
            errors.add(
                (*p, "type"),
                "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                "Subcommand groups can only be nested in a command",
            )
        elif otype == SUB_COMMAND and depth > 1:
            errors.add(
                (*p, "type"),
                "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                "Subcommands can only be nested in a command or a subcommand group",
            )
        if is_sub:
            children = opt.get("options") or []
            if otype == SUB_COMMAND_GROUP and any(
                isinstance(c, dict) and c.get("type") != SUB_COMMAND for c in children
            ):
                errors.add(
                    (*p, "options"),
                    "APPLICATION_COMMAND_OPTION_TYPE_INVALID",
                    "Subcommand groups may only contain subcommands",
                )
            _validate_options(
                children,
                errors,
                (*p, "options"),
                depth=depth + 1 if otype == SUB_COMMAND_GROUP else 2,
            )
            continue
        _validate_value_option(opt, otype, errors, p)
        if opt.get("required"):
            if seen_optional:
                errors.add(
                    (*p, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
    if len(kinds) > 1:
        errors.add(
            path,
            "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID",
            "Sub-command and sub-command group option types are mutually exclusive "
            "to all other types",
        )


def _validate_value_option(opt: JSON, otype: int, errors: FormErrors, p: Path) -> None:
    numeric = otype in (INTEGER, NUMBER)
    choices = opt.get("choices")
    if choices:
        if otype not in (STRING, INTEGER, NUMBER):
            errors.add(
                (*p, "choices"),
                "APPLICATION_COMMAND_OPTION_CHOICES_INVALID",
                "Choices are only allowed for string, integer and number options",
            )
        elif opt.get("autocomplete"):
            errors.add(
                (*p, "autocomplete"),
                "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_CHOICES",
                "Autocomplete cannot be enabled on options that have choices",
            )
        if not isinstance(choices, list):
            errors.add(
                (*p, "choices"), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType"
            )
        else:
            if len(choices) > MAX_CHOICES:
                errors.add(
                    (*p, "choices"),
                    "BASE_TYPE_MAX_LENGTH",
                    f"Must be {MAX_CHOICES} or fewer in length.",
                )
            for j, choice in enumerate(choices):
                validate_choice(choice, otype, errors, (*p, "choices", j))
    if opt.get("autocomplete") and otype not in (STRING, INTEGER, NUMBER):
        errors.add(
            (*p, "autocomplete"),
            "APPLICATION_COMMAND_OPTION_AUTOCOMPLETE_INVALID",
            "Autocomplete is only allowed for string, integer and number options",
        )
    for key in ("min_value", "max_value"):
        if key in opt and opt[key] is not None:
            value = opt[key]
            if not numeric or isinstance(value, bool) or not isinstance(value, (int, float)):
                errors.add((*p, key), "NUMBER_TYPE_COERCE", "Value is not a valid number.")
            elif not -MAX_SAFE <= value <= MAX_SAFE:
                errors.add((*p, key), "NUMBER_TYPE_MAX", f"int value should be <= {MAX_SAFE}.")
    for key, lo in (("min_length", 0), ("max_length", 1)):
        if key in opt and opt[key] is not None:
            value = opt[key]
            if otype != STRING or not isinstance(value, int) or not lo <= value <= 6000:
                errors.add((*p, key), "NUMBER_TYPE_MAX", f"Must be between {lo} and 6000.")
    if opt.get("channel_types") and otype != CHANNEL:
        errors.add(
            (*p, "channel_types"),
            "APPLICATION_COMMAND_OPTION_CHANNEL_TYPES_INVALID",
            "Channel types are only allowed for channel options",
        )


def validate_choice(choice: object, otype: int, errors: FormErrors, p: Path) -> None:
    """One {name, value} choice, for command schemas and autocomplete results alike."""
    if not isinstance(choice, dict):
        errors.add(p, "DICT_TYPE_CONVERT", "Only dictionaries may be used in a DictType")
        return
    _length(errors, (*p, "name"), choice.get("name"), 1, 100)
    _localizations(
        errors, (*p, "name_localizations"), choice.get("name_localizations"), kind="description"
    )
    value = choice.get("value")
    if otype == STRING:
        _length(errors, (*p, "value"), value, 0, 100)
    elif isinstance(value, bool) or not isinstance(value, (int, float)):
        errors.add((*p, "value"), "NUMBER_TYPE_COERCE", f'Value "{value}" is not a number.')
    elif otype == INTEGER and (not float(value).is_integer() or not -MAX_SAFE <= value <= MAX_SAFE):
        errors.add((*p, "value"), "NUMBER_TYPE_COERCE", f'Value "{value}" is not int.')


def validate_command_list(commands: object) -> FormErrors:
    """Validate a bulk-overwrite body (list of commands)."""
    errors = FormErrors()
    if not isinstance(commands, list):
        errors.add((), "LIST_TYPE_CONVERT", "Only iterables may be used in a ListType")
        return errors
    seen: set[tuple[int, str]] = set()
    counts: dict[int, int] = {}
    for i, cmd in enumerate(commands):
        validate_command(cmd, errors, (i,))
        if isinstance(cmd, dict):
            key = (int(cmd.get("type", CHAT_INPUT) or CHAT_INPUT), str(cmd.get("name")))
            if key in seen:
                errors.add(
                    (i, "name"),
                    "APPLICATION_COMMANDS_DUPLICATE_NAME",
                    f"Application command names must be unique: {key[1]}",
                )
            seen.add(key)
            counts[key[0]] = counts.get(key[0], 0) + 1
    for ctype, count in counts.items():
        limit = COMMAND_LIMITS.get(ctype, 100)
        if count > limit:
            errors.add(
                (),
                "BASE_TYPE_MAX_LENGTH",
                f"Must be {limit} or fewer commands of type {ctype} in length.",
            )
    return errors
