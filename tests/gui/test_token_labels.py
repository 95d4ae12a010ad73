"""Run on text labels every token whose label has room (issue 35, cosmetic: token labels were
skipped where there was room: each label was given 7 px a character, ~50 % more than drawn)."""

from __future__ import annotations

from tests.conftest import wait_idle
from tests.gui.test_log_ticks import _drawn
from tests.gui.test_run_dock import TEXT, _open, _run, tiny_llama  # noqa: F401  (a fixture)


def test_every_token_is_labelled_where_the_labels_fit(main_window, qtbot, tiny_llama):  # noqa: F811
    dock = main_window.docks["runDock"]
    main_window.resize(1366, 728)
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    dock.set_settings(mode="run-attention")
    wait_idle(qtbot, main_window)
    qtbot.wait(50)
    axis = dock.view.map_plot.getAxis("bottom")
    n = dock.result.run.n_tokens
    labels = _drawn(axis)
    rects = sorted((rect for rect, _ in labels), key=lambda r: r.left())
    assert sum(r.width() + 12 for r in rects) < axis.width()  # room for every label ...
    assert len(labels) == n  # ... and every one drawn
    for a, b in zip(rects, rects[1:]):
        assert a.right() <= b.left()
