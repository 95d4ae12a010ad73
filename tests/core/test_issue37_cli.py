"""The command lines of issue 37: peapp probe streaming, peapp cost, peapp temperature (--json shapes)."""

from __future__ import annotations

import json

from peapp.cli import main


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_probe_streaming_json_has_the_perplexity_probes_shape(capsys, tmp_path):
    from peapp.checkpoints.samples import tiny_model_path

    text = tmp_path / "t.txt"
    text.write_text(" ".join(f"word{i % 97} and more" for i in range(400)), encoding="utf-8")
    doc = _json(capsys, ["probe", "streaming", tiny_model_path(), "--text-file", str(text), "--length", "60",
                         "--window", "60", "--sinks", "4", "--bin", "20", "--json", "--quiet"])
    assert doc["probe"] == "streaming" and [v["variant"] for v in doc["variants"]] == ["full", "window", "window+sinks"]
    first = doc["variants"][0]
    assert set(first) >= {"perplexity", "windows", "nll"} and len(first["windows"]["perplexity"]) == 3
    assert all(v["perplexity"] == first["perplexity"] for v in doc["variants"])  # W ≥ N: one curve
    assert "cache" in doc["positions"] and doc["reference"]["citation"].startswith("Xiao et al. 2024")


def test_cost_and_temperature_json(capsys):
    doc = _json(capsys, ["cost", "--models", "lab", "--lengths", "256", "--schemes", "rope,shaw", "--kinds",
                         "forward,decode", "--json", "--quiet"])
    assert {(c["scheme"], c["kind"]) for c in doc["cases"]} == {("rope", "forward"), ("shaw", "forward"),
                                                               ("rope", "decode"), ("shaw", "decode")}
    assert doc["claim"] and doc["verdict"]
    doc = _json(capsys, ["temperature", "--length", "64", "--floor-scale", "16", "--json"])
    assert doc["steps"] == [15, 31, 47, 63] and len(doc["entropy"]["entropy_with_scale"]) == 64
