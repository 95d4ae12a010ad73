"""The Probes panel's computation, Qt-free: a :class:`ProbeRequest` from the panel's settings
(:class:`peapp.views.probe.ProbeView`) runs a probe on the Document's checkpoint, or reads a
saved result (``results_file``) instead of running again.

The model is the Run on text panel's cached one (:data:`peapp.model_run.text_run.MODEL_CACHE`:
loading is the slow part), lent to the probe alone while it runs.  Long perplexity probes time a prefix first; its estimate, and every
finished variant or passkey cell, are the job's partial results (:class:`peapp.jobs.Partial`, a copy
the caller may keep) so curves draw as they arrive.  Cancel is the executor's: its hooks stop the
probe at the next layer.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, ClassVar

from peapp.i18n import msg, shown, translate
from peapp.errors import CheckpointError, ParameterError
from peapp.jobs import HOOKS, Hooks, Job, Request


def _snapshot(result: Any) -> Any:
    """A copy the caller can keep: the probe goes on appending to (and removes its preview from) the lists."""
    if hasattr(result, "curves"):
        return dataclasses.replace(result, curves=list(result.curves))
    return dataclasses.replace(result, cells=list(result.cells))


# peapp.model_run.probes.VARIANTS and VARIANT_LABELS, spelled out: this module, the probe view and the
# command's parser stay torch-free (tests/core/model_run/test_probes.py keeps them equal)
VARIANTS = {"none": msg("ProbeRun", "as trained"), "linear": msg("ProbeRun", "linear (PI)"), "ntk": msg("ProbeRun", "NTK-aware"),
            "dynamic": msg("ProbeRun", "dynamic NTK"), "yarn": "YaRN", "llama3": "Llama-3"}
MAX_PROBE_TOKENS = 131_072
#: peapp.model_run.streaming's limits, spelled out here for the same reason (a test keeps them equal)
MAX_STREAMING_TOKENS = 32_768
MAX_SINKS = 64


def parse_variants(text: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(v.strip() for v in text.split(",") if v.strip()))
    bad = [v for v in names if v not in VARIANTS]
    if bad or not names:
        raise ParameterError(translate("ProbeRun", "variants: {bad}; choose from {allowed} (comma-separated).").format(
            bad=", ".join(bad) or translate("ProbeRun", "none given"), allowed=", ".join(VARIANTS)))
    return names


def parse_numbers(text: str, what: str, kind=float) -> tuple:
    """Comma-separated numbers; ``what`` names the setting in errors (a marked message is translated)."""
    try:
        values = tuple(kind(v) for v in text.split(",") if v.strip())
    except ValueError:
        raise ParameterError(translate("ProbeRun", "{what}: {text} is not a comma-separated list of numbers.").format(
            what=shown(what), text=repr(text))) from None
    if not values:
        raise ParameterError(translate("ProbeRun", "{what}: give at least one number.").format(what=shown(what)))
    return values

#: the view setting that names each probe's saved result
SAVED_RESULT = {"probe-perplexity": "results_file", "probe-passkey": "passkey_results_file",
                "probe-streaming": "streaming_results_file"}

_LOAD_SHARE = 0.15  # of the progress bar, when the model is not loaded yet
_ESTIMATE_SHARE = 0.1


def read_saved_result(path: str):
    """A saved probe result (``peapp probe … --json``, or the panel's export) as its result object."""
    from peapp.model_run.passkey import passkey_from_json
    from peapp.model_run.probes import perplexity_from_json
    from peapp.safe_open import load_json, read_text

    doc = load_json(read_text(path, "results", ParameterError), path, ParameterError)
    kind = doc.get("probe") if isinstance(doc, dict) else None
    if kind == "perplexity":
        return perplexity_from_json(doc)
    if kind == "passkey":
        return passkey_from_json(doc)
    if kind == "streaming":
        from peapp.model_run.streaming import streaming_from_json

        return streaming_from_json(doc)
    raise ParameterError(translate("ProbeRun", "{path} is not a saved probe result (peapp probe "
                                               "perplexity|passkey|streaming --json).").format(path=path))


@dataclass(frozen=True)
class ProbeOutcome:
    """A probe's result and what it was run on."""

    result: Any  # PerplexityResult | PasskeyResult | StreamingResult
    checkpoint: str
    text_label: str = ""
    text_sha256: str = ""
    reused_model: bool = False
    from_file: str = ""  # the saved result it was read from ("" when run now)
    notes: tuple[str, ...] = ()  # what loading had to say (a cache rebuilt, or not writable)


@dataclass(frozen=True)
class ProbeRequest(Request):
    channel: ClassVar[str] = "probe"
    travels: ClassVar[bool] = False  # a model run: computed where it is asked (peapp.request_process)
    checkpoint: str
    mode: str = "probe-perplexity"
    text_source: str = "sample"
    text: str = ""
    text_file: str = ""
    length: int = 4096
    variants: tuple[str, ...] = tuple(VARIANTS)
    factor: float = 2.0
    window: int = 256
    lengths: tuple[int, ...] = (1024, 2048)
    depths: tuple[float, ...] = tuple(round(0.1 * i, 1) for i in range(11))
    trials: int = 1
    seed: int = 0
    variant: str = "none"
    kv_window: int = 256  # attention sinks: W, the sliding KV window (length and window: its tokens, bin)
    sinks: int = 4  # attention sinks: K, the first tokens kept
    results_file: str = ""
    device: str = "cpu"
    dtype: str = "float32"  # peapp.model_run.placement.DTYPES (the CLI's --dtype, the panel's Precision)
    #: "run" (the probe), or "estimate": only the time estimate (a :class:`TimeEstimate`, or None for a
    #: probe too short to need one), so a panel can say it, and ask, before minutes of work
    phase: str = "run"
    #: an estimate measured before (phase "estimate" on the same settings): not measured again, and
    #: its prefix run still gives the first partial curve
    estimate: Any = field(default=None, compare=False, hash=False)

    @classmethod
    def from_view(cls, view, checkpoint: str, device: str = "cpu",
                  phase: str = "run", estimate=None, dtype: str | None = None) -> "ProbeRequest":
        """The request for a :class:`peapp.views.probe.ProbeView`'s settings (the saved result of
        the shown probe: ``results_file`` for perplexity, ``passkey_results_file`` for passkey,
        ``streaming_results_file`` for attention sinks, whose ``stream_length`` and ``stream_bin`` are
        the request's ``length`` and ``window``).
        ``dtype``: the precision the probe runs in; None: the view's Precision (the app passes what its
        "auto" means there: Preferences > Precision)."""
        saved = getattr(view, SAVED_RESULT.get(view.mode, "results_file"))
        streaming = view.mode == "probe-streaming"
        return cls(checkpoint=checkpoint, mode=view.mode, phase=phase, estimate=estimate, text_source=view.text_source, text=view.text,
                   text_file=view.text_file, length=view.stream_length if streaming else view.length,
                   variants=parse_variants(view.variants), factor=view.factor,
                   window=view.stream_bin if streaming else view.window, kv_window=view.kv_window, sinks=view.sinks,
                   lengths=parse_numbers(view.lengths, "lengths", int),
                   depths=parse_numbers(view.depths, "depths"), trials=view.trials, seed=view.seed,
                   variant=view.variant, results_file=saved, device=device, dtype=dtype or view.dtype)

    def steps(self) -> Job:
        # the probe reports from forward hooks and per-layer loops, which cannot yield: through the hooks
        hooks = yield HOOKS
        return self._compute(hooks)

    def _compute(self, hooks: Hooks) -> Any:
        progress = hooks.progress
        if self.phase not in ("run", "estimate"):
            raise ParameterError(f"unknown phase {self.phase!r}: run or estimate.")
        if self.results_file:
            if self.phase == "estimate":
                return None  # read, not run: nothing to wait for
            return ProbeOutcome(result=read_saved_result(self.results_file), checkpoint=self.checkpoint,
                                from_file=self.results_file)
        if not self.checkpoint:
            raise CheckpointError(translate("TextRun", "no checkpoint is open: open one (File > Open, or File > "
                                                       "Open Sample) first."))
        from peapp.model_run.text_run import MODEL_CACHE

        # lent: one job at a time on the model (see _ModelCache)
        with MODEL_CACHE.lend(self.checkpoint, self.device, lambda f: progress(_LOAD_SHARE * f),
                              self.dtype) as (loaded, reused):
            start = 0.0 if reused else _LOAD_SHARE
            if self.phase == "estimate":
                return self._estimate(loaded, hooks, start)
            if self.mode == "probe-passkey":
                return self._passkey(loaded, reused, hooks, start)
            if self.mode == "probe-perplexity":
                return self._perplexity(loaded, reused, hooks, start)
            if self.mode == "probe-streaming":
                return self._streaming(loaded, reused, hooks, start)
        raise ParameterError(f"unknown probe {self.mode!r}: probe-perplexity, probe-passkey or probe-streaming.")

    def _perplexity(self, loaded, reused: bool, hooks: Hooks, start: float) -> ProbeOutcome:
        from peapp.model_run.probes import (
            ESTIMATE_FROM,
            estimate_seconds,
            perplexity_probe,
        )
        from peapp.model_run.text_run import text_sha256

        text, label, ids, measured, runs = self._tokens(loaded)
        estimate = self.estimate
        if estimate is None and measured >= ESTIMATE_FROM:
            hooks.progress(start)
            estimate = estimate_seconds(loaded, ids, measured, runs, cancelled=hooks.cancelled)
            start += _ESTIMATE_SHARE
        share = 1.0 - start
        result = perplexity_probe(loaded, ids, variants=self.variants, factor=self.factor, window=self.window,
                                  progress=lambda f: hooks.progress(start + share * f),
                                  partial=lambda r: hooks.partial(_snapshot(r)), estimate=estimate)
        return ProbeOutcome(result=result, checkpoint=self.checkpoint, text_label=label, text_sha256=text_sha256(text),
                            reused_model=reused, notes=() if reused else tuple(loaded.notes))

    def _streaming(self, loaded, reused: bool, hooks: Hooks, start: float) -> ProbeOutcome:
        from peapp.model_run.streaming import streaming_probe
        from peapp.model_run.text_run import text_sha256

        text, label, ids, _, _ = self._tokens(loaded)
        share = 1.0 - start
        result = streaming_probe(loaded, ids, window=self.kv_window, sinks=self.sinks, bin=self.window,
                                 progress=lambda f: hooks.progress(start + share * f), cancelled=hooks.cancelled,
                                 partial=lambda r: hooks.partial(_snapshot(r)))
        return ProbeOutcome(result=result, checkpoint=self.checkpoint, text_label=label, text_sha256=text_sha256(text),
                            reused_model=reused, notes=() if reused else tuple(loaded.notes))

    def _tokens(self, loaded):
        """(text, its label, the probe's token ids, positions measured, forward passes)."""
        from peapp.model_run.probes import position_limit, tokenize_all
        from peapp.model_run.text_run import resolve_text

        text, label = resolve_text(self.text_source, self.text, self.text_file)
        ids = tokenize_all(loaded, text, self.length)
        if len(ids) < self.length:
            raise ParameterError(translate("ProbeRun", "the text has {n} tokens, fewer than the probe length {length}: choose "
                                              "a longer text or a shorter length.").format(
                n=f"{len(ids):,}", length=f"{self.length:,}"))
        ids = ids[:self.length]
        limit = position_limit(loaded)
        measured = min(len(ids), limit) if limit else len(ids)
        runs = len(self.variants) if loaded.scheme == "rope" else 1
        return text, label, ids, measured, runs

    def _estimate(self, loaded, hooks: Hooks, start: float):
        """The probe's time estimate (None when it is short enough not to need one)."""
        from peapp.model_run.probes import ESTIMATE_FROM, estimate_seconds

        hooks.progress(start)
        cancelled = hooks.cancelled

        if self.mode == "probe-passkey":
            from peapp.model_run.passkey import PromptBuilder, estimate_passkey_seconds

            if max(self.lengths) < ESTIMATE_FROM:
                return None
            runs = len(set(self.depths)) * self.trials
            return estimate_passkey_seconds(loaded, PromptBuilder(loaded.tokenizer), sorted(set(self.lengths)), runs)
        _, _, ids, measured, runs = self._tokens(loaded)
        if measured < ESTIMATE_FROM:
            return None
        if self.mode == "probe-streaming":
            from peapp.model_run.streaming import estimate_streaming_seconds

            return estimate_streaming_seconds(loaded, ids, measured, self.kv_window, self.sinks, cancelled=cancelled)
        return estimate_seconds(loaded, ids, measured, runs, cancelled=cancelled)

    def _passkey(self, loaded, reused: bool, hooks: Hooks, start: float) -> ProbeOutcome:
        from peapp.model_run.passkey import passkey_probe

        share = 1.0 - start
        result = passkey_probe(loaded, lengths=self.lengths, depths=self.depths, trials=self.trials, seed=self.seed,
                               variant=self.variant, factor=self.factor,
                               progress=lambda f: hooks.progress(start + share * f),
                               partial=lambda r: hooks.partial(_snapshot(r)), estimate=self.estimate)
        return ProbeOutcome(result=result, checkpoint=self.checkpoint, reused_model=reused,
                            notes=() if reused else tuple(loaded.notes))
