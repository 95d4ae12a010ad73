"""A grid of runs (encodings × seeds), run in worker processes, saved as each one finishes.

How runs are spread over cores (measured on the 2-core development machine under load; see
tests/bench/bench_lab.py): a **pool of single-thread worker processes**, one per core, is the
default.  Intra-op threads do not pay for these tiny models — a 64-wide, 2-layer model's
matrices are too small to split, and two OpenMP threads fought the other processes on a loaded
machine — while independent runs in separate processes scale with cores.  The pool is kept
for the whole grid rather than one process per run: each fresh process pays torch's import
and the optimiser's first-use imports (several seconds on a loaded machine) again.

Finished runs are written by the parent process (atomically, metrics last), so a cancelled or
failed grid keeps every run that finished, and a write failure stops the grid with a message
while keeping the finished results in memory (``GridOutcome.unsaved``) for another folder.
Re-running a grid into the same folder skips runs already finished there.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import time
from collections.abc import Callable, Iterator
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import torch

from peapp.errors import ParameterError, ResultsWriteError
from peapp.jobs import HOOKS, Cancelled, Job, Partial, run_job
from peapp.lab import results
from peapp.lab.model import ENCODINGS, ROPE_SCALINGS, LabModel, loss_of
from peapp.lab.options import (  # noqa: F401  (re-exported)
    ALL_VARIANTS,
    CONFIRM_SECONDS,
    MAX_EVAL_LENGTH,
    MODES,
    NOPE_STEP_FACTOR,
    TASKS,
    base_encoding,
    parse_encodings,
)
from peapp.lab.train import (
    RunResult,
    RunSpec,
    TrainSettings,
    build_task,
    model_config,
    train_run,
)

MAX_SEEDS = 1000
# Two workers on two cores each run slower than one process timed alone (shared caches, memory
# bandwidth, the machine's other load): the 1-seed default grid took 1.66× the plain estimate
# here (4.8 min against 2.9, load ≈ 2).  Plus each worker's start (spawn, torch import).
PARALLEL_SLOWDOWN = 1.6
WORKER_START_SECONDS = 10.0

Event = dict[str, Any]  # {"type": "step" | "done" | "failed" | "skipped", "run_id": …, …}
EventFn = Callable[[Event], None]


@dataclass(frozen=True)
class GridSpec:
    task: str = "copy"
    encodings: tuple[str, ...] = ENCODINGS
    rope_scalings: tuple[str, ...] = tuple(ROPE_SCALINGS)
    train_length: int = 20
    eval_lengths: tuple[int, ...] = (10, 20, 25, 30, 40)
    seeds: int = 3
    n_layers: int = 2
    d_model: int = 64
    n_heads: int = 4
    train: TrainSettings = field(default_factory=TrainSettings)
    nope_steps: int | None = None  # None: NOPE_STEP_FACTOR × train.steps
    text: str | None = None

    def __post_init__(self) -> None:
        if self.task not in TASKS:
            raise ParameterError(f"unknown task {self.task!r}; choose one of {', '.join(TASKS)}.")
        if self.seeds < 1:
            raise ParameterError(f"seeds must be at least 1 (got {self.seeds}).")
        if not 1 <= self.train_length <= MAX_EVAL_LENGTH:
            raise ParameterError(f"the training length must be between 1 and {MAX_EVAL_LENGTH:,} (got "
                                 f"{self.train_length:,}): {self._attention_estimate()} of attention scores per "
                                 f"training step; the lab's models are meant for short sequences.")
        if not self.eval_lengths or not all(isinstance(n, int) and 1 <= n <= MAX_EVAL_LENGTH
                                            for n in self.eval_lengths):
            raise ParameterError(f"evaluation lengths must each be between 1 and {MAX_EVAL_LENGTH:,}.")
        if self.seeds > MAX_SEEDS:
            raise ParameterError(f"seeds must be at most {MAX_SEEDS} (got {self.seeds:,}).")
        for name in ("n_layers", "d_model", "n_heads"):
            if not 1 <= getattr(self, name) <= 4096:
                raise ParameterError(f"{name.replace('n_', '').replace('_', ' ')} must be between 1 and 4,096 "
                                     f"(got {getattr(self, name):,}).")
        self._check_memory()

    def _attention_bytes(self) -> float:
        # each layer's softmax is kept for the backward pass, plus the scores and gradient of the
        # layer at hand: (layers + 2) float32 T × T maps per head and sequence
        return (4 * self.train.batch_size * max(1, self.n_heads) * (max(1, self.n_layers) + 2)
                * float(self.train_length) ** 2)

    def _attention_estimate(self) -> str:
        from peapp.memory import human_bytes

        return human_bytes(self._attention_bytes())

    def _check_memory(self) -> None:
        """A training step's memory, estimated before any model is built: the weights with their
        gradients and Adam's two moments (≈ 12·layers·width² parameters), the attention maps and
        the activations of a batch."""
        from peapp.memory import budget_bytes, human_bytes

        params = 12 * self.n_layers * self.d_model ** 2
        activations = 16 * 4 * self.train.batch_size * self.train_length * self.d_model * self.n_layers
        needed = 4 * 4 * params + self._attention_bytes() + activations
        budget = budget_bytes()
        if needed > budget:
            raise ParameterError(f"a training step would need about {human_bytes(needed)}, more than the "
                                 f"{human_bytes(budget)} this machine can spare: use a shorter training length, "
                                 f"a smaller batch, fewer layers or a narrower model.")
        if not self.encodings:
            raise ParameterError("choose at least one encoding.")

    def steps_for(self, encoding: str) -> int:
        if base_encoding(encoding).startswith("nope"):  # with a temperature or randomised positions too
            return self.nope_steps if self.nope_steps is not None else NOPE_STEP_FACTOR * self.train.steps
        return self.train.steps

    def runs(self) -> list[RunSpec]:
        out = []
        for seed in range(self.seeds):
            for encoding in self.encodings:
                out.append(RunSpec(task=self.task, encoding=encoding, seed=seed, train_length=self.train_length,
                                   eval_lengths=tuple(self.eval_lengths), n_layers=self.n_layers,
                                   d_model=self.d_model, n_heads=self.n_heads,
                                   train=replace(self.train, steps=self.steps_for(encoding)),
                                   rope_scalings=self.rope_scalings if encoding == "rope" else (),
                                   text=self.text))
        return out

    def to_dict(self) -> dict[str, Any]:
        from dataclasses import asdict

        values = asdict(self)
        for key in ("encodings", "rope_scalings", "eval_lengths"):
            values[key] = list(values[key])
        return values


@dataclass
class GridOutcome:
    finished: list[RunResult] = field(default_factory=list)  # trained in this call (and saved)
    skipped: list[str] = field(default_factory=list)  # already finished in the folder
    failed: list[tuple[str, str]] = field(default_factory=list)  # (run_id, message)
    unsaved: list[RunResult] = field(default_factory=list)  # finished but could not be written
    write_error: str | None = None
    summary: dict[str, Any] = field(default_factory=dict)


# ---- estimate ----------------------------------------------------------------------------------

def measure_step_seconds(grid: GridSpec, repeats: int = 3) -> dict[str, float]:
    """Seconds per training step per encoding, timed here and now at the mean training length
    (batches have one length each, uniform up to the training length; the cost is ~linear)."""
    task = build_task(grid.runs()[0])
    mean_length = max(1, round((task.min_length + grid.train_length) / 2))
    out = {}
    gen = torch.Generator().manual_seed(0)
    inputs, targets = task.batch(gen, torch.full((grid.train.batch_size,), mean_length, dtype=torch.long))
    for spec in {r.encoding: r for r in grid.runs()}.values():
        model = LabModel(model_config(spec, task))
        opt = torch.optim.AdamW(model.parameters(), foreach=True)
        times = []
        for i in range(repeats + 1):
            start = time.perf_counter()
            opt.zero_grad()
            loss_of(model, inputs, targets).backward()
            opt.step()
            if i:  # the first call warms caches up
                times.append(time.perf_counter() - start)
        out[spec.encoding] = min(times)
    return out


def estimate_seconds(grid: GridSpec, workers: int = 2, step_seconds: dict[str, float] | None = None) -> float:
    """Wall-clock estimate for the whole grid on ``workers`` single-thread processes.

    Training steps at the rate measured now, plus evaluation (a forward pass costs about a third
    of a training step, scaled by the evaluated length), divided over the workers with the
    measured parallel slowdown.  It follows the machine's load at the moment it is measured.
    """
    step_seconds = step_seconds or measure_step_seconds(grid)
    task = build_task(grid.runs()[0])
    mean_positions = task.positions(max(1, round((task.min_length + grid.train_length) / 2)))
    total = 0.0
    for spec in grid.runs():
        per_step = step_seconds[spec.encoding]
        total += spec.train.steps * per_step
        eval_batches = spec.train.eval_samples / grid.train.batch_size
        for length in spec.eval_lengths:
            scale = task.positions(length) / mean_positions
            total += len(spec.variants()) * eval_batches * per_step / 3 * scale
    parallel = max(1, min(workers, len(grid.runs())))
    if parallel == 1:
        return total
    return total * PARALLEL_SLOWDOWN / parallel + WORKER_START_SECONDS


# ---- running -----------------------------------------------------------------------------------

_events: Any = None  # the worker's queue to the parent
_stop: Any = None  # the parent's cancel flag, seen by every worker


def _init_worker(events: Any, stop: Any) -> None:
    global _events, _stop
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops us cleanly
    torch.set_num_threads(1)  # one run per core: see the module docstring
    _events, _stop = events, stop


def _worker_run(spec_dict: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    spec = RunSpec.from_dict(spec_dict)

    def progress(step: int, steps: int, loss: float) -> None:
        _events.put({"type": "step", "run_id": spec.run_id, "step": step, "steps": steps, "loss": loss})

    result = train_run(spec, progress=progress, should_stop=_stop.is_set)
    return result.config.to_dict(), results.state_to_numpy(result.state), result.metrics


def run_grid(grid: GridSpec, folder: str | os.PathLike, workers: int = 2, mode: str = "pool",
             on_event: EventFn | None = None, ray: str | None = None) -> GridOutcome:
    """:func:`grid_steps` run to its end on this thread (tests, scripts); ``on_event`` gets its events."""
    return run_job(grid_steps(grid, folder, workers, mode, ray=ray), on_partial=on_event)


def grid_steps(grid: GridSpec, folder: str | os.PathLike, workers: int = 2, mode: str = "pool",
               ray: str | None = None) -> Job:
    """Train every run of ``grid`` not yet finished in ``folder``; save each as it finishes.

    A job (peapp.jobs): yields each event (``Partial``: a dict, ``type`` step/done/skipped/failed)
    and the share of all training steps done; returns the :class:`GridOutcome`.  Closed when it
    is cancelled, it stops the workers at their next step: their runs are discarded, finished
    ones are kept in the folder (a rerun skips them).  Raises ResultsWriteError before training
    if the folder cannot be written.

    ``ray``: "local" or a cluster address runs each run as a Ray task of one CPU
    (:mod:`peapp.cluster`; ``mode`` is then Ray's to decide, ``workers`` the CPUs of a local Ray);
    the results come back here and are saved, skipped and summarised exactly as locally, and a
    cancel cancels the Ray tasks still out.  (The lab's models train on the CPU: no GPU is
    requested for them.)
    """
    if mode not in MODES:
        raise ParameterError(f"unknown mode {mode!r}; choose one of {', '.join(MODES)}.")
    all_runs = grid.runs()
    task = build_task(all_runs[0])  # bad task settings (e.g. a missing text) fail here, not in a worker
    folder = results.check_writable(folder, needed_bytes=len(all_runs) * results.run_bytes(model_config(all_runs[0], task)))
    results.write_json(folder / results.GRID, grid.to_dict())
    done_before = {m["run_id"]: m for m in results.finished_runs(folder)}
    outcome = GridOutcome()
    todo = []
    waiting: list[dict[str, Any]] = []  # events not yet yielded
    emit: EventFn = waiting.append
    for spec in all_runs:
        previous = done_before.get(spec.run_id)
        if previous is not None and previous.get("spec") == spec.to_dict():
            outcome.skipped.append(spec.run_id)
            emit({"type": "skipped", "run_id": spec.run_id})
        else:
            todo.append(spec)
    steps = {spec.run_id: spec.train.steps for spec in all_runs}
    total = max(1, sum(steps.values()))
    done: dict[str, int] = {}

    def report() -> Iterator[Any]:
        """Yield what happened since the last call, then the share done: the job's cancel points."""
        while waiting:
            event = waiting.pop(0)
            if event["type"] == "step":
                done[event["run_id"]] = event["step"]
            elif event["type"] in ("done", "skipped"):
                done[event["run_id"]] = steps.get(event["run_id"], 0)
            yield Partial(event)
        yield sum(done.values()) / total

    def finish(result: RunResult) -> None:
        if outcome.write_error is not None:
            outcome.unsaved.append(result)
            return
        try:
            results.save_run(folder, result)
        except ResultsWriteError as exc:
            outcome.write_error = str(exc)
            outcome.unsaved.append(result)
            return
        outcome.finished.append(result)
        emit({"type": "done", "run_id": result.spec.run_id, "metrics": result.metrics})
        _write_summary(folder, all_runs)

    yield from report()
    if ray:
        yield from _run_ray(todo, outcome, finish, emit, report, ray, workers)
    elif mode == "inline":
        yield from _run_inline(todo, outcome, finish, emit, report)
    else:
        yield from _run_pool(todo, outcome, finish, emit, report, workers, one_per_run=(mode == "process"))
    outcome.summary = _write_summary(folder, all_runs) if outcome.write_error is None else \
        results.summarise([r.metrics for r in outcome.finished + outcome.unsaved] + list(done_before.values()))
    yield from report()
    return outcome


def _write_summary(folder: Path, all_runs: list[RunSpec]) -> dict[str, Any]:
    wanted = {spec.run_id: spec.to_dict() for spec in all_runs}
    metrics = [m for m in results.finished_runs(folder) if wanted.get(m["run_id"]) == m.get("spec")]
    summary = results.summarise(metrics)
    try:
        results.write_json(folder / results.SUMMARY, summary)
    except ResultsWriteError:
        pass  # the runs themselves are saved; the summary is rebuilt from them next time
    return summary


def _run_inline(todo: list[RunSpec], outcome: GridOutcome, finish: Callable[[RunResult], None], emit: EventFn,
                report: Callable[[], Iterator[Any]]) -> Job:
    # train_run's step loop is a plain function on this thread: it reports and is stopped through
    # the executor's hooks (a generator there would make every training step a yield point of its callers)
    hooks = yield HOOKS
    for spec in todo:
        if outcome.write_error:
            break

        def step(s: int, n: int, loss: float, rid: str = spec.run_id) -> None:
            hooks.partial({"type": "step", "run_id": rid, "step": s, "steps": n, "loss": loss})

        try:
            result = train_run(spec, progress=step, should_stop=hooks.cancelled)
        except Cancelled:
            raise
        except Exception as exc:  # one broken run must not lose the others
            _record_failure(outcome, emit, spec, exc)
            continue
        finish(result)
        yield from report()


def _record_failure(outcome: GridOutcome, emit: EventFn, spec: RunSpec, exc: Exception) -> None:
    from peapp.libraries import missing_library

    missing = missing_library(exc)  # a trimmed install: which library, and how to get it
    if missing is not None:
        exc = missing
    outcome.failed.append((spec.run_id, f"{type(exc).__name__}: {exc}"))
    emit({"type": "failed", "run_id": spec.run_id, "message": str(exc)})


def _run_pool(todo: list[RunSpec], outcome: GridOutcome, finish: Callable[[RunResult], None], emit: EventFn,
              report: Callable[[], Iterator[Any]], workers: int, one_per_run: bool) -> Job:
    if not todo:
        return
    ctx = multiprocessing.get_context("spawn")  # never fork a process that may hold Qt or threads
    events, stop = ctx.Queue(), ctx.Event()
    saved_env = os.environ.get("OMP_NUM_THREADS")
    os.environ["OMP_NUM_THREADS"] = "1"  # inherited by the workers before they import torch
    try:
        executor = ProcessPoolExecutor(max_workers=max(1, min(workers, len(todo))), mp_context=ctx,
                                       initializer=_init_worker, initargs=(events, stop),
                                       max_tasks_per_child=1 if one_per_run else None)
    finally:
        if saved_env is None:
            os.environ.pop("OMP_NUM_THREADS", None)
        else:
            os.environ["OMP_NUM_THREADS"] = saved_env
    pending: dict[Future, RunSpec] = {executor.submit(_worker_run, spec.to_dict()): spec for spec in todo}
    try:
        while pending:
            _drain(events, emit)
            yield from report()  # where a cancel (GeneratorExit) or Ctrl-C (KeyboardInterrupt) lands
            if outcome.write_error and not stop.is_set():
                stop.set()
                for future in pending:
                    future.cancel()
            done_now, _ = wait(list(pending), timeout=0.2, return_when=FIRST_COMPLETED)
            for future in done_now:
                spec = pending.pop(future)
                if future.cancelled():
                    continue
                try:
                    cfg, state, metrics = future.result()
                except Cancelled:
                    continue
                except Exception as exc:  # one broken run must not lose the others
                    _record_failure(outcome, emit, spec, exc)
                    continue
                from peapp.lab.model import ModelConfig

                finish(RunResult(spec, ModelConfig.from_dict(cfg), results.state_from_numpy(state), metrics))
        _drain(events, emit)
    except BaseException:  # cancelled (GeneratorExit), Ctrl-C: stop the workers, keep what is saved
        stop.set()
        executor.shutdown(wait=True, cancel_futures=True)
        raise
    executor.shutdown(wait=True, cancel_futures=True)


def _ray_run(spec_dict: dict[str, Any], events: Any) -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    """One run as a Ray task: single-threaded as in the pool (same seeds, same numbers), step
    events at most every half second onto the driver's queue."""
    torch.set_num_threads(1)
    spec = RunSpec.from_dict(spec_dict)
    last = [0.0]

    def progress(step: int, steps: int, loss: float) -> None:
        now = time.monotonic()
        if events is not None and (now - last[0] >= 0.5 or step == steps):
            last[0] = now
            events.put({"type": "step", "run_id": spec.run_id, "step": step, "steps": steps, "loss": loss})

    result = train_run(spec, progress=progress)
    return result.config.to_dict(), results.state_to_numpy(result.state), result.metrics


def _run_ray(todo: list[RunSpec], outcome: GridOutcome, finish: Callable[[RunResult], None], emit: EventFn,
             report: Callable[[], Iterator[Any]], address: str, workers: int) -> Job:
    from peapp import cluster
    from peapp.lab.model import ModelConfig

    def done(index: int, value: Any) -> None:
        cfg, state, metrics = value
        state = {name: array.copy() for name, array in state.items()}  # Ray's arrays are read-only views
        finish(RunResult(todo[index], ModelConfig.from_dict(cfg), results.state_from_numpy(state), metrics))

    def failed(index: int, exc: BaseException) -> None:
        _record_failure(outcome, emit, todo[index], exc if isinstance(exc, Exception) else RuntimeError(str(exc)))

    yield from cluster.task_steps(address, _ray_run, [(spec.to_dict(),) for spec in todo], on_done=done,
                                  on_error=failed, report=report, should_stop=lambda: bool(outcome.write_error),
                                  emit=emit, cpus=workers if address == "local" else None)


def _drain(events: Any, emit: EventFn) -> None:
    while True:
        try:
            emit(events.get_nowait())
        except queue.Empty:
            return
