"""Lost in the middle, measured: a passkey retrieval probe on the opened causal model.

One fact, "The pass key is 68231. Remember it. 68231 is the pass key.", is hidden at depth
0 %, 10 %, … 100 % of a filler text (Alice's Adventures in Wonderland, chapters VII–XII, public
domain: resources/texts/SOURCE.md), and asked for at the end (the prompt of Mohtashami & Jaggi
2023, "Landmark Attention", the usual passkey test)::

    [specials] intro  filler[:k]  needle  filler[k:F]  question  answer

built from token ids (each piece tokenised once with the model's own tokenizer), so the context
is exactly ``n_tokens`` long and the needle starts exactly at token ``len(specials + intro) + k``
with ``k = floor(depth · F + 0.5)``, F the number of filler tokens that fit (the filler repeats
when the context needs more).  The answer is the pass key's own tokens, teacher-forced.

Measured, per (context length, depth), from one forward pass:

- **log-probability of the answer**: Σ over the answer tokens (the tokens covering the key's
  digits) of log p(token | everything before);
- **top-1 accuracy**: the share of answer tokens that are the model's most likely next token
  (greedy next-token match), and whether all of them are (exact);
- **attention on the needle**: at each query row that predicts an answer token, the total weight
  on the needle's tokens, per layer and head (mean over those rows), computed exactly for those
  rows inside the probes' attention strategy (:class:`peapp.model_run.probes.ProbeStrategy`), never a full map;
  with the share a uniform row would give (needle tokens / keys the row sees) for scale.

Beside it, as cited reference data, :data:`LOST_IN_THE_MIDDLE` (Liu et al. 2023).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import torch

from peapp.errors import ParameterError
from peapp.jobs import Cancelled
from peapp.model_run.references import LOST_IN_THE_MIDDLE
from peapp.model_run.probes import (
    DEFAULT_FACTOR,
    VARIANT_LABELS,
    VARIANTS,
    TimeEstimate,
    _head_rows,
    _layer_count,
    ProbeStrategy,
    fit_time,
    forward_hidden,
    model_rope_specs,
    position_limit,
    require_causal_lm,
    rotary_frequencies,
    scaled_frequencies,
    variant_specs,
)

FILLER_FILE = "texts/alice-chapters-7-12.txt"
FILLER_LABEL = "Alice's Adventures in Wonderland, chapters VII–XII (Lewis Carroll, 1865; public domain)"
INTRO = ("There is an important piece of information hidden inside a lot of irrelevant text. Find it and "
         "memorize it. I will quiz you about the important information there.\n\n")
NEEDLE = " The pass key is {key}. Remember it. {key} is the pass key. "
QUESTION = "\n\nWhat is the pass key? The pass key is"
ANSWER = " {key}"
DEFAULT_DEPTHS = tuple(round(0.1 * i, 1) for i in range(11))
DEFAULT_LENGTHS = (1024, 2048)
DEFAULT_SEED = 0



def filler_text() -> str:
    from peapp.resources import resource_path

    with open(resource_path(FILLER_FILE), encoding="utf-8") as fh:
        return fh.read()


@dataclass(frozen=True)
class PasskeyPrompt:
    ids: list[int]
    depth: float
    key: str
    needle: tuple[int, int]  # [start, stop) token positions of the needle
    answer: tuple[int, int]  # [start, stop) token positions of the answer
    filler_tokens: int  # F: filler tokens in the context
    filler_before: int  # k: filler tokens before the needle

    @property
    def rows(self) -> list[int]:
        """The query positions that predict the answer tokens (each one before its token)."""
        return list(range(self.answer[0] - 1, self.answer[1] - 1))


class PromptBuilder:
    """Builds passkey prompts with one tokenizer; the filler and the fixed pieces are tokenised once."""

    def __init__(self, tokenizer, filler: str | None = None):
        self.tokenizer = tokenizer
        tokenizer.no_truncation()
        tokenizer.no_padding()
        self.specials = self._leading_specials(INTRO)
        self.intro = self._ids(INTRO)
        self.filler = self._ids(filler if filler is not None else filler_text())
        if not self.filler:
            raise ParameterError("the filler text has no tokens.")

    def _ids(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False).ids)

    def _leading_specials(self, text: str) -> list[int]:
        """The special tokens the tokenizer puts before a text (a BOS), not any it appends."""
        plain = self._ids(text)
        full = list(self.tokenizer.encode(text).ids)
        for start in range(len(full) - len(plain) + 1):
            if full[start:start + len(plain)] == plain:
                return full[:start]
        return []

    def answer_ids(self, key: str) -> tuple[list[int], list[int]]:
        """(question ids, answer ids) as the tokenizer splits the question followed by the key: the
        answer is every token that covers a character of the key (the space before it stays with the
        question unless the tokenizer merges it into the key's first token)."""
        text = QUESTION + ANSWER.format(key=key)
        key_start = text.rindex(key)
        encoding = self.tokenizer.encode(text, add_special_tokens=False)
        ids = list(encoding.ids)
        first = next((i for i, (_, end) in enumerate(encoding.offsets) if end > key_start), len(ids))
        if first == 0 or first == len(ids):  # a tokenizer without offsets: the key on its own
            return self._ids(QUESTION), self._ids(ANSWER.format(key=key))
        return ids[:first], ids[first:]

    def build(self, n_tokens: int, depth: float, key: str) -> PasskeyPrompt:
        if not 0.0 <= depth <= 1.0:
            raise ParameterError(f"depth {depth:g} is outside 0 … 1 (0 = the needle first, 1 = last).")
        head = self.specials + self.intro
        needle = self._ids(NEEDLE.format(key=key))
        question, answer = self.answer_ids(key)
        fixed = len(head) + len(needle) + len(question) + len(answer)
        filler_count = n_tokens - fixed
        if filler_count < 1:
            raise ParameterError(f"a context of {n_tokens:,} tokens leaves no room for filler (the prompt's fixed "
                                 f"parts are {fixed} tokens): choose at least {fixed + 1}.")
        repeats = -(-filler_count // len(self.filler))
        filler = (self.filler * repeats)[:filler_count]
        before = int(math.floor(depth * filler_count + 0.5))
        ids = head + filler[:before] + needle + filler[before:] + question + answer
        start = len(head) + before
        answer_start = len(ids) - len(answer)
        return PasskeyPrompt(ids=ids, depth=float(depth), key=key, needle=(start, start + len(needle)),
                             answer=(answer_start, len(ids)), filler_tokens=filler_count, filler_before=before)


def pass_keys(count: int, seed: int = DEFAULT_SEED) -> list[str]:
    """``count`` five-digit pass keys from ``seed`` (10000 … 99999)."""
    return [str(k) for k in np.random.default_rng(seed).integers(10000, 100000, count)]


@dataclass
class PasskeyCell:
    """One prompt's measurement."""

    n_tokens: int
    depth: float
    trial: int
    key: str
    needle: tuple[int, int]
    answer_tokens: int
    logprob: float  # Σ log p over the answer tokens (nats)
    token_accuracy: float  # share of answer tokens that are the top-1 next token
    exact: bool  # every answer token is the top-1
    needle_attention: np.ndarray  # [layers, heads]: mean over answer rows of the weight on the needle
    uniform_share: float  # mean over answer rows of needle tokens / keys the row sees
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return {"n_tokens": self.n_tokens, "depth": self.depth, "trial": self.trial, "key": self.key,
                "needle": list(self.needle), "answer_tokens": self.answer_tokens,
                "logprob": round(self.logprob, 6), "token_accuracy": self.token_accuracy, "exact": self.exact,
                "needle_attention_per_layer": [round(float(v), 7) for v in self.needle_attention.mean(1)],
                "needle_attention": np.round(self.needle_attention, 7).tolist(),
                "uniform_share": round(self.uniform_share, 7), "seconds": round(self.seconds, 3)}


@dataclass
class PasskeyResult:
    family: str
    architecture: str
    lengths: list[int]
    depths: list[float]
    trials: int
    seed: int
    variant: str
    factor: float
    trained_context: int | None
    cells: list[PasskeyCell] = field(default_factory=list)
    estimate: TimeEstimate | None = None
    seconds: float = 0.0
    device: str = "cpu"
    threads: int = 1
    dtype: str = "float32"  # the model's weights and activations (the statistics: float32 / float64)

    def table(self, name: str) -> np.ndarray:
        """[lengths, depths] mean over trials of a cell number ("logprob", "token_accuracy",
        "exact", "needle_attention" (mean over layers and heads), "uniform_share"); NaN where
        not measured yet."""
        out = np.full((len(self.lengths), len(self.depths)), np.nan)
        sums: dict[tuple[int, int], list[float]] = {}
        for c in self.cells:
            value = float(c.needle_attention.mean()) if name == "needle_attention" else float(getattr(c, name))
            sums.setdefault((self.lengths.index(c.n_tokens), self.depths.index(c.depth)), []).append(value)
        for (i, j), values in sums.items():
            out[i, j] = float(np.mean(values))
        return out

    def layer_attention(self, n_tokens: int) -> np.ndarray:
        """[layers, depths]: the needle attention per layer (mean over heads and trials) at one length."""
        cells = [c for c in self.cells if c.n_tokens == n_tokens]
        if not cells:
            return np.zeros((0, len(self.depths)))
        layers = cells[0].needle_attention.shape[0]
        out = np.full((layers, len(self.depths)), np.nan)
        for j, depth in enumerate(self.depths):
            here = [c.needle_attention.mean(1) for c in cells if c.depth == depth]
            if here:
                out[:, j] = np.mean(here, axis=0)
        return out

    def to_json(self) -> dict[str, Any]:
        def clean(a: np.ndarray) -> list:
            return [[None if not math.isfinite(v) else round(float(v), 6) for v in row] for row in a]

        return {"probe": "passkey", "family": self.family, "architecture": self.architecture,
                "lengths": self.lengths, "depths": self.depths, "trials": self.trials, "seed": self.seed,
                "variant": self.variant, "variant_label": VARIANT_LABELS[self.variant], "factor": self.factor,
                "trained_context": self.trained_context, "device": self.device, "dtype": self.dtype,
                "threads": self.threads,
                "seconds": round(self.seconds, 3),
                "estimate": None if self.estimate is None else self.estimate.to_json(),
                "prompt": {"intro": INTRO, "needle": NEEDLE, "question": QUESTION, "answer": ANSWER,
                           "filler": FILLER_LABEL,
                           "depth": "the needle starts after floor(depth × F + 0.5) of the F filler tokens"},
                "definitions": {"logprob": "sum over the answer tokens of log p(token | everything before), nats",
                                "token_accuracy": "share of answer tokens that are the top-1 next token",
                                "exact": "every answer token is the top-1 next token",
                                "needle_attention": "at each row predicting an answer token, the attention "
                                                    "weight on the needle's tokens; mean over those rows (and "
                                                    "heads, per layer)",
                                "uniform_share": "needle tokens / keys the row sees (a uniform row's share)"},
                "mean": {name: clean(self.table(name)) for name in
                         ("logprob", "token_accuracy", "exact", "needle_attention", "uniform_share")},
                "cells": [c.to_json() for c in self.cells],
                "reference": LOST_IN_THE_MIDDLE}


def check_depths(depths: Sequence[float]) -> list[float]:
    out = sorted({round(float(d), 6) for d in depths})
    if not out:
        raise ParameterError("no depth chosen: give at least one between 0 and 1.")
    for d in out:
        if not 0.0 <= d <= 1.0:
            raise ParameterError(f"depth {d:g} is outside 0 … 1 (0 % … 100 % of the filler).")
    return out


def measure_prompt(loaded, prompt: PasskeyPrompt, progress=None, cancelled=None) -> tuple[float, float, bool,
                                                                                            np.ndarray, float]:
    """(log-probability, token accuracy, exact, needle attention [L, H], uniform share) of one prompt."""
    rows = prompt.rows
    session = ProbeStrategy(_layer_count(loaded), progress, cancelled, rows=rows, span=prompt.needle)
    if getattr(loaded, "route", "") == "hooks":  # BLOOM, MPT, Falcon: the weights their own attention returns
        from peapp.model_run.hook_route import WeightShares

        with WeightShares(loaded.model, rows, prompt.needle, session.shares):
            hidden = forward_hidden(loaded, prompt.ids, session)
    else:
        hidden = forward_hidden(loaded, prompt.ids, session)
    targets = torch.tensor(prompt.ids[prompt.answer[0]:prompt.answer[1]], dtype=torch.long, device=hidden.device)
    with torch.no_grad():
        logp = torch.log_softmax(_head_rows(loaded, hidden[rows]).double(), -1)
    picked = logp[torch.arange(len(rows)), targets]
    top = logp.argmax(-1) == targets
    layers = sorted(session.shares)
    attention = torch.stack([session.shares[layer].mean(-1) for layer in layers]).double().numpy()
    span = prompt.needle[1] - prompt.needle[0]
    uniform = float(np.mean([span / (r + 1) for r in rows]))
    return (float(picked.sum()), float(top.double().mean()), bool(top.all()), attention, uniform)


def estimate_passkey_seconds(loaded, builder: PromptBuilder, lengths: Sequence[int], runs_per_length: int,
                             cancelled=None) -> TimeEstimate:
    """Two short prompts timed (512 and 1,024 tokens, after a 128-token warm-up), t = a·n + b·n²
    fitted, summed over the lengths (see :func:`peapp.model_run.probes.fit_time`)."""
    measure_prompt(loaded, builder.build(128, 0.5, "12345"), cancelled=cancelled)
    measured = []
    for m in (512, 1024):
        prompt = builder.build(m, 0.5, "12345")
        started = time.perf_counter()
        measure_prompt(loaded, prompt, cancelled=cancelled)
        measured.append((m, time.perf_counter() - started))
    fits = [fit_time(measured, n, runs_per_length) for n in lengths]
    total = sum(f.seconds for f in fits)
    return TimeEstimate(n=max(lengths), runs=runs_per_length * len(lengths), seconds=total,
                        per_run=total / max(1, runs_per_length * len(lengths)), measured=fits[0].measured,
                        linear=fits[0].linear, quadratic=fits[0].quadratic)


def passkey_probe(loaded, lengths: Sequence[int] = DEFAULT_LENGTHS, depths: Sequence[float] = DEFAULT_DEPTHS,
                  trials: int = 1, seed: int = DEFAULT_SEED, variant: str = "none", factor: float = DEFAULT_FACTOR,
                  filler: str | None = None, progress: Callable[[float], None] | None = None,
                  cancelled: Callable[[], bool] | None = None,
                  partial: Callable[[PasskeyResult], None] | None = None,
                  estimate: TimeEstimate | None = None) -> PasskeyResult:
    """Passkey retrieval at every (length, depth) and trial (see the module docstring).

    ``variant``/``factor``: the RoPE frequencies to run with (as :func:`peapp.model_run.probes.
    perplexity_probe`); ``partial(result)`` after every prompt; ``cancelled()`` checked per layer."""
    require_causal_lm(loaded)
    depths = check_depths(depths)
    lengths = sorted({int(n) for n in lengths})
    if not lengths:
        raise ParameterError("no context length chosen: give at least one.")
    if trials < 1:
        raise ParameterError("trials must be at least 1.")
    if variant not in VARIANTS:
        raise ParameterError(f"unknown variant {variant!r}; choose from {', '.join(VARIANTS)}.")
    limit = position_limit(loaded)
    if limit is not None and lengths[-1] > limit:
        raise ParameterError(f"a context of {lengths[-1]:,} tokens cannot be read: this model's learned position "
                             f"table has {limit:,} rows and no row past them; choose lengths up to {limit:,}.")
    spec = None
    if variant != "none":  # each RoPE layer type scaled with its own base; NoPE layers as they are
        spec = variant_specs(model_rope_specs(loaded), variant, factor)
    builder = PromptBuilder(loaded.tokenizer, filler)
    keys = pass_keys(trials, seed)
    jobs = [(n, d, t) for n in lengths for d in depths for t in range(trials)]
    prompts = {(n, d, t): builder.build(n, d, keys[t]) for n, d, t in jobs}  # refuses a too-short length first
    result = PasskeyResult(family=loaded.family, architecture=loaded.architecture, lengths=lengths,
                           depths=depths, trials=trials, seed=seed, variant=variant,
                           factor=1.0 if variant == "none" else float(factor),
                           trained_context=loaded.trained_context, estimate=estimate, device=loaded.device,
                           threads=torch.get_num_threads(), dtype=getattr(loaded, "dtype", "float32"))
    started = time.perf_counter()
    weights = [n * n + 64 * n for n, _, _ in jobs]  # progress by cost (attention grows with n²)
    total, done = float(sum(weights)), 0.0
    for (n, d, t), w in zip(jobs, weights):
        def step(f: float, done: float = done, w: float = w) -> None:
            if progress is not None:
                progress(min(1.0, (done + f * w) / total))

        prompt = prompts[(n, d, t)]
        t0 = time.perf_counter()
        if spec is None:
            measured = measure_prompt(loaded, prompt, step, cancelled)
        else:
            with rotary_frequencies(loaded.model, scaled_frequencies(spec, len(prompt.ids))):
                measured = measure_prompt(loaded, prompt, step, cancelled)
        logprob, accuracy, exact, needle_attention, uniform = measured
        result.cells.append(PasskeyCell(n_tokens=n, depth=d, trial=t, key=prompt.key, needle=prompt.needle,
                                        answer_tokens=prompt.answer[1] - prompt.answer[0], logprob=logprob,
                                        token_accuracy=accuracy, exact=exact, needle_attention=needle_attention,
                                        uniform_share=uniform, seconds=time.perf_counter() - t0))
        done += w
        step(0.0, done, 0.0)
        result.seconds = time.perf_counter() - started
        if cancelled is not None and cancelled():
            raise Cancelled()
        if partial is not None:
            partial(result)
    result.seconds = time.perf_counter() - started
    return result


def _saved_table(rows: Any) -> np.ndarray:
    """[layers, heads] numbers from a saved cell, checked (ragged rows or texts are refused)."""
    from peapp.model_run.probes import saved_numbers

    if not isinstance(rows, list) or not rows:
        raise ValueError("needle_attention is not a table of numbers")
    table = [saved_numbers(r, "needle_attention") for r in rows]
    if len({len(r) for r in table}) != 1:
        raise ValueError("needle_attention's rows differ in length")
    return np.stack(table)


def passkey_from_json(doc: dict[str, Any]) -> PasskeyResult:
    """A :class:`PasskeyResult` back from its ``to_json`` (a saved result drawn without running again)."""
    if not isinstance(doc, dict) or doc.get("probe") != "passkey":
        raise ParameterError("this file is not a saved passkey probe (peapp probe passkey --json).")
    from peapp.model_run.probes import saved_dtype, saved_float, saved_int, saved_numbers, saved_optional_int

    try:
        result = PasskeyResult(
            family=str(doc["family"]), architecture=str(doc["architecture"]),
            lengths=[saved_int(n, "lengths", low=1) for n in doc["lengths"]],
            depths=[float(d) for d in saved_numbers(doc["depths"], "depths")],
            trials=saved_int(doc["trials"], "trials", low=1), seed=saved_int(doc["seed"], "seed"),
            variant=str(doc["variant"]), factor=saved_float(doc["factor"], "factor"),
            trained_context=saved_optional_int(doc.get("trained_context"), "trained_context"),
            seconds=saved_float(doc.get("seconds") or 0.0, "seconds"), device=str(doc.get("device", "cpu")),
            threads=saved_int(doc.get("threads") or 1, "threads", low=1), dtype=saved_dtype(doc.get("dtype")))
        if result.variant not in VARIANTS:
            raise ParameterError(f"unknown variant {result.variant!r} in the saved result.")
        for c in doc["cells"]:
            result.cells.append(PasskeyCell(
                n_tokens=saved_int(c["n_tokens"], "n_tokens", low=1), depth=saved_float(c["depth"], "depth"),
                trial=saved_int(c["trial"], "trial"), key=str(c["key"]),
                needle=(saved_int(c["needle"][0], "needle"), saved_int(c["needle"][1], "needle")),
                answer_tokens=saved_int(c["answer_tokens"], "answer_tokens"),
                logprob=saved_float(c["logprob"], "logprob"), token_accuracy=saved_float(c["token_accuracy"], "token_accuracy"),
                exact=bool(c["exact"]), needle_attention=_saved_table(c["needle_attention"]),
                uniform_share=saved_float(c["uniform_share"], "uniform_share"),
                seconds=saved_float(c.get("seconds") or 0.0, "seconds")))
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise ParameterError(f"the saved passkey probe is incomplete or damaged ({type(exc).__name__}: "
                             f"{str(exc)[:80]}); run the probe again.") from None
    return result
