"""pyqtgraph reads PySide6's own Qt objects, fetched on first use, and PySide6 is left as it was."""

from __future__ import annotations

import subprocess
import sys

import pyqtgraph
import PySide6.QtCore
import PySide6.QtGui
import PySide6.QtWidgets

import sqrtdk_gui.gui  # noqa: F401  (the test session imports pyqtgraph this way, as the program does)

_MODULES = {"QtCore": PySide6.QtCore, "QtGui": PySide6.QtGui, "QtWidgets": PySide6.QtWidgets}


def test_pyqtgraph_names_are_pyside6_objects():
    for name, source in _MODULES.items():
        shim = getattr(pyqtgraph.Qt, name)
        assert shim is sys.modules[f"pyqtgraph.Qt.{name}"]
        for attr in ("Signal", "QObject") if name == "QtCore" else ("QPen", "QColor") if name == "QtGui" \
                else ("QWidget", "QGraphicsObject"):
            assert getattr(shim, attr) is getattr(source, attr)
    assert pyqtgraph.Qt.QtGui.QFileSystemModel is PySide6.QtWidgets.QFileSystemModel  # pyqtgraph's own shim ran


def test_an_unknown_name_and_the_module_identity_are_not_forwarded():
    shim = pyqtgraph.Qt.QtCore
    assert not hasattr(shim, "NoSuchQtClass")
    assert not hasattr(shim, "__path__") and shim.__name__ == "pyqtgraph.Qt.QtCore"


def test_pyside6_modules_list_their_names_again():
    for source in _MODULES.values():
        assert len(dir(source)) > 150 and "QObject" in dir(PySide6.QtCore)


def test_importing_the_gui_creates_a_fraction_of_the_qt_classes():
    # A fresh interpreter: pyqtgraph imported eagerly copies (and so creates) every class.
    probe = ("import {imp}, PySide6.QtCore as C, PySide6.QtGui as G, PySide6.QtWidgets as W;"
             "print(sum(len(vars(m)) for m in (C, G, W)), sum(len(dir(m)) for m in (C, G, W)))")
    counts = {}
    for label, imp in (("program", "sqrtdk_gui.gui"), ("plain", "pyqtgraph")):
        out = subprocess.run([sys.executable, "-c", probe.format(imp=imp)], capture_output=True,
                             text=True, check=True, timeout=120).stdout.split()
        counts[label] = (int(out[0]), int(out[1]))
    created, listed = counts["program"]
    assert created < listed / 2, counts
    assert counts["plain"][0] >= counts["plain"][1] - 50, counts  # the copy creates (nearly) all
