"""The probes' sweeps on Ray (``peapp probe … --ray local|ADDRESS``): the perplexity probe as one
Ray task per RoPE variant, the passkey probe as one task per (context length, needle depth).

Each task opens the checkpoint itself (its path must exist on the workers; a GGUF's converted
cache is shared where the cache folder is) and runs the ordinary probe on its part, so a cell's
numbers are those of the local probe (the same pass keys from the same seed); the parts come
back and are put together in the local order.  Each sweep is a job (:mod:`peapp.jobs`): the
parts arrive as partial results, and closing the job cancels the tasks still out.  Ray is
imported only by :mod:`peapp.cluster`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from peapp.errors import ParameterError
from peapp.jobs import Job, Partial


def _open(path: str, load: dict[str, Any]):
    import torch

    from peapp.model_run.loading import load_model

    torch.set_num_threads(1)  # one CPU per task, as Ray reserved
    if load.get("device", "cpu") == "cpu" and torch.cuda.is_available():
        load = {**load, "device": "cuda"}  # the task was given a GPU (--ray-gpus)
    return load_model(path, **load)


def _perplexity_task(path: str, load: dict[str, Any], ids: list[int], variant: str, factor: float, window: int,
                     events: Any):
    from peapp.model_run.probes import perplexity_probe

    return perplexity_probe(_open(path, load), ids, variants=[variant], factor=factor, window=window)


def _passkey_task(path: str, load: dict[str, Any], length: int, depth: float, trials: int, seed: int,
                  variant: str, factor: float, events: Any):
    from peapp.model_run.passkey import passkey_probe

    return passkey_probe(_open(path, load), lengths=[length], depths=[depth], trials=trials, seed=seed,
                         variant=variant, factor=factor)


def _failures() -> tuple[list[str], Callable[[int, BaseException], None]]:
    errors: list[str] = []

    def failed(index: int, exc: BaseException) -> None:
        errors.append(str(exc) or type(exc).__name__)

    return errors, failed


def _sweep(address: str, task: Callable[..., Any], arguments: list[tuple], merge: Callable[[list[Any]], Any],
           gpus: float) -> Job:
    """A job (:mod:`peapp.jobs`): one Ray task per argument tuple; yields the parts merged so far
    (``Partial``, newest last) as each arrives and the share of tasks done; returns every part
    merged in the local order.  Closed (cancelled), it cancels the tasks still out."""
    from peapp import cluster

    parts: dict[int, Any] = {}
    arrived: list[Any] = []
    errors, failed = _failures()

    def done(index: int, result: Any) -> None:
        parts[index] = result
        arrived.append(merge(list(parts.values())))  # in arrival order: the newest part is the last

    def report() -> Iterator[Any]:
        while arrived:
            yield Partial(arrived.pop(0))
        yield len(parts) / max(1, len(arguments))

    yield from report()
    yield from cluster.task_steps(address, task, arguments, on_done=done, on_error=failed, report=report, gpus=gpus)
    yield from report()
    if errors:
        raise ParameterError(f"the probe failed on Ray: {errors[0]}")
    return merge([parts[i] for i in sorted(parts)])


def perplexity_on_ray(address: str, path: str, load: dict[str, Any], ids: Sequence[int], variants: Sequence[str],
                      factor: float, window: int, gpus: float = 0.0) -> Job:
    """:func:`peapp.model_run.probes.perplexity_probe` with one Ray task per variant, as a job
    (see :func:`_sweep`)."""
    variants = list(dict.fromkeys(variants))
    started = time.perf_counter()
    return _sweep(address, _perplexity_task, [(path, load, list(ids), v, float(factor), int(window)) for v in variants],
                  lambda parts: _merged_perplexity(parts, started), gpus)


def _merged_perplexity(ordered: list[Any], started: float):
    from dataclasses import replace

    first = ordered[0]
    curves = [c for part in ordered for c in part.curves]
    not_applied: dict[str, str] = {}
    for part in ordered:
        not_applied.update(part.not_applied)
    return replace(first, curves=curves, not_applied=not_applied, seconds=time.perf_counter() - started, threads=1)


def passkey_on_ray(address: str, path: str, load: dict[str, Any], lengths: Sequence[int], depths: Sequence[float],
                   trials: int, seed: int, variant: str, factor: float, gpus: float = 0.0) -> Job:
    """:func:`peapp.model_run.passkey.passkey_probe` with one Ray task per (length, depth), as a
    job (see :func:`_sweep`)."""
    from peapp.model_run.passkey import check_depths

    lengths = sorted({int(n) for n in lengths})
    depths = check_depths(depths)
    cells = [(n, d) for n in lengths for d in depths]
    started = time.perf_counter()
    return _sweep(address, _passkey_task,
                  [(path, load, n, d, int(trials), int(seed), variant, float(factor)) for n, d in cells],
                  lambda parts: _merged_passkey(parts, lengths, depths, started), gpus)


def _merged_passkey(ordered: list[Any], lengths: list[int], depths: list[float], started: float):
    from dataclasses import replace

    cells = [c for part in ordered for c in part.cells]
    return replace(ordered[0], lengths=list(lengths), depths=list(depths), cells=cells,
                   seconds=time.perf_counter() - started, threads=1)
