"""The lesson's pages, one module each, in the order the lesson shows them.

A new trap or follow-up is its module here (``PAGE``, and as needed ``evidence`` and
``FIGURES``), its text beside it (``NAME.html``, translations in ``<lang>/NAME.html``) and one
line in ``PAGES`` below.
"""

from sqrtdk_gui.core.lesson.pages import (
    followup_interview,
    followup_long_context,
    followup_mup,
    followup_precision,
    followup_qk_norm,
    followup_sigma_dial,
    followup_temperature,
    step1,
    step2,
    step3,
    step4,
    step5,
    trap_after_softmax,
    trap_dmodel,
    trap_seq_len,
    trap_small_heads,
    trap_stable_softmax,
)

PAGES = (
    step1,
    step2,
    step3,
    step4,
    step5,
    trap_dmodel,
    trap_after_softmax,
    trap_stable_softmax,
    trap_seq_len,
    trap_small_heads,
    followup_temperature,
    followup_qk_norm,
    followup_mup,
    followup_sigma_dial,
    followup_precision,
    followup_long_context,
    followup_interview,
)
