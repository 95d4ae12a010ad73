"""The probes' sweeps on Ray (``peapp probe … --ray local|ADDRESS``): the perplexity probe as one
Ray task per RoPE variant, the passkey probe as one task per (context length, needle depth).

Each task opens the checkpoint itself (its path must exist on the workers; a GGUF's converted
cache is shared where the cache folder is) and runs the ordinary probe on its part, so a cell's
numbers are those of the local probe (the same pass keys from the same seed); the parts come
back and are put together in the local order.  Ray is imported only by :mod:`peapp.cluster`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

from peapp.errors import ParameterError
from peapp.jobs import Cancelled


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


def perplexity_on_ray(address: str, path: str, load: dict[str, Any], ids: Sequence[int], variants: Sequence[str],
                      factor: float, window: int, partial: Callable[[Any], None] | None = None,
                      should_stop: Callable[[], bool] = lambda: False, gpus: float = 0.0):
    """:func:`peapp.model_run.probes.perplexity_probe` with one Ray task per variant."""
    from peapp import cluster

    variants = list(dict.fromkeys(variants))
    started = time.perf_counter()
    parts: dict[int, Any] = {}
    errors, failed = _failures()

    def done(index: int, result: Any) -> None:
        parts[index] = result
        if partial is not None:
            partial(_merged_perplexity(parts, started))

    cancelled = cluster.run_tasks(address, _perplexity_task,
                                  [(path, load, list(ids), v, float(factor), int(window)) for v in variants],
                                  on_done=done, on_error=failed, should_stop=should_stop, gpus=gpus)
    if cancelled:
        raise Cancelled()
    if errors:
        raise ParameterError(f"the probe failed on Ray: {errors[0]}")
    return _merged_perplexity(parts, started)


def _merged_perplexity(parts: dict[int, Any], started: float):
    from dataclasses import replace

    ordered = [parts[i] for i in sorted(parts)]
    first = ordered[0]
    curves = [c for part in ordered for c in part.curves]
    not_applied: dict[str, str] = {}
    for part in ordered:
        not_applied.update(part.not_applied)
    return replace(first, curves=curves, not_applied=not_applied, seconds=time.perf_counter() - started, threads=1)


def passkey_on_ray(address: str, path: str, load: dict[str, Any], lengths: Sequence[int], depths: Sequence[float],
                   trials: int, seed: int, variant: str, factor: float, partial: Callable[[Any], None] | None = None,
                   should_stop: Callable[[], bool] = lambda: False, gpus: float = 0.0):
    """:func:`peapp.model_run.passkey.passkey_probe` with one Ray task per (length, depth)."""
    from peapp import cluster
    from peapp.model_run.passkey import check_depths

    lengths = sorted({int(n) for n in lengths})
    depths = check_depths(depths)
    cells = [(n, d) for n in lengths for d in depths]
    started = time.perf_counter()
    parts: dict[int, Any] = {}
    errors, failed = _failures()

    def done(index: int, result: Any) -> None:
        parts[index] = result
        if partial is not None:
            partial(_merged_passkey(parts, lengths, depths, started))

    cancelled = cluster.run_tasks(address, _passkey_task,
                                  [(path, load, n, d, int(trials), int(seed), variant, float(factor)) for n, d in cells],
                                  on_done=done, on_error=failed, should_stop=should_stop, gpus=gpus)
    if cancelled:
        raise Cancelled()
    if errors:
        raise ParameterError(f"the probe failed on Ray: {errors[0]}")
    return _merged_passkey(parts, lengths, depths, started)


def _merged_passkey(parts: dict[int, Any], lengths: list[int], depths: list[float], started: float):
    from dataclasses import replace

    ordered = [parts[i] for i in sorted(parts)]
    cells = [c for part in ordered for c in part.cells]
    return replace(ordered[0], lengths=list(lengths), depths=list(depths), cells=cells,
                   seconds=time.perf_counter() - started, threads=1)
