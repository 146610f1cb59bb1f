"""Subset Noto Sans CJK SC to the characters the Chinese texts use: sqrtdk_gui/gui/assets/fonts/.

DejaVu, the font the program ships for every other text, has no Chinese glyphs. The program
registers this subset at start (gui/assets), so the window and the bundle render Chinese the
same on every machine. Regular and Bold are subset to the CJK characters and the CJK
punctuation of ``resources/i18n/zh_CN/*.po``; everything else comes from the usual fonts.

    python packaging/build_cjk_font.py          # regenerate (needs fonts-noto-cjk and fontTools)
    python packaging/build_cjk_font.py --check  # exit 1 if a character of the texts is missing

Noto Sans CJK is under the SIL Open Font License 1.1 (sqrtdk_gui/gui/assets/fonts/OFL.txt), which allows
subsetting and bundling with software; the subset keeps its copyright and licence records.
"""

from __future__ import annotations

import argparse
import sys
import unicodedata
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "sqrtdk_gui" / "gui" / "assets" / "fonts"
SOURCES = {"Regular": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"),
           "Bold": Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc")}
SC_INDEX = 2  # Noto Sans CJK SC in the collection (JP, KR, SC, TC, HK, then the Mono faces)


def needs_cjk_font(ch: str) -> bool:
    """Whether DejaVu lacks ``ch``: CJK ideographs, CJK punctuation, full-width forms."""
    cp = ord(ch)
    return (0x2E80 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF or 0xFE30 <= cp <= 0xFE4F
            or 0xFF00 <= cp <= 0xFFEF or 0x20000 <= cp <= 0x2FA1F)


def characters() -> str:
    """Every character of the Chinese catalogues that needs the CJK font, sorted."""
    from babel.messages.pofile import read_po

    chars: set[str] = set()
    for po in sorted((ROOT / "resources" / "i18n" / "zh_CN").glob("*.po")):
        with po.open("rb") as f:
            for m in read_po(f):
                strings = m.string if isinstance(m.string, tuple) else (m.string,)
                chars.update(c for s in strings if s for c in unicodedata.normalize("NFC", s) if needs_cjk_font(c))
    chars.update("简体中文")  # the language's own name in the View menu, in every language
    return "".join(sorted(chars))


def font_path(weight: str) -> Path:
    return OUT / f"NotoSansCJKsc-{weight}-subset.otf"


def subset(weight: str, text: str) -> None:
    from fontTools import subset as ft_subset
    from fontTools.ttLib import TTFont

    font = TTFont(SOURCES[weight], fontNumber=SC_INDEX)
    options = ft_subset.Options()
    options.name_IDs = ["*"]  # keep the copyright and licence records
    options.name_languages = ["*"]
    options.layout_features = ["*"]
    options.hinting = False
    options.desubroutinize = True  # smaller once compressed, and faster to rasterise
    sub = ft_subset.Subsetter(options)
    sub.populate(text=text)
    sub.subset(font)
    font.save(font_path(weight))


def missing(text: str) -> dict[str, str]:
    """Per weight, the characters of ``text`` the committed subset lacks."""
    from fontTools.ttLib import TTFont

    out = {}
    for weight in SOURCES:
        path = font_path(weight)
        cmap = TTFont(path).getBestCmap() if path.exists() else {}
        gap = "".join(c for c in text if ord(c) not in cmap)
        if gap:
            out[weight] = gap
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check the subset covers the texts")
    args = parser.parse_args()
    text = characters()
    if args.check:
        gaps = missing(text)
        for weight, gap in gaps.items():
            print(f"{font_path(weight).name} lacks {len(gap)} characters: {gap[:40]}")
        if gaps:
            print("run: python packaging/build_cjk_font.py (needs fonts-noto-cjk)")
            return 1
        print(f"the CJK subset covers the {len(text)} characters of the Chinese texts")
        return 0
    for weight, source in SOURCES.items():
        if not source.exists():
            raise SystemExit(f"{source} not found: apt-get install fonts-noto-cjk")
        OUT.mkdir(parents=True, exist_ok=True)
        subset(weight, text)
        print(f"wrote {font_path(weight).relative_to(ROOT)}: {len(text)} characters, "
              f"{font_path(weight).stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
