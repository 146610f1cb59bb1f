"""Nothing in the package assumes Linux: no shell-outs, Linux-only facts asked only on Linux,
per-platform paths from Qt's rules; the same window code runs wherever PySide6 runs."""

import ast
import sys
from pathlib import Path

import pytest

import sqrtdk_gui
from sqrtdk_gui.core.environment.display import display_problem

PACKAGE = Path(sqrtdk_gui.__file__).parent
SOURCES = list(PACKAGE.rglob("*.py"))
SHELL_OUTS = {"subprocess", "os.system", "os.popen", "os.spawnl", "os.execv", "pty", "ctypes.util"}


def _imports_and_calls(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            names.add(f"{node.value.id}.{node.attr}")
    return names


def test_the_package_never_shells_out():
    found = {str(p.relative_to(PACKAGE)): sorted(_imports_and_calls(p) & SHELL_OUTS) for p in SOURCES}
    assert {k: v for k, v in found.items() if v} == {}


def test_linux_only_files_are_read_under_a_guard():
    """/proc is read in three places; each is inside try/except with a fallback elsewhere."""
    for path in SOURCES:
        text = path.read_text(encoding="utf-8")
        for i, line in enumerate(text.splitlines()):
            if 'open("/proc' in line:
                before = "\n".join(text.splitlines()[max(0, i - 3):i])
                assert "try:" in before, f"{path.name}:{i + 1}"


@pytest.mark.parametrize("platform", ["win32", "darwin"])
def test_a_window_may_open_on_windows_and_macos_without_x11_checks(platform):
    assert display_problem(env={}, platform=platform) is None


def test_settings_live_where_qt_puts_them_on_windows(monkeypatch, tmp_path):
    from sqrtdk_gui.gui.window import settings

    monkeypatch.setattr(sys, "platform", "win32")
    monkeypatch.setenv("APPDATA", str(tmp_path))
    assert settings.default_path() == str(tmp_path / "sqrtdk-gui" / "sqrtdk-gui.ini")


def test_glibc_tuning_does_nothing_elsewhere(monkeypatch):
    from sqrtdk_gui.gui.launch import bootstrap

    monkeypatch.setattr(sys, "platform", "darwin")
    monkeypatch.setattr(bootstrap.ctypes, "CDLL", lambda *a: pytest.fail("libc touched on macOS"))
    bootstrap.release_memory_promptly()


def test_file_dialogs_start_in_the_documents_folder(qtbot):
    from PySide6.QtCore import QStandardPaths

    from sqrtdk_gui.gui.window.file_dialogs import suggested

    docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
    home = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.HomeLocation)
    assert Path(suggested("lesson.json")).parent in {Path(docs), Path(home)}
    assert Path(suggested("lesson.json")).name == "lesson.json"
