"""The model and the headless commands never import Qt."""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "sqrtdk_gui"
PURE_MODULES = ["model.py", "softmax_math.py", "sampling.py", "geometry.py", "plotdata.py",
                "training.py", "training_task.py", "lr_sweep.py", "train_cli.py", "cli.py"]
QT = ("PySide6", "pyqtgraph", "shiboken6", "PyQt5", "PyQt6")


def _imports(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
    return names


@pytest.mark.parametrize("module", PURE_MODULES)
def test_pure_modules_import_numpy_and_stdlib_only(module):
    imports = _imports(PACKAGE / module)
    assert not {name for name in imports if name.split(".")[0] in QT}
    third_party = {name.split(".")[0] for name in imports} - set(sys.stdlib_module_names)
    assert third_party <= {"numpy", "sqrtdk_gui"}


def test_stats_command_runs_without_loading_qt():
    code = (
        "import sys; from sqrtdk_gui.cli import main; main(['stats', '--dk', '8', '--json']);"
        f"loaded = [m for m in sys.modules if m.split('.')[0] in {QT!r}];"
        "assert not loaded, loaded"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
