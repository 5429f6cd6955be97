"""Imports go downwards only; the engines stay pure."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# package -> top-level modules it must never import
FORBIDDEN = {
    "games": {"discord", "PIL", "aiosqlite", "bot", "cogs", "render"},
    "render": {"discord", "aiosqlite", "bot", "cogs"},
    "bot": {"cogs", "render", "PIL"},
}


def imported_roots(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    roots: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            roots.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            roots.add(node.module.split(".")[0])
    return roots


def test_layers_import_only_downwards() -> None:
    offences = []
    for package, forbidden in FORBIDDEN.items():
        for path in (ROOT / package).rglob("*.py"):
            bad = imported_roots(path) & forbidden
            if bad:
                offences.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offences


def test_importing_games_pulls_in_neither_discord_nor_pil() -> None:
    code = (
        "import sys, games.contract, games.desert, games.desert.ai;"
        "bad = [m for m in ('discord', 'PIL') if m in sys.modules];"
        "print(','.join(bad))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert result.stdout.strip() == ""
