"""``compute(Params) -> Result``: the one computation the program shows (numpy only).

Notation: a query q and a key k have d_k entries with standard deviations q_std and k_std.
The logit of a (query, key) pair is ``z = c * (q . k) / temperature`` where the factor c
depends on the scaling mode (``scaling``). Per-row statistics (max weight, entropy, ||J||_F)
describe the exact softmax of z in float64; ``weights`` is what the chosen float type and
softmax variant actually produce, so overflow and row sums are those of a real program.

Up to ``DENSE_MAX_KEYS`` (1024) keys every logit is computed (``dense``); above, ``compute``
streams over key blocks for a sample of query rows (``streamed``): the same per-row
statistics without (queries × keys) arrays; ``logits`` then holds a sample of each row's
logits, ``p`` and ``weights`` each row's largest weights, and the query gradient is not
computed (NaN).
"""

from __future__ import annotations

from sqrtdk_gui.core.attention.dense import compute_dense
from sqrtdk_gui.core.attention.long_context import DENSE_MAX_KEYS, sampled_rows
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.attention.result import DISPLAY_ROWS, Result
from sqrtdk_gui.core.attention.streamed import compute_streamed

__all__ = ["compute", "selectable_rows"]


def selectable_rows(params: Params) -> int:
    """Query rows whose weights a Result keeps (the rows the weights and Jacobian panels can
    show; the median row is kept as well, wherever it is)."""
    if params.keys > DENSE_MAX_KEYS:
        return sampled_rows(params.queries, params.keys)
    return min(params.queries, DISPLAY_ROWS)


def compute(params: Params) -> Result:
    """Logits, softmax, Jacobian norms and query gradients for one parameter set."""
    if params.keys > DENSE_MAX_KEYS:
        return compute_streamed(params)
    return compute_dense(params, selectable_rows(params))
