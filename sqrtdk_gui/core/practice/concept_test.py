"""The practice bank as a concept test for a class: questions first, the answer key last.

The same sheet serves before and after the lesson (pre/post); every item has a letter
per option, numbered code lines or blanks to order, and the key gives the right answer,
the accepted band of a number (derived from the model over seeds 0–7 and checked by the
tests) and one sentence of why. HTML (self-contained, prints the key on its own page) or
Markdown; the caller writes it through ``core.io.safe_io``. Its words are in the language
current when it is made; code lines, fixes and numbers are as they are.
"""

from __future__ import annotations

import html
from collections.abc import Iterable

from sqrtdk_gui.core.i18n import LANGUAGES, N_, _, language
from sqrtdk_gui.core.practice.model import TOPICS, Question

__all__ = ["concept_test", "answer_text", "LETTERS", "TITLE"]

LETTERS = "ABCDEFGH"
TITLE = N_("Why divide attention's logits by √d_k? — concept test")
_INTRO = N_("Answer every item without notes: choose one letter, write one number, put the items in order, "
            "work through a derivation, answer in a few sentences, or name the line of code that is wrong. Use "
            "the same sheet before and after the lesson; the answer key is on the last page.")


def answer_text(q: Question) -> str:
    """The key's short answer: "B", "20 – 25", "C, A, B", "line 11" or a rehearsal's links (in
    the current language)."""
    if q.kind == "say":
        return "; ".join(q.option_texts())
    if q.kind == "derive":
        return "; ".join(_(s.line) for s in q.steps)
    if q.kind == "number":
        lo, hi = q.band
        return f"{lo:g} – {hi:g}{(' ' + q.unit) if q.unit else ''}"
    if q.kind == "ranking":
        assert isinstance(q.correct, tuple)
        return ", ".join(LETTERS[i] for i in q.correct)
    assert isinstance(q.correct, int)
    return _("line {number}").format(number=q.correct + 1) if q.kind == "line" else LETTERS[q.correct]


def _heading(q: Question) -> str:
    """The title as a sentence: "How wide is a logit?" keeps its own mark."""
    title = _(q.title)
    return title if title[-1] in "?.!”？。！" else title + "."


def _instruction(q: Question) -> str:
    return {"choice": _("Choose one."), "number": _("Write one number."), "ranking": _("Order them, largest first."),
            "line": _("Which line is wrong?"), "say": _("Answer in a few sentences."),
            "derive": _("Work through the steps.")}[q.kind]


def _lang() -> str:
    """The sheet's HTML language tag."""
    code = language()
    return code.replace("_", "-") if code in LANGUAGES else "en"


def concept_test(bank: Iterable[Question], fmt: str = "html") -> str:
    """The whole test as HTML or Markdown text."""
    items = list(bank)
    return _html(items) if fmt == "html" else _markdown(items)


def _markdown(items: list[Question]) -> str:
    out = [f"# {_(TITLE)}", "", _(_INTRO), ""]
    topic = ""
    for i, q in enumerate(items, 1):
        if q.topic != topic:
            topic = q.topic
            out += [f"## {_(TOPICS[topic])}", ""]
        prompt = f" {q.text(q.prompt)}" if q.kind != "line" else ""
        out += [f"**{i}. {_heading(q)}**{prompt} {_instruction(q)}", ""]
        if q.kind == "line":
            out += ["```python"]
            out += [f"{n:2d}  {line}" for n, line in enumerate(q.options, 1)] + ["```", ""]
        elif q.kind == "number":
            out += [_("Answer: {blank} {unit}").format(blank="________", unit=q.unit).rstrip(), ""]
        elif q.kind == "say":
            out += ["> ", "> ", "> ", ""]
        elif q.kind == "derive":
            for j, s in enumerate(q.steps):
                out.append(f"{j + 1}. {_(s.prompt)}" + ("" if s.kind == "choice" else " ________"))
                out += [f"   - {LETTERS[k]}. {_(o)}" for k, o in enumerate(s.options)]
            out.append("")
        else:
            out += [f"- {LETTERS[j]}. {text}" for j, text in enumerate(q.option_texts())] + [""]
    answer_key = _("Answer key")
    out += [f"## {answer_key}", ""]
    for i, q in enumerate(items, 1):
        fix = " " + _("Fix: {code}.").format(code=f"`{q.fix}`") if q.fix else ""
        out.append(f"{i}. **{answer_text(q)}** — {q.text(q.answer)}{fix}")
    return "\n".join(out) + "\n"


_CSS = """body{font-family:sans-serif;max-width:48em;margin:2em auto;line-height:1.4;color:#1a1a1a}
h2{border-bottom:1px solid #bbb;margin-top:1.6em}.item{margin:1.1em 0;break-inside:avoid}
ol.options{list-style:upper-alpha}pre{background:#f4f4f4;padding:.6em;overflow-x:auto}
.blank{display:inline-block;min-width:8em;border-bottom:1px solid #000}
.lines{height:7.5em;background:repeating-linear-gradient(#fff 0 1.45em,#999 1.45em 1.5em)}
.key{break-before:page}.key li{margin:.5em 0}"""


def _html(items: list[Question]) -> str:
    e = html.escape
    title = _(TITLE)
    blank = "<span class='blank'></span>"
    body = [f"<h1>{e(title)}</h1>", f"<p>{e(_(_INTRO))}</p>",
            "<p>" + e(_("Name: {blank}")).format(blank=blank) + "</p>"]
    topic = ""
    for i, q in enumerate(items, 1):
        if q.topic != topic:
            topic = q.topic
            body.append(f"<h2>{e(_(TOPICS[topic]))}</h2>")
        prompt = "" if q.kind == "line" else f" {e(q.text(q.prompt))}"
        body.append(f"<div class='item'><p><b>{i}. {e(_heading(q))}</b>{prompt} <i>{e(_instruction(q))}</i></p>")
        if q.kind == "line":
            lines = "\n".join(f"{n:2d}  {e(line)}" for n, line in enumerate(q.options, 1))
            body.append(f"<pre>{lines}</pre>")
        elif q.kind == "number":
            body.append("<p>" + e(_("Answer: {blank} {unit}")).format(blank=blank, unit=e(q.unit)) + "</p>")
        elif q.kind == "say":
            body.append("<div class='lines'></div>")
        elif q.kind == "derive":
            steps = "".join(f"<li>{e(_(s.prompt))}" + (
                "<ol class='options'>" + "".join(f"<li>{e(_(o))}</li>" for o in s.options) + "</ol>"
                if s.kind == "choice" else f" {blank}") + "</li>" for s in q.steps)
            body.append(f"<ol>{steps}</ol>")
        else:
            body.append("<ol class='options'>" + "".join(f"<li>{e(o)}</li>" for o in q.option_texts()) + "</ol>")
        body.append("</div>")
    key = []
    for q in items:
        fix = " " + e(_("Fix: {code}.")).format(code=f"<code>{e(q.fix)}</code>") if q.fix else ""
        key.append(f"<li><b>{e(answer_text(q))}</b> — {e(q.text(q.answer))}{fix}</li>")
    answer_key = e(_("Answer key"))
    # The break also as an inline style on the heading: Qt's PDF layout reads only that.
    body.append(f"<section class='key'><h2 style='page-break-before:always'>{answer_key}</h2><ol>"
                + "".join(key) + "</ol></section>")
    return (f"<!DOCTYPE html>\n<html lang='{_lang()}'><head><meta charset='utf-8'>"
            f"<title>{e(title)}</title><style>{_CSS}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
