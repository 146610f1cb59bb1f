"""Whether an exception is the user's Ctrl+C (stdlib only: the entry point imports it while
the program may still be loading)."""

from __future__ import annotations

__all__ = ["interrupted"]


def interrupted(exc: BaseException) -> bool:
    """Whether ``exc`` is Ctrl+C, or an error it caused: Python 3.11 wraps a KeyboardInterrupt
    that lands in a class's ``__set_name__`` (a dataclass being made while a module loads)
    in a RuntimeError."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, KeyboardInterrupt):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False
