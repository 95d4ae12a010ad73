"""``ui.application.preload_torch_library``: torch's C++ library is mapped before ``import torch``,
on a thread, with nothing Python-side loaded; torch then imports and computes as ever.

In a fresh process (pytest's other tests have imported torch already)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent('''
    import sys
    from ui.application import preload_torch_library, quiet_openmp

    def mapped():
        with open("/proc/self/maps") as maps:
            return any(line.rstrip().endswith("/libtorch_cpu.so") for line in maps)

    quiet_openmp()
    if not sys.platform.startswith("linux"):  # Linux only: elsewhere nothing is started
        assert preload_torch_library() is None
        print("ok")
        raise SystemExit(0)
    assert not mapped()
    thread = preload_torch_library()
    assert thread is not None, "no preload started on Linux with torch installed"
    thread.join(120)
    assert not thread.is_alive()
    assert mapped(), "libtorch_cpu.so is not loaded after the preload"
    assert "torch" not in sys.modules, "the preload imported torch itself"
    assert preload_torch_library() is not None  # harmless twice (dlopen counts references)
    import torch
    assert float(torch.arange(4, dtype=torch.float32).sum()) == 6.0
    assert preload_torch_library() is None  # torch is there: nothing to do
    print("ok")
''')


def test_preload_maps_torch_library_without_importing_torch(tmp_path):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    result = subprocess.run([sys.executable, "-c", SCRIPT], cwd=tmp_path, env=env, capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split()[-1] == "ok"
