"""Locales Discord accepts (Reference > Locales)."""

from __future__ import annotations

VALID_LOCALES: tuple[str, ...] = (
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
)  # fmt: skip


def is_valid(locale: str) -> bool:
    return locale in VALID_LOCALES


def choices_message() -> str:
    return "Value must be one of (" + ", ".join(repr(x) for x in VALID_LOCALES) + ")."
