"""``peapp render heatmap`` at 100,000 positions against the default render, per family, each a
cold process (``bench_render``'s ``_timed``), the two interleaved so that the machine's drift
hits both alike.  The target (issue: a new user's notes, "Also slow"): at most 1.5× the default.

Prints numbers; asserts nothing.  Run: ``python -m tests.bench.bench_render_positions [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile

from tests.bench.bench_render import _timed

FAMILIES = ("sinusoidal", "learned", "rope", "alibi", "t5", "shaw", "nope")
POSITIONS = 100_000


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--families", default=",".join(FAMILIES))
    parser.add_argument("--format", default="png")
    args = parser.parse_args(argv)
    print(f"load: {os.getloadavg()[0]:.2f}")
    print(f"{'family':<12}{'default s':>10}{f'{POSITIONS:,} s':>12}{'ratio':>7}   (medians of {args.repeats} cold "
          f"`peapp render heatmap --encoding F [--F-n-positions {POSITIONS}] -o x.{args.format}`)")
    with tempfile.TemporaryDirectory() as folder:
        for family in args.families.split(","):
            base = [sys.executable, "-m", "peapp", "render", "heatmap", "--encoding", family, "--force"]
            short, long = [], []
            for i in range(args.repeats):
                short.append(_timed(base + ["-o", os.path.join(folder, f"{family}-{i}.{args.format}")]))
                table = [f"--{family}-max-positions", str(POSITIONS)] if family == "learned" else []  # its rows
                long.append(_timed(base + table + [f"--{family}-n-positions", str(POSITIONS),
                                           "-o", os.path.join(folder, f"{family}-long-{i}.{args.format}")]))
            a, b = statistics.median(short), statistics.median(long)
            print(f"{family:<12}{a:>10.2f}{b:>12.2f}{b / a:>7.2f}", flush=True)
    print(f"load: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
