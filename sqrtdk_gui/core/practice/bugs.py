"""Spot the bug: short attention snippets modelled on public fixes, each with its one faulty line.

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

NEAR_UNIFORM = 3.0  # ÷√d_model rows: the median largest weight stays below 3/n ...
SELECTIVE = 5.0  # ... where ÷√d_k's is above 5/n (n = 64 keys)


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
    _card("bug_head_embd", N_("A head scaled by the embedding width"), "PyTorch", """
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
          N_("÷√d_model: C is the embedding width 384, but q·k sums over head_size = 64 coordinates. σ is 1/√6 "
             "and the rows stay within 3/n of uniform."), _WIDTH_TESTING,
          {"d_k": 64, "heads": 6, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("karpathy/ng-video-lecture", "PR #6", "We should scale attention by head size")),
    _card("bug_vit_dim", N_("A scale set from the model width"), "PyTorch", """
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
             "heads σ is 1/4 and the rows stay within 3/n of uniform."), _WIDTH_TESTING,
          {"d_k": 64, "heads": 16, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("lucidrains/vit-pytorch", "issue #65")),
    _card("bug_vit_emb", N_("Scaling by emb_size"), "PyTorch", """
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
          N_("÷√d_model: the energy sums over emb_size // num_heads = 96 coordinates, not 768. σ is 1/√8 and the "
             "rows stay within 3/n of uniform."), _WIDTH_TESTING,
          {"d_k": 96, "heads": 8, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("FrancescoSaverioZuppichini/ViT", "#1", "Scaling is wrong")),
    _card("bug_vit_after", N_("A division in the wrong place"), "PyTorch", """
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
          Source("FrancescoSaverioZuppichini/ViT", "#5")),
    _card("bug_embed_size", N_("embed_size in the softmax"), "PyTorch", """
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
             "σ is 1/√8 and the rows stay within 3/n of uniform."), _WIDTH_TESTING,
          {"d_k": 32, "heads": 8, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("aladdinpersson/Machine-Learning-Collection", "PR #159")),
    _card("bug_protein_head", N_("C**-0.5 in a small head"), "PyTorch", """
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
          N_("÷√d_model: C = 64 is the embedding width, the head size is 16. σ is 1/2 and the rows stay within 3/n "
             "of uniform."), _WIDTH_TESTING,
          {"d_k": 16, "heads": 4, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("Graylab/DL4Proteins-notebooks", "#12")),
    _card("bug_seq_len", N_("A scale from the context length"), "NumPy", """
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
             "longer the context the flatter the rows. Keep ÷√d_k; a log-n factor on top is the real long-context "
             "technique."),
          N_("that the variance of q·k depends on d_k only, and that long context needs its own, separate answer."),
          {"d_k": 256, "keys": 1024, "scaling": "seq_len"}, ("histogram", "weights"), "seq_len", None),
    _card("bug_missing", N_("No scale at all"), "NumPy", """
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
