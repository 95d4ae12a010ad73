"""Analyses: shift map, similarity, level-of-detail views, document round-trip, memory guard."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from peapp.analysis import heatmap, shift, similarity
from peapp.document import Document
from peapp.encodings import get, learned, sinusoidal
from peapp.errors import DocumentError, ParameterError, SizeError
from peapp.memory import ensure_fits


@pytest.mark.parametrize("layout", ["interleaved", "concatenated"])
@pytest.mark.parametrize("k", [1, 5, 37])
def test_fixed_linear_map_takes_pos_to_pos_plus_k(layout, k):
    table = sinusoidal.table(200, 32, layout=layout).to(torch.float64)
    m = shift.shift_matrix(32, k, layout=layout)
    assert shift.shift_error(table.float(), k, m) < 1e-5
    # the same M works at every position: it does not depend on pos
    torch.testing.assert_close(table[k:] , table[:-k] @ m.T, atol=1e-5, rtol=0)


def test_learned_table_has_no_such_map():
    table = learned.LearnedTable.random(200, 32).weight
    fitted = shift.shift_error(table, 1)  # best least-squares linear map
    assert fitted > 10 * shift.shift_error(sinusoidal.table(200, 32), 1)


def test_similarity_cosine_and_dot():
    t = sinusoidal.table(40, 16)
    cos = similarity.similarity(t, "cosine")
    np.testing.assert_allclose(np.diag(cos.numpy()), 1.0, rtol=1e-5)
    dot = similarity.similarity(t, "dot")
    np.testing.assert_allclose(np.diag(dot.numpy()), 8.0, rtol=1e-5)  # d/2 sin²+cos² pairs
    zero = similarity.similarity(torch.zeros(5, 4), "cosine")
    assert float(zero.abs().max()) == 0.0


def test_pooled_view_equals_pooling_the_full_table():
    for name in ("sinusoidal", "learned", "rope", "alibi"):
        fam = get(name)
        spec = fam.make_spec({"n_positions": 1000})
        full = heatmap.table_view(fam, spec, max_rows=1000).values
        pooled = heatmap.table_view(fam, spec, max_rows=100)
        assert pooled.values.shape == (100, full.shape[1])
        expected = full.reshape(100, 10, -1).mean(axis=1)
        np.testing.assert_allclose(pooled.values, expected, atol=2e-5, err_msg=name)


def test_uneven_bins_cover_every_row_once():
    fam = get("learned")
    spec = fam.make_spec({"n_positions": 1003, "max_positions": 2048})
    full = heatmap.table_view(fam, spec, max_rows=5000).values
    pooled = heatmap.table_view(fam, spec, max_rows=97)
    bounds = np.ceil(np.linspace(0, 1003, 98)).astype(int)
    expected = np.stack([full[a:b].mean(0) for a, b in zip(bounds[:-1], bounds[1:])])
    np.testing.assert_allclose(pooled.values, expected, atol=1e-6)


def test_large_table_stays_small():
    fam = get("sinusoidal")
    spec = fam.make_spec({"n_positions": 1_000_000, "d_model": 1024})
    view = heatmap.table_view(fam, spec, max_rows=1000)
    assert view.values.shape == (1000, 1024)
    assert view.bin_size == pytest.approx(1000)
    region = heatmap.table_view(fam, spec, start=500_000, stop=500_200, max_rows=1000)
    np.testing.assert_allclose(region.values, sinusoidal.rows(torch.arange(500_000, 500_200), 1024).numpy(),
                               atol=1e-6)


def test_similarity_view_samples_large_tables():
    fam = get("sinusoidal")
    spec = fam.make_spec({"n_positions": 100_000, "d_model": 64})
    view = heatmap.similarity_view(fam, spec, max_positions=512)
    assert view.values.shape == (512, 512)
    assert view.reduction.startswith("every")


def test_ensure_fits_refuses_with_estimate():
    with pytest.raises(SizeError, match="would need 152.6 GiB"):
        ensure_fits((10**7, 4096), 4, budget=2**30)
    assert ensure_fits((10, 10), 4) == 400


def test_document_round_trip_and_validation():
    doc = Document().with_params("rope", base=500000.0, head_dim=64).with_family("rope") \
        .with_view("heatmap", mode="similarity").with_checkpoint("/models/x")
    again = Document.from_json(doc.to_json())
    assert again == doc
    assert again.spec().base == 500000.0
    with pytest.raises(ParameterError):
        doc.with_params("rope", head_dim=3)
    with pytest.raises(DocumentError, match="newer peapp"):
        Document.from_json('{"app": "peapp", "version": 99}')
    with pytest.raises(DocumentError, match="not valid JSON"):
        Document.from_json("{oops")
    with pytest.raises(DocumentError, match="invalid parameter"):
        Document.from_json('{"app": "peapp", "version": 1, "params": {"sinusoidal": {"d_model": 3}}}')


@pytest.mark.parametrize("fields, message", [
    ('"views": ["heatmapDock"]', '"views" must map'),
    ('"views": {"heatmapDock": 5}', '"views" must map'),
    ('"params": {"rope": "fast"}', '"params" must map'),
    ('"params": 7', '"params" must map'),
    ('"family": ["rope"]', '"family" must be a name'),
    ('"family": "sinusodial"', "unknown encoding family"),
    ('"checkpoint": 12', '"checkpoint" must be a path'),
])
def test_a_damaged_session_file_is_a_document_error_not_a_crash(fields, message):
    """Hand-edited files: one clear DocumentError (the GUI shows it and keeps its session)."""
    with pytest.raises(DocumentError, match=message):
        Document.from_json('{"app": "peapp", "version": 1, ' + fields + '}')


def test_document_save_is_atomic(tmp_path):
    path = tmp_path / "s.json"
    Document().save(path)
    assert Document.load(path) == Document()
    assert [p.name for p in tmp_path.iterdir()] == ["s.json"]


def test_table_request_returns_the_exact_selected_row():
    from peapp.analysis.heatmap import TableRequest
    from peapp.jobs import frozen_params

    params = frozen_params({"n_positions": 100_000, "d_model": 64, "base": 10000.0, "layout": "interleaved"})
    result = TableRequest(family="sinusoidal", params=params, max_rows=256, selected_row=77_777).run()
    assert result.view.values.shape[0] <= 256  # the view is pooled ...
    np.testing.assert_allclose(result.selected_row, sinusoidal.rows(torch.tensor([77_777]), 64)[0].numpy(),
                               atol=1e-6)  # ... the selected row is exact
    assert TableRequest(family="sinusoidal", params=params, selected_row=100_000).run().selected_row is None
    assert TableRequest(family="sinusoidal", params=params, mode="similarity", row_stop=50,
                        selected_row=3).run().selected_row is None


def test_column_request_is_exact_where_the_table_view_is_pooled():
    from peapp import jobs
    from peapp.analysis import heatmap

    params = jobs.frozen_params({"n_positions": 100_000, "d_model": 64, "base": 10000.0, "layout": "interleaved"})
    pooled = heatmap.TableRequest(family="sinusoidal", params=params, max_rows=256, reduce="mean").run().view
    result = heatmap.ColumnRequest(family="sinusoidal", params=params, column=0).run()
    assert result.request.column == 0 and len(result.values) == 100_000 and result.positions[-1] == 99_999
    np.testing.assert_allclose(result.values, np.sin(np.arange(100_000) % (2 * np.pi)), atol=1e-5)
    assert np.abs(result.values).max() > 0.99 > 0.5 > np.abs(pooled.values[:, 0]).max()  # means shrink
    # learned: the table's column itself; families with no cheap column (bias rows) answer None
    spec = get("learned").default_spec()
    learned_params = jobs.frozen_params(spec.to_dict())
    part = heatmap.ColumnRequest(family="learned", params=learned_params, column=3, row_start=5, row_stop=40).run()
    np.testing.assert_array_equal(part.values, learned.table_for(spec).lookup(torch.arange(5, 40))[:, 3].numpy())
    alibi_params = jobs.frozen_params(get("alibi").default_spec().to_dict())
    assert heatmap.ColumnRequest(family="alibi", params=alibi_params, column=3).run() is None


def test_colour_levels_are_not_washed_out_by_a_few_outliers():
    rng = np.random.default_rng(0)
    trained = rng.normal(0, 0.05, size=(512, 384)).astype(np.float32)
    trained[0, :3] = [2.0, -1.8, 1.5]  # a few large entries, as in trained position tables
    (lo, hi), saturated = heatmap.colour_levels(trained, symmetric=True)
    assert saturated and lo == -hi and 0.12 < hi < 0.2  # ≈ the 99.5th percentile of |N(0, 0.05)|
    assert np.mean(np.abs(trained) <= hi) == pytest.approx(0.995, abs=0.002)
    # without outliers the full range stays (sinusoids reach ±1 everywhere)
    (lo, hi), saturated = heatmap.colour_levels(sinusoidal.table(50, 128).numpy(), symmetric=True)
    assert not saturated and (lo, hi) == pytest.approx((-1.0, 1.0), abs=1e-3)
    # one-sided data: the central share, not centred on zero
    skewed = np.concatenate([rng.uniform(10, 11, 10_000), [500.0]])
    (lo, hi), saturated = heatmap.colour_levels(skewed, symmetric=False)
    assert saturated and 10 < lo < hi < 11.1
