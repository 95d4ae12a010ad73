"""The results folder: one sub-folder per trained model, plus the grid's settings and summary.

::

    OUT/grid.json              the grid's settings
    OUT/results.json           the summary table (rewritten after every finished run)
    OUT/RUN_ID/config.json     Hugging Face-style config that says the position encoding
    OUT/RUN_ID/model.safetensors
    OUT/RUN_ID/metrics.json    loss curve, evaluation per length, timings

Every file is written to a temporary name and renamed, so a full disk or a kill mid-write
never leaves a half-written run that looks finished; a run counts as finished when its
``metrics.json`` exists (written last).  ``config.json`` uses the keys peapp's checkpoint
reader understands (``position_embedding_type``, ``rope_theta``, ``relative_attention_*``,
``is_decoder``), so ``peapp inspect RUN_DIR`` names the position component, and the learned
table is the tensor ``wpe.weight`` (GPT-2's name) the heatmap can open.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import statistics
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import torch

from peapp.i18n import translate
from peapp.errors import CheckpointError, ResultsWriteError
from peapp.lab.model import ModelConfig
from peapp.lab.train import RunResult, RunSpec, variant_label

CONFIG, WEIGHTS, METRICS = "config.json", "model.safetensors", "metrics.json"
GRID, SUMMARY = "grid.json", "results.json"
FORMAT_VERSION = 1
# What config.json says for each encoding (position_embedding_type is the key peapp and
# transformers' BERT-family configs use).
_POSITION_TYPE = {"nope": "none", "sinusoidal": "sinusoidal", "learned": "absolute", "t5": "t5_relative_bias",
                  "rope": "rotary", "alibi": "alibi", "nope-temp": "none", "nope-logn": "none"}


def hf_config(cfg: ModelConfig, spec: RunSpec | None = None) -> dict[str, Any]:
    """config.json for a lab model: its encoding in words and in the keys checkpoint readers use."""
    out: dict[str, Any] = {
        "model_type": "peapp-lab", "architectures": ["PeappLabModel"],
        "position_embedding_type": _POSITION_TYPE[cfg.encoding],
        "hidden_size": cfg.d_model, "num_attention_heads": cfg.n_heads, "num_hidden_layers": cfg.n_layers,
        "intermediate_size": cfg.d_ff, "vocab_size": cfg.vocab_size, "is_decoder": cfg.causal,
        "max_position_embeddings": cfg.position_rows if cfg.encoding == "learned" else cfg.max_positions,
    }
    if cfg.encoding == "rope":
        out.update(rope_theta=cfg.rope_base, head_dim=cfg.head_dim)
    elif cfg.encoding == "sinusoidal":
        out.update(sinusoidal_base=cfg.sinusoidal_base, sinusoidal_layout="interleaved")
    elif cfg.encoding == "nope-temp":  # Llama 4's keys for its NoPE layers' temperature
        out.update(attn_temperature_tuning=True, attn_scale=cfg.temperature_attn_scale, floor_scale=cfg.floor_scale)
    elif cfg.encoding == "t5":
        out.update(relative_attention_num_buckets=cfg.t5_buckets, relative_attention_max_distance=cfg.t5_max_distance)
    out["peapp_lab"] = {"format_version": FORMAT_VERSION, "model": cfg.to_dict(),
                        "run": spec.to_dict() if spec is not None else None}
    return out


# ---- writing --------------------------------------------------------------------------------

def _write_error(path: Path, exc: OSError) -> ResultsWriteError:
    reason = exc.strerror or str(exc)
    return ResultsWriteError(f"cannot write {path}: {reason}. Free some space or choose another results "
                             f"folder (-o); the runs already saved there are kept.")


def _atomic_write(path: Path, write: Callable[[str], None]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def write_json(path: Path, data: Any) -> None:
    def write(tmp: str) -> None:
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump(data, fh, indent=1, allow_nan=False)
            fh.write("\n")
            fh.flush()
            os.fsync(fh.fileno())
    try:
        _atomic_write(path, write)
    except OSError as exc:
        raise _write_error(path, exc) from None


def check_writable(folder: str | os.PathLike, needed_bytes: int = 0) -> Path:
    """Create ``folder`` and prove a file can be written there (and that ``needed_bytes`` fit)."""
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".write-test.", dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise _write_error(folder, exc) from None
    free = shutil.disk_usage(folder).free
    if needed_bytes and free < needed_bytes:
        raise ResultsWriteError(f"{folder} has {free / 2**20:,.1f} MB free but the grid's models and metrics need "
                                f"about {needed_bytes / 2**20:,.1f} MB; free some space or choose another folder (-o).")
    return folder


def run_bytes(cfg: ModelConfig) -> int:
    """Roughly what one saved run takes on disk: float32 weights plus a few hundred KB of JSON."""
    from peapp.lab.model import LabModel

    params = sum(p.numel() for p in LabModel(cfg).parameters())
    return 4 * params + 512 * 1024


def save_run(folder: str | os.PathLike, result: RunResult) -> Path:
    """Write one run (weights, config, then metrics last) under ``folder/RUN_ID``."""
    from safetensors.torch import save_file

    run_dir = Path(folder) / result.spec.run_id
    state = {name: t.detach().contiguous().cpu() for name, t in result.state.items()}
    try:
        _atomic_write(run_dir / WEIGHTS, lambda tmp: save_file(state, tmp, metadata={"format": "pt"}))
    except OSError as exc:
        raise _write_error(run_dir / WEIGHTS, exc) from None
    write_json(run_dir / CONFIG, hf_config(result.config, result.spec))
    write_json(run_dir / METRICS, result.metrics)
    return run_dir


# ---- reading --------------------------------------------------------------------------------

def _read_json(path: Path) -> Any:
    """JSON from a results folder: a regular file within the cap (a FIFO or /dev/zero is refused)."""
    from peapp import safe_open

    if not os.path.lexists(path):
        raise CheckpointError(f"{path} does not exist; is this a training-lab results folder?")
    return safe_open.load_json(safe_open.read_bytes(path, "results", CheckpointError), str(path), CheckpointError)


#: the largest length, step count or position a saved run may name (the lab trains far below it)
_MAX_SAVED_INT = 10 ** 9


def _is_int(value: Any, low: int = 0) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= _MAX_SAVED_INT


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value)


def metrics_problem(data: Any) -> str | None:
    """What is wrong with a run's metrics.json, field by field (None: usable), so a damaged or
    foreign file is named and skipped instead of ending in a traceback while it is drawn."""
    if not isinstance(data, dict):
        return f"it holds a {type(data).__name__}, not a run's metrics"
    if not isinstance(data.get("run_id"), str):
        return "run_id is not a text"
    spec = data.get("spec")
    if not isinstance(spec, dict) or not _is_int(spec.get("seed")):
        return "spec is missing or has no whole-number seed"
    if not isinstance(data.get("metric"), str):
        return "metric is not a text"
    if data.get("train_positions") is not None and not _is_int(data["train_positions"]):
        return "train_positions is not a whole number in range"
    curve = data.get("loss_curve", [])
    if not isinstance(curve, list) or not all(
            isinstance(p, list) and len(p) == 2 and _is_int(p[0]) and _is_number(p[1]) for p in curve):
        return "loss_curve is not a list of [step, loss] numbers"
    evaluation = data.get("eval")
    if not isinstance(evaluation, dict):
        return "eval is not a table of variants"
    for variant, entries in evaluation.items():
        if not isinstance(entries, list):
            return f"eval[{variant!r}] is not a list"
        for e in entries:
            if not isinstance(e, dict) or not _is_int(e.get("length"), 1) or not _is_int(e.get("positions"), 0):
                return f"an entry of eval[{variant!r}] has no whole-number length and positions in range"
            if e.get("status") == "cannot":
                if not isinstance(e.get("reason", ""), str):
                    return f"a reason in eval[{variant!r}] is not a text"
            elif not _is_number(e.get("value")):
                return f"a value in eval[{variant!r}] is not a number"
    return None


def load_run(run_dir: str | os.PathLike) -> RunResult:
    """Read a saved run back: spec, model config, weights (safetensors, no pickle) and metrics."""
    from safetensors import SafetensorError
    from safetensors.torch import load_file

    run_dir = Path(run_dir)
    config = _read_json(run_dir / CONFIG)
    lab = config.get("peapp_lab") if isinstance(config, dict) else None
    if not isinstance(lab, dict) or "model" not in lab:
        raise CheckpointError(f"{run_dir / CONFIG} is not a training-lab config (no peapp_lab section).")
    if lab.get("format_version", 0) > FORMAT_VERSION:
        raise CheckpointError(f"{run_dir} was written by a newer peapp (lab format {lab['format_version']}); "
                              f"update peapp to read it.")
    try:
        state = load_file(str(run_dir / WEIGHTS))
    except (OSError, SafetensorError) as exc:
        raise CheckpointError(f"cannot read {run_dir / WEIGHTS}: {exc}") from None
    metrics = _read_json(run_dir / METRICS)
    problem = metrics_problem(metrics)
    if problem:
        raise CheckpointError(f"{run_dir / METRICS}: {problem}; train the run again.")
    try:
        spec = RunSpec.from_dict(lab["run"]) if lab.get("run") else RunSpec.from_dict(metrics["spec"])
        config = ModelConfig.from_dict(lab["model"])
    except (KeyError, TypeError, ValueError) as exc:
        raise CheckpointError(f"{run_dir / CONFIG}: its peapp_lab section is damaged ({type(exc).__name__}: "
                              f"{str(exc)[:120]}); train the run again.") from None
    return RunResult(spec, config, state, metrics)


def load_model(run_dir: str | os.PathLike):
    """The trained LabModel of a saved run, in eval mode."""
    from peapp.lab.model import LabModel

    result = load_run(run_dir)
    model = LabModel(result.config)
    model.load_state_dict(result.state)
    return model.eval()


def finished_runs(folder: str | os.PathLike) -> list[dict[str, Any]]:
    """The metrics of every finished run under ``folder`` (those whose metrics.json exists)."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    out = []
    for metrics_file in sorted(folder.glob(f"*/{METRICS}")):
        try:
            data = _read_json(metrics_file)
        except CheckpointError:
            continue  # a damaged run is re-trained rather than trusted
        if metrics_problem(data) is None:
            out.append(data)
    return out


# ---- the summary table ------------------------------------------------------------------------

def summarise(runs: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Per (variant, length): the values over seeds (mean, min, max) or "cannot".

    ``runs`` are metrics dicts (``RunResult.metrics`` or ``metrics.json``).
    """
    runs = list(runs)
    cells: dict[tuple[str, int], dict[str, Any]] = {}
    order: list[str] = []
    metric = runs[0]["metric"] if runs else None
    for run in runs:
        for variant, entries in run["eval"].items():
            if variant not in order:
                order.append(variant)
            for e in entries:
                cell = cells.setdefault((variant, e["length"]), {"variant": variant, "label": variant_label(variant),
                                                                 "length": e["length"], "positions": e["positions"],
                                                                 "values": [], "seeds": [], "cannot": 0})
                if e.get("status") == "cannot":
                    cell["cannot"] += 1
                    cell["reason"] = e.get("reason", "")
                else:
                    cell["values"].append(e["value"])
                    cell["seeds"].append(run["spec"]["seed"])
    from peapp.lab.model import LABELS

    canonical = list(LABELS)  # the same row order in every table and figure, whatever finished first
    order.sort(key=lambda v: canonical.index(v) if v in canonical else len(canonical))
    rows = []
    for variant in order:
        for (v, _length), cell in sorted(cells.items(), key=lambda kv: kv[0][1]):
            if v != variant:
                continue
            values = cell["values"]
            if values:
                cell.update(mean=statistics.fmean(values), min=min(values), max=max(values))
            rows.append(cell)
    first = runs[0]["spec"] if runs else {}
    return {"format_version": FORMAT_VERSION, "metric": metric, "task": first.get("task"),
            "train_length": first.get("train_length"),
            "train_positions": runs[0].get("train_positions") if runs else None,
            "runs": len(runs), "rows": rows}


def format_table(summary: dict[str, Any]) -> str:
    """The summary as a plain-text table: one row per variant, one column per length."""
    rows = summary["rows"]
    if not rows:
        return "no finished runs\n"
    lengths = sorted({r["length"] for r in rows})
    variants: list[str] = []
    for r in rows:
        if r["variant"] not in variants:
            variants.append(r["variant"])
    metric = summary["metric"]
    head = f"{metric} (mean over seeds [min–max]); trained on lengths ≤ {summary['train_length']}"
    width = 20
    lines = [head, "encoding".ljust(18) + "".join(f"len {n}".rjust(width) for n in lengths)]
    by_key = {(r["variant"], r["length"]): r for r in rows}
    for variant in variants:
        line = variant_label(variant).ljust(18)
        for n in lengths:
            cell = by_key.get((variant, n))
            line += cell_text(cell, metric).rjust(width)
        lines.append(line)
    return "\n".join(lines) + "\n"


def cell_text(cell: dict[str, Any] | None, metric: str) -> str:
    if cell is None:
        return "—"
    if not cell["values"]:
        return translate("LabResults", "cannot") if cell["cannot"] else "—"
    fmt = (lambda x: f"{x:.2f}") if metric == "exact_match" else (lambda x: f"{x:.3g}" if math.isfinite(x) else "inf")
    text = fmt(cell["mean"])
    if len(cell["values"]) > 1:
        text += f" [{fmt(cell['min'])}–{fmt(cell['max'])}]"
    if cell["cannot"]:
        text += translate("LabResults", " ({n} cannot)").format(n=cell["cannot"])
    return text


def state_to_numpy(state: dict[str, torch.Tensor]) -> dict[str, Any]:
    return {k: v.numpy() for k, v in state.items()}


def state_from_numpy(state: dict[str, Any]) -> dict[str, torch.Tensor]:
    return {k: torch.from_numpy(v) for k, v in state.items()}
