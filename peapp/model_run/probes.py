"""Measured context extension: per-position loss of the opened model under every RoPE scaling.

The article says position interpolation and YaRN let a RoPE model read past its trained context;
the RoPE spectrum and Length extrapolation panels show what the formulas imply.  This module
*measures* it on the opened causal language model::

    from peapp.model_run import load_model
    from peapp.model_run.probes import perplexity_probe, tokenize_all
    loaded = load_model("SmolLM2-135M-Instruct.Q4_1.gguf")
    ids = tokenize_all(loaded, text)[:12288]
    result = perplexity_probe(loaded, ids, variants=("none", "yarn"), factor=2.0)
    result.curves[1].windowed(256)  # (starts, stops, perplexity per window)

**Per-position loss**: the negative log-likelihood −log p(token_i | tokens before i) at every
position i = 1 … n − 1 of one forward pass over the first n tokens (the model's own LM head,
applied in chunks of rows, never the whole n × vocabulary logit matrix).

**Variants** change only the rotary frequencies (``inv_freq``) and the attention factor that
multiplies cos and sin, both computed by :class:`peapp.encodings.rope.RopeSpec` — the numbers
the RoPE spectrum panel draws (one implementation).  "none" is the model as trained (its own
config, read by the same RopeSpec); the others replace the config's scaling with ``rope_type`` =
the variant and the chosen factor, the model's trained context as the original length.  They are
given to the model's rotary module(s) for the probe's own forward calls only (:func:`rotary_frequencies`):
the model's buffers stay as they are, so a job using the model meanwhile sees none of them.  Dynamic NTK recomputes
its frequencies for the length of the forward pass, as transformers does (a full pass over n
tokens uses the frequencies for n at every position; token-by-token generation would grow them).

**Memory**: no layer's n × n attention is ever held.  Each layer calls peapp's attention function
(:mod:`peapp.model_run.attention_hook`) with the probe's strategy (:class:`ProbeStrategy`, passed
through the forward pass, so a run using the same model meanwhile is not touched): the output comes from
torch's scaled-dot-product attention with the causal flag (its CPU kernel works in tiles), or, for
sliding windows, soft-capped logits or a mask the model built itself, from peapp's exact block
attention (:func:`peapp.model_run.blocks.attend`).  The same function checks cancel and reports
progress once per layer, and (for the passkey probe) computes a few query rows' weights on the
needle exactly.

**Learned absolute positions** (GPT-2, OPT): past the position table the model has no row for a
position, so nothing is measured there ("cannot"); the loss is given up to the table's length.
**Encoders** (BERT, RoBERTa, DistilBERT) are refused: per-position loss here is next-token loss
and needs a causal LM; a masked-LM pseudo-loss needs one forward pass per position (n passes, each
with one token masked) and measures something else, so it is not offered.

**Time estimate** (:func:`estimate_seconds`): two short prefixes of the same tokens are run and
timed (512 and 1,024 tokens; 1,024 and 2,048 from 8,192 on), t(n) = a·n + b·n² is fitted through them (b ≥ 0) and evaluated at
the probe length, times the number of runs; long probes say it before they start.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import math
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from peapp.analysis.extrapolation import ROPE_SCALING_LABELS, ROPE_SCALINGS
from peapp.encodings.rope import RopeSpec, read_hf_config
from peapp.errors import CheckpointError, ParameterError
from peapp.i18n import translate
from peapp.jobs import Cancelled
from peapp.model_run.layers import no_cache, trunk
from peapp.model_run.runner import LM_HEAD_CHUNK

#: "none" is the model as trained; the rest are RopeSpec's rope_type names (the extrapolation panel's)
VARIANTS = ("none",) + ROPE_SCALINGS
VARIANT_LABELS = {"none": "as trained", **{k: ROPE_SCALING_LABELS[k].replace("RoPE + ", "") for k in ROPE_SCALINGS}}
DEFAULT_FACTOR = 2.0
DEFAULT_WINDOW = 256
ESTIMATE_FROM = 4096  # probes at least this long measure a short prefix first and say the time
ESTIMATE_LENGTHS = (512, 1024)  # the prefixes timed for the estimate; (1024, 2048) from LONG_ESTIMATE on
LONG_ESTIMATE = 8192
MAX_PROBE_TOKENS = 131_072

ProgressFn = Callable[[float], None]
CancelFn = Callable[[], bool]



# ---- the attention strategy ------------------------------------------------------------------

class ProbeStrategy:
    """The probes' strategy for peapp's attention function (see :mod:`peapp.model_run.attention_hook`)
    during one forward pass: SDPA's exact output, cancel and progress once per layer, and (for the
    passkey probe) the chosen query ``rows``' weight on the keys of ``span`` per layer."""

    def __init__(self, n_layers: int, progress: ProgressFn | None, cancelled: CancelFn | None,
                 rows: Sequence[int] = (), span: tuple[int, int] | None = None):
        self.n_layers, self.progress, self.cancelled = n_layers, progress, cancelled
        self.rows, self.span = list(rows), span
        self.shares: dict[int, torch.Tensor] = {}  # layer → [heads, rows] weight on the span
        self._layers: dict[int, int] = {}

    def enter_layer(self, module) -> int:
        layer = self._layers.setdefault(id(module), len(self._layers))
        if self.cancelled is not None and self.cancelled():
            raise Cancelled()
        if self.progress is not None:
            self.progress(min(1.0, layer / max(1, self.n_layers)))
        return layer

    def attend(self, call) -> tuple[torch.Tensor, None]:
        """Exact attention output (SDPA's tiled causal kernel, or peapp's block attention where SDPA
        cannot: soft-cap, sliding window, a model-built mask, sink logits), plus this layer's work."""
        query, key = call.query, call.key
        window = call.window
        window = int(window) if window and int(window) < key.shape[2] else None
        layer = self.enter_layer(call.module)
        if self.rows and self.span is not None:
            self.shares[layer] = _span_shares(query[0], key[0], self.rows, self.span, call.scale, call.softcap,
                                              window, call.causal, call.sinks).cpu()
        if call.softcap or window or call.mask is not None or call.sinks is not None:
            return dataclasses.replace(call, window=window).exact(), None
        from transformers.integrations.sdpa_attention import sdpa_attention_forward

        return sdpa_attention_forward(call.module, query, key, call.value, None, dropout=0.0, scaling=call.scale,
                                      is_causal=call.causal)


def _span_shares(q: torch.Tensor, k: torch.Tensor, rows: Sequence[int], span: tuple[int, int], scale: float,
                 softcap: float | None, window: int | None, causal: bool,
                 sinks: torch.Tensor | None = None) -> torch.Tensor:
    """[heads, len(rows)]: each chosen query row's total attention weight on keys span[0] … span[1] − 1,
    computed exactly as eager attention does for those rows (float32 logits · scale, soft-cap, masks,
    softmax over every key the row may see)."""
    heads, n = q.shape[0], k.shape[1]
    group = heads // k.shape[0]
    keys = k.repeat_interleave(group, dim=0) if group > 1 else k
    index = torch.tensor(list(rows), device=q.device)
    logits = torch.matmul(q[:, index].float(), keys.float().transpose(1, 2)) * scale  # [H, r, n]
    if softcap:
        logits = torch.tanh(logits / softcap) * softcap
    cols = torch.arange(n, device=q.device)[None, :]
    at = index[:, None]
    allowed = cols <= at if causal else torch.ones(len(index), n, dtype=torch.bool, device=q.device)
    if window:
        allowed &= (cols > at - window) if causal else ((cols - at).abs() < window)
    logits = logits.masked_fill(~allowed, float("-inf"))
    if sinks is not None:  # the sink column takes its share and is dropped
        sink = sinks.to(logits)[:, None, None].expand(-1, logits.shape[1], 1)
        weights = torch.softmax(torch.cat([logits, sink], -1), dim=-1)[..., :-1]
    else:
        weights = torch.softmax(logits, dim=-1)
    return weights[..., span[0]:span[1]].sum(-1)


# ---- the model's rotary frequencies ----------------------------------------------------------

def _rotary_modules(model) -> list:
    from peapp.model_run.layers import rotary_modules

    return rotary_modules(model)


def _frequency_sets(model) -> list[tuple[Any, str | None]]:
    """(rotary module, layer type) for every set of frequencies the model holds: a module's
    ``inv_freq`` (type None) or one ``<type>_inv_freq`` per layer type (Gemma 3, ModernBERT)."""
    found: list[tuple[Any, str | None]] = []
    for module in _rotary_modules(model):
        for name in module._buffers:
            if name == "inv_freq":
                found.append((module, None))
            elif name.endswith("_inv_freq") and "original" not in name:
                found.append((module, name[: -len("_inv_freq")]))
    return found


def _own(module, layer_type: str | None, what: str):
    return getattr(module, what if layer_type is None else f"{layer_type}_{what}", None)


def model_rope_specs(loaded) -> dict[str | None, RopeSpec]:
    """The opened model's RoPE per layer type (None: one for every layer) as :class:`RopeSpec`,
    read from its config as the spectrum panel reads it, each checked against the frequencies
    its rotary module really holds for that type."""
    if loaded.scheme != "rope":
        raise ParameterError(f"this {loaded.family} model does not use RoPE ({loaded.scheme.replace('_', ' ')} "
                             f"positions): there are no rotary frequencies to scale.")
    config = loaded.config.to_dict()
    specs: dict[str | None, RopeSpec] = {}
    for module, layer_type in _frequency_sets(loaded.model):
        kind = f" ({layer_type} layers)" if layer_type else ""
        try:
            spec = read_hf_config(config, layer_type).spec
        except (CheckpointError, ParameterError) as exc:
            raise CheckpointError(f"cannot read this model's RoPE settings{kind} from its config: {exc}") from None
        inv, attention = spec.inv_freq(None)
        own = _own(module, layer_type, "original_inv_freq")
        own = _own(module, layer_type, "inv_freq") if own is None else own
        own_attention = float(_own(module, layer_type, "attention_scaling") or 1.0)
        if own.shape != inv.shape or not torch.allclose(own.detach().float().cpu(), inv, rtol=1e-5, atol=0) \
                or not math.isclose(own_attention, attention, rel_tol=1e-6):
            raise CheckpointError(f"this {loaded.family} model's rotary frequencies{kind} ({own.shape[0]} pairs) are "
                                  f"not the ones peapp reads from its config ({inv.shape[0]} pairs, "
                                  f"{spec.rope_type}); scaling them cannot be done per layer type as transformers "
                                  f"would, so it is not probed.")
        specs[layer_type] = spec
    if not specs:
        raise CheckpointError(f"this {loaded.family} model keeps no rotary frequencies peapp can change; it cannot "
                              f"be scaled here.")
    return specs


def model_rope_spec(loaded) -> RopeSpec:
    """The RoPE of a model with one set of frequencies; with one per layer type, the global
    (full-attention) layers' (see :func:`model_rope_specs` for all of them)."""
    specs = model_rope_specs(loaded)
    for key in (None, "full_attention"):
        if key in specs:
            return specs[key]
    return next(iter(specs.values()))


def variant_specs(bases: dict[str | None, RopeSpec], variant: str, factor: float) -> dict[str | None, RopeSpec]:
    """``variant`` applied to each layer type's RoPE, as transformers applies a config's scaling
    to each type (its own base and trained length); NoPE layers have none and stay as they are."""
    return {layer_type: variant_spec(spec, variant, factor) for layer_type, spec in bases.items()}


def scaled_frequencies(specs: dict[str | None, RopeSpec] | RopeSpec, n: int):
    """{layer type: (inv_freq, attention factor)} of ``specs`` for a pass over ``n`` tokens."""
    if isinstance(specs, RopeSpec):
        specs = {None: specs}
    return {layer_type: spec.inv_freq(n) for layer_type, spec in specs.items()}


def variant_spec(base: RopeSpec, variant: str, factor: float) -> RopeSpec:
    """The RopeSpec of ``variant``: "none" is ``base`` (as trained); the others replace its
    scaling by ``rope_type=variant`` with ``factor``, the trained context as the original length."""
    if variant == "none":
        return base
    if variant not in ROPE_SCALINGS:
        raise ParameterError(f"unknown variant {variant!r}; choose from {', '.join(VARIANTS)}.")
    if not 1.0 <= factor <= 4096.0:
        raise ParameterError(f"the scaling factor must be between 1 and 4096 (got {factor:g}).")
    try:
        return base.replace(rope_type=variant, factor=float(factor), max_position_embeddings=0,
                            attention_factor=0.0, mscale=0.0, mscale_all_dim=0.0, short_factor=(), long_factor=())
    except ParameterError as exc:
        raise ParameterError(f"{VARIANT_LABELS[variant]} ×{factor:g}: {exc}") from None


# The frequencies of the calls inside rotary_frequencies on this thread (contextvars are per
# thread): {rotary module id: its attributes as the call reads them}
_scaled: contextvars.ContextVar[dict[int, dict[str, Any]] | None] = contextvars.ContextVar(
    "peapp_scaled_frequencies", default=None)
_SCALES = "__peapp_scales__"


class _ScaledRotary:
    """A rotary module as its own forward reads it during one call: this call's frequencies,
    attention factor and rope_type; every other attribute the module's."""

    def __init__(self, module, values: dict[str, Any]):
        self.__dict__.update(values)
        self.__dict__["_module"] = module

    def __getattr__(self, name: str):
        return getattr(self.__dict__["_module"], name)


def _scale_per_call(module) -> None:
    """Let ``module``'s forward read its frequencies from the call's context (once per module;
    with none set it is the module's own forward, unchanged)."""
    if getattr(module.forward, _SCALES, False):
        return
    forward = module.forward
    function = getattr(forward, "__func__", None) if getattr(forward, "__self__", None) is module else None
    if function is None:
        function = type(module).forward

    def scaled_forward(*args, **kwargs):
        values = (_scaled.get() or {}).get(id(module))
        return function(module if values is None else _ScaledRotary(module, values), *args, **kwargs)

    setattr(scaled_forward, _SCALES, True)
    module.forward = scaled_forward  # an attribute of this module: atomic for a job running meanwhile


@contextlib.contextmanager
def rotary_frequencies(model, inv_freq, attention_factor: float = 1.0) -> Iterator[None]:
    """Inside, on this thread: the model's rotary frequencies are ``inv_freq`` with cos/sin
    multiplied by ``attention_factor`` — one tensor for every set, or {layer type: (inv_freq,
    attention factor)} from :func:`scaled_frequencies`, and rope_type is "default" so
    transformers' dynamic/LongRoPE update does not recompute over them.  Per call: the model's
    own buffers are not touched, so a job using the model on another thread meanwhile computes
    with its own frequencies."""
    sets = _frequency_sets(model)
    if isinstance(inv_freq, dict):
        per_type = inv_freq
    else:
        per_type = {layer_type: (inv_freq, attention_factor) for _, layer_type in sets}
    values: dict[int, dict[str, Any]] = {}
    for module, layer_type in sets:
        if layer_type not in per_type:
            continue
        inv, attention = per_type[layer_type]
        freq_name = "inv_freq" if layer_type is None else f"{layer_type}_inv_freq"
        scale_name = "attention_scaling" if layer_type is None else f"{layer_type}_attention_scaling"
        own = module._buffers[freq_name]
        entry = values.setdefault(id(module), {})
        entry[freq_name] = inv.to(device=own.device, dtype=own.dtype)
        entry[scale_name] = float(attention)
        rope_type = module.__dict__.get("rope_type")
        if isinstance(rope_type, dict):
            entry["rope_type"] = {key: "default" for key in rope_type}
        elif rope_type is not None:
            entry["rope_type"] = "default"
        _scale_per_call(module)
    token = _scaled.set({**(_scaled.get() or {}), **values})
    try:
        yield
    finally:
        _scaled.reset(token)


# ---- one forward pass --------------------------------------------------------------------------

def require_causal_lm(loaded) -> None:
    if not loaded.causal:
        raise ParameterError(f"per-position loss needs a causal language model (next-token prediction); this "
                             f"{loaded.family} model is a bidirectional encoder. Its masked-LM pseudo-loss would "
                             f"need one forward pass per position and measures something else, so it is not "
                             f"offered: open a causal model (SmolLM2, GPT-2, Llama, Qwen, …).")
    model = loaded.model
    if model.get_output_embeddings() is None or trunk(model) is model:
        raise ParameterError(f"this {loaded.architecture} has no language-model head (it returns hidden states, "
                             f"not next-token logits), so there is no loss to measure: open the checkpoint of its "
                             f"…ForCausalLM model.")


def _head_rows(loaded, hidden: torch.Tensor) -> torch.Tensor:
    """float32 next-token logits of some hidden rows, as the model's own forward takes them
    (its LM head and whatever its class applies after it: soft-cap, logit_scale, logits_scaling)."""
    from peapp.model_run.runner import head_logits

    return head_logits(loaded.model, hidden)


def forward_hidden(loaded, token_ids: Sequence[int], strategy: ProbeStrategy) -> torch.Tensor:
    """The base model's last hidden state [n, hidden] for ``token_ids``, with the probe's strategy."""
    from peapp.model_run.attention_hook import strategy_kwargs

    ids = torch.tensor([list(token_ids)], dtype=torch.long, device=loaded.device)
    with torch.no_grad():
        base = trunk(loaded.model)
        return base(input_ids=ids, **strategy_kwargs(loaded, strategy), **no_cache(base))[0][0]


def position_nll(loaded, token_ids: Sequence[int], progress: ProgressFn | None = None,
                 cancelled: CancelFn | None = None, return_logits: bool = False
                 ) -> tuple[np.ndarray, np.ndarray | None]:
    """(−log p(token_i | tokens < i) for i = 1 … n − 1 as float64 [n − 1], logits [n, vocab] or None)."""
    require_causal_lm(loaded)
    n = len(token_ids)
    hidden = forward_hidden(loaded, token_ids, ProbeStrategy(_layer_count(loaded), progress, cancelled))
    targets = torch.tensor(list(token_ids[1:]), dtype=torch.long, device=hidden.device)
    nll = np.empty(n - 1, dtype=np.float64)
    kept = []
    with torch.no_grad():
        for start in range(0, n, LM_HEAD_CHUNK):
            stop = min(n, start + LM_HEAD_CHUNK)
            logits = _head_rows(loaded, hidden[start:stop])
            if return_logits:
                kept.append(logits.cpu())
            rows = min(stop, n - 1) - start
            if rows > 0:
                nll[start:start + rows] = torch.nn.functional.cross_entropy(
                    logits[:rows], targets[start:start + rows], reduction="none").double().cpu().numpy()
            if cancelled is not None and cancelled():
                raise Cancelled()
    return nll, (torch.cat(kept).numpy() if return_logits else None)


def _layer_count(loaded) -> int:
    cfg = loaded.config
    return int(getattr(cfg, "num_hidden_layers", None) or getattr(cfg, "n_layer", None) or 1)


def tokenize_all(loaded, text: str, needed: int | None = None) -> list[int]:
    """Every token of ``text`` with the checkpoint's own tokenizer (its special tokens included,
    no truncation: a probe past a learned table's length says "cannot" rather than cut the text).
    ``needed``: only enough of the text's start to give that many tokens is tokenised (at least)."""
    from peapp.model_run.runner import _PREFIX_MARGIN

    if not text or not text.strip():
        raise ParameterError("the text is empty: type or paste some, or open a .txt file.")
    tokenizer = loaded.tokenizer
    tokenizer.no_truncation()
    tokenizer.no_padding()
    chars = len(text) if not needed else max(4096, needed * 16)
    while True:
        part = text[:chars]
        ids = list(tokenizer.encode(part).ids)
        if len(part) == len(text) or len(ids) >= (needed or 0) + _PREFIX_MARGIN:
            return ids
        chars *= 4


def position_limit(loaded) -> int | None:
    """The number of positions a learned absolute table has rows for (None: no such limit)."""
    if loaded.scheme == "learned_absolute" and loaded.trained_context:
        return int(loaded.trained_context)
    return None


# ---- time estimate -----------------------------------------------------------------------------

@dataclass(frozen=True)
class TimeEstimate:
    """How long ``runs`` forward passes of ``n`` tokens should take, from two timed prefixes."""

    n: int
    runs: int
    seconds: float  # all runs
    per_run: float
    measured: tuple[tuple[int, float], ...]  # (prefix length, wall seconds)
    linear: float  # a in t = a·n + b·n² (s per token)
    quadratic: float  # b (s per token²)
    # the longer prefix's per-position loss with the model's own frequencies: for causal attention
    # and frequencies that do not depend on the length it *is* the start of the "as trained" curve
    prefix_nll: tuple[float, ...] = ()
    prefix_ids: tuple[int, ...] = ()

    def text(self) -> str:
        from peapp.lab.options import duration_text

        points = translate("Probes", " and ").join(translate("Probes", "{seconds} s at {n}").format(seconds=f"{s:.1f}", n=f"{m:,}")
                                              for m, s in self.measured)
        runs = (translate("Probes", "about {duration} for {runs} run of {n} tokens") if self.runs == 1 else
                translate("Probes", "about {duration} for {runs} runs of {n} tokens")).format(
            duration=duration_text(self.seconds), runs=self.runs, n=f"{self.n:,}")
        return runs + translate("Probes", " (measured {points} tokens; t = a·n + b·n² fitted through them and "
                                     "scaled)").format(points=points)

    def to_json(self) -> dict[str, Any]:
        return {"n": self.n, "runs": self.runs, "seconds": round(self.seconds, 2), "per_run": round(self.per_run, 2),
                "measured": [[m, round(s, 3)] for m, s in self.measured], "a": self.linear, "b": self.quadratic,
                "method": "two prefixes timed, t = a·n + b·n² fitted (b ≥ 0), evaluated at n, times the runs"}


def fit_time(measured: Sequence[tuple[int, float]], n: int, runs: int = 1) -> TimeEstimate:
    """t = a·n + b·n² through two (length, seconds) points (b clamped at 0: then a line through
    the longer one), evaluated at ``n``, times ``runs``."""
    (m1, t1), (m2, t2) = sorted(measured)[:2]
    b = (t2 / m2 - t1 / m1) / (m2 - m1) if m2 != m1 else 0.0
    if b < 0:
        b = 0.0
    a = t2 / m2 - b * m2
    if a < 0:
        a, b = 0.0, t2 / m2 ** 2
    per_run = a * n + b * n * n
    return TimeEstimate(n=n, runs=runs, seconds=per_run * runs, per_run=per_run,
                        measured=tuple((int(m), float(s)) for m, s in sorted(measured)), linear=a, quadratic=b)


def estimate_seconds(loaded, token_ids: Sequence[int], n: int, runs: int = 1,
                     cancelled: CancelFn | None = None) -> TimeEstimate:
    """Time forward passes over two prefixes of ``token_ids`` — 512 and 1,024 tokens, or 1,024
    and 2,048 for n ≥ 8,192 (short ones overstate the n² term) — after a 64-token warm-up pass
    (the first pass of a process pays for allocations), and scale to ``runs`` passes of ``n``
    tokens (see :func:`fit_time`)."""
    available = min(n, len(token_ids))
    lengths = [2 * m for m in ESTIMATE_LENGTHS] if n >= LONG_ESTIMATE else list(ESTIMATE_LENGTHS)
    lengths = [m for m in lengths if m < available] or [max(2, available // 2)]
    if len(lengths) == 1:
        lengths = [max(2, lengths[0] // 2), lengths[0]]
    position_nll(loaded, token_ids[:min(64, available)], cancelled=cancelled)
    measured = []
    nll = np.zeros(0)
    for m in lengths:
        started = time.perf_counter()
        nll, _ = position_nll(loaded, token_ids[:m], cancelled=cancelled)
        measured.append((m, time.perf_counter() - started))
    fit = fit_time(measured, n, runs)
    return dataclasses.replace(fit, prefix_nll=tuple(map(float, nll)),
                               prefix_ids=tuple(map(int, token_ids[:max(lengths)])))


# ---- perplexity vs position ------------------------------------------------------------------

@dataclass
class VariantCurve:
    """One variant's measured per-position loss."""

    variant: str
    label: str
    factor: float
    attention_factor: float
    rope: dict[str, Any] | None  # the RopeSpec whose frequencies were used (None: not a RoPE model)
    nll: np.ndarray  # [m − 1]: position i = 1 … m − 1
    seconds: float
    logits: np.ndarray | None = None  # [m, vocab] when asked for (tests, small inputs)
    complete: bool = True  # False: a preview of the first positions only (see perplexity_probe)

    @property
    def mean_nll(self) -> float:
        return float(self.nll.mean()) if self.nll.size else math.nan

    @property
    def perplexity(self) -> float:
        return _exp(self.mean_nll)

    def perplexity_between(self, start: int, stop: int) -> float:
        """exp(mean NLL) over positions start … stop − 1 (clipped to what was measured)."""
        part = self.nll[max(0, start - 1):max(0, stop - 1)]
        return _exp(float(part.mean())) if part.size else math.nan

    def windowed(self, window: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(first position, stop position, perplexity) of consecutive windows of ``window`` positions
        starting at position 1 (the last window may be shorter)."""
        window = max(1, int(window))
        m = self.nll.size
        starts = np.arange(0, m, window)
        sums = np.add.reduceat(self.nll, starts) if m else np.zeros(0)
        counts = np.minimum(starts + window, m) - starts
        return starts + 1, np.minimum(starts + window, m) + 1, np.exp(np.minimum(sums / np.maximum(counts, 1), 700))


def _preview(loaded, base: RopeSpec | None, ids: Sequence[int], runs, estimate: TimeEstimate | None):
    """The "as trained" curve's first positions from the estimate's prefix run, when it is exactly
    that (same tokens, frequencies independent of the length): a partial curve within seconds."""
    if estimate is None or not estimate.prefix_nll or not runs or runs[0][0] != "none":
        return None
    if base is not None and base.rope_type in ("dynamic", "longrope"):
        return None
    if tuple(ids[:len(estimate.prefix_ids)]) != estimate.prefix_ids:
        return None
    return VariantCurve(variant="none", label=VARIANT_LABELS["none"], factor=1.0,
                        attention_factor=1.0 if base is None else float(base.inv_freq(None)[1]),
                        rope=None if base is None else base.to_dict(), nll=np.asarray(estimate.prefix_nll),
                        seconds=0.0, complete=False)


def _exp(x: float) -> float:
    return math.exp(x) if x < 700 else math.inf


@dataclass
class PerplexityResult:
    family: str
    architecture: str
    scheme: str
    n_tokens: int  # asked for
    n_measured: int  # run (the asked length, or the learned table's length if shorter)
    trained_context: int | None
    position_limit: int | None  # learned absolute: rows in the table
    factor: float
    window: int
    curves: list[VariantCurve] = field(default_factory=list)
    not_applied: dict[str, str] = field(default_factory=dict)  # variant → why it was not run
    cannot: str | None = None  # positions with no row, in words
    estimate: TimeEstimate | None = None
    seconds: float = 0.0
    device: str = "cpu"
    threads: int = 1
    dtype: str = "float32"  # the model's weights and activations (the statistics: float32 / float64)

    def curve(self, variant: str) -> VariantCurve | None:
        return next((c for c in self.curves if c.variant == variant), None)

    def to_json(self) -> dict[str, Any]:
        def num(x):
            return None if x is None or not math.isfinite(x) else round(float(x), 6)

        trained = self.trained_context
        out = []
        for c in self.curves:
            starts, stops, ppl = c.windowed(self.window)
            entry = {"variant": c.variant, "label": c.label, "factor": c.factor, "complete": c.complete,
                     "attention_factor": c.attention_factor, "rope": _jsonable(c.rope),
                     "seconds": round(c.seconds, 3), "perplexity": num(c.perplexity), "mean_nll": num(c.mean_nll),
                     "nll": [round(float(v), 5) for v in c.nll],
                     "windows": {"start": starts.tolist(), "stop": stops.tolist(),
                                 "perplexity": [num(v) for v in ppl]}}
            if trained and self.n_measured > trained:
                entry["perplexity_within_trained"] = num(c.perplexity_between(1, trained))
                entry["perplexity_beyond_trained"] = num(c.perplexity_between(trained, self.n_measured))
            out.append(entry)
        return {"probe": "perplexity", "family": self.family, "architecture": self.architecture,
                "scheme": self.scheme, "n_tokens": self.n_tokens, "n_measured": self.n_measured,
                "trained_context": trained, "position_limit": self.position_limit, "factor": self.factor,
                "window": self.window, "device": self.device, "dtype": self.dtype, "threads": self.threads,
                "seconds": round(self.seconds, 3), "cannot": self.cannot, "not_applied": self.not_applied,
                "estimate": None if self.estimate is None else self.estimate.to_json(),
                "definition": "nll[i-1] = -log p(token_i | tokens before i), i = 1 … n_measured - 1, one forward "
                              "pass; window perplexity = exp(mean nll over the window's positions)",
                "variants": out}


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value


def perplexity_probe(loaded, token_ids: Sequence[int], variants: Sequence[str] = VARIANTS,
                     factor: float = DEFAULT_FACTOR, window: int = DEFAULT_WINDOW,
                     progress: ProgressFn | None = None, cancelled: CancelFn | None = None,
                     partial: Callable[[PerplexityResult], None] | None = None,
                     estimate: TimeEstimate | None = None,
                     return_logits: bool = False) -> PerplexityResult:
    """Per-position loss of ``loaded`` on ``token_ids`` for each variant (see the module docstring).

    ``partial(result)`` is called after every variant with the curves so far (a panel draws
    them as they arrive), and first, when ``estimate`` (from :func:`estimate_seconds` on the same
    tokens) holds exactly the start of the "as trained" curve, with that preview (``complete``
    False: positions up to the estimate's longer prefix); ``progress`` goes 0 → 1 over all variants; ``cancelled()`` is checked
    once per layer and raises :class:`peapp.jobs.Cancelled` (the model's own frequencies are
    never changed: a variant's are its calls' own).  ``return_logits`` keeps each variant's logits (tests; small inputs)."""
    require_causal_lm(loaded)
    variants = list(dict.fromkeys(variants))
    for v in variants:
        if v not in VARIANTS:
            raise ParameterError(f"unknown variant {v!r}; choose from {', '.join(VARIANTS)}.")
    if not variants:
        raise ParameterError("no variant chosen: pick at least one (none = the model as trained).")
    n = len(token_ids)
    if n < 2:
        raise ParameterError("the text is a single token: give at least two.")
    if n > MAX_PROBE_TOKENS:
        raise ParameterError(f"{n:,} tokens is more than the probe runs ({MAX_PROBE_TOKENS:,}); choose a shorter length.")
    started = time.perf_counter()
    limit = position_limit(loaded)
    result = PerplexityResult(family=loaded.family, architecture=loaded.architecture, scheme=loaded.scheme,
                              n_tokens=n, n_measured=n, trained_context=loaded.trained_context, position_limit=limit,
                              factor=float(factor), window=int(window), estimate=estimate, device=loaded.device,
                              threads=torch.get_num_threads(), dtype=getattr(loaded, "dtype", "float32"))
    ids = list(token_ids)
    if limit is not None and n > limit:
        ids = ids[:limit]
        result.n_measured = limit
        result.cannot = (f"positions {limit:,} … {n - 1:,} cannot be read: this model's learned position table has "
                         f"{limit:,} rows and no row for a later position (no scaling exists for a learned table); "
                         f"loss is measured up to position {limit - 1:,}.")
    bases = model_rope_specs(loaded) if loaded.scheme == "rope" else None
    base = None if bases is None else model_rope_spec(loaded)
    runs: list[tuple[str, dict[str | None, RopeSpec] | None]] = []
    for v in variants:
        if bases is None and v != "none":
            result.not_applied[v] = f"not a RoPE model ({loaded.scheme.replace('_', ' ')} positions): nothing to scale"
            continue
        runs.append((v, None if bases is None else variant_specs(bases, v, factor)))
    preview = _preview(loaded, base, ids, runs, estimate)
    if preview is not None and partial is not None:
        result.curves.append(preview)
        partial(result)
        result.curves.remove(preview)
    for index, (v, spec) in enumerate(runs):
        def step(f: float, index: int = index) -> None:
            if progress is not None:
                progress(min(1.0, (index + f) / len(runs)))

        t0 = time.perf_counter()
        rope = None
        if spec is None:
            nll, logits = position_nll(loaded, ids, step, cancelled, return_logits)
            attention = 1.0
        else:
            frequencies = scaled_frequencies(spec, len(ids))
            main = None if None in spec else ("full_attention" if "full_attention" in spec else next(iter(spec)))
            attention = frequencies[main][1]
            rope = spec[main].to_dict()
            if len(spec) > 1:  # each layer type scaled with its own base
                rope["per_layer_type"] = {str(t): s.to_dict() for t, s in spec.items()}
            with rotary_frequencies(loaded.model, frequencies):
                nll, logits = position_nll(loaded, ids, step, cancelled, return_logits)
        curve = VariantCurve(variant=v, label=VARIANT_LABELS[v], factor=1.0 if v == "none" else float(factor),
                             attention_factor=float(attention), rope=rope,
                             nll=nll, seconds=time.perf_counter() - t0, logits=logits)
        result.curves.append(curve)
        result.seconds = time.perf_counter() - started
        step(1.0)
        if partial is not None:
            partial(result)
    result.seconds = time.perf_counter() - started
    return result


_MAX_SAVED = 10 ** 9  # tokens, positions or seconds a saved result may name


def saved_int(value: Any, name: str, low: int = 0) -> int:
    """A whole number from a saved result, checked (a text or 10**30 would fail later, when drawn)."""
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= _MAX_SAVED:
        raise ValueError(f"{name} is {str(value)[:40]!r}, not a whole number from {low} to {_MAX_SAVED:,}")
    return value


def saved_optional_int(value: Any, name: str) -> int | None:
    return None if value is None else saved_int(value, name)


def saved_float(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not abs(value) <= _MAX_SAVED:
        raise ValueError(f"{name} is {str(value)[:40]!r}, not a number")
    return float(value)


def saved_dtype(value: Any) -> str:
    """The dtype a saved result ran in; float32 when it names none (every run before ``--dtype`` was)."""
    from peapp.model_run.placement import BYTES

    if value is None:
        return "float32"
    if value not in BYTES:
        raise ValueError(f"dtype is {str(value)[:40]!r}, not one of {', '.join(BYTES)}")
    return str(value)


def saved_numbers(values: Any, name: str, allow_none: bool = False) -> np.ndarray:
    if not isinstance(values, list) or not all(
            (v is None and allow_none) or (isinstance(v, (int, float)) and not isinstance(v, bool)) for v in values):
        raise ValueError(f"{name} is not a list of numbers")
    return np.asarray([np.nan if v is None else v for v in values], dtype=np.float64)


def perplexity_from_json(doc: dict[str, Any]) -> PerplexityResult:
    """A :class:`PerplexityResult` back from its ``to_json`` (a saved result a panel draws without
    running again; logits are not saved)."""
    if not isinstance(doc, dict) or doc.get("probe") != "perplexity":
        raise ParameterError("this file is not a saved perplexity probe (peapp probe perplexity --json).")
    try:
        estimate = doc.get("estimate")
        result = PerplexityResult(
            family=str(doc["family"]), architecture=str(doc["architecture"]), scheme=str(doc["scheme"]),
            n_tokens=saved_int(doc["n_tokens"], "n_tokens"), n_measured=saved_int(doc["n_measured"], "n_measured"),
            trained_context=saved_optional_int(doc.get("trained_context"), "trained_context"),
            position_limit=saved_optional_int(doc.get("position_limit"), "position_limit"),
            factor=saved_float(doc["factor"], "factor"), window=saved_int(doc["window"], "window", low=1),
            not_applied={str(k): str(v) for k, v in dict(doc.get("not_applied") or {}).items()},
            cannot=None if doc.get("cannot") is None else str(doc["cannot"]),
            seconds=saved_float(doc.get("seconds") or 0.0, "seconds"), device=str(doc.get("device", "cpu")),
            threads=saved_int(doc.get("threads") or 1, "threads", low=1), dtype=saved_dtype(doc.get("dtype")),
            estimate=None if not estimate else TimeEstimate(
                n=int(estimate["n"]), runs=int(estimate["runs"]), seconds=float(estimate["seconds"]),
                per_run=float(estimate["per_run"]), measured=tuple((int(m), float(t)) for m, t in estimate["measured"]),
                linear=float(estimate["a"]), quadratic=float(estimate["b"])))
        for v in doc["variants"]:
            if v["variant"] not in VARIANTS:
                raise ParameterError(f"unknown variant {v['variant']!r} in the saved result.")
            result.curves.append(VariantCurve(
                variant=v["variant"], label=VARIANT_LABELS[v["variant"]], factor=float(v["factor"]),
                attention_factor=float(v["attention_factor"]), rope=v.get("rope"),
                nll=saved_numbers(v["nll"], "nll", allow_none=True),
                seconds=float(v.get("seconds") or 0.0), complete=bool(v.get("complete", True))))
    except (KeyError, TypeError, ValueError) as exc:
        raise ParameterError(f"the saved perplexity probe is incomplete or damaged ({type(exc).__name__}: "
                             f"{str(exc)[:80]}); run the probe again.") from None
    return result
