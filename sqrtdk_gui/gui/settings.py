"""Remembered between runs (QSettings): window geometry, theme, zoom and the last state.

The last state is stored as preset JSON and read with the same strict reader, so a
damaged settings store can only ever fall back to defaults, with a warning.
"""

from __future__ import annotations

from PySide6.QtCore import QByteArray, QSettings

from sqrtdk_gui.core import presets

__all__ = ["Settings"]


class Settings:
    """A thin, failure-tolerant wrapper around QSettings (an INI file)."""

    def __init__(self, path: str | None = None) -> None:
        if path is None:
            self._qs = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope,
                                 "sqrtdk-gui", "sqrtdk-gui")
        else:
            self._qs = QSettings(path, QSettings.Format.IniFormat)

    @property
    def path(self) -> str:
        return self._qs.fileName()

    def load(self) -> tuple[QByteArray | None, presets.State | None, str | None]:
        """(geometry, state, warning); anything unreadable becomes None plus a warning."""
        if self._qs.status() != QSettings.Status.NoError:
            return None, None, f"settings in {self.path} are unreadable; starting with defaults"
        warning = None
        geometry = self._qs.value("window/geometry")
        if geometry is not None and not isinstance(geometry, QByteArray):
            geometry, warning = None, "saved window geometry was damaged; using the default size"
        state = None
        text = self._qs.value("state/preset")
        if text is not None:
            try:
                state = presets.from_json(str(text))
            except presets.PresetError as exc:
                warning = f"saved state was damaged ({exc}); starting with defaults"
        return geometry, state, warning

    def save(self, geometry: QByteArray, state: presets.State) -> None:
        self._qs.setValue("window/geometry", geometry)
        self._qs.setValue("state/preset", presets.to_json(state))
        self._qs.sync()
