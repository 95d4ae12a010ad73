"""Running a benchmark case in a fresh Python process, and reading what it measured.

A case's code is a script run with ``python -c``: ``CHILD_PREAMBLE`` gives it ``rss(field)``
(bytes of a /proc/self/status line: ``VmRSS:`` now, ``VmHWM:`` the peak), ``cpu()`` (user +
system seconds) and ``reset_peak()`` (so a run's peak is its own); it prints one JSON line last,
which :func:`run_child` returns (or ``{"error": …}`` when the process failed).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

CHILD_PREAMBLE = r"""
import json, math, os, resource, sys, time
def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024
    return 0
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
def reset_peak():
    try:
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:
        pass
"""

# A model-run case's common part, for the scripts of bench_model_run and bench_dtypes (after the
# preamble): ``settle(loaded, out)`` pages the loaded weights in (a run's memory is what it adds
# beyond them), notes ``rss_loaded`` and resets the peak; ``run_ours`` times peapp's run + every
# statistic; ``run_eager`` times transformers' eager ``output_attentions=True`` and returns its
# output (None, with ``out["error"]``, when it ran out of memory); ``finish`` notes the token count,
# the peak RSS and the load, and prints the JSON line.
MODEL_CASE = r"""
def settle(loaded, out):
    import torch
    with torch.no_grad():
        for p in loaded.model.parameters():
            float(p.sum())
    out["rss_loaded"] = rss("VmRSS:")
    reset_peak()
def run_ours(loaded, ids, tokens, out):
    from peapp.model_run import RunOptions, run_model
    t, c = time.perf_counter(), cpu()
    r = run_model(loaded, ids, RunOptions(layer=3, head=0), tokens=tokens)
    out.update(run_s=time.perf_counter() - t, run_cpu=cpu() - c, perplexity=r.perplexity)
def run_eager(loaded, ids, out):
    import torch
    model = loaded.model
    model.set_attn_implementation("eager")
    t, c = time.perf_counter(), cpu()
    try:
        with torch.no_grad():
            o = model(torch.tensor([ids]), output_attentions=True)
    except (MemoryError, RuntimeError) as exc:
        out["error"] = f"{type(exc).__name__}: {str(exc)[:120]}"
        return None
    out.update(run_s=time.perf_counter() - t, run_cpu=cpu() - c)
    return o
def finish(ids, out):
    out["n"] = len(ids)
    out["peak_rss"] = rss("VmHWM:")
    out["loadavg_end"] = os.getloadavg()[0]
    print(json.dumps(out))
"""


def run_child(script: str, args: list[str], threads: int = 1) -> dict:
    """Run ``CHILD_PREAMBLE + script`` with ``args`` and ``threads`` OpenMP threads; its last JSON line."""
    # OMP_WAIT_POLICY as the app sets it (ui.application.quiet_openmp): spinning OpenMP workers cost 3–5× the CPU
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS=str(threads), HF_HUB_OFFLINE="1", TQDM_DISABLE="1",
               OMP_WAIT_POLICY=os.environ.get("OMP_WAIT_POLICY", "PASSIVE"))
    proc = subprocess.run([sys.executable, "-c", CHILD_PREAMBLE + script, *args], check=False,
                          capture_output=True, text=True, env=env, cwd=ROOT)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["killed"])[-1], "returncode": proc.returncode}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def mb(x: float) -> str:
    return f"{x / 2**20:,.0f} MB"


def load_range(r: dict) -> str:
    """The 1-minute load average at the start → end of a case."""
    return f"load {r.get('loadavg_start', float('nan')):.1f}→{r.get('loadavg_end', float('nan')):.1f}"
