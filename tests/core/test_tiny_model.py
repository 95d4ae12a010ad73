"""The tiny Llama shipped in resources/models (the self-test's model, File > Open Sample's first
entry): the committed files are what resources/make_tiny_model.py writes, and it runs."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from peapp.checkpoints.samples import available_samples, tiny_model_path
from peapp.resources import resource_path

ROOT = Path(__file__).resolve().parents[2]


def _script():
    spec = importlib.util.spec_from_file_location("make_tiny_model", ROOT / "resources" / "make_tiny_model.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_committed_files_are_what_the_script_writes(tmp_path):
    shipped = Path(tiny_model_path())
    _script().main(folder=tmp_path / "tiny-llama", gguf_path=tmp_path / "tiny-llama.gguf")
    made = sorted(p.name for p in (tmp_path / "tiny-llama").iterdir())
    assert made == sorted(p.name for p in shipped.iterdir())
    for name in made:
        assert (tmp_path / "tiny-llama" / name).read_bytes() == (shipped / name).read_bytes(), name
    assert (tmp_path / "tiny-llama.gguf").read_bytes() == resource_path("models/tiny-llama.gguf").read_bytes()
    size = sum(p.stat().st_size for p in shipped.iterdir()) + resource_path("models/tiny-llama.gguf").stat().st_size
    assert size < 600_000  # a few hundred KB


def test_it_is_the_first_sample_and_runs_on_the_sample_text(tmp_path):
    from peapp.model_run import RunOptions, load_model, run_model, tokenize
    from peapp.model_run.text_run import resolve_text

    assert available_samples()[0][1] == tiny_model_path()
    loaded = load_model(tiny_model_path())
    ids, tokens, truncated = tokenize(loaded, resolve_text("sample")[0], 300)
    assert (loaded.family, loaded.scheme, loaded.trained_context, len(ids), truncated) == ("llama", "rope", 256, 300, True)
    assert loaded.tokenizer.decode(ids).startswith("CHAPTER I.")
    run = run_model(loaded, ids, RunOptions(), tokens=tokens)
    assert run.thumbnails.shape[:2] == (4, 4)
