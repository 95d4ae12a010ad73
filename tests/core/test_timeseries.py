"""Time-series encodings: real-valued timestamps, calendar cycles, Time2Vec, CSV bad rows."""

import io
import math
from datetime import datetime, timezone

import numpy as np
import pytest
import torch

from peapp.analysis import timeseries as ts
from peapp.encodings import sinusoidal
from peapp.errors import DataFileError, ParameterError


def _csv(text):
    return io.StringIO(text)


def test_irregular_timestamps_encode_by_their_real_value():
    times = np.array([0.0, 1.5, 7.25, 7.5, 40.0]) * 3600  # hours, irregular gaps
    enc = ts.TimeEncoding(kind="sinusoidal", unit="hours", d_model=8)
    got = ts.encode(times, enc, origin=0.0)
    w = 10000.0 ** (-np.arange(0, 8, 2) / 8)
    tau = times / 3600
    expected = np.empty((5, 8))
    expected[:, 0::2], expected[:, 1::2] = np.sin(tau[:, None] * w), np.cos(tau[:, None] * w)
    np.testing.assert_allclose(got, expected, atol=1e-6)
    # integer times give exactly the text encoding's rows at those positions
    np.testing.assert_allclose(got[[0, 4]], sinusoidal.rows(torch.tensor([0, 40]), 8).numpy(), atol=1e-6)
    # not the row index: sample 2 (7.25 h) is not encoded as position 2
    assert not np.allclose(got[2], sinusoidal.rows(torch.tensor([2]), 8).numpy()[0], atol=1e-3)


def test_sinusoidal_similarity_depends_on_gap_only():
    enc = ts.TimeEncoding(kind="sinusoidal", unit="hours", d_model=16)
    gaps, curve = ts.similarity_vs_gap(enc, t0=12345.0, max_gap=100, points=11)
    w = 10000.0 ** (-np.arange(0, 16, 2) / 16)
    np.testing.assert_allclose(curve, np.cos(gaps[:, None] * w).mean(axis=1), atol=1e-6)
    _, later = ts.similarity_vs_gap(enc, t0=9e6, max_gap=100, points=11)
    np.testing.assert_allclose(curve, later, atol=1e-5)


def test_calendar_cycles():
    moments = [datetime(2024, 3, 4, 0, tzinfo=timezone.utc),  # Monday midnight
               datetime(2024, 3, 6, 18, tzinfo=timezone.utc),  # Wednesday 18:00
               datetime(2024, 12, 31, 12, tzinfo=timezone.utc)]
    frac = ts.calendar_fractions(np.array([m.timestamp() for m in moments]))
    np.testing.assert_allclose(frac[:, 0], [0.0, 0.75, 0.5])
    np.testing.assert_allclose(frac[:, 1], [0.0, (2 + 0.75) / 7, (1 + 0.5) / 7])  # 2024-12-31 is a Tuesday
    np.testing.assert_allclose(frac[2, 2], (365 + 0.5) / 366)  # 2024 is a leap year
    enc = ts.calendar(np.array([m.timestamp() for m in moments]))
    np.testing.assert_allclose(enc[1, :2], [math.sin(1.5 * math.pi), math.cos(1.5 * math.pi)], atol=1e-12)
    # 23:00 and 01:00 are neighbours on the hour-of-day circle
    a, b = (datetime(2024, 3, 4, h, tzinfo=timezone.utc).timestamp() for h in (23, 1))
    e = ts.calendar(np.array([a, b]))
    assert np.linalg.norm(e[0, :2] - e[1, :2]) == pytest.approx(2 * math.sin(math.pi / 12))


def test_calendar_needs_dates():
    s = ts.parse_csv(_csv("t,v\n1,2\n2,3\n"), "t")
    with pytest.raises(ParameterError, match="unix_seconds"):
        ts.summarise(s, ts.TimeEncoding(kind="calendar"))
    s = ts.parse_csv(_csv("t,v\n1709510400,2\n1709514000,3\n"), "t", number_unit="unix_seconds")
    assert s.calendar
    r = ts.summarise(s, ts.TimeEncoding(kind="calendar"))
    np.testing.assert_allclose(r.matrix[1, :2], [math.sin(2 * math.pi / 24), math.cos(2 * math.pi / 24)],
                               atol=1e-6)


def test_time2vec_is_seeded_linear_plus_periodic():
    p = ts.time2vec_params(8, seed=3)
    q = ts.time2vec_params(8, seed=3)
    np.testing.assert_array_equal(p.omega, q.omega)
    assert not np.allclose(p.omega, ts.time2vec_params(8, seed=4).omega)
    tau = np.array([0.0, 2.5, 10.0])
    v = ts.time2vec(tau, p)
    np.testing.assert_allclose(v[:, 0], p.omega[0] * tau + p.phi[0])
    np.testing.assert_allclose(v[:, 1:], np.sin(tau[:, None] * p.omega[1:] + p.phi[1:]))
    assert np.all((2 * math.pi / p.omega[1:] >= 1.0) & (2 * math.pi / p.omega[1:] <= 1000.0))


def test_csv_with_bad_rows_reports_them():
    text = ("time,value\n"
            "2024-01-01T00:00:00,1.0\n"
            "not a date,2.0\n"
            "\n"
            "2024-01-01T03:00:00,ERR\n"
            ",4.0\n"
            "2024-01-01T02:30:00+04:00,5.0\n"
            "2024-01-01T01:00:00\n"
            "12345,6\n"
            "2024-01-01T05:00:00Z,7.0\n")
    s = ts.parse_csv(_csv(text), "time", "value")
    assert [b.line for b in s.bad_rows] == [3, 5, 6, 8, 9]
    reasons = {b.line: b.reason for b in s.bad_rows}
    assert "neither a number nor an ISO 8601" in reasons[3]
    assert "'ERR'" in reasons[5]
    assert reasons[6] == "empty timestamp"
    assert "expected at least 2" in reasons[8]
    assert "a number in a column of dates" in reasons[9]
    assert s.bad_count == 5 and "5 bad rows" in s.bad_report()
    # good rows kept, sorted by time (02:30+04:00 is 22:30 UTC the day before), in Unix seconds
    base = datetime(2024, 1, 1, tzinfo=timezone.utc).timestamp()
    np.testing.assert_allclose(s.times - base, [-5400, 0, 5 * 3600])
    np.testing.assert_allclose(s.values, [5.0, 1.0, 7.0])
    assert s.reordered and list(s.lines) == [7, 2, 10]


def test_csv_errors_are_clear():
    with pytest.raises(ParameterError, match="no column 'when'"):
        ts.parse_csv(_csv("t,v\n1,2\n"), "when")
    with pytest.raises(DataFileError, match="no usable rows"):
        ts.parse_csv(_csv("t,v\nx,2\ny,3\n"), "t")
    with pytest.raises(DataFileError, match="empty"):
        ts.parse_csv(_csv(""), "t")
    with pytest.raises(DataFileError, match="no such file"):
        ts.load_csv("/nonexistent/file.csv", "t")


def test_numbers_in_a_unit():
    s = ts.parse_csv(_csv("t\n0\n1.5\n4\n"), "t", number_unit="hours")
    np.testing.assert_allclose(s.times, [0, 5400, 14400])
    assert not s.calendar


def test_sample_series_loads_with_its_two_bad_rows():
    header, guess = ts.peek(ts.sample_path())
    assert header[guess] == "timestamp"
    s = ts.load_csv(ts.sample_path(), "timestamp", "temperature_c")
    assert len(s) > 400 and s.bad_count == 2 and s.calendar
    gaps = np.diff(s.times) / 3600
    assert gaps.min() < 1 < gaps.max() and gaps.max() >= 5  # irregular: late readings and outages


def test_request_on_sample():
    r = ts.TimeSeriesRequest(kind="sinusoidal", d_model=16, pick_a=0, pick_b=5).run()
    assert r.matrix.shape == (len(r.grid_tau), 16)
    i, j, gap, sim = r.pick
    assert gap == pytest.approx(r.tau[5] - r.tau[0])
    np.testing.assert_allclose(sim, np.cos(gap * 10000.0 ** (-np.arange(0, 16, 2) / 16)).mean(), atol=1e-6)
    # pairs of real timestamps lie on the gap curve (sinusoidal similarity is a function of the gap)
    expected = np.cos(r.pair_gaps[:, None] * 10000.0 ** (-np.arange(0, 16, 2) / 16)).mean(axis=1)
    np.testing.assert_allclose(r.pair_sims, expected, atol=1e-5)
    assert "2 bad rows" in r.caption


def test_heatmap_grid_shows_gaps_and_the_real_encodings():
    r = ts.TimeSeriesRequest(kind="sinusoidal", d_model=8).run()
    grid, index = r.grid_tau, r.matrix_index
    step = np.median(np.diff(r.tau))
    np.testing.assert_allclose(np.diff(grid), step)
    present = index >= 0
    assert 0 < (~present).sum() < len(index) // 4  # missing hours and the two outages are gaps
    assert np.isnan(r.matrix[~present]).all()
    np.testing.assert_allclose(np.abs(r.tau[index[present]] - grid[present]) <= step / 2, True)
    expected = ts.encode(r.series.times[index[present]], r.encoding, r.series.times[0])
    np.testing.assert_allclose(r.matrix[present], expected, atol=1e-6)


def test_time_grid_is_bounded():
    tau = np.sort(np.random.default_rng(0).uniform(0, 1e6, size=100_000))
    grid, index = ts.time_grid(tau, max_cells=1000)
    assert len(grid) <= 1000 and (index >= 0).all()


def test_guess_time_column():
    rows = [["1.5", "0", "x"], ["2.5", "60", "y"], ["1.0", "150", "z"]]
    assert ts.guess_time_column(["load", "elapsed", "tag"], rows) == 1  # increasing, named like time
    assert ts.guess_time_column(["load", "n", "tag"], rows) == 1  # increasing
    dated = [["3", "2024-01-01"], ["4", "2024-01-02"]]
    assert ts.guess_time_column(["v", "when"], dated) == 1  # dates win


def test_semicolon_csv_is_read(tmp_path):
    path = tmp_path / "eu.csv"
    path.write_text("zeit;wert\n2024-01-01T00:00:00;1,5\n2024-01-01T02:00:00;2,5\n", encoding="utf-8")
    header, guess = ts.peek(path)
    assert header == ["zeit", "wert"] and guess == 0
    s = ts.load_csv(path, "zeit")
    assert len(s) == 2 and s.times[1] - s.times[0] == 7200


def test_time2vec_similarity_depends_on_when_and_the_curve_starts_at_sample_a():
    r = ts.TimeSeriesRequest(kind="time2vec", k=8, pick_a=40, pick_b=100).run()
    t = r.series.times
    # the ring (A, B) lies on the curve drawn from A
    a, b, gap, sim = r.pick
    assert sim == pytest.approx(np.interp(gap, r.gaps, r.curve), abs=0.02)
    enc = ts.encode(t[[40, 100]], r.encoding, t[0])
    assert sim == pytest.approx(float(ts.cosine(enc[:1], enc[1:])[0]))
    # not shift-invariant: the same gap from another start gives another similarity
    _, other = ts.similarity_vs_gap(r.encoding, float(t[0]), r.gaps[-1], points=len(r.gaps), origin=float(t[0]))
    assert not np.allclose(other, r.curve, atol=1e-3)


def test_peek_columns_guesses_time_and_value_columns(tmp_path):
    header, time_index, value = ts.peek_columns(ts.sample_path())
    assert (header[time_index], value) == ("timestamp", "temperature_c")
    only_text = tmp_path / "labels.csv"
    only_text.write_text("when,label\n2024-01-01T00:00:00Z,a\n2024-01-01T01:00:00Z,b\n", encoding="utf-8")
    assert ts.peek_columns(only_text)[1:] == (0, None)
    leading_blank = tmp_path / "blank.csv"
    leading_blank.write_text("\nlabel,t,v\nx,0,1.5\ny,1,2.5\n", encoding="utf-8")
    header, time_index, value = ts.peek_columns(leading_blank)
    assert header[time_index] == "t" and value == "v"
    latin1 = tmp_path / "latin1.csv"
    latin1.write_bytes("t,v\n0,1\n".encode() + "1,caf\xe9\n".encode("latin-1"))
    with pytest.raises(DataFileError, match="not UTF-8"):
        ts.peek_columns(latin1)
