"""A library a model run needs is missing (a trimmed install, a bundle built without it): the
loading code, the CLI and the probe say which one and how to get it, in one line (peapp/libraries.py).
Each test blocks an import the way Python does for a module that is not there
(``sys.modules[name] = None`` makes ``import name`` raise ModuleNotFoundError)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from peapp import cli, libraries
from peapp.checkpoints.samples import tiny_model_path
from peapp.libraries import MissingLibraryError
from peapp.model_run import load_model
from peapp.resources import resource_path

ROOT = Path(__file__).resolve().parents[2]
TINY = tiny_model_path()
TINY_GGUF = str(resource_path("models/tiny-llama.gguf"))


def block(monkeypatch, *names: str) -> None:
    for name in names:
        for loaded in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
            monkeypatch.delitem(sys.modules, loaded)
        monkeypatch.setitem(sys.modules, name, None)


def test_pins_are_pyprojects():
    requirements = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pinned = {re.split("==", r)[0].lower(): r for r in requirements}
    for library, requirement in libraries.PINS.items():
        assert pinned[library] == requirement


@pytest.mark.parametrize("library", ["transformers", "tokenizers", "safetensors", "huggingface_hub"])
def test_a_folder_model_without_a_library_names_it_and_how_to_get_it(monkeypatch, library):
    block(monkeypatch, library)
    with pytest.raises(MissingLibraryError) as caught:
        load_model(TINY, verify=False)
    text = str(caught.value)
    assert f"the library {library} is not installed" in text and "pip install" in text and "\n" not in text
    assert caught.value.library == library


@pytest.mark.parametrize("library", ["gguf", "accelerate"])
def test_a_gguf_model_without_gguf_or_accelerate_names_it(monkeypatch, tmp_path, library):
    """transformers itself says only 'accelerate is required when loading a GGUF file' (a ValueError)."""
    block(monkeypatch, library)
    with pytest.raises(MissingLibraryError, match=f"the library {library} is not installed.*pip install "
                                                  f'"{library}=='):
        load_model(TINY_GGUF, cache_dir=str(tmp_path), verify=False)


def test_a_module_missing_inside_a_library_says_reinstall():
    """In a fresh interpreter: once imported, transformers keeps its model classes (its lazy module
    caches them), so blocking the module afterwards would not be seen."""
    code = ("import sys; sys.modules['transformers.models.llama.modeling_llama'] = None\n"
            "from peapp.model_run import load_model\n"
            "try:\n    load_model(sys.argv[1], verify=False)\n"
            "except Exception as exc:\n    print(type(exc).__name__, exc)\n")
    result = subprocess.run([sys.executable, "-c", code, TINY], capture_output=True, text=True, timeout=300,
                            cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.stdout.strip() == (
        "MissingLibraryError transformers is incomplete here (it has no transformers.models.llama.modeling_llama); "
        'reinstall it: pip install --force-reinstall "transformers==5.24.0"'), result.stderr[-2000:]


def test_in_a_bundle_it_says_the_build_left_it_out(monkeypatch):
    block(monkeypatch, "transformers")
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    with pytest.raises(MissingLibraryError, match="missing from this build of the app; build it again with make "
                                                  "bundle"):
        load_model(TINY, verify=False)


def test_other_import_errors_are_not_called_missing_libraries():
    assert libraries.missing_library(ImportError("cannot import name 'x' from 'torch'", name="torch")) is None
    assert libraries.missing_library(ValueError("no")) is None
    wrapped = RuntimeError("outer")
    wrapped.__cause__ = ModuleNotFoundError("No module named 'regex'", name="regex")
    assert "the library regex is not installed" in str(libraries.missing_library(wrapped))


def test_the_cli_says_it_in_one_line(monkeypatch, capsys):
    block(monkeypatch, "transformers")
    assert cli.main(["run", TINY, "--sample-text", "--max-tokens", "16"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "internal error" not in err[0]
    assert err[0].startswith("peapp run: the library transformers is not installed")


def test_the_probe_cli_says_it_in_one_line(monkeypatch, capsys, tmp_path):
    """A probe imports transformers' sdpa attention after the model loaded: that import too."""
    folder = tmp_path / "tiny"
    shutil.copytree(TINY, folder)
    block(monkeypatch, "transformers.integrations.sdpa_attention")
    monkeypatch.setenv("PEAPP_CACHE_DIR", str(tmp_path / "cache"))
    code = cli.main(["probe", "perplexity", str(folder), "--sample-text", "--length", "64", "--variants", "linear",
                         "--dtype", "float32"])  # (auto says what it chose on stderr)
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2, err
    assert len(err) == 1 and "transformers is incomplete here (it has no transformers.integrations.sdpa_attention)" \
        in err[0]
