"""pyqtgraph's Qt modules resolve each Qt name on first use instead of all at import.

pyqtgraph's Qt shim (``pyqtgraph.Qt``) copies every name of PySide6's QtCore, QtGui and
QtWidgets into modules of its own (``pyqtgraph.Qt.QtCore`` and so on). PySide6 creates its
classes lazily, on first attribute access, and each class brings its Python enums; so the copy
creates all of about 720 classes and 600 enums, of which the program and pyqtgraph use about a
sixth. That took 0.17–0.31 s of a 0.9–1.2 s start-up on a 2-core machine.

:func:`install` runs before pyqtgraph is first imported (``sqrtdk_gui.gui`` calls it). It puts
modules into ``sys.modules`` under pyqtgraph's names whose module ``__getattr__`` (PEP 562)
fetches a name from PySide6 when pyqtgraph first asks for it and keeps it, and it hides the
PySide6 modules' names from ``dir()`` while pyqtgraph is imported, so that the copy loop has
nothing to copy. Every name pyqtgraph reads is still PySide6's own object.
"""

from __future__ import annotations

import importlib
import os
import sys
import types
from collections.abc import Callable

_MODULES = ("QtCore", "QtGui", "QtWidgets")


def _forwarding_module(name: str, source: types.ModuleType) -> types.ModuleType:
    module = types.ModuleType(name, f"PySide6.{source.__name__.rpartition('.')[2]}, "
                                    "each name fetched on first use")

    def __getattr__(attr: str) -> object:
        if attr in ("__path__", "__file__"):  # where this module lives is not where PySide6's does
            raise AttributeError(f"module {name!r} has no attribute {attr!r}")
        value = getattr(source, attr)  # AttributeError for a name PySide6 lacks, as before
        setattr(module, attr, value)  # the next access is a plain module-dict lookup
        return value

    module.__getattr__ = __getattr__  # type: ignore[method-assign]
    return module


def install() -> None:
    """Import pyqtgraph with lazily resolved Qt names; a no-op once pyqtgraph is imported.

    Only for PySide6, the binding this program ships; with ``PYQTGRAPH_QT_LIB`` naming
    another one, pyqtgraph is left to itself.
    """
    if "pyqtgraph" in sys.modules or _other_binding_requested():
        return
    sources = [importlib.import_module(f"PySide6.{name}") for name in _MODULES]
    for name, source in zip(_MODULES, sources):
        sys.modules[f"pyqtgraph.Qt.{name}"] = _forwarding_module(f"pyqtgraph.Qt.{name}", source)
    saved: list[Callable[[], list[str]] | None] = [vars(s).get("__dir__") for s in sources]
    try:
        for source in sources:
            source.__dir__ = list  # type: ignore[method-assign]  # dir() -> []: nothing to copy
        importlib.import_module("pyqtgraph")
    finally:
        for source, original in zip(sources, saved):
            if original is None:
                del source.__dir__
            else:
                source.__dir__ = original  # type: ignore[method-assign]


def _other_binding_requested() -> bool:
    return os.environ.get("PYQTGRAPH_QT_LIB", "PySide6") != "PySide6"
