"""One row per benchmark case for ``make bench``'s single table (tests/bench/run_all.py).

A bench script calls ``start_case()`` before a case (resets this process's peak-RSS mark, notes
the load) and ``record(...)`` after it.  Rows go as JSON lines to the file named by
$PEAPP_BENCH_TABLE when run_all set it; run on its own, a script just prints its usual output.
"""

from __future__ import annotations

import json
import os

_started_load: list[float] = []


def load() -> float:
    """The 1-minute load average (runnable tasks; the machine has os.cpu_count() CPUs)."""
    return os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")


def peak_rss_mb() -> float:
    """This process's peak resident memory since the last start_case() (VmHWM), in MB."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def start_case() -> None:
    """Reset the peak-RSS mark (Linux: write 5 to clear_refs) so the next row's peak is its own."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
    except OSError:
        pass
    _started_load[:] = [load()]


def record(case: str, ours_s: float, peer_s: float | None = None, *, peer: str = "",
           peak_mb: float | None = None, note: str = "") -> None:
    """One table row: our time, the peer's (same run) if there is one, peak RSS and load."""
    path = os.environ.get("PEAPP_BENCH_TABLE")
    if not path:
        return
    end = load()
    row = {"case": case, "ours_s": ours_s, "peer_s": peer_s, "peer": peer,
           "peak_mb": peak_rss_mb() if peak_mb is None else peak_mb,
           "load": max(_started_load + [end]), "note": note}
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")
