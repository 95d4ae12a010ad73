"""``--device`` for model runs (issue 33): ``auto`` without a GPU runs on the CPU and says so;
accelerate's ``max_memory`` forcing layers to disk gives the statistics of the unforced run; the
CLI's ``--dtype``/``--device`` reach the run JSON."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from peapp import cli
from peapp.errors import ParameterError
from peapp.model_run import RunOptions, load_model, run_model

from .test_precision import _tiny

STATISTICS = ("entropy", "sink_first", "previous_token", "local", "distance_profile", "received", "attention_map",
              "thumbnails", "rope_usage")
needs_no_gpu = pytest.mark.skipif(torch.cuda.is_available(), reason="checks the no-GPU path of --device auto")


@pytest.fixture(scope="module")
def llama(tmp_path_factory):
    return _tiny("llama", tmp_path_factory.mktemp("llama-placement"))


@needs_no_gpu
def test_device_auto_without_a_gpu_runs_on_the_cpu_and_says_so(llama):
    loaded = load_model(llama, device="auto", dtype="float32")
    assert loaded.device == "cpu" and not loaded.placement
    assert any("no GPU here, running on the CPU" in note for note in loaded.choices)


@needs_no_gpu
@pytest.mark.parametrize("limit", ["cpu=120KB", "cpu=1KB"])  # some layers on disk; everything on disk
def test_offload_forced_by_max_memory_gives_the_same_statistics(llama, limit):
    ids = [int(i) for i in np.random.default_rng(1).integers(1, 64, 80)]
    plain = run_model(load_model(llama, device="cpu", dtype="float32"), ids, RunOptions(map_bins=32))
    loaded = load_model(llama, device="auto", max_memory=limit, dtype="float32")
    assert "disk" in loaded.placement, loaded.placement  # accelerate really offloaded
    spread = run_model(loaded, ids, RunOptions(map_bins=32))
    for name in STATISTICS:
        np.testing.assert_allclose(getattr(spread, name), getattr(plain, name), rtol=1e-5, atol=1e-6, err_msg=name)
    assert spread.perplexity == pytest.approx(plain.perplexity, rel=1e-5)
    assert spread.to_json()["placement"] == loaded.placement


def test_max_memory_needs_device_auto(llama):
    with pytest.raises(ParameterError, match="--device auto"):
        load_model(llama, device="cpu", max_memory="cpu=1GiB")


def test_cli_run_records_dtype_and_device(llama, capsys):
    assert cli.main(["run", llama, "--sample-text", "--max-tokens", "24", "--dtype", "bfloat16", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["dtype"] == "bfloat16" and doc["device"] == "cpu"


@needs_no_gpu
def test_cli_device_auto_says_it_runs_on_the_cpu(llama, capsys):
    assert cli.main(["run", llama, "--sample-text", "--max-tokens", "24", "--device", "auto",
                     "--dtype", "float32"]) == 0
    out = capsys.readouterr()
    assert "no GPU here, running on the CPU" in out.err
    assert "on cpu in float32" in out.out


def test_cli_refuses_an_unknown_device(llama, capsys):
    with pytest.raises(SystemExit) as exit_:
        cli.main(["run", llama, "--device", "tpu"])
    assert exit_.value.code == 2
    assert "unknown device 'tpu'" in capsys.readouterr().err


def test_loading_fixes_glibcs_mmap_threshold():
    """(glibc's dynamic threshold let bf16 runs at 8,192 tokens fragment the heap: 2.4 GB → 0.55 GB.)"""
    import sys

    from peapp.model_run import malloc

    malloc.fix_mmap_threshold.cache_clear()
    assert malloc.fix_mmap_threshold() is sys.platform.startswith("linux")


def test_streaming_probe_takes_dtype_and_device(llama, tmp_path, capsys):
    """``peapp probe streaming`` has run's --dtype/--device: bf16 records its dtype and gives
    float32's perplexities within bf16's rounding; --ray is refused there (one forward pass)."""
    text = tmp_path / "t.txt"
    text.write_text(" ".join(f"word{i % 61}" for i in range(300)), encoding="utf-8")
    common = ["probe", "streaming", llama, "--text-file", str(text), "--length", "48", "--window", "16",
              "--sinks", "2", "--bin", "16", "--json", "--quiet"]
    docs = {}
    for dtype in ("float32", "bfloat16"):
        assert cli.main([*common, "--dtype", dtype, "--device", "auto"]) == 0
        docs[dtype] = json.loads(capsys.readouterr().out)
        assert docs[dtype]["dtype"] == dtype and docs[dtype]["device"] == "cpu"
    for a, b in zip(docs["bfloat16"]["variants"], docs["float32"]["variants"]):
        assert a["variant"] == b["variant"] and a["perplexity"] == pytest.approx(b["perplexity"], rel=5e-2)
    assert cli.main([*common, "--ray", "local"]) == 2
    assert "--ray runs the perplexity and passkey sweeps" in capsys.readouterr().err


def test_view_records_the_dtype_as_the_panels_precision(llama, tmp_path, capsys):
    """--view is drawn by the Run on text panel, whose Precision is a view setting: the session it draws
    names the dtype asked for, and --dtype auto as the core resolves it (not the app's Preferences)."""
    from peapp.commands.run import run_document
    from peapp.model_run.placement import DTYPES, resolve
    from peapp.views.run import PRECISIONS

    assert tuple(PRECISIONS) == DTYPES  # the panels' choices are the CLI's
    parser = cli.build_parser()
    figure = str(tmp_path / "f.png")
    for asked, recorded in (("bfloat16", "bfloat16"), ("float16", "float16"), ("auto", resolve("auto", "cpu").dtype)):
        args = parser.parse_args(["run", llama, "--view", "run-sinks", "-o", figure, "--dtype", asked])
        assert run_document(args).view_spec("run").dtype == recorded
    assert "dtype auto: " in capsys.readouterr().err  # what auto chose, said
