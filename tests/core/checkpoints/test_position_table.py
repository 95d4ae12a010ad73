"""Checkpoint tables in the learned family and their analysis (PCA, spectrum, norms)."""

import numpy as np
import pytest
import torch

from peapp.analysis.position_table import TableAnalysisRequest, analyse
from peapp.document import Document
from peapp.encodings import get, sinusoidal
from peapp.errors import ParameterError, PositionOutOfRangeError
from peapp.jobs import TableRequest, frozen_params


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
