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

import sqrtdk_gui.core.practice.bug_effects as effects
from sqrtdk_gui.core.attention.params import Params
from sqrtdk_gui.core.i18n import N_
from sqrtdk_gui.core.practice.model import Measured, Question, Source

__all__ = ["CARDS", "FAULT", "MAX_PER_FAULT"]

MAX_PER_FAULT = 2  # cards per kind of fault: a gallery, not one bug in many costumes
FAULT: dict[str, str] = {}  # card key -> the kind of fault its line makes


def _card(fault: str, key: str, title: str, language: str, code: str, bad: int, fix: str,
          consequence: Callable[[Params, int], Measured], answer: str,
          testing: str, preset: dict[str, object], panels: tuple[str, ...], lesson: str,
          source: Source | None) -> Question:
    lines = tuple(code.strip("\n").split("\n"))

    def measure(p: Params) -> Measured:
        found = consequence(p, bad)
        return Measured((*found.readings, effects.downstream(p)), found.answer)

    FAULT[key] = fault
    return Question(key, "bugs", title, N_("Which line is wrong?"), "line", lines, measure, answer, testing,
                    preset=dict(preset), panels=panels, correct=bad, fix=fix, language=language, source=source,
                    lesson=lesson)


_WIDTH_TESTING = N_("whether you can find the one constant that must be the per-head width in code that "
                     "runs without an error — the model trains, just worse.")

CARDS = (
    _card("d_model", "bug_head_embd", N_("A head of a small GPT"), "PyTorch", """
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
""", 10, "att = (q @ k.transpose(-2, -1)) * k.shape[-1] ** -0.5", effects.width,
          N_("÷√d_model: C is the embedding width 384, but q·k sums over head_size = 64 coordinates. σ is 1/√6: "
             "the median row's largest weight stays below 3/n, against above 5/n with ÷√d_k (n = 64 keys)."),
          _WIDTH_TESTING,
          {"d_k": 64, "heads": 6, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("karpathy/ng-video-lecture", "PR #6", "We should scale attention by head size")),
    _card("d_model", "bug_vit_dim", N_("A ViT attention module"), "PyTorch", """
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
""", 4, "self.scale = dim_head ** -0.5", effects.width,
          N_("÷√d_model: dim = 1024 is the model width; each head's dot product has dim_head = 64 terms. With 16 "
             "heads σ is 1/4: the median row's largest weight stays below 3/n, against above 5/n with ÷√d_k "
             "(n = 64 keys)."), _WIDTH_TESTING,
          {"d_k": 64, "heads": 16, "scaling": "sqrt_dmodel"}, ("weights", "summary"), "dmodel",
          Source("lucidrains/vit-pytorch", "issue #65")),
    _card("after_softmax", "bug_vit_after", N_("A ViT tutorial's attention weights"), "PyTorch", """
    def forward(self, x):
        qkv = rearrange(self.qkv(x), "b n (h d qkv) -> qkv b h n d",
                        h=self.num_heads, qkv=3)
        queries, keys, values = qkv[0], qkv[1], qkv[2]
        energy = torch.einsum("bhqd, bhkd -> bhqk", queries, keys)
        scaling = (self.emb_size // self.num_heads) ** (1 / 2)
        att = F.softmax(energy, dim=-1) / scaling
        att = self.att_drop(att)
        return torch.einsum("bhal, bhlv -> bhav", att, values)
""", 6, "att = F.softmax(energy / scaling, dim=-1)", effects.after,
          N_("Scaling after the softmax: the raw energies (σ = √96 ≈ 9.8) go into the softmax and saturate; "
             "dividing its output by √96 only makes every row sum to 1/√96 ≈ 0.102 instead of 1."),
          N_("that you know where the scale must act — on the logits — and notice rows that no longer sum to one."),
          {"d_k": 96, "scaling": "after_softmax"}, ("weights",), "after_softmax",
          Source("FrancescoSaverioZuppichini/ViT", "#5", status="open")),
    _card("d_k", "bug_div_dk", N_("Scaled dot-product attention in CNTK"), "CNTK", """
def scaled_dot_product_attention(query, key, value):
    # Attention(Q, K, V), as in Vaswani et al. (2017)
    dk = C.reduce_sum(C.ones_like(query))  # the query's width: d_k = 64
    scores = C.times_transpose(query, key) / dk
    weights = C.softmax(scores, axis=-1)
    return C.times(weights, value)
""", 3, "scores = C.times_transpose(query, key) / C.sqrt(dk)", effects.shrunk,
          N_("÷d_k where the comment says ÷√d_k: q·k spreads like √d_k, so dividing by d_k = 64 leaves σ = 1/8: "
             "the median row's largest weight stays below 3/n (n = 64 keys; uniform is 1/n). μP divides by d_k on "
             "purpose, with its own initialisation and learning rates and for q and k that training aligns; as a "
             "drop-in for ÷√d_k it flattens attention."),
          N_("whether you know why the root is there: the spread of q·k is √d_k, so ÷d_k overshoots by another "
             "√d_k."),
          {"d_k": 64, "scaling": "dk"}, ("histogram", "weights"), "mup",
          Source("delzac/cntkx", "issue #10", "ScaledDotProductAttention doesn't apply C.sqrt?")),
    _card("reciprocal", "bug_scale_divided", N_("A Perceiver's attention"), "PyTorch", """
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
""", 9, "scores = q @ k.transpose(-2, -1) * self.scale", effects.amplified,
          N_("self.scale is already qk_head_dim ** -0.5, so dividing by it multiplies q·k by √d_k = 8: σ is "
             "d_k = 64 instead of 1, more than half of the rows put over 0.99 on one key and ‖J‖ is near zero. "
             "The live panels show it as raw logits at temperature 1/8, the same factor."),
          N_("whether you check which way a stored scale goes: a reciprocal kept as d ** -0.5 must multiply."),
          {"d_k": 64, "scaling": "none", "temperature": 0.125}, ("weights", "jacobian"), "step:3",
          Source("esceptico/perceiver-io", "issue #9", "Bug in MultiHeadAttention")),
    _card("default", "bug_default_scale", N_("An attention fallback path"), "PyTorch", """
def _prefill(q, k, v, sm_scale=1.0):
    scores = (q @ k.transpose(-2, -1)) * sm_scale
    return torch.softmax(scores, dim=-1) @ v

def attention(q, k, v, kv_cache=None):
    head_dim = q.shape[-1]  # 64 in BERT-base and CLIP
    if kv_cache is not None:  # decoders: the paged kernel
        return kv_cache.attention(q, sm_scale=head_dim ** -0.5)
    return _prefill(q, k, v)  # encoders, or no kernel on this device
""", 8, "return _prefill(q, k, v, sm_scale=head_dim ** -0.5)", effects.unscaled,
          N_("The fallback calls _prefill without sm_scale, so it keeps its default 1.0: no ÷√d_k at all. At "
             "head_dim = 64 the logits have σ ≈ 8 and the median row puts more than 0.7 on one key, where ÷√d_k "
             "gives less than 0.2. Decoders took the other branch, so only encoders were wrong."),
          N_("whether you follow a scale through a default argument: the path that forgets it runs, returns the "
             "right shapes and is silently wrong."),
          {"d_k": 64, "scaling": "none"}, ("histogram", "weights"), "step:2",
          Source("mlc-ai/mlc-llm", "PR #3426", "[BUG FIXED] fix missing 1/sqrt(d) scaling in attention fallback path")),
    _card("heads", "bug_num_heads", N_("CLIP attention on an accelerator"), "ttnn", """
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
""", 5, "self.scale = (q_proj.weight.shape[0] // num_heads) ** -0.5", effects.heads,
          N_("÷√num_heads where the comment says ÷√head_dim: CLIP's vision encoder has 12 heads of width 64, so "
             "q·k is divided by √12 ≈ 3.5 instead of 8 and σ is about 2.3 instead of 1. The rows are more than "
             "twice as peaked as with ÷√d_k; nothing fails, and weights trained with ÷8 give quietly wrong "
             "features. The live panels show it as raw logits at temperature √12."),
          N_("whether you read a scale against the formula beside it: the head count and the head width are both "
             "small integers in the same constructor."),
          {"d_k": 64, "scaling": "none", "temperature": math.sqrt(effects.HEADS_CLIP)}, ("histogram", "weights"),
          "sigma_dial",
          Source("tenstorrent/tt-metal", "PR #56789",
                 "[Bug fix] Scale CLIP attention by 1/sqrt(head_dim), not 1/sqrt(num_heads)")),
    _card("seq_len", "bug_seq_len", N_("Cross-attention in NumPy"), "NumPy", """
def attention(q, k, v):
    # q: (m, d_k); k: (n, d_k); v: (n, d_v)
    n = k.shape[0]
    scores = q @ k.T / np.sqrt(n)
    scores -= scores.max(axis=1, keepdims=True)
    w = np.exp(scores)
    w /= w.sum(axis=1, keepdims=True)
    return w @ v
""", 3, "scores = q @ k.T / np.sqrt(q.shape[1])", effects.length,
          N_("A scale from the sequence length: with d_k = 256 and n = 1,024 keys σ is √(256/1024) = 0.5, and the "
             "longer the context the flatter the rows. Keep ÷√d_k; long context has remedies of its own, such as "
             "rescaled rotary positions or a log-n factor on top."),
          N_("that the variance of q·k depends on d_k only, and that long context needs its own, separate answer."),
          {"d_k": 256, "keys": 1024, "scaling": "seq_len"}, ("histogram", "weights"), "seq_len", None),
    _card("missing", "bug_missing", N_("An attention function in NumPy"), "NumPy", """
def attention(q, k, v):
    d_k = q.shape[-1]
    scores = q @ k.T
    scores = scores - scores.max(axis=-1, keepdims=True)  # stable softmax
    weights = np.exp(scores)
    weights /= weights.sum(axis=-1, keepdims=True)
    return weights @ v
""", 2, "scores = q @ k.T / np.sqrt(d_k)", effects.missing,
          N_("No ÷√d_k: at d_k = 512 the logits have σ ≈ 22.6, the median row puts more than 0.9 on one key and "
             "‖J‖ is near zero. The max-subtraction on the next line prevents overflow, not this."),
          N_("that a missing scale is found by its symptom (one-hot rows at initialisation), and that the stable "
             "softmax next to it is no substitute."),
          {"d_k": 512, "scaling": "none"}, ("weights", "jacobian"), "stable_softmax", None),
    _card("twice", "bug_twice", N_("A decoder's attention layer"), "PyTorch", """
class DecoderAttention(nn.Module):
    def __init__(self, embed_dim=768, num_heads=12):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads  # 64
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.kv_proj = nn.Linear(embed_dim, 2 * embed_dim)

    def forward(self, x):
        q = self.split_heads(self.q_proj(x) * self.scaling)
        k, v = (self.split_heads(t) for t in self.kv_proj(x).chunk(2, dim=-1))
        out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        return self.merge_heads(out)
""", 12, "out = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=1.0)", effects.shrunk,
          N_("The scale is applied twice: q already carries head_dim ** -0.5, and scaled_dot_product_attention "
             "divides by √head_dim again unless it is given scale=1.0. q·k ends up divided by 64 = d_k: σ is 1/8 "
             "and the median row's largest weight stays below 3/n (n = 64 keys). Nothing fails; the model "
             "was trained with one factor, so every layer attends too evenly."),
          N_("whether you know that a fused attention function brings its own default scale, so a query scaled "
             "beforehand must switch it off."),
          {"d_k": 64, "scaling": "dk"}, ("histogram", "weights"), "mup",
          Source("huggingface/transformers", "PR #38290", "[`OPT`] Fix attention scaling")),
    _card("latent", "bug_mla", N_("Latent attention in an inference engine"), "Go", """
func (a *Attention) Forward(ctx ml.Context, x ml.Tensor, o *Options) ml.Tensor {
    qNope, qRope := a.splitQuery(ctx, x)    // 192 + 64 per head
    qRope = o.applyRotary(ctx, qRope)
    // absorbed: qNope · W_UK reads the 512-wide latent directly
    qLatent := a.KB.Forward(ctx, qNope)      // 512 per head
    query := qLatent.Concat(ctx, qRope, 0)  // 576 per head
    kv := a.compressedKV(ctx, x)            // 512 + 64, shared by all heads
    scale := 1.0 / math.Sqrt(float64(o.kvLoraRank+o.qkRopeHeadDim))
    return nn.Attention(ctx, query, kv, kv, scale)
}
""", 7, "scale := 1.0 / math.Sqrt(float64(o.qkNopeHeadDim+o.qkRopeHeadDim))", effects.latent,
          N_("The scale comes from the absorbed width 512 + 64 = 576, but absorption only regroups the product: "
             "q·k still sums over the 192 + 64 = 256 trained dimensions. ÷24 instead of ÷16 leaves σ = 2/3 and "
             "flatter rows than the weights expect. The live panels: ÷√d_k at temperature 1.5."),
          N_("whether you take the scale from the dimensions the dot product stands for, not from the shape of "
             "the tensors a rewrite multiplies."),
          {"d_k": 256, "temperature": effects.MLA_WIDTH ** 0.5 / 16}, ("histogram", "weights"), "sigma_dial",
          Source("ollama/ollama", "PR #13893", "glm4moelite: fix attention scale calculation")),
)
