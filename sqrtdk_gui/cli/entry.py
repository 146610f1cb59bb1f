"""The program's entry point (``sqrtdk-gui``, ``python -m sqrtdk_gui``, the bundle's launcher).

It imports nothing itself, so that Ctrl+C while the program is still loading (numpy, the
model, a second or so) ends it as at any later moment: status 130, no traceback.
"""

from __future__ import annotations

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    try:
        from sqrtdk_gui.cli.main import main as run
    except BaseException as exc:
        if interrupted(exc):
            return 130
        raise
    return run(argv)


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
