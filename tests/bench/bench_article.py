"""Benchmarks for the article docks' computations (prints numbers; asserts nothing about time).

Run: python -m tests.bench.bench_article
"""

from __future__ import annotations

import os
import tempfile
import time

import numpy as np

from tests.bench import table as bench_table


def _time(label: str, fn, repeat: int = 3) -> None:
    best = float("inf")
    bench_table.start_case()
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    print(f"{label:<60s} {best * 1000:9.1f} ms")
    bench_table.record(label.strip(), best, note=f"best of {repeat}")


def main() -> None:
    from peapp.analysis import extrapolation, timeseries, worked_example

    _time("worked example, d_model 4 (article case)", lambda: worked_example.WorkedExampleRequest().run())
    _time("worked example, RoPE, d_model 512", lambda: worked_example.WorkedExampleRequest(
        scheme="rope", d_model=512, embedding_source="hashed", position=100_000).run())
    _time("worked example, learned table 131072 × 512", lambda: worked_example.WorkedExampleRequest(
        scheme="learned", d_model=512, embedding_source="hashed", max_positions=131_072).run(), repeat=1)
    _time("  … same table again (cached, slider moving)", lambda: worked_example.WorkedExampleRequest(
        scheme="learned", d_model=512, embedding_source="hashed", max_positions=131_072, position=77).run())
    _time("extrapolation 2k → 8k, d 128 / head_dim 128 / 8 heads",
          lambda: extrapolation.ExtrapolationRequest().run())
    _time("extrapolation 4k → 16M, d 1024 / head_dim 256 / 64 heads",
          lambda: extrapolation.ExtrapolationRequest(train_len=4096, eval_len=16_777_216, d_model=1024,
                                                     head_dim=256, n_heads=64).run())
    _time("time series: built-in sample, sinusoidal d 32",
          lambda: timeseries.TimeSeriesRequest().run())

    rows = 200_000
    rng = np.random.default_rng(0)
    stamps = np.cumsum(rng.exponential(60.0, size=rows)) + 1.7e9
    with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False) as fh:
        fh.write("t,v\n")
        for s, v in zip(stamps, rng.normal(size=rows)):
            fh.write(f"{np.datetime_as_string(np.datetime64(int(s), 's'))},{v:.3f}\n")
        path = fh.name
    try:
        _time(f"time series: parse {rows:,}-row ISO CSV", lambda: timeseries.load_csv(path, "t", "v"), repeat=1)
        series = timeseries.load_csv(path, "t", "v")
        for kind in timeseries.ENCODINGS:
            enc = timeseries.TimeEncoding(kind=kind, d_model=64)
            _time(f"time series: summarise {rows:,} rows, {kind}",
                  lambda enc=enc: timeseries.summarise(series, enc), repeat=1)
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
