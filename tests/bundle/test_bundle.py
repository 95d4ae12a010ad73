"""Build the one-folder bundle with packaging/build.py and check what it holds (``make bundle-test``).

The build script itself runs ``dist/peapp/peapp --self-test`` (window offscreen, one view per
dock, the shipped tiny Llama run on text as a folder and as GGUF, a one-variant probe, a one-run
Training lab grid, Hindi and back, one PNG); this test also checks the bundle's contents: what
must stay (what ``import torch`` loads, the libraries a model run imports, the resources and the
tiny model, every dock), what must not be there (other Qt bindings, torch's tests and headers,
transformers' code-generation sources and command-line tools, Ray), and the size target.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SIZE_LIMIT_MB = 1000

pytestmark = pytest.mark.bundle


@pytest.fixture(scope="module")
def bundle() -> Path:
    result = subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py")], cwd=ROOT,
                            capture_output=True, text=True, timeout=3600)
    print(result.stdout[-4000:])
    assert result.returncode == 0, (result.stdout[-2000:], result.stderr[-4000:])
    assert "peapp self-test passed" in result.stdout
    assert "Run on text: tiny Llama" in result.stdout and "Probes: perplexity, variant" in result.stdout
    return ROOT / "dist" / "peapp"


def test_executable_and_size(bundle):
    exe = bundle / ("peapp.exe" if sys.platform == "win32" else "peapp")
    assert exe.is_file() and os.access(exe, os.X_OK)
    size = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file() and not p.is_symlink())
    assert size / 2**20 < SIZE_LIMIT_MB, f"bundle is {size / 2**20:.0f} MiB"


def test_kept_what_torch_and_the_app_load(bundle):
    internal = bundle / "_internal"
    assert (internal / "torch" / "bin" / "torch_shm_manager").is_file()
    assert any((internal / "torch" / "lib").glob("libtorch_cpu*"))
    for size in (16, 32, 48, 256):
        assert (internal / "resources" / "icons" / f"peapp-{size}.png").is_file()
    assert (internal / "resources" / "models" / "tiny-llama" / "model.safetensors").is_file()
    assert (internal / "resources" / "models" / "tiny-llama.gguf").is_file()
    for name in ("transformers", "tokenizers", "accelerate", "gguf", "safetensors", "huggingface_hub"):
        assert list(internal.glob(f"{name}*")), name  # its folder, or its metadata (pure Python: in the archive;
        # the self-test imports and runs them)
    # the sources peapp and transformers read at run time (registry_families, the lazy import table)
    assert (internal / "transformers" / "models" / "llama" / "modeling_llama.py").is_file()
    assert (internal / "torch" / "_inductor" / "config.py").is_file()


def test_left_out_other_bindings_and_torch_dev_files(bundle):
    internal = bundle / "_internal"
    for name in ("PyQt5", "PyQt6", "PySide2", "tkinter", "_tkinter", "mypy", "pydantic_core", "hf_xet",
                 "transformers/cli", "transformers/pipelines", "PySide6/Qt/translations",
                 "ray", "google"):  # Ray (in the build's venv: the test extra pulls it) and its protobuf
        assert not (internal / name).exists(), name
    assert not list((internal / "transformers").rglob("modular_*.py"))
    assert not list(internal.rglob("_tkinter*.so"))
    for folder in ("include", "test", "share"):
        assert not (internal / "torch" / folder).exists(), f"torch/{folder}"
    assert not list((internal / "torch" / "bin").glob("test_*"))


def test_every_dock_is_in_the_bundle(bundle, tmp_path):
    """The self-test output names each dock it computed; compare with the source tree's docks."""
    import ui.docks

    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "XDG_CONFIG_HOME": str(tmp_path)}
    result = subprocess.run([str(bundle / "peapp"), "--self-test"], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    computed = {line.split()[1] for line in result.stdout.splitlines() if line.strip().startswith("dock ")}
    assert computed == {cls.object_name for cls in ui.docks.dock_classes()}
