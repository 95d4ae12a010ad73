"""GGUF opening reads only the metadata it needs, and a Llama-3 GGUF's rope_freqs.weight is applied."""

import math

import numpy as np
import torch

from peapp.checkpoints import gguf_format, inspect
from peapp.encodings.rope import RopeSpec, rope_family_values


def _write(path, arch, keys, tensors):
    from gguf import GGUFWriter

    w = GGUFWriter(str(path), arch)
    for add in keys:
        add(w)
    for name, array in tensors.items():
        w.add_tensor(name, array)
    w.write_header_to_file()
    w.write_kv_data_to_file()
    w.write_tensors_to_file()
    w.close()


def test_header_walk_matches_gguf_reader_and_skips_the_vocabulary(tmp_path):
    from gguf import GGUFReader

    p = tmp_path / "m.gguf"
    vocab = [f"tok{i}" for i in range(5000)]
    _write(p, "llama", [lambda w: w.add_context_length(64), lambda w: w.add_embedding_length(16),
                        lambda w: w.add_head_count(2), lambda w: w.add_rope_freq_base(5e5),
                        lambda w: w.add_token_list(vocab), lambda w: w.add_string("general.name", "tiny ☃"),
                        lambda w: w.add_array("x.short", [1, 2, 3])],
           {"token_embd.weight": np.arange(80, dtype=np.float32).reshape(5, 16),
            "blk.0.attn_q.weight": np.ones((16, 16), dtype=np.float16)})
    metadata, tensors = gguf_format.read(str(p))
    reader = GGUFReader(str(p), "r")
    for t in reader.tensors:
        ours = tensors[t.name]
        assert (ours.offset, ours.nbytes, ours.dtype) == (int(t.data_offset), int(t.n_bytes), t.tensor_type.name)
        assert ours.shape == tuple(reversed(t.shape.tolist()))
    assert metadata["general.name"] == "tiny ☃" and metadata["x.short"] == [1, 2, 3]
    assert metadata["llama.rope.freq_base"] == 5e5 and metadata["llama.context_length"] == 64
    assert "tokenizer.ggml.tokens" not in metadata  # 5,000 strings: walked over, not decoded
    np.testing.assert_array_equal(gguf_format.load_tensor(tensors["token_embd.weight"]).numpy(),
                                  np.arange(80, dtype=np.float32).reshape(5, 16))


def test_llama3_gguf_rope_freqs_are_applied(tmp_path):
    import transformers
    from transformers.modeling_rope_utils import ROPE_INIT_FUNCTIONS

    config = transformers.LlamaConfig(hidden_size=64, num_attention_heads=2, max_position_embeddings=131072,
                                      rope_parameters={"rope_type": "llama3", "rope_theta": 500000.0, "factor": 8.0,
                                                       "low_freq_factor": 1.0, "high_freq_factor": 4.0,
                                                       "original_max_position_embeddings": 8192})
    truth, _ = ROPE_INIT_FUNCTIONS["llama3"](config, None)
    default = 1.0 / 500000.0 ** (torch.arange(0, 32, 2, dtype=torch.int64).float() / 32)
    factors = (default / truth).numpy().astype(np.float32)  # what llama.cpp's converter writes
    p = tmp_path / "llama3.gguf"
    _write(p, "llama", [lambda w: w.add_context_length(131072), lambda w: w.add_embedding_length(64),
                        lambda w: w.add_head_count(2), lambda w: w.add_rope_freq_base(500000.0),
                        lambda w: w.add_rope_dimension_count(32)],
           {"rope_freqs.weight": factors, "token_embd.weight": np.zeros((5, 64), dtype=np.float32)})
    report = inspect(p)
    rope = next(c for c in report.components if c.kind == "rope")
    assert "rope_freqs.weight" in rope.summary and "default scaling" not in rope.summary
    inv, attention = RopeSpec.from_dict(rope_family_values(rope.params)).inv_freq()
    torch.testing.assert_close(inv, truth.float(), rtol=1e-6, atol=0)
    assert attention == 1.0
    assert not any("rope_freqs" in w for w in report.warnings)


def test_smollm2_sample_opens_from_its_header():
    from tests import samples

    path = samples.smollm2()
    metadata, tensors = gguf_format.read(path)
    assert len(tensors) == 272 and metadata["llama.context_length"] == 8192
    assert math.isclose(metadata["llama.rope.freq_base"], 100000.0)
