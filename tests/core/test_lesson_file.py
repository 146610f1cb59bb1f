"""A teacher's lesson file: round trip, strict reading with one-line reasons, the plan's order."""

from __future__ import annotations

import json
import os

import pytest

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.io import lesson_file
from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS, scenario
from sqrtdk_gui.core.lesson.plan import FULL, PAGE_IDS, LessonPlan, PlanPage, find_page
from sqrtdk_gui.core.lesson.predict import measured

HEADER = '"format": "sqrtdk-gui lesson", "version": 1'


def _plan() -> LessonPlan:
    return LessonPlan(
        pages=(PlanPage(STEPS[2], params={"seed": 7}, question={"en": "Guess the ratio.", "de": "Raten!"}),
               PlanPage(scenario("qk_norm"), params={"seed": 3}),
               PlanPage(STEPS[0])),
        title="Attention in 20 minutes", hide=("more",), lock=("scaling", "d_k"))


def test_the_whole_lesson_and_a_teachers_plan_survive_a_round_trip(tmp_path):
    assert lesson_file.from_json(lesson_file.to_json(FULL)) == FULL
    plan = _plan()
    path = tmp_path / "lesson.json"
    lesson_file.save(plan, path)
    assert lesson_file.load(path) == plan
    data = json.loads(path.read_text(encoding="utf-8"))
    # Hand-editable: a page without changes is just its name.
    assert data["pages"][2] == "step:1" and data["pages"][1] == {"page": "qk_norm", "params": {"seed": 3}}
    assert data["lock"] == ["scaling", "d_k"] and plan.locked_fields == {"scaling", "d_k"}


def test_the_whole_lesson_is_every_page_in_the_shipped_order():
    assert [p.ident for p in FULL.pages] == list(PAGE_IDS)
    assert FULL.steps == STEPS and FULL.scenarios == SCENARIOS and FULL.is_full and not _plan().is_full


@pytest.mark.parametrize(("text", "reason"), [
    ("nope", "not a JSON file (Expecting value at line 1)"),
    ('{"format": "sqrtdk-gui preset", "version": 1}', 'not a sqrtdk-gui lesson (no "format": "sqrtdk-gui lesson")'),
    ('{"format": "sqrtdk-gui lesson", "version": 2, "pages": []}',
     "made by a newer sqrtdk-gui (lesson version 2; this one reads 1)"),
    ("{" + HEADER + "}", '"pages" must be a list, got null'),
    ("{" + HEADER + ', "pages": []}', '"pages" is empty: a lesson has at least one page'),
    ("{" + HEADER + ', "pages": ["step:9"]}', 'page 1: unknown page "step:9"; use step:1 to step:5 or one of'),
    ("{" + HEADER + ', "pages": ["step:1", "step:1"]}', "page step:1 is in the lesson twice"),
    ("{" + HEADER + ', "pages": [{"page": "qk_norm", "params": {"seed": -1}}]}',
     "qk_norm: bad parameter: seed=-1 is out of range: allowed 0..4294967295"),
    ("{" + HEADER + ', "pages": [{"page": "qk_norm", "params": {"gain": 2.0}}]}',
     "qk_norm quotes its own parameters: a lesson sets only its seed, not gain"),
    ("{" + HEADER + ', "pages": ["step:2"], "title": "\\udc80"}', '"title" is not valid text'),
    ("{" + HEADER + ', "pages": [{"page": "step:2", "question": {"de": "\\ud800?"}}]}',
     'step:2: "question.de" is not valid text'),
    ("{" + HEADER + ', "pages": [{"page": "step:2", "params": {"dk": 8}}]}', 'step:2: unknown parameter "dk"'),
    ("{" + HEADER + ', "pages": [{"page": "step:2", "params": {"seed": 3, "keys": 8}}]}',
     "step:2 quotes its own parameters: a lesson sets only its seed, not keys"),
    ("{" + HEADER + ', "pages": [{"page": "dmodel", "question": {"en": "Why?"}}]}', "dmodel: only a step asks"),
    ("{" + HEADER + ', "pages": [{"page": "step:2", "question": {"fr": "Pourquoi ?"}}]}',
     'step:2: unknown language "fr": use en, de, es, zh_CN'),
    ("{" + HEADER + ', "pages": [{"page": "step:2", "question": {"en": " "}}]}', "step:2: a question has 1 to 200"),
    ("{" + HEADER + ', "pages": ["step:2"], "lock": ["softmax"]}', 'unknown control "softmax" in "lock": use d_k,'),
    ("{" + HEADER + ', "pages": ["step:2"], "hide": "more"}', '"hide" must be a list, got "more"'),
    ("{" + HEADER + ', "pages": ["step:2"], "colour": "red"}', 'unknown entry "colour" in the lesson'),
    ("{" + HEADER + ', "pages": ["step:2"], "title": "' + "x" * 121 + '"}', "the title is longer than 120"),
    ("[" * 20 + "]" * 20, "not a sqrtdk-gui lesson (JSON nested more than 8 levels deep)"),
])
def test_a_file_that_is_not_a_usable_lesson_gets_one_line_saying_why(text, reason):
    with pytest.raises(lesson_file.LessonError) as caught:
        lesson_file.from_json(text)
    message = str(caught.value)
    assert message.startswith(reason) and "\n" not in message


def test_an_unreadable_file_is_refused_without_blocking(tmp_path):
    with pytest.raises(lesson_file.LessonError, match="no such file"):
        lesson_file.load(tmp_path / "missing.json")
    (tmp_path / "latin1.json").write_bytes(b'{"title": "\xe9"}')
    with pytest.raises(lesson_file.LessonError, match="not UTF-8"):
        lesson_file.load(tmp_path / "latin1.json")
    if hasattr(os, "mkfifo"):
        os.mkfifo(tmp_path / "fifo.json")
        with pytest.raises(lesson_file.LessonError, match="cannot read it"):
            lesson_file.load(tmp_path / "fifo.json")


def test_a_file_saved_over_an_old_one_replaces_it_whole_and_keeps_it_when_saving_fails(tmp_path):
    path = tmp_path / "lesson.json"
    path.write_text("old", encoding="utf-8")
    lesson_file.save(_plan(), path)
    assert lesson_file.load(path) == _plan()
    (tmp_path / "folder.json").mkdir()
    with pytest.raises(OSError):
        lesson_file.save(_plan(), tmp_path / "folder.json")
    assert lesson_file.load(path) == _plan()


def test_new_from_current_keeps_the_sample_on_the_page_on_screen():
    temperature = scenario("temperature")
    shown = Params(**temperature.preset).replace(seed=5)
    plan = lesson_file.from_current(FULL, temperature, shown, title="Monday")
    assert plan.entry(temperature).params == {"seed": 5} and plan.title == "Monday"
    assert [p.ident for p in plan.pages] == list(PAGE_IDS)
    assert all(not p.params for p in plan.pages if p.page != temperature)
    # Only the sample: the page's text quotes its d_k, keys and τ (and step 1's d_k on screen
    # is wherever its sweep was).
    step1 = STEPS[0]
    plan = lesson_file.from_current(FULL, step1, Params(**step1.preset).replace(d_k=40, keys=8, seed=3))
    assert plan.entry(step1).params == {"seed": 3}
    assert lesson_file.from_json(lesson_file.to_json(plan)) == plan
    # A title from a long file name fits the file's own limit, on one line.
    plan = lesson_file.from_current(FULL, None, Params(), title="a\nlong " * 40)
    assert len(plan.title) == lesson_file.MAX_TITLE and "\n" not in plan.title
    assert lesson_file.from_json(lesson_file.to_json(plan)).title == plan.title


def test_a_title_is_one_line_and_only_text_is_read():
    text = "{" + HEADER + ', "pages": ["step:2"], "title": "  Monday\\n  morning "}'
    assert lesson_file.from_json(text).title == "Monday morning"
    with pytest.raises(lesson_file.LessonError, match=r"^not a JSON text \(got int\)$"):
        lesson_file.from_json(12)  # type: ignore[arg-type]


def test_a_page_outside_the_plan_continues_with_the_next_page_the_plan_has():
    plan = _plan()  # step 3, qk_norm, step 1
    assert plan.after(STEPS[2]) == 1 and plan.before(STEPS[2]) == -1 and plan.after(STEPS[0]) == 3
    # Step 2 is not in it: after it comes the first planned page later in the whole lesson,
    # and back goes to the page before that one.
    assert plan.after(STEPS[1]) == 0 and plan.before(STEPS[1]) == -1
    assert plan.after(scenario("temperature")) == 1 and plan.before(scenario("temperature")) == 0
    assert plan.after(scenario("interview")) == 3 and plan.before(scenario("interview")) == 2
    # Its steps are counted within it; a step outside it as the whole lesson counts it.
    assert plan.position(STEPS[0]) == (2, 2) and plan.position(STEPS[2]) == (1, 2)
    assert plan.position(STEPS[4]) == (5, 5) and plan.position(STEPS[1]) == (2, 5)
    assert plan.nth_step(1) is STEPS[2] and plan.nth_step(2) is STEPS[0] and plan.nth_step(3) is None
    assert plan.entry(STEPS[1]) == PlanPage(STEPS[1])  # outside it: the page as shipped
    assert find_page("step:3") is STEPS[2]


def test_the_measured_answer_is_for_the_sample_the_lesson_sets():
    step2 = STEPS[1]  # the median largest weight over 256 queries: another sample, another median
    own = measured(2)
    assert own == measured(2, Params(**step2.preset))
    other = measured(2, Params(**{**step2.preset, "seed": 7}))
    assert other != own and abs(other - own) < 0.05 and 0.5 < other < 1.0
