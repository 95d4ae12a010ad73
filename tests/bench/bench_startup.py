"""Benchmark: start-up of the desktop app — process start → window visible → every panel present
→ backend ready → the default heatmap drawn.

Starts the app in a subprocess with PEAPP_STARTUP_PROBE=1 (ui/startup_probe.py prints wall-clock
stamps at ``main``, first paint of the window, that paint with every panel in it, backend ready
and the heatmap's first picture painted, then quits) and subtracts the moment the process was
started; the machine's load is printed beside each run, and the peer, a bare
``python -c "import torch"`` run before each, is the heatmap's ratio (this machine's speed drifts
by tens of percent in minutes).  ``--offscreen`` uses Qt's offscreen platform even when a display
could be had.  Needs a display: uses $DISPLAY if set, else starts its own Xvfb
(installed with the `xvfb` package), else falls back to the offscreen platform and says so.
Settings go to a throw-away folder, never the user's.  Targets (issue 8): window visible < 2 s;
(issue 20): panels present < 1 s, heatmap drawn < 3 s on an idle machine.

    .venv/bin/python -m tests.bench.bench_startup                 # python main.py
    .venv/bin/python -m tests.bench.bench_startup --exe dist/peapp/peapp --runs 3   # the bundle
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def display(offscreen: bool = False):
    """Yield (environment overrides, description) for a real X display when one can be had."""
    if offscreen:
        yield {"QT_QPA_PLATFORM": "offscreen"}, "offscreen platform"
        return
    if os.environ.get("DISPLAY"):
        yield {}, f"DISPLAY={os.environ['DISPLAY']}"
        return
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        yield {"QT_QPA_PLATFORM": "offscreen"}, "offscreen platform (no Xvfb found: install xvfb for real numbers)"
        return
    number = 90 + os.getpid() % 100
    server = subprocess.Popen([xvfb, f":{number}", "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(1.0)  # let the server accept connections
        yield {"DISPLAY": f":{number}", "QT_QPA_PLATFORM": "xcb"}, f"Xvfb :{number} 1600x1000"
    finally:
        server.terminate()
        server.wait(10)


def one_run(command: list[str], env: dict[str, str], timeout: float) -> dict[str, float]:
    started = time.time()
    result = subprocess.run(command, env=env, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    stamps = {}
    for line in result.stdout.splitlines():
        parts = line.split()
        if len(parts) == 3 and parts[0] == "peapp-probe":
            stamps[parts[1]] = float(parts[2]) - (0 if parts[1] == "backend-seconds" else started)
    if result.returncode != 0 or "heatmap-drawn" not in stamps:
        tail = (result.stderr.strip().splitlines() or ["(no output)"])[-1]
        raise SystemExit(f"start-up run failed (exit {result.returncode}): {tail}")
    stamps["exit"] = time.time() - started
    return stamps


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--exe", help="start this executable (e.g. dist/peapp/peapp) instead of python main.py")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--offscreen", action="store_true", help="Qt's offscreen platform, even with a display")
    args = parser.parse_args(argv)
    command = [str(Path(args.exe).resolve())] if args.exe else [sys.executable, str(ROOT / "main.py")]
    with tempfile.TemporaryDirectory(prefix="peapp-bench-startup-") as config, display(args.offscreen) as (overrides, where):
        env = {**os.environ, **overrides, "PEAPP_STARTUP_PROBE": "1", "XDG_CONFIG_HOME": config}
        print(f"start-up of {' '.join(command)}  on {where}")
        print(f"{'run':>4} {'main() entered':>15} {'window visible':>15} {'panels present':>15} "
              f"{'backend ready':>14} {'(imports on worker)':>20} {'heatmap drawn':>14} {'exit':>8} {'load':>5}")
        runs, peers = [], []
        for i in range(args.runs):
            load = os.getloadavg()[0]
            # the peer beside each run: this machine's speed drifts by tens of percent in minutes
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", "import torch"], cwd=ROOT, check=True, timeout=300)
            peers.append(time.perf_counter() - started)
            stamps = one_run(command, env, timeout=300)
            runs.append(stamps)
            print(f"{i + 1:>4} {stamps.get('main', float('nan')):>14.2f}s {stamps['window-visible']:>14.2f}s "
                  f"{stamps.get('panels-present', float('nan')):>14.2f}s {stamps['backend-ready']:>13.2f}s "
                  f"{stamps.get('backend-seconds', float('nan')):>19.2f}s {stamps['heatmap-drawn']:>13.2f}s "
                  f"{stamps['exit']:>7.2f}s {load:>5.1f}")
        from tests.bench import table as bench_table

        peer = statistics.median(peers)
        print(f"peer, before each run: python -c 'import torch'  median {peer:.2f} s")
        for key, label in (("window-visible", "window visible"), ("panels-present", "panels present"),
                           ("backend-ready", "backend ready"), ("heatmap-drawn", "heatmap drawn")):
            values = [r.get(key, float("nan")) for r in runs]
            print(f"median {label}: {statistics.median(values):.2f} s  (first run {values[0]:.2f} s, "
                  f"best {min(values):.2f} s)")
            bench_table.record(f"start-up: {label}", statistics.median(values), peak_mb=float("nan"),
                               peer_s=peer if key == "heatmap-drawn" else None,
                               peer="python -c 'import torch'" if key == "heatmap-drawn" else "",
                               note=f"median of {len(values)}, {where.split(' (')[0]}")

if __name__ == "__main__":
    main()
