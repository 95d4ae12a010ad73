"""Length extrapolation: what each scheme does at an evaluation length longer than training.

For a training length L and an evaluation length E, per scheme:

* **learned** — positions ≥ L have no row; the lookup raises the error the model would hit;
* **sinusoidal** — values continue, but a pair whose angle ω·(L−1) stayed below one turn in
  training meets phases at positions ≥ L that it never saw;
* **RoPE** — per pair, the largest angle seen in training θ_i·(L−1) against the angle needed at
  E − 1, unscaled and after linear (PI), NTK-aware, dynamic NTK, YaRN and Llama-3 scaling;
* **T5 relative buckets** (decoder) — distances share log-spaced buckets up to ``max_distance``,
  everything farther the last bucket; a bucket first reached past L has a bias never trained;
* **ALiBi** — the bias −slope·distance is defined at every distance; each head's *reach* is the
  distance at which its bias falls below a chosen threshold.

Every summary is computed from these numbers, never written per scheme by hand.  Verdicts:

* ``fits`` — E ≤ L: nothing to extrapolate;
* ``cannot`` — the positions do not exist (a learned table has no row for them);
* ``interpolates`` — after rescaling, every pair's angle at E − 1 lies within what training saw;
* ``extrapolates`` — the encoding is defined past L; the reason says how many pairs (or heads)
  meet values never seen in training.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from peapp.encodings import alibi, sinusoidal
from peapp.encodings.learned import LearnedTable
from peapp.encodings.rope import RopeSpec
from peapp.errors import ParameterError, PositionOutOfRangeError
from peapp.i18n import msg, translate
from peapp.jobs import ProgressFn, Request


VERDICTS = ("fits", "extrapolates", "interpolates", "cannot")
#: What a verdict says, in words that do not read as advice: "extrapolates" only means the
#: formula is defined past L — not that a model using it keeps working there (MEASURED).
#: (The texts here are marked messages: English as they are, translated where shown.)
VERDICT_TEXT = {
    "fits": msg("Extrapolation", "fits (nothing to extrapolate)"),
    "extrapolates": msg("Extrapolation", "formula defined past the trained length"),
    "interpolates": msg("Extrapolation", "rescaled: every angle within those trained"),
    "cannot": msg("Extrapolation", "cannot (no positions past the table)"),
}
VERDICT_SHORT = {"fits": msg("Extrapolation", "fits"), "extrapolates": msg("Extrapolation", "defined past L"),
                 "interpolates": msg("Extrapolation", "within trained angles"),
                 "cannot": msg("Extrapolation", "no rows past L")}
#: What measurements found, per scheme (the formulas above say only what is defined).  Press et
#: al. 2022 (ALiBi), Fig. 1: WikiText-103 language models trained on 512 tokens, evaluated longer.
MEASURED = {
    "sinusoidal": msg("Extrapolation", "measured, it degrades past the trained length: perplexity 20.05 at 512 "
                                       "tokens → 43.54 at 1,012 (Press et al. 2022, trained on 512)"),
    "rope": msg("Extrapolation", "measured unscaled, rotary also degrades past the trained length (Press et al. "
                                 "2022); context extension rescales it (the scalings below), usually with a short "
                                 "fine-tune at the new length"),
    "t5": msg("Extrapolation", "measured, the T5 bias holds up better than sinusoidal or rotary past the trained "
                               "length, at a higher compute cost (Press et al. 2022)"),
    "alibi": msg("Extrapolation", "measured, perplexity stays about flat well past the trained length — the result "
                                  "ALiBi was proposed for (Press et al. 2022)"),
    "learned": msg("Extrapolation", "a model cannot even look positions past its table up"),
}
#: The same findings in a few words, for the one-line verdicts (the full sentences above go with
#: each verdict's reasons).
MEASURED_SHORT = {
    "sinusoidal": msg("Extrapolation", "measured: degrades (perplexity 20.05 → 43.54 at 2× the trained length)"),
    "rope": msg("Extrapolation", "measured: degrades too; the scalings below rescale it"),
    "t5": msg("Extrapolation", "measured: holds up better than sinusoidal or rotary"),
    "alibi": msg("Extrapolation", "measured: perplexity about flat far past the trained length"),
}
#: RoPE context-extension methods compared (Hugging Face ``rope_type`` names; "ntk" is static NTK-aware).
ROPE_SCALINGS = ("linear", "ntk", "dynamic", "yarn", "llama3")
ROPE_SCALING_LABELS = {
    "none": msg("Extrapolation", "RoPE, unscaled"),
    "linear": msg("Extrapolation", "RoPE + linear (PI)"),
    "ntk": msg("Extrapolation", "RoPE + NTK-aware"),
    "dynamic": msg("Extrapolation", "RoPE + dynamic NTK"),
    "yarn": msg("Extrapolation", "RoPE + YaRN"),
    "llama3": msg("Extrapolation", "RoPE + Llama-3"),
}
MAX_LENGTH = 16_777_216
_ROPE_LIMITS = {info.name: info.maximum for info in RopeSpec.param_infos() if info.maximum is not None}
# The RoPE scalings are RopeSpec's, so its limits are ours: trained context and factor.
MAX_TRAIN_LENGTH = int(_ROPE_LIMITS["original_max_position_embeddings"])
MAX_FACTOR = float(_ROPE_LIMITS["factor"])
# New positions sampled when counting unseen sinusoid phases (bounded work at any E).
PHASE_SAMPLES = 4096
TWO_PI = 2 * math.pi


@dataclass(frozen=True)
class Summary:
    scheme: str  # "learned", "sinusoidal", "rope", "rope:linear", …, "alibi"
    label: str  # a marked message (peapp.i18n.shown gives it in the current language)
    verdict: str  # one of VERDICTS
    reason: str

    @property
    def line(self) -> str:
        return f"{self.label}: {self.verdict} — {self.reason}"


@dataclass(frozen=True)
class LearnedAnalysis:
    train_len: int
    eval_len: int
    error: str | None  # the PositionOutOfRangeError message, None when E ≤ L
    missing: int  # positions of the evaluation that have no row


@dataclass(frozen=True)
class PairAngles:
    """Per sin/cos (or rotary) pair: angular frequency and the largest angles in play."""

    inv_freq: np.ndarray  # [pairs] radians per position
    trained: np.ndarray  # [pairs] θ·(L−1): the largest angle training saw
    needed: np.ndarray  # [pairs] θ'·(E−1) with the frequencies used at evaluation
    wrapped: np.ndarray  # [pairs] bool: the pair completed a full turn within training
    in_range: np.ndarray  # [pairs] bool: needed lies in the span of positions [0, L), or the pair wrapped
    attention_factor: float = 1.0

    @property
    def out_of_range(self) -> int:
        return int((~self.in_range).sum())


@dataclass(frozen=True)
class SinusoidalAnalysis:
    angles: PairAngles
    unseen_fraction: np.ndarray  # [pairs] share of positions in [L, E) whose phase was never seen


@dataclass(frozen=True)
class RopeAnalysis:
    head_dim: int
    base: float
    factor: float
    variants: dict[str, PairAngles]  # "none" and each of ROPE_SCALINGS


@dataclass(frozen=True)
class T5Analysis:
    num_buckets: int
    max_distance: int
    distances: np.ndarray  # sampled distances 0 … E−1 (for plotting) …
    buckets: np.ndarray  # … and their bucket (causal: key before query)
    train_bucket: int  # bucket of the longest distance in training, L − 1
    eval_bucket: int  # bucket of the longest distance at evaluation, E − 1


@dataclass(frozen=True)
class AlibiAnalysis:
    slopes: np.ndarray  # [heads]
    threshold: float  # bias magnitude (logit units) that counts as "faded"
    reach: np.ndarray  # [heads] distance at which −slope·d drops below −threshold


@dataclass(frozen=True)
class ExtrapolationResult:
    train_len: int
    eval_len: int
    learned: LearnedAnalysis
    sinusoidal: SinusoidalAnalysis
    rope: RopeAnalysis
    alibi: AlibiAnalysis
    t5: T5Analysis
    summaries: tuple[Summary, ...] = field(default=())

    def summary(self, scheme: str) -> Summary:
        for s in self.summaries:
            if s.scheme == scheme:
                return s
        raise KeyError(scheme)


# ---------------------------------------------------------------------------------------------
# Per-scheme analyses


def _every_distance_seen(eval_len: int) -> str:
    return translate("Extrapolation", "every distance up to {n:,} was seen in training").format(n=eval_len - 1)


def analyse_learned(train_len: int, eval_len: int) -> tuple[LearnedAnalysis, Summary]:
    """Ask a table of ``train_len`` rows for the last evaluation position, as the model would."""
    import torch
    table = LearnedTable(torch.zeros(train_len, 1),
                         name=translate("Extrapolation", "learned table of {n:,} rows").format(n=train_len))
    error = None
    try:
        table.lookup(torch.tensor([0, eval_len - 1]))
    except PositionOutOfRangeError as exc:
        error = str(exc)
    analysis = LearnedAnalysis(train_len, eval_len, error, max(0, eval_len - train_len))
    if error is None:
        summary = Summary("learned", msg("Extrapolation", "Learned absolute"), "fits", translate(
            "Extrapolation", "all {n:,} positions have a row in the {rows:,}-row table").format(n=eval_len, rows=train_len))
    else:
        missing = translate("Extrapolation", "1 position") if analysis.missing == 1 else \
            translate("Extrapolation", "{n:,} positions").format(n=analysis.missing)
        summary = Summary("learned", msg("Extrapolation", "Learned absolute"), "cannot", translate(
            "Extrapolation", "{missing} past the table — {error}").format(missing=missing, error=error))
    return analysis, summary


def _pair_angles(trained_inv: np.ndarray, eval_inv: np.ndarray, train_len: int, eval_len: int,
                 attention_factor: float = 1.0) -> PairAngles:
    trained = trained_inv * (train_len - 1)
    needed = eval_inv * (eval_len - 1)
    wrapped = trained >= TWO_PI
    # Seen span: the angles of positions [0, L).  Position interpolation by exactly E/L puts
    # the last position at L − L/E: past L − 1 but inside the span, never at L itself.
    in_range = wrapped | (needed < trained_inv * train_len)
    return PairAngles(trained_inv, trained, needed, wrapped, in_range, float(attention_factor))


def _effective_position(angles: PairAngles) -> float:
    """The trained position whose angle equals the largest needed one, over pairs that never wrapped."""
    slow = ~angles.wrapped
    if not slow.any():
        return float("nan")
    return float(np.max(angles.needed[slow] / angles.inv_freq[slow]))


def _dims_text(indices: np.ndarray, layout: str) -> str:
    """Name the dimensions of the given pairs compactly (pairs are contiguous at the slow end)."""
    if len(indices) == 0:
        return translate("Extrapolation", "none")
    lo, hi = int(indices.min()), int(indices.max())
    if layout == "interleaved":
        return translate("Extrapolation", "dims {lo}–{hi}").format(lo=2 * lo, hi=2 * hi + 1)
    return translate("Extrapolation", "pairs {lo}–{hi}").format(lo=lo, hi=hi)


def analyse_sinusoidal(train_len: int, eval_len: int, d_model: int = 128,
                       base: float = 10000.0) -> tuple[SinusoidalAnalysis, Summary]:
    inv = sinusoidal.inv_freq(d_model, base).numpy()
    angles = _pair_angles(inv, inv, train_len, eval_len)
    label = msg("Extrapolation", "Sinusoidal")
    if eval_len <= train_len:
        return (SinusoidalAnalysis(angles, np.zeros_like(inv)),
                Summary("sinusoidal", label, "fits", translate(
                    "Extrapolation", "every position up to {n:,} was seen in training").format(n=eval_len)))
    # Phases (angle mod 2π) seen in training lie in [0, θ(L−1)] unless the pair wrapped.
    new_positions = np.unique(np.linspace(train_len, eval_len - 1, min(PHASE_SAMPLES, eval_len - train_len))
                              .round().astype(np.int64))
    phase = np.mod(new_positions[:, None] * inv[None, :], TWO_PI)
    unseen = (phase > angles.trained[None, :] + inv[None, :] * 1e-9) & ~angles.wrapped[None, :]
    fraction = unseen.mean(axis=0)
    novel = np.flatnonzero(fraction > 0)
    n_pairs = len(inv)
    if len(novel) == 0:
        reason = translate("Extrapolation", "values continue past {n:,}, and every one of the {pairs} pairs already "
                                            "turned a full circle in training, so each pair's values were seen (their "
                                            "combinations are new)").format(n=train_len, pairs=n_pairs)
    else:
        slowest = 2 * math.pi / inv[novel[-1]]
        reason = translate("Extrapolation", "values continue past {n:,}, but {novel} of {pairs} pairs ({dims}, "
                                            "wavelengths {fastest:,.0f}–{slowest:,.0f} positions) meet phases never "
                                            "seen in training — inputs the model was not trained on").format(
            n=train_len, novel=len(novel), pairs=n_pairs, dims=_dims_text(novel, "interleaved"),
            fastest=2 * math.pi / inv[novel[0]], slowest=slowest)
    return SinusoidalAnalysis(angles, fraction), Summary("sinusoidal", label, "extrapolates", reason)


def scaled_inv_freq(rope_type: str, dim: int, base: float, factor: float, original_len: int,
                    seq_len: int) -> tuple[np.ndarray, float]:
    """(inv_freq [dim/2] float64, attention_factor) of ``rope_type`` ("none" = unscaled) at ``seq_len``,
    from :class:`peapp.encodings.rope.RopeSpec` with ``original_len`` as the trained context."""
    import torch
    kind = "default" if rope_type == "none" else rope_type
    if kind not in ("default",) + ROPE_SCALINGS:
        raise ParameterError(f"unknown RoPE scaling {rope_type!r}; choose one of none, {', '.join(ROPE_SCALINGS)}")
    try:
        spec = RopeSpec(head_dim=int(dim), base=float(base), rope_type=kind, factor=float(factor),
                        original_max_position_embeddings=int(original_len))
    except ParameterError as exc:
        raise ParameterError(f"RoPE scaling {rope_type}: {exc}") from None
    inv, attention = spec.inv_freq(int(seq_len))
    return inv.to(torch.float64).numpy(), float(attention)


def analyse_rope(train_len: int, eval_len: int, head_dim: int = 128, base: float = 10000.0,
                 factor: float | None = None) -> tuple[RopeAnalysis, list[Summary]]:
    """Angles per pair for unscaled RoPE and each scaling (factor default E/L, original length L)."""
    if factor is None:  # as long as the evaluation needs, within what RopeSpec accepts
        factor = min(max(1.0, eval_len / train_len), MAX_FACTOR)
    trained_inv, _ = scaled_inv_freq("none", head_dim, base, factor, train_len, train_len)
    variants: dict[str, PairAngles] = {}
    summaries: list[Summary] = []
    n_pairs = len(trained_inv)
    for kind in ("none",) + ROPE_SCALINGS:
        inv, attention = scaled_inv_freq(kind, head_dim, base, factor, train_len, eval_len)
        angles = _pair_angles(trained_inv, inv, train_len, eval_len, attention)
        variants[kind] = angles
        label = ROPE_SCALING_LABELS[kind]
        scheme = "rope" if kind == "none" else f"rope:{kind}"
        if eval_len <= train_len:
            seen = translate("Extrapolation", "every angle up to position {n:,} was seen in training").format(
                n=eval_len - 1)
            summaries.append(Summary(scheme, label, "fits", seen if kind == "none" else
                                     seen + translate("Extrapolation", "; no scaling needed")))
            continue
        out = np.flatnonzero(~angles.in_range)
        kept = int(np.isclose(inv, trained_inv, rtol=1e-6).sum())
        changed = translate("Extrapolation", "{slowed} of {pairs} pairs slowed").format(
            slowed=n_pairs - kept, pairs=n_pairs) if kind != "none" else ""
        if len(out) == 0:
            verdict = "interpolates" if kind != "none" else "extrapolates"
            if angles.wrapped.all():  # nothing to bring back: every angle was seen, scaled or not
                reason = translate("Extrapolation", "every pair already turned a full circle within {n:,} "
                                                    "positions").format(n=train_len)
                if kind != "none":
                    reason = translate("Extrapolation", "{changed}; not needed: {reason}").format(
                        changed=changed, reason=reason)
            else:
                reason = translate("Extrapolation", "{changed}; every pair's angle at position {n:,} is within the "
                                                    "span trained on (as if at position ≤ {effective:,.2f})").format(
                    changed=changed, n=eval_len - 1, effective=_effective_position(angles))
        else:
            worst = out[-1]
            verdict = "extrapolates"
            prefix = translate("Extrapolation", "{changed}, but ").format(changed=changed) if kind != "none" else ""
            reason = prefix + translate(
                "Extrapolation", "{out} of {pairs} pairs ({dims}) turn past any angle seen in training (slowest: "
                "needs {needed:.4g} rad, ×{ratio:.4g} the {trained:.4g} rad seen)").format(
                out=len(out), pairs=n_pairs, dims=_dims_text(out, "half"), needed=angles.needed[worst],
                ratio=angles.needed[worst] / angles.trained[worst], trained=angles.trained[worst])
        if attention != 1.0:
            reason += translate("Extrapolation", "; cos/sin scaled by {factor:.4f}").format(factor=attention)
        summaries.append(Summary(scheme, label, verdict, reason))
    return RopeAnalysis(head_dim, float(base), float(factor), variants), summaries


def analyse_t5(train_len: int, eval_len: int, num_buckets: int = 32,
               max_distance: int = 128) -> tuple[T5Analysis, Summary]:
    """T5's causal relative buckets: which buckets the evaluation reaches that training never did."""
    import torch
    from peapp.encodings.relative import t5_bucket

    if num_buckets < 4 or num_buckets % 2:
        raise ParameterError(f"T5 needs an even number of buckets ≥ 4; got {num_buckets}")
    if max_distance < num_buckets // 2:
        raise ParameterError(f"T5 max distance must be at least half the buckets ({num_buckets // 2}); "
                             f"got {max_distance}")
    end = max(train_len, eval_len)
    distances = np.unique(np.concatenate([np.arange(min(end, 64)),
                                          np.geomspace(1, end - 1, 512).round().astype(np.int64),
                                          [train_len - 1, eval_len - 1]]))

    def bucket(d: np.ndarray) -> np.ndarray:
        return t5_bucket(-torch.from_numpy(np.asarray(d, dtype=np.int64)), bidirectional=False,
                         num_buckets=num_buckets, max_distance=max_distance).numpy()

    buckets = bucket(distances)
    trained, evaluated = (int(b) for b in bucket(np.array([train_len - 1, eval_len - 1])))
    analysis = T5Analysis(num_buckets, max_distance, distances, buckets, trained, evaluated)
    label = msg("Extrapolation", "T5 relative buckets")
    if eval_len <= train_len:
        return analysis, Summary("t5", label, "fits", _every_distance_seen(eval_len))
    if evaluated == trained:
        reason = translate(
            "Extrapolation", "distances from {far:,} on share the last bucket ({last}), and training (distances up "
            "to {trained:,}) already reached it, so no bias is new; far tokens just stop being told apart").format(
            far=max_distance, last=num_buckets - 1, trained=train_len - 1) if trained == num_buckets - 1 else \
            translate("Extrapolation", "distances up to {n:,} still fall in bucket {bucket}, which training "
                                       "reached").format(n=eval_len - 1, bucket=trained)
    else:
        lo, hi = train_len - 1, eval_len - 1  # bucket(lo) = trained < bucket(hi): find the first step up
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if int(bucket(np.array([mid]))[0]) == trained else (lo, mid)
        reason = translate("Extrapolation", "buckets {first}–{last} are first reached past the training length "
                                            "(distances ≥ {distance:,}): their biases were never trained").format(
            first=trained + 1, last=evaluated, distance=hi)
    return analysis, Summary("t5", label, "extrapolates", reason)


def analyse_alibi(train_len: int, eval_len: int, n_heads: int = 8,
                  threshold: float = 10.0) -> tuple[AlibiAnalysis, Summary]:
    """Slopes and each head's reach: the distance where −slope·d falls below −threshold."""
    import torch
    if not threshold > 0:
        raise ParameterError(f"the ALiBi threshold is a bias magnitude and must be positive; got {threshold}")
    slopes = alibi.slopes(n_heads).to(torch.float64).numpy()
    reach = threshold / slopes
    analysis = AlibiAnalysis(slopes, float(threshold), reach)
    local = int((reach < train_len).sum())
    label = msg("Extrapolation", "ALiBi")
    if eval_len <= train_len:
        return analysis, Summary("alibi", label, "fits", _every_distance_seen(eval_len))
    wide = n_heads - local
    reason = translate(
        "Extrapolation", "the bias −slope·distance is defined at every distance; {local} of {heads} heads fade below "
        "−{threshold:g} within {n:,} tokens (reach {shortest:,.0f}–{longest:,.0f}), so they behave the same at "
        "{eval:,}").format(local=local, heads=n_heads, threshold=threshold, n=train_len, shortest=reach.min(),
                           longest=reach[reach < train_len].max() if local else reach.min(), eval=eval_len)
    if wide:
        if eval_len - 1 == train_len:
            far = translate("Extrapolation", "distance {n:,}").format(n=train_len)
        else:
            far = translate("Extrapolation", "distances {first:,}–{last:,}").format(first=train_len, last=eval_len - 1)
        if wide == 1:
            reason += translate("Extrapolation", "; 1 head (reach up to {reach:,.0f}) meets {far} with penalties "
                                                 "larger than any seen in training").format(reach=reach.max(), far=far)
        else:
            reason += translate("Extrapolation", "; {heads:,} heads (reach up to {reach:,.0f}) meet {far} with "
                                                 "penalties larger than any seen in training").format(
                heads=wide, reach=reach.max(), far=far)
    return analysis, Summary("alibi", label, "extrapolates", reason)


# ---------------------------------------------------------------------------------------------


def analyse(train_len: int, eval_len: int, *, d_model: int = 128, sin_base: float = 10000.0,
            head_dim: int = 128, rope_base: float = 10000.0, factor: float | None = None,
            n_heads: int = 8, threshold: float = 10.0, t5_buckets: int = 32,
            t5_max_distance: int = 128) -> ExtrapolationResult:
    """Every scheme at once, with one summary per scheme (and per RoPE scaling)."""
    for name, value, most in (("training length", train_len, MAX_TRAIN_LENGTH),
                              ("evaluation length", eval_len, MAX_LENGTH)):
        if not 2 <= int(value) <= most:
            raise ParameterError(f"{name} must be between 2 and {most:,}; got {value:,}")
    if d_model < 2 or d_model % 2:
        raise ParameterError(f"sinusoidal d_model must be even and ≥ 2; got {d_model}")
    if head_dim < 4 or head_dim % 2:
        raise ParameterError(f"RoPE head_dim must be even and ≥ 4; got {head_dim}")
    if factor is not None and not 1 <= factor <= MAX_FACTOR:
        raise ParameterError(f"the RoPE scaling factor must be between 1 and {MAX_FACTOR:g}; got {factor:g}")
    if not 1 <= n_heads <= 256:
        raise ParameterError(f"ALiBi heads must be between 1 and 256; got {n_heads}")
    learned, s_learned = analyse_learned(train_len, eval_len)
    sin, s_sin = analyse_sinusoidal(train_len, eval_len, d_model, sin_base)
    rope_a, s_rope = analyse_rope(train_len, eval_len, head_dim, rope_base, factor)
    ali, s_ali = analyse_alibi(train_len, eval_len, n_heads, threshold)
    t5, s_t5 = analyse_t5(train_len, eval_len, t5_buckets, t5_max_distance)
    return ExtrapolationResult(train_len, eval_len, learned, sin, rope_a, ali, t5,
                               summaries=(s_learned, s_sin, s_t5, *s_rope, s_ali))


@dataclass(frozen=True)
class ExtrapolationRequest(Request):
    channel: ClassVar[str] = "extrapolation"
    train_len: int = 2048
    eval_len: int = 8192
    d_model: int = 128
    sin_base: float = 10000.0
    head_dim: int = 128
    rope_base: float = 10000.0
    factor: float | None = None
    n_heads: int = 8
    threshold: float = 10.0
    t5_buckets: int = 32
    t5_max_distance: int = 128

    def compute(self, progress: ProgressFn) -> ExtrapolationResult:
        return analyse(self.train_len, self.eval_len, d_model=self.d_model, sin_base=self.sin_base,
                       head_dim=self.head_dim, rope_base=self.rope_base, factor=self.factor,
                       n_heads=self.n_heads, threshold=self.threshold, t5_buckets=self.t5_buckets,
                       t5_max_distance=self.t5_max_distance)
