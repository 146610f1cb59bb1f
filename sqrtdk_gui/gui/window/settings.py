"""Remembered between runs: window geometry, theme, zoom and the last state (an INI file).

The last state is stored as preset JSON and read with the same strict reader, so a
damaged settings store can only ever fall back to defaults, with a warning (in the current
language: the user reads it).

The file itself is only ever read by ``safe_io.read_bytes`` (a regular file, at most 1 MiB,
never blocking) and written by ``safe_io.write_bytes`` (temporary file and rename; its
permissions and symlink are kept; a FIFO or device is refused). QSettings only parses and
formats the INI text, on a private copy in a temporary folder: pointed at the real file, its
constructor blocks forever on a FIFO, and its save writes a regular file over a device node.

Two windows may run on one file. Every save starts from the file as it is then: a window's
own keys (geometry, state) are the last saver's, and each value the windows share
(``core.io.shared_state.SHARED``: Open recent, practice progress) gets only what this window
changed since it last read or wrote the file, so the other window's changes stay.
"""

from __future__ import annotations

import dataclasses
import os
import struct
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, cast

from PySide6.QtCore import QByteArray, QCoreApplication, QSettings, qInstallMessageHandler

from sqrtdk_gui.core.i18n import _
from sqrtdk_gui.core.io import presets, safe_io
from sqrtdk_gui.core.io.shared_state import PRACTICE, RECENT, SHARED, Shared, Unreadable, keep_aside, recent_paths

if TYPE_CHECKING:
    from PySide6.QtCore import QMessageLogContext, QtMsgType

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
        self.data = data
        self._folder = tempfile.TemporaryDirectory(prefix="sqrtdk-gui-settings-")
        self._file = os.path.join(self._folder.name, "settings.ini")
        with open(self._file, "wb") as f:
            f.write(data)
        self.qs = QSettings(self._file, QSettings.Format.IniFormat)

    def readable(self) -> bool:
        with _qt_quiet():
            self.qs.allKeys()  # QSettings parses lazily: only then does status() know
        return self.qs.status() == QSettings.Status.NoError

    def value(self, key: str) -> tuple[object, bool]:
        """(the value, whether the file holds one Qt could not decode: an ``@Variant(…)`` of a
        type Qt does not know reads as None)."""
        with _qt_quiet():
            value = self.qs.value(key)
        return value, value is None and self.qs.contains(key)

    def raw(self, key: str) -> str:
        """The text after ``name=`` of ``key`` ("section/name") as the file has it: what to keep
        of a value Qt cannot decode."""
        section, _sep, name = key.rpartition("/")
        inside = not section
        for line in self.data.decode("utf-8", "replace").splitlines():
            stripped = line.strip()
            if stripped.startswith("["):
                inside = stripped == f"[{section}]"
            elif inside and stripped.partition("=")[0].strip() == name:
                return stripped.partition("=")[2].strip()
        return ""

    def stored(self, key: str) -> tuple[object, bool]:
        """(the value of ``key``, or its text as the file has it if Qt cannot decode it; whether
        it could not be decoded)."""
        value, undecodable = self.value(key)
        return (self.raw(key) if undecodable else value), undecodable

    def text(self) -> bytes:
        self.qs.sync()
        with open(self._file, "rb") as f:
            return f.read()

    def __enter__(self) -> _Ini:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.qs.sync()
        del self.qs  # QSettings must let go of the file before its folder goes
        self._folder.cleanup()


@contextmanager
def _qt_quiet() -> Iterator[None]:
    """Qt's own messages dropped while the file is parsed: a value it cannot decode makes Qt
    print two lines of its internals, where the program says what it means in one."""
    previous = qInstallMessageHandler(_ignore_qt_message)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)


def _ignore_qt_message(kind: QtMsgType, context: QMessageLogContext, message: str) -> None:
    pass


class Settings:
    """Load and save the remembered state; every failure is a warning, never an error.

    The values two windows share (``shared_state.SHARED``: Open recent, practice progress) are
    merged with the file as it is when saved, through one path (``_write``); the geometry and
    the state are the last saving window's. A shared value stored in a form this version
    cannot read is copied aside (``shared_state.keep_aside``) before anything replaces it.
    """

    def __init__(self, path: str | None = None) -> None:
        self._path = path or default_path()
        self._data = b""  # the file as last read or written: the fallback when it cannot be read now
        self._writable = True  # False once the path held something that must not be replaced
        # Each shared value: this window's copy, and the value it was last in step with the file
        # at (read or written): what this window changed is the difference between the two.
        self._ours: dict[str, object] = {shared.key: shared.empty for shared in SHARED}
        self._base: dict[str, object] = dict(self._ours)
        self.kept_aside: dict[str, str] = {}  # shared key -> the file an unreadable stored value was copied to

    @property
    def path(self) -> str:
        return self._path

    @property
    def recent(self) -> list[str]:
        """File -> Open recent, newest first (read by load(), written by save())."""
        return list(cast("list[str]", self._ours[RECENT.key]))

    @property
    def practice(self) -> str:
        """Practice mode's progress as its JSON text (core.practice.progress)."""
        return PRACTICE.write(cast("dict[str, object]", self._ours[PRACTICE.key]))

    def load(self) -> tuple[QByteArray | None, presets.State | None, str | None]:
        """(geometry, state, warning); anything unreadable becomes None plus a warning."""
        try:
            return self._load()
        except Exception as exc:  # noqa: BLE001 - the promise is defaults and a warning, always
            return None, None, (translate("Settings", "settings in {path} could not be read ({error}); starting "
                                          "with defaults").format(path=self.path, error=type(exc).__name__))

    def _load(self) -> tuple[QByteArray | None, presets.State | None, str | None]:
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
            if not ini.readable():
                return None, None, (translate("Settings", "settings in {path} are unreadable; starting with "
                                              "defaults").format(path=self.path))
            self._data = data
            warning = None
            geometry, undecodable = ini.value("window/geometry")
            if isinstance(geometry, QByteArray) and geometry.isEmpty():
                geometry = None  # nothing remembered (a window never shown), not damage
            # bytes(geometry): QByteArray's buffer protocol, which the stub omits (hence the ignore).
            if undecodable or (geometry is not None and (not isinstance(geometry, QByteArray)
                                                         or not geometry_is_sane(bytes(geometry)))):  # type: ignore[call-overload]
                geometry = None
                warning = translate("Settings", "saved window geometry was damaged; using the default size")
            shared_warning = self._load_shared(ini)
            warning = warning or shared_warning
            state = None
            text, undecodable = ini.value("state/preset")
            if text is not None or undecodable:
                try:
                    # The remembered language may be the pseudo language (--lang pseudo chose it).
                    state = presets.from_json(text if isinstance(text, str) else repr(text), pseudo=True)
                except presets.PresetError as exc:
                    warning = translate("Settings", "saved state was damaged ({reason}); starting with "
                                        "defaults").format(reason=_(str(exc)))
        return geometry, state, warning

    def _load_shared(self, ini: _Ini) -> str | None:
        """Read every shared value; the first warning about one (damaged Open recent entries, a
        value that cannot be read and was kept aside)."""
        warning = None
        for shared in SHARED:
            value, undecodable = ini.stored(shared.key)
            try:
                if undecodable:
                    raise Unreadable(translate("Settings", "stored in a form Qt cannot decode"))
                read = shared.read(value)
            except Unreadable as exc:
                read = shared.empty
                warning = warning or self._unreadable_warning(shared, value, str(exc))
            self._ours[shared.key] = self._base[shared.key] = read
        dropped = recent_paths(ini.value(RECENT.key)[0])[1]
        if dropped and warning is None:
            warning = (translate("Settings", "%n damaged entry left out of Open recent (not a file name "
                                 "this program can reopen)", None, dropped) if dropped == 1
                       else translate("Settings", "%n damaged entries left out of Open recent (not a file "
                                      "name this program can reopen)", None, dropped))
        return warning

    def _unreadable_warning(self, shared: Shared[Any], value: object, reason: str) -> str:
        """Keep a stored value this version cannot read aside; one line saying so."""
        try:
            kept = keep_aside(self._path, shared, value)
        except OSError as exc:
            return (translate("Settings", "{what} in {path} could not be read ({reason}) nor copied aside "
                              "({problem}); it stays as it is and nothing is saved over it")
                    .format(what=_(shared.name), path=self.path, reason=reason, problem=_(str(exc))))
        self.kept_aside[shared.key] = kept
        return (translate("Settings", "{what} in {path} could not be read ({reason}); starting afresh, the "
                          "stored text is kept in {kept}").format(what=_(shared.name), path=self.path,
                                                                   reason=reason, kept=kept))

    def save(self, geometry: QByteArray, state: presets.State, recent: list[str] | None = None) -> str | None:
        """Write the settings safely; returns a one-line warning if they could not be saved.

        ``recent``: the Open recent list (None keeps this window's copy). With two windows on
        one settings file the one saved last keeps its window geometry and state; the shared
        values are merged (``_write``)."""
        if recent is not None:
            self._ours[RECENT.key] = recent_paths(list(recent))[0]
        return self._write({"window/geometry": geometry, "state/preset": presets.to_json(state)},
                           translate("Settings", "settings not saved to {path}: they could not be prepared in "
                                     "a temporary folder (is the disk full?)").format(path=self.path),
                           translate("Settings", "settings not saved: {reason}"))

    def save_practice(self, text: str) -> str | None:
        """Store practice progress at once (an answer must survive a crash); a warning if not.

        ``text`` is this window's whole progress; what it changed since this window last
        read or wrote the progress is merged into the file as it is now, so another window's
        answers are kept (and the window's save at exit writes nothing older back)."""
        self._ours[PRACTICE.key] = PRACTICE.read(text)
        return self._write({}, translate("Settings", "practice progress not saved: it could not be prepared (is the "
                                         "disk full?)"),
                           translate("Settings", "practice progress not saved: {reason}"))

    def _write(self, own: dict[str, object], unprepared: str, failed: str) -> str | None:
        """The one way the file is written: the file as it is now, with ``own`` (this window's
        keys) set and each shared value this window changed merged in; ``unprepared`` or
        ``failed`` (with {reason}) if it could not be written (the file is then as it was),
        or what was left out (a value that could not be kept aside is not written over)."""
        if not self._writable:
            return None  # the path holds something else; load() already said so
        left: dict[str, str] = {}  # shared key -> why this window's change of it was not written
        try:
            with self._file_now() as ini:
                for key, value in own.items():
                    ini.qs.setValue(key, value)
                for shared in SHARED:
                    problem = self._merge(ini, shared)
                    if problem is not None:
                        left[shared.key] = translate("Settings", "{what} not saved: {reason}").format(
                            what=_(shared.name), reason=_(str(problem)))
                data = ini.text()
                if ini.qs.status() != QSettings.Status.NoError:
                    return unprepared
            os.makedirs(os.path.dirname(os.path.abspath(self._path)), exist_ok=True)
            safe_io.write_bytes(self._path, data)
        except OSError as exc:  # safe_io.IOFailure: one sentence; the old file is untouched
            return failed.format(reason=_(str(exc)))
        self._data = data
        self._base.update({key: value for key, value in self._ours.items() if key not in left})
        return next(iter(left.values()), None)

    def _merge(self, ini: _Ini, shared: Shared[Any]) -> OSError | None:
        """Set ``shared`` in ``ini`` (the file now) to what this window changed since it was last
        in step, applied to the file's value. A value the file holds that cannot be read is
        kept aside first; if it cannot be, it stays as it is and the error is returned."""
        ours, base = self._ours[shared.key], self._base[shared.key]
        if ours == base:
            return None  # nothing changed here: the file's value stays as it is, whatever it is
        value, undecodable = ini.stored(shared.key)
        try:
            if undecodable:
                raise Unreadable(translate("Settings", "stored in a form Qt cannot decode"))
            theirs = shared.read(value)
        except Unreadable:
            try:
                self.kept_aside[shared.key] = keep_aside(self._path, shared, value)
            except OSError as exc:
                return exc
            theirs = shared.empty
        ini.qs.setValue(shared.key, shared.write(shared.merge(base, ours, theirs)))
        return None

    def _file_now(self) -> _Ini:
        """The file as it is on disk now (another window may have written it since), or as
        this object last read or wrote it if it cannot be read now."""
        try:
            data = safe_io.read_bytes(self._path, MAX_BYTES)
        except OSError:  # gone, replaced by a FIFO, grown too large: the write says what is wrong
            return _Ini(self._data)
        ini = _Ini(data)
        if ini.readable():
            return ini
        ini.close()
        return _Ini(self._data)
