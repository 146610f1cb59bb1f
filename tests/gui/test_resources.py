"""The files the program ships (fonts, icon, lesson texts) are package data that load, and
what must fit is measured in the shipped fonts whatever fonts the machine has."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtGui import QFontInfo

from sqrtdk_gui.core.lesson.content import SCENARIOS, STEPS
from sqrtdk_gui.core.lesson.texts import page_languages, read_page
from sqrtdk_gui.gui import assets

ROOT = Path(__file__).resolve().parents[2]


def test_every_shipped_font_registers_with_its_family(qapp):
    registered = assets.register_fonts()
    assert set(registered) == set(assets.FONT_FILES)
    assert set(registered.values()) == {assets.SANS, assets.MONO, assets.CJK}


def test_the_application_and_code_are_set_in_the_shipped_fonts(qapp):
    assets.install_fonts(qapp)
    assert QFontInfo(qapp.font()).family() == assets.SANS
    assert QFontInfo(assets.code_font(12)).family() == assets.MONO
    assert QFontInfo(assets.code_font(12)).fixedPitch()


def test_the_icon_renders(qapp):
    image = assets.icon().pixmap(64, 64).toImage()
    assert not image.isNull()
    assert len({image.pixel(x, y) for x in range(0, 64, 4) for y in range(0, 64, 4)}) >= 3


def test_every_lesson_page_has_its_text_in_every_language():
    for page in (*STEPS, *SCENARIOS):
        assert page_languages(page.resource) == ("en", "de", "es", "zh_CN"), page.resource
        for lang in page_languages(page.resource):
            assert read_page(page.resource, lang).strip(), (page.resource, lang)
    with pytest.raises(KeyError):
        read_page("step1.html", "xx")


def test_no_qt_resource_paths_are_left():
    sources = [p for p in (ROOT / "sqrtdk_gui").rglob("*.py")]
    assert not [p.name for p in sources if '":/' in p.read_text(encoding="utf-8")]


_MEASURE = r"""
import json, sys
from sqrtdk_gui.gui.launch.bootstrap import application
from sqrtdk_gui.gui import assets
from PySide6.QtGui import QFont, QFontInfo, QFontMetricsF
app = application()
samples = ["Why does attention divide its logits by √d_k? σ ≈ 22.6, ‖J‖ → 0",
           "Warum teilt Attention die Logits durch √d_k? Skalierungsfaktor ÷√d_model",
           "为什么缩放点积注意力要除以 √d_k", "━●━ ╍■╍ ┅▲┅ ⁻¹ ∂L/∂q"]
out = {}
for name, font in (("text", QFont(app.font())), ("code", assets.code_font(12)), ("rich", QFont("monospace"))):
    font.setPointSize(14)
    m = QFontMetricsF(font)
    out[name] = [QFontInfo(font).family()] + [round(m.horizontalAdvance(s), 2) for s in samples]
print(json.dumps(out))
"""


def _measure(tmp_path, name, font_dirs):
    conf = tmp_path / f"{name}.conf"
    dirs = "".join(f"<dir>{d}</dir>" for d in font_dirs)
    conf.write_text('<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "fonts.dtd"><fontconfig>'
                    f"{dirs}<cachedir>{tmp_path / (name + '-cache')}</cachedir></fontconfig>")
    env = dict(os.environ, FONTCONFIG_FILE=str(conf), QT_QPA_PLATFORM="offscreen")
    done = subprocess.run([sys.executable, "-c", _MEASURE], capture_output=True, text=True, timeout=120,
                          env=env, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fontconfig decides the system fonts on Linux")
def test_text_measures_the_same_with_no_system_fonts_and_with_many(tmp_path):
    """The page a projector shows is laid out in the shipped fonts: with no font at all on the
    machine (as Qt's offscreen platform sees Windows) and with every font it has, the same
    texts are the same width to the hundredth of a pixel."""
    empty = tmp_path / "no-fonts"
    empty.mkdir()
    bare = _measure(tmp_path, "bare", [empty])
    every = _measure(tmp_path, "every", ["/usr/share/fonts", "/usr/local/share/fonts"])
    assert bare["text"][0] == assets.SANS and bare["code"][0] == bare["rich"][0] == assets.MONO
    assert bare == every


def test_the_shipped_fonts_have_every_character_of_the_program_s_texts(qapp):
    """Every character of the sources, the lesson pages and every catalogue is in the shipped
    DejaVu subset or, for Chinese, the Noto Sans CJK SC subset: none falls back to a system font."""
    import sys

    from PySide6.QtGui import QRawFont

    sys.path.insert(0, str(ROOT / "packaging"))
    import build_fonts

    cjk = build_fonts.cjk_characters()
    others = "".join(c for c in build_fonts.program_texts() if not build_fonts.needs_cjk_font(c) and not c.isspace())
    assert len(cjk) > 500 and "σ" in others and "√" in others and "ü" in others and "━" in others
    fonts = {"DejaVuSans.ttf": others, "DejaVuSans-Bold.ttf": others, "NotoSansCJKsc-Regular-subset.otf": cjk,
             "NotoSansCJKsc-Bold-subset.otf": cjk}
    for name, wanted in fonts.items():
        font = QRawFont(assets.asset(f"fonts/{name}").read_bytes(), 12)
        assert font.isValid(), name
        missing = "".join(c for c in wanted if not font.supportsCharacter(ord(c)))
        assert not missing, f"{name} lacks {missing}: run packaging/build_fonts.py"


def test_code_in_rich_text_is_set_in_the_shipped_monospace(qapp):
    from PySide6.QtGui import QTextCursor, QTextDocument

    assets.install_fonts(qapp)
    doc = QTextDocument()
    doc.setDefaultFont(qapp.font())
    doc.setHtml("<p>text <code>code</code></p>")
    cursor = QTextCursor(doc)
    for position, family in ((2, assets.SANS), (7, assets.MONO)):
        cursor.setPosition(position)
        assert QFontInfo(cursor.charFormat().font()).family() == family
