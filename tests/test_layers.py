"""Module rules: imports go downwards only, engines stay pure, a game is one package.

Shared code (the ground layer ``games/*.py``, ``render/``, ``bot/``, ``cogs/``, ``web/``)
imports downwards only and never names a game. A game package
(``games/<g>/``, and the test game ``tests/nim/``) holds three kinds of
module: its picture (``picture.py`` and its parts ``picture_*.py``, the only
ones that may use Pillow), its
Discord commands (``commands.py``, the only one that may use discord.py),
and its engine (everything else: pure, neither). Checked on the source with
``ast``, so an import inside a function or under ``TYPE_CHECKING`` counts too.
"""

from __future__ import annotations

import ast
import importlib
import subprocess
import sys
from collections.abc import Collection, Iterator
from pathlib import Path

import pytest

from bot import registry
from cogs.play import game_cog_class
from games.contract import GameSpec
from tests.contract import TEST_GAMES, all_specs

ROOT = Path(__file__).resolve().parents[1]
SPECS = all_specs()
GAME_PACKAGES = {spec.package for spec in SPECS.values()}
PICTURE, COMMANDS = "picture", "commands"  # a game's two modules that are not engine

# Shared code: package -> top-level modules it must never import.
FORBIDDEN = {
    "games": {"discord", "PIL", "aiosqlite", "bot", "cogs", "render"},  # the ground layer
    "render": {"discord", "aiosqlite", "bot", "cogs"},
    "bot": {"cogs", "render", "PIL"},
    "cogs": {"PIL"},
    # The web pages: no Discord, and no drawing of their own (boards go through
    # bot.boards and the CPU pool; see WEB_RENDER).
    "web": {"discord", "cogs", "PIL"},
}
# What of render/ the web may name: the chart function it hands to the CPU pool.
WEB_RENDER = {"render.chart"}
# The Discord edge of the runtime: the entry point, the client and its command translator.
DISCORD_IN_BOT = {"bot/__main__.py", "bot/app.py", "bot/translator.py"}

# A game's modules, by kind: top-level modules each must never import.
GAME_FORBIDDEN = {
    "engine": {"discord", "PIL", "aiosqlite", "bot", "cogs", "render"},
    PICTURE: {"discord", "aiosqlite", "bot", "cogs"},
    COMMANDS: {"PIL", "render", "aiosqlite"},
}


# --------------------------------------------------------------------------- reading imports


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_of(path: Path) -> str:
    name = module_name(path)
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def imports_of(tree: ast.AST, package: str) -> set[str]:
    """Every module ``tree`` imports, by full dotted name, relative imports resolved
    from ``package``; ``from a import b`` counts as ``a`` and ``a.b`` (b may be a module)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                anchor = parts[: len(parts) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def imported_modules(path: Path) -> set[str]:
    return imports_of(ast.parse(path.read_text(encoding="utf-8")), package_of(path))


def roots(modules: set[str]) -> set[str]:
    return {name.split(".")[0] for name in modules}


def within(name: str, package: str) -> bool:
    return name == package or name.startswith(package + ".")


def shared_files() -> Iterator[Path]:
    yield from (ROOT / "games").glob("*.py")
    for package in ("render", "bot", "cogs", "web"):
        yield from (ROOT / package).rglob("*.py")


def game_files() -> Iterator[tuple[str, Path]]:
    """(the game's package, a module of it), for every registered game."""
    for package in sorted(GAME_PACKAGES):
        folder = ROOT / Path(*package.split("."))
        for path in sorted(folder.rglob("*.py")):
            yield package, path


def kind_of(package: str, path: Path) -> str:
    name = module_name(path)
    # A big picture may keep parts beside it: picture_<part>.py (Sahwari's icons).
    if name == f"{package}.{PICTURE}" or name.startswith(f"{package}.{PICTURE}_"):
        return PICTURE
    if name == f"{package}.{COMMANDS}":
        return COMMANDS
    return "engine"


# --------------------------------------------------------------------------- shared code


def test_shared_code_imports_only_downwards() -> None:
    offences = []
    for package, forbidden in FORBIDDEN.items():
        folder = ROOT / package
        paths = folder.glob("*.py") if package == "games" else folder.rglob("*.py")
        for path in paths:
            relative = path.relative_to(ROOT).as_posix()
            bad = roots(imported_modules(path)) & forbidden
            if package == "bot" and relative not in DISCORD_IN_BOT:
                bad |= roots(imported_modules(path)) & {"discord"}
            if bad:
                offences.append(f"{relative} imports {sorted(bad)}")
    assert not offences


def test_the_web_names_only_the_chart_of_render() -> None:
    """web/ draws nothing itself: of render/ it imports only the chart function it
    passes to the CPU pool (as cogs/chart.py does)."""
    offences = []
    for path in (ROOT / "web").rglob("*.py"):
        named = {name for name in imported_modules(path) if within(name, "render")}
        bad = {name for name in named if not any(within(name, ok) for ok in WEB_RENDER)}
        if bad:
            offences.append(f"{path.relative_to(ROOT)} imports {sorted(bad)}")
    assert not offences


def docstrings(tree: ast.AST) -> set[int]:
    """The string nodes that are docstrings (prose may mention a game)."""
    found: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def registry_line(tree: ast.AST) -> set[int]:
    """The nodes of ``GAMES = (...)`` in bot/registry.py: one line per game, the one
    place shared code names the games."""
    found: set[int] = set()
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else []
        if isinstance(node, ast.AnnAssign):
            targets = [node.target]
        if any(isinstance(t, ast.Name) and t.id == "GAMES" for t in targets):
            found.update(id(inner) for inner in ast.walk(node))
    return found


def names_a_game(text: str) -> bool:
    """A game's key (``"desert"``), one of its texts (``"desert.title"``) or its module."""
    return any(
        text == spec.kind or text.startswith(spec.kind + ".") or within(text, spec.package)
        for spec in SPECS.values()
    )


def games_named(tree: ast.AST, package: str, allowed: Collection[int] = ()) -> list[str]:
    """Where ``tree`` (a module of ``package``) imports or names a game, but in ``allowed``."""
    found = [
        f"imports {name}"
        for name in sorted(imports_of(tree, package))
        if any(within(name, game) for game in GAME_PACKAGES)
    ]
    for node in ast.walk(tree):
        if id(node) in allowed or not isinstance(node, ast.Constant):
            continue
        if isinstance(node.value, str) and names_a_game(node.value):
            found.append(f"line {node.lineno} names {node.value!r}")
    return found


def test_no_shared_file_names_a_game() -> None:
    """Adding a game changes no shared file but bot/registry.py's ``GAMES``: the
    platform reaches a game only through its spec."""
    offences = []
    for path in shared_files():
        relative = path.relative_to(ROOT).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        allowed = docstrings(tree)
        if relative == "bot/registry.py":
            allowed |= registry_line(tree)
        offences += [f"{relative}: {what}" for what in games_named(tree, package_of(path), allowed)]
    assert not offences


def test_the_rule_sees_a_game_named_in_shared_code() -> None:
    """The check above catches the usual ways of naming a game."""
    key, package = next((spec.kind, spec.package) for spec in SPECS.values())
    for source in (
        f"import {package}.engine\n",
        f"from {package} import engine\n",
        f"from {package.rpartition('.')[0]} import {package.rpartition('.')[2]}\n",
        f"if kind == {key!r}:\n    pass\n",
        f"TITLE = {key + '.title'!r}\n",
        f"EXTENSION = f'{package}.{{name}}'\n",
    ):
        assert games_named(ast.parse(source), "cogs"), source
    prose = ast.parse(f'"""{key}"""\n')  # a docstring may speak of a game
    assert games_named(prose, "cogs") and not games_named(prose, "cogs", docstrings(prose))


# --------------------------------------------------------------------------- a game, one package


def test_a_games_modules_keep_to_their_kind() -> None:
    """Only the picture draws (Pillow, render/), only the commands talk to Discord
    (discord.py, bot/, cogs/), the engine does neither; no game imports another,
    and the engine imports neither of the game's other two modules."""
    offences = []
    for package, path in game_files():
        kind = kind_of(package, path)
        imported = imported_modules(path)
        bad = sorted(roots(imported) & GAME_FORBIDDEN[kind])
        bad += sorted(
            name for name in imported for other in GAME_PACKAGES - {package} if within(name, other)
        )
        if kind == "engine":
            own = (f"{package}.{PICTURE}", f"{package}.{COMMANDS}")
            bad += sorted(name for name in imported if any(within(name, m) for m in own))
        if kind == COMMANDS:
            bad += sorted(name for name in imported if within(name, f"{package}.{PICTURE}"))
        if bad:
            offences.append(f"{path.relative_to(ROOT)} ({kind}) imports {bad}")
    assert not offences


@pytest.mark.parametrize("key", sorted(SPECS))
def test_a_spec_names_its_picture_and_commands_in_its_package(key: str) -> None:
    spec: GameSpec = SPECS[key]
    module, _, name = spec.picture.partition(":")
    assert module == f"{spec.package}.{PICTURE}" and name
    assert spec.commands == f"{spec.package}.{COMMANDS}"
    picture = spec.load_picture()
    assert picture is spec.load_picture()  # loaded once
    assert callable(picture.board) and callable(picture.hand)
    commands = importlib.import_module(spec.commands)
    assert callable(commands.setup)
    assert game_cog_class(spec.commands, key).kind == key
    quick_moves = getattr(commands, "quick_moves", None)  # optional: buttons on the turn post
    assert quick_moves is None or callable(quick_moves)


def loaded_by(statements: str) -> set[str]:
    """Which of discord and PIL a fresh interpreter has loaded after ``statements``."""
    code = f"import sys\n{statements}\nprint(*[m for m in ('discord', 'PIL') if m in sys.modules])"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    return set(result.stdout.split())


def test_importing_the_games_pulls_in_neither_discord_nor_pil() -> None:
    packages = (*registry.GAMES, *TEST_GAMES)
    assert loaded_by(f"import games.contract, {', '.join(packages)}") == set()


def test_a_worker_drawing_boards_imports_pil_but_not_discord() -> None:
    """What a CPU worker does: load the games, then each game's picture."""
    statements = (
        "from bot import registry\n"
        f"registry.configure({TEST_GAMES!r})\n"
        "for spec in registry.specs().values():\n"
        "    spec.load_picture()"
    )
    assert loaded_by(statements) == {"PIL"}
