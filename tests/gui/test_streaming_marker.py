"""Probes > Attention sinks (streaming): the eviction marker's words ("token 0 leaves the window (N)")
sat on the window curve's peak, which comes right after that position (issue 35, cosmetic)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PySide6.QtCore import QPointF
from PySide6.QtWidgets import QGraphicsTextItem

from tests.conftest import wait_idle

N, W, BIN = 400, 100, 10


def _saved(path) -> str:
    """A saved streaming probe shaped as a real one: the window alone's perplexity leaps once token 0
    has left (position W + 1) and falls slowly; full context and the sinks stay low."""
    from peapp.model_run.probes import VariantCurve
    from peapp.model_run.streaming import CURVE_LABELS, StreamingResult

    positions = np.arange(1, N)
    low = np.where(positions < 10, 5.0, 2.0)
    window = np.where(positions > W, 2.0 + 6.5 * np.exp(-(positions - W - 1) / 80.0), low)
    curves = [VariantCurve(variant=v, label=CURVE_LABELS[v], factor=1.0, attention_factor=1.0, rope=None,
                           nll=nll, seconds=1.0)
              for v, nll in (("full", low), ("window", window), ("window+sinks", low + 0.1))]
    result = StreamingResult(family="llama", architecture="LlamaForCausalLM", scheme="rope", n_tokens=N, window=W,
                             sinks=4, bin=BIN, trained_context=2048, curves=curves)
    path.write_text(json.dumps(result.to_json()), encoding="utf-8")
    return str(path)


def _window_curve_points(dock, plot, steps: int = 24) -> list[QPointF]:
    """The window curve as drawn, in scene coordinates: its points and points along its segments."""
    x, y = dock.st_curves["window"].curve.getData()  # view coordinates (log10 of the perplexity)
    view = plot.getViewBox()
    out = []
    for i in range(len(x) - 1):
        for t in np.linspace(0.0, 1.0, steps, endpoint=False):
            out.append(view.mapViewToScene(QPointF(x[i] + t * (x[i + 1] - x[i]), y[i] + t * (y[i + 1] - y[i]))))
    out.append(view.mapViewToScene(QPointF(x[-1], y[-1])))
    return out


@pytest.mark.parametrize("lang", ["en", "hi"])
@pytest.mark.parametrize("size", [(1366, 728), (1600, 960)])
def test_the_eviction_marker_words_cover_no_data(main_window, qtbot, tmp_path, monkeypatch, lang, size):
    from peapp.i18n import translate
    from ui import i18n

    monkeypatch.setenv("PEAPP_CACHE_DIR", str(tmp_path / "cache"))
    try:
        i18n.set_language(lang)
        main_window.resize(*size)
        main_window.show_panel("probeDock")
        dock = main_window.docks["probeDock"]
        main_window.document_model.set_view("probe", mode="probe-streaming", stream_bin=BIN, kv_window=W,
                                            stream_length=N, streaming_results_file=_saved(tmp_path / "s.json"))
        wait_idle(qtbot, main_window)
        qtbot.waitUntil(lambda: dock.shown_result("probe-streaming") is not None, timeout=10_000)
        qtbot.wait(100)
        plot = dock.st_plot
        assert dock.evict_line.isVisible() and dock.evict_line.value() == W + 1
        words = translate("Probe", "token 0 leaves the window ({position})").format(position=f"{W + 1:,}")
        texts = [item for item in plot.scene().items()
                 if isinstance(item, QGraphicsTextItem) and item.isVisible() and words in item.toPlainText()]
        assert texts, (lang, words)  # the marker is still named
        data_area = plot.getViewBox().sceneBoundingRect()
        points = _window_curve_points(dock, plot)
        peak = max(points, key=lambda p: -p.y())
        assert data_area.contains(peak)
        for item in texts:
            rect = item.mapRectToScene(item.boundingRect())
            if not rect.intersects(data_area):
                continue  # outside the data area (e.g. in the legend row)
            covered = [p for p in points if rect.contains(p)]
            assert not covered, (lang, size, rect, covered[:3])
    finally:
        i18n.set_language("en")
