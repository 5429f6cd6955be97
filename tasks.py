#!/usr/bin/env python3
"""Project tasks that work on a fresh clone with only Python 3.11+.

    python3 tasks.py bot     # install into .venv if needed, then start the bot
    python3 tasks.py check   # install, then ruff, mypy --strict (games/ and the rest), pytest
    python3 tasks.py bench   # install, then the benchmarks (docs/benchmarks.md)
    python3 tasks.py bench-ai  # install, then the bot levels' matches (docs/benchmarks.md)

Stdlib only: it creates ``.venv`` and installs the project with its dev
extras the first time, and again whenever pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".installed-pyproject-hash"


def ensure_venv() -> None:
    if sys.version_info < (3, 11):  # noqa: UP036 - this script is what checks it
        sys.exit("Caravanserai needs Python 3.11 or newer.")
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if PY.exists() and STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    if not PY.exists():
        print("Creating .venv …", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("Installing Caravanserai and its dev tools into .venv …", flush=True)
    run([str(PY), "-m", "pip", "install", "--quiet", "--upgrade", "pip"])
    run([str(PY), "-m", "pip", "install", "--quiet", "-e", ".[dev]"])
    STAMP.write_text(wanted)


def run(cmd: list[str]) -> None:
    result = subprocess.run(cmd, cwd=ROOT)
    if result.returncode != 0:
        sys.exit(result.returncode)


def check(extra: list[str]) -> None:
    run([str(PY), "-m", "ruff", "check", "."])
    run([str(PY), "-m", "mypy", "--strict", "games", "render", "bot", "cogs", "web"])
    run([str(PY), "-m", "pytest", *extra])


def main() -> None:
    task = sys.argv[1] if len(sys.argv) > 1 else "help"
    extra = sys.argv[2:]
    if task == "bot":
        ensure_venv()
        os.execv(str(PY), [str(PY), "-m", "bot", *extra])
    elif task == "check":
        ensure_venv()
        check(extra)
    elif task == "bench":
        ensure_venv()
        run([str(PY), "-m", "benchmarks", *extra])
    elif task == "bench-ai":
        ensure_venv()
        run([str(PY), "-m", "benchmarks.ai", *extra])
    else:
        print(__doc__)
        sys.exit(0 if task in {"help", "-h", "--help"} else 2)


if __name__ == "__main__":
    main()
