"""Subset the fonts the program ships to the characters it needs: sqrtdk_gui/gui/assets/fonts/.

Every text is set in these fonts on every system (gui/assets), so they are part of the
program; subsetting keeps them small (the bundle has a size budget):

- **DejaVu Sans, Sans Bold, Sans Mono** (from Debian's fonts-dejavu-core) keep whole Unicode
  blocks: Latin (with its extensions and combining marks), Greek, Cyrillic, punctuation,
  super- and subscripts, currency, letterlike symbols, arrows, mathematical operators and
  brackets, technical symbols, box drawing, blocks, geometric shapes, dingbats; so a name a
  teacher types in a European language renders in them too, and every character of the
  program's texts (checked). Their TrueType hinting stays.
- **Noto Sans CJK SC Regular and Bold** (from fonts-noto-cjk) keep the CJK characters and
  CJK punctuation of the Chinese texts (``resources/i18n/zh_CN/*.po``).

    python packaging/build_fonts.py          # regenerate (needs fonts-dejavu-core, fonts-noto-cjk, fontTools)
    python packaging/build_fonts.py --check  # exit 1 if a character of the texts is missing

DejaVu's licence allows modified copies whose names contain neither "Bitstream" nor "Vera";
Noto Sans CJK is under the SIL Open Font License 1.1, which allows subsetting and bundling
with software. The subsets keep their copyright and licence records
(sqrtdk_gui/gui/assets/fonts/LICENSE-DejaVu.txt, OFL.txt).
"""

from __future__ import annotations

import argparse
import re
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's package, installed or not
from sqrtdk_gui.core.i18n import LANGUAGES  # noqa: E402 - the table of languages

TRANSLATED = tuple(code for code in LANGUAGES if code != "en")
OUT = ROOT / "sqrtdk_gui" / "gui" / "assets" / "fonts"
DEJAVU = Path("/usr/share/fonts/truetype/dejavu")
NOTO = Path("/usr/share/fonts/opentype/noto")
# target file -> (source file, index in a collection)
CJK_SOURCES = {"NotoSansCJKsc-Regular-subset.otf": (NOTO / "NotoSansCJK-Regular.ttc", 2),
               "NotoSansCJKsc-Bold-subset.otf": (NOTO / "NotoSansCJK-Bold.ttc", 2)}  # 2: SC (JP, KR, SC, ...)
LATIN_SOURCES = {"DejaVuSans.ttf": (DEJAVU / "DejaVuSans.ttf", 0),
                 "DejaVuSans-Bold.ttf": (DEJAVU / "DejaVuSans-Bold.ttf", 0),
                 "DejaVuSansMono.ttf": (DEJAVU / "DejaVuSansMono.ttf", 0)}
LATIN_BLOCKS = [(0x0020, 0x007E), (0x00A0, 0x024F), (0x0250, 0x036F), (0x0370, 0x03FF), (0x0400, 0x04FF),
                (0x1E00, 0x1EFF), (0x2000, 0x206F), (0x2070, 0x209F), (0x20A0, 0x20CF), (0x2100, 0x218F),
                (0x2190, 0x21FF), (0x2200, 0x22FF), (0x2300, 0x23FF), (0x2460, 0x24FF), (0x2500, 0x25FF),
                (0x2600, 0x26FF), (0x2700, 0x27BF), (0x27C0, 0x27EF), (0x27F0, 0x27FF), (0x2900, 0x2AFF),
                (0xFB00, 0xFB06), (0xFFFD, 0xFFFD)]


def needs_cjk_font(ch: str) -> bool:
    """Whether DejaVu lacks ``ch``: CJK ideographs, CJK punctuation, full-width forms."""
    cp = ord(ch)
    return (0x2E80 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF or 0xFE30 <= cp <= 0xFE4F
            or 0xFF00 <= cp <= 0xFFEF or 0x20000 <= cp <= 0x2FA1F)


def _catalogue_texts(lang: str) -> list[str]:
    from babel.messages.pofile import read_po

    texts = []
    for po in sorted((ROOT / "resources" / "i18n" / lang).glob("*.po")):
        with po.open("rb") as f:
            for m in read_po(f):
                for s in (m.string if isinstance(m.string, tuple) else (m.string,)):
                    texts.append(unicodedata.normalize("NFC", s or ""))
    return texts


def _strings(path: Path) -> str:
    """The string constants of a Python file, docstrings left out (what it can show)."""
    import ast

    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return "".join(node.value for node in ast.walk(tree)
                   if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings)


def program_texts() -> str:
    """Every character of the program's texts: its sources (English), the lesson pages and
    every language's catalogue, the language names of the View menu."""
    package = ROOT / "sqrtdk_gui"
    texts = [_strings(p) for p in package.rglob("*.py") if p.name not in ("figure_data.py", "curve_data.py")]
    texts += [p.read_text(encoding="utf-8") for p in (package / "core" / "lesson" / "pages").rglob("*.html")]
    for lang in TRANSLATED:
        texts += _catalogue_texts(lang)
    return "".join(sorted({c for text in texts for c in text if c.isprintable() and not c.isspace()} | {" "}))


def cjk_characters() -> str:
    chars = {c for lang in TRANSLATED for text in _catalogue_texts(lang) for c in text if needs_cjk_font(c)}
    # The languages' own names in the View menu, in every language.
    chars.update(c for name in LANGUAGES.values() for c in name if needs_cjk_font(c))
    return "".join(sorted(chars))


def latin_characters() -> str:
    chars = {chr(cp) for lo, hi in LATIN_BLOCKS for cp in range(lo, hi + 1)}
    chars |= {c for c in program_texts() if not needs_cjk_font(c)}
    return "".join(sorted(chars))


def subset(target: str, source: Path, index: int, text: str, hinting: bool) -> None:
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    font = TTFont(source, fontNumber=index, recalcTimestamp=False)
    options = ft_subset.Options()
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.name_languages = ["*"]
    options.layout_features = ["*"]
    options.hinting = hinting
    options.desubroutinize = True  # CFF: smaller once compressed, and faster to rasterise
    options.notdef_outline = True
    sub = ft_subset.Subsetter(options)
    sub.populate(text=text)
    sub.subset(font)
    font.save(OUT / target)


def missing(files, text: str) -> dict[str, str]:
    """Per font file, the characters of ``text`` it lacks (ignoring those its source lacks too)."""
    from fontTools.ttLib import TTFont

    out = {}
    for target, (source, index) in files.items():
        cmap = TTFont(OUT / target).getBestCmap() if (OUT / target).exists() else {}
        has = TTFont(source, fontNumber=index).getBestCmap() if source.exists() else None
        gap = "".join(c for c in text if ord(c) not in cmap and (has is None or ord(c) in has))
        if gap:
            out[target] = gap
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the subsets cover the texts")
    args = parser.parse_args()
    cjk, latin = cjk_characters(), latin_characters()
    if args.check:
        texts = re.sub(r"\s", "", program_texts())
        gaps = {**missing(CJK_SOURCES, cjk), **missing(LATIN_SOURCES, "".join(c for c in texts
                                                                             if not needs_cjk_font(c)))}
        for target, gap in gaps.items():
            print(f"{target} lacks {len(gap)} characters: {gap[:40]}")
        if gaps:
            print("run: python packaging/build_fonts.py (needs fonts-dejavu-core and fonts-noto-cjk)")
            return 1
        print(f"the fonts cover the program's texts ({len(cjk)} CJK characters)")
        return 0
    OUT.mkdir(parents=True, exist_ok=True)
    for files, text, hinting in ((LATIN_SOURCES, latin, True), (CJK_SOURCES, cjk, False)):
        for target, (source, index) in files.items():
            if not source.exists():
                raise SystemExit(f"{source} not found: apt-get install fonts-dejavu-core fonts-noto-cjk")
            subset(target, source, index, text, hinting)
            print(f"wrote {(OUT / target).relative_to(ROOT)}: {(OUT / target).stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
