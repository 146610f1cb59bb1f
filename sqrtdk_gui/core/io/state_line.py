"""One short, readable line that opens the app exactly as shown: a teacher pastes it to students.

    step=2 d_k=512 scaling=none seed=3

Only what differs from the defaults is written: the model's parameters by their names, then
``step``, ``scenario``, ``theme``, ``zoom`` and ``lang``. The line is read back through the
preset reader (``presets.from_json``), so it is validated exactly as a preset file is: a bad
line changes nothing and is refused with one sentence. No network is involved: the line is
the state. ``command`` wraps it for a terminal (``sqrtdk-gui --state "…"``).
"""

from __future__ import annotations

import json
import re
from dataclasses import asdict

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import PSEUDO, _
from sqrtdk_gui.core.io import presets

__all__ = ["MAX_LENGTH", "StateLineError", "encode", "decode", "command"]

MAX_LENGTH = 1000  # a full line is under 300 characters; anything longer is not one
PROGRAM = "sqrtdk-gui"
_DEFAULTS = asdict(Params())
_LESSON_KEYS = ("step", "scenario", "theme", "zoom", "lang")
_TOKEN = re.compile(r"^([a-z_]+)=(\S+)$")
# --state "…", --state '…', --state=… (a Windows path before it keeps its backslashes).
_OPTION = re.compile(r"""--state(?:=|\s+)(?:"([^"]*)"|'([^']*)'|(\S+))""")


class StateLineError(presets.PresetError):
    """A line that cannot be used; the message is one line for the user."""


def encode(state: presets.State) -> str:
    """``state`` as a line: the parameters that differ from the defaults, then the lesson
    position, theme, zoom and language where they are not the defaults."""
    params = asdict(state.params)
    parts = [f"{name}={_value(params[name])}" for name in _DEFAULTS if params[name] != _DEFAULTS[name]]
    if state.step:
        parts.insert(0, f"step={state.step}")
    if state.scenario:
        parts.insert(0, f"scenario={state.scenario}")
    if state.theme != "light":
        parts.append(f"theme={state.theme}")
    if state.zoom != 1.0:
        parts.append(f"zoom={_value(state.zoom)}")
    if state.language and state.language != PSEUDO:  # the test language is no one's: as presets
        parts.append(f"lang={state.language}")
    return " ".join(parts)


def command(state: presets.State) -> str:
    """The line as a command to paste into a terminal."""
    return f'{PROGRAM} --state "{encode(state)}"'


def decode(text: str) -> presets.State:
    """The state a line (or the command around it) describes; StateLineError if unusable."""
    if not isinstance(text, str) or len(text) > MAX_LENGTH:
        raise StateLineError(_("not a state line (more than {count} characters)").format(count=MAX_LENGTH))
    line = _unwrap(text)
    values: dict[str, str] = {}
    for token in line.split():
        match = _TOKEN.match(token)
        if match is None:
            raise StateLineError(_("not a state line: {token} is not name=value").format(token=repr(token[:40])))
        name, value = match.groups()
        if name not in _DEFAULTS and name not in _LESSON_KEYS:
            raise StateLineError(_("not a state line: {name} is no setting of sqrtdk-gui").format(name=repr(name)))
        if name in values:
            raise StateLineError(_("not a state line: {name} is given twice").format(name=repr(name)))
        values[name] = value
    params = {name: _parsed(values.get(name), default) for name, default in _DEFAULTS.items()}
    preset = {"format": presets.FORMAT, "version": presets.VERSION, "params": params,
              "lesson": {"step": _parsed(values.get("step"), 0), "scenario": values.get("scenario")},
              "theme": values.get("theme", "light"), "zoom": _parsed(values.get("zoom"), 1.0),
              "language": values.get("lang")}
    try:
        return presets.from_json(json.dumps(preset))
    except presets.PresetError as exc:
        raise StateLineError(str(exc)) from None


def _unwrap(text: str) -> str:
    """The line inside a command (``sqrtdk-gui --state "…"``, ``--state=…``, the program by
    any path, ``sqrtdk-gui.exe`` too), or the text itself, in quotes or not."""
    text = text.strip()
    if "--state" in text:
        match = _OPTION.search(text)
        if match is None:
            raise StateLineError(_("not a state line: --state is not followed by one"))
        double, single, bare = match.groups()
        return double if double is not None else single if single is not None else _unquoted(bare)
    return _unquoted(text)


def _unquoted(text: str) -> str:
    """``text`` without the one pair of quotes around it; StateLineError if a quote is open."""
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        text = text[1:-1]
    if '"' in text or "'" in text:
        raise StateLineError(_("not a state line: its quotes do not close"))
    return text


def _value(value: object) -> str:
    return repr(value) if isinstance(value, float) else str(value)  # every digit: the same state back


def _parsed(text: str | None, default: object) -> object:
    """A value of the default's type (left as text when it is not one: the preset reader
    then names the setting and what it expected)."""
    if text is None:
        return default
    try:
        if isinstance(default, bool):
            return text
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
    except ValueError:
        return text
    return text

