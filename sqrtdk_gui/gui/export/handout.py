"""The handout: the whole lesson as one HTML or Markdown file for students to take home.

Built from the same texts, figures and evidence code as the lesson pane, so it cannot drift
from what the app says: every step with its question, answer and the measured value, every
trap and follow-up with its evidence table, and a picture of the panels for each, rendered
from the live window at export time. HTML embeds its pictures (one offline file); Markdown
writes them into a folder beside the file.

Like the slides, an export of many pages (``handout_steps``, run by ``export_handout`` in the
calling thread or by ``run.ExportRun`` from the window): each page's numbers are computed in
worker threads, the GUI thread lays the page out and grabs its picture, the export's own
thread encodes the pictures and writes the files. Cancelled, it writes nothing.

It is written in the language spoken (the lesson pages where they are translated); its
file names stay English.
"""

from __future__ import annotations

import base64
import html
import re
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, cast

from PySide6 import QtCore
from PySide6.QtCore import QBuffer, QByteArray, QCoreApplication, QIODevice
from PySide6.QtGui import QImage

from sqrtdk_gui import __version__
from sqrtdk_gui.core.i18n import PSEUDO, _, language, localize_number
from sqrtdk_gui.core.io.safe_io import write_bytes, write_text
from sqrtdk_gui.core.lesson.claims_table import claim_rows
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.lesson.evidence import evidence
from sqrtdk_gui.core.lesson.figures import fill
from sqrtdk_gui.core.lesson.page import Evidence
from sqrtdk_gui.core.lesson.predict import PREDICTIONS, measured
from sqrtdk_gui.core.lesson.texts import REVEAL_MARK, lesson_text
from sqrtdk_gui.gui.export.pdf import html_pdf
from sqrtdk_gui.gui.export.run import Cancelled, Page, Steps, enter_page, export_pool, run_blocking, shielded, wait_for
from sqrtdk_gui.gui.export.view import restore_numbers, slide_layout

__all__ = ["FORMATS", "export_handout", "handout_format", "handout_steps", "handout_pages"]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")
# Marks a text for lupdate (context "Handout"); it is translated where shown.
QT_TRANSLATE_NOOP = cast(Callable[[str, str], str], QtCore.QT_TRANSLATE_NOOP)

FORMATS = {".html": "html", ".htm": "html", ".md": "md", ".pdf": "pdf"}
PDF_FIGURE_WIDTH = 560  # a picture's width on an A4 page's text column (Qt's rich-text pixels)
FIGURE_SIZE = (1400, 820)
_COUNTS = {"trap": sum(s.kind == "trap" for s in SCENARIOS),
           "follow-up": sum(s.kind == "follow-up" for s in SCENARIOS)}
_WORDS = "zero one two three four five six seven eight nine ten".split()  # English
# {steps} (capitalised: it begins a sentence), {traps}, {followups}: numbers as words.
INTRO_TEXT = QT_TRANSLATE_NOOP(
    "Handout",
    "Why does scaled dot-product attention divide its logits by √d<sub>k</sub>? {steps} steps, {traps} traps "
    "and {followups} follow-ups. Every number is computed by sqrtdk-gui's model; a range spans 32 random seeds "
    "(heavy-tailed ratios in powers of ten), under the stated assumptions (independent entries of mean 0 and "
    "variance 1, at initialisation).")


def _number_words() -> list[str]:
    """Zero to ten as words in the language spoken."""
    return [translate("Handout", "zero", "number word"), translate("Handout", "one", "number word"),
            translate("Handout", "two", "number word"), translate("Handout", "three", "number word"),
            translate("Handout", "four", "number word"), translate("Handout", "five", "number word"),
            translate("Handout", "six", "number word"), translate("Handout", "seven", "number word"),
            translate("Handout", "eight", "number word"), translate("Handout", "nine", "number word"),
            translate("Handout", "ten", "number word")]


def _intro(words: list[str], text: str) -> str:
    """The introduction ``text`` with its numbers as ``words``."""
    return text.format(steps=words[len(STEPS)].capitalize(), traps=words[_COUNTS["trap"]],
                       followups=words[_COUNTS["follow-up"]])


INTRO = _intro(_WORDS, INTRO_TEXT)  # in English


def intro() -> str:
    """The introduction in the language spoken."""
    return _intro(_number_words(), translate("Handout", INTRO_TEXT))


def _html_lang() -> str:
    """The handout's language as HTML names it ('en', 'de', 'zh-CN')."""
    code = language()
    return code.replace("_", "-") if code != PSEUDO else "en"


def handout_format(path: str) -> str | None:
    """'html', 'md' or 'pdf' from the file name, or None for any other name."""
    return FORMATS.get(Path(path).suffix.lower())


def _png(image: QImage) -> bytes:
    """``image`` as PNG bytes (any thread: the image is not shared)."""
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "PNG")  # type: ignore[call-overload]  # the stub wants bytes; PySide6 takes a str
    buffer.close()
    # bytes(data): QByteArray's buffer protocol, which the stub omits (hence the ignore).
    return bytes(data)  # type: ignore[call-overload,no-any-return]


def handout_pages() -> list[tuple[str, object]]:
    """(kind, step or scenario) for every page of the handout, in lesson order."""
    return [("step", s) for s in STEPS] + [("scenario", s) for s in SCENARIOS]


def _sections(window: Any, pool: ThreadPoolExecutor, pages: list[tuple[str, Any]]) -> Steps:
    """Every step and scenario: texts, numbers and a picture of the panels, in lesson order
    (``yield from``; the pictures are encoded in ``pool``)."""
    sections: list[dict[str, Any]] = []
    for i, (kind, item) in enumerate(pages):
        title = _(item.title)
        if not (yield Page(i, len(pages), title)):
            break
        # "name": the English title, for file names.
        section: dict[str, Any] = {"kind": kind, "title": title, "name": item.title,
                   "text": lesson_text(item.resource).replace(REVEAL_MARK, "")}
        if kind == "step":
            yield from enter_page(window, "step", item.number, pool)
            section.update(label=translate("Handout", "Step {number}").format(number=item.number),
                           question=fill(_(item.question)), answer=fill(_(item.answer)))
            prediction = PREDICTIONS.get(item.number)
            if prediction is not None:
                value = measured(item.number)
                number = localize_number(f"{value:,.{prediction.digits}f}".replace(",", "\u202f"))
                seed = item.preset.get("seed", 0)
                section["measured"] = translate("Handout", "{quantity} = {value} (this sample, seed {seed})").format(
                    quantity=_(prediction.quantity), value=number, seed=seed)
        else:
            yield from enter_page(window, "scenario", item.key, pool)
            label = translate("Handout", "Trap") if item.kind == "trap" else translate("Handout", "Follow-up")
            section.update(label=label,
                           evidence=evidence(item.key, window.controller.params))
        section["png"] = pool.submit(_png, window.live_page.grab().toImage())
        sections.append(section)
    for section in sections:
        yield section["png"]
        section["png"] = section["png"].result()
    return sections


def _table_html(ev: Evidence) -> str:
    head = "".join(f"<th>{html.escape(h)}</th>" for h in ev.headers)
    rows = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in ev.rows)
    return f"<table><tr>{head}</tr>{rows}</table>"


_CSS = ("body{font-family:sans-serif;max-width:62em;margin:2em auto;padding:0 1em;line-height:1.45;color:#1a1a1a}"
        "h1{font-size:1.8em}section{border-top:2px solid #ccc;margin-top:2em;padding-top:.5em}"
        ".label{color:#4d4d4d;text-transform:uppercase;letter-spacing:.05em;font-size:.85em}"
        ".predict{background:#fff6e0;border:2px solid #e69f00;border-radius:6px;padding:.6em 1em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;padding:.25em .6em;"
        "text-align:right;white-space:nowrap}th{background:#f4f4f4}img{max-width:100%;border:1px solid #ccc}"
        ".note{color:#4d4d4d;font-size:.9em}")


def _texts() -> dict[str, Any]:  # words, and the claims table's headers (a tuple)
    """The handout's own words in the language spoken (HTML and Markdown share them; rich
    text as the translators keep it)."""
    return {
        "heading": translate("Handout", "Why divide by √d<sub>k</sub>?"),
        "title": translate("Handout", "Why divide by √d_k? — sqrtdk-gui handout"),
        "heading_md": translate("Handout", "Why divide by √d_k?"),
        "predict": translate("Handout", "Predict first."),
        "answer": translate("Handout", "Answer."),
        "measured": translate("Handout", "Measured:"),
        "evidence_note": translate("Handout", "Computed by the model for the scenario's parameters (seed 0); max p, "
                                              "‖J‖ and entropy are medians over the queries."),
        "image": translate("Handout", "The panels for {title}"),
        "claims": translate("Handout", "Every number, and how it is checked"),
        "claims_intro": translate("Handout", "Each figure the lesson and the training lab quote: the quoted text, "
                                             "what it measures, over which seeds, and the test that recomputes it."),
        "claims_headers": (translate("Handout", "quoted"), translate("Handout", "what, and how"),
                           translate("Handout", "seeds"), translate("Handout", "checked by")),
        "made_by": translate("Handout", "Made by sqrtdk-gui {version}.").format(version=__version__),
    }


def _claim_rows() -> list[tuple[str, ...]]:
    """The claims table's rows, each text in the language spoken where the core has it."""
    return [tuple(_(c) for c in row) for row in claim_rows()]


def _html(sections: list[dict[str, Any]]) -> str:
    t = _texts()
    parts = [f"<!DOCTYPE html><html lang='{_html_lang()}'><head><meta charset='utf-8'><title>"
             f"{t['title']}</title><style>{_CSS}</style></head><body>",
             f"<h1>{t['heading']}</h1><p>{intro()}</p>"]
    for s in sections:
        parts.append(f"<section><p class='label'>{html.escape(s['label'])}</p>{s['text']}")
        if "question" in s:
            measured = (f"<p>{t['measured']} <b>{html.escape(s['measured'])}</b></p>"
                        if "measured" in s else "")
            parts.append(f"<div class='predict'><p><b>{t['predict']}</b> {html.escape(s['question'])}"
                         f"</p><p><b>{t['answer']}</b> {html.escape(s['answer'])}</p>{measured}</div>")
        if "evidence" in s:
            parts.append(_table_html(s["evidence"]) + f"<p class='note'>{t['evidence_note']}</p>")
        image = base64.b64encode(s["png"]).decode("ascii")
        alt = html.escape(t["image"].format(title=s["title"]))
        parts.append(f"<p><img alt='{alt}' src='data:image/png;base64,{image}'></p></section>")
    rows = "".join("<tr>" + "".join(f"<td style='text-align:left;white-space:normal'>{html.escape(c)}</td>"
                                    for c in row) + "</tr>" for row in _claim_rows())
    head = "".join(f"<th>{h}</th>" for h in t["claims_headers"])
    parts.append(f"<section><h2>{t['claims']}</h2><p>{t['claims_intro']}</p>"
                 f"<table><tr>{head}</tr>{rows}</table></section>")
    parts.append(f"<p class='note'>{t['made_by']}</p></body></html>\n")
    return "".join(parts)


_SUB = str.maketrans("0123456789aehijklmnoprstuvx+-=()", "₀₁₂₃₄₅₆₇₈₉ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ₊₋₌₍₎")
_SUP = str.maketrans("0123456789+-−=()in", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁱⁿ")


def _script(text: str, table: dict[int, int], fallback: str) -> str:
    """Unicode sub- or superscript when every character has one, else a plain fallback."""
    converted = text.translate(table)
    return converted if all(ord(c) > 127 or c == " " for c in converted) else fallback.format(text)


def _md_inline(fragment: str) -> str:
    """Lesson HTML to readable Markdown: headings, bold, italics, lists; d<sub>k</sub> → dₖ."""
    text = re.sub(r"\s*\n\s*", " ", fragment)
    for _pass in range(2):  # nested subscripts (q<sub>d<sub>k</sub></sub>) innermost first
        text = re.sub(r"<sub>([^<]*)</sub>", lambda m: _script(m.group(1), _SUB, "_({})"), text)
    text = re.sub(r"<sup>([^<]*)</sup>", lambda m: _script(m.group(1), _SUP, "^({})"), text)
    for tag, mark in (("h2", "## "), ("h3", "### ")):
        text = re.sub(rf"<{tag}>(.*?)</{tag}>",
                      cast("Callable[[re.Match[str]], str]", lambda m, mark=mark: f"\n\n{mark}{m.group(1)}\n\n"), text)
    text = re.sub(r"<li>(.*?)</li>", lambda m: f"\n- {m.group(1)}", text)
    text = re.sub(r"</?(ul|ol)>", "\n", text)
    text = re.sub(r"<p[^>]*>(.*?)</p>", lambda m: f"\n\n{m.group(1)}\n\n", text)
    text = re.sub(r"<br\s*/?>", "  \n", text)
    text = re.sub(r"</?b>", "**", text)
    text = re.sub(r"</?i>", "*", text)
    text = re.sub(r"<[^>]+>", "", text)
    text = "\n".join(line.strip() for line in html.unescape(text).splitlines())
    return re.sub(r"\n{3,}", "\n\n", text).strip()


def _md_table(ev: Evidence) -> str:
    lines = ["| " + " | ".join(ev.headers) + " |", "|" + "---:|" * len(ev.headers)]
    lines += ["| " + " | ".join(row) + " |" for row in ev.rows]
    return "\n".join(lines)


def _markdown(sections: list[dict[str, Any]], images: list[str]) -> str:
    t = _texts()
    parts = [f"# {t['heading_md']}", _md_inline(intro())]
    for s, image in zip(sections, images):
        parts.append(f"---\n\n*{s['label']}*\n\n" + _md_inline(s["text"]))
        if "question" in s:
            parts.append(f"> **{t['predict']}** {s['question']}\n>\n> **{t['answer']}** {s['answer']}"
                         + (f"\n>\n> {t['measured']} **{s['measured']}**" if "measured" in s else ""))
        if "evidence" in s:
            parts.append(_md_table(s["evidence"]) + f"\n\n*{t['evidence_note']}*")
        parts.append(f"![{t['image'].format(title=s['title'])}]({image})")
    parts.append(f"---\n\n## {t['claims']}\n\n{t['claims_intro']}\n\n"
                 "| " + " | ".join(t["claims_headers"]) + " |\n|---|---|---|---|\n"
                 + "\n".join("| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in _claim_rows()))
    parts.append(f"*{t['made_by']}*")
    return "\n\n".join(parts) + "\n"


def _write(kind: str, target: Path, sections: list[dict[str, Any]]) -> list[str]:
    """Write the handout's file (and for Markdown its pictures); the files written."""
    if kind == "html":
        write_text(target, _html(sections))  # safely: a failed write keeps the old file
        return [str(target)]
    if kind == "pdf":  # the same page laid out on A4 by Qt (GUI thread), the pictures the column's width
        height = round(PDF_FIGURE_WIDTH * FIGURE_SIZE[1] / FIGURE_SIZE[0])  # Qt scales by both, or by none
        page = _html(sections).replace("<img ", f"<img width='{PDF_FIGURE_WIDTH}' height='{height}' ")
        return [html_pdf(page, str(target), _texts()["title"])]
    folder = target.with_name(target.stem + "_files")
    folder.mkdir(exist_ok=True)
    images, written = [], []
    for i, s in enumerate(sections, start=1):
        name = f"{i:02d}-{re.sub(r'[^a-z0-9]+', '-', s['name'].lower()).strip('-')}.png"
        write_bytes(folder / name, s["png"])
        images.append(f"{folder.name}/{name}")
        written.append(str(folder / name))
    write_text(target, _markdown(sections, images))
    return [str(target), *written]


def handout_steps(window: Any, path: str) -> Steps:  # window: the MainWindow
    """The handout export as steps (see ``run``); its value: the files written (none if
    cancelled before the file was being written). The pictures are drawn in the slide
    layout at a fixed size (the step's own panels, no window furniture); everything on
    screen is as it was afterwards. Stopped by its progress, it writes the pages so far.
    OSError if a file cannot be written."""
    target = Path(path)
    kind = handout_format(path)
    if kind is None:
        raise ValueError(f"a handout is .html, .md or .pdf, not {target.suffix or 'no extension'!r}")
    pool = export_pool()
    try:
        restore_numbers(window, pool)
        try:
            with slide_layout(window, FIGURE_SIZE, zoom=1.0):  # the step's own panels, large
                sections = yield from _sections(window, pool, handout_pages())
        except Cancelled:
            return []
        if kind == "pdf":  # Qt's text layout wants the GUI thread's event loop (its timers)
            return _write(kind, target, sections)
        # Being written, it is finished even if Cancel comes now (a file is written whole or not at all).
        return (yield from shielded(wait_for(pool.submit(_write, kind, target, sections))))
    finally:
        pool.shutdown(wait=False, cancel_futures=True)


def export_handout(window: Any, path: str, progress: Callable[[int, int, str], object] | None = None,
                   should_stop: Callable[[], bool] | None = None) -> list[str]:
    """Write the handout (HTML or Markdown by the file name) in this thread; returns the
    files written. ``progress(i, n, title)`` -> False: only the pages so far; ``should_stop()``
    true cancels (nothing is written). ValueError for another file name, OSError if a file
    cannot be written. The window's panels are up to date afterwards."""
    if handout_format(path) is None:  # before anything changes on screen
        raise ValueError(f"a handout is .html, .md or .pdf, not {Path(path).suffix or 'no extension'!r}")
    try:
        return cast("list[str]", run_blocking(handout_steps(window, path), progress, should_stop))
    finally:
        window.render_ready()
