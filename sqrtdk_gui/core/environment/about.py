"""What a bug report needs: versions, licence and how to cite (no Qt).

``sqrtdk-gui --version`` prints ``version_lines()``; Help → About shows the same lines. The
versions of Qt's binding and pyqtgraph are read from their files, without importing them,
so ``--version`` stays fast and this module stays free of Qt.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import platform
import re
import sys

from sqrtdk_gui import __version__
from sqrtdk_gui.core.i18n import N_

__all__ = ["LICENCE", "CITATION", "versions", "version_lines"]

# LICENCE is shown through _(). CITATION is a reference, the same in every language (and in
# CITATION.cff); the version lines are what a bug report and scripts read: both stay English.
LICENCE = N_("MIT licence: use, copy, change and share freely; no warranty.")
CITATION = (f"sqrtdk-gui developers. sqrtdk-gui {__version__}: why scaled dot-product attention "
            "divides its logits by √d_k (software), 2026. (CITATION.cff in the source has the same.)")

# (what the report calls it, distribution name, module whose file names its version)
_PARTS = (("PySide6 (Qt)", "PySide6-Essentials", "PySide6"),
          ("pyqtgraph", "pyqtgraph", "pyqtgraph"),
          ("numpy", "numpy", "numpy"))
_VERSION_LINE = re.compile(r"""^__version__\s*(?::\s*str\s*)?=\s*["']([^"']+)["']""", re.M)


def _version_of(dist: str, module: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:  # e.g. a bundle without package metadata
        pass
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin:
        return "not installed"
    try:
        with open(spec.origin, encoding="utf-8") as f:
            match = _VERSION_LINE.search(f.read(200_000))
    except OSError:
        match = None
    if match is None and module in sys.modules:
        return str(getattr(sys.modules[module], "__version__", "unknown"))
    return match.group(1) if match else "unknown"


def versions() -> list[tuple[str, str]]:
    """(name, version) of the program, Python, its libraries and the operating system."""
    rows = [("sqrtdk-gui", __version__),
            ("Python", f"{platform.python_version()} ({platform.python_implementation()})")]
    rows += [(name, _version_of(dist, module)) for name, dist, module in _PARTS]
    rows.append(("system", f"{platform.system() or sys.platform} {platform.release()} {platform.machine()}".strip()))
    return rows


def version_lines() -> list[str]:
    """``sqrtdk-gui 0.1.0`` first (what scripts read), then one line per component."""
    rows = versions()
    return [f"sqrtdk-gui {__version__}"] + [f"{name}: {value}" for name, value in rows[1:]]
