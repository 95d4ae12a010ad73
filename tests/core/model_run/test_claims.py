"""The Measured claims panel's computation (peapp.model_run.claims): each claim from its own
computation or saved result, and bad saved results refused with one line."""

from __future__ import annotations

import json

import numpy as np
import pytest

from peapp.errors import ParameterError
from peapp.model_run.claims import ClaimsRequest


def _run(**values):
    return ClaimsRequest(**values).compute(lambda f: None)


def test_temperature_draws_the_scale_and_seeded_entropy():
    from peapp.analysis.temperature import scale_curve

    result = _run(mode="claims-temperature", length=300, floor_scale=64)
    scale, entropy = result.plots
    np.testing.assert_allclose(scale.curves[0].y, scale_curve(300, 0.1, 64).llama4)
    assert scale.marks == [63.0, 127.0, 191.0, 255.0]
    assert entropy.curves[1].y[-1] < entropy.curves[0].y[-1]  # the scale sharpens the far rows
    assert entropy.title == "NoPE attention entropy (seeded random q, k)"  # no layer to name ("layer —" was)
    # the panel's floor_scale (64), not Llama 4's 8,192: the caption must not say "Llama 4's defaults"
    assert "parameters from the attn_scale and floor_scale set here." in result.lines[0]
    assert "Llama 4's defaults" not in " ".join(result.lines)


def test_cost_from_a_saved_measurement_and_a_damaged_one(tmp_path):
    from peapp.analysis.cost import measure_cost

    doc = measure_cost(("lab",), ("rope", "shaw"), {"lab": (256, 512)}, ("forward",), max_bytes=1 << 30).to_json()
    good = tmp_path / "cost.json"
    good.write_text(json.dumps(doc), encoding="utf-8")
    result = _run(mode="claims-cost", cost_file=str(good))
    assert [c.label for c in result.plots[0].curves] == ["Shaw relative (keys + values)", "RoPE"]  # not the keys
    assert result.lines[1].startswith("Measured: ")
    doc["cases"][0]["length"] = "x"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(doc), encoding="utf-8")
    with pytest.raises(ParameterError, match="damaged"):
        _run(mode="claims-cost", cost_file=str(bad))
    with pytest.raises(ParameterError, match="peapp cost --json"):
        _run(mode="claims-cost")


def test_sinks_from_a_saved_streaming_probe(tmp_path, tiny_llama):
    from peapp.model_run import load_model
    from peapp.model_run.streaming import streaming_probe

    ids = np.random.default_rng(0).integers(1, 60, 48).tolist()
    result = streaming_probe(load_model(tiny_llama), ids, window=8, sinks=2, bin=8)
    path = tmp_path / "sinks.json"
    path.write_text(json.dumps(result.to_json()), encoding="utf-8")
    drawn = _run(mode="claims-sinks", sinks_file=str(path))
    curves = drawn.plots[0].curves
    assert len(curves) == 3 and drawn.plots[0].marks == [8.0]
    np.testing.assert_allclose(curves[1].y, result.curve("window").windowed(8)[2], rtol=1e-4)  # saved to 5 decimals


def test_ranking_from_a_preset_folder(tmp_path, monkeypatch):
    from peapp.lab import results
    from peapp.lab.options import TrainSettings
    from peapp.lab.train import RunSpec, train_run

    for task in ("copy", "sort"):
        for encoding in ("nope", "rope", "rope+rand"):
            spec = RunSpec(task=task, encoding=encoding, seed=0, train_length=3, eval_lengths=(3, 5),
                           train=TrainSettings(steps=2, batch_size=4, eval_samples=4, warmup_steps=1))
            results.save_run(tmp_path / task, train_run(spec))
    drawn = _run(mode="claims-ranking", ranking_folder=str(tmp_path))
    assert drawn.lines[0].startswith("Nothing to rank: no encoding learned copy, sort")  # 2 steps learn nothing
    from peapp.lab import presets

    monkeypatch.setattr(presets, "LEARNED_AT", -1.0)  # count both tasks, to draw every variant
    scores, ranks = _run(mode="claims-ranking", ranking_folder=str(tmp_path)).plots
    assert [name for _x, name in scores.xticks][-1] == "RoPE\n+rand" and len(scores.xticks) == 3
    assert sorted(name for _x, name in ranks.xticks) == ["NoPE", "RoPE"]  # +rand is not ranked: no empty slot
    with pytest.raises(ParameterError, match="preset ranking"):
        _run(mode="claims-ranking", ranking_folder=str(tmp_path / "none"))
