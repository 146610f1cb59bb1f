"""Presets: the whole classroom state as a small, versioned JSON file (no Qt).

A preset stores the model parameters, the lesson position (step or scenario), the theme,
the zoom and, if one was chosen, the language. Reading is strict: anything that is not exactly a preset this version
understands raises ``PresetError`` with one line saying what is wrong, and nothing is
applied. The same reader checks the state remembered in the settings. Files are read and
written through ``safe_io``: a FIFO or device is refused without blocking, and a failed save
leaves the old file (its permissions, its symlink) exactly as it was.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, TypeVar

import numpy as np

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import LANGUAGES, N_, PSEUDO, _
from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS

__all__ = ["FORMAT", "VERSION", "THEMES", "ZOOM_RANGE", "State", "PresetError", "to_json",
           "from_json", "load", "save", "read_text", "parse_json", "check_header", "strictly", "expect", "shown",
           "nesting"]

FORMAT = "sqrtdk-gui preset"
# Version 2 may hold the float types bfloat16, float8_e4m3fn and float8_e5m2, the
# scaling "log_n", up to 131 072 keys and the theme "high-contrast"; its layout is version 1's, so version 1 files
# (a subset of its values) are read as they are. An older program refuses version 2 with
# "made by a newer sqrtdk-gui" instead of a puzzling "bad parameter".
VERSION = 2
THEMES = ("light", "dark", "high-contrast")
ZOOM_RANGE = (0.6, 2.5)
_PARAM_NAMES = tuple(f.name for f in fields(Params))
MAX_BYTES = 1 << 20  # a preset is well under 1 KiB; refuse to slurp a huge wrong file
MAX_DEPTH = 8  # a preset nests 3 levels; deeper JSON is not one (and could exhaust the stack)

_T = TypeVar("_T")

# What ``_expect`` says a value must be, by the type it expects.
_EXPECTED: dict[object, str] = {
    dict: N_("{what} must be an object, got {value}"),
    int: N_("{what} must be an integer, got {value}"),
    str: N_("{what} must be a string, got {value}"),
    list: N_("{what} must be a list, got {value}"),
    float: N_("{what} must be a number, got {value}"),
    (int, float): N_("{what} must be a number, got {value}"),
}


class PresetError(ValueError):
    """A preset file that cannot be used; the message is one line for the user."""


@dataclass(frozen=True)
class State:
    params: Params = field(default_factory=Params)
    step: int = 0  # 0: no lesson step entered
    scenario: str | None = None
    theme: str = "light"
    zoom: float = 1.0
    # The language chosen (a key of i18n.LANGUAGES); None: the system's (remembered state) or
    # the one being spoken (a preset file).
    language: str | None = None


def to_json(state: State) -> str:
    return json.dumps({
        "format": FORMAT,
        "version": VERSION,
        "params": asdict(state.params),
        "lesson": {"step": state.step, "scenario": state.scenario},
        "theme": state.theme,
        "zoom": state.zoom,
        "language": state.language,
    }, indent=2) + "\n"


def shown(value: object) -> str:
    """A value as JSON, cut short: an error message stays one readable line."""
    try:
        text = json.dumps(value, ensure_ascii=True)
    except (TypeError, ValueError, RecursionError):
        text = type(value).__name__
    return text if len(text) <= 40 else text[:37] + "..."


def expect(kind: type[_T] | tuple[type[_T], ...], value: object, what: str) -> _T:
    if isinstance(value, bool) or not isinstance(value, kind):
        template = _(_EXPECTED[kind]) if kind in _EXPECTED else "{what} must be {kind}, got {value}"
        raise PresetError(template.format(what=what, kind=kind, value=shown(value)))
    return value


# A JSON string, or an unterminated one up to the end: it always matches where it starts, so
# removing strings takes one pass (a pattern that can fail after a long scan is quadratic).
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"?', re.DOTALL)
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")


def nesting(text: str) -> int:
    """How deep the brackets of a JSON text nest, counted before parsing it (a deep text
    could exhaust the parser's stack; strings are skipped)."""
    brackets = np.frombuffer(_NOT_BRACKET.sub("", _STRING.sub("", text)).encode("ascii"), np.uint8)
    if not brackets.size:
        return 0
    opening = (brackets == ord("[")) | (brackets == ord("{"))
    return int(np.cumsum(np.where(opening, 1, -1)).max())


def _check_depth(text: str) -> None:
    """PresetError if the JSON nests deeper than MAX_DEPTH (checked before parsing)."""
    if nesting(text) > MAX_DEPTH:
        raise PresetError(_("not a sqrtdk-gui preset (JSON nested more than {depth} levels deep)").format(
            depth=MAX_DEPTH))


def from_json(text: str, pseudo: bool = False) -> State:
    """Parse and validate a preset; raises PresetError with a one-line reason, never another error.

    ``pseudo``: the pseudo language is a language too (the remembered state of a window that
    spoke it); a preset file names one of LANGUAGES or none."""
    if not isinstance(text, str):
        raise PresetError(_("not a JSON text (got {type})").format(type=type(text).__name__))
    if len(text) > MAX_BYTES:
        raise PresetError(_("not a sqrtdk-gui preset (more than {count} characters)").format(count=f"{MAX_BYTES:,}"))
    return strictly(lambda: _from_json(text, pseudo), _("not a usable preset ({error}: {message})"))


def strictly(read: Callable[[], _T], usable: str) -> _T:
    """``read()``, its PresetError as it is and any other error a check missed as a PresetError
    of one sentence: ``usable`` with the error's {error} name and {message}."""
    try:
        return read()
    except PresetError:
        raise
    except (ValueError, TypeError, KeyError, AttributeError, OverflowError, RecursionError,
            MemoryError) as exc:
        message = " ".join(str(exc).split())[:80]
        raise PresetError(usable.format(error=type(exc).__name__, message=message)) from None


def parse_json(text: str) -> object:
    """The value of a JSON text; PresetError with one line if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise PresetError(_("not a JSON file ({problem} at line {line})").format(
            problem=exc.msg, line=exc.lineno)) from None
    except ValueError:  # the only other ValueError: an integer with more digits than Python converts
        raise PresetError(_("not a usable JSON file (a number with thousands of digits)")) from None


def check_header(data: object, name: str, known: int, not_ours: str, newer: str, unknown: str) -> dict[str, Any]:
    """``data`` if it is a JSON object of format ``name`` in a version up to ``known``; else
    PresetError with ``not_ours``, ``newer`` or ``unknown`` ({version}, {known}: the versions)."""
    if not isinstance(data, dict) or data.get("format") != name:
        raise PresetError(not_ours)
    version = expect(int, data.get("version"), "\"version\"")
    if version > known:
        raise PresetError(newer.format(version=version, known=known))
    if version < 1:
        raise PresetError(unknown.format(version=version))
    return data


def _from_json(text: str, pseudo: bool) -> State:
    _check_depth(text)
    data = check_header(parse_json(text), FORMAT, VERSION,
                        _("not a sqrtdk-gui preset (no \"format\": \"sqrtdk-gui preset\")"),
                        _("made by a newer sqrtdk-gui (preset version {version}; this one reads {known})"),
                        _("unknown preset version {version}"))
    raw = expect(dict, data.get("params", {}), "\"params\"")
    unknown = sorted(set(raw) - set(_PARAM_NAMES))
    if unknown:
        raise PresetError(_("unknown parameter {name} in \"params\"").format(name=shown(unknown[0])))
    try:
        params = Params(**raw)
    except ValueError as exc:
        raise PresetError(_("bad parameter: {problem}").format(problem=exc)) from None
    lesson = expect(dict, data.get("lesson", {}), "\"lesson\"")
    step = expect(int, lesson.get("step", 0), "\"lesson.step\"")
    if not 0 <= step <= len(STEPS):
        raise PresetError(_("lesson step {step} is out of range: allowed 0..{last}").format(step=step, last=len(STEPS)))
    scenario = lesson.get("scenario")
    if scenario is not None:
        expect(str, scenario, "\"lesson.scenario\"")
        if scenario not in {s.key for s in SCENARIOS}:
            raise PresetError(_("unknown lesson scenario {name}").format(name=shown(scenario)))
    theme = expect(str, data.get("theme", "light"), "\"theme\"")
    if theme not in THEMES:
        raise PresetError(_("unknown theme {name}: use {themes}").format(name=shown(theme), themes=", ".join(THEMES)))
    zoom = expect((int, float), data.get("zoom", 1.0), "\"zoom\"")
    if not ZOOM_RANGE[0] <= zoom <= ZOOM_RANGE[1]:
        raise PresetError(_("zoom {zoom} is out of range: allowed {lo}..{hi}").format(
            zoom=zoom, lo=ZOOM_RANGE[0], hi=ZOOM_RANGE[1]))
    # "language" is optional (null or absent: keep the language spoken); older programs ignore it.
    language = data.get("language")
    if language is not None:
        expect(str, language, "\"language\"")
        if language not in LANGUAGES and not (pseudo and language == PSEUDO):
            raise PresetError(_("unknown language {name}: use {languages}").format(
                name=shown(language), languages=", ".join(LANGUAGES)))
    return State(params=params, step=step, scenario=scenario, theme=theme, zoom=float(zoom), language=language)


def load(path: str | os.PathLike[str]) -> State:
    """Read a preset file (PresetError for unreadable or invalid files, FIFOs, devices)."""
    return from_json(read_text(path))


def read_text(path: str | os.PathLike[str]) -> str:
    """A small JSON file's text (PresetError for unreadable or non-UTF-8 files, FIFOs, devices)."""
    try:
        raw = safe_io.read_bytes(path, MAX_BYTES)
    except FileNotFoundError:
        raise PresetError(_("cannot read it: no such file")) from None
    except safe_io.IOFailure as exc:  # a FIFO, a device, too large, unreadable
        raise PresetError(_("cannot read it: {reason}").format(reason=exc.reason)) from None
    try:
        text = raw.decode("utf-8-sig")  # with or without the byte-order mark Windows editors write
    except UnicodeDecodeError:
        raise PresetError(_("not a JSON file (not UTF-8 text)")) from None
    return text


def save(state: State, path: str | os.PathLike[str]) -> None:
    """Write atomically, keeping the old file's permissions and symlink; the old file stays
    intact if anything fails (safe_io.IOFailure, an OSError with one sentence, propagates).

    A state in the pseudo language is saved without a language (a preset file never names
    it): opened, such a preset keeps the language being spoken."""
    if state.language == PSEUDO:
        state = replace(state, language=None)
    safe_io.write_text(path, to_json(state))
