"""The reveal as HTML: the verdict, the right answer, the measurements, how the answer stands
across samples, when the item comes back, and for a rehearsal the model answer first."""

from __future__ import annotations

import html
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from typing import cast

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale

from sqrtdk_gui.core.i18n import PSEUDO, _, format_number, language
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.practice.model import SEEDS, Question, Source
from sqrtdk_gui.gui.assets import MONO
from sqrtdk_gui.gui.practice.rehearsal import RATING_NAMES
from sqrtdk_gui.gui.practice.shown import InterviewSummary, Reveal
from sqrtdk_gui.gui.style import Palette

__all__ = ["code_diff", "reveal_html", "summary_html"]


def _when(moment: datetime) -> str:
    """A review's local date and time in the language spoken: "Mon 7 Dec, 13:48"."""
    lang = language()
    locale = QLocale("en_US" if lang in ("en", PSEUDO) else lang)
    # The stub omits the datetime.datetime that PySide6 converts to a QDateTime.
    return locale.toString(QDateTime(moment.astimezone().replace(tzinfo=None)), "ddd d MMM, HH:mm")  # type: ignore[call-overload]

translate = QCoreApplication.translate  # lupdate extracts translate("Context", "text")


def reveal_html(r: Reveal, pal: Palette) -> str:
    """The reveal of a question, a bug card or a rehearsal, as the page's HTML."""
    e, q = html.escape, r.question
    if q.kind == "say":
        return _rehearsal_html(r, pal)
    if r.correct:
        colour, verdict = pal.accent, translate("PracticePage", "✓ Right.")
    else:
        colour, verdict = pal.warn, translate("PracticePage", "✗ Not quite.")
    you = translate("PracticePage", "You: {answer}").format(answer=e(r.given))
    expected = "" if r.correct or q.kind == "derive" else "<br>" + translate(
        "PracticePage", "The answer: <b>{answer}</b>").format(answer=e(r.expected))
    parts = [f"<p><b style='color:{colour}'>{verdict}</b> {you}{expected}</p>"]
    if q.fix:  # code: never translated
        fix = translate("PracticePage", "Fix: {code}").format(code=f"<code>{e(q.fix.strip())}</code>")
        parts.append(f"<p>{fix}</p>")
    # The essentials first (they fit above the fold at 1024 × 768), the measurements after.
    parts.append(f"<p>{e(q.text(q.answer))}</p>")
    parts.append("<p>" + translate("PracticePage", "<b>What the interviewer is testing:</b> {testing}")
                 .format(testing=e(_(q.testing))) + "</p>")
    if r.why:  # the belief behind the wrong option, after the essentials (above the fold at 1024 × 768)
        parts.append("<p>" + translate("PracticePage", "<b>Why not that one:</b> {reason}").format(
            reason=e(r.why)) + "</p>")
    if q.kind == "line":  # the card's code stays, the faulty line beside its fix
        parts.append(code_diff(q, r.answer_line, pal))
    if q.kind == "derive":  # the derivation as committed, each line right or with the answer given
        lines = "<br>".join(
            f"<b style='color:{pal.accent if d.right else pal.warn}'>{'✓' if d.right else '✗'}</b> {e(_(s.line))}"
            + ("" if d.right else " " + e(translate("PracticePage", "(you: {answer})").format(answer=d.given)))
            for s, d in zip(q.steps, r.steps, strict=False))
        parts.append("<p>" + translate("PracticePage", "<b>The derivation:</b>") + f"<br>{lines}</p>")
    rows = "".join(f"<tr><td>{e(_(x.label))}</td><td align='right'><b>{e(x.value)}</b></td>"
                   f"<td style='color:{pal.muted}'>{e(_(x.note))}</td></tr>" for x in r.measured.readings)
    measured = translate("PracticePage", "<b>Measured by the model</b> (this sample, seed {seed}; the live "
                         "panels show it):").format(seed=r.seed)
    parts.append(f"<p>{measured}</p><table cellspacing='0' cellpadding='3'>{rows}</table>")
    parts.append(f"<p>{_spread_text(r)}</p>")
    parts.append(_schedule_html(r, pal))
    if q.kind == "line":  # the cited repository and title: never translated
        source = (_cited(q.source).format(source=e(q.source.text)) if q.source
                  else translate("PracticePage", "Illustrative, not from a cited fix."))
        parts.append(f"<p style='color:{pal.muted}'>{source}</p>")
    return "".join(parts)


DIFF_CONTEXT = 2  # lines kept around the faulty line and the one picked, as a diff's hunk


def code_diff(q: Question, picked: int | None, pal: Palette) -> str:
    """The card's lines as a diff: the faulty one struck out ("−") with the fix below it ("+"),
    the line picked marked "›" when it is another, and the lines near either; a line too long
    for the reveal wraps under its code, not under its number. Code: never translated."""
    e = html.escape
    near = {cast(int, q.correct)} | ({picked} if picked is not None else set())  # a bug card: one line
    kept = [i for i in range(len(q.options)) if any(abs(i - n) <= DIFF_CONTEXT for n in near)]
    cell = f"style='font-family:\"{MONO}\"; white-space:pre-wrap'"
    # The hunk's common indentation goes: the reveal is narrow, and relative indents remain.
    cut = min(len(q.options[i]) - len(q.options[i].lstrip()) for i in kept if q.options[i].strip())
    rows, last = [], -1
    for i in kept:
        if i > last + 1:
            rows.append(f"<tr><td></td><td {cell}>⋮</td></tr>")
        last = i
        line = q.options[i][cut:]
        if i == q.correct:
            indent = line[:len(line) - len(line.lstrip())]
            rows.append(f"<tr style='background:{pal.warn_bg};color:{pal.warn}'><td {cell}>− {i + 1:2d} </td>"
                        f"<td {cell}><code>{e(line)}</code></td></tr>")
            rows.append(f"<tr style='color:{pal.accent}'><td {cell}><b>+ {i + 1:2d} </b></td>"
                        f"<td {cell}><b><code>{e(indent + q.fix.strip())}</code></b></td></tr>")
        else:
            mark = "›" if i == picked else " "
            rows.append(f"<tr><td {cell}>{mark} {i + 1:2d} </td><td {cell}><code>{e(line)}</code></td></tr>")
    if last < len(q.options) - 1:
        rows.append(f"<tr><td></td><td {cell}>⋮</td></tr>")
    return f"<table cellspacing='0' cellpadding='1' style='font-size:85%'>{''.join(rows)}</table>"


def _rehearsal_html(r: Reveal, pal: Palette) -> str:
    """A rehearsal: the model answer first (to set beside what was said), then, once rated,
    the verdict and the schedule; the measurements and the earlier rehearsals after."""
    e, q = html.escape, r.question
    model = ("<p>" + translate("PracticePage", "<b>Model answer:</b> {answer}").format(answer=e(q.text(q.answer)))
             + "</p>")
    testing = ("<p>" + translate("PracticePage", "<b>What the interviewer is testing:</b> {testing}")
               .format(testing=e(_(q.testing))) + "</p>")
    if not r.rating:  # the model answer to set beside what was said, while the rubric is ticked
        parts = [model, testing]
    else:  # rated: the verdict, the links left out and the schedule first; the model answer was read
        rated = translate("PracticePage", "Rated <b>{rating}</b>: you said {said}.").format(
            rating=translate("RehearsalPanel", RATING_NAMES[r.rating]), said=e(r.given))
        mark = f"<b style='color:{pal.accent}'>✓</b> " if r.correct else ""
        parts = [f"<p>{mark}{rated}</p>", _schedule_html(r, pal), testing]
        said = set(r.answer_links)
        left_out = [e(_(link)) for i, link in enumerate(q.options) if i not in said]
        if left_out:  # after what is tested: the essentials stay above the fold at 1024 × 768
            parts.append("<p>" + translate("PracticePage", "<b>Left out:</b> {links}").format(
                links="; ".join(left_out)) + "</p>")
    rows = "".join(f"<tr><td>{e(x.label)}</td><td align='right'><b>{e(x.value)}</b></td>"
                   f"<td style='color:{pal.muted}'>{e(x.note)}</td></tr>" for x in r.measured.readings)
    measured = translate("PracticePage", "<b>Measured by the model</b> (this sample, seed {seed}; the live "
                         "panels show it):").format(seed=r.seed)
    parts.append(f"<p>{measured}</p><table cellspacing='0' cellpadding='3'>{rows}</table>")
    if r.history:
        earlier = "<br>".join(
            translate("PracticePage", "{date}: {seconds} s, rated {rating}").format(
                date=e(_when(h.at)),
                seconds=format_number(round(h.seconds)), rating=translate("RehearsalPanel",
                                                                           RATING_NAMES[h.rating]))
            for h in reversed(r.history[-5:]))
        parts.append("<p>" + translate("PracticePage", "<b>Your earlier rehearsals:</b>") + f"<br>{earlier}</p>")
    if r.rating:
        parts.append(model)
    return "".join(parts)

def _schedule_html(r: Reveal, pal: Palette) -> str:
    """When the item comes back (FSRS, from its reviews)."""
    if r.due is None or not r.rating:
        return ""
    left = r.due - datetime.now(timezone.utc)
    when = _when(r.due)
    if left < timedelta(days=1):
        text = translate("PracticePage", "Next review: {when} (in {hours} h).").format(
            when=html.escape(when), hours=max(1, round(left.total_seconds() / 3600)))
    else:
        text = translate("PracticePage", "Next review: {when} (in {days} days).").format(
            when=html.escape(when), days=round(left.total_seconds() / 86400))
    return f"<p style='color:{pal.muted}'>{text}</p>"

def _cited(source: Source) -> str:
    """Where a card comes from, and whether that thread fixed the bug there."""
    if source.status == "open":
        return translate("PracticePage", "Modelled on {source}, reported there and still open "
                         "(written here, not copied).")
    if source.status == "unmerged":
        return translate("PracticePage", "Modelled on {source}, a pull request closed without "
                         "merging (written here, not copied).")
    return translate("PracticePage", "Modelled on the fix {source} (written here, not copied).")

def _spread_text(r: Reveal) -> str:
    """How the answer stands in every sample of SEEDS (New sample draws one of them)."""
    last, count = SEEDS[-1], len(SEEDS)
    s, q = r.spread, r.question
    if s is None:
        return translate("PracticePage", "<i>Measuring the same case in {count} samples…</i>").format(count=count)
    if q.kind == "number" and s.lowest is not None and s.highest is not None:
        unit = f" {q.unit}" if q.unit else ""
        return translate("PracticePage", "Across {count} samples (seeds 0–{last}) the model measures "
                         "{lowest} to {highest}{unit}: inside the accepted band in <b>{agree} of {count}</b>."
                         ).format(count=count, last=last, lowest=format_number(s.lowest, ".3g"),
                                  highest=format_number(s.highest, ".3g"), unit=unit, agree=s.agree)
    return translate("PracticePage", "Across {count} samples (seeds 0–{last}) the model gives this answer in "
                     "<b>{agree} of {count}</b>.").format(count=count, last=last, agree=s.agree)


def _page_title(page: str) -> str:
    """A lesson page's name: "step 2: …" or a trap's or follow-up's title."""
    if page.startswith("step:"):
        step = next((s for s in STEPS if s.number == int(page.split(":")[1])), None)
        if step is not None:
            return translate("PracticePage", "step {number}: {title}").format(number=step.number, title=_(step.title))
    scenario = next((s for s in SCENARIOS if s.key == page), None)
    return _(scenario.title) if scenario else page


def summary_html(summary: InterviewSummary, find: Callable[[str], Question], pal: Palette) -> str:
    """A finished mock interview: the verdict per item (the main answer's links left out), the
    weak points with the lesson page to review, and the time it took."""
    e = html.escape
    right = sum(a.correct for a in summary.asked)
    minutes, seconds = divmod(round(summary.seconds), 60)
    head = translate("PracticePage", "{right} of {count} answered right, in {minutes} min {seconds} s.").format(
        right=right, count=len(summary.asked), minutes=minutes, seconds=f"{seconds:02d}")
    rows = []
    for a in summary.asked:
        q = find(a.key)
        mark = f"<b style='color:{pal.accent if a.correct else pal.warn}'>{'✓' if a.correct else '✗'}</b>"
        left = ""
        if a.left_out:
            left = "<br><span style='color:{}'>{}</span>".format(pal.muted, e(translate(
                "PracticePage", "left out: {links}").format(links="; ".join(_(q.options[i]) for i in a.left_out))))
        rows.append(f"<li>{mark} {e(_(q.title))}{left}</li>")
    parts = [f"<p>{head}</p><ul>{''.join(rows)}</ul>"]
    if summary.weak:
        review = "".join(f"<li>{e(_(find(key).title))} — {e(_page_title(page))}</li>" for key, page in summary.weak)
        parts.append("<p>" + translate("PracticePage", "<b>Review before the real one</b> (the lesson pages):")
                     + f"</p><ul>{review}</ul>")
    else:
        parts.append("<p>" + translate("PracticePage", "<b>No weak link this time.</b> The schedule brings each "
                                       "item back when it is due.") + "</p>")
    return "".join(parts)
