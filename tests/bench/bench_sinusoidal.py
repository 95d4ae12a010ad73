"""Benchmark: ``sinusoidal.table`` vs the seed article's own PyTorch module, same run.

The peer is the article's ``PositionalEncoding.__init__`` as written there (zeros, exp of the
frequencies, sin/cos of position · div_term into the even/odd columns).  The floor is writing
a fresh table of the same size (allocate + fill: page faults and memory bandwidth).  Runs are
interleaved (ours, peer, floor, ours, …) so all see the same load; medians printed, plus the
worst error of both against float64 on sampled rows.  Nothing is asserted.
Run: python -m tests.bench.bench_sinusoidal
"""

from __future__ import annotations

import math
import statistics
import time

import numpy as np
import torch

from tests.bench import table as bench_table

SIZES = [(100_000, 1024), (4096, 512)]
REPEATS = 7


def article_table(max_len: int, d_model: int) -> torch.Tensor:
    """The seed article's PositionalEncoding.__init__, verbatim but for the buffer."""
    pe = torch.zeros(max_len, d_model)
    position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
    div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
    pe[:, 0::2] = torch.sin(position * div_term)
    pe[:, 1::2] = torch.cos(position * div_term)
    return pe


def fresh_write(n: int, d: int) -> torch.Tensor:
    """The floor: a new table of the same size written once (numpy's huge-page allocation)."""
    out = torch.from_numpy(np.empty((n, d), dtype=np.float32))
    out.fill_(0.5)
    return out


def worst_error(t: torch.Tensor, d: int) -> float:
    rows = torch.cat((torch.arange(0, t.shape[0], 97), torch.arange(max(0, t.shape[0] - 64), t.shape[0])))
    from peapp.encodings.sinusoidal import inv_freq

    angles = rows.to(torch.float64).reshape(-1, 1) * inv_freq(d).reshape(1, -1)
    ref = torch.stack((torch.sin(angles), torch.cos(angles)), dim=-1).reshape(len(rows), d)
    return float((t[rows].to(torch.float64) - ref).abs().max())


def main() -> None:
    from peapp.encodings import sinusoidal

    print(f"sinusoidal tables, float32, {torch.get_num_threads()} torch threads, median of {REPEATS} interleaved runs, "
          f"load {bench_table.load():.1f}")
    print(f"{'size':>16} {'ours ms':>9} {'article ms':>11} {'ratio':>7} {'floor ms':>9} {'ours/floor':>10} "
          f"{'ours err':>9} {'article err':>11}")
    for n, d in SIZES:
        fns = {"ours": lambda n=n, d=d: sinusoidal.table(n, d), "article": lambda n=n, d=d: article_table(n, d),
               "floor": lambda n=n, d=d: fresh_write(n, d)}
        times: dict[str, list[float]] = {k: [] for k in fns}
        peaks: dict[str, float] = {}
        bench_table.start_case()
        for _ in range(REPEATS + 1):
            for name, fn in fns.items():
                bench_table.start_case()
                start = time.perf_counter()
                result = fn()
                times[name].append(time.perf_counter() - start)
                peaks[name] = max(peaks.get(name, 0.0), bench_table.peak_rss_mb())
                del result
        med = {k: statistics.median(v[1:]) for k, v in times.items()}  # the first run warms up
        ours_err, article_err = worst_error(sinusoidal.table(n, d), d), worst_error(article_table(n, d), d)
        print(f"{n:>8,}×{d:<7,} {med['ours'] * 1e3:>9.1f} {med['article'] * 1e3:>11.1f} "
              f"{med['ours'] / med['article']:>6.2f}× {med['floor'] * 1e3:>9.1f} {med['ours'] / med['floor']:>9.2f}× "
              f"{ours_err:>9.1e} {article_err:>11.1e}")
        bench_table.record(f"sinusoidal.table({n:,}, {d})", med["ours"], med["article"], peer="article's module",
                           peak_mb=peaks["ours"], note=f"err {ours_err:.0e} vs {article_err:.0e}")
        bench_table.record(f"  floor: write a fresh {n * d * 4 / 1e6:.0f} MB table", med["floor"],
                           peak_mb=peaks["floor"], note=f"ours = {med['ours'] / med['floor']:.2f}× floor")
    print(f"load {bench_table.load():.1f} at the end")


if __name__ == "__main__":
    main()
