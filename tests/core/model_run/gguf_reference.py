"""transformers' own GGUF path, as the reference the GGUF open is checked against."""

from __future__ import annotations

import os

import numpy as np
import torch


def assert_same_as_gguf_reader(path: str, theirs=None) -> None:
    """peapp's Fields present ``path`` exactly as gguf.GGUFReader does (what transformers reads)."""
    from gguf import GGUFReader
    from transformers.integrations.ggml import _gguf_parse_value

    from peapp.model_run.gguf_fields import Fields

    ours, theirs = Fields(path), theirs or GGUFReader(path)
    assert list(ours.fields) == list(theirs.fields)
    for key, field in theirs.fields.items():
        mine = ours.fields[key]
        assert list(mine.types) == list(field.types) and list(mine.data) == list(field.data), key
        for i in field.data:
            assert _gguf_parse_value(mine.parts[i], mine.types) == _gguf_parse_value(field.parts[i], field.types)
        for i in range(min(3, len(field.parts))):
            np.testing.assert_array_equal(np.asarray(mine.parts[i]), np.asarray(field.parts[i]))
    assert [t.name for t in ours.tensors] == [t.name for t in theirs.tensors]
    for mine, tensor in zip(ours.tensors, theirs.tensors):
        assert (mine.tensor_type, mine.n_elements, mine.n_bytes, mine.data_offset) == (
            tensor.tensor_type, tensor.n_elements, tensor.n_bytes, tensor.data_offset)
        assert list(mine.shape) == list(tensor.shape) and mine.data.dtype == tensor.data.dtype
        np.testing.assert_array_equal(mine.data, tensor.data)


def transformers_gguf_load(path: str, reader=None):
    """transformers' own GGUF load (config, dequantised weights), through the real GGUFReader
    read once instead of once per step."""
    import transformers
    from gguf import GGUFReader

    from peapp.model_run.gguf_fields import fast_gguf_reader

    folder, name = os.path.split(path)
    with fast_gguf_reader(reader or GGUFReader(path), path):
        config = transformers.AutoConfig.from_pretrained(folder, gguf_file=name)
        model = transformers.AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32,
                                                                  attn_implementation="eager")
        tokenizer = transformers.AutoTokenizer.from_pretrained(folder, gguf_file=name)
    return config, model.eval(), tokenizer

