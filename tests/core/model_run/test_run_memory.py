"""What a run holds in memory, checked by what it computes, never by timing or RSS (issue 33's
"peak RSS at 8,192 tokens in bf16" target; the numbers are tests/bench/bench_dtypes.py's):

- a run keeps no KV cache: it reads each layer's k and v once, and transformers' cache would keep
  every layer's to the end of the forward (SmolLM2 at 8,192 tokens: 377 MB in float32);
- a half-precision run's products come in a few shapes, whatever its number of blocks: oneDNN
  (torch's bf16/fp16 products on a CPU) keeps a JIT kernel of about 550 KB for each shape it has
  run, so one shape per block of a long run cost 290 MB of bf16 at 8,192 tokens, as much again for
  the content term's product, and more for every zoomed region.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from peapp.model_run import RunOptions, load_model, run_model

from .conftest import VOCAB


def _ids(n: int) -> list[int]:
    rng = np.random.default_rng(1)
    return [int(i) for i in rng.integers(1, VOCAB, n)]


def test_a_run_and_a_probe_keep_no_kv_cache(tiny_llama, monkeypatch):
    from transformers import cache_utils

    from peapp.model_run.probes import position_nll

    loaded = load_model(tiny_llama)
    assert loaded.model.config.use_cache  # the model would cache k and v if asked to
    updates = []
    original = cache_utils.Cache.update

    def counting(self, *args, **kwargs):
        updates.append(type(self).__name__)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cache_utils.Cache, "update", counting)
    run_model(loaded, _ids(48), RunOptions(map_bins=16))
    position_nll(loaded, _ids(48))
    assert updates == []


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
def test_half_precision_products_take_a_few_shapes_however_many_blocks(tiny_llama, monkeypatch, dtype):
    import torch

    from peapp.model_run import blocks

    # blocks of 16 rows, as an 8,192-token run of SmolLM2 has from its 456th row on: many blocks,
    # every one with its own number of keys
    monkeypatch.setattr(blocks, "BLOCK_ENTRIES", 4096)
    n = 600
    loaded = load_model(tiny_llama, dtype=dtype)
    half = getattr(torch, dtype)
    shapes: set[tuple] = set()

    def spy(name):
        original = getattr(torch, name)

        def product(a, b, *args, **kwargs):
            if a.dtype == half or b.dtype == half:
                shapes.add((name, tuple(a.shape), tuple(b.shape)))
            return original(a, b, *args, **kwargs)

        return product

    monkeypatch.setattr(torch, "bmm", spy("bmm"))
    monkeypatch.setattr(torch, "matmul", spy("matmul"))
    run = run_model(loaded, _ids(n), RunOptions(layer=1, head=0, map_bins=64, keep_all=True, keep_budget=1 << 30))
    assert run.logit_map is not None and run.kept is not None and run.kept.can_zoom(0)
    assert run.kept.qk[0].q.dtype == half  # kept in the run's dtype
    assert len(blocks._row_blocks(n, loaded.model.config.num_attention_heads, True)) > 30
    for r0, r1, c0, c1 in ((0, 37, 0, 37), (100, 211, 5, 190), (333, 600, 17, 599)):  # zooms: regions of any size
        run.kept.head_map(0, 1, window=((r0, r1), (c0, c1)), bins=32)
    # weights · v over keys padded to a multiple of HALF_PRODUCT_KEYS (or all n), in two block heights
    assert len(shapes) <= 2 * math.ceil(n / blocks.HALF_PRODUCT_KEYS), sorted(shapes)
