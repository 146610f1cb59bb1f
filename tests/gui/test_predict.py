"""Predict first is blind: while a question is open nothing on screen answers it."""

import pytest

from sqrtdk_gui.core.attention.compute import compute
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.lesson.content import STEPS
from sqrtdk_gui.core.lesson.predict import PREDICTIONS, compare, parse_guesses
from sqrtdk_gui.core.lesson.texts import REVEAL_MARK, before_reveal, lesson_text


def test_guesses_are_ascii_numbers_with_thousands_commas():
    assert parse_guesses("8, 20.5; 1,500 1e3") == [8.0, 20.5, 1500.0, 1000.0]
    assert parse_guesses("10,20,30") == [10.0, 20.0, 30.0]
    assert parse_guesses("٣ 4") == [4.0]  # other scripts' digits are not read as numbers
    assert parse_guesses("a lot") == [] and parse_guesses("nan inf") == []
    assert len(parse_guesses(" ".join(["1"] * 20))) == 8


def test_compare_gives_the_factor_off_either_way():
    assert compare([10.0, 40.0, 0.0], 20.0) == [(10.0, 2.0), (40.0, 2.0), (0.0, float("inf"))]


@pytest.mark.parametrize("number", sorted(PREDICTIONS))
def test_every_prediction_hides_existing_views_and_measures_the_step(number):
    prediction = PREDICTIONS[number]
    views = {"histogram", "weights", "jacobian", "gradient"}
    cells = {"sigma", "max_weight", "entropy", "jacobian", "saturated"}
    for target in prediction.hides:
        assert target in views or (target.startswith("summary.") and target[8:] in cells), target
    params = Params(**STEPS[number - 1].preset)
    value = prediction.measure(params)
    assert value > 0
    if number in (1, 4):  # the σ the summary strip shows for the step's parameters
        assert value == compute(params).logit_std


@pytest.mark.parametrize("number", sorted(PREDICTIONS))
def test_step_text_before_the_reveal_mark_does_not_quote_the_answer(number):
    text = lesson_text(STEPS[number - 1].resource)  # with its figures filled in
    assert REVEAL_MARK in text
    shown = before_reveal(text)
    value = PREDICTIONS[number].measure(Params(**STEPS[number - 1].preset))
    for quoted in {f"{value:.1f}", f"{value:.2f}", f"{value:.3f}", f"{value:.0f}"} - {"0", "1"}:
        assert quoted not in shown


@pytest.mark.parametrize("number", sorted(PREDICTIONS))
def test_an_open_question_hides_its_answer_and_reveal_shows_it(window, number):
    window.lesson.go_to(number)
    window.render_ready()
    prediction, step = PREDICTIONS[number], STEPS[number - 1]
    panels = {t for t in prediction.hides if not t.startswith("summary.")}
    cells = {t[8:] for t in prediction.hides if t.startswith("summary.")}
    later = {t for t in step.covers if not t.startswith("summary.")}  # a later question's answer
    later_cells = {t[8:] for t in step.covers if t.startswith("summary.")}
    for name, panel in window.panels.items():
        assert panel.veiled == (name in panels | later)
        if name in panels | later:
            assert panel.veil.isVisible() and panel.veil.geometry().contains(panel.readout_slot.geometry())
    for key, label in window.summary.labels.items():
        assert (label.text() == "?") == (key in cells | later_cells)
    assert not window.animator.running and not window.lesson_pane.answer_visible
    assert REVEAL_MARK not in window.lesson_pane.text.toHtml()

    window.lesson_pane.guesses.setText("1, 20, 3000")
    window.lesson_pane.reveal_button.click()
    window.render_ready()
    assert {n for n, p in window.panels.items() if p.veiled} == later  # still to come: covered
    assert {k for k, label in window.summary.labels.items() if label.text() == "?"} == later_cells
    assert window.lesson_pane.answer_visible
    measured = prediction.measure(Params(**STEPS[number - 1].preset))
    verdict = window.lesson_pane.verdict.text()
    assert f"{measured:,.{prediction.digits}f}".replace(",", "\u202f") in verdict
    best = min([1.0, 20.0, 3000.0], key=lambda g: max(g / measured, measured / g))
    assert f"<b>{best:g}: " in verdict
    assert not window.lesson_pane.guesses.isEnabled()
    # Leaving the step uncovers everything; coming back covers it again, with fresh guesses.
    window.lesson.choose_scenario("dmodel")
    assert not any(p.veiled for p in window.panels.values())
    window.lesson.go_to(number)
    assert window.lesson_pane.guesses.text() == "" and window.lesson_pane.guesses.isEnabled()
    assert any(p.veiled for p in window.panels.values()) == bool(panels | later)


def test_step_one_waits_at_its_start_behind_the_veil_then_plays(window, qtbot):
    window.lesson.go_to(1)
    assert window.controller.params.d_k == STEPS[0].animation.start and not window.animator.running
    window.lesson_pane.guesses.setFocus()
    window.lesson_pane.guesses.setText("20")
    window.lesson_pane.guesses.returnPressed.emit()  # Return in the box reveals too
    assert window.animator.running
    qtbot.waitUntil(lambda: not window.animator.running, timeout=15000)
    assert window.controller.params.d_k == STEPS[0].animation.end


def test_steps_without_a_question_are_not_veiled(window):
    window.lesson.go_to(5)
    assert window.lesson.revealed and not any(p.veiled for p in window.panels.values())


def test_slides_show_the_revealed_step(window, tmp_path):
    from sqrtdk_gui.gui.export.view import export_slides

    export_slides(window, str(tmp_path), (800, 500), lambda i, n, name: i < 1)
    assert not any(p.veiled for p in window.panels.values())  # restored to the intro afterwards


# --- readable on small projectors --------------------------------------------------------

@pytest.mark.parametrize("width,stacked", [(1024, True), (1920, False)])
def test_evidence_is_a_table_only_where_it_fits_unbroken(make_window, width, stacked):
    window = make_window(size=(width, 768))
    window.set_controls_visible(False)
    window.lesson.choose_scenario("stable_softmax")
    window.render_ready()
    html_text = window.lesson_pane.text.toHtml()
    assert ("<table" in html_text) != stacked
    plain = window.lesson_pane.text.toPlainText()
    assert "naive f16" in plain and "stable f32" in plain  # every row is there either way


def test_table_fits_measures_the_longest_cell():
    from PySide6.QtGui import QFont, QFontMetrics

    from sqrtdk_gui.core.lesson.page import Evidence
    from sqrtdk_gui.gui.lesson.pane import table_fits

    metrics = QFontMetrics(QFont())
    ev = Evidence(("a", "b"), (("1", "0.998"), ("2", "3.5e-3")))
    need = metrics.horizontalAdvance("1") + metrics.horizontalAdvance("0.998")
    assert table_fits(ev, metrics, 1000) and not table_fits(ev, metrics, need)
