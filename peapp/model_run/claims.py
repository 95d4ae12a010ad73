"""The Measured claims panel's computation: four claims of the article, each beside what was measured.

* ``claims-temperature`` — Llama 4's NoPE query scale (and Scalable-Softmax's s·log n) by position,
  with the positions where it steps, and a NoPE layer's attention entropy by query position with
  and without it: the opened Llama 4 checkpoint's own q and k, or seeded random ones;
* ``claims-cost`` — a saved ``peapp cost --json``: peak memory of a full forward and time per
  generated token by length, per scheme, with the article's claim and the verdict;
* ``claims-sinks`` — a saved ``peapp probe streaming --json``: perplexity per window of positions
  for full context, a KV window and the window + sinks, with Xiao et al. 2024 as reference;
* ``claims-ranking`` — a ``peapp lab --preset ranking`` folder: exact match past the training
  length per task and encoding, the local mean rank beside Kazemnejad et al. 2023's order.

Each result is a list of plots (curves, marks, ticks) and caption lines, drawn by one dock.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from peapp.errors import ParameterError
from peapp.i18n import msg, shown, translate
from peapp.jobs import ProgressFn, Request

MODES = {"claims-temperature": msg("Claims", "NoPE temperature"), "claims-cost": msg("Claims", "Cost of positions"),
         "claims-sinks": msg("Claims", "Attention sinks"), "claims-ranking": msg("Claims", "NoPE ranking")}
CAPTIONS = {
    "claims-temperature": msg("Claims", "NoPE with temperature tuning: Llama 4's query scale by position and what it "
                                        "does to a NoPE layer's attention entropy"),
    "claims-cost": msg("Claims", "The memory and time each position scheme costs, measured, beside the article's "
                                 "claim about relative encodings"),
    "claims-sinks": msg("Claims", "Attention sinks: perplexity with a sliding KV window, with and without the first "
                                  "tokens kept (StreamingLLM)"),
    "claims-ranking": msg("Claims", "Which encodings generalise by length: the lab's ranking beside Kazemnejad et al. "
                                    "2023's"),
}


@dataclass
class Curve:
    label: str
    x: np.ndarray
    y: np.ndarray
    style: str = "solid"  # "solid" | "dashed" | "dotted" | "points"
    color: str = ""  # curves with the same key share a colour (default: one per curve)


@dataclass
class Plot:
    title: str
    xlabel: str
    ylabel: str
    curves: list[Curve] = field(default_factory=list)
    marks: list[float] = field(default_factory=list)  # vertical lines
    log_x: bool = False
    log_y: bool = False
    xticks: list[tuple[float, str]] = field(default_factory=list)


@dataclass
class ClaimsResult:
    mode: str
    plots: list[Plot]
    lines: list[str]  # the caption: what was measured, the claim, the verdict


@dataclass(frozen=True)
class ClaimsRequest(Request):
    mode: str = "claims-temperature"
    length: int = 4096
    attn_scale: float = 0.1
    floor_scale: float = 512.0
    logn_s: float = 0.15
    checkpoint: str | None = None
    cost_file: str = ""
    sinks_file: str = ""
    ranking_folder: str = ""

    def compute(self, progress: ProgressFn) -> ClaimsResult:
        if self.mode not in MODES:
            raise ParameterError(translate("Claims", "unknown mode {mode}.").format(mode=repr(self.mode)))
        return {"claims-temperature": self._temperature, "claims-cost": self._cost, "claims-sinks": self._sinks,
                "claims-ranking": self._ranking}[self.mode](progress)

    # ---- temperature ----------------------------------------------------------------------------------
    def _temperature(self, progress: ProgressFn) -> ClaimsResult:
        from dataclasses import replace

        from peapp.analysis.temperature import FORMULA, read_config, scale_curve, seeded_entropy

        lines = []
        entropy = None
        from peapp.model_run.temperature import has_nope_layers

        if self.checkpoint and has_nope_layers(self.checkpoint):
            from peapp.model_run.temperature import nope_entropy, token_ids

            entropy = nope_entropy(self.checkpoint, token_ids(self.checkpoint, min(self.length, 2048)))
            settings = entropy.settings
        else:
            # the panel's own attn_scale and floor_scale, so the caption must not name Llama 4's defaults
            settings = replace(read_config({}), attn_scale=self.attn_scale, floor_scale=self.floor_scale,
                               source=translate("Claims", "the attn_scale and floor_scale set here"))
            n = min(self.length, 2048)  # n² logits per head: a second or two
            entropy = seeded_entropy(n, settings, heads=4, head_dim=32)
            if self.checkpoint:
                lines.append(translate("Claims", "The open checkpoint has no NoPE layers (Llama 4, SmolLM3 and Command "
                                                 "R7B have): seeded random q and k are shown."))
        progress(0.8)
        curve = scale_curve(max(self.length, entropy.n_tokens), settings.attn_scale, settings.floor_scale, self.logn_s)
        steps = [float(s) for s in curve.steps[:64]]
        scale_plot = Plot(translate("Claims", "Query scale by position"), translate("Claims", "position"),
                          translate("Claims", "multiplier"), marks=steps,
                          curves=[Curve(translate("Claims", "Llama 4 (attn_scale {a:g}, floor_scale {f:g})").format(
                                      a=settings.attn_scale, f=settings.floor_scale), curve.positions, curve.llama4),
                                  Curve(translate("Claims", "log-n, s = {s:g}").format(s=self.logn_s), curve.positions,
                                        curve.logn, "dashed")])
        p = np.arange(entropy.n_tokens, dtype=np.float64)
        title = (translate("Claims", "NoPE layer {layer}: attention entropy ({source})").format(
                     layer=entropy.layer, source=entropy.source) if entropy.layer >= 0 else  # seeded: no layer
                 translate("Claims", "NoPE attention entropy ({source})").format(source=entropy.source))
        entropy_plot = Plot(title,
                            translate("Claims", "query position"), translate("Claims", "entropy (nats)"),
                            marks=[s for s in steps if s < entropy.n_tokens],
                            curves=[Curve(translate("Claims", "without the scale"), p, entropy.without_scale),
                                    Curve(translate("Claims", "with the scale"), p, entropy.with_scale),
                                    Curve(translate("Claims", "uniform over the keys, ln(p + 1)"), p, np.log(p + 1),
                                          "dotted")])
        lines += [FORMULA + translate("Claims", "; steps at every multiple of floor_scale (dotted lines), parameters "
                                                "from {source}.").format(source=settings.source),
                  entropy.summary()] + entropy.notes
        return ClaimsResult(self.mode, [scale_plot, entropy_plot], lines)

    # ---- cost -------------------------------------------------------------------------------------------
    def _cost(self, progress: ProgressFn) -> ClaimsResult:
        from peapp.analysis.cost import CLAIM, SCHEME_LABELS, SCHEMES

        if not self.cost_file:
            raise ParameterError(translate("Claims", "no cost measurement yet: press Measure here (a minute or two), "
                                                     "or run `peapp cost --json > cost.json` and give that file."))
        doc = _read_json(self.cost_file)
        if not isinstance(doc, dict) or doc.get("measure") != "cost" or not isinstance(doc.get("cases"), list):
            raise ParameterError(translate("Claims", "{path} is not a saved cost measurement (peapp cost --json).").format(
                path=self.cost_file))
        memory = Plot(translate("Claims", "Peak memory of a full forward (lab model)"), translate("Claims", "tokens"),
                      translate("Claims", "MiB"), log_x=True, log_y=True)
        step = Plot(translate("Claims", "Time per generated token with a KV cache (lab model)"),
                    translate("Claims", "tokens in the cache"), translate("Claims", "ms"), log_x=True, log_y=True)
        for scheme in SCHEMES:
            name = shown(SCHEME_LABELS[scheme])  # "learned absolute", "T5 bias" in the language shown, not the key
            for plot, kind, key, unit in ((memory, "forward", "peak_bytes", 2 ** 20), (step, "decode", "seconds", 1e-3)):
                rows = [c for c in doc["cases"] if isinstance(c, dict) and c.get("model") == "lab"
                        and c.get("scheme") == scheme and c.get("kind") == kind]
                got = sorted((c["length"], c[key]) for c in rows if c.get("run") and _positive(c.get(key))
                             and _positive(c.get("length")))
                if got:
                    x, y = np.array(got, dtype=np.float64).T
                    plot.curves.append(Curve(name, x, y / unit, color=scheme))
                if kind == "forward":
                    need = sorted((c["length"], c["predicted_bytes"]) for c in rows if not c.get("run")
                                  and _positive(c.get("predicted_bytes")) and _positive(c.get("length")))
                    if need:
                        x, y = np.array(need, dtype=np.float64).T
                        plot.curves.append(Curve(translate("Claims", "{scheme} (predicted, not run)").format(
                            scheme=name), x, y / unit, "points", color=scheme))
        return ClaimsResult(self.mode, [memory, step],
                            [translate("Claims", "Claim: {claim}").format(claim=shown(CLAIM)),
                             translate("Claims", "Measured: {verdict}").format(verdict=_cost_verdict(doc))])

    # ---- sinks ------------------------------------------------------------------------------------------
    def _sinks(self, progress: ProgressFn) -> ClaimsResult:
        from peapp.model_run.streaming import REFERENCE, streaming_from_json

        if not self.sinks_file:
            raise ParameterError(translate("Claims", "choose a saved streaming probe: run `peapp probe streaming MODEL "
                                                     "--json > sinks.json` and give that file, or run the experiment "
                                                     "on the opened model in Probes > Attention sinks (streaming)."))
        result = streaming_from_json(_read_json(self.sinks_file))
        plot = Plot(translate("Claims", "Perplexity per {bin} positions: KV window {w}, {k} sinks").format(
                        bin=result.bin, w=result.window, k=result.sinks), translate("Claims", "position"),
                    translate("Claims", "perplexity"), log_y=True, marks=[float(result.window)])
        labels = {"full": translate("Claims", "full context"), "window": translate("Claims", "window only"),
                  "window+sinks": translate("Claims", "window + first tokens (sinks)")}
        for curve in result.curves:
            starts, stops, ppl = curve.windowed(result.bin)
            plot.curves.append(Curve(labels[curve.variant], (starts + stops) / 2.0, ppl))
        ref = REFERENCE
        return ClaimsResult(self.mode, [plot], [
            result.verdict(),
            translate("Claims", "Positions inside the cache as StreamingLLM assigns them (sinks 0…K−1, window after "
                                "them). Reference, drawn as the paper's (another model and text): {citation}: "
                                "perplexity {full} full, {window} window, {sinks} with 4 sinks.").format(
                citation=ref["citation"], full=ref["perplexity"]["full"], window=ref["perplexity"]["window"],
                sinks=ref["perplexity"]["window+sinks"])])

    # ---- ranking ----------------------------------------------------------------------------------------
    def _ranking(self, progress: ProgressFn) -> ClaimsResult:
        from peapp.lab import results as lab_results
        from peapp.lab.options import LABELS, RANDOMIZED, base_encoding
        from peapp.lab.presets import KAZEMNEJAD_2023, RUOSS_2023, TASK_NAMES, rank

        folder = self.ranking_folder
        if not folder or not os.path.isdir(folder):
            raise ParameterError(translate("Claims", "choose the folder of a ranking run: `peapp lab --preset ranking "
                                                     "-o FOLDER` (a task per subfolder)."))
        summaries = {}
        for task in ("copy", "reverse", "addition", "sort"):
            sub = os.path.join(folder, task)
            if os.path.isdir(sub):
                runs = lab_results.finished_runs(sub)
                if runs:
                    summaries[task] = lab_results.summarise(runs)
        if not summaries:
            raise ParameterError(translate("Claims", "{folder} holds no finished ranking runs.").format(folder=folder))
        ranking = rank(summaries)
        variants = [v for v in ranking.order()] + [v for v in ranking.mean_score if v not in ranking.mean_rank]
        x = np.arange(len(variants), dtype=np.float64)
        short = {"learned": translate("Claims", "absolute"), "t5": "T5", "rope": "RoPE", "alibi": "ALiBi", "nope": "NoPE",
                 "sinusoidal": translate("Claims", "sinusoidal")}
        ticks = [(float(i), short.get(base_encoding(v), shown(LABELS.get(v, v)))
                  + ("\n+rand" if v.endswith(RANDOMIZED) else "")) for i, v in enumerate(variants)]  # two lines: ten fit
        scores = Plot(translate("Claims", "Exact match past the training length, per task"), translate("Claims", "encoding"),
                      translate("Claims", "exact match"), xticks=ticks)
        for task in ranking.tasks:
            y = np.array([ranking.scores[task].get(v, np.nan) for v in variants])
            scores.curves.append(Curve(shown(TASK_NAMES.get(task, task)), x, y, "points"))
        paper = KAZEMNEJAD_2023["ranking"]
        plain = [v for v in variants if v in ranking.mean_rank]  # ranked: the plain encodings, not +rand
        ranks = Plot(translate("Claims", "Mean rank over the tasks (1 = best)"), translate("Claims", "encoding"),
                     translate("Claims", "rank"),
                     xticks=[(float(i), ticks[variants.index(v)][1]) for i, v in enumerate(plain)])
        ranks.curves.append(Curve(translate("Claims", "here"), np.arange(len(plain), dtype=float),
                                  np.array([ranking.mean_rank[v] for v in plain])))
        in_paper = [v for v in plain if v in paper]
        ranks.curves.append(Curve(translate("Claims", "Kazemnejad et al. 2023 (the paper's)"),
                                  np.array([plain.index(v) for v in in_paper], float),
                                  np.array([paper.index(v) + 1.0 for v in in_paper]), "dotted"))
        return ClaimsResult(self.mode, [scores, ranks], [
            ranking.verdict(),
            translate("Claims", "The papers' results are drawn as the papers': another scale and setting ({setting}); "
                                "Ruoss et al. 2023: {ruoss}").format(setting=shown(KAZEMNEJAD_2023["setting"]),
                                                                    ruoss=shown(RUOSS_2023["finding"]))])


def _cost_verdict(doc: dict[str, Any]) -> str:
    """The verdict computed again from the saved cases (in the language shown now), each case
    checked field by field; a damaged file is one line."""
    from dataclasses import fields

    from peapp.analysis.cost import Case, CostResult

    names = {f.name for f in fields(Case)}
    cases = []
    try:
        for c in doc["cases"]:
            if not isinstance(c, dict) or set(c) != names:
                raise ValueError("a case has other fields")
            for key in ("length", "predicted_bytes"):
                if not _positive(c[key]):
                    raise ValueError(f"{key} is not a positive number")
            for key in ("seconds", "peak_bytes", "cache_bytes"):
                if c[key] is not None and not (_positive(c[key]) or c[key] == 0):
                    raise ValueError(f"{key} is not a number")
            cases.append(Case(**c))
    except (TypeError, ValueError, KeyError) as exc:
        raise ParameterError(translate("Claims", "the saved cost measurement is damaged ({what}); run peapp cost "
                                                 "again.").format(what=str(exc)[:80])) from None
    return CostResult(cases=cases).verdict()


def _positive(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value > 0


def _read_json(path: str) -> Any:
    from peapp.safe_open import load_json, read_text

    return load_json(read_text(path, "results", ParameterError), path, ParameterError)


@dataclass(frozen=True)
class MeasureCostRequest(Request):
    """``peapp cost``'s default measurement (:func:`peapp.analysis.cost.measure_cost` with the CLI's
    defaults), saved as ``cost-<time>.json`` in ``folder``; its result is that file's path, which the
    cost claim is then drawn from.  Cancelled between cases (each runs in a child process)."""

    folder: str = ""
    travels: ClassVar[bool] = False  # minutes of child processes: run where it was asked for

    def compute(self, progress: ProgressFn) -> str:
        import json
        import time

        from peapp.analysis.cost import DEFAULT_LENGTHS, DEFAULT_MAX_BYTES, MODELS, measure_cost

        if not self.folder:
            raise ParameterError(translate("Claims", "no folder to save the cost measurement in."))
        result = measure_cost(tuple(MODELS), lengths=DEFAULT_LENGTHS, max_bytes=DEFAULT_MAX_BYTES, progress=progress)
        os.makedirs(self.folder, exist_ok=True)
        path = os.path.join(self.folder, time.strftime("cost-%Y%m%d-%H%M%S.json"))
        partial = path + ".part"  # written whole, then renamed: a crash leaves no half file under the name
        with open(partial, "w", encoding="utf-8") as fh:
            json.dump(result.to_json(), fh, allow_nan=False)
        os.replace(partial, path)
        return path
