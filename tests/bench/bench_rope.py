"""Benchmark: RoPE cos/sin tables for 131,072 positions × head_dim 128, ours vs transformers.

Both run in the same process on the same threads: peapp's ``RopeSpec.cos_sin`` and
transformers' ``LlamaRotaryEmbedding`` forward (the module a Llama model calls), for a plain
and a Llama-3.1 (llama3-scaled) config.  Prints median and min times in ms and checks the
tables are equal (the comparison is the point; time is printed, never asserted).
Run: .venv/bin/python -m tests.bench.bench_rope
"""

from __future__ import annotations

import statistics
import time

import torch

from tests.bench import table as bench_table

POSITIONS = 131_072
HEAD_DIM = 128
REPEATS = 15

CONFIGS = {
    "default (base 1e4)": dict(hidden_size=4096, num_attention_heads=32, max_position_embeddings=131072,
                               rope_theta=10000.0),
    "llama3 ×8 (Llama-3.1)": dict(hidden_size=4096, num_attention_heads=32, max_position_embeddings=131072,
                                  rope_theta=500000.0,
                                  rope_scaling=dict(rope_type="llama3", factor=8.0, low_freq_factor=1.0,
                                                    high_freq_factor=4.0, original_max_position_embeddings=8192)),
    "yarn ×4 (Qwen2.5)": dict(hidden_size=4096, num_attention_heads=32, max_position_embeddings=131072,
                              rope_theta=1e6, rope_scaling=dict(type="yarn", factor=4.0,
                                                                original_max_position_embeddings=32768)),
}


def _time_pair(a, b) -> tuple[list[float], list[float]]:
    """Interleaved timings (a, b, a, b, …) so both see the same load on a shared machine."""
    a(), b()  # warm-up
    times_a, times_b = [], []
    for _ in range(REPEATS):
        for fn, times in ((a, times_a), (b, times_b)):
            start = time.perf_counter()
            fn()
            times.append((time.perf_counter() - start) * 1000)
    return times_a, times_b


def main() -> None:
    from transformers import AutoConfig
    from transformers.models.llama.modeling_llama import LlamaRotaryEmbedding

    from peapp.encodings.rope import RopeSpec

    print(f"cos/sin tables, {POSITIONS:,} positions × head_dim {HEAD_DIM}, float32, "
          f"{torch.get_num_threads()} torch threads, {REPEATS} runs each, interleaved")
    print(f"{'config':>24} {'ours median':>12} {'ours min':>9} {'HF median':>10} {'HF min':>8} {'speed-up':>9} equal")
    positions = torch.arange(POSITIONS)
    for name, cfg in CONFIGS.items():
        spec = RopeSpec.from_hf_config(cfg)
        module = LlamaRotaryEmbedding(AutoConfig.for_model("llama", **cfg))
        x = torch.zeros(1, dtype=torch.float32)
        ids = positions[None]

        def ours(spec=spec):  # bound now: the loop moves on
            return spec.cos_sin(positions)

        def theirs(module=module, x=x, ids=ids):
            return module(x, ids)

        bench_table.start_case()
        ours_t, hf_t = _time_pair(ours, theirs)
        ours_med, ours_min = statistics.median(ours_t), min(ours_t)
        hf_med, hf_min = statistics.median(hf_t), min(hf_t)
        cos, sin = ours()
        cos_hf, sin_hf = theirs()
        equal = torch.equal(cos, cos_hf[0]) and torch.equal(sin, sin_hf[0])
        print(f"{name:>24} {ours_med:>10.1f}ms {ours_min:>7.1f}ms {hf_med:>8.1f}ms {hf_min:>6.1f}ms "
              f"{hf_med / ours_med:>8.2f}× {equal}")
        bench_table.record(f"RoPE cos/sin {POSITIONS:,} × {HEAD_DIM}, {name}", ours_med / 1000, hf_med / 1000,
                           peer="LlamaRotaryEmbedding", note="equal" if equal else "NOT equal")


if __name__ == "__main__":
    main()
