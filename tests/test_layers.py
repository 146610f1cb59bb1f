"""What import-linter (``lint-imports``, the layer contracts in pyproject.toml) cannot check,
from the source files (modules found by folder, not by list):

- ``sqrtdk_gui/core/`` imports numpy, ml-dtypes, fsrs and the standard library only (the linter
  forbids Qt and the upper layers; it cannot allow a list);
- no import circle among the package's modules, counting imports inside functions too;
- the headless commands (``stats``, ``train``) never load Qt, and the pure tests import none;
- only the drawing layer reaches into pyqtgraph's internals.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "sqrtdk_gui"
QT = ("PySide6", "pyqtgraph", "shiboken6", "PyQt5", "PyQt6")
CORE_THIRD_PARTY = {"numpy", "ml_dtypes", "fsrs"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(path: Path | str) -> set[str]:
    """Every module a file (or source text) imports anywhere (``from a import b`` counts a.b
    if a module)."""
    source = path.read_text(encoding="utf-8") if isinstance(path, Path) else path
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            assert node.level == 0, f"{path}: use absolute imports"
            names.add(node.module)
            names.update(f"{node.module}.{a.name}" for a in node.names
                         if f"{node.module}.{a.name}" in MODULES)
    return names


def _layer(prefix: str) -> list[str]:
    return [name for name in MODULES if name == prefix or name.startswith(prefix + ".")]


def test_the_layers_exist_and_hold_modules():
    assert len(_layer("sqrtdk_gui.core")) >= 10 and len(_layer("sqrtdk_gui.gui")) >= 15


def _outside_core(source: Path | str) -> set[str]:
    """What a core module imports besides the core, numpy, ml-dtypes, fsrs and the standard library."""
    imports = _imports(source)
    ours = {n for n in imports if n.split(".")[0] == "sqrtdk_gui" and n != "sqrtdk_gui"
            and not n.startswith("sqrtdk_gui.core")}
    third_party = {n.split(".")[0] for n in imports} - set(sys.stdlib_module_names) - {"sqrtdk_gui"}
    return ours | (third_party - CORE_THIRD_PARTY)


def test_core_imports_numpy_stdlib_and_core_only():
    found = {m: _outside_core(MODULES[m]) for m in _layer("sqrtdk_gui.core")}
    assert {m: names for m, names in found.items() if names} == {}


def test_no_import_circles():
    graph = {m: {n for n in _imports(p) if n in MODULES and n != m} for m, p in MODULES.items()}
    state: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt]
                pytest.fail("import circle: " + " -> ".join(cycle))
            if nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for module in sorted(graph):
        if module not in state:
            visit(module, [module])


def test_the_checks_see_a_violation():
    # The core check must be able to fail: a module importing Qt, the window or a library
    # besides numpy is caught, inside a function too.
    bad = "from PySide6.QtCore import QObject\ndef f():\n    import sqrtdk_gui.gui.launch.app\n    import scipy\n"
    assert _outside_core(bad) == {"PySide6", "sqrtdk_gui.gui.launch.app", "scipy"}


@pytest.mark.parametrize("argv", [["stats", "--dk", "8", "--json"],
                                  ["train", "--dk", "4", "--steps", "2", "--json"]])
def test_headless_commands_never_load_qt(argv):
    code = (
        f"import sys; from sqrtdk_gui.cli.main import main; main({argv!r});"
        f"loaded = [m for m in sys.modules if m.split('.')[0] in {QT!r}];"
        "assert not loaded, loaded"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


PYQTGRAPH_INTERNALS = ("pyqtgraph.Qt.internals", "pyqtgraph.graphicsItems", "pyqtgraph.functions")


def test_only_the_drawing_layer_touches_pyqtgraph_internals():
    reaching = {}
    for module in _layer("sqrtdk_gui"):
        if module.startswith("sqrtdk_gui.gui.plotting"):
            continue
        source = MODULES[module].read_text(encoding="utf-8")
        touched = {n for n in _imports(source) if n.startswith(PYQTGRAPH_INTERNALS)}
        touched |= {name for name in ("drawPicture", "PrimitiveArray") if name in source}
        if touched:
            reaching[module] = sorted(touched)
    assert reaching == {}, "these reach into pyqtgraph: go through gui/plotting"


def test_the_version_is_written_once_and_the_citation_agrees():
    import re

    from sqrtdk_gui import __version__

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "sqrtdk_gui.__version__"}
    citation = re.search(r'^version:\s*"([^"]+)"', (ROOT / "CITATION.cff").read_text(encoding="utf-8"), re.M)
    assert citation and citation.group(1) == __version__


def test_the_pure_tests_run_without_qt():
    # tests/core and tests/cli run with numpy alone (no PySide6, no pytest-qt installed):
    # they import no Qt and ask for no Qt fixture (the window's code runs only in tests/gui).
    for path in sorted((ROOT / "tests" / "core").glob("*.py")) + sorted((ROOT / "tests" / "cli").glob("*.py")):
        imports = _imports(path)
        assert not [n for n in imports if n.split(".")[0] in (*QT, "pytestqt")], (path.name, imports)
        assert not [n for n in imports if n.startswith("sqrtdk_gui.gui")], (path.name, imports)
        source = path.read_text(encoding="utf-8")
        assert not any(f in source for f in ("qtbot", "qapp", "make_window", "(window")), path.name
