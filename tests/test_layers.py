"""The package's layers, checked from the source files (modules found by folder, not by list).

- ``sqrtdk_gui/core/``: numpy and the standard library only; never Qt, pyqtgraph, ``gui``
  or the command line.
- ``sqrtdk_gui/gui/``: never imports the command line (``sqrtdk_gui/cli/``).
- No import circle among the package's modules, counting imports inside functions too.
- The headless commands (``stats``, ``train``) never load Qt.
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
CORE_THIRD_PARTY = {"numpy", "ml_dtypes"}


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}
CLI = {name for name in MODULES if name.startswith("sqrtdk_gui.cli.")}


def _imports(path: Path) -> set[str]:
    """Every module ``path`` imports anywhere (``from a import b`` counts a.b if a module)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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


@pytest.mark.parametrize("module", _layer("sqrtdk_gui.core"))
def test_core_imports_numpy_stdlib_and_core_only(module):
    imports = _imports(MODULES[module])
    ours = {n for n in imports if n.split(".")[0] == "sqrtdk_gui"}
    assert all(n == "sqrtdk_gui" or n.startswith("sqrtdk_gui.core") for n in ours), ours
    third_party = {n.split(".")[0] for n in imports} - set(sys.stdlib_module_names) - {"sqrtdk_gui"}
    assert third_party <= CORE_THIRD_PARTY, third_party


@pytest.mark.parametrize("module", _layer("sqrtdk_gui.gui"))
def test_gui_never_imports_the_command_line(module):
    assert not (_imports(MODULES[module]) & CLI)


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
    # The checks above must be able to fail: a core module importing Qt is caught.
    bad = ROOT / "tests" / "_layer_probe.py"
    try:
        bad.write_text("from PySide6.QtCore import QObject\nimport sqrtdk_gui.gui.launch.app\n")
        imports = _imports(bad)
    finally:
        bad.unlink()
    assert "PySide6.QtCore" in imports and "sqrtdk_gui.gui.launch.app" in imports


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


@pytest.mark.parametrize("module", [m for m in _layer("sqrtdk_gui") if not m.startswith("sqrtdk_gui.gui.plotting")])
def test_only_the_drawing_layer_touches_pyqtgraph_internals(module):
    imports = _imports(MODULES[module])
    source = MODULES[module].read_text(encoding="utf-8")
    touched = {n for n in imports if n.startswith(PYQTGRAPH_INTERNALS)}
    touched |= {name for name in ("drawPicture", "PrimitiveArray") if name in source}
    assert not touched, f"{module} reaches into pyqtgraph ({sorted(touched)}): go through gui/plotting"


def test_the_version_is_written_once_and_the_citation_agrees():
    import re

    from sqrtdk_gui import __version__

    tomllib = pytest.importorskip("tomllib")  # Python 3.11+

    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in pyproject["project"] and "version" in pyproject["project"]["dynamic"]
    assert pyproject["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "sqrtdk_gui.__version__"}
    citation = re.search(r'^version:\s*"([^"]+)"', (ROOT / "CITATION.cff").read_text(encoding="utf-8"), re.M)
    assert citation and citation.group(1) == __version__


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "core").glob("*.py")) + sorted((ROOT / "tests" / "cli").glob("*.py")),
                         ids=lambda p: p.name)
def test_the_pure_tests_run_without_qt(path):
    # tests/core and tests/cli run with numpy alone (no PySide6, no pytest-qt installed):
    # they import no Qt and ask for no Qt fixture (the window's code runs only in tests/gui).
    imports = _imports(path)
    assert not [n for n in imports if n.split(".")[0] in (*QT, "pytestqt")], imports
    assert not [n for n in imports if n.startswith("sqrtdk_gui.gui")], imports
    source = path.read_text(encoding="utf-8")
    assert not any(f in source for f in ("qtbot", "qapp", "make_window", "(window")), path.name
