"""Guards against a known-bad Qt binding: PySide6-Essentials 6.12.0 drops a reference to None on
every QApplication.processEvents(), and on Python 3.11 (None is not immortal) the process dies
with "deallocating None" after some ten thousand calls — i.e. minutes into a session."""

import sys


def test_process_events_does_not_leak_none_references(qapp):
    before = sys.getrefcount(None)
    for _ in range(2000):
        qapp.processEvents()
    assert sys.getrefcount(None) - before > -100
