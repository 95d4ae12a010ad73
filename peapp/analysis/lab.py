"""The Training lab panel's computations: read a results folder into what the panel draws, and
train a grid (peapp.lab.grid) with progress and cancel.

Importing this module needs no torch (the panel exists before torch loads); reading a folder
(peapp.lab.results) and training (peapp.lab.grid) import it on the worker.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from peapp import safe_open
from peapp.errors import DataFileError, PeappError
from peapp.jobs import Job, Request
from peapp.lab import references
from peapp.lab.options import LABELS

GRID, METRICS = "grid.json", "metrics.json"  # the names peapp.lab.results writes


@dataclass(frozen=True)
class GridSettings:
    """What the panel asks peapp.lab.grid to train (plain values; GridSpec is built on the worker)."""

    task: str
    encodings: tuple[str, ...]
    rope_scalings: tuple[str, ...]
    train_length: int
    eval_lengths: tuple[int, ...]
    seeds: int
    n_layers: int
    d_model: int
    n_heads: int
    steps: int
    cluster: str = ""  # "": local processes; "local": a local Ray; else a Ray cluster's address

    def grid_spec(self) -> Any:
        from peapp.lab import grid as lab_grid
        from peapp.lab.options import TrainSettings

        return lab_grid.GridSpec(task=self.task, encodings=self.encodings, rope_scalings=self.rope_scalings,
                                 train_length=self.train_length, eval_lengths=self.eval_lengths, seeds=self.seeds,
                                 n_layers=self.n_layers, d_model=self.d_model, n_heads=self.n_heads,
                                 train=TrainSettings(steps=self.steps))


@dataclass
class LabCurve:
    """One variant's measured value per evaluation length over the seeds that finished."""

    variant: str
    label: str
    lengths: np.ndarray
    mean: np.ndarray  # NaN where no seed could run ("cannot")
    low: np.ndarray
    high: np.ndarray
    seeds: int
    cannot: list[int]  # lengths where the scheme has no position (learned past its table)
    reason: str = ""


@dataclass
class LabResults:
    folder: str
    metric: str | None  # "exact_match" | "perplexity" | None (no finished run)
    task: str | None
    train_length: int | None
    curves: list[LabCurve]
    loss_curves: dict[str, tuple[str, int, np.ndarray]]  # run_id → (encoding, seed, [[step, loss], …])
    table: list[list[str]]  # header row first: encoding, one column per length
    runs: int
    grid: dict[str, Any] | None
    references: list[dict[str, Any]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return self.runs == 0


def _read_json(path: Path, what: str) -> Any:
    return safe_open.load_json(safe_open.read_bytes(path, "config", DataFileError), what, DataFileError)


def finished_metrics(folder: Path) -> tuple[list[dict[str, Any]], list[str]]:
    """Every run under ``folder`` with a readable metrics.json (a damaged one is named, not trusted)."""
    runs, notes = [], []
    for metrics_file in sorted(folder.glob(f"*/{METRICS}")):
        try:
            data = _read_json(metrics_file, str(metrics_file))
            from peapp.lab.results import metrics_problem

            problem = metrics_problem(data)
            if problem:
                raise DataFileError(f"{metrics_file}: {problem}")
        except PeappError as exc:
            notes.append(f"skipped {metrics_file.parent.name}: {exc}")
            continue
        runs.append(data)
    return runs, notes


def load_results(folder: str | os.PathLike) -> LabResults:
    """What the panel draws for ``folder``: curves with seed bands, loss curves, the table."""
    from peapp.lab import results

    path = Path(folder)
    grid = None
    notes: list[str] = []
    if (path / GRID).is_file():
        try:
            grid = _read_json(path / GRID, str(path / GRID))
        except PeappError as exc:
            notes.append(str(exc))
    runs, skipped = finished_metrics(path) if path.is_dir() else ([], [])
    notes += skipped
    if grid is not None and runs:  # the grid's own runs: a folder re-used with other settings keeps old runs
        wanted = _grid_run_specs(grid)
        if wanted is not None:
            mine = [r for r in runs if r.get("run_id") in wanted and wanted[r["run_id"]] == r.get("spec")]
            if len(mine) < len(runs):
                notes.append(f"{len(runs) - len(mine)} run(s) in the folder belong to other settings and are "
                             f"not drawn")
            runs = mine
    summary = results.summarise(runs)
    curves = _curves(summary)
    metric = summary["metric"]
    return LabResults(folder=str(path), metric=metric, task=summary["task"], train_length=summary["train_length"],
                      curves=curves, loss_curves=_loss_curves(runs), table=_table(summary), runs=len(runs), grid=grid,
                      references=references.for_metric(metric) if metric else [], notes=notes)


def _grid_run_specs(grid: dict[str, Any]) -> dict[str, Any] | None:
    from peapp.lab import grid as lab_grid
    from peapp.lab.options import TrainSettings

    try:
        values = dict(grid)
        values["train"] = TrainSettings(**values["train"])
        for key in ("encodings", "rope_scalings", "eval_lengths"):
            values[key] = tuple(values[key])
        spec = lab_grid.GridSpec(**values)
    except (TypeError, KeyError, ValueError, PeappError):
        return None  # an older or foreign grid.json: draw every run
    return {run.run_id: run.to_dict() for run in spec.runs()}


def _curves(summary: dict[str, Any]) -> list[LabCurve]:
    by_variant: dict[str, list[dict[str, Any]]] = {}
    for row in summary["rows"]:
        by_variant.setdefault(row["variant"], []).append(row)
    out = []
    for variant, rows in by_variant.items():
        rows.sort(key=lambda r: r["length"])
        nan = math.nan
        out.append(LabCurve(
            variant=variant, label=LABELS.get(variant, variant),
            lengths=np.array([r["length"] for r in rows], dtype=float),
            mean=np.array([r.get("mean", nan) for r in rows], dtype=float),
            low=np.array([r.get("min", nan) for r in rows], dtype=float),
            high=np.array([r.get("max", nan) for r in rows], dtype=float),
            seeds=max((len(r["values"]) + r["cannot"] for r in rows), default=0),
            cannot=[r["length"] for r in rows if r["cannot"] and not r["values"]],
            reason=next((r.get("reason", "") for r in rows if r.get("reason")), "")))
    return out


def _loss_curves(runs: list[dict[str, Any]]) -> dict[str, tuple[str, int, np.ndarray]]:
    out = {}
    for run in runs:
        curve = np.asarray(run.get("loss_curve") or np.zeros((0, 2)), dtype=float).reshape(-1, 2)
        out[run["run_id"]] = (run["spec"].get("encoding", "?"), int(run["spec"].get("seed", 0)), curve)
    return out


def _table(summary: dict[str, Any]) -> list[list[str]]:
    from peapp.lab import results

    rows = summary["rows"]
    lengths = sorted({r["length"] for r in rows})
    header = ["encoding"] + [f"length {n}" for n in lengths]
    by_key = {(r["variant"], r["length"]): r for r in rows}
    variants = list(dict.fromkeys(r["variant"] for r in rows))
    return [header] + [[LABELS.get(v, v)] + [results.cell_text(by_key.get((v, n)), summary["metric"]) for n in lengths]
                       for v in variants]


@dataclass(frozen=True)
class LabResultsRequest(Request):
    channel = "lab"
    folder: str

    def compute(self, progress: Callable[[float], None]) -> LabResults | PresetOutcome | None:
        """None when the folder holds no finished run: nothing to draw or export; a preset's
        folder (a grid per task below it) gives its tasks' summaries to rank."""
        result = load_results(self.folder)
        if result.empty:
            return load_preset(self.folder)
        return result


# ---- training -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class EstimateRequest(Request):
    """Seconds the grid would take here and now (a few timed training steps per encoding)."""

    channel = "lab:estimate"
    settings: GridSettings
    workers: int = 2

    def compute(self, progress: Callable[[float], None]) -> float:
        from peapp.lab import grid as lab_grid

        return lab_grid.estimate_seconds(self.settings.grid_spec(), workers=self.workers)


@dataclass
class TrainOutcome:
    folder: str
    finished: int
    skipped: int
    failed: list[tuple[str, str]]
    write_error: str | None
    seconds: float


@dataclass(frozen=True)
class TrainRequest(Request):
    """Train the grid into ``folder``: a job yielding peapp.lab.grid's events as partial results
    and the share of all training steps done; cancelled, it keeps the runs that finished."""

    channel = "lab:train"
    travels = False  # a training run: computed where it is asked (peapp.request_process)
    settings: GridSettings
    folder: str
    workers: int = 2

    def steps(self) -> Job:
        from peapp.lab import grid as lab_grid

        started = time.monotonic()
        outcome = yield from lab_grid.grid_steps(self.settings.grid_spec(), self.folder, workers=self.workers,
                                                 mode="pool", ray=self.settings.cluster or None)
        return TrainOutcome(folder=self.folder, finished=len(outcome.finished), skipped=len(outcome.skipped),
                            failed=outcome.failed, write_error=outcome.write_error,
                            seconds=time.monotonic() - started)


# ---- a preset: a published comparison, a grid per task (peapp.lab.presets) ----------------------

@dataclass(frozen=True)
class PresetEstimateRequest(Request):
    """Seconds the preset would take here and now (its grids' estimates, as ``peapp lab --preset``)."""

    channel = "lab:estimate"
    name: str
    randomized: bool = False
    workers: int = 2

    def compute(self, progress: Callable[[float], None]) -> float:
        from peapp.lab import presets

        return presets.estimate_seconds(presets.preset(self.name, self.randomized), workers=self.workers)


@dataclass
class PresetOutcome:
    folder: str
    name: str
    summaries: dict[str, dict[str, Any]]  # task → peapp.lab.results summary (ranked by peapp.lab.presets.rank)
    seconds: float
    # "task/run_id" → (encoding, seed, [[step, loss], …]): every finished run's saved loss curve
    loss_curves: dict[str, tuple[str, int, np.ndarray]] = field(default_factory=dict)


@dataclass(frozen=True)
class PresetRequest(Request):
    """Train a preset into ``folder/<task>``: the preset's job (events as partial results, the
    share of the whole preset as progress); cancelled, it keeps the runs that finished."""

    channel = "lab:train"
    travels = False  # a training run: computed where it is asked
    name: str
    randomized: bool
    folder: str
    workers: int = 2
    cluster: str = ""  # as TrainRequest's: "" local processes, "local" or an address: Ray

    def runs(self) -> int:
        from peapp.lab import presets

        return sum(len(g.runs()) for g in presets.preset(self.name, self.randomized).grids())

    def steps(self) -> Job:
        from peapp.lab import presets

        started = time.monotonic()
        summaries = yield from presets.preset_steps(presets.preset(self.name, self.randomized), self.folder,
                                                    workers=self.workers, ray=self.cluster or None)
        finished = load_preset(self.folder)  # the loss curves the runs saved, for the panel's loss plot
        return PresetOutcome(folder=self.folder, name=self.name, summaries=summaries,
                             seconds=time.monotonic() - started,
                             loss_curves=finished.loss_curves if finished is not None else {})


def load_preset(folder: str | os.PathLike) -> PresetOutcome | None:
    """A preset's folder (``peapp lab --preset``, or the panel's Run preset): each of the preset's
    tasks' finished runs summarised, to rank; None when no task subfolder holds a finished run.
    Which preset is read from its ``preset.json`` (a folder from before it was written: ranking)."""
    from peapp.lab import presets, results

    path = Path(folder)
    if not path.is_dir():
        return None
    name = "ranking"
    if (path / presets.PRESET_FILE).is_file():
        try:
            doc = _read_json(path / presets.PRESET_FILE, str(path / presets.PRESET_FILE))
        except PeappError:
            doc = None
        if isinstance(doc, dict) and doc.get("preset") in presets.PRESETS:
            name = doc["preset"]
    summaries, losses = {}, {}
    for task in presets.PRESETS[name].tasks:
        runs, _skipped = finished_metrics(path / task) if (path / task).is_dir() else ([], [])
        if runs:
            summaries[task] = results.summarise(runs)
            losses.update({f"{task}/{run_id}": curve for run_id, curve in _loss_curves(runs).items()})
    return (PresetOutcome(folder=str(path), name=name, summaries=summaries, seconds=math.nan, loss_curves=losses)
            if summaries else None)
