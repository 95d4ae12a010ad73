"""Run on text's NoPE temperature figure (issue 37): a NoPE layer's entropy with and without Llama 4's
scale, computed from the q and k the run kept, equal to ``peapp temperature``'s second forward pass
(:func:`peapp.model_run.temperature.nope_entropy`), for the tiny families with NoPE layers."""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.model_run.families import build

TEXT = " ".join(f"w{(7 * i) % 60 + 1}" for i in range(40))


def _run(folder: str):
    from peapp.model_run import text_run as T

    request = T.TextRunRequest(checkpoint=folder, text_source="typed", text=TEXT, max_tokens=512)
    return request.compute(lambda fraction: None)


@pytest.mark.parametrize("family", ["llama4_text", "smollm3", "cohere2"])
def test_the_kept_q_and_k_give_the_second_forward_passes_entropies(family, tmp_path, monkeypatch):
    from peapp.model_run import temperature
    from peapp.model_run import text_run as T

    folder = build(family, str(tmp_path), seed=0)
    result = _run(folder)
    nope = temperature.run_nope_layers(result.run)
    assert nope == (1,)  # families.py: the second layer of each is NoPE
    reference = temperature.nope_entropy(folder, result.run.token_ids, layer=1)

    def no_model(*args, **kwargs):
        raise AssertionError("the figure must not load or run the model again")

    monkeypatch.setattr(temperature, "load_nope_model", no_model)
    kept = T.NopeEntropyRequest(run_id=id(result.run), layer=1, result=result).compute(lambda fraction: None)
    np.testing.assert_allclose(kept.with_scale, reference.with_scale, atol=1e-5)
    np.testing.assert_allclose(kept.without_scale, reference.without_scale, atol=1e-5)
    assert kept.settings == reference.settings and kept.layer == 1
    if family == "llama4_text":  # its own config: tuning on, attn_scale 0.5, floor_scale 4 (families.py)
        assert kept.settings.tuning and (kept.settings.attn_scale, kept.settings.floor_scale) == (0.5, 4.0)
        assert result.temperature_config["floor_scale"] == 4
        # the model scaled q itself from position 3 on: below it the two curves are one
        np.testing.assert_allclose(kept.with_scale[:3], kept.without_scale[:3], atol=1e-7)
        assert "from position 3 on (floor_scale − 1)" in kept.verdict(result.run.trained_context)
    else:  # no temperature of their own: Llama 4's defaults, which do not act on 40 tokens
        assert not kept.settings.tuning and kept.settings.floor_scale == 8192
        assert "both curves are the same" in kept.verdict()


def test_a_model_without_nope_layers_and_a_rotated_layer_are_refused(tmp_path):
    from peapp.errors import ParameterError
    from peapp.model_run import temperature

    llama = _run(build("llama", str(tmp_path / "llama"), seed=0))
    assert temperature.run_nope_layers(llama.run) == ()
    with pytest.raises(ParameterError, match="no NoPE layers"):
        temperature.kept_entropy(llama.run, llama.temperature_config)
    llama4 = _run(build("llama4_text", str(tmp_path / "llama4"), seed=0))
    with pytest.raises(ParameterError, match="layer 0 is not a NoPE layer; NoPE layers: 1"):
        temperature.kept_entropy(llama4.run, llama4.temperature_config, layer=0)


def test_the_verdict_says_where_the_scale_acts_and_past_the_training_length():
    from peapp.analysis.temperature import EntropyResult, TemperatureSettings

    settings = TemperatureSettings(tuning=True, attn_scale=0.5, floor_scale=4)
    without = np.log(np.arange(10) + 1.0)
    with_scale = without.copy()
    with_scale[3:] -= 0.1
    result = EntropyResult(layer=1, source="", with_scale=with_scale, without_scale=without, settings=settings,
                           n_tokens=10)
    text = result.verdict(trained=8)
    assert "Up to position 2 the scale is 1" in text
    assert "lowers the entropy at 7 of 7 positions, by 0.1000 nats" in text
    assert "Past the training length (8 tokens): lowered at 2 of 2 positions" in text
    assert "stay within the training length (64)" in result.verdict(trained=64)


def test_peapp_run_draws_the_nope_figure_headless(tmp_path):
    """`peapp run PATH --view run-nope -o FILE.npz` (the GUI's figure, drawn by `peapp render`):
    the exported entropies are the second forward pass's."""
    import os
    import subprocess
    import sys

    from peapp.model_run.temperature import nope_entropy

    folder = build("llama4_text", str(tmp_path / "llama4"), seed=0)
    text = tmp_path / "t.txt"
    text.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "nope.npz"
    proc = subprocess.run([sys.executable, "-m", "peapp", "run", folder, "--text-file", str(text), "--view",
                           "run-nope", "-o", str(out)], capture_output=True, text=True, timeout=600,
                          env=dict(os.environ, QT_QPA_PLATFORM="offscreen"))
    assert proc.returncode == 0, proc.stderr
    data = np.load(out)
    reference = nope_entropy(folder, _run(folder).run.token_ids, layer=1)
    np.testing.assert_allclose(data["entropy_with_scale"], reference.with_scale, atol=1e-5)
    np.testing.assert_allclose(data["entropy_without_scale"], reference.without_scale, atol=1e-5)
    assert data["layer"].tolist() == [1]
