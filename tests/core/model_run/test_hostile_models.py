"""Files other people made on the run, probe, lab and cache paths (issue 32).

Cases that hung or grew without bound before (FIFOs, /dev/zero, sizes a header claims) run in
the capped child processes of ``tests/core/test_hostile_files.py`` (a hang fails there by its
timeout, a blow-up by the address-space cap); the rest run here on tiny seeded checkpoints.
"""

from __future__ import annotations

import json
import os
import shutil
import stat

import numpy as np
import pytest

from peapp.errors import CheckpointError, DataFileError, ParameterError
from tests.core.model_run.conftest import VOCAB, write_tiny_gguf
from tests.core.test_hostile_files import _stop_case_server, expect_error, run_capped  # noqa: F401  (fixture: ends the server)


def _copy(folder: str, tmp_path, name: str = "model") -> str:
    target = tmp_path / name
    shutil.copytree(folder, target)
    return str(target)


def _edit_config(folder: str, **changes) -> str:
    path = os.path.join(folder, "config.json")
    with open(path, encoding="utf-8") as fh:
        cfg = json.load(fh)
    cfg.update(changes)
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(cfg, fh)
    return folder


def _cli(argv, capsys) -> tuple[int, str]:
    from peapp.cli import main

    code = main(argv)
    err = capsys.readouterr().err.strip()
    return code, err


# ---- not files, and sizes claimed: in a capped child process --------------------------------------

@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return str(path)


@pytest.mark.parametrize("target", ["fifo", "/dev/zero"])
def test_text_file_that_is_not_a_file(tmp_path, fifo, target, tiny_llama):
    path = fifo if target == "fifo" else str(tmp_path / "zero.txt")
    if target != "fifo":
        os.symlink("/dev/zero", path)
    what = "named pipe" if target == "fifo" else "device"
    expect_error(f"peapp run --text-file {target}",
                 "from peapp.commands import run\nimport argparse\np = argparse.ArgumentParser()\n"
                 f"run.add_arguments(p)\nrun.run(p.parse_args([{tiny_llama!r}, '--text-file', {path!r}]))",
                 "ParameterError", what)
    expect_error(f"Run on text panel, text file {target}",
                 "from peapp.model_run.text_run import TextRunRequest\n"
                 f"TextRunRequest(checkpoint={tiny_llama!r}, text_source='file', text_file={path!r})"
                 ".compute(lambda f: None)", "ParameterError", what)
    expect_error(f"peapp lab --task lm --text {target}",
                 f"from peapp.lab.tasks import make_task\nmake_task('lm', {path!r})", "DataFileError", what)


@pytest.mark.parametrize("name", ["tokenizer.json", "config.json", "vocab.txt"])
def test_model_folder_file_that_is_not_a_file(tmp_path, fifo, tiny_llama, name):
    folder = _copy(tiny_llama, tmp_path)
    target = os.path.join(folder, name)
    if os.path.exists(target):
        os.unlink(target)
    os.symlink("/dev/zero" if name != "tokenizer.json" else fifo, target)
    expect_error(f"model folder with {name} not a file",
                 f"from peapp.model_run import load_model\nload_model({folder!r})", "CheckpointError",
                 "regular files only")


def test_gguf_and_session_checkpoint_that_is_not_a_file(tmp_path, fifo):
    gguf_fifo = str(tmp_path / "model.gguf")
    os.rename(fifo, gguf_fifo)
    zero = str(tmp_path / "zero.gguf")
    os.symlink("/dev/zero", zero)
    for label, path in (("FIFO", gguf_fifo), ("/dev/zero", zero)):
        expect_error(f".gguf is a {label}", f"from peapp.model_run import load_model\n"
                     f"load_model({path!r}, cache_dir={str(tmp_path / 'cache')!r})", "CheckpointError", "regular")
        # what a session naming that checkpoint does from the Run on text panel
        expect_error(f"session's checkpoint is a {label}",
                     "from peapp.model_run.text_run import TextRunRequest\n"
                     f"TextRunRequest(checkpoint={path!r}, text_source='sample').compute(lambda f: None)",
                     "CheckpointError", "regular")


def test_lab_results_file_that_is_not_a_file(tmp_path, fifo):
    run_dir = tmp_path / "out" / "copy-rope-s0"
    run_dir.mkdir(parents=True)
    os.symlink(fifo, run_dir / "metrics.json")
    os.symlink("/dev/zero", run_dir / "config.json")
    report = run_capped("lab results: metrics.json a FIFO (skipped)",
                        f"from peapp.lab.results import finished_runs\nresult = finished_runs({str(tmp_path / 'out')!r})")
    assert report["outcome"] == "ok: []", report
    expect_error("lab results: config.json -> /dev/zero",
                 f"from peapp.lab.results import load_run\nload_run({str(run_dir)!r})", "CheckpointError", "device")


def test_config_claiming_200000_layers_is_refused_before_building(tmp_path, tiny_llama):
    folder = _edit_config(_copy(tiny_llama, tmp_path), num_hidden_layers=200_000)
    expect_error("config: 200,000 layers over 2", f"from peapp.model_run import load_model\nload_model({folder!r})",
                 "CheckpointError", "200,000 layers but the weights hold 2")


def test_gguf_header_claiming_65536_wide_over_16_wide_tensors(tmp_path, tiny_llama):
    path = write_tiny_gguf(str(tmp_path / "wide.gguf"), tiny_llama, width=65_536)
    expect_error("GGUF: 65,536 wide over 32-wide tensors", f"from peapp.model_run import load_model\n"
                 f"load_model({path!r}, cache_dir={str(tmp_path / 'cache')!r})", "CheckpointError",
                 "65,536 wide but token_embd.weight is 32 wide")
    path = write_tiny_gguf(str(tmp_path / "deep.gguf"), tiny_llama, blocks=100_000)
    expect_error("GGUF: 100,000 blocks over 2", f"from peapp.model_run import load_model\n"
                 f"load_model({path!r}, cache_dir={str(tmp_path / 'cache')!r})", "CheckpointError",
                 "100,000 layers but the file holds 2")


def test_text_over_the_cap_is_refused_saying_the_cap(tmp_path, tiny_llama):
    big = tmp_path / "big.txt"
    with open(big, "wb") as fh:
        fh.write(b"w1 w2 ")
        fh.truncate(120 * 1024 * 1024)  # sparse: 120 MB without writing them
    expect_error("120 MB text, --max-tokens 64", "from peapp.commands import run\nimport argparse\n"
                 "p = argparse.ArgumentParser()\nrun.add_arguments(p)\n"
                 f"run.run(p.parse_args([{tiny_llama!r}, '--text-file', {str(big)!r}, '--max-tokens', '64']))",
                 "ParameterError", "(16 MiB)")


def test_lab_training_length_beyond_the_lab_is_refused_with_the_estimate(tmp_path):
    expect_error("peapp lab --train-length 1000000",
                 "from peapp.lab.grid import GridSpec\nGridSpec(encodings=('rope',), train_length=1_000_000, seeds=1)",
                 "ParameterError", "PiB of attention scores")


# ---- only what --max-tokens needs is tokenised ----------------------------------------------------

def test_only_the_needed_start_of_a_long_text_is_tokenised(tiny_llama):
    from peapp.model_run import load_model, tokenize
    from peapp.model_run.probes import tokenize_all

    loaded = load_model(tiny_llama, verify=False)
    text = " ".join(f"w{1 + i % (VOCAB - 1)}" for i in range(2_000_000))  # 9 MB, under the 16 MiB cap
    seen = []
    real = loaded.tokenizer._tokenizer
    real.no_truncation()
    whole = real.encode(text[:5000]).ids

    class Spy:
        def __getattr__(self, name):
            return getattr(real, name)

        def encode(self, part, *args, **kwargs):
            seen.append(len(part))
            return real.encode(part, *args, **kwargs)

    loaded.tokenizer._tokenizer = Spy()
    ids, tokens, truncated = tokenize(loaded, text, 64)
    assert ids == whole[:64] and truncated
    assert max(seen) < 100_000, seen  # not the 9 MB
    seen.clear()
    assert tokenize_all(loaded, text, 300)[:300] == whole[:300]
    assert max(seen) < 100_000, seen


def test_max_tokens_out_of_range_is_one_line(tiny_llama, capsys):
    code, err = _cli(["run", tiny_llama, "--sample-text", "--max-tokens", str(10 ** 30)], capsys)
    assert code == 2 and "--max-tokens must be between 2 and 131,072" in err, err
    code, err = _cli(["probe", "perplexity", tiny_llama, "--length", str(10 ** 30)], capsys)
    assert code == 2 and "--length must be between 2 and 131,072" in err, err
    for argv, says in ((["perplexity", "--length", "64", "--window", str(10 ** 20)], "--window must be between 1"),
                       (["passkey", "--lengths", str(10 ** 12)], "--lengths must each be between 2 and 131,072"),
                       (["passkey", "--trials", str(10 ** 12)], "--trials must be between 1 and 100"),
                       (["passkey", "--depths", "0,7"], "depth 7 is outside 0 … 1")):
        code, err = _cli(["probe", argv[0], tiny_llama, *argv[1:]], capsys)
        assert code == 2 and says in err and "internal error" not in err, err


@pytest.mark.parametrize("settings,says", [({"seeds": 10 ** 9}, "seeds must be at most 1000"),
                                           ({"d_model": 4096, "n_layers": 4096}, "a training step would need about"),
                                           ({"train_length": 4096}, "a training step would need about"),
                                           ({"eval_lengths": (10, 10 ** 9)}, "evaluation lengths must each be")])
def test_lab_sizes_are_checked_against_memory_before_training(settings, says, monkeypatch):
    import peapp.memory
    from peapp.lab.grid import GridSpec

    monkeypatch.setattr(peapp.memory, "budget_bytes", lambda: 16 << 30)  # the same on every machine

    with pytest.raises(ParameterError, match=says):
        GridSpec(encodings=("rope",), **settings)
    GridSpec(encodings=("rope",), train_length=512, d_model=512, n_layers=8, n_heads=16, seeds=10)  # the panel's most


# ---- broken checkpoints: one line naming the file and the fault -----------------------------------

def _word_level(vocab: dict[str, int], pattern: str | None = None):
    from tokenizers import Regex, Tokenizer, models, pre_tokenizers

    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = (pre_tokenizers.Whitespace() if pattern is None
                         else pre_tokenizers.Split(Regex(pattern), "isolated"))
    return tok


def _broken(kind: str, tiny_llama: str, tmp_path) -> tuple[str, str, str]:
    """(folder, text, what the message must say) for one kind of broken checkpoint."""
    folder = _copy(tiny_llama, tmp_path, kind)
    text = "w1 w2 w3 w4 w5 w6 w7 w8"
    if kind == "shape mismatch":
        _edit_config(folder, intermediate_size=48)
        return folder, text, "model.layers.0.mlp.gate_proj.weight is 64×32 in the weights but config.json makes it 48×32"
    if kind == "heads do not divide":
        _edit_config(folder, num_attention_heads=5, num_key_value_heads=5, head_dim=None)
        return folder, text, "5 attention heads do not divide the width 32"
    if kind == "quantization library missing":
        _edit_config(folder, quantization_config={"quant_method": "awq", "bits": 4})
        return folder, text, "needs a library that is not installed"
    if kind == "architectures not a model":
        _edit_config(folder, architectures=["AutoTokenizer"])
        return folder, text, "architectures names 'AutoTokenizer', which is not a transformers model class"
    if kind == "tokenizer ids past the vocabulary":
        _word_level({"[UNK]": 0, "w1": 1, "w200": 200}).save(os.path.join(folder, "tokenizer.json"))
        return folder, "w1 w200 w1 w1", "token id 200 but the model has only 64 embeddings"
    if kind == "merges name unknown tokens":
        with open(os.path.join(folder, "tokenizer.json"), "w", encoding="utf-8") as fh:
            json.dump({"version": "1.0", "model": {"type": "BPE", "vocab": {"a": 0, "b": 1, "ab": 2},
                                                   "merges": ["x y"]}}, fh)
        return folder, text, "Token `x` out of vocabulary"
    if kind == "tokenizer panics":
        _word_level({"[UNK]": 0, "a": 1}, "(a|aa)+$").save(os.path.join(folder, "tokenizer.json"))
        return folder, "a" * 60 + "!", "retry-limit-in-match"
    raise AssertionError(kind)


BROKEN = ("shape mismatch", "heads do not divide", "quantization library missing", "architectures not a model",
          "tokenizer ids past the vocabulary", "merges name unknown tokens", "tokenizer panics")


@pytest.mark.parametrize("kind", BROKEN)
def test_broken_checkpoint_is_one_line_naming_file_and_fault(kind, tiny_llama, tmp_path, capsys):
    folder, text, says = _broken(kind, tiny_llama, tmp_path)
    text_file = tmp_path / "text.txt"
    text_file.write_text(text, encoding="utf-8")
    code, err = _cli(["run", folder, "--text-file", str(text_file), "--max-tokens", "16"], capsys)
    last = err.splitlines()[-1]  # (a Rust panic prints its own two lines first: the library's, not ours)
    assert code == 2, err
    assert last.startswith("peapp run: ") and folder in last and says in last, err
    assert "internal error" not in err and "Traceback" not in err


def test_tokenizer_panic_in_the_run_panel_request_is_a_checkpoint_error(tiny_llama, tmp_path):
    from peapp.model_run.text_run import MODEL_CACHE, TextRunRequest

    folder, text, says = _broken("tokenizer panics", tiny_llama, tmp_path)
    MODEL_CACHE.clear()
    with pytest.raises(CheckpointError, match="retry-limit-in-match") as caught:
        TextRunRequest(checkpoint=folder, text_source="typed", text=text, max_tokens=16).compute(lambda f: None)
    assert folder in str(caught.value)
    MODEL_CACHE.clear()


# ---- the conversion cache -------------------------------------------------------------------------

def _logits(loaded) -> np.ndarray:
    import torch

    with torch.no_grad():
        return loaded.model(input_ids=torch.arange(1, 9).unsqueeze(0)).logits.numpy()


def test_cache_records_and_verifies_what_it_wrote(tiny_gguf, tiny_llama, tmp_path, capfd):
    from safetensors.torch import save_file

    from peapp.model_run import load_model

    steps = []
    first = load_model(tiny_gguf, cache_dir=str(tmp_path), progress=steps.append)
    assert first.source == "gguf (converted now)" and not first.notes
    assert "Converting and de-quantizing" not in capfd.readouterr().err  # transformers' tqdm bar
    assert len([f for f in steps if 0.3 <= f <= 0.75]) >= 10  # one step per tensor, peapp's own progress
    entry = first.cache_folder
    info = json.load(open(os.path.join(entry, "peapp-cache.json"), encoding="utf-8"))
    assert set(info["files"]) == {"config.json", "model.safetensors", "tokenizer.json"}
    modes = {stat.S_IMODE(os.stat(os.path.join(entry, f)).st_mode) for f in os.listdir(entry)}
    assert len(modes) == 1, modes  # safetensors wrote 0600 beside 0644
    expected = _logits(first)

    # other valid weights in place of the converted ones: found, rebuilt, the same numbers again
    weights = os.path.join(entry, "model.safetensors")
    from safetensors.numpy import load_file

    other = {k: np.ascontiguousarray(v[::-1]) if v.ndim == 2 else v for k, v in load_file(weights).items()}
    import torch

    save_file({k: torch.from_numpy(v.copy()) for k, v in other.items()}, weights)
    again = load_model(tiny_gguf, cache_dir=str(tmp_path))
    assert again.source == "gguf (converted now)"
    assert any("model.safetensors changed since it was written" in n for n in again.notes), again.notes
    np.testing.assert_allclose(_logits(again), expected, rtol=1e-5, atol=1e-6)
    # a truncated entry: rebuilt too, with a notice; the next open reads the cache
    with open(weights, "r+b") as fh:
        fh.truncate(100)
    third = load_model(tiny_gguf, cache_dir=str(tmp_path))
    assert third.source == "gguf (converted now)" and len(third.notes) == 1, third.notes
    assert load_model(tiny_gguf, cache_dir=str(tmp_path)).source == "gguf (cache)"


def test_cache_that_cannot_be_written_still_runs(tiny_gguf, tmp_path, monkeypatch):
    from peapp.model_run import load_model

    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    loaded = load_model(tiny_gguf, cache_dir=str(blocker / "cache"))  # cannot be created
    assert loaded.source == "gguf (converted now)" and loaded.cache_folder is None
    assert any("could not cache the converted model" in n and "runs from memory" in n for n in loaded.notes)

    import safetensors.torch

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safetensors.torch, "save_model", full_disk)
    cache = tmp_path / "full"
    loaded = load_model(tiny_gguf, cache_dir=str(cache))
    assert any("No space left on device" in n for n in loaded.notes), loaded.notes
    assert os.listdir(cache) == []  # the partial folder is gone


def test_interrupted_conversion_leaves_nothing_and_stale_partials_go(tiny_gguf, tmp_path, monkeypatch):
    import safetensors.torch

    from peapp.model_run import load_model

    stale = tmp_path / "gguf-0123456789abcdef.partial-999999999"  # a process that cannot exist
    stale.mkdir()
    (stale / "model.safetensors").write_bytes(b"\0" * 1000)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(safetensors.torch, "save_model", interrupted)
    with pytest.raises(KeyboardInterrupt):
        load_model(tiny_gguf, cache_dir=str(tmp_path))
    assert os.listdir(tmp_path) == []


# ---- saved results, validated field by field ------------------------------------------------------

def _saved_perplexity() -> dict:
    return {"probe": "perplexity", "family": "llama", "architecture": "LlamaForCausalLM", "scheme": "rope",
            "n_tokens": 100, "n_measured": 100, "trained_context": 128, "position_limit": None, "factor": 2.0,
            "window": 16, "variants": [{"variant": "none", "factor": 1.0, "attention_factor": 1.0,
                                        "nll": [1.0] * 99}]}


@pytest.mark.parametrize("field,value", [("trained_context", "abc"), ("n_tokens", 10 ** 30),
                                         ("window", [1]), ("variants", [{"variant": "none", "factor": 1.0,
                                                                         "attention_factor": 1.0,
                                                                         "nll": ["x", 2.0]}])])
def test_saved_probe_result_with_wrong_types_is_refused(field, value, tmp_path):
    from peapp.model_run.probe_run import read_saved_result

    doc = _saved_perplexity()
    read_saved_result_path = tmp_path / "result.json"
    read_saved_result_path.write_text(json.dumps(doc))
    assert read_saved_result(str(read_saved_result_path)).n_tokens == 100
    doc[field] = value
    read_saved_result_path.write_text(json.dumps(doc))
    with pytest.raises(ParameterError, match="incomplete or damaged"):
        read_saved_result(str(read_saved_result_path))


def _metrics() -> dict:
    return {"run_id": "copy-rope-s0", "spec": {"seed": 0}, "metric": "exact_match", "train_positions": 21,
            "loss_curve": [[10, 2.5], [20, 1.5]],
            "eval": {"rope": [{"length": 10, "positions": 21, "value": 0.5}]}}


@pytest.mark.parametrize("damage", ["list", "loss_curve strings", "length 10**30", "value text"])
def test_lab_metrics_with_wrong_types_are_named_and_skipped(damage, tmp_path):
    from peapp.analysis.lab import load_results
    from peapp.lab.results import finished_runs

    metrics = _metrics()
    if damage == "list":
        metrics = [metrics]
    elif damage == "loss_curve strings":
        metrics["loss_curve"] = [["a", "b"]]
    elif damage == "length 10**30":
        metrics["eval"]["rope"][0]["length"] = 10 ** 30
    else:
        metrics["eval"]["rope"][0]["value"] = "high"
    run = tmp_path / "copy-rope-s0"
    run.mkdir()
    (run / "metrics.json").write_text(json.dumps(metrics))
    assert finished_runs(tmp_path) == []  # re-trained rather than trusted
    results = load_results(tmp_path)  # the Training lab panel's read: a note, no traceback
    assert results.runs == 0 and any("copy-rope-s0" in n for n in results.notes), results.notes


def test_lab_text_and_missing_files_are_one_line(tmp_path):
    from peapp.lab.tasks import make_task

    with pytest.raises(DataFileError, match="does not exist"):
        make_task("lm", tmp_path / "nothing.txt")
    (tmp_path / "latin1.txt").write_bytes("é".encode("latin-1") * 3000)
    with pytest.raises(DataFileError, match="not UTF-8"):
        make_task("lm", tmp_path / "latin1.txt")
