"""The ``--self-test`` path the bundle's smoke test runs, here unpacked (ui/self_test.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_self_test_passes_in_process(qapp, tmp_path, capsys):
    from ui.self_test import run_self_test

    assert run_self_test(tmp_path) == 0
    out = capsys.readouterr().out
    assert "peapp self-test passed" in out and "dock heatmapDock" in out
    for line in ("Run on text: tiny Llama, 256 tokens", "Probes: perplexity, variant linear",
                 "Run on text: the same as GGUF, 256 tokens", "Training lab: one run in a worker process",
                 "Hindi and back"):
        assert line in out
    pngs = list(tmp_path.glob("peapp-self-test-*.png"))
    assert len(pngs) == 1 and pngs[0].stat().st_size > 1000


def test_self_test_fails_with_one_line_when_no_dock_is_found(qapp, tmp_path, capsys, monkeypatch):
    import ui.docks
    from ui.self_test import run_self_test

    monkeypatch.setattr(ui.docks, "dock_classes", lambda: [])
    assert run_self_test(tmp_path) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no docks were discovered" in err[0]


def test_self_test_names_a_library_a_panel_cannot_import(qapp, tmp_path, capsys, monkeypatch):
    """A bundle that left out what GGUF loading needs fails its self-test, naming the module."""
    from ui.self_test import run_self_test

    for loaded in [m for m in sys.modules if m == "accelerate" or m.startswith("accelerate.")]:
        monkeypatch.delitem(sys.modules, loaded)
    monkeypatch.setitem(sys.modules, "accelerate", None)
    assert run_self_test(tmp_path) == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err
    assert err[0].startswith("peapp self-test FAILED: RuntimeError: Run on text could not run the tiny GGUF model: "
                             "the library accelerate is not installed")


def test_main_py_self_test_flag(tmp_path):
    env = {**os.environ, "XDG_CONFIG_HOME": str(tmp_path)}
    env.pop("QT_QPA_PLATFORM", None)  # the flag must force offscreen by itself
    env.pop("DISPLAY", None)
    result = subprocess.run([sys.executable, str(ROOT / "main.py"), "--self-test"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert "peapp self-test passed" in result.stdout
    assert not list(tmp_path.rglob("*.conf")) and not list(tmp_path.rglob("*.ini"))  # user settings untouched
