"""The stored practice progress as text: read strictly, written back unchanged (stdlib only).

The text (kept in the settings file) is ``{"version": 2, "answers": {key: entry}}``, an entry
being ``{"answer": …, "correct": bool, "reviews": [[time, rating, seconds], …]}`` (the review
history ``schedule`` rebuilds the due date from; a *Say it* rehearsal adds the ``"typed"``
text). Version 1, the same without the history, is read too. ``read_progress`` takes nothing
but that shape:
anything else — not JSON, another type, longer than ``MAX_CHARS``, a number longer than any
answer (a 4,000-digit integer would overflow a float later), a newer version's format — is
refused with one sentence (``ProgressError``), so that the caller can keep the text aside
instead of writing the next answer over it. The entries come back as they are stored,
including items this program's bank does not have (a newer version's), so that saving the
progress again does not lose them; ``scoring`` grades the entries against the bank.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping

from sqrtdk_gui.core.i18n import _

__all__ = ["PROGRESS_VERSION", "MAX_CHARS", "ProgressError", "read_progress", "progress_text"]

PROGRESS_VERSION = 2
MAX_CHARS = 256 * 1024  # 41 items with 30 reviews each and a typed rehearsal take about 100 KB
# The longest number an answer is written as: a float's repr ("-1.2345678901234567e-308") is 24.
_MAX_NUMBER_CHARS = 32


class ProgressError(ValueError):
    """Stored progress that cannot be read; the message is one sentence for the user."""


def _number(text: str) -> float:
    if len(text) > _MAX_NUMBER_CHARS:
        raise ProgressError(_("a number with {count} digits").format(count=f"{len(text):,}"))
    value = float(text)
    if not math.isfinite(value):
        raise ProgressError(_("a number too large to be an answer"))
    return value


def _integer(text: str) -> int:
    _number(text)  # the same limits as any number
    return int(text)


def _constant(name: str) -> float:
    raise ProgressError(_("{name} is not an answer").format(name=name))


def read_progress(text: object) -> dict[str, object]:
    """The stored entries by item key; ``ProgressError`` says why ``text`` is not progress."""
    if not isinstance(text, str):
        raise ProgressError(_("not a text"))
    if len(text) > MAX_CHARS:
        raise ProgressError(_("more than {count} characters").format(count=f"{MAX_CHARS:,}"))
    try:
        data = json.loads(text, parse_int=_integer, parse_float=_number, parse_constant=_constant)
    except RecursionError:
        raise ProgressError(_("JSON nested too deeply")) from None
    except ProgressError:
        raise
    except ValueError:
        raise ProgressError(_("not JSON")) from None
    if not isinstance(data, dict):
        raise ProgressError(_("not a JSON object"))
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise ProgressError(_("no version number"))
    if version > PROGRESS_VERSION:
        raise ProgressError(_("made by a newer sqrtdk-gui (progress version {version}; this one reads "
                              "{known})").format(version=version, known=PROGRESS_VERSION))
    if version not in (1, PROGRESS_VERSION):  # 1: the same entries without a review history
        raise ProgressError(_("unknown progress version {version}").format(version=version))
    answers = data.get("answers")
    if not isinstance(answers, dict):
        raise ProgressError(_("no answers"))
    return answers


def progress_text(entries: Mapping[str, object]) -> str:
    """The stored text of ``entries`` (each as ``read_progress`` gives it back)."""
    return json.dumps({"version": PROGRESS_VERSION, "answers": dict(entries)}, ensure_ascii=False, sort_keys=True)

