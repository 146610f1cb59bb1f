"""Spot the bug: short attention snippets modelled on public fixes and reports, each with its
one faulty line.

Every snippet is written here in the style of the code its fix changed (none is copied);
``Source`` cites the repository and the issue or pull request. Cards without a source show a
trap no cited fix is about and say that they are illustrative. A card's reveal loads its trap
in the live panels; ``measure`` checks the consequence its answer states (tests: seeds 0–7).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_, _
from sqrtdk_gui.core.lesson.measure import RAW, SCALED, fmt, med, run
from sqrtdk_gui.core.practice.model import Measured, Question, Reading, Source
from sqrtdk_gui.core.practice.traps import uniform_ratio

__all__ = ["CARDS", "NEAR_UNIFORM", "SELECTIVE"]

NEAR_UNIFORM = 3.0  # ÷√d_model rows: the median row's largest weight stays below 3/n ...
SELECTIVE = 5.0  # ... where ÷√d_k's is above 5/n (n = 64 keys)
HEADS_CLIP = 12  # CLIP ViT-B/32's vision encoder: 12 heads of width 64


def _width(p: Params, card: int) -> Measured:
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(scaling=SCALED))
    r = run(p)
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3),
                             f"√(d_k/d_model) = 1/√{p.heads} = {1 / math.sqrt(p.heads):.3f}"),
                     Reading(_("median largest weight"), f"{bad:.2f} / n",
                             _("uniform: 1 / n, n = {n}").format(n=p.keys)),
                     Reading(_("median largest weight after the fix (÷√d_k)"), f"{good:.2f} / n")),
                    card if bad < NEAR_UNIFORM and good > SELECTIVE else None)


def _after(p: Params, card: int) -> Measured:
    r = run(p)
    total = float(np.median(r.row_sums))
    inverse_root = f"1/√{p.d_k} = {1 / math.sqrt(p.d_k):.4f}"
    return Measured((Reading(_("median row sum of the weights"), fmt(total, 4), inverse_root),
                     Reading(_("rows saturated (max p > 0.99)"), f"{100 * r.saturated_fraction:.0f} %",
                             _("after the fix: {value}").format(
                                 value=f"{100 * run(p, scaling=SCALED).saturated_fraction:.0f} %"))),
                    card if abs(total * math.sqrt(p.d_k) - 1) < 1e-6 else None)


def _length(p: Params, card: int) -> Measured:
    r = run(p)
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(scaling=SCALED))
    ok = abs(r.logit_std - math.sqrt(p.d_k / p.keys)) < 0.05 and bad < good
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), f"√(d_k/n) = {math.sqrt(p.d_k / p.keys):.3f}"),
                     Reading(_("median largest weight"), f"{bad:.2f} / n", f"n = {p.keys}"),
                     Reading(_("after the fix (÷√d_k)"), f"{good:.2f} / n")), card if ok else None)


def _missing(p: Params, card: int) -> Measured:
    r, fixed = run(p, scaling=RAW), run(p, scaling=SCALED)
    top = med(r, "max_weight")
    return Measured((Reading(_("median largest weight"), fmt(top, 3),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "max_weight"), 3))),
                     Reading(_("rows saturated (max p > 0.99)"), f"{100 * r.saturated_fraction:.0f} %"),
                     Reading(_("median ‖J‖_F"), fmt(med(r, "jacobian_fro"), 4),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "jacobian_fro"), 3)))),
                    card if top > 0.9 and r.saturated_fraction > 0.3 else None)


def _shrunk(p: Params, card: int) -> Measured:
    r = run(p)
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(scaling=SCALED))
    expected = 1 / math.sqrt(p.d_k)
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), f"√d_k / d_k = 1/√{p.d_k} = {expected:.3f}"),
                     Reading(_("median largest weight"), f"{bad:.2f} / n",
                             _("uniform: 1 / n, n = {n}").format(n=p.keys)),
                     Reading(_("median largest weight after the fix (÷√d_k)"), f"{good:.2f} / n")),
                    card if abs(r.logit_std / expected - 1) < 0.1 and bad < NEAR_UNIFORM and good > SELECTIVE
                    else None)


def _amplified(p: Params, card: int) -> Measured:
    """The logits multiplied by √d_k (the panels: raw logits at temperature 1/√d_k)."""
    r, fixed = run(p), run(p.replace(scaling=SCALED, temperature=1.0))
    top = med(r, "max_weight")
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), f"√d_k · √d_k = d_k = {p.d_k}"),
                     Reading(_("median largest weight"), fmt(top, 3),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "max_weight"), 3))),
                     Reading(_("rows saturated (max p > 0.99)"), f"{100 * r.saturated_fraction:.0f} %"),
                     Reading(_("median ‖J‖_F"), fmt(med(r, "jacobian_fro"), 4),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "jacobian_fro"), 3)))),
                    card if abs(r.logit_std / p.d_k - 1) < 0.1 and top > 0.99 and r.saturated_fraction > 0.5
                    else None)


def _unscaled(p: Params, card: int) -> Measured:
    r, fixed = run(p, scaling=RAW), run(p, scaling=SCALED)
    top, good = med(r, "max_weight"), med(fixed, "max_weight")
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3), f"√d_k = {math.sqrt(p.d_k):g}"),
                     Reading(_("median largest weight"), fmt(top, 3),
                             _("after the fix: {value}").format(value=fmt(good, 3))),
                     Reading(_("median ‖J‖_F"), fmt(med(r, "jacobian_fro"), 4),
                             _("after the fix: {value}").format(value=fmt(med(fixed, "jacobian_fro"), 3)))),
                    card if top > 0.7 and good < 0.2 else None)


def _heads(p: Params, card: int) -> Measured:
    """÷√h instead of ÷√d_k (the panels: raw logits at temperature √h, h = ``HEADS_CLIP``)."""
    # Its rows are peakier yet still responsive (‖J‖ is larger than at σ = 1): the harm is a
    # mismatch with weights trained at ÷√d_k, so the reveal shows the spread and the peaks.
    r = run(p)
    bad, good = uniform_ratio(p), uniform_ratio(p.replace(scaling=SCALED, temperature=1.0))
    expected = math.sqrt(p.d_k / HEADS_CLIP)
    return Measured((Reading(_("σ of the logits"), fmt(r.logit_std, 3),
                             f"√d_k / √{HEADS_CLIP} = {expected:.2f}"),
                     Reading(_("median largest weight"), f"{bad:.1f} / n",
                             _("after the fix: {value}").format(value=f"{good:.1f} / n"))),
                    card if abs(r.logit_std / expected - 1) < 0.1 and bad > 2 * good else None)


def _card(key: str, title: str, language: str, code: str, bad: int, fix: str,
          consequence: Callable[[Params, int], Measured], answer: str,
          testing: str, preset: dict[str, object], panels: tuple[str, ...], lesson: str,
          source: Source | None) -> Question:
    lines = tuple(code.strip("\n").split("\n"))
    return Question(key, "bugs", title, N_("Which line is wrong?"), "line", lines,
                    lambda p: consequence(p, bad), answer, testing, preset=dict(preset), panels=panels,
                    correct=bad, fix=fix, language=language, source=source, lesson=lesson)


_WIDTH_TESTING = N_("whether you can find the one constant that must be the per-head width in code that "
                     "runs without an error — the model trains, just worse.")

CARDS = (
    _card("bug_head_embd", N_("A head of a small GPT"), "PyTorch", """
class Head(nn.Module):
    def __init__(self, n_embd, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)

    def forward(self, x):
        B, T, C = x.shape  # C = n_embd = 384; head_size = 64, 6 heads
        q, k = self.query(x), self.key(x)
        att = (q @ k.transpose(-2, -1)) * C ** -0.5
        att = F.softmax(att, dim=-1)
        return att @ self.value(x)
""", 10, "att = (q @ k.transpose(-2, -1)) * k.shape[-1] ** -0.5", _width,
          N_("÷√d_model: C is the embedding width 384, but q·k sums over head_size = 64 coordinates. σ is 1/√6: "
             "the median row's largest weight stays below 3/n, against above 5/n with ÷√d_k (n = 64 keys)."),
          _WIDTH_TESTING,
          {"d_k": 64, "heads": 6, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("karpathy/ng-video-lecture", "PR #6", "We should scale attention by head size")),
    _card("bug_vit_dim", N_("A ViT attention module"), "PyTorch", """
class Attention(nn.Module):
    def __init__(self, dim, heads=16, dim_head=64):  # dim = 1024
        super().__init__()
        self.heads = heads
        self.scale = dim ** -0.5
        self.to_qkv = nn.Linear(dim, heads * dim_head * 3, bias=False)

    def forward(self, x):
        h = self.heads
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=h)
                   for t in self.to_qkv(x).chunk(3, dim=-1))
        dots = (q @ k.transpose(-1, -2)) * self.scale
        attn = dots.softmax(dim=-1)
        return rearrange(attn @ v, "b h n d -> b n (h d)")
""", 4, "self.scale = dim_head ** -0.5", _width,
          N_("÷√d_model: dim = 1024 is the model width; each head's dot product has dim_head = 64 terms. With 16 "
             "heads σ is 1/4: the median row's largest weight stays below 3/n, against above 5/n with ÷√d_k "
             "(n = 64 keys)."), _WIDTH_TESTING,
          {"d_k": 64, "heads": 16, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("lucidrains/vit-pytorch", "issue #65")),
    _card("bug_vit_emb", N_("Multi-head attention in a ViT tutorial"), "PyTorch", """
class MultiHeadAttention(nn.Module):
    def __init__(self, emb_size=768, num_heads=8):
        super().__init__()
        self.emb_size, self.num_heads = emb_size, num_heads
        self.qkv = nn.Linear(emb_size, emb_size * 3)

    def forward(self, x):
        qkv = rearrange(self.qkv(x), "b n (h d qkv) -> qkv b h n d",
                        h=self.num_heads, qkv=3)
        queries, keys, values = qkv[0], qkv[1], qkv[2]
        energy = torch.einsum("bhqd, bhkd -> bhqk", queries, keys)
        scaling = self.emb_size ** (1 / 2)
        att = F.softmax(energy / scaling, dim=-1)
        return torch.einsum("bhal, bhlv -> bhav", att, values)
""", 11, "scaling = (self.emb_size // self.num_heads) ** (1 / 2)", _width,
          N_("÷√d_model: the energy sums over emb_size // num_heads = 96 coordinates, not 768. σ is 1/√8: the "
             "median row's largest weight stays below 3/n, against above 5/n with ÷√d_k (n = 64 keys)."),
          _WIDTH_TESTING,
          {"d_k": 96, "heads": 8, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("FrancescoSaverioZuppichini/ViT", "#1", "Scaling is wrong")),
    _card("bug_vit_after", N_("A ViT tutorial's attention weights"), "PyTorch", """
    def forward(self, x):
        qkv = rearrange(self.qkv(x), "b n (h d qkv) -> qkv b h n d",
                        h=self.num_heads, qkv=3)
        queries, keys, values = qkv[0], qkv[1], qkv[2]
        energy = torch.einsum("bhqd, bhkd -> bhqk", queries, keys)
        scaling = (self.emb_size // self.num_heads) ** (1 / 2)
        att = F.softmax(energy, dim=-1) / scaling
        att = self.att_drop(att)
        return torch.einsum("bhal, bhlv -> bhav", att, values)
""", 6, "att = F.softmax(energy / scaling, dim=-1)", _after,
          N_("Scaling after the softmax: the raw energies (σ = √96 ≈ 9.8) go into the softmax and saturate; "
             "dividing its output by √96 only makes every row sum to 1/√96 ≈ 0.102 instead of 1."),
          N_("that you know where the scale must act — on the logits — and notice rows that no longer sum to one."),
          {"d_k": 96, "scaling": "after_softmax"}, ("weights",), "after_softmax",
          Source("FrancescoSaverioZuppichini/ViT", "#5", status="open")),
    _card("bug_embed_size", N_("Self-attention written from scratch"), "PyTorch", """
class SelfAttention(nn.Module):
    def __init__(self, embed_size=256, heads=8):
        super().__init__()
        self.embed_size, self.heads = embed_size, heads
        self.head_dim = embed_size // heads

    def forward(self, values, keys, queries, mask):
        # queries, keys, values: (N, len, heads, head_dim)
        energy = torch.einsum("nqhd,nkhd->nhqk", [queries, keys])
        if mask is not None:
            energy = energy.masked_fill(mask == 0, float("-1e20"))
        attention = torch.softmax(energy / self.embed_size ** (1 / 2), dim=3)
        return torch.einsum("nhql,nlhd->nqhd", [attention, values])
""", 11, "attention = torch.softmax(energy / self.head_dim ** (1 / 2), dim=3)", _width,
          N_("÷√d_model: the energy sums over head_dim = 32 coordinates, and embed_size = 256 is eight times that. "
             "σ is 1/√8: the median row's largest weight stays below 3/n, against above 5/n with ÷√d_k "
             "(n = 64 keys)."), _WIDTH_TESTING,
          {"d_k": 32, "heads": 8, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("aladdinpersson/Machine-Learning-Collection", "PR #159", status="unmerged")),
    _card("bug_protein_head", N_("A head in a protein-design notebook"), "PyTorch", """
class Head(nn.Module):
    def forward(self, x):
        B, T, C = x.shape  # C = 64 (embedding); head_size = 16, 4 heads
        k = self.key(x)  # (B, T, 16)
        q = self.query(x)  # (B, T, 16)
        wei = q @ k.transpose(-2, -1) * C**-0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        v = self.value(x)
        return wei @ v
""", 5, "wei = q @ k.transpose(-2, -1) * k.shape[-1]**-0.5", _width,
          N_("÷√d_model: C = 64 is the embedding width, the head size is 16. σ is 1/2: the median row's largest "
             "weight stays below 3/n, against above 5/n with ÷√d_k (n = 64 keys), though the peakier rows go "
             "above 3/n."), _WIDTH_TESTING,
          {"d_k": 16, "heads": 4, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("Graylab/DL4Proteins-notebooks", "#12", status="open")),
    _card("bug_div_dk", N_("Scaled dot-product attention in CNTK"), "CNTK", """
def scaled_dot_product_attention(query, key, value):
    # Attention(Q, K, V), as in Vaswani et al. (2017)
    dk = C.reduce_sum(C.ones_like(query))  # the query's width: d_k = 64
    scores = C.times_transpose(query, key) / dk
    weights = C.softmax(scores, axis=-1)
    return C.times(weights, value)
""", 3, "scores = C.times_transpose(query, key) / C.sqrt(dk)", _shrunk,
          N_("÷d_k where the comment says ÷√d_k: q·k spreads like √d_k, so dividing by d_k = 64 leaves σ = 1/8: "
             "the median row's largest weight stays below 3/n (n = 64 keys; uniform is 1/n). μP divides by d_k on "
             "purpose, with its own initialisation and learning rates and for q and k that training aligns; as a "
             "drop-in for ÷√d_k it flattens attention."),
          N_("whether you know why the root is there: the spread of q·k is √d_k, so ÷d_k overshoots by another "
             "√d_k."),
          {"d_k": 64, "scaling": "dk"}, ("histogram", "weights"), "mup",
          Source("delzac/cntkx", "issue #10", "ScaledDotProductAttention doesn't apply C.sqrt?")),
    _card("bug_scale_divided", N_("A Perceiver's attention"), "PyTorch", """
class MultiHeadAttention(nn.Module):
    def __init__(self, dim, num_heads=8, qk_head_dim=64):
        super().__init__()
        self.num_heads = num_heads
        self.scale = qk_head_dim ** -0.5
        self.to_q = nn.Linear(dim, num_heads * qk_head_dim)
        self.to_k = nn.Linear(dim, num_heads * qk_head_dim)

    def attend(self, q, k, v):
        scores = q @ k.transpose(-2, -1) / self.scale
        weights = scores.softmax(dim=-1)
        return weights @ v
""", 9, "scores = q @ k.transpose(-2, -1) * self.scale", _amplified,
          N_("self.scale is already qk_head_dim ** -0.5, so dividing by it multiplies q·k by √d_k = 8: σ is "
             "d_k = 64 instead of 1, more than half of the rows put over 0.99 on one key and ‖J‖ is near zero. "
             "The live panels show it as raw logits at temperature 1/8, the same factor."),
          N_("whether you check which way a stored scale goes: a reciprocal kept as d ** -0.5 must multiply."),
          {"d_k": 64, "scaling": "none", "temperature": 0.125}, ("weights", "jacobian"), "step:3",
          Source("esceptico/perceiver-io", "issue #9", "Bug in MultiHeadAttention")),
    _card("bug_default_scale", N_("An attention fallback path"), "PyTorch", """
def _prefill(q, k, v, sm_scale=1.0):
    scores = (q @ k.transpose(-2, -1)) * sm_scale
    return torch.softmax(scores, dim=-1) @ v

def attention(q, k, v, kv_cache=None):
    head_dim = q.shape[-1]  # 64 in BERT-base and CLIP
    if kv_cache is not None:  # decoders: the paged kernel
        return kv_cache.attention(q, sm_scale=head_dim ** -0.5)
    return _prefill(q, k, v)  # encoders, or no kernel on this device
""", 8, "return _prefill(q, k, v, sm_scale=head_dim ** -0.5)", _unscaled,
          N_("The fallback calls _prefill without sm_scale, so it keeps its default 1.0: no ÷√d_k at all. At "
             "head_dim = 64 the logits have σ ≈ 8 and the median row puts more than 0.7 on one key, where ÷√d_k "
             "gives less than 0.2. Decoders took the other branch, so only encoders were wrong."),
          N_("whether you follow a scale through a default argument: the path that forgets it runs, returns the "
             "right shapes and is silently wrong."),
          {"d_k": 64, "scaling": "none"}, ("histogram", "weights"), "step:2",
          Source("mlc-ai/mlc-llm", "PR #3426", "[BUG FIXED] fix missing 1/sqrt(d) scaling in attention fallback path")),
    _card("bug_num_heads", N_("CLIP attention on an accelerator"), "ttnn", """
class MultiHeadAttention:
    def __init__(self, q_proj, k_proj, v_proj, num_heads=12):  # width 768
        self.q_proj, self.k_proj, self.v_proj = q_proj, k_proj, v_proj
        self.num_heads = num_heads
        # scaled dot-product attention, head by head
        self.scale = 1.0 / math.sqrt(num_heads)

    def __call__(self, x):
        q, k, v = self.split_heads(x)  # (batch, 12, tokens, 64) each
        scores = ttnn.matmul(q, ttnn.transpose(k, -2, -1)) * self.scale
        return ttnn.matmul(ttnn.softmax(scores, dim=-1), v)
""", 5, "self.scale = (q_proj.weight.shape[0] // num_heads) ** -0.5", _heads,
          N_("÷√num_heads where the comment says ÷√head_dim: CLIP's vision encoder has 12 heads of width 64, so "
             "q·k is divided by √12 ≈ 3.5 instead of 8 and σ is about 2.3 instead of 1. The rows are more than "
             "twice as peaked as with ÷√d_k; nothing fails, and weights trained with ÷8 give quietly wrong "
             "features. The live panels show it as raw logits at temperature √12."),
          N_("whether you read a scale against the formula beside it: the head count and the head width are both "
             "small integers in the same constructor."),
          {"d_k": 64, "scaling": "none", "temperature": math.sqrt(HEADS_CLIP)}, ("histogram", "weights"),
          "sigma_dial",
          Source("tenstorrent/tt-metal", "PR #56789",
                 "[Bug fix] Scale CLIP attention by 1/sqrt(head_dim), not 1/sqrt(num_heads)")),
    _card("bug_seq_len", N_("Cross-attention in NumPy"), "NumPy", """
def attention(q, k, v):
    # q: (m, d_k); k: (n, d_k); v: (n, d_v)
    n = k.shape[0]
    scores = q @ k.T / np.sqrt(n)
    scores -= scores.max(axis=1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=1, keepdims=True)
    return w @ v
""", 3, "scores = q @ k.T / np.sqrt(q.shape[1])", _length,
          N_("A scale from the sequence length: with d_k = 256 and n = 1,024 keys σ is √(256/1024) = 0.5, and the "
             "longer the context the flatter the rows. Keep ÷√d_k; long context has remedies of its own, such as "
             "rescaled rotary positions or a log-n factor on top."),
          N_("that the variance of q·k depends on d_k only, and that long context needs its own, separate answer."),
          {"d_k": 256, "keys": 1024, "scaling": "seq_len"}, ("histogram", "weights"), "seq_len", None),
    _card("bug_missing", N_("An attention function in NumPy"), "NumPy", """
def attention(q, k, v):
    d_k = q.shape[-1]
    scores = q @ k.T
    scores = scores - scores.max(axis=-1, keepdims=True)  # stable softmax
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v
""", 2, "scores = q @ k.T / np.sqrt(d_k)", _missing,
          N_("No ÷√d_k: at d_k = 512 the logits have σ ≈ 22.6, the median row puts more than 0.9 on one key and "
             "‖J‖ is near zero. The max-subtraction on the next line prevents overflow, not this."),
          N_("that a missing scale is found by its symptom (one-hot rows at initialisation), and that the stable "
             "softmax next to it is no substitute."),
          {"d_k": 512, "scaling": "none"}, ("weights", "jacobian"), "stable_softmax", None),
)
