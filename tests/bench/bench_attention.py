"""Benchmark of the attention inspector's views: time and peak memory per case.

Each case runs in its own subprocess so its peak resident memory (getrusage ru_maxrss) is its
own; the time is that of the first view in a fresh process (the model is built inside it).
Prints one line per case; never asserts on time (targets from issue 4: 4,096 tokens × 8 heads
full view < 0.5 s; 65,536 tokens pooled whole range < 5 s, zoomed region < 1 s; peak < 2 GB).

"Full view" (the 4k cases) is what the dock requests for the whole matrix: every one of the
H × L × L entries computed exactly, pooled to 512 × 512 cells (mean of 8 × 8 entries), plus the
distance profile, the entropy of every query, the attention each key receives and the last
query's weights.

On a shared machine wall times vary a lot: ``--repeat N`` runs every case N times and prints the
median (and the range) of wall and CPU time, with the load average before and after.

    python -m tests.bench.bench_attention                 # all cases
    python -m tests.bench.bench_attention CASE ...        # some of them
    python -m tests.bench.bench_attention --repeat 5 ...  # medians of 5 runs
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time

# name -> (spec values, view arguments, warm-up view arguments or None, what it measures)
CASES = {
    "4k-full-causal": (dict(seq_len=4096, n_heads=8, head_dim=64, scheme="rope", causal=True),
                       dict(kind="softmax"), None, "4,096 tokens × 8 heads, whole matrix, causal"),
    "4k-full-bidir": (dict(seq_len=4096, n_heads=8, head_dim=64, scheme="rope", causal=False),
                      dict(kind="softmax"), None, "4,096 tokens × 8 heads, whole matrix, no mask"),
    "4k-position-alibi": (dict(seq_len=4096, n_heads=8, head_dim=64, scheme="alibi", causal=True),
                          dict(kind="position"), None, "4,096 × 8 heads, ALiBi position term"),
    "64k-pooled-causal": (dict(seq_len=65536, n_heads=8, head_dim=64, scheme="rope", causal=True),
                          dict(kind="softmax"), None, "65,536 tokens × 8 heads, whole range pooled, causal"),
    "64k-pooled-bidir": (dict(seq_len=65536, n_heads=8, head_dim=64, scheme="rope", causal=False),
                         dict(kind="softmax"), None, "65,536 tokens × 8 heads, whole range pooled, no mask"),
    "64k-zoom-causal": (dict(seq_len=65536, n_heads=8, head_dim=64, scheme="rope", causal=True),
                        dict(kind="softmax", rows=(32768, 33280), cols=(32256, 32768), with_profile=False),
                        dict(kind="softmax"),
                        "65,536 × 8 heads, zoom to 512 × 512 at full resolution after the whole view"),
    "64k-zoom-bidir": (dict(seq_len=65536, n_heads=8, head_dim=64, scheme="rope", causal=False),
                       dict(kind="softmax", rows=(32768, 33280), cols=(32768, 33280), with_profile=False),
                       dict(kind="softmax"),
                       "65,536 × 8 heads, zoom to 512 × 512 at full resolution, no mask"),
    "64k-pan-bidir": (dict(seq_len=65536, n_heads=8, head_dim=64, scheme="rope", causal=False),
                      dict(kind="softmax", rows=(32768, 33280), cols=(33280, 33792), with_profile=False),
                      [dict(kind="softmax"),
                       dict(kind="softmax", rows=(32768, 33280), cols=(32768, 33280), with_profile=False)],
                      "65,536 × 8 heads, pan a 512 × 512 zoom sideways (same queries: cached normalisers), no mask"),
}


def run_case(name: str) -> dict:
    import resource

    import torch  # noqa: F401  (imported before timing: ~2 s)

    from peapp.analysis import attention

    spec_values, view_args, warmup, what = CASES[name]
    spec = attention.AttentionSpec(**spec_values)
    warm_s = None
    if warmup is not None:  # zoom after the whole view (and zooms): the dock's real sequence
        t = time.perf_counter()
        for args in warmup if isinstance(warmup, list) else [warmup]:
            attention.attention_view(spec, **args)
        warm_s = time.perf_counter() - t
    before = resource.getrusage(resource.RUSAGE_SELF)
    t = time.perf_counter()
    view = attention.attention_view(spec, **view_args)
    seconds = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    peak = after.ru_maxrss * 1024
    return {"case": name, "what": what, "seconds": seconds, "cpu_seconds": cpu, "first_view_seconds": warm_s,
            "peak_rss_mb": peak / 2**20, "reduction": view.reduction, "cells": list(view.values.shape),
            "estimated_mb": view.estimated_bytes / 2**20}


def main(argv: list[str]) -> int:
    if argv[:1] == ["--case"]:
        print(json.dumps(run_case(argv[1])))
        return 0
    import os

    import torch

    repeat = 1
    if argv[:1] == ["--repeat"]:
        repeat, argv = int(argv[1]), argv[2:]
    names = argv or list(CASES)
    print(f"torch threads {torch.get_num_threads()}, load average {os.getloadavg()[0]:.2f} on "
          f"{os.cpu_count()} CPUs (wall times on a shared machine vary; CPU time is steadier)")
    for name in names:
        runs = []
        for _ in range(repeat):
            proc = subprocess.run([sys.executable, "-m", "tests.bench.bench_attention", "--case", name],
                                  capture_output=True, text=True)
            if proc.returncode:
                print(f"{name}: failed\n{proc.stderr}")
                break
            runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
        if not runs:
            continue
        r = runs[0]
        wall = [x["seconds"] for x in runs]
        cpu = [x["cpu_seconds"] for x in runs]
        spread = f" [{min(wall):.2f}–{max(wall):.2f}]" if repeat > 1 else ""
        label = "median " if repeat > 1 else ""
        extra = f" (after {r['first_view_seconds']:.2f} s of earlier views)" if r["first_view_seconds"] else ""
        print(f"{name:20s} {label}{statistics.median(wall):6.2f} s wall{spread}, {statistics.median(cpu):6.2f} s CPU{extra}  "
              f"peak RSS {max(x['peak_rss_mb'] for x in runs):7.0f} MB  est {r['estimated_mb']:5.0f} MB  "
              f"{r['what']}; {r['reduction']}")
        from tests.bench import table as bench_table

        bench_table.record(name, statistics.median(wall), peak_mb=max(x["peak_rss_mb"] for x in runs),
                           note=f"median of {repeat}, own process" if repeat > 1 else "own process")
    print(f"load average {os.getloadavg()[0]:.2f} at the end")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
