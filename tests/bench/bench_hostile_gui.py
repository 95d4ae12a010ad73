"""How long the GUI thread is blocked while opening hostile files (issue 19).

A 10 ms QTimer heartbeat runs on the GUI thread; for each case the largest gap between beats
while the action runs (and the file reader and the worker finish what it started) is the longest
the GUI froze.  The cases are tests/gui/hostile_files.py's (the PNG bomb at the issue's 1 GiB);
each line also says on which threads the file was opened (peapp.safe_open.open_regular) — "GUI"
there would be a bug (tests/gui/test_hostile_reads.py asserts it never is).
Run:  QT_QPA_PLATFORM=offscreen python tests/bench/bench_hostile_gui.py   (prints one line per case)
"""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def main() -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from peapp import safe_open
    from tests.gui.hostile_files import make_cases, open_case
    from ui.main_window import MainWindow

    opened: list[int] = []
    real_open = safe_open.open_regular

    def recording(path, kind, error=safe_open.PeappError):
        opened.append(threading.get_ident())
        return real_open(path, kind, error)

    safe_open.open_regular = recording
    gui = threading.get_ident()
    app = QApplication.instance() or QApplication([sys.argv[0]])
    window = MainWindow(load_backend="now", settings=None)
    window.show()
    errors: list[str] = []
    window.export_actions.show_error = lambda title, message: errors.append(message)  # no modal box here
    window.wait_until_idle(app.processEvents)

    beats = [time.monotonic()]
    worst = [0.0]

    def beat() -> None:
        now = time.monotonic()
        worst[0] = max(worst[0], now - beats[0])
        beats[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(beat)
    timer.start()

    def busy() -> bool:
        return window.compute_busy() or window.reader.is_busy()

    def measure(action) -> float:
        end = time.monotonic() + 0.2
        while time.monotonic() < end:  # settle
            app.processEvents()
            time.sleep(0.002)
        beats[0], worst[0] = time.monotonic(), 0.0
        QTimer.singleShot(0, action)
        end = time.monotonic() + 0.5
        while time.monotonic() < end or busy():
            app.processEvents()
            time.sleep(0.002)
        return worst[0] * 1000

    with tempfile.TemporaryDirectory() as folder:
        cases = make_cases(folder, bomb_mib=1024)
        print(f"load {open('/proc/loadavg').read().split()[:3]}")
        overall = 0.0
        for label, kind, path, _named in cases:
            errors.clear()
            del opened[:]
            ms = measure(lambda k=kind, p=path: open_case(window, k, p))
            overall = max(overall, ms)
            threads = "GUI!" if gui in opened else f"{len(opened)} off-GUI"
            said = errors[-1] if errors else window.statusBar().currentMessage()
            flag = "OVER 100 ms" if ms > 100 else "ok"
            print(f"{label:52s} GUI blocked at most {ms:7.1f} ms  {flag:11s} opens: {threads:10s} {said[:90]!r}")
            window.document_model.undo_stack.setIndex(0)  # the next case starts from the same document
            window.wait_until_idle(app.processEvents)
        print(f"worst GUI-thread gap over all cases: {overall:.1f} ms; load {open('/proc/loadavg').read().split()[:3]}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
