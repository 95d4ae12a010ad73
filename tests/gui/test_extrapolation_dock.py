"""The length-extrapolation dock: computed verdicts, side-by-side plots, hover and export."""

from __future__ import annotations

import numpy as np
import pytest

from peapp.analysis import extrapolation as ex
from tests.gui.article_helpers import host, settle
from ui.docks.extrapolation import ExtrapolationDock


@pytest.fixture
def dock(qtbot, app_context):
    return host(qtbot, app_context, ExtrapolationDock)


def test_default_verdicts_and_plots(dock):
    assert dock.objectName() == "extrapolationDock"
    text = dock.summary_label.text()
    for line in ex.analyse(2048, 8192).summaries:
        assert f"<b>{line.label}</b>" in text and ex.VERDICT_TEXT[line.verdict] in text
    assert f">{ex.VERDICT_TEXT['cannot']}<" in text and f">{ex.VERDICT_TEXT['interpolates']}<" in text
    # RoPE plot: needed/seen ratio per pair; unscaled is (E−1)/(L−1) for every pair
    curves = [item for item in dock.plots["rope"].listDataItems()]
    assert len(curves) == 1 + len(ex.ROPE_SCALINGS)
    x, y = curves[0].getData()
    np.testing.assert_allclose(y, 8191 / 2047)
    assert dock.plots["learned"].titleLabel.text == "Learned: no rows past L"


def test_article_case_2048_rows_at_2049(dock, qtbot, app_context):
    dock.eval_spin.setValue(2049)
    settle(qtbot, app_context)
    r = dock.last_result
    assert r.eval_len == 2049 and r.summary("learned").verdict == "cannot"
    assert "position 2,048 does not exist" in dock.summary_label.text()
    assert app_context.document.view("extrapolation", "eval_len") == 2049


def test_shorter_evaluation_fits_and_factor_changes_rope(dock, qtbot, app_context):
    dock.eval_spin.setValue(1000)
    settle(qtbot, app_context)
    assert {s.verdict for s in dock.last_result.summaries} == {"fits"}
    dock.eval_spin.setValue(8192)
    dock.factor_spin.setValue(2.0)
    settle(qtbot, app_context)
    r = dock.last_result
    assert r.rope.factor == 2.0 and r.summary("rope:linear").verdict == "extrapolates"
    dock.factor_spin.setValue(0.0)  # auto
    settle(qtbot, app_context)
    assert dock.last_result.rope.factor == 4.0


def test_hover_and_export(dock):
    assert "no row" in dock.describe("learned", 5000, 0.5)
    assert dock.describe("learned", 10, 0.5).startswith("position 10: row 10 exists")
    text = dock.describe("rope", 63, 1.0)
    assert text.startswith("pair 63:") and "linear" in text and "(out)" in text
    assert "reach per head 20, 40" in dock.describe("alibi", 2.0, -5)  # x is log10(distance)
    arrays = dock.export_arrays()
    np.testing.assert_allclose(arrays["alibi_reach"], 10 * 2.0 ** np.arange(1, 9))
    assert {"rope_needed_angle_linear", "rope_needed_angle_yarn", "sinusoidal_unseen_fraction"} <= set(arrays)
    assert not dock.export_widget().grab().isNull()


def test_hover_far_out_on_a_log_axis_does_not_overflow(dock):
    """Zoomed far out, a log axis reports x = 400: 10**400 overflows a float (OverflowError)."""
    assert dock.describe("t5", 400.0, 3) == ""  # past every distance: nothing to say
    assert dock.describe("t5", -400.0, 3).startswith("distance 0: bucket 0")
    assert dock.describe("alibi", 400.0, -5).startswith("distance 1")


def test_t5_plot_and_hover(dock, qtbot, app_context):
    dock.train_spin.setValue(64)
    dock.eval_spin.setValue(512)
    settle(qtbot, app_context)
    r = dock.last_result
    assert (r.t5.train_bucket, r.t5.eval_bucket) == (26, 31)
    assert "buckets 27–31" in dock.summary_label.text()
    assert "never trained" in dock.describe("t5", np.log10(100), 28)
    assert dock.describe("t5", np.log10(10), 10).startswith("distance 10: bucket 10 of 32 — trained")


def test_sinusoidal_verdict_says_what_the_formula_shows_and_what_was_measured(dock):
    """"Sinusoidal: extrapolates" read as a recommendation; measured, it degrades past the
    trained length (Press et al. 2022: perplexity 20.05 at 512 → 43.54 at 1,012)."""
    assert dock.plots["sinusoidal"].titleLabel.text == "Sinusoidal: defined past L"
    text = dock.summary_label.text()
    sinusoidal = next(line for line in text.replace("<td", "<br><td").split("<br>") if "<b>Sinusoidal</b>" in line)
    assert "extrapolates" not in sinusoidal
    assert "formula defined past the trained length" in text and "20.05 at 512 tokens → 43.54 at 1,012" in text
    assert "rotary also degrades past the trained length" in text


def test_legend_sits_outside_the_curves(qtbot, app_context, dock):
    dock.host_window.resize(1600, 1000)
    settle(qtbot, app_context)
    rope = dock.plots["rope"]
    assert rope.legend is None and len(dock.rope_legend.items) == 2 + len(ex.ROPE_SCALINGS)  # + the guide line
    legend, plot_area = dock.rope_legend.sceneBoundingRect(), rope.getViewBox().sceneBoundingRect()
    assert not legend.intersects(plot_area)
    assert ".." not in dock.summary_label.text()


def test_guide_lines_are_named_off_the_curves(dock):
    """Issue 18: "largest angle seen" and ALiBi's "training length" / "−10 (reach)" labels sat on
    curves; the lines are named in the legend row and the axis label instead."""
    import pyqtgraph as pg

    for key in ("rope", "alibi"):
        lines = [item for item in dock.plots[key].items if isinstance(item, pg.InfiniteLine)]
        assert lines and not any(hasattr(line, "label") for line in lines), key
    assert any("largest angle seen" in label.text for _, label in dock.rope_legend.items)
    assert "dotted: −10" in dock.plots["alibi"].getAxis("left").labelText  # the reach line


def _in_window(qtbot, main_window, width, height):
    from tests.conftest import wait_idle

    main_window.setGeometry(0, 0, width, height)
    qtbot.waitUntil(lambda: (main_window.width(), main_window.height()) == (width, height), timeout=3000)
    main_window.show_panel("extrapolationDock")
    wait_idle(qtbot, main_window)
    qtbot.wait(50)
    return main_window.docks["extrapolationDock"]


@pytest.mark.parametrize("size", [(1366, 768), (1600, 1000)])
@pytest.mark.all_docks
def test_verdicts_show_whole_and_the_plots_keep_their_height(main_window, qtbot, size):
    """Issue 18 at 1366×768: the verdict box needed scrolling and the plots were 60–100 px tall.
    One line per scheme shows whole (no scroll area); every plot keeps >= 100 px of data area."""
    from ui.docks.extrapolation import GRAPHICS_MIN_HEIGHT

    dock = _in_window(qtbot, main_window, *size)
    assert main_window.minimumSizeHint().height() <= 768
    lines = dock.verdict_label
    assert dock.verdict_area.isVisible() and not dock.summary_area.isVisible()
    assert dock.verdict_area.verticalScrollBar().maximum() == 0  # every line shows, none to scroll to
    assert lines.height() >= lines.heightForWidth(lines.width())
    text = lines.text()
    for s in dock.last_result.summaries:
        assert f"<b>{s.label}</b>" in text and ex.VERDICT_TEXT[s.verdict] in text
    assert "measured: degrades" in text  # sinusoidal: what the formula shows, and what was measured
    heights = {key: plot.getViewBox().height() for key, plot in dock.plots.items()}
    assert min(heights.values()) >= 100, heights
    # the reasons, asked for, take the room the plots can spare; the plots keep their minimum
    dock.reasons_button.click()
    qtbot.wait(50)
    assert dock.summary_area.isVisible() and not dock.verdict_area.isVisible()
    assert "6,144 positions past the table" in dock.summary_label.text()
    assert dock.graphics.height() >= GRAPHICS_MIN_HEIGHT
    assert dock.summary_area.height() >= 3 * lines.fontMetrics().height()
    dock.reasons_button.click()
    qtbot.wait(50)
    assert dock.verdict_area.isVisible() and min(p.getViewBox().height() for p in dock.plots.values()) >= 100
