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


def test_the_first_token_is_labelled_where_its_plot_has_room(main_window, qtbot, tiny_llama):  # noqa: F811
    """Issue 35, cosmetic: the first key's label (centred half a cell from the axis's start) was
    dropped by pyqtgraph whenever it was wider than a cell, though the corner under the query
    axis was empty.  Thinned labels (many tokens) make every cell narrower than its label."""
    dock = main_window.docks["runDock"]
    main_window.resize(1366, 728)
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock, text=" ".join(["rabbit"] + TEXT.split() * 5))
    dock.set_settings(mode="run-attention")
    wait_idle(qtbot, main_window)
    qtbot.wait(50)
    plot = dock.view.map_plot
    axis = plot.getAxis("bottom")
    drawn = sorted(_drawn(axis), key=lambda label: label[0].left())
    cell = axis.width() / dock.result.run.n_tokens
    first_rect, first_text = drawn[0]
    assert first_text == "rabbit" and first_rect.width() > cell, drawn[:3]  # wider than its cell ...
    # ... drawn inside its plot (over the empty corner, not past the plot's edge), overlapping nothing
    assert axis.mapRectToItem(plot, first_rect).left() >= 0
    for (a, _), (b, _) in zip(drawn, drawn[1:]):
        assert a.right() <= b.left()
