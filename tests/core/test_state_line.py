"""The state line: one short readable line that opens the app as it was, read back through
the preset reader (a bad line is refused in one sentence and changes nothing)."""

from __future__ import annotations

import pytest

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.io import presets
from sqrtdk_gui.core.io.state_line import MAX_LENGTH, StateLineError, command, decode, encode

STATES = [
    presets.State(),
    presets.State(params=Params(d_k=512, scaling="none", seed=3), step=2),
    presets.State(params=Params(d_k=1024, scaling="qk_norm", gain=6.5, temperature=0.7), scenario="qk_norm",
                  theme="dark", zoom=1.3, language="de"),
    presets.State(params=Params(keys=16384, queries=64, scaling="log_n", dtype="bfloat16"), step=5),
    presets.State(params=Params(temperature=1.1220184543019633, q_std=0.5773502691896258)),  # a slider's τ
]


@pytest.mark.parametrize("state", STATES, ids=range(len(STATES)))
def test_a_state_comes_back_from_its_line_and_from_its_command(state):
    line = encode(state)
    assert decode(line) == state and decode(command(state)) == state
    assert len(line) <= 120 and "\n" not in line


def test_the_line_says_only_what_differs_from_the_defaults():
    assert encode(presets.State()) == "" and decode("") == presets.State()
    assert encode(STATES[1]) == "step=2 d_k=512 scaling=none seed=3"
    assert command(STATES[1]) == 'sqrtdk-gui --state "step=2 d_k=512 scaling=none seed=3"'
    assert decode("  'scaling=none d_k=512'  ") == presets.State(params=Params(d_k=512, scaling="none"))


@pytest.mark.parametrize("text", [
    'sqrtdk-gui --state "step=2 d_k=512"', "sqrtdk-gui --state='step=2 d_k=512'", "--state=step=2",
    r'C:\Program Files\sqrtdk-gui\sqrtdk-gui.exe --state "step=2 d_k=512"',
    "/usr/bin/sqrtdk-gui --state 'step=2 d_k=512'", '"step=2 d_k=512"', "step=2 d_k=512",
])
def test_the_line_is_read_from_any_way_it_is_pasted(text):
    assert decode(text).step == 2


def test_the_test_language_is_not_written_into_a_line():
    from sqrtdk_gui.core.i18n import PSEUDO

    assert encode(presets.State(language=PSEUDO)) == ""


@pytest.mark.parametrize("line,words", [
    ("d_k=0", "d_k"), ("d_k=5.5", "d_k"), ("temperature=nan", "temperature"), ("scaling=bogus", "scaling"),
    ("colour=red", "no setting"), ("d_k=512 d_k=64", "twice"), ("d_k", "name=value"), ("step=9", "step"),
    ("theme=neon", "theme"), ("lang=xx", "xx"), ('sqrtdk-gui --state "d_k=512', "quotes"), ('"d_k=512', "quotes"),
    ("sqrtdk-gui --state", "not followed"), ("x" * (MAX_LENGTH + 1), "characters"),
])
def test_a_bad_line_is_refused_in_one_sentence(line, words):
    with pytest.raises(StateLineError) as caught:
        decode(line)
    message = str(caught.value)
    assert words in message and "\n" not in message and len(message) < 200
    assert isinstance(caught.value, presets.PresetError)  # handled wherever a bad preset is
