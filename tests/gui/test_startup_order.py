"""What the start-up does in which order, and the process settings behind it (issue 20):

- ``ui.application.import_qt``: PySide6's per-import check, answered by reading the module's
  file, gives the same answers as PySide6's own (``inspect.getsource``) check;
- the torch library preload starts only after the dock modules are imported (their extension
  modules would wait for the loader's lock the preload holds);
- the first ``import torch`` of the process is frozen out of the cycle collector, once;
- docks behind other tabs are built only after the first pictures are drawn.

The order checks run in a fresh process (pytest's own have imported everything already).
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(script: str, tmp_path) -> str:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path / "config")}
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(script)], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return result.stdout.split()[-1]


def test_pyside_check_reads_files_and_agrees_with_pysides_own():
    from ui.application import import_qt

    import_qt()
    feature = sys.modules["shibokensupport.feature"]
    ours = feature._mod_uses_pyside
    assert getattr(ours, "reads_the_file", False), "import_qt did not replace PySide6's check"
    import_qt()  # twice: still one wrapper, not a wrapper of a wrapper
    assert feature._mod_uses_pyside is ours
    pysides_own = ours.upstream  # the function it replaced (inspect.getsource)
    import json  # noqa: F401 - modules of every kind: the app's, Qt users, Qt-free ones
    import pyqtgraph  # noqa: F401
    import superqt  # noqa: F401
    import torch.nn  # noqa: F401

    import peapp.encodings  # noqa: F401
    import ui.main_window  # noqa: F401

    modules = [m for name, m in sorted(sys.modules.items())
               if name.startswith(("ui.", "peapp.", "pyqtgraph", "superqt", "json", "torch.nn"))]
    assert len(modules) > 50
    answers = {m.__name__: (ours(m), pysides_own(m)) for m in modules}
    assert {name for name, (a, b) in answers.items() if a != b} == set()
    assert answers["ui.application"] == (True, True)  # it names PySide6 (mentions count, as upstream)
    assert answers["json"] == (False, False)
    assert ours(sys) is False  # a built-in module: deferred to PySide6's own


def test_torch_library_preload_waits_for_the_dock_modules_and_torch_is_frozen_once(tmp_path):
    script = '''
        import gc, sys
        import ui.application as application
        import ui.main_window as main_window

        seen = {}
        preload = application.preload_torch_library

        def recording_preload():
            seen["docks imported"] = "ui.docks.heatmap" in sys.modules
            seen["numpy imported"] = "numpy" in sys.modules
            return preload()

        main_window.preload_torch_library = recording_preload
        from peapp import backend

        freezes = []
        freeze = backend.freeze_imports
        backend.freeze_imports = lambda: (freezes.append(1), freeze())
        app = application.create_application()
        window = main_window.MainWindow(load_backend="background", settings=None, restore_layout=False)
        window._build_docks_then_backend()  # what the first paint starts
        assert seen == {"docks imported": True, "numpy imported": True}, seen
        assert gc.get_freeze_count() == 0
        window.start_backend()
        import time
        deadline = time.monotonic() + 300
        while not window.ctx.backend_ready and time.monotonic() < deadline:
            app.processEvents()
            time.sleep(0.005)
        assert window.ctx.backend_ready
        assert gc.get_freeze_count() > 50_000, gc.get_freeze_count()  # torch's objects
        assert len(freezes) == 1
        second = main_window.MainWindow(load_backend="now", settings=None, restore_layout=False)
        assert len(freezes) == 1  # torch was in already: nothing is frozen again
        for w in (window, second):
            w.close()
        print("ok")
    '''
    assert _run(script, tmp_path) == "ok"


def test_docks_behind_tabs_are_built_after_the_first_pictures_are_drawn(qtbot, settings):
    from ui.main_window import MainWindow

    window = MainWindow(load_backend="background", settings=settings)  # as the app starts
    qtbot.addWidget(window)
    events: list[tuple[str, str]] = []
    first: list = []

    def watch() -> None:  # the backend is in and the shown docks asked for their first pictures
        first.extend(d for d in window.docks.values() if d.is_built() and d.worker is window.worker)
        for dock in first:
            draw = dock.show_result
            dock.show_result = lambda result, draw=draw, name=dock.object_name: (
                events.append(("drawn", name)), draw(result))

    window.backendReady.connect(watch)
    window.dockBuilt.connect(lambda dock: window.ctx.backend_ready and events.append(("built", dock.object_name)))
    window.show()
    qtbot.waitUntil(lambda: window.ctx.backend_ready, timeout=120_000)
    assert {d.object_name for d in first} >= {"heatmapDock", "parametersDock"}
    assert any(not d.is_built() for d in window.docks.values()), "nothing was left to build later"
    qtbot.waitUntil(lambda: all(d.is_built() for d in window.docks.values()), timeout=120_000)
    first_build = next(i for i, (what, _) in enumerate(events) if what == "built")
    drawn_before = {name for what, name in events[:first_build] if what == "drawn"}
    assert drawn_before == {d.object_name for d in first if d.make_request(window.ctx.document) is not None}, \
        events[:first_build + 1]


def test_on_use_docks_are_built_by_a_show_or_a_use_never_by_idleness(qtbot, settings):
    """``hidden_docks="on-use"`` (the tests' windows): the shown docks are built and drawn, the
    others wait however long the window is idle, until shown or until a widget is asked for."""
    import pytest

    from tests.conftest import wait_idle
    from ui.main_window import MainWindow

    with pytest.raises(ValueError, match="hidden_docks"):
        MainWindow(load_backend="now", settings=settings, hidden_docks="later")
    window = MainWindow(load_backend="now", settings=settings, hidden_docks="on-use", restore_layout=False)
    qtbot.addWidget(window)
    window.show()
    wait_idle(qtbot, window)
    qtbot.wait(300)  # an "idle" window would have built several by now (one per 20 ms once idle)
    built = {name for name, dock in window.docks.items() if dock.is_built()}
    assert built == {"parametersDock", "heatmapDock"}
    window.show_panel("rotationDock")
    qtbot.waitUntil(lambda: window.docks["rotationDock"].is_built())
    spectrum = window.docks["spectrumDock"]
    assert not spectrum.is_built()
    assert spectrum.graphics is not None  # asking for a widget it makes builds it
    assert spectrum.is_built()
    wait_idle(qtbot, window)
    assert spectrum.last_result is not None  # ... and it draws as a shown one does


def test_the_panels_paint_before_the_shown_ones_make_their_widgets(qtbot, settings):
    from ui.main_window import MainWindow

    window = MainWindow(load_backend="background", settings=settings)
    qtbot.addWidget(window)
    seen: dict[str, object] = {}
    window.docksBuilt.connect(lambda: seen.setdefault("built at docksBuilt", sorted(
        name for name, d in window.docks.items() if d.is_built())))
    window.show()
    qtbot.waitUntil(lambda: window.ctx.backend_ready, timeout=120_000)
    # every panel there, each saying the backend loads; the left column's widgets are made at once
    # (their width sets the column's: made later, the column would widen under the user's eyes)
    assert seen["built at docksBuilt"] == ["parametersDock"]
    assert window.docks["heatmapDock"].is_built() and window.docks["parametersDock"].is_built()


def test_a_drawn_failed_or_cancelled_view_awaits_nothing(main_window, qtbot):
    from tests.conftest import wait_idle

    heatmap = main_window.docks["heatmapDock"]
    assert not heatmap.awaits_picture()  # the first picture came
    assert main_window.document_model.try_set_params("sinusoidal", n_positions=40)
    assert heatmap.awaits_picture()
    wait_idle(qtbot, main_window)
    assert not heatmap.awaits_picture()
    main_window.worker.cancel()  # nothing else may hold the shared thread while this one waits
    heatmap.refresh()
    assert heatmap.awaits_picture()
    main_window.worker.cancel(heatmap.object_name)
    qtbot.waitUntil(lambda: not heatmap.awaits_picture(), timeout=10_000)
    heatmap._on_failed(heatmap.object_name, heatmap.refresh(), "a message")  # as the worker says it
    assert not heatmap.awaits_picture()


def test_a_render_builds_only_the_dock_it_draws(qtbot):
    from peapp.document import Document
    from ui import export
    from ui.commands.render import _headless_dock

    window, dock, app = _headless_dock(export.all_views()["heatmap"], Document())
    qtbot.addWidget(window)
    window.wait_until_idle(app.processEvents)
    qtbot.wait(50)  # the docks shown with it (Parameters beside it) have had their chance to build
    assert dock.is_built()
    built = {name for name, d in window.docks.items() if d.is_built()}
    # the left column too: its widgets set its width, and so the drawn dock's (a pooled view's size)
    assert built == {"heatmapDock", "parametersDock"}
    assert window.docks["rotationDock"].isVisible() is False or not window.docks["rotationDock"].is_built()


def test_a_render_draws_at_the_size_the_gui_shows(qtbot, settings):
    """A pooled view's table follows its plot's size: a render's must be the GUI's default one."""
    from peapp.document import Document
    from ui import export
    from ui.commands.render import WINDOW_SIZE, _headless_dock
    from ui.main_window import MainWindow

    document = Document().with_params("sinusoidal", n_positions=20_000)
    window, dock, app = _headless_dock(export.all_views()["heatmap"], document)
    qtbot.addWidget(window)
    window.wait_until_idle(app.processEvents)
    gui = MainWindow(document, load_backend="now", settings=None, restore_layout=False)
    qtbot.addWidget(gui)
    gui.resize(*WINDOW_SIZE)
    gui.show()
    qtbot.waitExposed(gui)
    gui.wait_until_idle(app.processEvents)
    qtbot.wait(50)
    assert dock.viewport() == gui.docks["heatmapDock"].viewport()


def test_the_render_command_ends_fast_with_its_code_and_its_output_flushed(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
           "QT_QPA_PLATFORM": "offscreen"}
    bad = subprocess.run([sys.executable, "-m", "peapp", "render", "no-such-view", "-o", str(tmp_path / "x.png")],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert bad.returncode == 2 and "unknown view 'no-such-view'" in bad.stderr
    out = tmp_path / "x.png"
    good = subprocess.run([sys.executable, "-m", "peapp", "render", "heatmap", "--set", "n_positions=8", "-o", str(out)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
    assert good.returncode == 0, good.stderr[-2000:]
    assert good.stdout.strip() == str(out) and out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_window_closed_before_its_start_up_timers_fire_starts_nothing(qtbot, settings):
    from ui.main_window import PAINT_WAIT_MS, MainWindow

    window = MainWindow(load_backend="background", settings=settings)
    qtbot.addWidget(window)
    window.show()
    window.close()  # before the first paint's steps ran
    qtbot.wait(PAINT_WAIT_MS + 500)  # the timers that would have built the docks and loaded torch
    assert window._backend_generation is None
    assert not window.worker.is_busy()  # before: a load submitted to a stopped thread, busy for good
