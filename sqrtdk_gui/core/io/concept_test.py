"""Write practice mode's concept test (``core.practice.concept_test``) to a file, safely."""

from __future__ import annotations

import json

from sqrtdk_gui.core.io import safe_io
from sqrtdk_gui.core.practice import BANK
from sqrtdk_gui.core.practice.concept_test import concept_test
from sqrtdk_gui.core.practice.listing import bank_rows

__all__ = ["write_concept_test"]


def write_concept_test(path: str) -> str:
    """HTML, Markdown for a name ending in .md, or JSON for .json (the items as data, for
    scripts; a name without any of these gets .html); returns the path written. Raises
    ``safe_io.IOFailure`` (an OSError) with one sentence on failure."""
    lower = path.lower()
    if lower.endswith(".json"):
        text = json.dumps(bank_rows(BANK), ensure_ascii=False, indent=1)
    else:
        markdown = lower.endswith(".md")
        if not markdown and not lower.endswith((".html", ".htm")):
            path += ".html"
        text = concept_test(BANK, "md" if markdown else "html")
    safe_io.write_bytes(path, text.encode("utf-8"))
    return path
