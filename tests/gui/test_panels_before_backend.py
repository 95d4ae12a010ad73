"""Every panel exists, saying the backend is loading, before torch has loaded; then the heatmap draws.

Checked structurally, never on time.  Run in a fresh process: torch must not have been imported
yet (pytest's other tests import it), and building the window must not import it either."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent('''
    import sys, time
    from ui.application import create_application
    app = create_application()
    import ui.docks
    from ui.docks.base import LOADING_TEXT
    from ui.main_window import MainWindow

    window = MainWindow(load_backend="later", settings=None, restore_layout=False)
    window.show()
    for _ in range(5):
        app.processEvents()
    expected = {cls.object_name for cls in ui.docks.dock_classes()}
    assert set(window.docks) == expected and len(expected) >= 10, sorted(window.docks)
    for name, dock in window.docks.items():
        assert dock.is_loading() and dock.loading_message.text() == LOADING_TEXT, name
        assert dock.loading_message.isVisibleTo(dock), name
    shown = [name for name, dock in window.docks.items() if dock.on_screen()]
    assert "heatmapDock" in shown and "parametersDock" in shown, shown
    assert all(window.docks[name].loading_message.isVisible() for name in shown), shown
    assert all(window.docks[name].is_built() for name in shown), shown
    behind = [name for name, dock in window.docks.items() if not dock.is_built()]
    assert behind, "no dock behind a tab was left to build on first show"
    assert "torch" not in sys.modules, "building the window and its panels imported torch"
    heatmap = window.docks["heatmapDock"]
    assert heatmap.last_result is None and not window.worker.is_busy()  # nothing computes before the backend

    # a parameter edit while the backend loads: the form follows, nothing is computed yet
    assert window.document_model.try_set_params("sinusoidal", d_model=64)
    app.processEvents()
    assert "torch" not in sys.modules and heatmap.last_result is None

    ready = []
    window.backendReady.connect(lambda: ready.append(True))
    window.start_backend()
    deadline = time.monotonic() + 240  # a hang guard, not a timing check
    while (not ready or heatmap.last_result is None) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    assert ready and "torch" in sys.modules
    assert heatmap.last_result is not None and not heatmap.is_loading()
    assert heatmap.image.image is not None and heatmap.image.image.shape[1] == 64  # the edit made before
    assert all(not dock.is_loading() for dock in window.docks.values())

    # the docks behind tabs are built once the worker is idle, and draw
    deadline = time.monotonic() + 240
    while any(not d.is_built() for d in window.docks.values()) and time.monotonic() < deadline:
        app.processEvents()
        time.sleep(0.01)
    assert all(d.is_built() for d in window.docks.values())
    spectrum = window.docks["spectrumDock"]
    window.wait_until_idle(app.processEvents, 240)
    assert spectrum.last_result is not None
    from PySide6.QtWidgets import QToolButton
    buttons = {b.objectName() for b in window.findChildren(QToolButton)}
    assert "spectrumDockExportButton" in buttons, "a dock built later got no Export button"
    window.close()
    print("ok", len(window.docks), flush=True)
    import shiboken6
    shiboken6.delete(window)  # as ui.app does: left to interpreter exit, pyqtgraph crashes in shiboken
''')


def test_every_panel_exists_and_says_loading_before_torch_then_draws(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split()[0] == "ok"



def test_closing_the_window_does_not_build_a_dock_never_shown(app_context, qtbot):
    """The rotation dock paused its animation on hide, and asking for its Play button built it:
    closing the window built the dock behind its tab (0.16 s) only to pause it."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDockWidget, QMainWindow

    from ui.docks.rotation import RotationDock

    window = QMainWindow()
    qtbot.addWidget(window)
    area = Qt.DockWidgetArea.RightDockWidgetArea
    front = QDockWidget("front", window)
    window.addDockWidget(area, front)
    dock = RotationDock(app_context, window, build_later=True)
    window.addDockWidget(area, dock)
    window.tabifyDockWidget(front, dock)
    window.show()
    front.raise_()
    qtbot.waitExposed(window)
    qtbot.wait(50)
    assert not dock.is_built()
    window.close()
    assert not dock.is_built()
