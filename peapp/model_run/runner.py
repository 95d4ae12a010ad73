"""Run a loaded model on tokens and collect, layer by layer, what its attention does with position.

Statistics (all exact, from every query row; none needs the full maps in memory):

- **distance profile** per head: mean weight at distance d = i − j (causal) or |i − j|
  (bidirectional: both sides pooled), over the queries that have a key at that distance;
- **sink share**: mean over queries of the weight on token 0, and on the first ``SINK_SPAN`` tokens;
- **previous-token share** (mean weight at distance 1), **local share** (mean mass within
  distance ≤ ``LOCAL_WINDOW``), **entropy** (mean row entropy, nats), **received** attention
  (mean over queries of each key's weight; sums to 1 over keys);
- **head class** from those numbers with the thresholds in ``CLASS_THRESHOLDS``;
- **RoPE frequency usage** per layer, head and rotary pair: mean over tokens of ‖q_pair‖ times
  mean over tokens of ‖k_pair‖ (the pair's share of |q·k| capacity; Barbero et al. 2024), with
  each pair's wavelength 2π/θ and the trained context;
- **position term vs content term** for the chosen head: RoPE — the real logits beside the same
  head's logits with the rotation undone (q·k of the unrotated vectors); learned absolute — the
  real logits beside the position table's own term (P W_q,h)(P W_k,h)ᵀ·scale (no bias, no
  LayerNorm); as pooled maps plus their spread and correlation.
"""

from __future__ import annotations

import contextvars
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from peapp.errors import ParameterError
from peapp.i18n import translate
from peapp.jobs import Cancelled
from peapp.model_run.blocks import LayerPlan, LayerStats, MapRequest, valid_counts
from peapp.model_run.layers import (
    Rotation,
    frequencies_for,
    layer_types,
    match_rotation,
    measured_frequencies,
    no_cache,
    pair_usage,
    rope_parameters_for,
    temperature_tuned,
    trunk,
    uses_alibi,
)
from peapp.model_run.kept import KeptQK, KeptRun, human, pooled_bytes, qk_bytes
from peapp.model_run.thresholds import CLASS_THRESHOLDS, LOCAL_WINDOW, SINK_SPAN

LM_HEAD_CHUNK = 64  # rows per LM-head product, here and in the probes: 8,192 × 49,152 logits would be 1.6 GB;
# 64 rows keep a 1,024-token run at 170 MB beyond the model instead of 311 MB (256 rows), same CPU time (measured)


@dataclass
class RunOptions:
    layer: int = 0  # the layer whose map (and position/content terms) is pooled
    heads: tuple[int, ...] | None = None  # heads of that layer's map; None: all
    head: int = 0  # the head of the position/content comparison
    map_bins: int = 256  # pooled map cells per axis (fewer when the region is smaller)
    region: tuple[int, int, int, int] | None = None  # (row start, row stop, key start, key stop)
    thumb_bins: int = 32  # every layer × head as a thumbnail of this many cells per axis; 0: none
    return_logits: bool = False
    keep_map_qk: bool = False  # keep the map layer's q and k, so zoom_map can recompute any region exactly
    keep_all: bool = False  # keep every layer × head's pooled map and every layer's q, k (peapp.model_run.kept)
    keep_budget: int | None = None  # the cap on what keep_all keeps (bytes; default a quarter of what can be spared)


@dataclass
class MapQK:
    """The map layer's real q [H, n, d] and k [Hkv, n, d] (after rotation, in the run's dtype;
    widened per region as attend() widens them), and how its attention masks and scales them:
    enough to recompute any region of its maps exactly (8,192 tokens of SmolLM2: 25 MB in float32,
    against 2.4 GB for the layer's full maps)."""

    q: torch.Tensor
    k: torch.Tensor
    scaling: float
    causal: bool
    window: int | None
    softcap: float | None


@dataclass
class RunResult:
    family: str
    scheme: str
    causal: bool
    n_tokens: int
    token_ids: list[int]
    tokens: list[str]
    layers: int
    heads: int
    options: RunOptions
    entropy: np.ndarray  # [L, H]
    sink_first: np.ndarray  # [L, H]
    sink_span: np.ndarray  # [L, H]
    previous_token: np.ndarray  # [L, H]
    local: np.ndarray  # [L, H]
    head_class: list[list[str]]
    distance_profile: np.ndarray  # [L, H, n]
    received: np.ndarray  # [L, H, n]
    attention_map: np.ndarray  # [h, rows, cols] mean weight, NaN where every cell is masked
    map_region: tuple[int, int, int, int]
    map_bin: tuple[int, int]
    thumbnails: np.ndarray | None  # [L, H, t, t]
    logit_map: np.ndarray | None  # [rows, cols] chosen head's real logits, mean per cell
    term_map: np.ndarray | None  # same cells: RoPE content logits / learned position term
    term_kind: str | None  # "content (rotation removed)" | "position table"
    term_summary: dict[str, float] = field(default_factory=dict)
    rope_usage: np.ndarray | None = None  # [L, H, pairs]
    rope_wavelengths: np.ndarray | None = None  # [pairs]
    trained_context: int | None = None
    perplexity: float | None = None
    mean_nll: float | None = None
    logits: np.ndarray | None = None
    output: np.ndarray | None = None  # last hidden state (models without an LM head)
    seconds: float = 0.0
    device: str = "cpu"
    dtype: str = "float32"  # the model's weights and activations (statistics: float32 / float64)
    placement: str = ""  # accelerate's device map in words, when the model was spread
    map_qk: MapQK | None = None  # with RunOptions.keep_map_qk: what zoom_map recomputes regions from
    route: str = "attention function"  # or "hooks": weights captured from the model's own attention modules
    layer_schemes: list[dict[str, Any]] = field(default_factory=list)  # per layer: what its code did with position
    layer_wavelengths: dict[int, np.ndarray] = field(default_factory=dict)  # per RoPE layer: its pairs' wavelengths
    route_memory: int | None = None  # hooks route: bytes one layer's full weights take (held one layer at a time)

    def term_note(self) -> str | None:
        """Why the map layer has no position term beside its real logits (None when it has one)."""
        if self.term_map is not None:
            return None
        info = self.layer_schemes[self.options.layer] if self.options.layer < len(self.layer_schemes) else {}
        position = info.get("position")
        if position == "nope":
            return f"layer {self.options.layer} has no position encoding of its own (NoPE): no rotation to remove."
        if position == "rope":
            return (f"layer {self.options.layer} changes q and k after rotating them, so the rotation cannot be "
                    f"removed on its own.")
        if self.route == "hooks":
            return "the hooks route sees each layer's weights, not its q and k: no position term is separated."
        return f"layer {self.options.layer} has no position term ({position or 'none'})."
    kept: KeptRun | None = None  # with RunOptions.keep_all: every head's map, served without a run

    def to_json(self) -> dict[str, Any]:
        def arr(a):
            return None if a is None else np.where(np.isfinite(a), a, np.nan).astype(float).round(7).tolist()

        def clean(x):  # NaN → None for strict JSON
            if isinstance(x, list):
                return [clean(v) for v in x]
            return None if isinstance(x, float) and math.isnan(x) else x

        return {
            "family": self.family, "scheme": self.scheme, "causal": self.causal, "device": self.device,
            "route": self.route, "route_memory_bytes": self.route_memory, "layer_schemes": self.layer_schemes,
            "dtype": self.dtype, "placement": self.placement or None,
            "n_tokens": self.n_tokens, "token_ids": self.token_ids, "tokens": self.tokens,
            "layers": self.layers, "heads": self.heads, "seconds": round(self.seconds, 3),
            "perplexity": self.perplexity, "mean_nll": self.mean_nll,
            "thresholds": CLASS_THRESHOLDS, "sink_span": SINK_SPAN, "local_window": LOCAL_WINDOW,
            "per_head": {"entropy": arr(self.entropy), "sink_first_token": arr(self.sink_first),
                         f"sink_first_{SINK_SPAN}_tokens": arr(self.sink_span),
                         "previous_token": arr(self.previous_token), "local": arr(self.local),
                         "class": self.head_class},
            "distance_profile": clean(arr(self.distance_profile)),
            "received": arr(self.received),
            "map": {"layer": self.options.layer, "heads": list(self.options.heads or range(self.heads)),
                    "region": list(self.map_region), "cell": list(self.map_bin),
                    "mean_weight": clean(arr(self.attention_map))},
            "thumbnails": clean(arr(self.thumbnails)),
            "position_vs_content": {"layer": self.options.layer, "head": self.options.head,
                                    "note": self.term_note()} if self.logit_map is None else {
                "layer": self.options.layer, "head": self.options.head, "term": self.term_kind,
                "note": self.term_note(),
                "real_logits": clean(arr(self.logit_map)), "term_logits": clean(arr(self.term_map)),
                "summary": {k: clean(v) for k, v in self.term_summary.items()}},  # a constant term: no correlation
            "rope_frequency_usage": None if self.rope_usage is None else {
                "usage": clean(arr(self.rope_usage)), "wavelength": clean(arr(self.rope_wavelengths)),
                "wavelength_per_layer": {str(k): clean(arr(v)) for k, v in self.layer_wavelengths.items()},
                "trained_context": self.trained_context,
                "definition": "mean over tokens of |q_pair| × mean over tokens of |k_pair|, per layer, head, pair "
                              "(pairs as the layer's own layout; null on layers without RoPE)"},
        }


class _Session:
    """A run's attention strategy (:mod:`peapp.model_run.attention_hook`): what every layer's
    attention call of one forward pass reports to."""

    def __init__(self, loaded, n: int, options: RunOptions, progress, cancelled):
        cfg = loaded.config
        self.loaded, self.n, self.options = loaded, n, options
        self.n_layers = int(getattr(cfg, "num_hidden_layers", None) or cfg.n_layer)
        self.n_heads = int(getattr(cfg, "num_attention_heads", None) or cfg.n_head)
        self.progress, self.cancelled = progress, cancelled
        self._modules: dict[int, int] = {}
        self.stats: dict[int, LayerStats] = {}
        self.rope_usage: dict[int, np.ndarray] = {}
        self.causal_of: dict[int, tuple[bool, int | None]] = {}
        self.workspace: dict = {}  # attention's block buffers, shared by the layers
        self.map_qk: MapQK | None = None
        if not 0 <= options.layer < self.n_layers:
            raise ParameterError(f"layer {options.layer} does not exist: the model has layers 0 … {self.n_layers - 1}.")
        heads = options.heads if options.heads is not None else tuple(range(self.n_heads))
        for h in (*heads, options.head):
            if not 0 <= h < self.n_heads:
                raise ParameterError(f"head {h} does not exist: each layer has heads 0 … {self.n_heads - 1}.")
        r0, r1, c0, c1 = options.region or (0, n, 0, n)
        if not (0 <= r0 < r1 <= n and 0 <= c0 < c1 <= n):
            raise ParameterError(f"map region {options.region} is outside the {n} × {n} map.")
        bins = max(1, options.map_bins)
        self.map_req = MapRequest(tuple(heads), min(bins, r1 - r0), min(bins, c1 - c0), (r0, r1), (c0, c1))
        self.term_req = MapRequest((options.head,), self.map_req.row_bins, self.map_req.col_bins, (r0, r1), (c0, c1))
        t = options.thumb_bins
        self.thumb_req = (MapRequest(tuple(range(self.n_heads)), min(t, n), min(t, n), (0, n), (0, n)) if t else None)
        self.position_rows = _position_rows(loaded, n) if loaded.scheme == "learned_absolute" else None
        self.layer_types = layer_types(cfg)
        self.rope_calls: list | None = None  # the model's rotations since the last attention call
        self.layer_info: dict[int, dict[str, Any]] = {}
        self.frequencies: dict[int, torch.Tensor] = {}
        self.route_memory: int | None = None
        # browsing heads without a run (keep_all): every head's pooled map, then every layer's q and k,
        # each only if it fits what is left of the cap
        self.keep_maps = self.keep_qk = self._qk_decided = False
        self.kept_qk: dict[int, KeptQK] = {}
        self.keep_missing = ""
        self.keep_budget = 0
        if options.keep_all:
            from peapp.memory import available_bytes

            self.keep_budget = options.keep_budget if options.keep_budget is not None else available_bytes() // 4
            need = pooled_bytes(self.n_layers, len(heads), *self.map_req.shape())
            self.keep_maps = need <= self.keep_budget
            if not self.keep_maps:
                self.keep_missing = _over_cap("maps", need, self.keep_budget)

    def attend(self, call):
        """peapp's attention strategy for a run: the exact output, with this layer's statistics."""
        layer = self.layer_index(call.module)
        stats, plan = self.begin_layer(layer, call.module, call.query[0], call.key[0], call.causal, call.window,
                                       scaling=call.scale, softcap=call.softcap, own_mask=call.mask is not None,
                                       sinks=call.sinks)
        return call.exact(stats=stats, plan=plan, check=lambda f: self.check(layer, f)), None

    def layer_index(self, module) -> int:
        key = id(module)
        if key not in self._modules:
            self._modules[key] = len(self._modules)
        return self._modules[key]

    def check(self, layer: int, fraction: float) -> None:
        if self.cancelled is not None and self.cancelled():
            raise Cancelled()
        if self.progress is not None:
            self.progress(min(1.0, (layer + fraction) / self.n_layers))

    def describe_layer(self, layer: int, module, causal: bool, window, *, softcap=None, sinks=None,
                       rotation: Rotation | None = None, rotated: bool = False, head_dim: int | None = None) -> None:
        """Record what this layer's code did with position (see :mod:`peapp.model_run.layers`)."""
        cfg = self.loaded.config
        ltype = self.layer_types[layer] if self.layer_types and layer < len(self.layer_types) else None
        info: dict[str, Any] = {"layer": layer, "layer_type": ltype or "full_attention", "causal": bool(causal),
                                "sliding_window": int(window) if window else None,
                                "learned_sinks": sinks is not None, "softcap": float(softcap) if softcap else None,
                                "temperature_tuning": temperature_tuned(module)}
        if ltype == "chunked_attention" and getattr(cfg, "attention_chunk_size", None):
            info["attention_chunk"] = int(cfg.attention_chunk_size)  # Llama 4: keys only within its chunk
        if rotation is not None:
            freqs = frequencies_for(self.loaded.model, ltype)
            if freqs is None or freqs.numel() != rotation.dims // 2:
                freqs = measured_frequencies(rotation)
            self.frequencies[layer] = freqs
            params = rope_parameters_for(cfg, ltype)
            info["position"] = "rope"
            info["rope"] = {"theta": params.get("rope_theta"), "rope_type": params.get("rope_type", "default"),
                            "factor": params.get("factor"), "rotary_dims": rotation.dims, "head_dim": head_dim,
                            "first_rotary_dim": rotation.start, "pair_layout": rotation.layout}
        elif rotated:  # rotated, but q and k changed again before attention (Llama 4's q/k norm)
            info["position"] = "rope"
            info["rope"] = None
        elif uses_alibi(cfg):
            info["position"] = "alibi"
        elif self.loaded.scheme == "learned_absolute":
            info["position"] = "learned_absolute (input)"
        elif self.loaded.scheme == "rope":
            info["position"] = "nope"
        else:
            info["position"] = "none"
        self.layer_info[layer] = info

    def begin_layer(self, layer, module, q, k, causal, window, *, scaling: float, softcap: float | None = None,
                    own_mask: bool = False, sinks=None):
        if layer >= self.n_layers:
            raise ParameterError("the model called attention more often than it has layers; "
                                 "it cannot be run here.")
        calls = self.rope_calls or []
        rotation = match_rotation(calls, q, k) if calls else None
        self.describe_layer(layer, module, causal, window, softcap=softcap, sinks=sinks, rotation=rotation,
                            rotated=bool(calls), head_dim=q.shape[-1])
        if self.rope_calls is not None:
            self.rope_calls.clear()
        self.causal_of[layer] = (causal, window)
        stats = self.stats[layer] = LayerStats(self.n, q.shape[0])
        plan = LayerPlan(workspace=self.workspace)
        if self.thumb_req is not None:
            plan.maps.append(self.thumb_req)
        if layer == self.options.layer or self.keep_maps:
            plan.maps.append(self.map_req)
        if self.keep_maps:
            self._keep_qk(layer, q, k, causal, window, scaling, softcap, own_mask, sinks)
        if layer == self.options.layer:
            plan.logit_maps.append((self.term_req, self.options.head))
            plan.content = self._term_function(module, rotation, q.shape[0] // k.shape[0])
            if self.options.keep_map_qk and not own_mask and sinks is None and not self.keep_qk:
                # (a model's own mask or learned sinks: zoom detail would recompute without them)
                self.map_qk = MapQK(q.detach().clone(), k.detach().clone(), float(scaling), causal,
                                    window, float(softcap) if softcap else None)
        if rotation is not None:
            rq, rk = rotation.outputs
            self.rope_usage[layer] = pair_usage(rq, rk, rotation.layout).cpu().numpy()
        return stats, plan

    def _keep_qk(self, layer, q, k, causal, window, scaling, softcap, own_mask, sinks) -> None:
        """Keep ``layer``'s q and k (the run's dtype) when every layer's fit the cap beside the maps."""
        if not self._qk_decided:  # at the first layer, from its q and k's shapes and dtype
            self._qk_decided = True
            maps = pooled_bytes(self.n_layers, len(self.map_req.heads), *self.map_req.shape())
            need = qk_bytes(self.n_layers, q.shape[0], k.shape[0], self.n, q.shape[-1], q.element_size())
            self.keep_qk = maps + need <= self.keep_budget
            if not self.keep_qk:
                self.keep_missing = _over_cap("qk", need, self.keep_budget - maps)
        if own_mask:  # a model's own mask is not kept: its regions cannot be recomputed
            self.keep_missing = self.keep_missing or translate("TextRun", "this model builds its own attention mask")
            return
        if sinks is not None:  # nor learned sinks (gpt-oss): a region recomputed from q and k would leave them out
            self.keep_missing = self.keep_missing or translate("TextRun", "this model's layers have learned sinks")
            return
        if self.keep_qk:
            self.kept_qk[layer] = KeptQK(q.detach().clone(), k.detach().clone(), float(scaling), causal, window,
                                         float(softcap) if softcap else None)

    def _term_function(self, module, rotation: Rotation | None, group: int):
        if rotation is not None:
            q0, k0 = rotation.q0, rotation.k0

            def content(q_sel, k_sel, heads):  # the family's own q and k before its rotation, widened
                # to float32 as attend() widens the real ones (the chosen heads only: one is 2 MB at 8,192)
                return q0[heads].float(), k0[[h // group for h in heads]].float()

            return content
        if self.position_rows is not None:
            rows = self.position_rows

            def position_term(q_sel, k_sel, heads):
                qp, kp = _position_qk(module, rows, self.n_heads, self.loaded.family)
                return qp[heads], kp[heads]

            return position_term
        return None


def _position_rows(loaded, n: int) -> torch.Tensor:
    from peapp import model_types

    known = model_types.get(loaded.family)
    path, offset = known.position_table, known.position_offset
    assert path is not None  # loading calls a model learned_absolute only when its table is known
    module = trunk(loaded.model)
    for part in path.split("."):
        module = getattr(module, part)
    if offset is None:  # RoBERTa: positions start after the padding index
        offset = int(loaded.config.pad_token_id) + 1
    return module.weight.detach()[offset:offset + n].float()  # the term is computed in float32


def _position_qk(module, rows: torch.Tensor, heads: int, family: str) -> tuple[torch.Tensor, torch.Tensor]:
    """The position rows through this attention module's query and key weights (no bias), as
    [heads, n, d] each."""
    if hasattr(module, "c_attn"):  # GPT-2 Conv1D: y = x W + b, W [E, 3E]
        e = rows.shape[-1]
        w = module.c_attn.weight
        qp, kp = rows @ w[:, :e].float(), rows @ w[:, e:2 * e].float()
    else:
        for qn, kn in (("query", "key"), ("q_lin", "k_lin"), ("q_proj", "k_proj")):
            if hasattr(module, qn):
                qp, kp = rows @ getattr(module, qn).weight.float().T, rows @ getattr(module, kn).weight.float().T
                break
        else:
            raise ParameterError(f"cannot find the query/key weights of {type(module).__name__}.")
    n, width = qp.shape
    d = width // heads
    if family == "opt":  # OPT scales q inside q_proj's caller and passes scaling 1.0
        qp = qp * d ** -0.5
    kv = kp.shape[-1] // d
    qp = qp.view(n, heads, d).transpose(0, 1)
    kp = kp.view(n, kv, d).transpose(0, 1)
    if kv != heads:
        kp = kp.repeat_interleave(heads // kv, dim=0)
    return qp, kp


def tokenize(loaded, text: str, max_tokens: int | None = None) -> tuple[list[int], list[str], bool]:
    """The checkpoint's own tokenizer on ``text``: (ids, token strings, truncated?)."""
    if not text or not text.strip():
        raise ParameterError("the text is empty: type or paste some, or open a .txt file.")
    check_max_tokens(max_tokens)
    limit = max_tokens
    if loaded.scheme == "learned_absolute" and loaded.trained_context:
        limit = min(limit or loaded.trained_context, loaded.trained_context)
    tokenizer = loaded.tokenizer
    # the tokenizer truncates, so its special tokens ([CLS] … [SEP]) stay; its tokenizer.json may
    # carry the training pipeline's own limit (MiniLM: 128) or padding, which are replaced
    if limit:
        tokenizer.enable_truncation(max_length=int(limit))
    else:
        tokenizer.no_truncation()
    tokenizer.no_padding()
    if not limit:
        encoding = tokenizer.encode(text)
        return list(encoding.ids), list(encoding.tokens), False
    # only what the limit needs is tokenised: a growing prefix, until tokens past the limit show that
    # the kept ones are those of the whole text (a 16 MB text for 64 tokens took seconds)
    chars = max(4096, int(limit) * 16)
    while True:
        part = text[:chars]
        encoding = tokenizer.encode(part)
        beyond = sum(len(o.ids) for o in encoding.overflowing)
        if len(part) == len(text) or beyond >= _PREFIX_MARGIN:
            return list(encoding.ids), list(encoding.tokens), bool(encoding.overflowing) or len(part) < len(text)
        chars *= 4


#: tokens past the limit that show a prefix's first tokens are the whole text's
_PREFIX_MARGIN = 16
#: the most tokens one run or probe takes (memory is checked against the model as well)
MAX_TOKENS = 131_072


def check_max_tokens(max_tokens: int | None, what: str = "--max-tokens") -> None:
    if max_tokens is not None and not 2 <= max_tokens <= MAX_TOKENS:
        raise ParameterError(f"{what} must be between 2 and {MAX_TOKENS:,} (got {max_tokens:,}).")


def estimate_run_bytes(loaded, n: int) -> int:
    """Peak extra memory of a run: a block of weights (and its logits and exponentials), the
    per-layer statistic sums, a layer's activations and the LM-head chunk."""
    cfg = loaded.config
    from peapp.model_run.blocks import BLOCK_ENTRIES

    hidden = int(getattr(cfg, "hidden_size", None) or cfg.n_embd)
    inter = int(getattr(cfg, "intermediate_size", None) or getattr(cfg, "n_inner", None) or 4 * hidden)
    layers = int(getattr(cfg, "num_hidden_layers", None) or cfg.n_layer)
    heads = int(getattr(cfg, "num_attention_heads", None) or cfg.n_head)
    vocab = int(getattr(cfg, "vocab_size", 0))
    from peapp.model_run.placement import BYTES

    block = 4 * BLOCK_ENTRIES * 4  # float32 logits and weights whatever the model's dtype
    statistic_sums = layers * heads * 3 * n * 8
    activations = n * (8 * hidden + 3 * inter) * BYTES.get(getattr(loaded, "dtype", "float32"), 4)
    head_chunk = LM_HEAD_CHUNK * vocab * 4 * 3
    route = 0
    if getattr(loaded, "route", "") == "hooks":  # one layer's full weights, held by the model's own attention
        from peapp.model_run.hook_route import route_bytes

        route = route_bytes(cfg, n)
    return block + statistic_sums + activations + head_chunk + route


def run_model(loaded, token_ids: list[int], options: RunOptions | None = None, tokens: list[str] | None = None,
              progress: Callable[[float], None] | None = None,
              cancelled: Callable[[], bool] | None = None, memory_budget: int | None = None) -> RunResult:
    """Run ``loaded`` on ``token_ids`` with peapp's attention and collect every statistic."""
    from peapp.model_run.hook_route import HookRoute
    from peapp.model_run.layers import install_rotary_recording, start_recording, stop_recording
    from peapp.model_run.loading import _refuse_if_too_big

    options = options or RunOptions()
    n = len(token_ids)
    if n < 2:
        raise ParameterError("the text is a single token: give at least two.")
    if loaded.scheme == "learned_absolute" and loaded.trained_context and n > loaded.trained_context:
        raise ParameterError(f"{n:,} tokens, but this model's learned position table has "
                             f"{loaded.trained_context:,} rows: use at most that many.")
    _refuse_if_too_big(estimate_run_bytes(loaded, n), f"running {n:,} tokens", memory_budget)
    started = time.perf_counter()
    session = _Session(loaded, n, options, progress, cancelled)
    ids = torch.tensor([token_ids], dtype=torch.long, device=loaded.device)
    install_rotary_recording(loaded.model)
    rotations, session.rope_calls = start_recording()
    hooks = HookRoute(loaded, session) if loaded.route == "hooks" else None
    try:
        with torch.no_grad():
            logits, nll, output = _forward(loaded, ids, options.return_logits, session)
    finally:
        stop_recording(rotations)
        if hooks is not None:
            hooks.remove()
    if len(session.stats) != session.n_layers:
        raise ParameterError(f"only {len(session.stats)} of {session.n_layers} layers went through peapp's "
                             f"attention; this model cannot be run here.")
    result = _assemble(loaded, session, token_ids, tokens, logits, nll, output)
    result.seconds = time.perf_counter() - started
    return result


class _HiddenRows:
    """What the base model returns to its LM class during :func:`head_logits`: the given rows as
    its last hidden state (``.last_hidden_state`` or ``[0]``), nothing else (None)."""

    def __init__(self, rows: torch.Tensor):
        self.last_hidden_state = rows

    def __getitem__(self, index):
        if index == 0:
            return self.last_hidden_state
        raise IndexError(index)

    def __getattr__(self, name: str):
        return None


# The rows a trunk returns instead of running, during head_logits' own call on this thread
# (contextvars are per thread): a job using the model meanwhile runs the trunk as usual.
_stand_in_rows: contextvars.ContextVar[_HiddenRows | None] = contextvars.ContextVar("peapp_head_rows",
                                                                                   default=None)
_STANDS_IN = "__peapp_stands_in__"


def _stand_in_per_call(module) -> None:
    """Let ``module`` return the rows of a head_logits call instead of running (wrapped once;
    outside such a call its own forward, unchanged)."""
    if getattr(module.forward, _STANDS_IN, False):
        return
    forward = module.forward

    def forward_or_rows(*args, **kwargs):
        rows = _stand_in_rows.get()
        return forward(*args, **kwargs) if rows is None else rows

    setattr(forward_or_rows, _STANDS_IN, True)
    module.forward = forward_or_rows  # an attribute of this module: atomic for a job running meanwhile


def head_logits(model, hidden: torch.Tensor) -> torch.Tensor:
    """float32 logits of some final hidden rows [rows, width], taken as the model's own forward
    takes them: its LM head and whatever its class does after it (Cohere's ``logit_scale``,
    Granite's ``logits_scaling``, Gemma's final soft-cap, …).  The base model returns these rows
    instead of running, for this one call only; nothing runs twice."""
    from transformers import PreTrainedModel

    from peapp.model_run.attention_hook import ATTENTION_NAME, FORBIDDEN, STRATEGY

    base = trunk(model)
    # the trunk, and a trunk's own sub-model the LM class may call instead (OPT: model.decoder)
    for module in (base, *(c for c in base.children() if isinstance(c, PreTrainedModel))):
        _stand_in_per_call(module)
    token = _stand_in_rows.set(_HiddenRows(hidden.unsqueeze(0)))
    try:
        ids = torch.zeros(1, hidden.shape[0], dtype=torch.long, device=hidden.device)
        # an LM class that ran its layers again would fail here, not count twice
        forbid = {STRATEGY: FORBIDDEN} if model.config._attn_implementation == ATTENTION_NAME else {}
        logits = model(input_ids=ids, use_cache=False, **forbid).logits
    finally:
        _stand_in_rows.reset(token)
    return logits[0].float()


def _forward(loaded, ids: torch.Tensor, want_logits: bool, session: _Session):
    """(logits or None, mean next-token NLL or None, last hidden state or None); causal LMs
    through the base model and the LM head in chunks, never the whole logit matrix at once."""
    from peapp.model_run.attention_hook import strategy_kwargs

    model = loaded.model
    strategy = strategy_kwargs(loaded, session)
    head = model.get_output_embeddings() if loaded.causal else None
    if head is None or trunk(model) is model:
        out = model(input_ids=ids, **strategy, **no_cache(model))
        logits = getattr(out, "logits", None)
        hidden = None if logits is not None else out[0]
        return (None if logits is None else logits[0].float().cpu().numpy(), None,
                None if hidden is None else hidden[0].float().cpu().numpy())
    hidden = trunk(model)(input_ids=ids, **strategy, **no_cache(trunk(model)))[0][0]
    total, kept = 0.0, []
    targets = ids[0, 1:]
    for start in range(0, hidden.shape[0], LM_HEAD_CHUNK):
        chunk = head_logits(model, hidden[start:start + LM_HEAD_CHUNK])
        if want_logits:
            kept.append(chunk.cpu())
        rows = chunk[: max(0, min(LM_HEAD_CHUNK, targets.shape[0] - start))]
        if rows.shape[0]:
            total += float(torch.nn.functional.cross_entropy(
                rows, targets[start:start + rows.shape[0]].to(rows.device), reduction="sum"))
    nll = total / targets.shape[0]
    return (torch.cat(kept).numpy() if want_logits else None), nll, None


def _classify(prev: float, sink: float, local: float) -> str:
    if prev >= 0.5:
        return "previous_token"
    if sink >= 0.5:
        return "sink"
    if local >= 0.7:
        return "local"
    return "broad"


def _assemble(loaded, session: _Session, token_ids, tokens, logits, nll, output) -> RunResult:
    n, L, H = session.n, session.n_layers, session.n_heads
    entropy = np.zeros((L, H))
    received = np.zeros((L, H, n))
    profile = np.zeros((L, H, n))
    previous = np.zeros((L, H))
    local = np.zeros((L, H))
    pairs_at = np.arange(n, 0, -1, dtype=np.float64)  # queries with a key at distance d: n − d
    for layer, st in session.stats.items():
        entropy[layer] = (st.entropy / n).numpy()
        received[layer] = (st.received / n).numpy()
        diag = st.diagonal.numpy()  # index key − query + n − 1
        backward = diag[:, :n][:, ::-1]  # distance d = query − key = 0 … n − 1
        weight_at = backward.copy()  # Σ over queries of the weight at distance d (both sides)
        counts = pairs_at.copy()
        if not loaded.causal:
            weight_at[:, 1:] += diag[:, n:]  # key − query = 1 … n − 1
            counts[1:] *= 2
        profile[layer] = weight_at / counts
        previous[layer] = backward[:, 1] / (n - 1)  # mean over queries that have a previous token
        local[layer] = weight_at[:, :LOCAL_WINDOW + 1].sum(-1) / n
    sink_first = received[:, :, 0]
    sink_span = received[:, :, :SINK_SPAN].sum(-1)
    classes = [[_classify(previous[l_, h], sink_first[l_, h], local[l_, h]) for h in range(H)] for l_ in range(L)]
    st = session.stats[session.options.layer]
    causal, window = session.causal_of[session.options.layer]
    counts = valid_counts(session.map_req, n, causal, window)
    attention_map = _mean(st.maps, session.map_req, counts)
    thumbs = None
    if session.thumb_req is not None:
        tcounts = {layer: valid_counts(session.thumb_req, n, *session.causal_of[layer]) for layer in session.stats}
        thumbs = np.stack([_mean(session.stats[layer].maps, session.thumb_req, tcounts[layer])
                           for layer in range(L)])
    logit_map = term_map = None
    summary: dict[str, float] = {}
    tcount = valid_counts(session.term_req, n, causal, window)
    for entry in st.logit_maps:
        if entry[2] == "count":  # the model's own mask decided which cells exist
            tcount = entry[3].numpy()[0]
    for entry in st.logit_maps:
        _req, _head, kind, sums = entry
        values = np.where(tcount > 0, sums.numpy()[0] / np.maximum(tcount, 1), np.nan)
        if kind == "real":
            logit_map = values
        elif kind == "term":
            term_map = values
    map_position = session.layer_info.get(session.options.layer, {}).get("position")
    moments = st.logit_moments.get(session.options.head)
    if moments is not None:
        sx, sxx, sy, syy, sxy, c = (float(v) for v in moments)
        var_x, var_y = sxx / c - (sx / c) ** 2, syy / c - (sy / c) ** 2
        cov = sxy / c - sx * sy / c**2
        summary = {"real_std": math.sqrt(max(var_x, 0)), "term_std": math.sqrt(max(var_y, 0)),
                   "correlation": cov / math.sqrt(var_x * var_y) if var_x > 0 and var_y > 0 else float("nan"),
                   "cells": c}
        if map_position == "rope":  # real = content + the part rotation adds
            var_d = var_x + var_y - 2 * cov
            summary["rotation_std"] = math.sqrt(max(var_d, 0))
    rope_usage = wavelengths = None
    layer_wavelengths: dict[int, np.ndarray] = {}
    if session.rope_usage:
        pairs = max(u.shape[-1] for u in session.rope_usage.values())
        rope_usage = np.full((L, H, pairs), np.nan)
        for layer, usage in session.rope_usage.items():
            rope_usage[layer, :, :usage.shape[-1]] = usage
        with np.errstate(divide="ignore"):
            layer_wavelengths = {layer: (2 * math.pi / f.double().numpy()) for layer, f in session.frequencies.items()}
        first = min(layer_wavelengths)
        wavelengths = layer_wavelengths[session.options.layer if session.options.layer in layer_wavelengths
                                        else first]
    term_kind = {"rope": "content (rotation removed)",
                 "learned_absolute (input)": "position table"}.get(str(map_position))
    if term_map is None:
        term_kind = None
    perplexity = math.exp(nll) if nll is not None and nll < 700 else (math.inf if nll is not None else None)
    return RunResult(
        family=loaded.family, scheme=loaded.scheme, causal=loaded.causal, n_tokens=n,
        token_ids=list(map(int, token_ids)), tokens=list(tokens) if tokens is not None else [],
        layers=L, heads=H, options=session.options, entropy=entropy, sink_first=sink_first,
        sink_span=sink_span, previous_token=previous, local=local, head_class=classes,
        distance_profile=profile, received=received, attention_map=attention_map,
        map_region=(*session.map_req.rows, *session.map_req.cols), map_bin=session.map_req.bin_sizes(),
        thumbnails=thumbs, logit_map=logit_map, term_map=term_map, term_kind=term_kind, term_summary=summary,
        rope_usage=rope_usage, rope_wavelengths=wavelengths, trained_context=loaded.trained_context,
        perplexity=perplexity, mean_nll=nll, logits=logits, output=output, device=loaded.device,
        dtype=getattr(loaded, "dtype", "float32"), placement=getattr(loaded, "placement", ""),
        map_qk=session.map_qk if session.map_qk is not None else _as_map_qk(session.kept_qk.get(session.options.layer)),
        route=loaded.route, layer_schemes=[session.layer_info[i] for i in range(L)],
        layer_wavelengths=layer_wavelengths, route_memory=session.route_memory,
        kept=_kept(session))


def _over_cap(what: str, need: int, budget: int) -> str:
    if what == "maps":
        text = translate("TextRun", "every head's pooled map would need {need}, over the {cap} kept for browsing heads")
    else:
        text = translate("TextRun", "every layer's q and k would need {need}, over the {cap} left for them")
    return text.format(need=human(need), cap=human(max(budget, 0)))


def _as_map_qk(kept: KeptQK | None) -> MapQK | None:
    return None if kept is None else MapQK(kept.q, kept.k, kept.scaling, kept.causal, kept.window, kept.softcap)


def _kept(session: _Session) -> KeptRun | None:
    """Every head's pooled map (and q, k) the run kept for browsing, or None if it kept none."""
    if not session.options.keep_all:
        return None
    n, req = session.n, session.map_req
    maps = None
    if session.keep_maps:
        maps = np.stack([_mean(session.stats[layer].maps, req, valid_counts(req, n, *session.causal_of[layer]))
                         for layer in range(session.n_layers)]).astype(np.float32)
        for layer in range(session.n_layers):  # the sums are in the maps now: free them as they go
            if layer != session.options.layer:
                session.stats[layer].maps = [e for e in session.stats[layer].maps if e[0] is not req]
    return KeptRun(n=n, heads=tuple(req.heads), maps=maps, map_region=(*req.rows, *req.cols), map_bin=req.bin_sizes(),
                   qk=dict(session.kept_qk), missing=session.keep_missing, budget=session.keep_budget)


def zoom_map(run: RunResult, rows: tuple[int, int], cols: tuple[int, int], bins: int,
             heads: tuple[int, ...] | None = None) -> tuple[np.ndarray, tuple[int, int, int, int], tuple[int, int]]:
    """The map layer's exact mean weights over ``rows`` × ``cols`` in at most ``bins`` cells per
    axis, recomputed from the q and k the run kept (``RunOptions(keep_map_qk=True)``): (values
    [h, rows, cols] with NaN where every cell is masked, region, cell size in tokens)."""
    from peapp.model_run.blocks import region_sums

    kept = run.map_qk
    if kept is None:
        raise ParameterError("this run kept no q and k to zoom into (run it with keep_map_qk=True; a model that "
                             "builds its own attention mask gives none).")
    n = run.n_tokens
    r0, r1 = max(0, int(rows[0])), min(n, int(rows[1]))
    c0, c1 = max(0, int(cols[0])), min(n, int(cols[1]))
    if r1 <= r0 or c1 <= c0:
        raise ParameterError(f"the region {rows} × {cols} is outside the {n} × {n} map.")
    chosen = tuple(heads) if heads is not None else tuple(run.options.heads or range(run.heads))
    bins = max(1, int(bins))
    req = MapRequest(chosen, min(bins, r1 - r0), min(bins, c1 - c0), (r0, r1), (c0, c1))
    sums = region_sums(kept.q, kept.k, req, scaling=kept.scaling, causal=kept.causal, window=kept.window,
                       softcap=kept.softcap).numpy()
    counts = valid_counts(req, n, kept.causal, kept.window)
    return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan), (r0, r1, c0, c1), req.bin_sizes()


def _mean(store: list, req: MapRequest, counts: np.ndarray) -> np.ndarray:
    for entry in store:
        if entry[0] is req:
            sums = entry[-1].numpy()
            return np.where(counts > 0, sums / np.maximum(counts, 1), np.nan)
    raise AssertionError("map was not collected")  # pragma: no cover - every layer pools its requests
