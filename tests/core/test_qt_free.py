"""peapp must import, module by module, with Qt made unimportable."""

import subprocess
import sys

SCRIPT = r"""
import sys
for name in ("PySide6", "pyqtgraph", "shiboken6", "superqt"):
    sys.modules[name] = None
import importlib, pkgutil, peapp
bad = []
for m in pkgutil.walk_packages(peapp.__path__, "peapp."):
    try:
        importlib.import_module(m.name)
    except ImportError as exc:
        bad.append(f"{m.name}: {exc}")
print("\n".join(bad))
sys.exit(1 if bad else 0)
"""


def test_peapp_imports_without_qt():
    proc = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
