"""What each position scheme costs, measured: peak memory and time of a full forward pass and of
one generated token with a KV cache, on a decoder of the lab's shape and on a larger one.

The article (and the decision guide after it) says relative encodings "greatly increase memory"
(a distance matrix per attention head) and "complicate the caching used to speed up
generation"; RoPE gives relative positions "without the memory and caching overhead".  This
module measures it.  Every scheme runs in the same small decoder (pre-LayerNorm, d_ff = 4·d,
float32, inference), with the project's own position functions, each in the form its paper or
reference implementation computes it:

* ``learned``, ``sinusoidal`` — a row added to each token's embedding; attention through torch's
  scaled-dot-product attention with the causal flag (its tiled kernel holds no n × n matrix);
* ``rope`` — q and k rotated (:func:`peapp.encodings.rope.apply`), then the same kernel;
* ``nope`` — nothing, the same kernel;
* ``t5``, ``alibi`` — a bias [heads, n, n] (:func:`peapp.encodings.relative.t5_bias`,
  :func:`peapp.encodings.alibi.bias`) built and handed to the kernel as its mask, as transformers'
  T5 and BLOOM do;
* ``shaw`` — Shaw et al. 2018 on keys *and* values, in the paper's efficient form (Sec. 3.3):
  the relative representations a^K and a^V (clipped at k = 16, shared by heads) gathered into
  [n, n, head_dim] tensors, logits = (q·kᵀ + q·a^K) / √d and out = w·v + w·a^V.

**Generating one token** with a cache of n earlier tokens: every scheme caches keys and values
[layers, heads, n, head_dim] (RoPE caches them already rotated, absolute schemes with the
position already in the embedding).  Per step, T5 and ALiBi recompute one bias row [heads, n];
Shaw must recompute a^K and a^V for every cached key ([n, head_dim] each, twice) because i − j
changes with every new token: nothing about position can be folded into the cache.

**Memory** is the process's peak resident memory (Linux ``VmHWM``, reset through
``/proc/self/clear_refs``) while the case runs, minus the resident memory just before it, in a
forked child (so no earlier case's freed memory is reused); elsewhere it is not measured.  A case
whose predicted working set exceeds the cap (half the available memory, or ``max_bytes``) is not
run: the result gives the predicted bytes and says so.
"""

from __future__ import annotations

import math
import os
import statistics
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from peapp.errors import ParameterError
from peapp.i18n import msg, translate

SCHEMES = ("learned", "sinusoidal", "shaw", "t5", "alibi", "rope", "nope")
SCHEME_LABELS = {"learned": msg("Cost", "learned absolute"), "sinusoidal": msg("Cost", "sinusoidal"),
                 "shaw": msg("Cost", "Shaw relative (keys + values)"), "t5": msg("Cost", "T5 bias"),
                 "alibi": "ALiBi", "rope": "RoPE", "nope": "NoPE"}
SHAW_CLIP = 16
T5_BUCKETS, T5_MAX_DISTANCE = 32, 128
DEFAULT_LENGTHS = {"lab": (1024, 4096, 16384), "large": (1024,)}
DEFAULT_MAX_BYTES = 2 * 1024 ** 3  # the default run's cap: a minute or two here, not an hour
MAX_LENGTH = 131_072
DECODE_STEPS = 5
CLAIM = msg("Cost", "The article: relative encodings compute a distance matrix per attention head, which greatly "
                    "increases memory, and complicate the KV cache that speeds up generation; RoPE gives relative "
                    "positions without that memory and caching overhead.")
CITATION = ("Shaw et al. 2018 (relative position representations, keys and values, clip k); Raffel et al. 2020 "
            "(T5 bias); Press et al. 2022 (ALiBi); Su et al. 2021 (RoPE)")


@dataclass(frozen=True)
class ModelShape:
    name: str
    layers: int
    d_model: int
    heads: int
    vocab: int = 256

    @property
    def head_dim(self) -> int:
        return self.d_model // self.heads


MODELS = {"lab": ModelShape("lab", 2, 64, 4),  # peapp.lab.model.ModelConfig's defaults
          "large": ModelShape("large", 8, 512, 8, 32000)}


def predicted_bytes(scheme: str, shape: ModelShape, n: int, decode: bool = False) -> int:
    """The working set a case needs (float32): weights, activations, the KV cache when decoding,
    and the scheme's own position tensors — the numbers that decide whether a case is run."""
    d, h, hd, L = shape.d_model, shape.heads, shape.head_dim, shape.layers
    weights = 4 * (L * 12 * d * d + 2 * shape.vocab * d + (n * d if scheme == "learned" else 0))
    if decode:
        cache = 4 * 2 * L * h * n * hd
        extra = {"shaw": 4 * 2 * n * hd + 4 * 2 * h * n, "t5": 4 * 3 * h * n, "alibi": 4 * 3 * h * n}.get(scheme, 0)
        return weights + cache + extra + 4 * 4 * h * n
    activations = 4 * n * (8 * d + shape.vocab)
    n2 = n * n
    extra = {"shaw": 4 * (2 * n2 * hd + 3 * h * n2) + 8 * n2, "t5": 4 * 3 * h * n2 + 16 * n2,
             "alibi": 4 * 4 * h * n2}.get(scheme, 0)
    return weights + activations + extra


# ---- the model -------------------------------------------------------------------------------

class _Decoder:
    """The weights of one decoder and the scheme's tables, seeded (values do not matter for cost)."""

    def __init__(self, scheme: str, shape: ModelShape, n_positions: int):
        import torch

        g = torch.Generator().manual_seed(0)
        d, L = shape.d_model, shape.layers

        def w(*size):
            return torch.randn(*size, generator=g) * 0.02

        self.scheme, self.shape = scheme, shape
        self.embed = w(shape.vocab, d)
        self.layers = [dict(qkv=w(d, 3 * d), out=w(d, d), up=w(d, 4 * d), down=w(4 * d, d)) for _ in range(L)]
        self.head = w(d, shape.vocab)
        # every table exists (small) so each scheme's code reads its own without a None check
        self.table = w(n_positions if scheme == "learned" else 1, d)
        self.t5 = w(T5_BUCKETS, shape.heads)
        self.shaw = [(w(2 * SHAW_CLIP + 1, shape.head_dim), w(2 * SHAW_CLIP + 1, shape.head_dim))
                     for _ in range(L if scheme == "shaw" else 0)]
        from peapp.encodings.rope import default_inv_freq

        self.inv_freq = default_inv_freq(shape.head_dim)

    def _input(self, tokens, positions):
        from peapp.encodings.sinusoidal import rows

        x = self.embed[tokens]
        if self.scheme == "learned":
            x = x + self.table[positions]
        elif self.scheme == "sinusoidal":
            x = x + rows(positions, self.shape.d_model)
        return x

    def _qkv(self, x, layer, positions):
        import torch

        from peapp.encodings.rope import apply

        n, h, hd = x.shape[0], self.shape.heads, self.shape.head_dim
        x = torch.nn.functional.layer_norm(x, (self.shape.d_model,))
        q, k, v = (x @ layer["qkv"]).reshape(n, 3, h, hd).permute(1, 2, 0, 3)
        if self.scheme == "rope":
            q, k = apply(q, positions, self.inv_freq), apply(k, positions, self.inv_freq)
        return q, k, v

    def _mlp(self, x, mixed, layer):
        import torch

        x = x + mixed @ layer["out"]
        y = torch.nn.functional.layer_norm(x, (self.shape.d_model,))
        return x + torch.nn.functional.gelu(y @ layer["up"]) @ layer["down"]

    def forward(self, tokens, keep_cache: list | None = None):
        """Logits of the last token after a full causal forward over ``tokens`` (one sequence);
        ``keep_cache`` receives each layer's (k, v) [heads, n, head_dim] (tests)."""
        import torch
        from torch.nn.functional import scaled_dot_product_attention as sdpa

        from peapp.encodings import alibi, relative

        n, h, hd = len(tokens), self.shape.heads, self.shape.head_dim
        positions = torch.arange(n)
        x = self._input(tokens, positions)
        for index, layer in enumerate(self.layers):
            q, k, v = self._qkv(x, layer, positions)
            if keep_cache is not None:
                keep_cache.append((k, v))
            if self.scheme == "shaw":
                table_k, table_v = self.shaw[index]
                clipped = relative.shaw_distance(n, max_distance=SHAW_CLIP) + SHAW_CLIP  # [n, n]
                a_k = table_k[clipped]  # [n, n, hd]: the paper's relative representations
                logits = (q @ k.transpose(1, 2) + torch.einsum("hid,ijd->hij", q, a_k)) / math.sqrt(hd)
                del a_k
                logits = logits.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
                weights = logits.softmax(-1)
                del logits
                a_v = table_v[clipped]
                mixed = weights @ v + torch.einsum("hij,ijd->hid", weights, a_v)
                del a_v, weights
            elif self.scheme in ("t5", "alibi"):
                if self.scheme == "t5":
                    bias = relative.t5_bias(self.t5, n, bidirectional=False, max_distance=T5_MAX_DISTANCE)
                    bias = bias.masked_fill(torch.ones(n, n, dtype=torch.bool).triu(1), float("-inf"))
                else:
                    bias = alibi.bias(h, n, causal=True)
                mixed = sdpa(q[None], k[None], v[None], attn_mask=bias[None])[0]
                del bias
            else:
                mixed = sdpa(q[None], k[None], v[None], is_causal=True)[0]  # 4-D: the tiled kernel
            x = self._mlp(x, mixed.transpose(0, 1).reshape(n, -1), layer)
        return torch.nn.functional.layer_norm(x[-1:], (self.shape.d_model,)) @ self.head

    def decode_step(self, token, cache, position: int):
        """One generated token at ``position`` with a cache [(k, v) per layer, each [h, n, hd]]."""
        import torch

        from peapp.encodings import alibi, relative

        h, hd = self.shape.heads, self.shape.head_dim
        pos = torch.tensor([position])
        x = self._input(torch.tensor([token]), pos)
        n = cache[0][0].shape[1] + 1
        for index, layer in enumerate(self.layers):
            q, k_new, v_new = self._qkv(x, layer, pos)
            k = torch.cat((cache[index][0], k_new), dim=1)  # appending: what a real cache does each step
            v = torch.cat((cache[index][1], v_new), dim=1)
            logits = (q @ k.transpose(1, 2)) / math.sqrt(hd)  # [h, 1, n]
            if self.scheme == "shaw":
                table_k, table_v = self.shaw[index]
                clipped = relative.shaw_distance(1, n, max_distance=SHAW_CLIP, query_positions=pos) + SHAW_CLIP
                a_k = table_k[clipped[0]]  # [n, hd]: recomputed every step, the distances moved
                logits = logits + (q @ a_k.T) / math.sqrt(hd)
                weights = logits.softmax(-1)
                mixed = weights @ v + weights @ table_v[clipped[0]]
            else:
                if self.scheme == "t5":
                    logits = logits + relative.t5_bias(self.t5, 1, n, bidirectional=False,
                                                       max_distance=T5_MAX_DISTANCE, query_positions=pos)
                elif self.scheme == "alibi":
                    logits = logits + alibi.bias(h, 1, n, causal=True, query_positions=pos)
                mixed = logits.softmax(-1) @ v
            x = self._mlp(x, mixed.transpose(0, 1).reshape(1, -1), layer)
        return torch.nn.functional.layer_norm(x, (self.shape.d_model,)) @ self.head


# ---- measuring -------------------------------------------------------------------------------

@dataclass
class Case:
    model: str
    scheme: str
    length: int
    kind: str  # "forward" | "decode"
    predicted_bytes: int
    seconds: float | None = None  # forward: one pass; decode: the median step
    peak_bytes: int | None = None  # measured (None: not measured or not run)
    cache_bytes: int | None = None  # decode: the KV cache held
    run: bool = True
    note: str = ""


def _rss_kib(field_name: str) -> int | None:
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def _measure(case: Case, threads: int = 1) -> Case:
    """Run one case here (in the forked child): time and peak resident memory."""
    import torch

    torch.set_num_threads(threads)
    shape = MODELS[case.model]
    n = case.length
    torch.manual_seed(0)
    if case.kind == "forward":
        model = _Decoder(case.scheme, shape, n)
        tokens = torch.randint(0, shape.vocab, (n,))
        with torch.no_grad():
            model.forward(tokens)  # warm-up: first-call allocations and kernel set-up
            measuring = _reset_peak()
            before = _rss_kib("VmRSS")
            started = time.perf_counter()
            model.forward(tokens)
            case.seconds = time.perf_counter() - started
    else:
        model = _Decoder(case.scheme, shape, n + 1)
        cache = [(torch.randn(shape.heads, n, shape.head_dim), torch.randn(shape.heads, n, shape.head_dim))
                 for _ in range(shape.layers)]
        case.cache_bytes = sum(k.nbytes + v.nbytes for k, v in cache)
        with torch.no_grad():
            model.decode_step(1, cache, n)
            measuring = _reset_peak()
            before = _rss_kib("VmRSS")
            times = []
            for _ in range(DECODE_STEPS):
                started = time.perf_counter()
                model.decode_step(1, cache, n)
                times.append(time.perf_counter() - started)
            case.seconds = statistics.median(times)
    peak = _rss_kib("VmHWM")
    if measuring and peak is not None and before is not None:
        case.peak_bytes = max(0, peak - before) * 1024
    return case


def _measure_in_child(values: dict[str, Any], threads: int) -> dict[str, Any]:
    """The child's side: glibc told to hand every freed block of 64 KiB or more back to the system
    (so a block the warm-up freed is not silently reused), then :func:`_measure`."""
    try:
        import ctypes

        libc = ctypes.CDLL("libc.so.6")
        libc.mallopt(-3, 64 * 1024)  # M_MMAP_THRESHOLD: fixed, not raised by frees
        libc.mallopt(-1, 64 * 1024)  # M_TRIM_THRESHOLD
    except (OSError, AttributeError):
        pass
    try:
        return asdict(_measure(Case(**values), threads))
    except MemoryError:
        return {**values, "run": False, "note": "out of memory"}


_POOL_CONTEXT: Any = None


def _in_child(case: Case, threads: int) -> Case:
    """``_measure`` in a fresh process forked from a fork server that imported torch but never ran
    it (forking a process whose OpenMP threads ran can hang; a fresh process's peak is its own).
    Without a fork server (not Linux, a frozen bundle) the case runs here and its memory is not
    measured."""
    global _POOL_CONTEXT
    import multiprocessing

    if not os.path.exists("/proc/self/clear_refs") or "forkserver" not in multiprocessing.get_all_start_methods():
        case = _measure(case, threads)
        case.peak_bytes = None
        return case
    if _POOL_CONTEXT is None:
        _POOL_CONTEXT = multiprocessing.get_context("forkserver")
        _POOL_CONTEXT.set_forkserver_preload(["torch", "peapp.analysis.cost"])
    with _POOL_CONTEXT.Pool(1, maxtasksperchild=1) as pool:
        try:
            values = pool.apply(_measure_in_child, (asdict(case), threads))
        except Exception as exc:  # the child died (the kernel's OOM killer) or failed
            case.run, case.note = False, f"the measuring process failed ({type(exc).__name__}: {str(exc)[:80]})"
            return case
    return Case(**values)


@dataclass
class CostResult:
    cases: list[Case] = field(default_factory=list)
    max_bytes: int = 0
    threads: int = 1
    seconds: float = 0.0
    memory_measured: bool = True

    def find(self, model: str, scheme: str, length: int, kind: str) -> Case | None:
        return next((c for c in self.cases if (c.model, c.scheme, c.length, c.kind) == (model, scheme, length, kind)),
                    None)

    def verdict(self) -> str:
        """Whether the measurements agree with the article's claim, in one sentence."""
        rows = [(m, n) for m in MODELS for n in sorted({c.length for c in self.cases if c.model == m})]
        for model, n in sorted(rows, key=lambda r: -r[1]):
            shaw, rope = self.find(model, "shaw", n, "forward"), self.find(model, "rope", n, "forward")
            if shaw is None or rope is None or rope.peak_bytes is None:
                continue
            shaw_bytes = shaw.peak_bytes if shaw.run and shaw.peak_bytes is not None else shaw.predicted_bytes
            ratio = shaw_bytes / max(rope.peak_bytes, 1)
            how = translate("Cost", "measured") if shaw.run else translate("Cost", "predicted, too big to run here")
            decode_s, decode_r = self.find(model, "shaw", n, "decode"), self.find(model, "rope", n, "decode")
            step = ""
            if decode_s and decode_r and decode_s.seconds and decode_r.seconds:
                step_ratio = decode_s.seconds / decode_r.seconds
                step = (translate("Cost", " and a generated token takes {ratio:.1f}× RoPE's time (it recomputes a "
                                          "relative term for every cached key)") if step_ratio > 1.2 else
                        translate("Cost", "; a generated token takes {ratio:.1f}× RoPE's time: the relative term "
                                          "Shaw recomputes for every cached key each step is small beside the "
                                          "attention itself at this size")).format(ratio=step_ratio)
            agree = translate("Cost", "Agrees") if ratio > 2 else translate("Cost", "Does not agree")
            return translate("Cost", "{agree} with the article: at {n} tokens on the {model} model, Shaw relative "
                                     "positions need {shaw} ({how}) against RoPE's {rope} (×{ratio:.0f}){step}.").format(
                agree=agree, n=f"{n:,}", model=model, shaw=_human(shaw_bytes), how=how, rope=_human(rope.peak_bytes),
                ratio=ratio, step=step)
        return translate("Cost", "Nothing measured to compare Shaw with RoPE: run both at one length.")

    def to_json(self) -> dict[str, Any]:
        return {"measure": "cost", "claim": CLAIM, "citation": CITATION, "verdict": self.verdict(),
                "max_bytes": self.max_bytes, "threads": self.threads, "seconds": round(self.seconds, 2),
                "memory": "peak resident memory of the case (Linux VmHWM reset before it) minus resident memory before"
                          if self.memory_measured else "not measured on this system",
                "shaw_clip": SHAW_CLIP, "decode_steps": DECODE_STEPS,
                "models": {k: asdict(v) for k, v in MODELS.items()},
                "cases": [asdict(c) for c in self.cases]}


def _human(n: float) -> str:
    from peapp.memory import human_bytes

    return human_bytes(n)


def measure_cost(models: Sequence[str] = ("lab", "large"), schemes: Sequence[str] = SCHEMES,
                 lengths: Mapping[str, Sequence[int]] | None = None, kinds: Sequence[str] = ("forward", "decode"),
                 max_bytes: int | None = None, threads: int = 1, progress: Callable[[float], None] | None = None,
                 partial: Callable[[Case], None] | None = None) -> CostResult:
    """Measure every (model, scheme, length, kind) that fits; see the module docstring.  ``threads``:
    torch's threads per case (1 by default: on a loaded machine a second thread that is descheduled
    stalls every parallel step, and the comparison is between schemes, not machines)."""
    from peapp.memory import budget_bytes

    for m in models:
        if m not in MODELS:
            raise ParameterError(translate("Cost", "unknown model {name}; choose from {allowed}.").format(
                name=repr(m), allowed=", ".join(MODELS)))
    for s in schemes:
        if s not in SCHEMES:
            raise ParameterError(translate("Cost", "unknown scheme {name}; choose from {allowed}.").format(
                name=repr(s), allowed=", ".join(SCHEMES)))
    lengths = {m: tuple((lengths or DEFAULT_LENGTHS).get(m, DEFAULT_LENGTHS[m])) for m in models}
    for values in lengths.values():
        if any(not 2 <= n <= MAX_LENGTH for n in values):
            raise ParameterError(translate("Cost", "lengths must be between 2 and {limit}.").format(
                limit=f"{MAX_LENGTH:,}"))
    cap = int(max_bytes) if max_bytes else budget_bytes()  # the CLI passes DEFAULT_MAX_BYTES unless told
    if not 1 <= threads <= 256:
        raise ParameterError(translate("Cost", "threads must be between 1 and 256."))
    result = CostResult(max_bytes=cap, threads=threads,
                        memory_measured=os.path.exists("/proc/self/clear_refs"))
    todo = [(m, s, n, k) for m in models for n in lengths[m] for k in kinds for s in schemes]
    started = time.perf_counter()
    for index, (m, s, n, k) in enumerate(todo):
        need = predicted_bytes(s, MODELS[m], n, decode=(k == "decode"))
        case = Case(model=m, scheme=s, length=n, kind=k, predicted_bytes=need)
        if need > cap:
            case.run = False
            case.note = translate("Cost", "not run: needs about {need}, more than the {cap} allowed here").format(
                need=_human(need), cap=_human(cap))
        else:
            case = _in_child(case, threads)
        result.cases.append(case)
        if partial is not None:
            partial(case)
        if progress is not None:
            progress((index + 1) / len(todo))
    result.seconds = time.perf_counter() - started
    return result
