"""A teacher's lesson file: a ``LessonPlan`` as a small, versioned, hand-editable JSON file (no Qt).

::

    {"format": "sqrtdk-gui lesson", "version": 1, "title": "Attention in 20 minutes",
     "pages": ["step:1", {"page": "step:2", "params": {"seed": 7},
                          "question": {"en": "What will the top weight be?"}},
               {"page": "qk_norm", "params": {"seed": 3}}, "dmodel"],
     "hide": ["more"], "lock": ["scaling"]}

A page is "step:N" or a trap's or follow-up's key, alone or with its sample (the seed: its
text quotes its own other parameters) and a step's question reworded per language. Reading is as strict as a preset's
(the same reader: size, nesting, encoding, FIFOs): anything else raises ``LessonError`` with
one line saying what is wrong, and nothing is applied.
"""

from __future__ import annotations

import json
import os
from dataclasses import fields
from typing import Any

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import LANGUAGES, _
from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.io.presets import (
    MAX_BYTES,
    MAX_DEPTH,
    PresetError,
    check_header,
    expect,
    nesting,
    parse_json,
    read_text,
    shown,
    strictly,
)
from sqrtdk_gui.core.lesson.page import Scenario, Step
from sqrtdk_gui.core.lesson.plan import CONTROLS, PAGE_IDS, PAGE_PARAMS, LessonPlan, PlanPage, find_page

__all__ = ["FORMAT", "VERSION", "SUFFIX", "LessonError", "to_json", "from_json", "load", "save", "from_current"]

FORMAT = "sqrtdk-gui lesson"
VERSION = 1
SUFFIX = ".json"
MAX_TITLE = 120  # characters: a title is one line on the projected introduction
MAX_QUESTION = 200  # characters: the most that fits a 1024×768 slide beside the answer, in every language
_PARAM_NAMES = tuple(f.name for f in fields(Params))


class LessonError(PresetError):
    """A lesson file that cannot be used; the message is one line for the user."""


def _page_json(page: PlanPage) -> str | dict[str, Any]:
    if not page.params and not page.question:
        return page.ident
    out: dict[str, Any] = {"page": page.ident}
    if page.params:
        out["params"] = dict(page.params)
    if page.question:
        out["question"] = dict(page.question)
    return out


def to_json(plan: LessonPlan) -> str:
    data: dict[str, Any] = {"format": FORMAT, "version": VERSION, "title": plan.title,
                            "pages": [_page_json(p) for p in plan.pages],
                            "hide": list(plan.hide), "lock": list(plan.lock)}
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


def from_json(text: str) -> LessonPlan:
    """Parse and validate a lesson file's text; LessonError with a one-line reason, never another error."""
    if not isinstance(text, str):
        raise LessonError(_("not a JSON text (got {type})").format(type=type(text).__name__))
    if len(text) > MAX_BYTES:
        raise LessonError(_("not a sqrtdk-gui lesson (more than {count} characters)").format(count=f"{MAX_BYTES:,}"))
    try:
        return strictly(lambda: _from_json(text), _("not a usable lesson ({error}: {message})"))
    except LessonError:
        raise
    except PresetError as exc:  # the shared checks ("must be a string, got 3")
        raise LessonError(str(exc)) from None


def _from_json(text: str) -> LessonPlan:
    if nesting(text) > MAX_DEPTH:
        raise LessonError(_("not a sqrtdk-gui lesson (JSON nested more than {depth} levels deep)").format(
            depth=MAX_DEPTH))
    data = check_header(parse_json(text), FORMAT, VERSION,
                        _("not a sqrtdk-gui lesson (no \"format\": \"sqrtdk-gui lesson\")"),
                        _("made by a newer sqrtdk-gui (lesson version {version}; this one reads {known})"),
                        _("unknown lesson version {version}"))
    unknown = sorted(set(data) - {"format", "version", "title", "pages", "hide", "lock"})
    if unknown:
        raise LessonError(_("unknown entry {name} in the lesson").format(name=shown(unknown[0])))
    title = " ".join(_text(data.get("title", ""), "\"title\"").split())  # one line on the introduction
    if len(title) > MAX_TITLE:
        raise LessonError(_("the title is longer than {count} characters").format(count=MAX_TITLE))
    raw_pages = expect(list, data.get("pages"), "\"pages\"")
    if not raw_pages:
        raise LessonError(_("\"pages\" is empty: a lesson has at least one page"))
    pages = [_page(raw, i + 1) for i, raw in enumerate(raw_pages)]
    seen: set[str] = set()
    for page in pages:
        if page.ident in seen:
            raise LessonError(_("page {page} is in the lesson twice").format(page=page.ident))
        seen.add(page.ident)
    hide, lock = (_controls(data.get(key, []), key) for key in ("hide", "lock"))
    return LessonPlan(pages=tuple(pages), title=title, hide=hide, lock=lock)


def _page(raw: object, number: int) -> PlanPage:
    where = _("page {number}").format(number=number)
    if isinstance(raw, str):
        raw = {"page": raw}
    entry = expect(dict, raw, where)
    unknown = sorted(set(entry) - {"page", "params", "question"})
    if unknown:
        raise LessonError(_("{where}: unknown entry {name}").format(where=where, name=shown(unknown[0])))
    ident = expect(str, entry.get("page"), f"{where}: \"page\"")
    if ident not in PAGE_IDS:
        raise LessonError(_("{where}: unknown page {name}; use step:1 to step:{last} or one of {keys}").format(
            where=where, name=shown(ident), last=sum(p.startswith("step:") for p in PAGE_IDS),
            keys=", ".join(p for p in PAGE_IDS if not p.startswith("step:"))))
    page = find_page(ident)
    params = expect(dict, entry.get("params", {}), f"{ident}: \"params\"")
    names = sorted(set(params) - set(_PARAM_NAMES))
    if names:
        raise LessonError(_("{where}: unknown parameter {name}").format(where=ident, name=shown(names[0])))
    extra = sorted(set(params) - set(PAGE_PARAMS))
    if extra:
        raise LessonError(_("{where} quotes its own parameters: a lesson sets only its {allowed}, not {name}").format(
            where=ident, allowed=", ".join(PAGE_PARAMS), name=extra[0]))
    question = expect(dict, entry.get("question", {}), f"{ident}: \"question\"")
    if question and not ident.startswith("step:"):
        raise LessonError(_("{where}: only a step asks a question").format(where=ident))
    for code, words in question.items():
        if code not in LANGUAGES:
            raise LessonError(_("{where}: unknown language {name}: use {languages}").format(
                where=ident, name=shown(code), languages=", ".join(LANGUAGES)))
        words = _text(words, f"{ident}: \"question.{code}\"")
        if not words.strip() or len(words) > MAX_QUESTION:
            raise LessonError(_("{where}: a question has 1 to {count} characters").format(
                where=ident, count=MAX_QUESTION))
    try:
        Params(**{**page.preset, **params})
    except ValueError as exc:
        raise LessonError(_("{where}: bad parameter: {problem}").format(where=ident, problem=exc)) from None
    return PlanPage(page, params=params, question={c: w.strip() for c, w in question.items()})


def _text(value: object, what: str) -> str:
    """A string that is text (JSON can escape lone surrogates, which no file can hold)."""
    text = expect(str, value, what)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        raise LessonError(_("{what} is not valid text").format(what=what)) from None
    return text


def _controls(raw: object, key: str) -> tuple[str, ...]:
    names = expect(list, raw, f"\"{key}\"")
    for name in names:
        if not isinstance(name, str) or name not in CONTROLS:
            raise LessonError(_("unknown control {name} in \"{entry}\": use {controls}").format(
                name=shown(name), entry=key, controls=", ".join(CONTROLS)))
    return tuple(dict.fromkeys(names))


def from_current(plan: LessonPlan, page: Step | Scenario | None, params: Params, title: str = "") -> LessonPlan:
    """``plan`` with the parameters on screen kept for ``page`` (the page the window shows,
    a Step or Scenario, or None), as the differences from the page's own preset."""
    pages = list(plan.pages)
    for i, entry in enumerate(pages):
        if entry.page == page:
            own = Params(**entry.page.preset)
            changed = {f: getattr(params, f) for f in _PARAM_NAMES if getattr(params, f) != getattr(own, f)}
            changed = {f: v for f, v in changed.items() if f in PAGE_PARAMS}  # its text quotes the rest
            pages[i] = PlanPage(entry.page, params=changed, question=entry.question)
    title = " ".join((title or plan.title).split())[:MAX_TITLE]
    return LessonPlan(pages=tuple(pages), title=title, hide=plan.hide, lock=plan.lock)


def load(path: str | os.PathLike[str]) -> LessonPlan:
    """Read a lesson file (LessonError for unreadable or invalid files, FIFOs, devices)."""
    try:
        text = read_text(path)
    except PresetError as exc:
        raise LessonError(str(exc)) from None
    return from_json(text)


def save(plan: LessonPlan, path: str | os.PathLike[str]) -> None:
    """Write atomically; the old file stays intact if anything fails (safe_io.IOFailure propagates)."""
    safe_io.write_text(path, to_json(plan))
