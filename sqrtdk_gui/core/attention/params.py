"""The parameters of one computation: what every control of the window sets, validated.

``Params`` is frozen and hashable: results, laws, sweeps and curves are cached under it.
No Qt here (a test enforces it); ``core.attention.compute`` computes from these.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqrtdk_gui.core.attention.long_context import MAX_KEYS
from sqrtdk_gui.core.attention.precision import FLOAT_TYPES
from sqrtdk_gui.core.attention.sampling import MAX_WIDTH
from sqrtdk_gui.core.attention.scaling import SCALINGS
from sqrtdk_gui.core.validation import check_choice, check_float, check_int

__all__ = ["SOFTMAX_VARIANTS", "DTYPES", "INT_RANGES", "FLOAT_RANGES", "CHOICES", "Params"]

SOFTMAX_VARIANTS = ("stable", "naive")
DTYPES = FLOAT_TYPES  # float64, float32, float16, bfloat16, float8_e4m3fn, float8_e5m2 (core.precision)
INT_RANGES = {
    "d_k": (1, MAX_WIDTH),
    "keys": (2, MAX_KEYS),  # above DENSE_MAX_KEYS: streamed over key blocks
    "queries": (1, 8192),
    "heads": (1, 128),
    "seed": (0, 2**32 - 1),
}
FLOAT_RANGES = {
    "temperature": (0.05, 10.0),
    "q_std": (0.1, 10.0),
    "k_std": (0.1, 10.0),
    "gain": (0.1, 100.0),
    "alignment": (0.0, 1.0),
}
CHOICES = {"scaling": SCALINGS, "softmax": SOFTMAX_VARIANTS, "dtype": DTYPES}


@dataclass(frozen=True)
class Params:
    """Everything that determines one computation; validated on construction.

    ``heads`` only matters for ``sqrt_dmodel`` (d_model = heads * d_k), ``gain`` only for
    ``qk_norm``; ``alignment`` (rho) correlates each query with one key, as training does.
    """

    d_k: int = 64
    temperature: float = 1.0
    keys: int = 64
    queries: int = 256
    q_std: float = 1.0
    k_std: float = 1.0
    scaling: str = "sqrt_dk"
    softmax: str = "stable"
    dtype: str = "float64"
    seed: int = 0
    heads: int = 8
    gain: float = 4.0
    alignment: float = 0.0

    def __post_init__(self) -> None:
        self._check((*INT_RANGES, *FLOAT_RANGES, *CHOICES))

    def __getstate__(self) -> dict[str, object]:
        # Without the remembered hash: a string's hash differs from process to process.
        return {name: self.__dict__[name] for name in _FIELD_NAMES}

    def __setstate__(self, state: dict[str, object]) -> None:
        self.__dict__.update(state)

    def _check(self, names: Iterable[str]) -> None:
        """Validate (and normalise: 3.0 -> 3 for an int) the fields ``names``."""
        for name in names:
            value = self.__dict__[name]
            if name in INT_RANGES:
                object.__setattr__(self, name, check_int(name, value, *INT_RANGES[name]))
            elif name in FLOAT_RANGES:
                object.__setattr__(self, name, check_float(name, value, *FLOAT_RANGES[name]))
            elif name in CHOICES:
                check_choice(name, value, CHOICES[name])

    def __hash__(self) -> int:
        # Parameters key every cache a frame looks in (results, laws, sweeps, curves): dozens
        # of hashes a frame, each a new 13-field tuple with the dataclass's own hash.
        value = self.__dict__.get("_hash")
        if value is None:
            value = hash(tuple(self.__dict__[name] for name in _FIELD_NAMES))
            object.__setattr__(self, "_hash", value)
        return value

    def replace(self, **changes: Any) -> Params:
        """A copy with some fields changed (validated like the original)."""
        if not changes.keys() <= _FIELD_NAMES_SET:
            return dataclasses.replace(self, **changes)  # its TypeError for an unknown name
        # The other fields were validated when ``self`` was made: check only the changes
        # (three copies a frame; validating all thirteen fields was most of their cost).
        new = object.__new__(Params)
        for name in _FIELD_NAMES:
            object.__setattr__(new, name, changes[name] if name in changes else self.__dict__[name])
        new._check(changes)
        return new

    @property
    def d_model(self) -> int:
        return self.heads * self.d_k


_FIELD_NAMES = tuple(f.name for f in dataclasses.fields(Params))
_FIELD_NAMES_SET = frozenset(_FIELD_NAMES)
