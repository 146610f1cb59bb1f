"""The take-home handout: the whole lesson from the same texts, figures and evidence code."""

import base64
import re
import subprocess
import sys
from html.parser import HTMLParser

import pytest

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.lesson.evidence import evidence
from sqrtdk_gui.core.lesson.figures import fill
from sqrtdk_gui.gui.export.handout import export_handout
from tests.gui.pdf_check import A4_POINTS, pdf_pages

pytestmark = pytest.mark.render  # one export of the whole lesson (~40 s): CI's render step

PLACEHOLDER = re.compile(r"\{[a-z][a-z0-9_]*\}")
PNG = b"\x89PNG\r\n\x1a\n"


class _Collect(HTMLParser):
    def __init__(self):
        super().__init__()
        self.text, self.images = [], []

    def handle_data(self, data):
        self.text.append(data)

    def handle_starttag(self, tag, attrs):
        if tag == "img":
            self.images.append(dict(attrs)["src"])


@pytest.fixture(scope="module")
def handout_html(tmp_path_factory, qapp):
    from sqrtdk_gui.gui.window.main_window import MainWindow

    window = MainWindow(threaded=False)
    window.show()
    try:
        path = tmp_path_factory.mktemp("handout") / "lesson.html"
        before = (window.controller.params, window.lesson.step, window.size())
        written = export_handout(window, str(path))
        assert written == [str(path)]
        assert (window.controller.params, window.lesson.step, window.size()) == before  # restored
        return path.read_text(encoding="utf-8")
    finally:
        window.close()
        window.deleteLater()  # deleted at the test's teardown, not by a later garbage collection


def test_html_handout_holds_every_step_scenario_question_and_answer(handout_html):
    parser = _Collect()
    parser.feed(handout_html)
    text = " ".join(" ".join(parser.text).split())
    for step in STEPS:
        for part in (fill(step.question), fill(step.answer)):
            assert " ".join(part.split()) in text
    for s in SCENARIOS:
        assert s.title in handout_html
        for row in evidence(s.key, Params(**s.preset)).rows:  # the pane's own evidence code
            assert all(cell in text for cell in row), (s.key, row)
    assert not PLACEHOLDER.search(text) and "<!-- reveal -->" not in handout_html
    assert "Measured: σ of the logits = " in text


def test_html_handout_embeds_one_png_per_section(handout_html):
    parser = _Collect()
    parser.feed(handout_html)
    assert len(parser.images) == len(STEPS) + len(SCENARIOS)
    for src in parser.images:
        assert src.startswith("data:image/png;base64,")
        assert base64.b64decode(src.split(",", 1)[1])[:8] == PNG


def test_markdown_handout_writes_its_pictures_beside_it(make_window, tmp_path):
    window = make_window()
    path = tmp_path / "lesson.md"
    written = export_handout(window, str(path), progress=lambda i, n, name: i < 2)  # two sections
    text = path.read_text(encoding="utf-8")
    pictures = sorted((tmp_path / "lesson_files").iterdir())
    assert [str(path), *map(str, pictures)] == written and len(pictures) == 2
    for picture in pictures:
        assert picture.read_bytes()[:8] == PNG and f"lesson_files/{picture.name}" in text
    assert "## 1 · A logit is a sum of dₖ terms" in text and "<sub>" not in text
    assert not PLACEHOLDER.search(text)


def test_every_number_of_the_handout_takes_the_language_s_decimal_mark(qapp, tmp_path):
    # The pseudo language's decimal mark is no language's ("‧"): a number written with a
    # point skipped it (code excepted: a formula in code is Python's).
    from sqrtdk_gui.core import i18n
    from sqrtdk_gui.gui.launch import translations
    from sqrtdk_gui.gui.window.main_window import MainWindow
    from tests.gui.pseudo_screens import point_decimals

    translations.install(i18n.PSEUDO)
    window = MainWindow(threaded=False)
    window.show()
    try:
        path = tmp_path / "lesson.md"
        export_handout(window, str(path))
        text = path.read_text(encoding="utf-8")
    finally:
        window.close()
        window.deleteLater()
        translations.install("en")
    prose = re.sub(r"```.*?```|`[^`]*`|\([^)]*\.png\)", " ", text, flags=re.DOTALL)  # code, picture files
    lines = [line for line in prose.splitlines() if point_decimals(line)]
    assert "‧" in prose and not lines, lines[:10]


def test_a_failed_write_keeps_the_old_handout(make_window, tmp_path, monkeypatch):
    window = make_window()
    path = tmp_path / "lesson.html"
    path.write_text("the old handout")
    import os

    def full_disk(src, dst):  # the rename after a write is where a full disk surfaces last
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", full_disk)
    with pytest.raises(OSError):
        export_handout(window, str(path), progress=lambda i, n, name: i < 1)
    assert path.read_text() == "the old handout" and [p.name for p in tmp_path.iterdir()] == ["lesson.html"]


def test_a_pdf_handout_is_laid_out_on_a4_pages(make_window, tmp_path):
    window = make_window()
    path = tmp_path / "lesson.pdf"
    written = export_handout(window, str(path), progress=lambda i, n, name: i < 2)  # the first two pages
    assert written == [str(path)] and [p.name for p in tmp_path.iterdir()] == ["lesson.pdf"]
    pages = pdf_pages(path.read_bytes())
    assert len(pages) >= 3 and set(pages) == {A4_POINTS}  # two sections, then the table of claims
    assert path.read_bytes().count(b"/Subtype /Image") >= 2  # the two pictures


@pytest.mark.parametrize("name,message", [("lesson.docx", "ends in .html, .md or .pdf"),
                                          ("missing/lesson.md", "does not exist"),
                                          ("", "ends in .html, .md or .pdf")])
def test_export_handout_command_refuses_bad_names_with_one_line(tmp_path, name, message):
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "export-handout", str(tmp_path / name) if name else ""],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2 and message in done.stderr and len(done.stderr.splitlines()) == 1
