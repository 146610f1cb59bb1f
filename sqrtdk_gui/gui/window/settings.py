"""Remembered between runs: window geometry, theme, zoom and the last state (an INI file).

The last state is stored as preset JSON and read with the same strict reader, so a
damaged settings store can only ever fall back to defaults, with a warning (in the current
language: the user reads it).

The file itself is only ever read by ``safe_io.read_bytes`` (a regular file, at most 1 MiB,
never blocking) and written by ``safe_io.write_bytes`` (temporary file and rename; its
permissions and symlink are kept; a FIFO or device is refused). QSettings only parses and
formats the INI text, on a private copy in a temporary folder: pointed at the real file, its
constructor blocks forever on a FIFO, and its save writes a regular file over a device node.
"""

from __future__ import annotations

import dataclasses
import json
import os
import struct
import sys
import tempfile

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings

from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import presets, safe_io

__all__ = ["Settings", "default_path", "restorable", "geometry_is_sane", "MAX_BYTES", "RESTORE_MAX_LOGITS"]

_GEOMETRY_MAGIC = 0x1D9D0CB  # QWidget::saveGeometry's first four bytes
_MAX_EXTENT = 1 << 15  # no screen is wider or taller; larger sizes crash some platforms

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


def geometry_is_sane(blob: bytes) -> bool:
    """Whether a saved window geometry can be restored safely: Qt's own layout (magic,
    version, then the frame and normal rectangles, and in version 3 the geometry rectangle
    last), every rectangle at most 32 768 pixels a side and within ±32 768 of the origin.
    restoreGeometry does not check sizes: a damaged file with a height near 2³¹ crashed every
    start on the offscreen platform."""
    if len(blob) < 40:
        return False
    magic, major, _minor = struct.unpack_from(">IHH", blob)
    if magic != _GEOMETRY_MAGIC or not 1 <= major <= 3:
        return False
    rects = [struct.unpack_from(">4i", blob, 8), struct.unpack_from(">4i", blob, 24)]
    if major >= 3:
        if len(blob) < 56:
            return False
        rects.append(struct.unpack_from(">4i", blob, len(blob) - 16))
    for x1, y1, x2, y2 in rects:
        w, h = x2 - x1 + 1, y2 - y1 + 1
        if not (0 < w <= _MAX_EXTENT and 0 < h <= _MAX_EXTENT
                and all(abs(v) <= _MAX_EXTENT for v in (x1, y1, x2, y2))):
            return False
    return True

MAX_BYTES = 1 << 20  # the file holds a geometry and a preset: a few KiB
# A remembered state starts with at most this many logits (queries x keys): 1,024 x 1,024
# takes about 0.5 s per change at d_k = 4,096 on a 2-core machine, 8,192 x 1,024 seven times
# that, on every slider move.
RESTORE_MAX_LOGITS = 1 << 20
RECENT_MAX = 8  # File -> Open recent lists at most this many presets
_PATH_MAX_CHARS = 4096


def default_path() -> str:
    """The file QSettings(IniFormat, UserScope, "sqrtdk-gui", "sqrtdk-gui") uses, found without
    constructing that object (its constructor already reads the file)."""
    if sys.platform == "win32":
        base = os.environ.get("APPDATA") or os.path.join(os.path.expanduser("~"), "AppData", "Roaming")
    else:  # Qt's rule for IniFormat on Unix and macOS
        xdg = os.environ.get("XDG_CONFIG_HOME", "")
        base = xdg if xdg.startswith("/") else os.path.join(os.path.expanduser("~"), xdg or ".config")
    return os.path.join(base, "sqrtdk-gui", "sqrtdk-gui.ini")


def restorable(state: presets.State) -> tuple[presets.State, str | None]:
    """``state`` with at most RESTORE_MAX_LOGITS logits (fewer queries), and a warning if cut."""
    p = state.params
    if p.queries * p.keys <= RESTORE_MAX_LOGITS:
        return state, None
    queries = max(1, RESTORE_MAX_LOGITS // p.keys)
    return (dataclasses.replace(state, params=p.replace(queries=queries)),
            translate("Settings", "the remembered {queries} queries × {keys} keys would take seconds for every "
                      "change; started with {started} queries (--queries or a preset asks for more)")
            .format(queries=f"{p.queries:,}", keys=f"{p.keys:,}", started=f"{queries:,}"))


class _Ini:
    """QSettings on a private copy of the INI text; ``text()`` gives the text back."""

    def __init__(self, data: bytes) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="sqrtdk-gui-settings-")
        self._file = os.path.join(self._folder.name, "settings.ini")
        with open(self._file, "wb") as f:
            f.write(data)
        self.qs = QSettings(self._file, QSettings.Format.IniFormat)

    def text(self) -> bytes:
        self.qs.sync()
        with open(self._file, "rb") as f:
            return f.read()

    def __enter__(self) -> _Ini:
        return self

    def __exit__(self, *exc) -> None:
        self.qs.sync()
        del self.qs  # QSettings must let go of the file before its folder goes
        self._folder.cleanup()


class Settings:
    """Load and save the remembered state; every failure is a warning, never an error."""

    def __init__(self, path: str | None = None) -> None:
        self._path = path or default_path()
        self._data = b""  # the file as last read: a save keeps keys this version does not know
        self._writable = True  # False once the path held something that must not be replaced
        self.recent: list[str] = []  # File -> Open recent, newest first (read by load())
        self._loaded_recent: list[str] = []  # the list as read: what another window adds since is new
        self.practice: str | None = None  # practice mode's progress (JSON, core.practice.scoring)

    @property
    def path(self) -> str:
        return self._path

    def load(self) -> tuple[QByteArray | None, presets.State | None, str | None]:
        """(geometry, state, warning); anything unreadable becomes None plus a warning."""
        try:
            return self._load()
        except Exception as exc:  # noqa: BLE001 - the promise is defaults and a warning, always
            return None, None, (translate("Settings", "settings in {path} could not be read ({error}); starting "
                                          "with defaults").format(path=self.path, error=type(exc).__name__))

    def _load(self):
        try:
            data = safe_io.read_bytes(self._path, MAX_BYTES)
        except FileNotFoundError:
            return None, None, None
        except OSError as exc:  # a FIFO, a device, too large, unreadable: never written either
            self._writable = False
            reason = exc.reason if isinstance(exc, safe_io.IOFailure) else (exc.strerror or str(exc))
            return None, None, (translate("Settings", "settings in {path} not used ({reason}); starting with "
                                          "defaults, and this session's settings will not be saved")
                                .format(path=self.path, reason=_(reason)))
        with _Ini(data) as ini:
            qs = ini.qs
            qs.allKeys()  # QSettings parses lazily: only then does status() know
            if qs.status() != QSettings.Status.NoError:
                return None, None, (translate("Settings", "settings in {path} are unreadable; starting with "
                                              "defaults").format(path=self.path))
            self._data = data
            warning = None
            geometry = qs.value("window/geometry")
            if isinstance(geometry, QByteArray) and geometry.isEmpty():
                geometry = None  # nothing remembered (a window never shown), not damage
            if geometry is not None and (not isinstance(geometry, QByteArray)
                                         or not geometry_is_sane(bytes(geometry))):
                geometry = None
                warning = translate("Settings", "saved window geometry was damaged; using the default size")
            practice = qs.value("practice/progress")
            self.practice = practice if isinstance(practice, str) else None
            self.recent, dropped = _recent_and_dropped(qs.value("recent/presets"))
            self._loaded_recent = list(self.recent)
            if dropped and warning is None:
                warning = (translate("Settings", "%n damaged entry left out of Open recent (not a file name "
                                     "this program can reopen)", None, dropped) if dropped == 1
                           else translate("Settings", "%n damaged entries left out of Open recent (not a file "
                                          "name this program can reopen)", None, dropped))
            state = None
            text = qs.value("state/preset")
            if text is not None:
                try:
                    state = presets.from_json(text if isinstance(text, str) else repr(text))
                except presets.PresetError as exc:
                    warning = translate("Settings", "saved state was damaged ({reason}); starting with "
                                        "defaults").format(reason=_(str(exc)))
        return geometry, state, warning

    def save(self, geometry: QByteArray, state: presets.State, recent: list[str] | None = None) -> str | None:
        """Write the settings safely; returns a one-line warning if they could not be saved.

        ``recent``: the Open recent list (None keeps the one last read). With two windows on
        one settings file the one saved last keeps its window geometry and state, and the
        Open recent lists are merged: presets another window added since this one read the
        file follow this window's own."""
        if not self._writable:
            return None  # the path holds something else; load() already said so
        try:
            with _Ini(self._data) as ini:
                ini.qs.setValue("window/geometry", geometry)
                ini.qs.setValue("state/preset", presets.to_json(state))
                if recent is not None:
                    self.recent = _recent_from(json.dumps(list(recent)))
                elsewhere = [p for p in self._recent_on_disk() if p not in self._loaded_recent]
                self.recent = list(dict.fromkeys(self.recent + elsewhere))[:RECENT_MAX]
                ini.qs.setValue("recent/presets", json.dumps(self.recent))
                data = ini.text()
                if ini.qs.status() != QSettings.Status.NoError:
                    return (translate("Settings", "settings not saved to {path}: they could not be prepared in "
                                      "a temporary folder (is the disk full?)").format(path=self.path))
            os.makedirs(os.path.dirname(os.path.abspath(self._path)), exist_ok=True)
            safe_io.write_bytes(self._path, data)
        except OSError as exc:  # safe_io.IOFailure: one sentence; the old file is untouched
            return translate("Settings", "settings not saved: {reason}").format(reason=_(str(exc)))
        self._data = data
        self._loaded_recent = list(self.recent)
        return None

    def save_practice(self, text: str) -> str | None:
        """Store practice progress at once (an answer must survive a crash); a warning if not.

        Written into the file as it is on disk now, and remembered as this object's own text,
        so the window's save at exit keeps it (and another window's progress is not undone
        by older text)."""
        if not self._writable:
            return None
        try:
            try:
                data = safe_io.read_bytes(self._path, MAX_BYTES)
            except FileNotFoundError:
                data = self._data
            with _Ini(data) as ini:
                ini.qs.setValue("practice/progress", text)
                new = ini.text()
                if ini.qs.status() != QSettings.Status.NoError:
                    return translate("Settings", "practice progress not saved: it could not be prepared (is the "
                                     "disk full?)")
            os.makedirs(os.path.dirname(os.path.abspath(self._path)), exist_ok=True)
            safe_io.write_bytes(self._path, new)
        except OSError as exc:
            return translate("Settings", "practice progress not saved: {reason}").format(reason=_(str(exc)))
        self._data, self.practice = new, text
        return None

    def _recent_on_disk(self) -> list[str]:
        """The Open recent list in the file now (another window may have written it)."""
        try:
            data = safe_io.read_bytes(self._path, MAX_BYTES)
        except OSError:
            return []
        if data == self._data:
            return list(self._loaded_recent)
        with _Ini(data) as ini:
            return _recent_from(ini.qs.value("recent/presets"))


def _recent_from(text) -> list[str]:
    """The Open recent list from its JSON text; anything malformed is an empty list."""
    return _recent_and_dropped(text)[0]


def _recent_and_dropped(text) -> tuple[list[str], int]:
    """The Open recent list from its JSON text, and how many entries were left out. Only
    absolute paths of a sane length count (a relative one would be read against the next
    start's folder), each once; one bad entry does not cost the others."""
    if not isinstance(text, str) or len(text) > MAX_BYTES:
        return [], 0 if text is None else 1
    try:
        value = json.loads(text)
    except (ValueError, RecursionError):
        return [], 1
    if not isinstance(value, list):
        return [], 1
    paths = [os.path.normpath(p) for p in value
             if isinstance(p, str) and 0 < len(p) <= _PATH_MAX_CHARS and "\0" not in p and os.path.isabs(p)]
    return list(dict.fromkeys(paths))[:RECENT_MAX], len(value) - len(paths)
