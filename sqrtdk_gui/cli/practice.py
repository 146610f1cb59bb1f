"""``practice``: practice mode's items and the candidate's progress, for scripts (no window).

``sqrtdk-gui practice --list`` prints one line per item (its key, whether it is due, the
last rating); ``--json`` prints the rows of ``core.practice.listing.item_rows`` instead. The
progress is read from the settings file the window uses (``--settings FILE`` or
$SQRTDK_GUI_SETTINGS for another), never written (stored progress this version cannot read
is copied beside it, as the window does, and the command says where).
"""

from __future__ import annotations

import argparse
import json
import os
from datetime import datetime, timezone
from typing import Any

from sqrtdk_gui.core.i18n import _

__all__ = ["add_parser", "run_practice"]

SETTINGS_ENV = "SQRTDK_GUI_SETTINGS"
_RATINGS = {1: "again", 2: "hard", 3: "good", 4: "easy"}  # FSRS's names: stable for scripts


def add_parser(sub: Any) -> None:  # argparse's subparsers action
    """The ``practice`` subcommand."""
    practice = sub.add_parser("practice", help=_("list practice mode's items with their progress and due dates"),
                              description=_("List every practice item with where the candidate stands: "
                                            "answered, right, reviews, the last rating and the next review's "
                                            "date (no window; the progress is only read)."))
    practice.add_argument("--list", action="store_true", required=True,
                          help=_("list the items (one line each, or JSON with --json)"))
    practice.add_argument("--json", action="store_true", help=_("print the items as a JSON array"))
    practice.add_argument("--settings", metavar="FILE",
                          help=_("the settings file to read (default: the window's, or ${variable})").format(
                              variable=SETTINGS_ENV))
    practice.set_defaults(func=run_practice)


def run_practice(args: argparse.Namespace) -> int:
    from sqrtdk_gui.core.io.shared_state import PRACTICE
    from sqrtdk_gui.core.practice import BANK
    from sqrtdk_gui.core.practice.listing import item_rows
    from sqrtdk_gui.core.practice.progress import ProgressError, read_progress
    from sqrtdk_gui.core.practice.scoring import attempts
    from sqrtdk_gui.gui.window.settings import Settings

    settings = Settings(args.settings or os.environ.get(SETTINGS_ENV))
    if args.settings and not os.path.isfile(args.settings):
        raise ValueError(_("no settings file at {path}").format(path=args.settings))
    settings.load()  # a window's own warnings (its geometry, Open recent) do not concern the list
    if PRACTICE.key in settings.kept_aside:  # stored progress this version cannot read: say so, list none
        raise ValueError(_("the stored practice progress cannot be read; a copy is in {path}").format(
            path=settings.kept_aside[PRACTICE.key]))
    try:
        entries = read_progress(settings.practice)
    except ProgressError as exc:
        raise ValueError(str(exc)) from None
    rows = item_rows(attempts(entries, BANK), BANK, datetime.now(timezone.utc))
    if args.json:
        print(json.dumps(rows, ensure_ascii=False, indent=1))
        return 0
    width = max(len(str(r["id"])) for r in rows)
    for r in rows:
        state = "·" if r["correct"] is None else "✓" if r["correct"] else "✗"
        local = datetime.fromisoformat(str(r["due"])).astimezone().date().isoformat() if r["due"] else ""
        due = _("due today") if r["due_today"] else local  # the day in local time, as "today" is
        rating = _RATINGS.get(r["last_rating"], "")  # type: ignore[call-overload]
        print(f"{state} {str(r['id']):<{width}}  {r['topic']:<10}  {rating:<5}  {due}".rstrip())
    return 0
