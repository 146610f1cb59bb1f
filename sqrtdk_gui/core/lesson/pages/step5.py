"""Step 5 · Traps and follow-ups: the step."""

from __future__ import annotations

from sqrtdk_gui.core.i18n import N_
from sqrtdk_gui.core.lesson.page import Step

PAGE = Step(5, N_("Traps and follow-ups"), "step5.html",
            question=N_("Which of these is a correct replacement for ÷√d_k: dividing by √d_model, subtracting "
                        "the row maximum, or dividing by √n (the number of keys)?"),
            answer=N_("None of them. ÷√d_model shrinks σ to 1/√h (near-uniform attention, weaker gradients, and a "
                      "scale that changes with the number of heads); subtracting the maximum only prevents "
                      "overflow; n does not enter a logit's variance (÷√n is right only where n happens to equal "
                      "d_k). The next pages show each."),
            preset={"d_k": 64, "scaling": "sqrt_dk"},
            highlight=(),
            slide=("summary", "weights"))  # the traps change the weights most visibly
