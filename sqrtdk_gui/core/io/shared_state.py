"""The values that every window on one settings file shares, merged when a window saves (no Qt).

Two windows of the program may run at once on one settings file. What belongs to one window
— its geometry, its state — is the last writer's. A value the windows share is merged
instead: a window that saves applies the changes *it* made since it was last in step with
the file (``base``: the value as it read or wrote it last) to the value in the file now
(``theirs``), so that what another window changed meanwhile survives. A stored value that
cannot be read is neither merged into nor written over: ``keep_aside`` copies it next to the
settings file first (a newer version's progress comes back when that version reads it).

One ``Shared`` per value, in ``SHARED``; ``gui/window/settings.py`` reads, merges and writes
every one of them the same way. A value two windows may change goes there.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.practice import schedule
from sqrtdk_gui.core.practice.progress import ProgressError, progress_text, read_progress

__all__ = ["Shared", "Unreadable", "SHARED", "RECENT", "PRACTICE", "RECENT_MAX", "merge_keyed", "merge_progress",
           "merge_listed", "recent_paths", "stored_text", "keep_aside"]

T = TypeVar("T")

RECENT_MAX = 8  # File -> Open recent lists at most this many presets
_PATH_MAX_CHARS = 4096
_TEXT_MAX = 1 << 20  # a settings file is read up to 1 MiB: no stored text is longer
_ASIDE_MAX = 99  # numbered copies kept aside per value, beyond which keeping one more fails


class Unreadable(ValueError):
    """A stored value that cannot be read; the message is one sentence for the user."""


@dataclass(frozen=True)
class Shared(Generic[T]):
    """One value the windows share: where it is stored, how it is read, written and merged."""

    key: str  # its key in the settings file
    name: str  # what it is, for a message (marked with N_, shown through _())
    read: Callable[[object], T]  # the stored value to the value; Unreadable if it cannot be read
    write: Callable[[T], str]  # the value to what is stored
    merge: Callable[[T, T, T], T]  # (base, ours, theirs) to the value stored
    empty: T  # nothing stored


def merge_keyed(base: Mapping[str, object], ours: Mapping[str, object],
                theirs: Mapping[str, object]) -> dict[str, object]:
    """``theirs`` with what ``ours`` changed since ``base``: entries set or changed, and
    entries removed (a reset); an entry this window left alone keeps the other's value."""
    out = dict(theirs)
    for key in base.keys() | ours.keys():
        if key not in ours:
            out.pop(key, None)
        elif key not in base or ours[key] != base[key]:
            out[key] = ours[key]
    return out


def merge_progress(base: Mapping[str, object], ours: Mapping[str, object],
                   theirs: Mapping[str, object]) -> dict[str, object]:
    """Practice progress merged like any keyed value (``merge_keyed``: answers set, entries
    removed by a reset), and for an item this window answered since ``base``: its answer, with
    the reviews it made since then added to the history in the file (``theirs``), so that a
    review made in either window counts and a history the other window reset stays reset."""
    out = merge_keyed(base, ours, theirs)
    for key in ours.keys() & out.keys():
        entry = ours[key]
        if key in base and entry == base[key] or not isinstance(entry, dict):
            continue  # left alone here: the file's entry stands
        new = set(_reviews(entry)) - set(_reviews(base.get(key)))
        both = schedule.merge_reviews(_reviews(theirs.get(key)), tuple(new))
        out[key] = {**entry, "reviews": schedule.reviews_to_json(both)}
    return out


def _reviews(entry: object) -> tuple[schedule.Review, ...]:
    return schedule.reviews_from_json(entry.get("reviews")) if isinstance(entry, dict) else ()


def merge_listed(base: Sequence[str], ours: Sequence[str], theirs: Sequence[str]) -> list[str]:
    """``ours`` in its order, then what ``theirs`` added since ``base`` (in its order), each
    once. What another window dropped stays here: a list cut to its length drops entries
    nobody asked to forget, and this window may have just opened one of them."""
    return list(dict.fromkeys([*ours, *(item for item in theirs if item not in base)]))


def recent_paths(value: object) -> tuple[list[str], int]:
    """The Open recent list from its stored JSON text (or a list), and how many entries were
    left out. Only absolute paths of a sane length count (a relative one would be read
    against the next start's folder), each once; one bad entry does not cost the others."""
    if isinstance(value, str):
        if len(value) > _TEXT_MAX:
            return [], 1
        try:
            value = json.loads(value)
        except (ValueError, RecursionError):
            return [], 1
    if value is None:
        return [], 0
    if not isinstance(value, list):
        return [], 1
    paths = [os.path.normpath(p) for p in value
             if isinstance(p, str) and 0 < len(p) <= _PATH_MAX_CHARS and "\0" not in p and os.path.isabs(p)]
    return list(dict.fromkeys(paths))[:RECENT_MAX], len(value) - len(paths)


def _read_progress(value: object) -> dict[str, object]:
    if value is None:
        return {}
    try:
        return read_progress(value)
    except ProgressError as exc:
        raise Unreadable(str(exc)) from None


RECENT: Shared[list[str]] = Shared(
    key="recent/presets", name=N_("the Open recent list"),
    read=lambda value: recent_paths(value)[0], write=lambda paths: json.dumps(list(paths)),
    merge=lambda base, ours, theirs: merge_listed(base, ours, theirs)[:RECENT_MAX], empty=[])
PRACTICE: Shared[dict[str, object]] = Shared(
    key="practice/progress", name=N_("practice progress"),
    read=_read_progress, write=progress_text, merge=merge_progress, empty={})
SHARED: tuple[Shared[Any], ...] = (RECENT, PRACTICE)


def stored_text(value: object) -> str:
    """A stored value as text, to keep aside: an INI value with commas reads as a list."""
    if isinstance(value, list):
        return ", ".join(str(v) for v in value)
    return value if isinstance(value, str) else repr(value)


def keep_aside(settings_path: str, shared: Shared[Any], value: object) -> str:
    """Copy a stored value that cannot be read into a file beside the settings file (once: a
    copy of the same text is reused) and return its path; safe_io.IOFailure if it cannot be."""
    data = stored_text(value).encode("utf-8", "replace")
    folder, name = os.path.split(os.path.abspath(settings_path))
    stem = f"{os.path.splitext(name)[0]}.{shared.key.replace('/', '-')}.unread"
    for n in range(1, _ASIDE_MAX + 1):
        path = os.path.join(folder, f"{stem}{'' if n == 1 else f'-{n}'}.txt")
        try:
            if safe_io.read_bytes(path, len(data)) == data:
                return path
        except FileNotFoundError:
            safe_io.write_bytes(path, data)
            return path
        except OSError:  # another text (longer), or not a file: the next name
            continue
    raise safe_io.IOFailure(None, "write", os.path.join(folder, f"{stem}-{_ASIDE_MAX}.txt"),
                            _("{count} earlier copies are kept there already").format(count=_ASIDE_MAX))
