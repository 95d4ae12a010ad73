"""Cycles are collected on the GUI thread, never on the compute thread that allocated past the threshold."""

from __future__ import annotations

import gc
import threading
import weakref


class _Cycle:
    def __init__(self):
        self.me = self


def test_a_cycle_dropped_is_freed_on_the_gui_thread_even_when_a_compute_thread_allocates(qtbot):
    from PySide6.QtWidgets import QApplication

    from ui import gui_thread_gc

    collector = gui_thread_gc.install(QApplication.instance())
    assert not gc.isenabled()
    freed_on: list[str] = []
    cycle = _Cycle()
    weakref.finalize(cycle, lambda: freed_on.append(threading.current_thread().name))
    del cycle

    def allocate() -> None:  # as a model run does: far past every generation's threshold
        for _ in range(50_000):
            _Cycle()

    worker = threading.Thread(target=allocate, name="compute")
    worker.start()
    worker.join()
    assert freed_on == []  # with automatic collection the compute thread would have freed it
    assert collector.collect_if_due() >= 0
    gc.collect()  # whatever generation was due, the rest goes now, on this thread
    assert freed_on == [threading.main_thread().name]


def test_the_timer_collects_without_being_asked(qtbot):
    from PySide6.QtWidgets import QApplication

    from ui import gui_thread_gc

    gui_thread_gc.install(QApplication.instance())
    for _ in range(20_000):
        _Cycle()
    assert gc.get_count()[0] > gc.get_threshold()[0]
    qtbot.waitUntil(lambda: gc.get_count()[0] < gc.get_threshold()[0], timeout=5000)
