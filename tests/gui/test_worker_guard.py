"""The compute thread never dies, and the window always closes cleanly, even with a blocked job."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from dataclasses import dataclass

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from peapp.jobs import Request  # noqa: E402


@dataclass(frozen=True)
class _Raises(Request):
    what: str = "exit"

    def compute(self, progress):
        raise SystemExit(3) if self.what == "exit" else KeyboardInterrupt()


@dataclass(frozen=True)
class _Answer(Request):
    def compute(self, progress):
        return 42


def test_a_job_raising_anything_leaves_the_worker_running(qtbot, app_context):
    worker = app_context.worker
    results = []
    worker.resultReady.connect(lambda ch, gen, value: results.append(value))
    worker.submit("a", _Raises("exit"))
    worker.submit("b", _Raises("interrupt"))
    qtbot.waitUntil(lambda: not worker.is_busy(), timeout=10_000)
    worker.submit("c", _Answer())
    qtbot.waitUntil(lambda: results == [42], timeout=10_000)


_CLOSE_WITH_BLOCKED_JOB = r"""
import sys, threading, time
from dataclasses import dataclass
from PySide6.QtWidgets import QApplication
from peapp.jobs import Request
import ui.worker
ui.worker.SHUTDOWN_WAIT_S = 0.3

@dataclass(frozen=True)
class Blocked(Request):
    def compute(self, progress):
        threading.Event().wait()  # like a read that never returns; no progress points

app = QApplication([sys.argv[0]])
from ui.main_window import MainWindow
window = MainWindow(load_backend="now", settings=None)
window.show()
window.wait_until_idle(app.processEvents)
window.worker.submit("stuck", Blocked())
deadline = time.monotonic() + 10
while window.worker.running_channel() != "stuck" and time.monotonic() < deadline:
    app.processEvents(); time.sleep(0.01)
window.close()
print("closed", flush=True)
if sys.argv[1] == "app":  # the end of ui.app.main
    import shiboken6
    shiboken6.delete(window)
    from ui.app import finish
    sys.exit(finish(7))
# else: the interpreter's own exit (a script that never deletes the window)
"""


def _run_close(mode: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": ROOT, "QT_QPA_PLATFORM": "offscreen", "OMP_NUM_THREADS": "1"}
    return subprocess.run([sys.executable, "-c", _CLOSE_WITH_BLOCKED_JOB, mode], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=120, check=False)


def test_window_closes_cleanly_with_a_blocked_job():
    """Was: "QThread: Destroyed while thread is still running", exit 134 (SIGABRT)."""
    proc = _run_close("app")
    assert proc.returncode == 7, (proc.returncode, proc.stderr[-2000:])
    assert "closed" in proc.stdout and "Destroyed while thread" not in proc.stderr
    assert "abandoned" in proc.stderr
    proc = _run_close("script")
    assert proc.returncode == 0, (proc.returncode, proc.stderr[-2000:])
    assert "Destroyed while thread" not in proc.stderr


def test_gui_exception_hook_shows_one_line(qtbot, main_window):
    from ui.app import install_exception_hook

    old = sys.excepthook
    try:
        install_exception_hook(main_window)
        try:
            raise ValueError("boom")
        except ValueError:
            sys.excepthook(*sys.exc_info())
        assert "internal error (ValueError: boom)" in main_window.statusBar().currentMessage()
    finally:
        sys.excepthook = old
    assert threading.current_thread() is threading.main_thread()
