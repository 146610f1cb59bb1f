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
