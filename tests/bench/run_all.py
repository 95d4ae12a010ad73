"""``make bench``: run every benchmark script in this folder and print ONE table.

Each script runs in its own subprocess; its own detailed output goes to a log file (named at the
end), and every case it measures becomes one row: our time, the peer's time measured in the
same run (transformers, the seed article's module, …) and the ratio, the peak RSS of the
process while that case ran, and the machine's 1-minute load average while it ran (the
largest seen at its start and end; this machine is shared, so compare ratios, not seconds).

    python -m tests.bench.run_all                 # everything
    python -m tests.bench.run_all heatmap rope    # only bench_heatmap and bench_rope
"""

from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time


def _seconds(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value * 1000:.1f} ms" if value < 1 else f"{value:.2f} s"


def print_table(rows: list[dict], out=sys.stdout) -> None:
    header = ("case", "ours", "peer", "ratio", "peak RSS", "load")
    cells = []
    for r in rows:
        ratio = f"{r['ours_s'] / r['peer_s']:.2f}×" if r.get("peer_s") else "—"
        peer = _seconds(r.get("peer_s"))
        if r.get("peer") and r.get("peer_s"):
            peer += f" ({r['peer']})"
        case = r["case"] + (f" [{r['note']}]" if r.get("note") else "")
        cells.append((case, _seconds(r["ours_s"]), peer, ratio, (f"{r['peak_mb']:.0f} MB" if r['peak_mb'] == r['peak_mb'] else "—"), f"{r['load']:.1f}"))
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(header)]
    line = "  ".join(h.ljust(w) if i in (0, 2) else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths)))
    print(line, file=out)
    print("-" * len(line), file=out)
    for c in cells:
        print("  ".join(v.ljust(w) if i in (0, 2) else v.rjust(w) for i, (v, w) in enumerate(zip(c, widths))),
              file=out)


def main(argv: list[str]) -> int:
    here = pathlib.Path(__file__).parent
    scripts = sorted(here.glob("bench_*.py"))
    if argv:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in argv or s.stem in argv]
    log_fd, log_path = tempfile.mkstemp(prefix="peapp-bench-", suffix=".log")
    os.close(log_fd)
    rows: list[dict] = []
    failed = []
    print(f"{len(scripts)} benchmark scripts on {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.1f} at the start "
          f"(detailed output: {log_path})", flush=True)
    started = time.perf_counter()
    for script in scripts:
        with tempfile.NamedTemporaryFile("r", suffix=".jsonl") as table, open(log_path, "a") as log:
            log.write(f"\n=== {script.stem} ===\n")
            log.flush()
            env = {**os.environ, "PEAPP_BENCH_TABLE": table.name}
            proc = subprocess.run([sys.executable, "-m", f"tests.bench.{script.stem}"], cwd=here.parent.parent,
                                  env=env, stdout=log, stderr=subprocess.STDOUT)
            found = [json.loads(line) for line in table.read().splitlines() if line.strip()]
        for row in found:
            row["case"] = f"{script.stem.removeprefix('bench_')}: {row['case']}"
        rows += found
        if proc.returncode != 0:
            failed.append(script.stem)
        print(f"  {script.stem}: {len(found)} cases{' — FAILED, see the log' if proc.returncode else ''}",
              file=sys.stderr, flush=True)
    print()
    print_table(rows)
    print(f"\n{len(rows)} cases in {time.perf_counter() - started:.0f} s; load {os.getloadavg()[0]:.1f} at the end. "
          f"ratio = ours / peer (below 1: faster than the peer). Details: {log_path}")
    if failed:
        print(f"failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
