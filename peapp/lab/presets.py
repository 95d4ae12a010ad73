"""Lab presets: published comparisons re-run at a size this machine affords.

``ranking`` — Kazemnejad et al. 2023 ("The Impact of Positional Encoding on Length Generalization
in Transformers", NeurIPS 2023): decoder-only models (~107 M parameters there) trained on short
instances of synthetic tasks and tested on longer ones; averaged over their tasks NoPE ranks best,
ahead of T5's relative bias, ALiBi, RoPE and absolute positions.  Here: the four of their tasks the
lab has (copy, reverse, addition, sort), the lab's 2-layer, 64-wide decoder, one seed, trained on
lengths ≤ 8 and tested up to 16.  ``--randomized`` adds Ruoss et al. 2023's randomised positions
("Randomized Positional Encodings Boost Length Generalization of Transformers", ACL 2023: +12.0 %
average test accuracy on unseen lengths over 15 tasks) to every encoding.

``temperature`` — NoPE beside NoPE with Llama 4's attention temperature and with Scalable-Softmax's
log-n scaling, on copy and reverse, measured past the training length.

The score of an encoding on a task is its mean exact match over the evaluation lengths past the
training length; encodings are ranked per task (ties share the mean rank) and the ranks averaged
over the tasks, as Kazemnejad et al. summarise theirs.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from peapp.errors import ParameterError
from peapp.i18n import msg, translate
from peapp.lab.options import LABELS, RANDOMIZED, TrainSettings

KAZEMNEJAD_2023: dict[str, Any] = {
    "citation": "Kazemnejad, Padhi, Natesan Ramamurthy, Das & Reddy (2023). The Impact of Positional Encoding on "
                "Length Generalization in Transformers. NeurIPS 2023.",
    "setting": msg("LabPresets", "decoder-only, about 100 M parameters, synthetic tasks (copy, reverse, addition, "
                                 "sorting, …) trained on short instances and tested on longer ones"),
    # their summary figure: NoPE ranks best on average; T5 next; ALiBi; then RoPE and absolute
    "ranking": ["nope", "t5", "alibi", "rope", "learned"],
    "finding": msg("LabPresets", "NoPE ranks best on average over the tasks, ahead of T5's relative bias, ALiBi, RoPE "
                                 "and absolute positions."),
}
RUOSS_2023: dict[str, Any] = {
    "citation": "Ruoss, Delétang, Genewein, Grau-Moya, Csordás, Bennani, Legg & Veness (2023). Randomized Positional "
                "Encodings Boost Length Generalization of Transformers. ACL 2023.",
    "setting": msg("LabPresets", "encoder models on 15 algorithmic tasks, trained on lengths ≤ 40, tested on 41 … 500"),
    "gain_percent": 12.0,
    "finding": msg("LabPresets", "randomised positions raise test accuracy on unseen lengths by 12.0 % on average over "
                                 "15 tasks."),
}


@dataclass(frozen=True)
class Preset:
    name: str
    label: str
    tasks: tuple[str, ...]
    encodings: tuple[str, ...]
    train_length: int
    eval_lengths: tuple[int, ...]
    seeds: int = 1
    train: TrainSettings = field(default_factory=TrainSettings)
    nope_steps: int | None = None

    def with_randomized(self) -> Preset:
        return replace(self, encodings=self.encodings + tuple(e + RANDOMIZED for e in self.encodings))

    def grids(self) -> list[Any]:
        from peapp.lab.grid import GridSpec

        return [GridSpec(task=task, encodings=self.encodings, rope_scalings=(), train_length=self.train_length,
                         eval_lengths=self.eval_lengths, seeds=self.seeds, train=self.train,
                         nope_steps=self.nope_steps) for task in self.tasks]


PRESETS = {
    "ranking": Preset("ranking", msg("LabPresets", "Length generalisation ranking (Kazemnejad et al. 2023)"),
                      tasks=("copy", "reverse", "addition", "sort"),
                      encodings=("learned", "t5", "alibi", "rope", "nope"), train_length=8,
                      eval_lengths=(4, 8, 10, 12, 16), train=TrainSettings(steps=1000, eval_samples=256),
                      nope_steps=2000),
    "temperature": Preset("temperature", msg("LabPresets", "NoPE with a temperature (Llama 4, log-n)"),
                          tasks=("copy", "reverse"), encodings=("nope", "nope-temp", "nope-logn"), train_length=8,
                          eval_lengths=(4, 8, 10, 12, 16), train=TrainSettings(steps=1000, eval_samples=256), nope_steps=2000),
}


def preset(name: str, randomized: bool = False) -> Preset:
    if name not in PRESETS:
        raise ParameterError(translate("LabPresets", "unknown preset {name}; choose from {allowed}.").format(
            name=repr(name), allowed=", ".join(PRESETS)))
    chosen = PRESETS[name]
    return chosen.with_randomized() if randomized else chosen


def estimate_seconds(chosen: Preset, workers: int = 2) -> float:
    """The grids' estimates, their steps timed on one thread as the workers run them (two threads
    timed 6× slower on this loaded 2-core machine than the single-thread workers then ran)."""
    import torch

    from peapp.lab import grid

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        return sum(grid.estimate_seconds(g, workers=workers) for g in chosen.grids())
    finally:
        torch.set_num_threads(threads)


def run_preset(chosen: Preset, folder: str, workers: int = 2,
               on_event: Callable[[dict], None] | None = None, ray: str | None = None) -> dict[str, dict[str, Any]]:
    """:func:`preset_steps` run to its end on this thread (the CLI); ``on_event`` gets its events."""
    from peapp.jobs import run_job

    return run_job(preset_steps(chosen, folder, workers, ray=ray), on_partial=on_event)


def preset_steps(chosen: Preset, folder: str, workers: int = 2, ray: str | None = None):
    """A job (peapp.jobs): every task's grid into ``folder/<task>``, one after another, with
    each grid's events and progress (the share of the whole preset: every task's grid counts
    the same, as their runs do); returns the summaries by task.  Closed when cancelled, it
    stops the running grid at its next step (finished runs are kept; a rerun skips them).  ``ray``: each grid on Ray (see
    :func:`peapp.lab.grid.grid_steps`)."""
    import json
    import os

    from peapp.lab.grid import grid_steps

    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, PRESET_FILE), "w", encoding="utf-8") as f:  # which preset: the panel reads it
        json.dump({"preset": chosen.name, "tasks": list(chosen.tasks), "encodings": list(chosen.encodings)}, f)
    out = {}
    grids = chosen.grids()
    for i, g in enumerate(grids):
        outcome = yield from _share(grid_steps(g, os.path.join(folder, g.task), workers=workers, ray=ray), i, len(grids))
        out[g.task] = outcome.summary
    return out


def _share(job, index: int, count: int):
    """``job`` with its progress mapped to its share ``index`` of ``count``: a panel's bar and
    time left run once over the preset, not once per task.  Whatever the executor sends (its
    hooks) goes through; closing this closes ``job``."""
    from peapp.jobs import Progress

    try:
        item = next(job)
        while True:
            if isinstance(item, Progress):
                item = Progress((index + item.fraction) / count)
            elif isinstance(item, (int, float)) and not isinstance(item, bool):
                item = (index + float(item)) / count
            item = job.send((yield item))
    except StopIteration as stop:
        return stop.value
    finally:
        job.close()


# ---- the ranking ---------------------------------------------------------------------------------

PRESET_FILE = "preset.json"  # in a preset's folder: its name, tasks and encodings
LEARNED_AT = 0.5  # a task counts in the ranking when some encoding gets this exact match at the training length


def learned(summary: dict[str, Any]) -> bool:
    """Whether any encoding learned the task at all: exact match ≥ LEARNED_AT at the training length
    (a task nobody learned ranks nothing: every encoding ties at zero past it)."""
    train = summary.get("train_length") or 0
    return any(row["length"] == train and row.get("values") and row["mean"] >= LEARNED_AT
               for row in summary.get("rows", []))


def scores(summary: dict[str, Any]) -> dict[str, float]:
    """Mean exact match over the evaluation lengths past the training length, per variant."""
    train = summary.get("train_length") or 0
    by_variant: dict[str, list[float]] = {}
    for row in summary.get("rows", []):
        if row["length"] > train:
            by_variant.setdefault(row["variant"], []).append(row["mean"] if row.get("values") else 0.0)
    return {v: statistics.fmean(values) for v, values in by_variant.items() if values}


def _ranks(values: dict[str, float]) -> dict[str, float]:
    """Rank 1 = best; tied scores share their mean rank."""
    ordered = sorted(values, key=lambda v: -values[v])
    ranks: dict[str, float] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and abs(values[ordered[j + 1]] - values[ordered[i]]) < 1e-9:
            j += 1
        for k in range(i, j + 1):
            ranks[ordered[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


@dataclass
class Ranking:
    tasks: list[str]
    scores: dict[str, dict[str, float]]  # task → variant → score
    mean_rank: dict[str, float]  # variant → mean rank over tasks (plain encodings only)
    mean_score: dict[str, float]  # variant → mean score over tasks
    randomized_gain: float | None  # mean over encodings and tasks of (score with +rand − without), in points
    not_learned: list[str] = field(default_factory=list)  # tasks left out: no encoding learned them

    def order(self) -> list[str]:
        return sorted(self.mean_rank, key=lambda v: (self.mean_rank[v], -self.mean_score[v]))

    def verdict(self) -> str:
        order = self.order()
        if not order and self.not_learned:
            return translate("LabPresets", "Nothing to rank: no encoding learned {tasks} at the training length (exact "
                                           "match below {share:.0%}); train longer.").format(
                tasks=", ".join(_task(t) for t in self.not_learned), share=LEARNED_AT)
        if not order:
            return translate("LabPresets", "Nothing finished to rank yet.")
        labels = " > ".join(_label(v) for v in order)
        paper = " > ".join(_label(v) for v in KAZEMNEJAD_2023["ranking"] if v in self.mean_rank)
        best = min(self.mean_rank.values())
        tied = [v for v, r in self.mean_rank.items() if r == best and v != "nope"]
        if "nope" not in self.mean_rank:
            text = translate("LabPresets", "Local ranking past the training length: {order}; NoPE was not run, so "
                                           "Kazemnejad et al.'s finding ({paper}) is not tested.")
        elif self.mean_rank["nope"] == best and tied:
            text = translate("LabPresets", "Agrees only in part with Kazemnejad et al. 2023: NoPE shares the best mean "
                                           "rank with {tied} here (local order {order}; the paper's {paper}).").format(
                tied=", ".join(_label(v) for v in tied), order="{order}", paper="{paper}")
        elif self.mean_rank["nope"] == best:
            text = translate("LabPresets", "Agrees with Kazemnejad et al. 2023: NoPE ranks best on average here too "
                                           "(local order {order}; the paper's {paper}).")
        else:
            text = translate("LabPresets", "Does not agree with Kazemnejad et al. 2023: NoPE is not best on average "
                                           "here (local order {order}; the paper's {paper}).")
        text = text.format(order=labels, paper=paper)
        if self.not_learned:
            text += " " + translate("LabPresets", "Left out: {tasks}, which no encoding learned at the training length "
                                                  "(exact match below {share:.0%}).").format(
                tasks=", ".join(_task(t) for t in self.not_learned), share=LEARNED_AT)
        if self.randomized_gain is not None:
            text += " " + translate("LabPresets", "Randomised positions change the mean exact match past the training "
                                                  "length by {gain:+.1f} points here (Ruoss et al. 2023: +12.0 % over "
                                                  "15 tasks).").format(gain=self.randomized_gain)
        return text

    def to_json(self) -> dict[str, Any]:
        return {"tasks": self.tasks, "not_learned": self.not_learned, "scores": self.scores, "mean_rank": self.mean_rank,
                "mean_score": self.mean_score, "order": self.order(), "randomized_gain_points": self.randomized_gain,
                "verdict": self.verdict(), "score": "mean exact match over evaluation lengths past the training length",
                "references": {"kazemnejad2023": _plain(KAZEMNEJAD_2023), "ruoss2023": _plain(RUOSS_2023)}}


def _plain(ref: dict[str, Any]) -> dict[str, Any]:
    from peapp.i18n import shown

    return {k: shown(v) if not isinstance(v, (list, float, int)) else v for k, v in ref.items()}


# the tasks as the verdict names them, in the language shown
TASK_NAMES = {"copy": msg("LabPresets", "copy"), "reverse": msg("LabPresets", "reverse"),
              "addition": msg("LabPresets", "addition"), "sort": msg("LabPresets", "sort")}


def _task(task: str) -> str:
    from peapp.i18n import shown

    return shown(TASK_NAMES[task]) if task in TASK_NAMES else task


def _label(variant: str) -> str:
    from peapp.i18n import shown

    return shown(LABELS.get(variant, variant))


def rank(summaries: dict[str, dict[str, Any]]) -> Ranking:
    """The ranking of the plain encodings over the tasks, and the randomised positions' gain."""
    not_learned = [task for task, summary in summaries.items() if not learned(summary)]
    per_task = {task: scores(summary) for task, summary in summaries.items() if task not in not_learned}
    plain: dict[str, list[float]] = {}
    totals: dict[str, list[float]] = {}
    gains: list[float] = []
    for values in per_task.values():
        base = {v: s for v, s in values.items() if not v.endswith(RANDOMIZED)}
        for v, r in _ranks(base).items():
            plain.setdefault(v, []).append(r)
        for v, s in values.items():
            totals.setdefault(v, []).append(s)
            if v.endswith(RANDOMIZED) and v[:-len(RANDOMIZED)] in values:
                gains.append(100 * (s - values[v[:-len(RANDOMIZED)]]))
    return Ranking(tasks=list(per_task), scores=per_task,
                   mean_rank={v: statistics.fmean(r) for v, r in plain.items()},
                   mean_score={v: statistics.fmean(s) for v, s in totals.items()},
                   randomized_gain=statistics.fmean(gains) if gains else None, not_learned=not_learned)


#: the temperature preset's references: where each scale comes from (its verdict is its own, not
#: Kazemnejad et al.'s ranking, which compares encodings, not NoPE with and without a scale)
TEMPERATURE_REFERENCES = (
    "Meta (2025). Llama 4 (transformers' Llama4TextAttention: attn_temperature_tuning, attn_scale, floor_scale).",
    "Nakanishi (2025). Scalable-Softmax Is Superior for Attention. arXiv:2501.19399.")
TEMPERATURE_HELPS_AT = 1.0  # points of exact match: a smaller change is not called help


def temperature_verdict(summaries: dict[str, dict[str, Any]]) -> str:
    """Whether a temperature helps NoPE past the training length: NoPE's mean exact match past it
    beside NoPE + Llama 4 temperature and NoPE + log-n, over every task where all three ran."""
    per_task = {task: scores(summary) for task, summary in summaries.items()}
    tasks = [t for t, values in per_task.items() if {"nope", "nope-temp", "nope-logn"} <= set(values)]
    if not tasks:
        return translate("LabPresets", "Nothing to compare yet: NoPE, NoPE + Llama 4 temperature and NoPE + log-n "
                                       "have not all finished a task.")
    mean = {v: statistics.fmean(per_task[t][v] for t in tasks) for v in ("nope", "nope-temp", "nope-logn")}
    # in points, to the tenth said (+ 0.0: no "−0.0" for a difference of rounding noise)
    gain = {v: round(100 * (mean[v] - mean["nope"]), 1) + 0.0 for v in ("nope-temp", "nope-logn")}
    text = translate("LabPresets", "Past the training length, mean exact match over {tasks}: NoPE {nope:.2f}, with "
                                   "Llama 4's temperature {temp:.2f} ({temp_gain:+.1f} points), with log-n {logn:.2f} "
                                   "({logn_gain:+.1f} points).").format(
        tasks=", ".join(_task(t) for t in tasks), nope=mean["nope"], temp=mean["nope-temp"],
        temp_gain=gain["nope-temp"], logn=mean["nope-logn"], logn_gain=gain["nope-logn"])
    best = max(gain, key=lambda v: gain[v])
    if gain[best] >= TEMPERATURE_HELPS_AT:
        text += " " + translate("LabPresets", "{best} helps NoPE past the training length here.").format(
            best=_label(best))
    else:
        text += " " + translate("LabPresets", "Neither scale helps NoPE past the training length here by a point or "
                                              "more.")
    if max(mean.values()) < 0.05:
        text += " " + translate("LabPresets", "All three are near zero past the training length: at this size none "
                                              "generalises by length, so the comparison says little.")
    return text


def preset_verdict(name: str, summaries: dict[str, dict[str, Any]]) -> str:
    """The sentence a preset's results end with: the ranking's, or the temperature's."""
    return temperature_verdict(summaries) if name == "temperature" else rank(summaries).verdict()


def format_preset(name: str, summaries: dict[str, dict[str, Any]]) -> str:
    """A preset's scores past the training length by task, its verdict and references."""
    ranking = rank(summaries)
    if name != "temperature":
        return format_ranking(ranking)
    per_task = {task: scores(summary) for task, summary in summaries.items()}  # every task, learned or not
    variants = list(dict.fromkeys(v for values in per_task.values() for v in values))
    lines = ["exact match past the training length (mean over those lengths), by task:",
             "encoding".ljust(44) + "".join(t.rjust(10) for t in per_task)]
    for v in variants:
        lines.append(_label(v).ljust(44) + "".join(
            (f"{per_task[t][v]:.2f}" if v in per_task[t] else "—").rjust(10) for t in per_task))
    lines += ["", temperature_verdict(summaries)] + ["reference: " + ref for ref in TEMPERATURE_REFERENCES]
    return "\n".join(lines) + "\n"


def format_ranking(ranking: Ranking, variants: Sequence[str] | None = None) -> str:
    variants = list(variants or sorted(ranking.mean_score, key=lambda v: ranking.mean_rank.get(v, 99)))
    lines = ["exact match past the training length (mean over those lengths), by task:",
             "encoding".ljust(44) + "".join(t.rjust(10) for t in ranking.tasks) + "mean rank".rjust(11)]
    for v in variants:
        row = _label(v).ljust(44) + "".join(
            (f"{ranking.scores[t][v]:.2f}" if v in ranking.scores[t] else "—").rjust(10) for t in ranking.tasks)
        row += (f"{ranking.mean_rank[v]:.2f}" if v in ranking.mean_rank else "").rjust(11)
        lines.append(row)
    lines += ["", ranking.verdict(),
              "reference (another scale and setting): " + KAZEMNEJAD_2023["citation"],
              "reference (another scale and setting): " + RUOSS_2023["citation"]]
    return "\n".join(lines) + "\n"
