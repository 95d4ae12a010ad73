"""Guards against a known-bad Qt binding: PySide6-Essentials 6.12.0 drops a reference to None on
every QApplication.processEvents(), and on Python 3.11 (None is not immortal) the process dies
with "deallocating None" after some ten thousand calls — i.e. minutes into a session.

From Python 3.12 None is immortal: its reference count no longer moves, so the leak can neither
be seen nor crash there.  The app still supports 3.11 (``requires-python``), so on every Python
the installed binding must not be a release known to leak; where the count can be observed, the
leak itself is measured too, which also catches a release not yet known to leak.
"""

import sys

import PySide6

# Releases that leak a None reference per processEvents() (see the PySide6-Essentials pin).
LEAKING_RELEASES = {"6.12.0"}


def none_references_observable() -> bool:
    """Whether sys.getrefcount(None) moves when references are taken (False when None is immortal)."""
    before = sys.getrefcount(None)
    held = [None] * 1000
    observable = sys.getrefcount(None) - before >= len(held)
    del held
    return observable


def test_process_events_does_not_leak_none_references(qapp):
    assert PySide6.__version__ not in LEAKING_RELEASES, (
        f"PySide6 {PySide6.__version__} drops a reference to None per processEvents(): on Python 3.11 the "
        f"app crashes after ~10^4 calls. Keep the pin in pyproject.toml.")
    if sys.version_info < (3, 12):  # None is mortal: the probe must work, or the check below proves nothing
        assert none_references_observable()
    if none_references_observable():  # not on 3.12+, where None is immortal and cannot be freed
        before = sys.getrefcount(None)
        for _ in range(2000):
            qapp.processEvents()
        assert sys.getrefcount(None) - before > -100  # a leaking binding loses 2000
