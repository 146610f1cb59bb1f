"""Preset version 2 (bfloat16/float8, log_n, up to 131 072 keys) still reads version 1 files."""

import json

import pytest

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.io import presets

# Exactly what sqrtdk-gui wrote before version 2 (all fields of that Params).
VERSION_1 = """{
  "format": "sqrtdk-gui preset",
  "version": 1,
  "params": {
    "d_k": 512, "temperature": 1.0, "keys": 64, "queries": 256, "q_std": 1.0, "k_std": 1.0,
    "scaling": "none", "softmax": "stable", "dtype": "float16", "seed": 0, "heads": 8,
    "gain": 4.0, "alignment": 0.0
  },
  "lesson": {"step": 2, "scenario": null},
  "theme": "dark",
  "zoom": 1.25
}
"""


def test_version_1_files_are_still_read(tmp_path):
    path = tmp_path / "old.json"
    path.write_text(VERSION_1, encoding="utf-8")
    state = presets.load(path)
    assert state == presets.State(params=Params(d_k=512, scaling="none", dtype="float16"), step=2,
                                  theme="dark", zoom=1.25)
    presets.save(state, path)  # saving writes the current version
    assert json.loads(path.read_text())["version"] == presets.VERSION == 2
    assert presets.load(path) == state


def test_version_2_holds_the_new_values(tmp_path):
    state = presets.State(params=Params(keys=131072, scaling="log_n", dtype="float8_e4m3fn"),
                          scenario="long_context", step=5)
    path = tmp_path / "new.json"
    presets.save(state, path)
    assert presets.load(path) == state
    assert '"dtype": "float8_e4m3fn"' in path.read_text()


def test_a_newer_version_is_refused_with_one_line():
    text = VERSION_1.replace('"version": 1', '"version": 3')
    with pytest.raises(presets.PresetError, match="newer sqrtdk-gui"):
        presets.from_json(text)


def test_a_preset_saved_with_a_byte_order_mark_is_read(tmp_path):
    path = tmp_path / "notepad.json"  # Windows Notepad writes UTF-8 with a BOM
    path.write_bytes(b"\xef\xbb\xbf" + VERSION_1.encode("utf-8"))
    assert presets.load(path).params.d_k == 512


def test_a_preset_asking_for_the_pseudo_language_is_refused_like_any_unknown_one(tmp_path):
    from sqrtdk_gui.core.i18n import PSEUDO

    path = tmp_path / "pseudo.json"
    path.write_text(presets.to_json(presets.State(language=PSEUDO)), encoding="utf-8")
    with pytest.raises(presets.PresetError, match="unknown language \"pseudo\": use en, de, es, zh_CN"):
        presets.load(path)
    # The remembered state of a window that spoke it keeps it (--lang pseudo chose it) ...
    assert presets.from_json(path.read_text(encoding="utf-8"), pseudo=True).language == PSEUDO
    # ... and a preset saved while it is spoken names no language, so that it opens again.
    presets.save(presets.State(step=3, language=PSEUDO), path)
    assert presets.load(path) == presets.State(step=3)
