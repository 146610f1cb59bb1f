"""What the lesson says and shows, as data (no Qt).

Texts live in ``resources/lesson/*.html`` (compiled into the Qt resource module); each step
and scenario here names its text, the parameters it sets on entry, the panels it points at,
and, for steps, a "predict first" question with its answer.

Measured numbers are never written here or in the HTML: they are ``{figure_key}`` placeholders
that ``sqrtdk_gui.core.lesson.figures.fill`` replaces by ranges computed over several seeds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Animation", "Step", "Scenario", "STEPS", "SCENARIOS", "scenario", "PANELS"]

PANELS = ("summary", "histogram", "weights", "jacobian", "gradient", "sigma_dial")


@dataclass(frozen=True)
class Animation:
    """Sweep d_k from ``start`` to ``end`` (log-uniformly) over ``seconds``."""

    start: int
    end: int
    seconds: float


@dataclass(frozen=True)
class Step:
    number: int
    title: str
    resource: str
    question: str
    answer: str
    preset: dict = field(default_factory=dict)
    highlight: tuple[str, ...] = ()
    animation: Animation | None = None
    # Views covered for the whole step, revealed or not: they would answer a later step's
    # question (step 1's weights are step 2's answer). View names or "summary.<cell>".
    covers: tuple[str, ...] = ()
    # Panels a slide (presentation mode, exported slides) shows, large; default: highlight.
    slide: tuple[str, ...] | None = None

    @property
    def slide_views(self) -> tuple[str, ...]:
        """Panels a slide shows (presentation mode, exported slides), large."""
        return self.highlight if self.slide is None else self.slide


@dataclass(frozen=True)
class Scenario:
    key: str
    kind: str  # "trap" or "follow-up"
    title: str
    resource: str
    button: str  # a short label for its button
    preset: dict = field(default_factory=dict)
    highlight: tuple[str, ...] = ()

    @property
    def slide_views(self) -> tuple[str, ...]:
        """Panels a slide shows: the ones it points at."""
        return self.highlight


STEPS = (
    Step(1, "A logit is a sum of d_k terms", ":/lesson/step1.html",
         question="A logit is q·k with d_k = 512 terms; the entries of q and k are independent, with mean 0 "
                  "and variance 1. What will the standard deviation σ of the logits be?",
         answer="√512 ≈ 22.6. Each product qᵢkᵢ has variance 1 and variances of independent terms add, "
                "so Var = d_k and σ = √d_k (8 at d_k = 64). The sampled logits give {step1_sigma_512} "
                "over 32 seeds.",
         preset={"d_k": 512, "scaling": "none"},
         highlight=("histogram", "summary"),
         animation=Animation(1, 512, 5.0),
         covers=("weights", "jacobian", "gradient", "summary.max_weight", "summary.entropy",
                 "summary.jacobian", "summary.saturated")),
    Step(2, "Softmax of wide logits", ":/lesson/step2.html",
         question="At d_k = 512 without scaling (σ ≈ 22.6, 64 keys): how much weight will a "
                  "typical query put on its single largest key?",
         answer="Almost all of it: the median query leaves only {step2_rest} to the other 63 keys, and "
                "{step2_saturated} of queries put more than 0.99 on one key. The median entropy is "
                "{step2_entropy} of a possible log 64 = 4.16. (Ranges over 32 random seeds.)",
         preset={"d_k": 512, "scaling": "none"},
         highlight=("weights", "summary"),
         covers=("jacobian", "gradient", "summary.jacobian")),
    Step(3, "What reaches the queries", ":/lesson/step3.html",
         question="At d_k = 2048 without scaling, how does the median gradient reaching a query "
                  "compare with the ÷√d_k case (about {step3_grad_scaled})?",
         answer="Orders of magnitude smaller: {step3_grad_ratio} over 32 seeds (raw median "
                "{step3_grad_raw}). J = diag(p) − ppᵀ is nearly zero for saturated rows, and the gradient "
                "passes through J. The mean stays large because a few near-tie rows still get big gradients.",
         preset={"d_k": 2048, "scaling": "none"},
         highlight=("jacobian", "gradient"),
         covers=("histogram", "summary.sigma")),  # its ÷√d_k ghost is step 4's answer
    Step(4, "Divide by √d_k", ":/lesson/step4.html",
         question="Divide the logits by √d_k. What is σ at d_k = 4, at 512 and at 4096?",
         answer="1 each time in theory (the samples give {step4_sigma}): dividing by √d_k divides the "
                "variance d_k by d_k. At initialisation every ÷√d_k curve is flat, for every head size.",
         preset={"d_k": 4096, "scaling": "sqrt_dk"},
         highlight=("histogram", "jacobian", "gradient"),
         animation=Animation(4, 4096, 5.0),
         slide=("histogram", "gradient")),  # two panels stay readable at 1024×768
    Step(5, "Traps and follow-ups", ":/lesson/step5.html",
         question="Which of these is a correct replacement for ÷√d_k: dividing by √d_model, subtracting "
                  "the row maximum, or dividing by √n (the number of keys)?",
         answer="None of them. ÷√d_model shrinks σ to 1/√h (near-uniform attention, weaker gradients, and a "
                "scale that changes with the number of heads); subtracting the maximum only prevents "
                "overflow; n does not enter a logit's variance (÷√n is right only where n happens to equal "
                "d_k). Try each below.",
         preset={"d_k": 64, "scaling": "sqrt_dk"},
         highlight=(),
         slide=("summary", "weights")),  # the traps change the weights most visibly
)

SCENARIOS = (
    Scenario("dmodel", "trap", "÷√d_model instead of ÷√d_k", ":/lesson/trap_dmodel.html", "÷√d_model",
             preset={"d_k": 64, "heads": 8, "scaling": "sqrt_dmodel"},
             highlight=("weights", "summary")),
    Scenario("after_softmax", "trap", "Scaling after the softmax", ":/lesson/trap_after_softmax.html", "After softmax",
             preset={"d_k": 256, "scaling": "after_softmax"},
             highlight=("weights",)),
    Scenario("stable_softmax", "trap", "“Stable softmax fixes it”", ":/lesson/trap_stable_softmax.html",
             "Stable softmax",
             preset={"d_k": 512, "scaling": "none", "softmax": "naive", "dtype": "float16"},
             highlight=("weights", "jacobian")),
    Scenario("seq_len", "trap", "A scale from the sequence length", ":/lesson/trap_seq_len.html", "Scale from n",
             preset={"d_k": 256, "keys": 1024, "scaling": "seq_len"},
             highlight=("histogram", "summary")),
    Scenario("small_heads", "trap", "“Small heads train fine”", ":/lesson/trap_small_heads.html", "Small heads",
             preset={"d_k": 8, "scaling": "none"},
             highlight=("jacobian", "gradient")),
    # τ = 8 at d_k = 1024 is an effective spread σ = 4: the most responsive softmax over 64 keys.
    Scenario("temperature", "follow-up", "Temperature", ":/lesson/followup_temperature.html", "Temperature",
             preset={"d_k": 1024, "scaling": "none", "temperature": 8.0},
             highlight=("histogram", "summary")),
    # g = 12 ≈ log2(n² − n) for n = 64, Henry et al.'s starting value: σ = 12/√64 = 1.5 at d_k = 64.
    Scenario("qk_norm", "follow-up", "QK-normalisation", ":/lesson/followup_qk_norm.html", "QK-norm",
             preset={"d_k": 64, "scaling": "qk_norm", "gain": 12.0},
             highlight=("histogram",)),
    # τ = 1/8 with ÷d_k is microsoft/mup's q·kᵀ·8/d; alignment 0.5 stands in for trained q, k.
    Scenario("mup", "follow-up", "μP: 1/d_k and alignment", ":/lesson/followup_mup.html", "μP ÷d_k",
             preset={"d_k": 1024, "scaling": "dk", "alignment": 0.5, "temperature": 0.125},
             highlight=("histogram", "summary")),
    # The σ dial, low precision and long context (each with its evidence table).
    Scenario("sigma_dial", "follow-up", "Why σ ≈ 1 and not 3: the σ dial", ":/lesson/followup_sigma_dial.html",
             "σ dial", preset={"d_k": 256, "scaling": "none"},
             highlight=("sigma_dial",)),
    Scenario("precision", "follow-up", "Low precision: bfloat16 and float8", ":/lesson/followup_precision.html",
             "bf16 / fp8", preset={"d_k": 1024, "scaling": "none", "dtype": "bfloat16"},
             highlight=("weights", "summary")),
    Scenario("long_context", "follow-up", "Long context: ÷√n versus × log n", ":/lesson/followup_long_context.html",
             "Long context", preset={"d_k": 64, "keys": 131072, "scaling": "log_n"},
             highlight=("weights", "summary")),
    Scenario("interview", "follow-up", "What interviewers ask", ":/lesson/followup_interview.html",
             "Interview", preset={"d_k": 64, "scaling": "sqrt_dk"},
             highlight=("gradient",)),
)


def scenario(key: str) -> Scenario:
    """The scenario called ``key`` (KeyError names the known ones)."""
    for s in SCENARIOS:
        if s.key == key:
            return s
    raise KeyError(f"unknown scenario {key!r}; known: {', '.join(s.key for s in SCENARIOS)}")
