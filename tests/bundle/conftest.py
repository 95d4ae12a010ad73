"""Bundle tests build the PyInstaller app (minutes): they run only when asked with ``-m bundle``
(``make bundle-test``), and are deselected — not skipped — from the default suite."""

from __future__ import annotations


def pytest_collection_modifyitems(config, items):
    if "bundle" in (config.getoption("markexpr") or ""):
        return
    deselected = [item for item in items if item.get_closest_marker("bundle")]
    if deselected:
        config.hook.pytest_deselected(items=deselected)
        items[:] = [item for item in items if not item.get_closest_marker("bundle")]
