"""The start-up probe behind tests/bench/bench_startup.py: stamps in order, then the app quits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_probe_prints_ordered_stamps_and_quits(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PEAPP_STARTUP_PROBE": "1",
           "XDG_CONFIG_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, str(ROOT / "main.py")], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    stamps = {}
    for line in result.stdout.splitlines():
        tag, event, when = line.split()
        assert tag == "peapp-probe"
        stamps[event] = float(when)
    # every panel is there at the first paint; torch loads after it; the heatmap draws after that
    assert set(stamps) == {"main", "window-visible", "panels-present", "backend-ready", "heatmap-drawn",
                           "backend-seconds"}
    assert 0 < stamps["backend-seconds"] <= stamps["backend-ready"] - stamps["main"]
    assert stamps["main"] <= stamps["window-visible"] <= stamps["panels-present"] <= stamps["backend-ready"] \
        <= stamps["heatmap-drawn"]
