"""The heatmap's level-of-detail view (``reduce="sample"``): exact entries at a stated stride.

Block means misled (issue 18): a 100k × 1,024 sinusoid's fast dimensions averaged to ~0 and
drew empty, and a learned table's ±0.06 values averaged to ±0.003, colour bar included.  The
sampled view holds the table's own entries, at the first row (and column) of every stride.
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from peapp.analysis import heatmap
from peapp.encodings import get
from tests.core.test_heatmap_fast import TOEPLITZ_CASES


def _exact(family, spec, view) -> np.ndarray:
    rows = family.rows_at(spec, torch.from_numpy(view.row_positions)).numpy()
    return rows[:, view.col_positions]


@pytest.mark.parametrize("name, values", [("sinusoidal", {"d_model": 256}), ("rope", {"head_dim": 256}),
                                          ("learned", {"max_positions": 20_000, "d_model": 64}),
                                          ("nope", {"d_model": 32})])
def test_sampled_rows_are_the_exact_rows_at_the_stated_stride(name, values):
    family = get(name)
    spec = family.make_spec({"n_positions": 20_000, **values})
    view = heatmap.table_view(family, spec, max_rows=300, reduce="sample")
    assert view.values.shape[0] == 300 and view.method == "sample"
    assert view.row_positions[0] == 0 and np.all(np.diff(view.row_positions) >= 66)
    assert "every ~67th position" in view.reduction
    np.testing.assert_array_equal(view.values, _exact(family, spec, view))


@pytest.mark.parametrize("name, values", TOEPLITZ_CASES)
def test_sampled_bias_matrix_both_ways_equals_its_entries(name, values):
    family = get(name)
    spec = family.make_spec({"n_positions": 5000, **values})
    for region in ({"max_rows": 400, "max_cols": 300},
                   {"start": 1000, "stop": 2000, "col_start": 900, "col_stop": 3000, "max_rows": 100, "max_cols": 700}):
        view = heatmap.table_view(family, spec, reduce="sample", **region)
        expected = _exact(family, spec, view)
        np.testing.assert_array_equal(np.isnan(view.values), np.isnan(expected))
        np.testing.assert_allclose(view.values, expected, rtol=1e-6, atol=1e-6)
        assert "column" in view.reduction and "position" in view.reduction


def test_fast_dimensions_of_a_100k_sinusoid_keep_their_amplitude():
    """Means of dimension 0 over ~216 positions are ~0; the sampled view keeps the full ±1."""
    family = get("sinusoidal")
    spec = family.make_spec({"n_positions": 100_000, "d_model": 1024})
    mean = heatmap.table_view(family, spec, max_rows=463, reduce="mean")
    sample = heatmap.table_view(family, spec, max_rows=463, reduce="sample")
    assert np.abs(mean.values[:, :100]).max() < 0.1
    assert np.abs(sample.values[:, :100]).max() > 0.99
    assert "every ~216th position" in sample.reduction


def test_learned_100k_table_keeps_its_value_range_in_the_colour_levels():
    request = heatmap.TableRequest(family="learned", params=(("d_model", 256), ("max_positions", 100_000),
                                                             ("n_positions", 100_000)), max_rows=463)
    result = request.run()
    family = get("learned")
    spec = family.make_spec(dict(request.params))
    true_max = float(family.rows_at(spec, torch.arange(0, 100_000, 7)).abs().max())
    assert result.view.method == "sample"
    assert result.levels[1] > 0.5 * true_max  # the colour bar spans the table's values, not means


def test_unknown_reduction_is_refused_with_the_choices():
    family = get("sinusoidal")
    with pytest.raises(Exception, match="sample, mean"):
        heatmap.table_view(family, family.make_spec({}), reduce="median")
