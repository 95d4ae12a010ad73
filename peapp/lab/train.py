"""Train one model and evaluate it at lengths beyond training.

Deterministic with a seed: the seed fixes the initialisation and the training batches (the
same for every encoding, so encodings are compared on the same data); the evaluation sets
depend on the task and length only, so every model is judged on the same sequences.  Same
seed → same loss curve on the same machine with the same thread count (workers use one).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import torch

from peapp.errors import ParameterError
from peapp.jobs import Cancelled
from peapp.lab.model import (
    LABELS,
    ROPE_SCALINGS,
    LabModel,
    ModelConfig,
    check_fits,
    loss_of,
)
from peapp.lab.options import RANDOMIZED, TRAINED, TrainSettings, base_encoding
from peapp.lab.tasks import IGNORE, TASKS, Task, TextTask, make_task

ProgressFn = Callable[[int, int, float], None]  # (step, steps, loss)
_EVAL_SEED = 20_220_101  # evaluation sets: fixed, independent of the run's seed


@dataclass(frozen=True)
class RunSpec:
    """One training run: a task, an encoding, a seed; evaluated at ``eval_lengths``."""

    task: str
    encoding: str
    seed: int
    train_length: int
    eval_lengths: tuple[int, ...]
    n_layers: int = 2
    d_model: int = 64
    n_heads: int = 4
    train: TrainSettings = field(default_factory=TrainSettings)
    rope_scalings: tuple[str, ...] = ()  # RoPE runs: also evaluated with these (pi / ntk / yarn)
    text: str | None = None  # the lm task's text file

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise ParameterError(f"unknown task {self.task!r}; choose one of {', '.join(TASKS)}.")
        if self.encoding not in TRAINED:
            raise ParameterError(f"unknown encoding {self.encoding!r}; choose one of {', '.join(TRAINED)}.")
        if self.train_length < 1:
            raise ParameterError(f"training length must be at least 1 (got {self.train_length}).")
        if not self.eval_lengths or min(self.eval_lengths) < 1:
            raise ParameterError("give at least one evaluation length, each at least 1.")
        bad = set(self.rope_scalings) - set(ROPE_SCALINGS)
        if bad:
            raise ParameterError(f"unknown RoPE scaling {', '.join(sorted(bad))}; choose from {', '.join(ROPE_SCALINGS)}.")

    @property
    def run_id(self) -> str:
        return f"{self.task}-{self.encoding}-L{self.train_length}-seed{self.seed}"

    def variants(self) -> tuple[str, ...]:
        """The names this run's evaluations are reported under: its encoding, plus RoPE scalings."""
        if self.encoding != "rope":
            return (self.encoding,)
        return ("rope",) + tuple(f"rope-{s}" for s in self.rope_scalings)

    def to_dict(self) -> dict[str, Any]:
        values = asdict(self)
        values["eval_lengths"] = list(self.eval_lengths)
        values["rope_scalings"] = list(self.rope_scalings)
        return values

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> RunSpec:
        values = dict(values)
        known = {f.name for f in fields(cls)}
        if set(values) - known:
            raise ParameterError(f"unknown run settings {', '.join(sorted(set(values) - known))}.")
        values["train"] = TrainSettings(**values.get("train", {}))
        values["eval_lengths"] = tuple(values["eval_lengths"])
        values["rope_scalings"] = tuple(values.get("rope_scalings", ()))
        return cls(**values)


@dataclass
class RunResult:
    """A finished run: its spec, the model (config + weights) and its metrics."""

    spec: RunSpec
    config: ModelConfig
    state: dict[str, torch.Tensor]
    metrics: dict[str, Any]


def build_task(spec: RunSpec) -> Task:
    return make_task(spec.task, spec.text)


def model_config(spec: RunSpec, task: Task) -> ModelConfig:
    """The model of ``spec``; "<encoding>+rand" draws its positions from twice the positions of
    the longest sequence it meets (Ruoss et al. 2023 draw from a range well past the test lengths)."""
    trained = task.positions(spec.train_length)
    randomized = 0
    if spec.encoding.endswith(RANDOMIZED):
        randomized = 2 * max(trained, task.positions(max(spec.eval_lengths)))
    return ModelConfig(encoding=base_encoding(spec.encoding), vocab_size=task.vocab_size,
                       max_positions=trained, n_layers=spec.n_layers,
                       d_model=spec.d_model, n_heads=spec.n_heads, d_ff=4 * spec.d_model, randomized_max=randomized)


def _learning_rate(settings: TrainSettings, step: int) -> float:
    """Linear warm-up, then cosine decay to a tenth."""
    if step < settings.warmup_steps:
        return settings.learning_rate * (step + 1) / settings.warmup_steps
    progress = (step - settings.warmup_steps) / max(1, settings.steps - settings.warmup_steps)
    return settings.learning_rate * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))


def train_run(spec: RunSpec, progress: ProgressFn | None = None,
              should_stop: Callable[[], bool] | None = None, task: Task | None = None) -> RunResult:
    """Train ``spec``'s model, evaluate it, return everything; raises Cancelled if asked to stop."""
    task = task or build_task(spec)
    cfg = model_config(spec, task)
    settings = spec.train
    torch.manual_seed(spec.seed)
    model = LabModel(cfg)
    data = torch.Generator().manual_seed(spec.seed)
    decay = [p for n, p in model.named_parameters() if p.ndim >= 2 and "embedding" not in n]
    no_decay = [p for n, p in model.named_parameters() if not (p.ndim >= 2 and "embedding" not in n)]
    optimiser = torch.optim.AdamW([{"params": decay, "weight_decay": settings.weight_decay},
                                   {"params": no_decay, "weight_decay": 0.0}],
                                  lr=settings.learning_rate, betas=(0.9, 0.98), foreach=True)
    curve: list[list[float]] = []
    window: list[float] = []
    started = time.perf_counter()
    model.train()
    for step in range(settings.steps):
        if should_stop is not None and should_stop():
            raise Cancelled(f"{spec.run_id} cancelled at step {step}")
        for group in optimiser.param_groups:
            group["lr"] = _learning_rate(settings, step)
        lengths = task.sample_lengths(data, settings.batch_size, spec.train_length)
        inputs, targets = task.batch(data, lengths)
        loss = loss_of(model, inputs, targets)
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), settings.grad_clip)
        optimiser.step()
        window.append(loss.item())
        if len(window) == settings.log_every or step == settings.steps - 1:
            curve.append([step + 1, sum(window) / len(window)])
            window.clear()
            if progress is not None:
                progress(step + 1, settings.steps, curve[-1][1])
    train_seconds = time.perf_counter() - started
    model.eval()
    started = time.perf_counter()
    evaluation = evaluate(model, task, spec, should_stop)
    metrics = {"run_id": spec.run_id, "spec": spec.to_dict(), "metric": task.metric,
               "train_positions": cfg.max_positions, "loss_curve": curve,
               "train_seconds": round(train_seconds, 3), "eval_seconds": round(time.perf_counter() - started, 3),
               "threads": torch.get_num_threads(), "eval": evaluation}
    state = {name: tensor.detach().clone() for name, tensor in model.state_dict().items()}
    return RunResult(spec, cfg, state, metrics)


@torch.no_grad()
def evaluate(model: LabModel, task: Task, spec: RunSpec,
             should_stop: Callable[[], bool] | None = None) -> dict[str, list[dict[str, Any]]]:
    """Per variant (the encoding, and RoPE scalings), one entry per evaluation length:
    ``{"length", "positions", "value"}`` or ``{"length", "positions", "status": "cannot", "reason"}``."""
    out: dict[str, list[dict[str, Any]]] = {v: [] for v in spec.variants()}
    for length in spec.eval_lengths:
        positions = task.positions(length)
        reason = check_fits(model, positions)
        batches = _eval_batches(task, length, spec.train.eval_samples)
        for variant in spec.variants():
            entry: dict[str, Any] = {"length": length, "positions": positions}
            if reason is not None:
                entry.update(status="cannot", reason=reason)
            else:
                if should_stop is not None and should_stop():
                    raise Cancelled(f"{spec.run_id} cancelled while evaluating")
                scaling = variant.split("-", 1)[1] if variant.startswith("rope-") else None
                entry["value"] = _metric(model, task, batches, scaling)
            out[variant].append(entry)
    return out


def _eval_batches(task: Task, length: int, samples: int, batch_size: int = 128) -> list[tuple[torch.Tensor, torch.Tensor]]:
    gen = torch.Generator().manual_seed(_EVAL_SEED + length)
    batches = []
    for start in range(0, samples, batch_size):
        lengths = torch.full((min(batch_size, samples - start),), length, dtype=torch.long)
        if isinstance(task, TextTask):
            batches.append(task.batch(gen, lengths, held_out=True))
        else:
            batches.append(task.batch(gen, lengths))
    return batches


def _metric(model: LabModel, task: Task, batches: list, scaling: str | None) -> float:
    if task.metric == "perplexity":
        total, count = 0.0, 0
        for inputs, targets in batches:
            logits = model(inputs, rope_scaling=scaling)
            total += float(torch.nn.functional.cross_entropy(
                logits.reshape(-1, logits.shape[-1]), targets.reshape(-1), reduction="sum"))
            count += int((targets != IGNORE).sum())
        return math.exp(min(total / count, 700.0))  # capped: exp overflows a float past ~709
    correct, count = 0, 0
    for inputs, targets in batches:
        predicted = model(inputs, rope_scaling=scaling).argmax(dim=-1)
        right = (predicted == targets) | (targets == IGNORE)
        correct += int(right.all(dim=1).sum())
        count += len(inputs)
    return correct / count


def variant_label(name: str) -> str:
    return LABELS.get(name, name)
