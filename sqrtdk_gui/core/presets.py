"""Presets: the whole classroom state as a small, versioned JSON file (no Qt).

A preset stores the model parameters, the lesson position (step or scenario), the theme
and the zoom. Reading is strict: anything that is not exactly a preset this version
understands raises ``PresetError`` with one line saying what is wrong, and nothing is
applied. Writing goes through a temporary file, so a failed save never damages a file.
"""

from __future__ import annotations

import json
import os
import tempfile
from dataclasses import asdict, dataclass, field, fields

from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.model import Params

__all__ = ["FORMAT", "VERSION", "THEMES", "ZOOM_RANGE", "State", "PresetError", "to_json",
           "from_json", "load", "save"]

FORMAT = "sqrtdk-gui preset"
# Version 2 (issue 12) may hold the float types bfloat16, float8_e4m3fn and float8_e5m2, the
# scaling "log_n" and up to 131 072 keys; its layout is version 1's, so version 1 files
# (a subset of its values) are read as they are. An older program refuses version 2 with
# "made by a newer sqrtdk-gui" instead of a puzzling "bad parameter".
VERSION = 2
THEMES = ("light", "dark")
ZOOM_RANGE = (0.6, 2.5)
_PARAM_NAMES = tuple(f.name for f in fields(Params))


class PresetError(ValueError):
    """A preset file that cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class State:
    params: Params = field(default_factory=Params)
    step: int = 0  # 0: no lesson step entered
    scenario: str | None = None
    theme: str = "light"
    zoom: float = 1.0


def to_json(state: State) -> str:
    return json.dumps({
        "format": FORMAT,
        "version": VERSION,
        "params": asdict(state.params),
        "lesson": {"step": state.step, "scenario": state.scenario},
        "theme": state.theme,
        "zoom": state.zoom,
    }, indent=2) + "\n"


def _expect(kind, value, what: str):
    if isinstance(value, bool) or not isinstance(value, kind):
        names = {dict: "an object", int: "an integer", str: "a string", float: "a number",
                 (int, float): "a number"}
        raise PresetError(f"{what} must be {names.get(kind, kind)}, got {json.dumps(value)}")
    return value


def from_json(text: str) -> State:
    """Parse and validate a preset; raises PresetError with a one-line reason."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise PresetError(f"not a JSON file ({exc.msg} at line {exc.lineno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise PresetError("not a sqrtdk-gui preset (no \"format\": \"sqrtdk-gui preset\")")
    version = _expect(int, data.get("version"), "\"version\"")
    if version > VERSION:
        raise PresetError(f"made by a newer sqrtdk-gui (preset version {version}; this one reads {VERSION})")
    if version < 1:
        raise PresetError(f"unknown preset version {version}")
    raw = _expect(dict, data.get("params", {}), "\"params\"")
    unknown = sorted(set(raw) - set(_PARAM_NAMES))
    if unknown:
        raise PresetError(f"unknown parameter {unknown[0]!r} in \"params\"")
    try:
        params = Params(**raw)
    except ValueError as exc:
        raise PresetError(f"bad parameter: {exc}") from None
    lesson = _expect(dict, data.get("lesson", {}), "\"lesson\"")
    step = _expect(int, lesson.get("step", 0), "\"lesson.step\"")
    if not 0 <= step <= len(STEPS):
        raise PresetError(f"lesson step {step} is out of range: allowed 0..{len(STEPS)}")
    scenario = lesson.get("scenario")
    if scenario is not None and scenario not in {s.key for s in SCENARIOS}:
        raise PresetError(f"unknown lesson scenario {json.dumps(scenario)}")
    theme = _expect(str, data.get("theme", "light"), "\"theme\"")
    if theme not in THEMES:
        raise PresetError(f"unknown theme {theme!r}: use {' or '.join(THEMES)}")
    zoom = _expect((int, float), data.get("zoom", 1.0), "\"zoom\"")
    if not ZOOM_RANGE[0] <= zoom <= ZOOM_RANGE[1]:
        raise PresetError(f"zoom {zoom} is out of range: allowed {ZOOM_RANGE[0]}..{ZOOM_RANGE[1]}")
    return State(params=params, step=step, scenario=scenario, theme=theme, zoom=float(zoom))


def load(path: str | os.PathLike) -> State:
    """Read a preset file (PresetError for unreadable or invalid files)."""
    try:
        with open(path, "rb") as f:
            raw = f.read(1 << 20)  # presets are tiny; refuse to slurp a huge wrong file
    except OSError as exc:
        raise PresetError(f"cannot read {os.fspath(path)!r}: {exc.strerror}") from None
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise PresetError("not a JSON file (not UTF-8 text)") from None
    return from_json(text)


def save(state: State, path: str | os.PathLike) -> None:
    """Write atomically: the old file stays intact if anything fails (OSError propagates)."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".sqrtdk-preset-", suffix=".json", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(to_json(state))
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
