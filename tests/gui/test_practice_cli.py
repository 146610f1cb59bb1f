"""``sqrtdk-gui practice --list [--json]``: the items, the progress and the schedule, for scripts."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone

from sqrtdk_gui.cli.main import main
from sqrtdk_gui.core.practice import BANK
from sqrtdk_gui.core.practice.schedule import Review
from sqrtdk_gui.core.practice.scoring import Attempt, progress_to_json
from sqrtdk_gui.gui.window.settings import Settings

NOW = datetime.now(timezone.utc)
# Five minutes ago, but never before today's local midnight: an "Again" then is due a day later,
# tomorrow, whenever the suite runs (a review at 23:58 would be due today, at 23:58).
TODAY = NOW.astimezone().replace(hour=0, minute=0, second=0, microsecond=0).astimezone(timezone.utc)
RECENT = max(NOW - timedelta(minutes=5), TODAY + timedelta(minutes=1))


def _settings(tmp_path):
    path = tmp_path / "sqrtdk-gui.ini"
    store = Settings(str(path))
    store.load()
    progress = {"chain_variance": Attempt(22.6, True, (Review(NOW - timedelta(days=5), 3, 6.0),)),  # due
                "chain_saturation": Attempt(0, False, (Review(RECENT, 1, 9.0),)),  # tomorrow
                "say_chain": Attempt((0, 1), False, (Review(NOW - timedelta(hours=1), 3, 80.0),), "q·k sums")}
    assert store.save_practice(progress_to_json(progress)) is None
    return path


def test_the_json_lists_every_item_with_its_progress_and_due_date(tmp_path, capsys):
    path = _settings(tmp_path)
    assert main(["practice", "--list", "--json", "--settings", str(path)]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["id"] for r in rows] == [q.key for q in BANK]
    by_id = {r["id"]: r for r in rows}
    assert by_id["chain_variance"] | {"due": None, "last_review": None} == {
        "id": "chain_variance", "kind": "number", "topic": "chain", "title": "How wide is a logit?",
        "answered": True, "correct": True, "reviews": 1, "last_review": None, "last_rating": 3, "due": None,
        "due_today": True}
    assert datetime.fromisoformat(by_id["chain_variance"]["due"]) < NOW  # 2 days after a Good 5 days ago
    assert not by_id["chain_saturation"]["due_today"] and by_id["chain_saturation"]["last_rating"] == 1
    assert by_id["say_chain"]["kind"] == "say" and by_id["say_chain"]["correct"] is False
    assert by_id["derive_peak"] == by_id["derive_peak"] | {"answered": False, "reviews": 0, "due": None,
                                                           "due_today": False, "correct": None}


def test_the_text_list_is_one_line_per_item(tmp_path, capsys):
    assert main(["practice", "--list", "--settings", str(_settings(tmp_path))]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == len(BANK)
    assert lines[0].startswith("✓ chain_variance") and lines[0].endswith("due today")
    assert "✗ chain_saturation" in lines[1] and " again " in lines[1]


def test_a_missing_or_unreadable_settings_file_is_one_line_and_status_2(tmp_path):
    bad = tmp_path / "bad.ini"
    bad.write_text("[practice]\nprogress=not json\n", encoding="utf-8")
    for path in (tmp_path / "missing.ini", bad):
        done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "practice", "--list", "--settings", str(path)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and done.stdout == "" and len(done.stderr.strip().splitlines()) == 1, done.stderr
        assert "Traceback" not in done.stderr


def test_the_concept_test_as_a_pdf_for_printing(tmp_path):
    from tests.gui.pdf_check import A4_POINTS, pdf_pages

    target = tmp_path / "test.pdf"
    done = subprocess.run([sys.executable, "-m", "sqrtdk_gui", "export-concept-test", str(target)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == str(target), done.stderr
    pages = pdf_pages(target.read_bytes())
    assert len(pages) >= 8 and set(pages) == {A4_POINTS}


def test_the_concept_test_as_json(tmp_path):
    target = tmp_path / "test.json"
    assert main(["export-concept-test", str(target)]) == 0
    rows = json.loads(target.read_text(encoding="utf-8"))
    assert [r["id"] for r in rows] == [q.key for q in BANK]
    by_id = {r["id"]: r for r in rows}
    assert by_id["chain_variance"]["band"] == [20.0, 25.0] and by_id["chain_saturation"]["answer_key"] == "D"
    assert len(by_id["derive_jacobian"]["steps"]) == 5 and by_id["bug_missing"]["fix"]
