"""Practice mode in the window: its key and palette entry, keyboard answers, the live case,
scores and retry, progress across windows, reset, bug cards, trap links and the concept test."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt, QUrl
from PySide6.QtWidgets import QAbstractItemView, QFileDialog

from sqrtdk_gui.core.lesson.content import SCENARIOS
from sqrtdk_gui.core.practice import BANK
from sqrtdk_gui.core.practice.scoring import progress_from_json
from sqrtdk_gui.gui.window.settings import Settings


def _practice(window, qtbot, key=False):
    if key:  # I, the command's key (the window must be the active one)
        qtbot.keyClick(window.live_page, Qt.Key.Key_I)
    else:
        window.actions.practice.trigger()
    assert window.practice.active()
    return window.practice.page


def test_the_key_opens_practice_with_the_instrument_and_gives_it_back(window, qtbot):
    page = _practice(window, qtbot, key=True)
    assert window.instrument.parent() is page.instrument_slot and window.lesson_dock.isHidden()
    assert all(p.veiled for p in window.panels.values())  # covered until the commitment
    qtbot.keyClick(page.number, Qt.Key.Key_I, Qt.KeyboardModifier.NoModifier)  # typing: not the command
    assert window.practice.active() and page.number.text() == "i"
    window.practice.toggle()
    assert window.live_active() and window.instrument.parent() is window.live_page
    assert not window.lesson_dock.isHidden() and not any(p.veiled for p in window.panels.values())


def test_the_palette_lists_practice_mode(window):
    entry = next(c for c in window.palette_host.commands() if c.title.startswith("Practice mode"))
    assert entry.shortcut == "I"
    entry.run()
    assert window.practice.active()


def test_a_number_answered_by_keyboard_reveals_the_measured_case(window, qtbot):
    page = _practice(window, qtbot)
    assert page.presenter.current is BANK[0] and page.number.hasFocus()
    qtbot.keyClicks(page.number, "22,6")
    qtbot.keyClick(page.number, Qt.Key.Key_Return)
    window.controller.flush()
    p = window.controller.params
    assert page.presenter.revealed and (p.d_k, p.scaling) == (512, "none")
    assert not any(panel.veiled for panel in window.panels.values())
    text = page.reveal.toPlainText()
    assert "✓ Right" in text and "What the interviewer is testing" in text and f"seed {p.seed}" in text
    assert f"{window.controller.result.logit_std:.2f}" in text  # the panels' own number
    assert page.next_button.hasFocus()
    # The same case in every sample joins the reveal from a worker; the focus stays put.
    qtbot.waitUntil(lambda: "inside the accepted band in 8 of 8" in page.reveal.toPlainText(), timeout=10_000)
    assert page.next_button.hasFocus()
    qtbot.keyClick(page.next_button, Qt.Key.Key_Return)
    assert page.presenter.current.key == "chain_saturation" and not page.presenter.revealed
    window.undo.stack.undo()  # the case was one undo step
    assert window.controller.params.d_k != 512 or window.controller.params.scaling != "none"


def test_choices_by_keys_scores_and_retry_missed(window, qtbot):
    page = _practice(window, qtbot)
    page.presenter.open("chain_saturation")
    qtbot.keyClick(page.options, Qt.Key.Key_1)  # "about 1/64": wrong, committed at once
    assert page.presenter.revealed and "✗ Not quite" in page.reveal.toPlainText()
    assert "Why not that one: 1/64 is what a spread near 0 gives." in page.reveal.toPlainText()
    assert page.retry_button.isEnabled() and "(1)" in page.retry_button.text()
    assert "Chain <b>0</b>/4" in page.scores.text()
    page.retry_button.click()
    assert page.presenter.current.key == "chain_saturation" and not page.presenter.revealed
    # A second showing has the options shuffled, lettered as shown: the answer, not its letter.
    shown = [page.options.item(i).data(Qt.ItemDataRole.UserRole) for i in range(page.options.count())]
    assert sorted(shown) == [0, 1, 2, 3] and shown != [0, 1, 2, 3]
    row = shown.index(3)
    assert page.options.item(row).text().startswith("ABCD"[row])
    for _ in range(row):
        qtbot.keyClick(page.options, Qt.Key.Key_Down)
    qtbot.keyClick(page.options, Qt.Key.Key_Return)
    assert "✓ Right" in page.reveal.toPlainText() and not page.retry_button.isEnabled()
    assert f"You: {'ABCD'[row]} · More than 0.9" in page.reveal.toPlainText()


def test_a_rehearsal_from_the_keyboard_alone(window, qtbot, monkeypatch):
    page = _practice(window, qtbot)
    page.presenter.open("say_temperature")
    panel = page.rehearsal
    assert page.answer_stack.currentWidget() is panel and panel.start_button.hasFocus()
    assert panel.clock.text() == "1:00" and not page.commit_button.isVisible()
    assert all(p.veiled for p in window.panels.values())  # nothing shown before the answer
    qtbot.keyClick(panel.start_button, Qt.Key.Key_Return)
    assert panel.state == "running" and panel.typed.hasFocus()
    qtbot.keyClicks(panel.typed, "They multiply into one effective sigma")
    monkeypatch.setattr(panel, "seconds", lambda: 65.0)  # a minute and five seconds on its clock
    panel._show_clock()
    assert panel.clock.text() == "+0:05"  # overtime counts on, never cuts the candidate off
    qtbot.keyClick(panel.typed, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert panel.state == "done" and panel.rubric.hasFocus() and panel.ticked() == [0]
    assert "Model answer" in page.reveal.toPlainText() and "1:05 of 1:00" in panel.rate_label.text()
    assert "word match" in panel.rate_label.text()
    qtbot.keyClick(panel.rubric, Qt.Key.Key_Down)
    qtbot.keyClick(panel.rubric, Qt.Key.Key_Return)  # ticks the second link
    assert panel.ticked() == [0, 1]
    qtbot.keyClick(panel.rubric, Qt.Key.Key_3)  # Good
    text = page.reveal.toPlainText()
    assert "Rated Good: you said 2 of 3 links" in text and "Left out:" in text and "Next review:" in text
    assert page.next_button.hasFocus() and window.controller.params.temperature == 8.0  # raw logits at τ = 8
    # Until the case is computed the panels say so, rather than show the previous one.
    assert all(p.veiled and p.veil.text() == "Measuring this case…" for p in window.panels.values())
    window.controller.flush()
    assert not any(p.veiled for p in window.panels.values())
    stored = page.presenter.progress["say_temperature"]
    assert stored.answer == (0, 1) and stored.reviews[-1].rating == 3 and stored.reviews[-1].seconds == 65.0


def test_a_derivation_from_the_keyboard_alone(window, qtbot):
    page = _practice(window, qtbot)
    page.presenter.open("derive_jacobian")
    assert page.options.hasFocus() and "Step 1 of 5" in page.prompt.text()
    qtbot.keyClick(page.options, Qt.Key.Key_1)  # pᵢ(δᵢⱼ − pⱼ), committed at once
    assert page.number.hasFocus() and "✓ ∂pᵢ/∂zⱼ = pᵢ(δᵢⱼ − pⱼ)" in page.prompt.text()
    for typed in ("0,21", "-0.14", "0.3"):  # the last is wrong: rows sum to 0
        qtbot.keyClicks(page.number, typed)
        qtbot.keyClick(page.number, Qt.Key.Key_Return)
    assert "✗ Σⱼ Jᵢⱼ = pᵢ(1 − Σⱼ pⱼ) = 0" in page.prompt.text() and "(you: 0.3)" in page.prompt.text()
    assert all(p.veiled for p in window.panels.values())  # the case stays covered until the end
    qtbot.keyClick(page.options, Qt.Key.Key_1)
    text = page.reveal.toPlainText()
    assert "✗ Not quite. You: 4 of 5 steps right" in text and "The derivation:" in text
    assert "largest gap to the model's softmax" in text
    window.controller.flush()  # the case computed: the panels open
    assert not any(p.veiled for p in window.panels.values())
    assert page.prompt.text() == "Derive J = diag(p) − ppᵀ and evaluate it."


def test_a_mock_interview_from_the_button_to_its_summary(window, qtbot):
    page = _practice(window, qtbot)
    page.interview_button.click()
    assert page.position.text().startswith("Say it · Mock interview · 1 of 7")
    assert page.rehearsal.start_button.hasFocus()
    for _ in range(7):  # every question skipped: each counts as missed
        page.next_button.click()
    text = page.reveal.toPlainText()
    assert page.title.text() == "How the interview went" and "0 of 7 answered right" in text
    assert "Review before the real one" in text and page.next_button.hasFocus()
    window.render_ready()  # a late measurement does not replace the summary
    assert page.title.text() == "How the interview went" and "0 of 7 answered right" in page.reveal.toPlainText()
    page.next_button.click()  # practice goes on
    assert page.presenter.interview is None and not page.presenter.revealed


def test_a_long_code_cards_lines_from_10_on_are_picked_by_two_digits(window, qtbot):
    page = _practice(window, qtbot)
    page.presenter.open("bug_head_embd")  # 13 lines; line 11 is the faulty one
    assert page.options.count() == 13 and "(12: 1 then 2)" in page.hint.text()
    qtbot.keyClick(page.options, Qt.Key.Key_1)
    assert not page.presenter.revealed and page.options.currentRow() == 0  # line 1, or the 1 of 1x
    qtbot.keyClick(page.options, Qt.Key.Key_1)
    assert page.presenter.revealed and "✓ Right" in page.reveal.toPlainText()
    page.presenter.open("bug_vit_dim")  # 14 lines: 1 alone commits line 1 once the wait is over
    qtbot.keyClick(page.options, Qt.Key.Key_1)
    qtbot.waitUntil(lambda: page.presenter.revealed, timeout=5000)
    assert "You: line 1:" in page.reveal.toPlainText()
    page.presenter.open("bug_scale_divided")  # 12 lines: 7 cannot begin a line number, so it commits at once
    qtbot.keyClick(page.options, Qt.Key.Key_7)
    assert page.presenter.revealed and "You: line 7:" in page.reveal.toPlainText()


def test_nothing_left_running_moves_on_by_itself(window, qtbot):
    page = _practice(window, qtbot)
    page.presenter.open("bug_head_embd")
    qtbot.keyClick(page.options, Qt.Key.Key_1)  # line 1, or the 1 of 1x ...
    qtbot.keyClick(page.options, Qt.Key.Key_Return)  # ... committed as line 1
    assert page.presenter.revealed and page.presenter.current.key == "bug_head_embd"
    qtbot.wait(2 * page.options.LINE_WAIT_MS)  # the wait for a second digit does not commit again
    assert page.presenter.revealed and page.presenter.current.key == "bug_head_embd"
    page.presenter.open("say_chain")
    page.rehearsal.start()
    page.presenter.open("chain_variance")  # a rehearsal left running: its clock stops
    assert page.rehearsal.state == "ready" and not page.rehearsal._tick.isActive()
    page.interview_button.click()
    page.presenter.finish_rehearsal("", 30.0)
    rect = page.items.visualItemRect(page.items.currentItem())  # the interview's item, clicked
    qtbot.mouseClick(page.items.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    qtbot.keyClick(page.items, Qt.Key.Key_Return)
    assert page.presenter.interview is not None and page.rehearsal.rubric.count() == 8


def test_a_ranking_by_keys(window, qtbot):
    page = _practice(window, qtbot)
    page.presenter.open("fu_long_context")  # shown: ÷√d_k, ÷√n, × log n; right: log n, ÷√d_k, ÷√n
    # With the mouse the items are dragged (a real drag: test_xvfb.py); here the keys move them.
    assert page.options.dragDropMode() == QAbstractItemView.DragDropMode.InternalMove
    page.options.setCurrentRow(2)
    qtbot.keyClick(page.options, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(page.options, Qt.Key.Key_Up, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(page.options, Qt.Key.Key_Return)
    assert "✓ Right" in page.reveal.toPlainText()
    assert window.controller.params.keys == 16384


def test_a_bug_card_picked_by_number_loads_its_trap(window, qtbot):
    page = _practice(window, qtbot)
    page.presenter.open("bug_vit_after")
    assert page.kind == "line" and page.options.count() == 9
    assert page.options.dragDropMode() == QAbstractItemView.DragDropMode.NoDragDrop
    qtbot.keyClick(page.options, Qt.Key.Key_7)
    window.controller.flush()
    text = page.reveal.toPlainText()
    assert "✓ Right" in text and "F.softmax(energy / scaling, dim=-1)" in text
    assert "FrancescoSaverioZuppichini/ViT #5, reported there and still open" in text  # not a fix
    assert window.controller.params.scaling == "after_softmax"
    assert f"{float(window.controller.result.row_sums[0]):.4f}"[:5] in text  # the row sum shown is the model's
    page.presenter.open("bug_missing")
    qtbot.keyClick(page.options, Qt.Key.Key_4)  # the stable softmax's line: wrong
    text = page.reveal.toPlainText()
    assert "Illustrative, not from a cited fix" in text
    # The code stays after the reveal: the faulty line struck out, its fix below it, the pick marked.
    # (a table: number, then code, each a cell)
    assert "−  3 \n    scores = q @ k.T\n+  3 \n    scores = q @ k.T / np.sqrt(d_k)\n›  4 \n" in text


def test_a_card_shown_as_a_temperature_says_so_and_measures_its_factor(window, qtbot):
    # ÷√num_heads (12 heads of 64) is raw logits at temperature √12: the panels' σ is 8/√12.
    page = _practice(window, qtbot)
    page.presenter.open("bug_num_heads")
    qtbot.keyClick(page.options, Qt.Key.Key_6)
    window.controller.flush()
    p, r = window.controller.params, window.controller.result
    assert (p.scaling, p.d_k) == ("none", 64) and abs(p.temperature - 12 ** 0.5) < 1e-9
    assert abs(r.logit_std - 8 / 12 ** 0.5) < 0.15
    window.render_ready()  # the spread is measured here if the worker has not yet
    text = page.reveal.toPlainText()
    assert "✓ Right" in text and "temperature √12" in text and f"{r.logit_std:.3f}"[:4] in text
    assert "the fix tenstorrent/tt-metal PR #56789" in text and "gives this answer in 8 of 8" in text


def test_a_trap_page_links_to_its_bug_card(window, qtbot):
    window.lesson.choose_scenario("dmodel")
    assert 'href="bug:bug_head_embd"' in window.lesson_pane.text.toHtml()
    window.lesson_pane._follow_link(QUrl("bug:bug_head_embd"))
    assert window.practice.active() and window.practice.page.presenter.current.key == "bug_head_embd"
    for s in SCENARIOS:
        if s.kind == "trap" and s.key != "small_heads":
            window.lesson.choose_scenario(s.key)
            assert "bug:bug_" in window.lesson_pane.text.toHtml(), s.key


def test_progress_persists_across_windows_and_reset_all_clears_it(make_window, qtbot, tmp_path):
    ini = str(tmp_path / "settings.ini")
    settings = Settings(ini)
    settings.load()
    first = make_window()
    first.practice.set_store(settings)
    page = _practice(first, qtbot)
    qtbot.keyClicks(page.number, "8")
    qtbot.keyClick(page.number, Qt.Key.Key_Return)
    first.close()
    again = Settings(ini)
    again.load()
    second = make_window()
    second.practice.set_store(again)
    page = _practice(second, qtbot)
    assert page.presenter.progress["chain_variance"].answer == 8.0
    assert page.presenter.current.key == "chain_saturation" and page.retry_button.isEnabled()
    assert second.reset_all_settings(confirm=False)
    assert page.presenter.progress == {}
    third = Settings(ini)
    third.load()
    assert '"answers": {}' in third.practice


def _loaded(path) -> Settings:
    settings = Settings(str(path))
    settings.load()
    return settings


def _quit(window, settings) -> None:
    """What the launcher does when a window closes: its settings saved."""
    assert settings.save(window.saveGeometry(), window.current_state(), window.recent.paths) is None


def test_two_windows_on_one_settings_file_keep_every_answer(make_window, qtbot, tmp_path):
    """Window A answers an item and stays open; window B answers another and quits; A
    answers a third and quits last: all three answers are in the file."""
    ini = tmp_path / "settings.ini"
    store_a, store_b = _loaded(ini), _loaded(ini)
    a, b = make_window(), make_window()
    a.practice.set_store(store_a)
    b.practice.set_store(store_b)
    page_a, page_b = _practice(a, qtbot), _practice(b, qtbot)
    page_a.presenter.open("chain_variance")
    page_a.presenter.commit_number("22.6")
    page_b.presenter.open("chain_saturation")
    page_b.presenter.commit_choice(3)
    _quit(b, store_b)
    assert set(progress_from_json(_loaded(ini).practice, BANK)) == {"chain_variance", "chain_saturation"}
    page_a.presenter.open("trap_dmodel")
    page_a.presenter.commit_choice(1)
    _quit(a, store_a)
    stored = progress_from_json(_loaded(ini).practice, BANK)
    assert set(stored) == {"chain_variance", "chain_saturation", "trap_dmodel"}
    assert stored["chain_variance"].answer == 22.6 and stored["chain_saturation"].correct


# One program's settings as a window uses them: it answers an item and opens a preset, waits
# for a line on stdin (while another process runs), then saves as it quits.
_ONE_PROGRAM = """
import sys
from PySide6.QtCore import QByteArray
from sqrtdk_gui.core.io.presets import State
from sqrtdk_gui.core.practice.scoring import Attempt, progress_from_json, progress_to_json
from sqrtdk_gui.core.practice import BANK
from sqrtdk_gui.gui.window.settings import Settings

ini, item, answer, preset = sys.argv[1:]
settings = Settings(ini)
settings.load()
progress = progress_from_json(settings.practice, BANK)
progress[item] = Attempt(int(answer), True)
assert settings.save_practice(progress_to_json(progress)) is None
print("answered", flush=True)
sys.stdin.readline()
assert settings.save(QByteArray(), State(), [preset, *settings.recent]) is None
"""


def test_two_programs_on_one_settings_file_keep_both_answers_and_both_recent_files(tmp_path):
    """Two real processes: A answers and stays open, B answers another item and quits, then
    A quits; both answers and both presets are in the file."""
    ini = str(tmp_path / "settings.ini")
    a = subprocess.Popen([sys.executable, "-c", _ONE_PROGRAM, ini, "chain_saturation", "3", "/a.json"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert a.stdout.readline() == "answered\n"
        subprocess.run([sys.executable, "-c", _ONE_PROGRAM, ini, "trap_dmodel", "1", "/b.json"], input="\n",
                       text=True, check=True, capture_output=True, timeout=120)
        a.communicate("\n", timeout=120)
    finally:
        a.kill()
    assert a.returncode == 0
    settings = _loaded(ini)
    assert set(progress_from_json(settings.practice, BANK)) == {"chain_saturation", "trap_dmodel"}
    assert settings.recent == ["/a.json", "/b.json"]


def test_a_reset_in_one_window_forgets_what_it_knew_and_keeps_what_another_answered_since(make_window, qtbot,
                                                                                         tmp_path):
    ini = tmp_path / "settings.ini"
    first = _loaded(ini)
    first.save_practice('{"answers": {"chain_variance": {"answer": 22.6, "correct": true}}, "version": 1}')
    store_a, store_b = _loaded(ini), _loaded(ini)
    a = make_window()
    a.practice.set_store(store_a)
    store_b.save_practice('{"answers": {"chain_variance": {"answer": 22.6, "correct": true}, '
                          '"trap_dmodel": {"answer": 1, "correct": true}}, "version": 1}')
    assert a.reset_all_settings(confirm=False)
    _quit(a, store_a)
    assert set(progress_from_json(_loaded(ini).practice, BANK)) == {"trap_dmodel"}


def _stored_progress(path, text: str) -> None:
    qs = QSettings(str(path), QSettings.Format.IniFormat)
    qs.setValue("practice/progress", text)
    qs.sync()
    del qs


@pytest.mark.parametrize(("stored", "reason"), [
    ('{"version": 1, "answers": {"chain_variance": {"answer": ' + "9" * 4000 + ', "correct": false}}}',
     "a number with 4,000 digits"),
    ("not json", "not JSON"),
    ('["chain_variance"]', "not a JSON object"),
    ('{"version": 1, "answers": {"chain_variance": "' + "x" * 900_000 + '"}}', "more than 262,144 characters"),
    ('{"version": 3, "answers": {"chain_variance": {"answer": 22.6}}, "reviews": [[1, 2]]}',
     "made by a newer sqrtdk-gui"),
])
def test_stored_progress_that_cannot_be_read_is_kept_aside_and_practice_still_works(make_window, qtbot, tmp_path,
                                                                                      stored, reason):
    ini = tmp_path / "settings.ini"
    _stored_progress(ini, stored)
    settings = Settings(str(ini))
    _geometry, _state, warning = settings.load()
    assert warning.startswith("practice progress in ") and reason in warning and "\n" not in warning
    kept = Path(settings.kept_aside["practice/progress"])
    assert kept.parent == tmp_path and str(kept) in warning
    assert kept.read_text(encoding="utf-8") == stored
    window = make_window()
    window.practice.set_store(settings)
    page = _practice(window, qtbot)  # a huge number raised OverflowError here and left the page half built
    assert page.presenter.progress == {} and page.presenter.current is BANK[0]
    page.presenter.commit_number("22.6")
    assert page.presenter.revealed and "✓ Right" in page.reveal.toPlainText()
    _quit(window, settings)
    again = Settings(str(ini))
    assert again.load()[2] is None  # the next start reads the new progress without a word
    assert set(progress_from_json(again.practice, BANK)) == {"chain_variance"}
    assert kept.read_text(encoding="utf-8") == stored  # the answer did not replace the original


def test_progress_that_can_be_neither_read_nor_kept_aside_is_never_written_over(tmp_path, monkeypatch):
    import errno

    from PySide6.QtCore import QByteArray

    from sqrtdk_gui.core.io import presets, safe_io
    from sqrtdk_gui.gui.window import settings as settings_module

    def refuse(*args):
        raise safe_io.IOFailure(errno.EROFS, "write", str(tmp_path / "copy.txt"), "Read-only file system")

    ini = tmp_path / "settings.ini"
    _stored_progress(ini, "not json")
    monkeypatch.setattr(settings_module, "keep_aside", refuse)
    settings = Settings(str(ini))
    warning = settings.load()[2]
    assert "could not be read (not JSON) nor copied aside" in warning and "Read-only file system" in warning
    answered = '{"answers": {"chain_variance": {"answer": 22.6, "correct": true}}, "version": 1}'
    assert settings.save_practice(answered).startswith("practice progress not saved: cannot write")
    # The window's own settings are still saved as it closes; the progress is still not written over.
    assert settings.save(QByteArray(), presets.State(step=2)).startswith("practice progress not saved")
    qs = QSettings(str(ini), QSettings.Format.IniFormat)
    assert qs.value("practice/progress") == "not json" and '"step": 2' in qs.value("state/preset")


def test_export_concept_test_from_the_file_menu(window, tmp_path, monkeypatch):
    target = tmp_path / "test.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    window.actions.export_concept_test.trigger()
    text = target.read_text(encoding="utf-8")
    assert text.startswith("# Why divide") and "## Answer key" in text and "Spot the bug" in text


def _words_fit(label):
    """Every word of a (word-wrapped) label fits its width: nothing is cut at its sides."""
    metrics, width = label.fontMetrics(), label.contentsRect().width()
    return all(metrics.horizontalAdvance(word) <= width for word in label.text().split())


def test_practice_fits_a_1024x768_projector_at_the_presentation_zoom(make_window):
    # Nothing clipped or scrolled sideways, every title readable in full, and after each
    # reveal its essentials (the verdict, the answer, what is tested) above the fold and
    # one panel large enough to read.
    from PySide6.QtWidgets import QApplication, QPushButton

    from sqrtdk_gui.gui.window.presentation import presentation_zoom

    window = make_window(size=(1024, 768), zoom=presentation_zoom(768), threaded=False)
    window.actions.practice.trigger()
    page = window.practice.page
    items = page.items
    assert items.wordWrap() and items.horizontalScrollBar().maximum() == 0
    for row in range(items.count()):
        words = items.item(row).text().split()
        assert all(items.fontMetrics().horizontalAdvance(w) <= items.viewport().width() for w in words)
    for q in BANK:
        page.presenter.open(q.key)
        QApplication.processEvents()
        for button in page.findChildren(QPushButton):
            if button.isVisible():
                text = button.text().replace("&", "")
                assert button.width() >= button.fontMetrics().horizontalAdvance(text) + 8, (q.key, text)
        assert page.options.horizontalScrollBar().maximum() == 0, q.key
        if q.kind == "line":
            assert page.options.font().pointSize() >= round(page.CODE_MIN_SCALE * window.style_.pt(9.5))
        if q.kind == "say":  # the clock, then the rubric: every link readable, the rating at hand
            page.commit()
            page.commit()
            QApplication.processEvents()
            rubric = page.rehearsal.rubric
            last = rubric.visualItemRect(rubric.item(rubric.count() - 1))
            assert last.bottom() <= rubric.viewport().height(), q.key
            assert all(b.isVisible() for b in page.rehearsal.rate_buttons.values())
            for button in page.rehearsal.rate_buttons.values():
                text = button.text().replace("&", "")
                assert button.width() >= button.fontMetrics().horizontalAdvance(text) + 8, (q.key, text)
            page.rehearsal.rate(3)
        elif q.kind == "derive":  # every step: its prompt below the lines so far, its answer box in view
            for step in q.steps:
                QApplication.processEvents()
                box = page.number if step.kind == "number" else page.options
                bottom = box.mapTo(page, box.rect().bottomLeft()).y()
                assert box.isVisible() and bottom <= page.height(), (q.key, step.prompt)
                if step.kind == "choice":  # every option in view, none scrolled sideways
                    assert page.options.verticalScrollBar().maximum() == 0, (q.key, step.prompt)
                    assert page.options.horizontalScrollBar().maximum() == 0, (q.key, step.prompt)
                if step.kind == "number":
                    page.number.setText(str(sum(step.band) / 2))
                else:
                    page.options.setCurrentRow(0)
                page.commit()
        elif q.kind == "number":
            page.number.setText("1")
            page.commit()
        else:
            page.options.setCurrentRow(0)
            page.commit()
        QApplication.processEvents()
        window.render_ready()
        # Two panels one above the other would leave neither plot readable: the item's first.
        assert sum(panel.isVisible() for panel in window.panels.values()) == 1, q.key
        summary = window.summary
        for key, caption in summary.captions.items():
            assert _words_fit(caption), (q.key, caption.text())
            value = summary.labels[key]
            assert value.fontMetrics().horizontalAdvance(value.text()) <= value.width(), (q.key, key)
        doc = page.reveal.document()
        block = doc.begin()
        while "What the interviewer is testing" not in block.text():
            block = block.next()
        bottom = doc.documentLayout().blockBoundingRect(block).bottom()
        assert bottom <= page.reveal.viewport().height(), q.key
        assert block.position() < doc.find("Measured by the model").position()  # the table after it


def test_nothing_on_screen_gives_the_answer_away_before_the_commitment(window, qtbot):
    page = _practice(window, qtbot)
    page.presenter.open("chain_variance")
    page.number.setText("22.6")
    page.commit()
    window.render_ready()
    assert window.status_label.isVisible() and "d_k = 512" in window.status_label.text()
    assert window.panels["histogram"].title.text() == "1 · Logit histogram (raw)"  # the case's own mode
    # One click opens the next item; the status line would name the last case, the "?"s a colour.
    rect = page.items.visualItemRect(next(page.items.item(i) for i in range(page.items.count())
                                          if page.items.item(i).data(Qt.ItemDataRole.UserRole) == "trap_dmodel"))
    qtbot.mouseClick(page.items.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert page.presenter.current.key == "trap_dmodel" and not page.presenter.revealed
    assert not window.status_label.isVisible()
    fg = window.style_.palette.fg
    assert all(label.text() == "?" and fg in label.styleSheet() for label in window.summary.labels.values())
    # The panels: covered for one who answers alone, under titles that name no scaling (the
    # histogram's own title names the mode of the case on screen).
    histogram = window.panels["histogram"]
    assert histogram.veiled and histogram.veil.text() == "Answer first\n\nshown once you commit"
    assert histogram.title.text() == "1 · Logit histogram (the softmax input)"
    qtbot.keyClick(page.options, Qt.Key.Key_2)
    window.render_ready()
    assert window.status_label.isVisible() and not any(label.text() == "?" for label in window.summary.labels.values())
    window.practice.toggle()
    assert window.status_label.isVisible()


def test_practice_keys_are_in_the_sheet_the_lesson_menu_and_the_palette(window, qtbot):
    from sqrtdk_gui.gui.window.commands import shortcut_sheet

    sheet = dict(shortcut_sheet())
    assert sheet["Alt+D"] and sheet["Alt+K"] and sheet["Alt+T"]
    assert window.actions.practice_interview.text().endswith("\tAlt+K")
    window.palette_host.show()
    palette = window.palette_host.open
    qtbot.keyClicks(palette.field, "mock interview")
    assert palette.current().title.startswith("Practice: mock interview")
    qtbot.keyClick(palette.field, Qt.Key.Key_Return)
    assert window.practice.active() and window.practice.page.presenter.interview == []
    assert window.practice.page.presenter.current.key == "say_chain"  # the main question, out loud
    window.actions.practice_retry.trigger()  # nothing missed yet: it says so
    assert "Nothing to retry" in window.practice.page.problem.text()


def test_the_pointer_is_busy_while_an_answer_is_measured(window, qtbot):
    from dataclasses import replace

    from PySide6.QtWidgets import QApplication

    page = _practice(window, qtbot)
    page.presenter.open("fu_long_context")
    seen, q = [], page.presenter.current
    page.presenter.current = replace(q, measure=lambda p: seen.append(QApplication.overrideCursor().shape())
                                     or q.measure(p))
    page.presenter.commit_ranking([2, 0, 1])
    assert seen == [Qt.CursorShape.BusyCursor] and QApplication.overrideCursor() is None


def test_a_bug_cards_diff_is_a_hunk_around_the_fault_and_the_pick(window):
    from PySide6.QtGui import QTextDocument

    from sqrtdk_gui.core.practice import find
    from sqrtdk_gui.gui.practice.reveal_html import code_diff

    card = find("bug_twice")  # 14 lines, the fault on line 13
    doc = QTextDocument()
    doc.setHtml(code_diff(card, 1, window.style_.palette))  # picked line 2: far from it
    text = doc.toPlainText()
    assert "›  2" in text and "−  13" in text.replace("− 13", "−  13") and "+ 13" in text
    assert "self.kv_proj = nn.Linear" not in text and text.count("⋮") == 1  # lines 6-10 left out
    doc.setHtml(code_diff(card, None, window.style_.palette))  # the fault alone: lines 11-14
    assert "\nq = self.split_heads(" in doc.toPlainText()  # the hunk's common indentation removed


@pytest.mark.parametrize("lang", ["de", "es", "zh_CN"])
def test_a_revealed_bug_card_is_read_whole_at_1024x768_in_every_language(make_window, lang):
    # The summary's captions beside the reveal (German compounds: "Maximalgewicht"), and code
    # keeps its decimal points where prose takes the language's mark.
    from sqrtdk_gui.gui.launch import translations
    from sqrtdk_gui.gui.window.presentation import presentation_zoom

    translations.install(lang)
    try:
        window = make_window(size=(1024, 768), zoom=presentation_zoom(768), threaded=False)
        window.actions.practice.trigger()
        page = window.practice.page
        page.presenter.open("bug_twice")
        page.presenter.commit_choice(10)
        window.render_ready()
        for key, caption in window.summary.captions.items():
            assert _words_fit(caption), (key, caption.text())
        text = page.reveal.toPlainText()
        assert "scale=1.0)" in text and "scale=1,0" not in text
    finally:
        translations.install("en")


def test_a_practice_case_computed_late_leaves_the_lesson_covered(window, qtbot):
    # The lesson's open question stays covered when a practice case arrives after leaving
    # practice; while measuring, the summary shows no previous numbers either.
    window.lesson.go_to(2, animate=False)
    assert window.panels["weights"].veiled
    page = _practice(window, qtbot)
    page.presenter.open("chain_variance")
    page.presenter.commit_number("16")
    assert all(label.text() == "?" for label in window.summary.labels.values())  # measuring
    window.practice.toggle()  # back to the lesson before the case is computed
    window.controller.flush()
    assert window.panels["weights"].veiled and not window.practice.active()
