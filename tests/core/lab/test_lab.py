"""The training lab: each scheme depends on positions only where it should, short training
learns copy, "cannot" is a result, results round-trip, seeds reproduce, failures keep runs."""

from __future__ import annotations

import errno
import json
import subprocess
import sys
from dataclasses import replace

import pytest
import torch

from peapp.encodings import alibi, relative, rope
from peapp.errors import ResultsWriteError
from peapp.lab import grid as lab_grid
from peapp.lab import results
from peapp.lab.model import LabModel, ModelConfig
from peapp.lab.tasks import BOS, IGNORE, SEP, RecallTask, copy_task, reverse_task
from peapp.lab.train import RunSpec, TrainSettings, train_run

VOCAB = 19


def _model(encoding: str, causal: bool = True, seed: int = 0, max_positions: int = 64) -> LabModel:
    torch.manual_seed(seed)
    return LabModel(ModelConfig(encoding, VOCAB, max_positions, causal=causal)).eval()


def _tokens(t: int = 12, seed: int = 1) -> torch.Tensor:
    return torch.randint(3, VOCAB, (2, t), generator=torch.Generator().manual_seed(seed))


def _layer0_scores(model: LabModel, tokens: torch.Tensor, offset: int = 0) -> torch.Tensor:
    kept: list = []
    with torch.no_grad():
        model(tokens, offset=offset, keep_attention=kept)
    return kept[0][0]


# ---- positions only where they should matter ----------------------------------------------------

def test_nope_without_causal_mask_is_permutation_equivariant():
    tokens = _tokens()
    perm = torch.randperm(tokens.shape[1], generator=torch.Generator().manual_seed(3))
    with torch.no_grad():
        nope = _model("nope", causal=False)
        out, out_perm = nope(tokens), nope(tokens[:, perm])
        assert torch.allclose(out[:, perm], out_perm, atol=1e-5)
        sinusoidal = _model("sinusoidal", causal=False)  # control: positions break the symmetry
        assert not torch.allclose(sinusoidal(tokens)[:, perm], sinusoidal(tokens[:, perm]), atol=1e-3)


def test_rope_logits_depend_on_relative_positions_only():
    tokens = _tokens()
    model = _model("rope")
    a, b = _layer0_scores(model, tokens, 0), _layer0_scores(model, tokens, 37)
    finite = torch.isfinite(a)
    assert torch.equal(finite, torch.isfinite(b))
    assert torch.allclose(a[finite], b[finite], atol=1e-4)
    for absolute in ("learned", "sinusoidal"):  # control: absolute schemes change under a shift
        m = _model(absolute)
        x, y = _layer0_scores(m, tokens, 0), _layer0_scores(m, tokens, 37)
        assert not torch.allclose(x[finite], y[finite], atol=1e-3), absolute


def _zero_qk(model: LabModel) -> LabModel:
    d = model.cfg.d_model
    with torch.no_grad():
        model.blocks[0].qkv.weight[: 2 * d].zero_()
        model.blocks[0].qkv.bias[: 2 * d].zero_()
    return model


def test_alibi_bias_equals_peapp_encodings_alibi_bias():
    t = 10
    scores = _layer0_scores(_zero_qk(_model("alibi")), _tokens(t))  # q·k = 0: only the bias remains
    expected = alibi.bias(4, t)
    for row in scores:
        assert torch.equal(torch.isinf(row), torch.isinf(expected))
        assert torch.allclose(row[torch.isfinite(row)], expected[torch.isfinite(expected)])


def test_t5_bias_is_the_bucket_table_of_key_minus_query():
    t = 40
    model = _zero_qk(_model("t5"))
    scores = _layer0_scores(model, _tokens(t))[0]
    rel = torch.arange(t).reshape(1, -1) - torch.arange(t).reshape(-1, 1)
    buckets = relative.t5_bucket(rel, bidirectional=False, num_buckets=32, max_distance=128)
    table = model.relative_attention_bias.weight.detach()
    causal = rel <= 0
    for h in range(4):
        assert torch.allclose(scores[h][causal], table[buckets, h][causal])
        assert torch.isinf(scores[h][~causal]).all()


def test_the_model_calls_the_projects_encoding_functions(monkeypatch):
    calls = {"rope": 0, "sin": 0}
    real_apply, real_rows = rope.apply, __import__("peapp.encodings.sinusoidal", fromlist=["rows"]).rows

    def counting_apply(*a, **k):
        calls["rope"] += 1
        return real_apply(*a, **k)

    def counting_rows(*a, **k):
        calls["sin"] += 1
        return real_rows(*a, **k)

    import peapp.encodings.sinusoidal as sinusoidal_module

    monkeypatch.setattr(rope, "apply", counting_apply)
    monkeypatch.setattr(sinusoidal_module, "rows", counting_rows)
    with torch.no_grad():
        _model("rope")(_tokens())
        _model("sinusoidal")(_tokens())
    assert calls == {"rope": 4, "sin": 1}  # q and k in each of 2 layers; one table per forward


def test_evaluation_time_rope_scalings_stretch_the_trained_frequencies():
    cfg = ModelConfig("rope", VOCAB, 20)
    plain = cfg.rope_spec().inv_freq()[0]
    pi, _ = cfg.rope_spec("pi", 60).inv_freq(60)
    assert torch.allclose(pi, plain / 3)
    ntk, _ = cfg.rope_spec("ntk", 60).inv_freq(60)
    assert ntk[0] == plain[0] and ntk[-1] < plain[-1]  # NTK keeps the fastest pair, slows the rest
    yarn_spec = cfg.rope_spec("yarn", 60)
    assert yarn_spec.yarn_attention_factor() > 1
    assert cfg.rope_spec("pi", 10).factor == 1.0  # inside the trained range nothing changes


# ---- tasks ---------------------------------------------------------------------------------------

def test_tasks_build_what_they_say():
    gen = torch.Generator().manual_seed(0)
    inputs, targets = copy_task().batch(gen, torch.tensor([3, 3]))
    assert inputs.shape == (2, copy_task().positions(3))
    x = inputs[:, 1:4]
    assert (inputs[:, 0] == BOS).all() and (inputs[:, 4] == SEP).all()
    assert torch.equal(targets[:, 4:7], x) and (targets[:, :4] == IGNORE).all()
    inputs, targets = reverse_task().batch(gen, torch.tensor([4]))
    assert torch.equal(targets[0, 5:9], inputs[0, 1:5].flip(0))
    task = RecallTask()
    inputs, targets = task.batch(gen, torch.tensor([5, 5, 5]))
    assert inputs.shape == (3, task.positions(5))
    for row, target in zip(inputs, targets):
        pairs = dict(zip(row[1:11:2].tolist(), row[2:11:2].tolist()))
        assert len(pairs) == 5  # distinct keys
        assert target[-1] == pairs[int(row[-1])] and (target[:-1] == IGNORE).all()


# ---- training, evaluation, results ---------------------------------------------------------------

def _tiny_spec(encoding: str = "learned", steps: int = 3, **kw) -> RunSpec:
    values = {"task": "copy", "encoding": encoding, "seed": 0, "train_length": 4, "eval_lengths": (2, 4, 9),
              "train": TrainSettings(steps=steps, eval_samples=16, log_every=1, warmup_steps=2)}
    values.update(kw)
    return RunSpec(**values)


def test_learned_positions_past_the_table_report_cannot():
    result = train_run(_tiny_spec("learned"))
    entries = {e["length"]: e for e in result.metrics["eval"]["learned"]}
    assert "value" in entries[4] and "value" in entries[2]
    assert entries[9]["status"] == "cannot" and "value" not in entries[9]
    assert "position 18" in entries[9]["reason"] and "9 positions" in entries[9]["reason"]
    summary = results.summarise([result.metrics])
    assert "cannot" in results.format_table(summary).splitlines()[-1]
    rope_result = train_run(_tiny_spec("rope", rope_scalings=("yarn",)))  # extrapolating schemes give values
    assert all("value" in e for v in rope_result.metrics["eval"].values() for e in v)


def test_same_seed_same_loss_curve_other_seed_another():
    a, b = train_run(_tiny_spec("alibi", steps=8)), train_run(_tiny_spec("alibi", steps=8))
    c = train_run(_tiny_spec("alibi", steps=8, seed=1))
    assert a.metrics["loss_curve"] == b.metrics["loss_curve"]
    assert a.metrics["eval"] == b.metrics["eval"]
    assert a.metrics["loss_curve"] != c.metrics["loss_curve"]


def test_results_round_trip_and_open_as_a_checkpoint(tmp_path):
    from peapp.checkpoints import inspect

    result = train_run(_tiny_spec("learned"))
    run_dir = results.save_run(tmp_path, result)
    back = results.load_run(run_dir)
    assert back.spec == result.spec and back.config == result.config and back.metrics == result.metrics
    assert back.state.keys() == result.state.keys()
    assert all(torch.equal(back.state[k], result.state[k]) for k in result.state)
    tokens = _tokens(5)
    model = LabModel(result.config)
    model.load_state_dict(result.state)
    with torch.no_grad():
        assert torch.equal(results.load_model(run_dir)(tokens), model.eval()(tokens))
    report = inspect(run_dir)
    (component,) = report.components
    assert component.kind == "learned_absolute" and component.tensor == "wpe.weight"
    assert component.params["positions"] == result.config.max_positions
    for encoding, kind in (("t5", "t5_relative_bias"), ("rope", "rope"), ("alibi", "alibi"),
                           ("sinusoidal", "sinusoidal"), ("nope", "nope")):
        saved = results.save_run(tmp_path, train_run(_tiny_spec(encoding, steps=1)))
        assert [c.kind for c in inspect(saved).components] == [kind], encoding
        if encoding == "t5":
            assert inspect(saved).components[0].params["bidirectional"] is False


def test_unwritable_folder_is_a_message_before_training(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(ResultsWriteError, match="cannot write .*a-file"):
        results.check_writable(blocker / "results")
    grid = lab_grid.GridSpec(encodings=("alibi",), rope_scalings=(), train_length=3, eval_lengths=(3,), seeds=1,
                             train=TrainSettings(steps=2, eval_samples=8))
    with pytest.raises(ResultsWriteError):
        lab_grid.run_grid(grid, blocker / "results", mode="inline")


def _small_grid(seeds: int = 2) -> lab_grid.GridSpec:
    return lab_grid.GridSpec(encodings=("alibi",), rope_scalings=(), train_length=3, eval_lengths=(3, 6),
                             seeds=seeds, train=TrainSettings(steps=3, eval_samples=8, warmup_steps=1))


def test_full_disk_keeps_finished_runs(tmp_path, monkeypatch):
    real_save, calls = results.save_run, []

    def save_then_fill_up(folder, result):
        calls.append(result.spec.run_id)
        if len(calls) > 1:
            raise results._write_error(tmp_path, OSError(errno.ENOSPC, "No space left on device"))
        return real_save(folder, result)

    monkeypatch.setattr(results, "save_run", save_then_fill_up)
    outcome = lab_grid.run_grid(_small_grid(), tmp_path, mode="inline")
    assert "No space left" in outcome.write_error
    assert [r.spec.run_id for r in outcome.finished] == [calls[0]]
    assert [r.spec.run_id for r in outcome.unsaved] == [calls[1]]  # kept in memory, not lost
    assert [m["run_id"] for m in results.finished_runs(tmp_path)] == [calls[0]]


def test_cancelled_grid_keeps_finished_runs_and_a_rerun_skips_them(tmp_path):
    """The grid is an executor job: cancelled once the first run is done, it stops and keeps that run."""
    from peapp.jobs import Cancelled, Executor

    events: list = []
    handle_box: list = []

    def event(e) -> None:  # cancel once the first run is done
        events.append(e)
        if e["type"] == "done":
            handle_box[0].cancel()

    executor = Executor("serial")
    handle_box.append(executor.submit(lab_grid.grid_steps(_small_grid(), tmp_path, mode="inline"), "lab", on_partial=event))
    with pytest.raises(Cancelled):
        handle_box[0].result(timeout=600)
    finished = [e["run_id"] for e in events if e["type"] == "done"]
    assert len(finished) == 1
    saved = json.loads((tmp_path / results.SUMMARY).read_text())
    assert saved["runs"] == 1
    again = lab_grid.run_grid(_small_grid(), tmp_path, mode="inline")
    assert again.skipped == finished and len(again.finished) == 1
    assert again.summary["runs"] == 2
    assert results.summarise(results.finished_runs(tmp_path))["rows"][0]["seeds"] == [0, 1]


def test_short_training_learns_copy_in_distribution_for_rope_and_alibi(tmp_path):
    """A few hundred steps on copy at lengths ≤ 8, RoPE and ALiBi in two single-thread workers."""
    grid = lab_grid.GridSpec(encodings=("rope", "alibi"), rope_scalings=(), train_length=8,
                             eval_lengths=tuple(range(1, 9)), seeds=1,
                             train=TrainSettings(steps=600, warmup_steps=50, eval_samples=128))
    outcome = lab_grid.run_grid(grid, tmp_path, workers=2, mode="pool")
    assert not outcome.failed and len(outcome.finished) == 2
    for result in outcome.finished:
        (entries,) = result.metrics["eval"].values()
        in_distribution = sum(e["value"] for e in entries) / len(entries)  # lengths 1 … 8, uniform as trained
        assert in_distribution > 0.9, (result.spec.encoding, [e["value"] for e in entries])


# ---- CLI -----------------------------------------------------------------------------------------

def test_cli_refuses_a_grid_over_an_hour_without_yes(tmp_path):
    proc = subprocess.run([sys.executable, "-m", "peapp", "lab", "--encodings", "alibi", "--seeds", "1",
                           "--steps", "10000000", "-o", str(tmp_path / "out")],
                          check=False, capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=120)
    assert proc.returncode == 2
    assert "estimated to take" in proc.stderr and "--yes" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_cli_json_summary(tmp_path, capsys):
    from peapp import cli

    code = cli.main(["lab", "--encodings", "learned", "--seeds", "1", "--steps", "2", "--train-length", "3",
                     "--eval-lengths", "3,5", "--eval-samples", "8", "--mode", "inline", "--json",
                     "-o", str(tmp_path)])
    captured = capsys.readouterr()
    assert code == 0
    summary = json.loads(captured.out)
    cells = {r["length"]: r for r in summary["rows"]}
    assert cells[5]["cannot"] == 1 and cells[3]["values"]
    assert "estimated" in captured.err
    with pytest.raises(SystemExit) as exit_info:
        cli.main(["lab", "--eval-lengths", "3,x", "-o", str(tmp_path)])
    assert exit_info.value.code == 2
    assert "whole numbers" in capsys.readouterr().err


def test_encodings_option():
    assert lab_grid.parse_encodings("all") == (("nope", "sinusoidal", "learned", "t5", "rope", "alibi"),
                                                ("pi", "ntk", "yarn"))
    assert lab_grid.parse_encodings("alibi,rope-yarn") == (("rope", "alibi"), ("yarn",))
    with pytest.raises(Exception, match="unknown encoding xpos"):
        lab_grid.parse_encodings("rope,xpos")
    grid = replace(_small_grid(), encodings=("nope", "alibi"))
    assert [r.train.steps for r in grid.runs()[:2]] == [2 * 3, 3]  # NoPE's larger budget
