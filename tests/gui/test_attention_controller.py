"""The attention inspector's controller as a plain object: no window, no widget, no Qt.

It decides what a change of the Document needs, keeps the latest generation of each channel
(a superseded request's failure is not said and does not end the busy state), drops a shuffle
test or zoom that no longer fits, and importing it imports no Qt at all."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from peapp.document import Document
from peapp.views import Viewport
from peapp.views.attention import with_attention_settings
from ui.docks._attention.controller import AttentionController

ROOT = Path(__file__).resolve().parents[2]
MAIN, ZOOM, SHUFFLE = "attentionDock", "attentionDock:zoom", "attentionDock:shuffle"
VIEWPORT = Viewport(width=400, height=300)


def request(document: Document | None = None, **settings):
    document = with_attention_settings(document or Document(), **settings) if settings else (document or Document())
    return AttentionController.make_request(document, VIEWPORT, "cpu")


def overview(req, bin_: int = 1):
    """A stand-in for the AttentionView that answers ``req`` (the controller reads only these)."""
    return SimpleNamespace(spec=req.spec, kind=req.kind, pooling=req.pooling, row_bin=bin_, col_bin=bin_)


@pytest.fixture
def controller() -> AttentionController:
    return AttentionController(MAIN)


def test_the_controller_imports_no_qt():
    """Built and tested without a QApplication: importing it in a fresh process imports neither
    PySide6 nor pyqtgraph nor superqt (nor any module of the GUI beyond its own packages)."""
    script = textwrap.dedent("""
        import sys
        import ui.docks._attention.controller, ui.docks._run.controller, ui.docks._probe.controller
        qt = sorted(m for m in sys.modules if m.split(".")[0] in ("PySide6", "shiboken6", "pyqtgraph", "superqt"))
        gui = sorted(m for m in sys.modules if m.startswith("ui") and not m.endswith(("controller", "docks", "_run",
                                                                                       "_probe", "_attention")) and m != "ui")
        print(qt, gui)
        sys.exit(1 if qt or gui else 0)
    """)
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr[-2000:]


def test_a_change_needs_a_computation_a_redraw_or_nothing(controller):
    document = Document()
    first = request(document)
    settings = {"head": 0, "log_scale": False}
    assert controller.document_changed(first, settings) == "compute"
    controller.asking(first)
    # the same computation, the same display settings: an edit elsewhere in the Document
    assert controller.document_changed(request(document), dict(settings)) == ""
    # the same computation, another head shown: drawn again, not computed
    assert controller.document_changed(request(document), {"head": 1, "log_scale": False}) == "redraw"
    assert controller.document_changed(request(document), {"head": 1, "log_scale": False}) == ""
    # another length: computed
    assert controller.document_changed(request(document, seq_len=96), {"head": 1, "log_scale": False}) == "compute"


def test_the_latest_request_of_each_channel_wins(controller):
    controller.submitted(MAIN, 1)
    controller.submitted(MAIN, 2)  # supersedes 1
    controller.submitted(ZOOM, 3)
    assert controller.busy and controller.shows_progress(MAIN) and controller.shows_progress(ZOOM)
    # the superseded request's failure is neither said nor the end of the busy state
    assert not controller.failed(MAIN, 1)
    assert controller.shows_progress(MAIN)
    # another dock's channel with a similar name is not this one's
    assert not controller.failed("attentionDockX", 2) and not controller.owns("attentionDockX")
    assert controller.failed(MAIN, 2)
    assert not controller.shows_progress(MAIN)
    assert controller.busy  # the zoom still runs: each channel is busy on its own
    controller.side_finished("zoom", SimpleNamespace(spec=None, kind="", pooling=""))
    assert not controller.busy


def test_cancel_stops_every_channel_and_ends_the_busy_state(controller):
    controller.submitted(MAIN, 1)
    controller.submitted(SHUFFLE, 2)
    assert controller.cancel() == (MAIN, ZOOM, SHUFFLE)
    assert not controller.busy
    # a cancelled channel (Esc in the window) is no longer shown as running
    controller.submitted(ZOOM, 3)
    controller.ended(ZOOM)
    assert not controller.busy


def test_new_inputs_drop_the_shuffle_test_and_the_zoom(controller):
    first = request()
    controller.asking(first)
    controller.finished(overview(first))
    controller.shuffle = SimpleNamespace(spec=first.spec)
    controller.zoom = overview(first)
    # another colouring of the same inputs (logits instead of weights): the test still holds
    logits = request(kind="logits")
    assert not controller.asking(logits)
    assert controller.shuffle is not None and controller.zoom is None
    # other inputs (another length): the test was for them no more
    assert controller.asking(request(seq_len=80))
    assert controller.shuffle is None


def test_side_results_are_kept_only_for_what_is_shown(controller):
    first = request()
    controller.asking(first)
    controller.submitted(MAIN, 1)
    assert controller.finished(overview(first))  # the first picture: the plot shows it whole
    assert not controller.busy
    assert not controller.finished(overview(first))  # the same length again
    assert controller.finished(overview(request(seq_len=80)))  # another length
    # a zoom of another overview (the settings changed while it computed) is not drawn
    controller.submitted(ZOOM, 2)
    assert not controller.side_finished("zoom", overview(request(seq_len=80)))
    assert controller.zoom is None and not controller.busy
    assert controller.side_finished("zoom", overview(first))
    assert controller.zoom is not None
    assert controller.reset_zoom() and controller.zoom is None and not controller.reset_zoom()
    # a shuffle test for other inputs is drawn as none (its verdict cleared)
    controller.shuffle = SimpleNamespace(spec=first.spec)
    assert controller.side_finished("shuffle", SimpleNamespace(spec=request(seq_len=80).spec), first.spec)
    assert controller.shuffle is None
    result = SimpleNamespace(spec=first.spec)
    assert controller.side_finished("shuffle", result, first.spec) and controller.shuffle is result


def test_zoom_is_asked_for_only_where_the_overview_is_pooled(controller):
    long = request(seq_len=4096)
    assert controller.zoom_request(long, VIEWPORT, (0, 100), (0, 100)) is None  # nothing shown yet
    controller.asking(long)
    controller.finished(overview(long, bin_=16))
    zoomed = controller.zoom_request(long, VIEWPORT, (10.5, 99.2), (0.0, 64.0))
    assert zoomed is not None and zoomed.rows == (10, 100) and zoomed.cols == (0, 64)
    controller.zoom = overview(long)
    # the whole matrix at one position per cell: already as fine as it gets, the zoom shown goes
    short = request(seq_len=64)
    controller.finished(overview(short, bin_=1))
    controller.zoom = overview(short)
    assert controller.zoom_request(short, VIEWPORT, (0, 64), (0, 64)) is None
    assert controller.zoom is None


def test_the_head_drawn_is_at_most_the_last(controller):
    assert controller.head(5) == 0  # nothing shown yet
    controller.finished(SimpleNamespace(spec=SimpleNamespace(n_heads=4, seq_len=64)))
    assert controller.head(2) == 2 and controller.head(9) == 3
