"""Benchmark of the attention inspector's views: time and peak memory per case.

Each case runs in its own subprocess so its peak resident memory (getrusage ru_maxrss) is its
own.  Prints one line per case; never asserts on time (targets from issue 4: 4,096 tokens ×
8 heads full view < 0.5 s; 65,536 tokens pooled whole range < 5 s, zoomed region < 1 s; peak
< 2 GB).

    python -m tests.bench.bench_attention            # all cases
    python -m tests.bench.bench_attention CASE ...   # some of them
"""

from __future__ import annotations

import json
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

    names = argv or list(CASES)
    print(f"torch threads {torch.get_num_threads()}, load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} CPUs (wall times on a shared machine vary; CPU time is steadier)")
    for name in names:
        proc = subprocess.run([sys.executable, "-m", "tests.bench.bench_attention", "--case", name],
                              capture_output=True, text=True)
        if proc.returncode:
            print(f"{name}: failed\n{proc.stderr}")
            continue
        r = json.loads(proc.stdout.strip().splitlines()[-1])
        extra = f" (after {r['first_view_seconds']:.2f} s of earlier views)" if r["first_view_seconds"] else ""
        print(f"{name:20s} {r['seconds']:6.2f} s wall, {r['cpu_seconds']:6.2f} s CPU{extra}  peak RSS {r['peak_rss_mb']:7.0f} MB  "
              f"est {r['estimated_mb']:5.0f} MB  {r['what']}; {r['reduction']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
