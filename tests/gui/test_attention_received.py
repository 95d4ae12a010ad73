"""The attention inspector's "attention each key receives" plot: values, caption, export."""

from __future__ import annotations

import numpy as np

from tests.conftest import wait_idle


def test_received_plot_shows_the_mask_alone_closed_form_and_says_what_it_is(main_window, qtbot):
    dock = main_window.docks["attentionDock"]
    dock.raise_()
    n = 40
    dock.set_settings(scheme="nope", tokens="repeated", causal=True, seq_len=n, n_heads=2, head_dim=16)
    wait_idle(qtbot, main_window)
    # the dock may build and draw on a later turn than the one idleness was seen on (a loaded CI run)
    qtbot.waitUntil(lambda: dock.received_mean.yData is not None and len(dock.received_mean.yData) == n,
                    timeout=30_000)
    expected = np.array([sum(1.0 / (i + 1) for i in range(j, n)) for j in range(n)]) / n
    np.testing.assert_allclose(dock.received_mean.yData, expected, rtol=1e-5)  # yData: the data, not its log
    np.testing.assert_allclose(dock.received_uniform.yData, expected, rtol=1e-9)
    np.testing.assert_allclose(dock.received_last.yData, np.full(n, 1 / n), rtol=1e-5)
    note = dock.received_label.text()
    assert "Liu et al. 2023" in note and "empirical" in note and "primacy" in note and "head 0" in note
    arrays = dock.export_arrays()
    np.testing.assert_allclose(arrays["received_mean_over_queries"][1], expected, rtol=1e-5)
    assert arrays["received_last_query"].shape == (2, n) and "received_mask_alone" in arrays

    # ALiBi: the last query's weights rise toward recent keys; another head shows its own curve
    dock.set_settings(scheme="alibi", head=1)
    wait_idle(qtbot, main_window)
    qtbot.waitUntil(lambda: "head 1" in dock.received_label.text(), timeout=30_000)
    view = dock.last_result
    np.testing.assert_allclose(dock.received_last.yData, view.last_query[1])
    assert np.all(np.diff(dock.received_last.yData) > 0)
    assert "head 1" in dock.received_label.text()

    dock.set_settings(causal=False)  # no mask: no mask-alone reference, no primacy claim
    wait_idle(qtbot, main_window)
    assert dock.received_uniform.yData is None or len(dock.received_uniform.yData) == 0 and "primacy" not in dock.received_label.text()
    assert "received_mask_alone" not in dock.export_arrays()
