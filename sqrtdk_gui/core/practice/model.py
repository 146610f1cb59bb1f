"""What a practice item is made of (numpy-free): a question or a bug card, and what it measures.

Every item asks for a commitment the program can grade — a choice, a number or a ranking
(a bug card: a line of code) — and then measures its case with the model: ``measure(params)``
returns the readings the reveal shows and the answer the model gives for those parameters.
The tests check, over seeds 0–7, that the model's answer is the item's stated one (a number:
inside the accepted band), so no stated answer can drift from what the panels show.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _, localize_number
from sqrtdk_gui.core.lesson.page import PANELS

__all__ = ["Answer", "KINDS", "TOPICS", "Reading", "Measured", "Source", "Step", "Question", "SEEDS"]

# choice: one of the options; number: a value inside ``band``; ranking: the options in
# order, first = largest; line: the faulty line of a code card (0-based); say: an answer
# said aloud (or typed) against the clock, the options being its rubric's links, ticked;
# derive: a derivation, its steps committed and graded one by one (``Step``).
KINDS = ("choice", "number", "ranking", "line", "say", "derive")
# Each topic's name, marked for translation: shown as ``_(TOPICS[topic])``; the keys are stored.
TOPICS = {"chain": N_("The causal chain"), "derive": N_("Derive it"), "say": N_("Say it"), "traps": N_("Traps"),
          "follow-ups": N_("Follow-ups"), "bugs": N_("Spot the bug")}
SEEDS = tuple(range(8))  # the samples every stated answer is checked on (tests, bands)

Answer = int | float | tuple[int, ...]


@dataclass(frozen=True)
class Reading:
    """One measured line of a reveal: what, its value in this sample, and what it is set against
    (made when measured, so its words are already in the current language)."""

    label: str
    value: str
    note: str = ""


@dataclass(frozen=True)
class Measured:
    """What the model says for one sample: the readings and its own answer to the item.

    ``answer``: the option (or the faulty line, when its consequence shows), the measured
    number, or the measured order; None where the sample does not bear the item out.
    """

    readings: tuple[Reading, ...]
    answer: Answer | None


@dataclass(frozen=True)
class Source:
    """The public thread a bug card is modelled on: repository, "PR #6" or "issue #65", its
    title (a citation: never translated) and what the thread is: a merged or closing ``"fix"``,
    an ``"open"`` report nobody has fixed, or an ``"unmerged"`` pull request closed unmerged."""

    repo: str
    ref: str
    title: str = ""
    status: str = "fix"

    @property
    def text(self) -> str:
        title = f" “{self.title}”" if self.title else ""
        return f"{self.repo} {self.ref}{title}"


@dataclass(frozen=True)
class Step:
    """One step of a derivation: a number for the given values (inside ``band``) or the next
    line among close alternatives (``options``, ``correct``). ``line`` is what the step
    establishes, shown once it is committed. Words are marked with N_; formulas are not."""

    prompt: str
    kind: str  # "number" or "choice"
    options: tuple[str, ...] = ()
    correct: int = 0
    band: tuple[float, float] = (0.0, 0.0)
    line: str = ""

    def __post_init__(self) -> None:
        if self.kind == "choice" and not 0 <= self.correct < len(self.options):
            raise ValueError(f"{self.prompt[:30]!r}: correct must be one of the options")
        if self.kind == "number" and not self.band[0] < self.band[1]:
            raise ValueError(f"{self.prompt[:30]!r}: a number needs a band lo < hi")
        if self.kind not in ("number", "choice") or not self.line:
            raise ValueError(f"{self.prompt[:30]!r}: a number or a choice, with the line it establishes")

    def grade(self, answer: object) -> bool:
        if self.kind == "number":
            return isinstance(answer, (int, float)) and not isinstance(answer, bool) and \
                self.band[0] <= float(answer) <= self.band[1]
        return isinstance(answer, int) and not isinstance(answer, bool) and answer == self.correct


@dataclass(frozen=True)
class Variant:
    """One case of a number item: the parameters it changes, the numbers its prompt and answer
    quote (written as in English, ``{name}`` fields of the texts) and its accepted band. The
    item's own case is its first variant; a retry shows the next, so the number is worked out
    again, not remembered."""

    preset: dict[str, Any]
    fields: dict[str, str]
    band: tuple[float, float]


@dataclass(frozen=True)
class Question:
    """One practice item. ``correct``: the option or line index, the ranking (option indices,
    first = largest), or for a number the accepted ``band`` (lo, hi) — wider than the spread
    over ``SEEDS``, so the verdict survives *New sample*.

    ``title``, ``prompt``, ``answer``, ``testing`` and the options of choices and rankings are
    marked for translation (``N_``): whoever shows them calls ``_()`` on them
    (:meth:`option_texts` for the options). A bug card's options are code: never translated."""

    key: str  # stored in the progress: never renamed
    topic: str  # a key of TOPICS
    title: str
    prompt: str
    kind: str
    options: tuple[str, ...]  # choices, items to rank (in the order shown), or code lines
    measure: Callable[[Params], Measured]
    answer: str  # the right answer in a sentence, shown at the reveal
    testing: str  # "What the interviewer is testing: …"
    preset: dict[str, Any] = field(default_factory=dict)  # Params(**preset, seed=the sample's)
    panels: tuple[str, ...] = ()  # the live panels the reveal shows large
    correct: int | tuple[int, ...] = 0
    band: tuple[float, float] = (0.0, 0.0)
    unit: str = ""
    lesson: str = ""  # the lesson page about it: a scenario key, or "step:N"
    fix: str = ""  # a bug card's corrected line
    language: str = ""  # a bug card's "PyTorch" or "NumPy"
    source: Source | None = None  # None: an illustrative card, not from a cited fix
    limit: int = 0  # a rehearsal's time, seconds
    terms: tuple[str, ...] = ()  # a rehearsal's words per link, "|" between alternatives (N_)
    steps: tuple[Step, ...] = ()  # a derivation's steps
    variants: tuple[Variant, ...] = ()  # a number item's cases: the first is its own
    case: int = 0  # which of ``variants`` this is

    def __post_init__(self) -> None:
        if self.topic not in TOPICS or self.kind not in KINDS:
            raise ValueError(f"{self.key}: unknown topic {self.topic!r} or kind {self.kind!r}")
        for name in self.panels:
            if name.split(".")[0] not in PANELS:
                raise ValueError(f"{self.key}: {name!r} is not a view")
        n = len(self.options)
        if self.kind in ("choice", "line") and not (isinstance(self.correct, int) and 0 <= self.correct < n):
            raise ValueError(f"{self.key}: correct must be one of {n} options")
        if self.kind == "ranking" and sorted(self.correct if isinstance(self.correct, tuple) else ()) != list(range(n)):
            raise ValueError(f"{self.key}: a ranking orders every option once")
        if self.kind == "say" and not (n and len(self.terms) == n and self.limit > 0):
            raise ValueError(f"{self.key}: a rehearsal needs links, their terms and a time")
        if self.kind == "derive" and not self.steps:
            raise ValueError(f"{self.key}: a derivation needs steps")
        if self.kind in ("say", "derive"):  # right: every link said, every step right
            object.__setattr__(self, "correct", tuple(range(len(self.parts))))
        if self.kind == "number" and not self.band[0] < self.band[1]:
            raise ValueError(f"{self.key}: a number needs a band lo < hi")
        own = self.variants[self.case] if self.variants else None
        if own is not None and (self.kind != "number" or own.band != self.band
                                or any(self.preset.get(k) != v for k, v in own.preset.items())):
            raise ValueError(f"{self.key}: variants belong to a number item, the first being its own case")

    def params(self, seed: int) -> Params:
        """The case this item shows, in the sample ``seed``."""
        return Params(**self.preset, seed=seed)

    def variant(self, case: int) -> Question:
        """The item in its ``case``-th variant (counted round), or itself if it has none."""
        if not self.variants:
            return self
        case %= len(self.variants)
        v = self.variants[case]
        return replace(self, preset={**self.preset, **v.preset}, band=v.band, case=case)

    def text(self, message: str) -> str:
        """``message`` (the prompt or the answer) in the current language, with this case's numbers."""
        translated = _(message)
        if not self.variants:
            return translated
        fields = self.variants[self.case].fields
        return translated.format(**{k: localize_number(v) for k, v in fields.items()})

    @property
    def parts(self) -> tuple[object, ...]:
        """What a rehearsal or a derivation is graded on: its rubric's links, its steps."""
        return self.steps if self.kind == "derive" else self.options

    @property
    def illustrative(self) -> bool:
        return self.kind == "line" and self.source is None

    def option_texts(self) -> tuple[str, ...]:
        """The options as shown: in the current language, a bug card's code lines as they are."""
        return self.options if self.kind == "line" else tuple(_(o) for o in self.options)
