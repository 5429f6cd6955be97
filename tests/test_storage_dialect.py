"""The storage's dialect boundary: one SQL text for both databases.

:mod:`bot.storage.sql` and :mod:`bot.storage.queries` hold every statement
once, with ``?`` placeholders; the dialects (:mod:`bot.storage.sqlite`,
:mod:`bot.storage.postgres`) translate and supply the few snippets that
differ. The behaviour on real databases is ``tests/test_storage.py``'s; these
check the boundary itself."""

from __future__ import annotations

import ast
import inspect
import re
import sqlite3
from contextlib import closing
from pathlib import Path
from types import ModuleType

import pytest

from bot.storage import MigrationError, SqliteStorage, queries, sql
from bot.storage.migrate import load_migrations
from bot.storage.postgres import PostgresDialect, numbered, rows_touched
from bot.storage.sqlite import SqliteDialect


def test_placeholders_are_numbered_in_order() -> None:
    assert numbered("SELECT * FROM t WHERE a = ? AND b IN (?, ?)") == (
        "SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)"
    )
    assert numbered("UPDATE t SET x = ?") == "UPDATE t SET x = $1"
    assert numbered("SELECT 1") == "SELECT 1"


def test_placeholders_in_quotes_and_comments_stay() -> None:
    text = "SELECT '?', 'it''s ?', \"col?\", x::bigint[] FROM t -- why?\nWHERE y = ?"
    assert numbered(text) == (
        "SELECT '?', 'it''s ?', \"col?\", x::bigint[] FROM t -- why?\nWHERE y = $1"
    )


def test_command_tags_give_the_rows_touched() -> None:
    tags = ("UPDATE 1", "INSERT 0 3", "DELETE 0", "LOCK TABLE")
    assert [rows_touched(tag) for tag in tags] == [1, 3, 0, 0]


def test_each_dialect_spells_one_of_its_own_way() -> None:
    sqlite = SqliteDialect(":memory:")
    postgres = PostgresDialect("postgresql://nowhere/db")
    assert sqlite.any_of("user_id", [3, 1, 2], "bigint") == ("user_id IN (?,?,?)", [3, 1, 2])
    assert postgres.any_of("user_id", [3, 1, 2], "bigint") == (
        "user_id = ANY(?::bigint[])",
        [[3, 1, 2]],
    )
    assert postgres.any_of("status", ("active",), "text") == (
        "status = ANY(?::text[])",
        [["active"]],
    )


def _shared_sql(module: ModuleType) -> list[str]:
    """The string literals of ``module``, docstrings left out: its SQL."""
    tree = ast.parse(inspect.getsource(module))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if id(node) not in docstrings
    ]


# What only one of the databases reads, or reads differently; it belongs to a dialect.
ONE_DATABASE_ONLY = {
    r"\$\d": "numbered placeholders (asyncpg's): the shared SQL uses ?",
    r"::": "PostgreSQL's casts: CAST(x AS type) reads the same in both",
    r"\bFOR UPDATE\b": "row locks: Dialect.for_update",
    r"\bGREATEST\b|\bMAX\(\w+, ": "the larger of two: Dialect.larger",
    r"\bANY\(": "arrays: Dialect.any_of",
    r"\bRETURNING\b": "needs SQLite 3.35",
    r"\bNULLS (FIRST|LAST)\b": "needs SQLite 3.30",
    r"\bpg_|\bPRAGMA\b|\bhashtext": "one database's functions",
    r"\bREAL\b": "single precision in PostgreSQL: DOUBLE PRECISION reads as REAL in SQLite",
    r"\b(is_bot|resigned|won|ends_turn|by_ai|dm_turn|dm_reminders) = [01]\b": (
        "booleans are 0/1 in SQLite only: test them bare, write TRUE/FALSE"
    ),
}


@pytest.mark.parametrize("module", [sql, queries], ids=lambda m: m.__name__)
def test_the_shared_sql_is_read_alike_by_both_databases(module: ModuleType) -> None:
    texts = _shared_sql(module)
    assert any("SELECT" in t for t in texts)
    for text in texts:
        for pattern, why in ONE_DATABASE_ONLY.items():
            assert not re.search(pattern, text, re.I), f"{why}: {text!r}"


async def test_a_database_busy_when_a_migration_begins_is_not_a_failed_migration(
    tmp_path: Path,
) -> None:
    """SQLite's BEGIN IMMEDIATE waits for another writer, outside the migration:
    giving up is the driver's "locked" (the bot retries later: exit code 1),
    not a MigrationError (a database it cannot work with: exit code 2), and
    nothing was applied."""
    path = tmp_path / "games.db"
    shipped = load_migrations()
    async with SqliteStorage(path, migrations=shipped[:-1]):
        pass
    with closing(sqlite3.connect(path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError, match="locked") as failed:
            await SqliteStorage(path, busy_timeout_ms=100).open()
        assert not isinstance(failed.value, MigrationError)
        other.execute("ROLLBACK")
        versions = [r[0] for r in other.execute("SELECT version FROM schema_migrations")]
    assert versions == [m.version for m in shipped[:-1]]
    async with SqliteStorage(path) as s:  # once free, it migrates
        assert await s.get_meta("absent") is None
