"""Attention sinks measured: perplexity with a sliding KV window, with and without the first tokens kept.

Xiao et al. 2024 ("Efficient Streaming Language Models with Attention Sinks", StreamingLLM):
with a KV cache that keeps only the last W tokens, perplexity blows up as soon as the first
tokens leave the cache; keeping the first K ("sink") tokens beside the window keeps it flat
(Llama-2-13B on PG19: window attention perplexity 5158 once the start is evicted, 4 sinks +
window 5.40, dense 5.43 within its context).

Three curves, each one forward pass over the first n tokens (see :func:`streaming_probe`):

* ``full`` — every query sees every earlier key (the plain perplexity probe's "as trained");
* ``window`` — query i sees keys i − W + 1 … i (a rolling cache of W tokens);
* ``window+sinks`` — the same window plus keys 0 … K − 1 (a cache of K + W tokens).

**Exactly what streaming computes, in one pass.**  In streaming generation every token's keys
and values are computed once, when it arrives, from the cache of that moment.  Here every query
row of every layer is given exactly its own cache as a mask (the strategy
:class:`StreamingStrategy` that this probe hands peapp's attention function for the pass), so each token's hidden
states — and so the keys and values later tokens read — are those of streaming generation.

**Positions: as StreamingLLM assigns them inside the cache.**  Xiao et al. (Sec. 3.2) number
positions by place in the cache, not in the text: the sinks keep 0 … K − 1, the window's tokens
follow at K … K + W − 1 and the newest token (the query) is at K + W − 1.  With RoPE only the
difference of positions enters q·k, so a query's distance to a window key is its true distance
i − j, and to sink s it is K + W − 1 − s (not i − s).  Why this convention: with the text's own
positions the sinks would sit further and further away, at distances past anything the model
was trained on — the experiment would then measure length extrapolation, not the loss of the
sinks.  Here the query is re-rotated for its sink logits by the difference (RoPE rotations
compose), with the model's own frequencies (:func:`peapp.model_run.probes.model_rope_spec`).
Models without rotary positions are refused (a learned table has no such convention).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from peapp.errors import CheckpointError, ParameterError
from peapp.jobs import Cancelled
from peapp.model_run.probes import (VariantCurve, _head_rows, _layer_count, model_rope_spec,
                                    require_causal_lm, saved_dtype, saved_float, saved_int, saved_numbers)
from peapp.model_run.attention_hook import strategy_kwargs
from peapp.model_run.runner import LM_HEAD_CHUNK

CURVES = ("full", "window", "window+sinks")
CURVE_LABELS = {"full": "full context", "window": "window", "window+sinks": "window + sinks"}
DEFAULT_LENGTH = 2048
DEFAULT_WINDOW = 256
DEFAULT_SINKS = 4
DEFAULT_BIN = 128
MAX_STREAMING_TOKENS = 32_768  # (peapp.model_run.probe_run spells these out for the torch-free view; a test
MAX_SINKS = 64  # keeps them equal)
ROWS_PER_BLOCK = 128
CITATION = ("Xiao et al. 2024, Efficient Streaming Language Models with Attention Sinks (ICLR 2024), "
            "Llama-2-13B on PG19")
#: the paper's Table 1 / Fig. 3 numbers, drawn as the paper's (another model, text and length)
REFERENCE: dict[str, Any] = {"citation": CITATION, "model": "Llama-2-13B", "text": "PG19 (book), 20K+ tokens",
             "cache": "1024 (window) / 4 sinks + 1020 (StreamingLLM)",
             "perplexity": {"full": 5.43, "window": 5158.07, "window+sinks": 5.40},
             "finding": "window attention collapses once the first tokens leave the cache; keeping 4 initial "
                        "tokens restores perplexity to the dense model's"}

ProgressFn = Callable[[float], None]
CancelFn = Callable[[], bool]


@dataclass
class StreamingStrategy:
    """The streaming probe's strategy for peapp's attention function (see
    :mod:`peapp.model_run.attention_hook`) during one pass: the cache's shape and the model's RoPE."""

    window: int | None  # None: full context
    sinks: int
    inv_freq: torch.Tensor | None
    layout: str
    n_layers: int
    progress: ProgressFn | None
    cancelled: CancelFn | None
    layers: dict[int, int] = field(default_factory=dict)

    def enter(self, module) -> None:
        layer = self.layers.setdefault(id(module), len(self.layers))
        if self.cancelled is not None and self.cancelled():
            raise Cancelled()
        if self.progress is not None:
            self.progress(min(1.0, layer / max(1, self.n_layers)))

    def attend(self, call) -> tuple[torch.Tensor, None]:
        return streaming_attention(self, call)


def cache_mask(rows: torch.Tensor, n_keys: int, window: int | None, sinks: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(allowed [r, n], sink-only [r, n]) for query positions ``rows``: a query i sees key j ≤ i
    with j > i − W (the window) or j < K (a sink); "sink-only" marks the sinks outside the window,
    whose logits take StreamingLLM's cache positions."""
    cols = torch.arange(n_keys, device=rows.device)[None, :]
    at = rows[:, None]
    causal = cols <= at
    if window is None:
        return causal, torch.zeros_like(causal)
    in_window = cols > at - window
    sink = (cols < sinks) & ~in_window & causal
    return causal & (in_window | sink), sink


def streaming_attention(cache: StreamingStrategy, call) -> tuple[torch.Tensor, None]:
    """One layer's exact attention where every query row sees only its own cache (see the module)."""
    query, key, value, scaling = call.query, call.key, call.value, call.scaling
    if call.softcap or call.window or call.sinks is not None:
        raise CheckpointError("this model's attention has a soft-cap, its own sliding window or learned sink "
                              "logits; the streaming probe models plain causal attention only.")
    cache.enter(call.module)
    q, k, v = query[0].float(), key[0].float(), value[0].float()
    heads, n, _ = q.shape
    group = heads // k.shape[0]
    if group > 1:
        k, v = k.repeat_interleave(group, dim=0), v.repeat_interleave(group, dim=0)
    scale = float(scaling) if scaling is not None else q.shape[-1] ** -0.5
    window, sinks = cache.window, cache.sinks
    out = torch.empty_like(q)
    for r0 in range(0, n, ROWS_PER_BLOCK):
        r1 = min(n, r0 + ROWS_PER_BLOCK)
        rows = torch.arange(r0, r1, device=q.device)
        lo = 0 if window is None or sinks else max(0, r0 - window + 1)
        allowed, sink = cache_mask(rows, r1, window, sinks)
        allowed, sink = allowed[:, lo:], sink[:, lo:]
        logits = torch.matmul(q[:, r0:r1], k[:, lo:r1].transpose(1, 2)) * scale  # [H, r, keys]
        if sinks and window is not None and bool(sink.any()):
            # the query at its cache position min(i, K + W − 1) for the sink keys (rotations compose)
            shift = (torch.clamp(rows, max=sinks + window - 1) - rows).to(torch.float32)
            from peapp.encodings.rope import apply

            assert cache.inv_freq is not None
            q_at = apply(q[:, r0:r1], shift, cache.inv_freq.to(q.device), layout=cache.layout)
            sink_logits = torch.matmul(q_at, k[:, :sinks].transpose(1, 2)) * scale  # [H, r, K]
            head = logits[..., :sinks]
            logits[..., :sinks] = torch.where(sink[None, :, :sinks], sink_logits, head)
        logits = logits.masked_fill(~allowed[None], float("-inf"))
        out[:, r0:r1] = torch.matmul(torch.softmax(logits, dim=-1), v[:, lo:r1])
    return out.to(query.dtype).transpose(0, 1).unsqueeze(0), None


def streaming_nll(loaded, token_ids: Sequence[int], window: int | None, sinks: int,
                  progress: ProgressFn | None = None, cancelled: CancelFn | None = None) -> np.ndarray:
    """−log p(token_i | the cache of position i − 1) for i = 1 … n − 1 (float64 [n − 1])."""
    require_causal_lm(loaded)
    inv_freq, layout = None, "half"
    if window is not None and sinks:
        spec = model_rope_spec(loaded)
        if spec.rotary_dim != spec.head_dim:
            raise CheckpointError(f"this {loaded.family} model rotates only {spec.rotary_dim} of {spec.head_dim} "
                                  f"dimensions; the streaming probe re-rotates whole heads and is not exact here.")
        inv_freq, layout = spec.inv_freq(None)[0], spec.layout
    cache = StreamingStrategy(window=window, sinks=sinks, inv_freq=inv_freq, layout=layout,
                              n_layers=_layer_count(loaded), progress=progress, cancelled=cancelled)
    n = len(token_ids)
    ids = torch.tensor([list(token_ids)], dtype=torch.long, device=loaded.device)
    with torch.no_grad():
        hidden = loaded.model.base_model(input_ids=ids, **strategy_kwargs(loaded, cache))[0][0]
    if len(cache.layers) != cache.n_layers:  # the hooks route: the model's own attention, no cache
        raise CheckpointError(f"only {len(cache.layers)} of {cache.n_layers} layers of this {loaded.family} model "
                              f"went through peapp's attention; the streaming probe cannot run on it.")
    targets = ids[0, 1:]
    nll = np.empty(n - 1, dtype=np.float64)
    with torch.no_grad():
        for start in range(0, n - 1, LM_HEAD_CHUNK):
            stop = min(n - 1, start + LM_HEAD_CHUNK)
            logits = _head_rows(loaded, hidden[start:stop])
            nll[start:stop] = torch.nn.functional.cross_entropy(
                logits, targets[start:stop], reduction="none").double().cpu().numpy()
    return nll


def estimate_streaming_seconds(loaded, token_ids: Sequence[int], n: int, window: int, sinks: int,
                               cancelled: CancelFn | None = None):
    """How long the three passes of :func:`streaming_probe` over ``n`` tokens should take: the window + sinks
    pass timed on two prefixes (as :func:`peapp.model_run.probes.estimate_seconds` times the plain forward;
    the full-context and window passes go through the same attention), fitted and scaled to three runs."""
    from peapp.model_run.probes import ESTIMATE_LENGTHS, LONG_ESTIMATE, fit_time

    available = min(n, len(token_ids))
    lengths = [2 * m for m in ESTIMATE_LENGTHS] if n >= LONG_ESTIMATE else list(ESTIMATE_LENGTHS)
    lengths = [m for m in lengths if m < available] or [max(2, available // 2)]
    if len(lengths) == 1:
        lengths = [max(2, lengths[0] // 2), lengths[0]]
    streaming_nll(loaded, token_ids[:max(2, min(64, available))], window, sinks, cancelled=cancelled)  # warm-up
    measured = []
    for m in lengths:
        started = time.perf_counter()
        streaming_nll(loaded, token_ids[:m], window, sinks, cancelled=cancelled)
        measured.append((m, time.perf_counter() - started))
    return fit_time(measured, n, len(CURVES))


@dataclass
class StreamingResult:
    family: str
    architecture: str
    scheme: str
    n_tokens: int
    window: int  # W: the KV window in tokens
    sinks: int  # K: first tokens kept
    bin: int  # positions per point of the curves
    trained_context: int | None
    curves: list[VariantCurve] = field(default_factory=list)
    seconds: float = 0.0
    device: str = "cpu"
    dtype: str = "float32"  # the model's weights and activations (the log-probabilities: float64)

    def curve(self, name: str) -> VariantCurve | None:
        return next((c for c in self.curves if c.variant == name), None)

    def evicted_from(self) -> int:
        """The first position whose window no longer holds token 0 (where the curves may part)."""
        return self.window

    def verdict(self) -> str:
        """Whether this model needs sinks, in one sentence, from the measured perplexities after
        the first tokens leave the window."""
        from peapp.i18n import translate

        full, win, sink = (self.curve(c) for c in CURVES)
        start = self.window + 1
        if full is None or win is None or sink is None or self.n_tokens <= start + 1:
            return translate("Streaming", "The text is not longer than the window: nothing is evicted, so the three "
                                          "curves are the same; choose a length above the window.")
        f, w, s = (c.perplexity_between(start, self.n_tokens) for c in (full, win, sink))
        numbers = dict(full=f"{f:.2f}", window=f"{w:.2f}", sinks=f"{s:.2f}", k=self.sinks, start=f"{start:,}")
        if w > 1.5 * s and s < 1.5 * f:
            text = translate("Streaming", "Needs sinks: once the first tokens leave the window (positions from {start}) "
                                          "perplexity is {window} with the window alone, {sinks} with the first {k} "
                                          "tokens kept and {full} with full context — as Xiao et al. found.")
        elif w <= 1.1 * s:
            text = translate("Streaming", "No sinks needed here: after position {start} the window alone gives "
                                          "perplexity {window}, the window + {k} sinks {sinks}, full context {full}; "
                                          "unlike Xiao et al.'s models this one does not collapse.")
        else:
            text = translate("Streaming", "Sinks help partly: after position {start} the window alone gives perplexity "
                                          "{window}, the window + {k} sinks {sinks}, full context {full}.")
        return text.format(**numbers)

    def to_json(self) -> dict[str, Any]:
        def num(x):
            return None if x is None or not math.isfinite(x) else round(float(x), 6)

        out = []
        for c in self.curves:
            starts, stops, ppl = c.windowed(self.bin)
            entry = {"variant": c.variant, "label": c.label, "seconds": round(c.seconds, 3),
                     "perplexity": num(c.perplexity), "mean_nll": num(c.mean_nll),
                     "perplexity_after_eviction": num(c.perplexity_between(self.window + 1, self.n_tokens)),
                     "nll": [round(float(v), 5) for v in c.nll],
                     "windows": {"start": starts.tolist(), "stop": stops.tolist(), "perplexity": [num(v) for v in ppl]}}
            out.append(entry)
        return {"probe": "streaming", "family": self.family, "architecture": self.architecture, "scheme": self.scheme,
                "n_tokens": self.n_tokens, "n_measured": self.n_tokens, "window": self.window, "sinks": self.sinks,
                "bin": self.bin, "trained_context": self.trained_context, "device": self.device,
                "dtype": self.dtype, "seconds": round(self.seconds, 3), "verdict": self.verdict(), "reference": REFERENCE,
                "positions": "StreamingLLM's: by place in the cache (sinks 0…K-1, window K…K+W-1, query K+W-1)",
                "definition": "nll[i-1] = -log p(token_i | keys in the cache of position i-1), one forward pass "
                              "with each query row's own cache as its mask; window perplexity = exp(mean nll)",
                "variants": out}


def streaming_probe(loaded, token_ids: Sequence[int], window: int = DEFAULT_WINDOW, sinks: int = DEFAULT_SINKS,
                    bin: int = DEFAULT_BIN, progress: ProgressFn | None = None, cancelled: CancelFn | None = None,
                    partial: Callable[[StreamingResult], None] | None = None) -> StreamingResult:
    """The three curves (full, window, window + sinks) of ``loaded`` on ``token_ids``; see the module."""
    require_causal_lm(loaded)
    n = len(token_ids)
    if n < 2:
        raise ParameterError("the text is a single token: give at least two.")
    if n > MAX_STREAMING_TOKENS:
        raise ParameterError(f"{n:,} tokens is more than the streaming probe runs ({MAX_STREAMING_TOKENS:,}).")
    if not 1 <= window <= MAX_STREAMING_TOKENS:
        raise ParameterError(f"the window must be between 1 and {MAX_STREAMING_TOKENS:,} tokens (got {window:,}).")
    if not 0 <= sinks <= MAX_SINKS:
        raise ParameterError(f"the sinks must be between 0 and {MAX_SINKS} tokens (got {sinks}).")
    if not 1 <= bin <= MAX_STREAMING_TOKENS:
        raise ParameterError(f"positions per point must be between 1 and {MAX_STREAMING_TOKENS:,}.")
    if loaded.scheme != "rope":
        raise ParameterError(f"this {loaded.family} model has {loaded.scheme.replace('_', ' ')} positions; the "
                             f"streaming probe follows StreamingLLM's cache positions, defined for RoPE models: "
                             f"open one (SmolLM2, Llama, Qwen …).")
    started = time.perf_counter()
    result = StreamingResult(family=loaded.family, architecture=loaded.architecture, scheme=loaded.scheme,
                             n_tokens=n, window=int(window), sinks=int(sinks), bin=int(bin),
                             trained_context=loaded.trained_context, device=loaded.device,
                             dtype=getattr(loaded, "dtype", "float32"))
    runs = (("full", None, 0), ("window", window, 0), ("window+sinks", window, sinks))
    for index, (name, w, k) in enumerate(runs):
        def step(f: float, index: int = index) -> None:
            if progress is not None:
                progress(min(1.0, (index + f) / len(runs)))

        t0 = time.perf_counter()
        nll = streaming_nll(loaded, token_ids, w, k, step, cancelled)
        result.curves.append(VariantCurve(variant=name, label=CURVE_LABELS[name], factor=1.0, attention_factor=1.0,
                                          rope=None, nll=nll, seconds=time.perf_counter() - t0))
        result.seconds = time.perf_counter() - started
        if partial is not None:
            partial(result)
    return result


def streaming_from_json(doc: dict[str, Any]) -> StreamingResult:
    """A saved :class:`StreamingResult` back from ``to_json``, checked field by field."""
    if not isinstance(doc, dict) or doc.get("probe") != "streaming":
        raise ParameterError("this file is not a saved streaming probe (peapp probe streaming --json).")
    try:
        result = StreamingResult(
            family=str(doc["family"]), architecture=str(doc["architecture"]), scheme=str(doc["scheme"]),
            n_tokens=saved_int(doc["n_tokens"], "n_tokens"), window=saved_int(doc["window"], "window", low=1),
            sinks=saved_int(doc["sinks"], "sinks"), bin=saved_int(doc["bin"], "bin", low=1),
            trained_context=None if doc.get("trained_context") is None else saved_int(doc["trained_context"],
                                                                                    "trained_context"),
            seconds=saved_float(doc.get("seconds") or 0.0, "seconds"), device=str(doc.get("device", "cpu")),
            dtype=saved_dtype(doc.get("dtype")))
        for v in doc["variants"]:
            if v["variant"] not in CURVES:
                raise ValueError(f"unknown curve {str(v['variant'])[:20]!r}")
            result.curves.append(VariantCurve(variant=v["variant"], label=CURVE_LABELS[v["variant"]], factor=1.0,
                                              attention_factor=1.0, rope=None,
                                              nll=saved_numbers(v["nll"], "nll", allow_none=True),
                                              seconds=saved_float(v.get("seconds") or 0.0, "seconds")))
    except (KeyError, TypeError, ValueError) as exc:
        raise ParameterError(f"the saved streaming probe is incomplete or damaged ({type(exc).__name__}: "
                             f"{str(exc)[:80]}); run the probe again.") from None
    return result

