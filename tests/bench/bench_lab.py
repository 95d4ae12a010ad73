"""Benchmark: the training lab's default grid, and which way of running it is fastest.

``--modes``: the same small grid (2 encodings × 2 seeds) run four ways — inline with one
thread, inline with two threads, a pool of two single-thread worker processes, and a fresh
single-thread process per run — wall-clock time each.

``--grid``: the default grid (copy, trained on lengths ≤ 20, evaluated at 10/20/25/30/40, all
six encodings × 3 seeds, the CLI's defaults) in the default mode; prints the time and the
measured accuracy table.  ``--seeds 1`` runs one seed (and says the 3-seed time is
extrapolated).  Time is printed with the load average, never asserted.

Run: OMP_NUM_THREADS=1 .venv/bin/python -m tests.bench.bench_lab --modes
     OMP_NUM_THREADS=1 .venv/bin/python -m tests.bench.bench_lab --grid [--seeds 1] [-o DIR]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from dataclasses import replace

import torch

from peapp.lab import grid as lab_grid
from peapp.lab import results
from peapp.lab.train import TrainSettings


def _load() -> str:
    with open("/proc/loadavg") as fh:
        return "load " + " ".join(fh.read().split()[:3])


def compare_modes(steps: int) -> None:
    spec = lab_grid.GridSpec(encodings=("rope", "alibi"), rope_scalings=(), train_length=20,
                             eval_lengths=(20,), seeds=2, train=TrainSettings(steps=steps, eval_samples=64))
    print(f"{len(spec.runs())} runs × {steps} steps (copy, lengths ≤ 20), 2 cores; {_load()}")
    ways = [("inline, 1 thread", "inline", 1), ("inline, 2 threads", "inline", 2),
            ("pool of 2 single-thread processes", "pool", 1), ("a fresh process per run (2 at a time)", "process", 1)]
    for label, mode, threads in ways:
        torch.set_num_threads(threads)
        with tempfile.TemporaryDirectory() as folder:
            start = time.perf_counter()
            outcome = lab_grid.run_grid(spec, folder, workers=2, mode=mode)
            seconds = time.perf_counter() - start
        assert len(outcome.finished) == len(spec.runs()), outcome.failed
        print(f"  {label:40s} {seconds:7.1f} s   ({_load()})", flush=True)
    torch.set_num_threads(1)


def default_grid(seeds: int, folder: str | None) -> None:
    spec = replace(lab_grid.GridSpec(), seeds=seeds)
    runs = spec.runs()
    estimate = lab_grid.estimate_seconds(spec, workers=2)
    print(f"default grid: {len(runs)} runs (6 encodings × {seeds} seeds; NoPE {spec.steps_for('nope')} steps, "
          f"others {spec.train.steps}), estimate {estimate / 60:.1f} min; {_load()}", flush=True)
    folder = folder or tempfile.mkdtemp(prefix="bench-lab-")
    start = time.perf_counter()
    last = [0.0]

    def progress(event):
        if event["type"] == "done" or time.perf_counter() - last[0] > 60:
            last[0] = time.perf_counter()
            print(f"  {time.perf_counter() - start:6.0f} s  {event['type']} {event['run_id']}  ({_load()})",
                  file=sys.stderr, flush=True)

    outcome = lab_grid.run_grid(spec, folder, workers=2, mode="pool", on_event=progress)
    seconds = time.perf_counter() - start
    print(f"finished {len(outcome.finished)} runs in {seconds / 60:.1f} min ({_load()}); results in {folder}")
    if seeds != 3:
        print(f"EXTRAPOLATED, not measured: 3 seeds ≈ {seconds * 3 / seeds / 60:.1f} min")
    print(results.format_table(outcome.summary))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--modes", action="store_true", help="compare the ways of running runs")
    parser.add_argument("--steps", type=int, default=300, help="--modes: steps per run")
    parser.add_argument("--grid", action="store_true", help="run the default grid")
    parser.add_argument("--seeds", type=int, default=3, help="--grid: seeds (3 = the full default grid)")
    parser.add_argument("-o", "--output", default=None, help="--grid: results folder (default: a temp folder)")
    args = parser.parse_args(argv)
    if os.environ.get("OMP_NUM_THREADS") != "1":
        print("note: OMP_NUM_THREADS is not 1 in this process", file=sys.stderr)
    if args.modes:
        compare_modes(args.steps)
    if args.grid:
        default_grid(args.seeds, args.output)
    if not (args.modes or args.grid):
        parser.print_help()
    return 0


if __name__ == "__main__":
    sys.exit(main())
