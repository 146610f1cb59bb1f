"""Write practice mode's concept test (``core.practice.concept_test``) to a file, safely."""

from __future__ import annotations

from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.practice import BANK
from sqrtdk_gui.core.practice.concept_test import concept_test

__all__ = ["write_concept_test"]


def write_concept_test(path: str) -> str:
    """HTML, or Markdown for a name ending in .md (a name without either gets .html); returns
    the path written. Raises ``safe_io.IOFailure`` (an OSError) with one sentence on failure."""
    markdown = path.lower().endswith(".md")
    if not markdown and not path.lower().endswith((".html", ".htm")):
        path += ".html"
    safe_io.write_bytes(path, concept_test(BANK, "md" if markdown else "html").encode("utf-8"))
    return path
