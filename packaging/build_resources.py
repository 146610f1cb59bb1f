"""Compile resources/resources.qrc into sqrtdk_gui/gui/resources_rc.py with pyside6-rcc.

    python packaging/build_resources.py          # regenerate
    python packaging/build_resources.py --check  # exit 1 if the committed module is stale
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QRC = ROOT / "resources" / "resources.qrc"
OUT = ROOT / "sqrtdk_gui" / "gui" / "resources_rc.py"


def rcc() -> str:
    """pyside6-rcc from the running interpreter's environment (or PATH)."""
    here = Path(sys.executable).with_name("pyside6-rcc")
    found = str(here) if here.exists() else shutil.which("pyside6-rcc")
    if not found:
        raise SystemExit("pyside6-rcc not found: install PySide6-Essentials")
    return found


def compile_to(path: Path) -> None:
    # rcc stamps each file's modification time into the output; a fixed stamp makes the
    # module reproducible, so a fresh clone (new mtimes) compiles to the same bytes.
    env = dict(os.environ, QT_RCC_SOURCE_DATE_OVERRIDE="1")
    subprocess.run([rcc(), str(QRC), "-o", str(path)], check=True, cwd=QRC.parent, env=env)


def body(path: Path) -> str:
    """The module without its header comments (they name the Qt version that made it)."""
    return "\n".join(line for line in path.read_text().splitlines() if not line.startswith("#"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that OUT is current")
    args = parser.parse_args()
    if not args.check:
        compile_to(OUT)
        print(f"wrote {OUT.relative_to(ROOT)}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        fresh = Path(tmp) / "resources_rc.py"
        compile_to(fresh)
        if body(fresh) != body(OUT):
            print(f"{OUT.relative_to(ROOT)} is stale: run python packaging/build_resources.py")
            return 1
    print("resources are current")
    return 0


if __name__ == "__main__":
    sys.exit(main())
