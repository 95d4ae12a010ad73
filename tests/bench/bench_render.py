"""Time to render each view headless from a cold start: ``peapp render VIEW -o FILE`` in a
fresh process (Python start, Qt, the view's dock, compute in a second process that imports torch
meanwhile, paint, write), per format; the peer, a bare `python -c "import torch"`, is what a
process that only imports torch takes.  A render ends without tearing the interpreter down, so
the second peer, `import torch` then ``os._exit`` (no teardown, ~0.2-0.8 s less), is the fairer
floor; peak RSS is the render's own process (the second one holds torch: about the peer's).

Prints numbers; asserts nothing.  Run: ``python -m tests.bench.bench_render``; the issue-20 case
with its peer interleaved: ``python -m tests.bench.bench_render --views heatmap --formats png --repeats 7``.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

from tests.bench import table as bench_table

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
REPEATS = 1  # each run is a cold process of several seconds; the suite's benches share 2 cores
TARGET_REPEATS = 5  # issue 20's target (`peapp render heatmap -o x.png` < 3 s): a median, not one run


_last_peak_mb = [0.0]


def _timed(args: list[str]) -> float:
    """Wall time of a fresh process; its own peak RSS (wait4's rusage) is left in _last_peak_mb."""
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    with tempfile.TemporaryFile("w+") as err:
        started = time.perf_counter()
        proc = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=err, text=True)
        _, status, usage = os.wait4(proc.pid, 0)
        elapsed = time.perf_counter() - started
        proc.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait again
        _last_peak_mb[0] = usage.ru_maxrss / 1024
        if proc.returncode != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(args)} failed: {err.read().strip()}")
    return elapsed


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--views", default="", help="comma-separated views (default: every view)")
    parser.add_argument("--repeats", type=int, default=0,
                        help=f"cold runs per case, each right after a run of the peer (medians of both); default "
                             f"{REPEATS}, and {TARGET_REPEATS} for issue 20's case (heatmap, png)")
    parser.add_argument("--formats", default="png,svg,pdf,csv")
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from ui import export

    views = [v.strip() for v in args.views.split(",") if v.strip()] or list(export.all_views())
    formats = [f.strip() for f in args.formats.split(",") if f.strip()]
    print(f"{'view':<14}{'format':<8}{'median s':>10}{'min s':>8}{'torch s':>9}{'ratio':>7}"
          f"{'import s':>10}{'ratio':>7}   (peapp render VIEW -o FILE, 800x600, 2x; peers: python -c "
          f"'import torch', and the same ending in os._exit (import s), run before each run of a view's first format)")
    with tempfile.TemporaryDirectory() as folder:
        for view in views:
            for fmt in formats:
                times = []
                if fmt == formats[0]:
                    peers, imports = [], []
                repeats = args.repeats or (TARGET_REPEATS if (view, fmt) == ("heatmap", "png") else REPEATS)
                for i in range(repeats):
                    if fmt == formats[0]:  # the peer beside each run: this machine drifts by tens of % in minutes
                        peers.append(_timed([sys.executable, "-c", "import torch"]))
                        imports.append(_timed([sys.executable, "-c", "import os, torch; os._exit(0)"]))
                    out = os.path.join(folder, f"{view}-{i}.{fmt}")
                    try:
                        times.append(_timed([sys.executable, "-m", "peapp", "render", view, "-o", out, "--force"]))
                        peak_mb = _last_peak_mb[0]
                    except RuntimeError as exc:  # a view with nothing to show by default (the lab, a run)
                        if "has nothing to show" not in str(exc):
                            raise
                if not times:
                    print(f"{view:<14}{fmt:<8}   skipped: nothing to show without a session")
                    break
                ours, peer, floor = statistics.median(times), statistics.median(peers), statistics.median(imports)
                print(f"{view:<14}{fmt:<8}{ours:>10.2f}{min(times):>8.2f}{peer:>9.2f}{ours / peer:>7.2f}"
                      f"{floor:>10.2f}{ours / floor:>7.2f}")
                if fmt == "png":  # one row per view in the table (the formats differ by little)
                    bench_table.record(f"peapp render {view} -o x.png (cold process)", ours,
                                       peer, peer="python -c 'import torch'", peak_mb=peak_mb,
                                       note=(f"median of {len(times)}; " if len(times) > 1 else "")
                                       + f"{ours / floor:.2f}× import torch without teardown ({floor:.2f} s); "
                                       "RSS of the render's process, torch's is beside it")
        if args.views:
            return
        started = time.perf_counter()
        _timed([sys.executable, "-m", "peapp", "render", "--all", "-o", os.path.join(folder, "all"),
                "--format", "png,svg,pdf,csv"])
        print(f"--all ({len(views)} views × png,svg,pdf,csv) in one process: {time.perf_counter() - started:.2f} s")


if __name__ == "__main__":
    main()
