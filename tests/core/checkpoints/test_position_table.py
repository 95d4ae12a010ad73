"""Checkpoint tables in the learned family and their analysis (PCA, spectrum, norms)."""

import numpy as np
import pytest
import torch

from peapp.analysis.position_table import TableAnalysisRequest, analyse
from peapp.document import Document
from peapp.encodings import get, sinusoidal
from peapp.errors import ParameterError, PositionOutOfRangeError
from peapp.analysis.heatmap import TableRequest
from peapp.jobs import frozen_params


def test_checkpoint_table_in_the_learned_family(tiny):
    from safetensors import safe_open

    path = tiny["roberta"]
    source = f"{path}::embeddings.position_embeddings.weight"
    doc = Document().with_family("learned").with_params("learned", source=source, offset=2, max_positions=64,
                                                        d_model=16, n_positions=64)
    spec = doc.spec()
    result = TableRequest(family="learned", params=frozen_params(spec.to_dict())).run()
    with safe_open(f"{path}/model.safetensors", framework="pt") as fh:
        expected = fh.get_tensor("embeddings.position_embeddings.weight")[2:]  # RoBERTa skips 2 rows
    np.testing.assert_allclose(result.view.values, expected.numpy(), rtol=0, atol=0)
    assert "Trained learned table" in result.caption
    # position 64 does not exist in a 66-row table with offset 2
    with pytest.raises(PositionOutOfRangeError, match="does not exist"):
        get("learned").rows_at(spec, torch.tensor([64]))
    # sizes that do not match the table are refused with a message
    bad = doc.with_params("learned", max_positions=66, n_positions=10).spec()
    with pytest.raises(ParameterError, match="choose the table again"):
        get("learned").rows_at(bad, torch.tensor([0]))


def test_vision_table_drops_prefix_rows(tiny):
    source = f"{tiny['deit']}::embeddings.position_embeddings"
    result = TableAnalysisRequest(source, offset=2).run()
    assert result.table.shape == (16, 16)  # 18 rows minus CLS and distillation tokens


def test_analysis_of_a_sinusoidal_table_matches_closed_forms():
    n, d = 256, 16
    table = sinusoidal.table(n, d).numpy()
    a = analyse(table)
    assert a.pca.shape == (n, 2) and a.norms.shape == (n,)
    np.testing.assert_allclose(a.norms, np.sqrt(d / 2), rtol=1e-5)  # sin² + cos² = 1 per pair
    np.testing.assert_allclose(a.sinusoidal, table, atol=1e-6)
    # dimension 0 is sin(pos): its spectrum peaks at 1/(2π) cycles per position
    peak = a.frequencies[np.argmax(a.spectrum[1:, 0]) + 1]
    assert abs(peak - 1 / (2 * np.pi)) < 1.0 / n
    # the fastest pair dominates the first two principal components of a sinusoidal table
    assert a.explained.sum() > 0.1
    assert a.mean_spectrum.sum() == pytest.approx(1.0)


def test_analysis_of_a_random_walk_is_low_frequency():
    rng = np.random.default_rng(0)
    walk = np.cumsum(rng.normal(size=(512, 8)), axis=0)  # smooth in position, like trained tables
    a = analyse(walk)
    low = a.mean_spectrum[: len(a.mean_spectrum) // 16].sum()
    assert low > 0.8
    noise = analyse(rng.normal(size=(512, 8)))
    assert noise.mean_spectrum[: len(noise.mean_spectrum) // 16].sum() < 0.2


def test_t5_by_distance_matches_transformers_compute_bias(tiny):
    import transformers

    from peapp.analysis.position_table import DistanceRequest

    model = transformers.T5Model.from_pretrained(tiny["t5"]).eval()
    span = 30
    for stack, bidirectional in (("encoder", True), ("decoder", False)):
        attn = getattr(model, stack).block[0].layer[0].SelfAttention
        tensor = f"{stack}.block.0.layer.0.SelfAttention.relative_attention_bias.weight"
        view = DistanceRequest("t5_relative_bias", f"{tiny['t5']}::{tensor}", bidirectional,
                               max_distance=20, span=span).run()
        with torch.no_grad():
            bias = attn.compute_bias(2 * span + 1, 2 * span + 1)[0]  # [heads, q, k], k − q = j − i
        expected = bias[:, span, : len(view.distances)].numpy()  # query at position span
        np.testing.assert_allclose(view.curves, expected, rtol=0, atol=1e-6)
        assert view.distances[0] == -span and view.distances[-1] == (span if bidirectional else 0)


def test_alibi_and_shaw_by_distance():
    from peapp.analysis.position_table import alibi_by_distance, shaw_by_distance
    from peapp.encodings import alibi

    view = alibi_by_distance(alibi.slopes(8).tolist(), span=10)
    expected = alibi.bias(8, 1, 11, causal=True)[:, 0, :]  # the last of 11 queries, keys 0..10
    np.testing.assert_allclose(view.curves, expected.numpy(), rtol=1e-6)
    table = np.arange(7 * 2, dtype=np.float32).reshape(7, 2)
    view = shaw_by_distance(table)
    assert list(view.distances) == [-3, -2, -1, 0, 1, 2, 3]
    np.testing.assert_allclose(view.curves[0], np.linalg.norm(table, axis=1))
