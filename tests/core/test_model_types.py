"""The one model-type table (issue 30): checkpoint detection and the model loader read the same row."""

import json

import pytest


def test_mpt_is_alibi_for_inspect_as_for_a_run_whatever_its_attn_config_says(tmp_path):
    """transformers' MPT adds ALiBi in every case (MptModel builds the bias unconditionally); the
    loader said so, but detection had its own list (BLOOM only) and found nothing in an MPT config
    whose attn_config says alibi false."""
    import transformers

    from peapp.checkpoints import inspect
    from peapp.model_run.layers import uses_alibi

    settings = {"d_model": 16, "n_heads": 4, "n_layers": 1, "max_seq_len": 64, "attn_config": {"alibi": False}}
    (tmp_path / "config.json").write_text(json.dumps({"model_type": "mpt", **settings}))
    assert [c.kind for c in inspect(str(tmp_path)).components] == ["alibi"]
    assert uses_alibi(transformers.MptConfig(**settings))
    source = transformers.models.mpt.modeling_mpt.MptModel.forward
    import inspect as python_inspect

    assert "alibi = self.build_mpt_alibi_tensor" in python_inspect.getsource(source)  # unconditional


@pytest.mark.parametrize("model_type", ["gpt2", "bert", "roberta", "distilbert", "opt", "xlm-roberta", "electra"])
def test_a_learned_table_starts_where_inspect_and_the_run_both_read_it(model_type):
    from peapp import model_types

    row = model_types.get(model_type)
    assert row.scheme == "learned" and row.position_table
    # RoBERTa-style tables start after the padding row; fairseq-style after two rows
    want = None if "roberta" in model_type else 2 if model_type == "opt" else 0
    assert row.position_offset == want


def test_aliases_and_unknown_types():
    from peapp import model_types
    from peapp.checkpoints.hf_config import canonical_model_type

    assert canonical_model_type({"model_type": "RefinedWebModel"}) == "falcon"
    assert model_types.get("RefinedWeb").scheme == "rope"
    unknown = model_types.get("no-such-model")
    assert unknown.scheme is None and unknown.position_offset == 0 and not unknown.encoder
