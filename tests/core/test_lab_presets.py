"""Issue 37's additions to the lab: the sort and addition tasks, NoPE with Llama 4's temperature
and with log-n scaling, randomised positions (Ruoss et al. 2023) and the ranking preset."""

from __future__ import annotations

import math

import pytest
import torch

from peapp.encodings.nope import temperature_scale
from peapp.lab.model import LabModel, ModelConfig
from peapp.lab.options import parse_encodings
from peapp.lab.tasks import IGNORE, make_task


def test_sort_and_addition_targets_are_the_answers():
    g = torch.Generator().manual_seed(0)
    inputs, targets = make_task("sort").batch(g, torch.full((16,), 7))
    for row_in, row_t in zip(inputs, targets):
        given = row_in[1:8].tolist()
        assert row_t[row_t != IGNORE].tolist() == sorted(given)
    inputs, targets = make_task("addition").batch(g, torch.full((32,), 5))
    for row_in, row_t in zip(inputs, targets):
        a = int("".join(str(d - 3) for d in reversed(row_in[1:6].tolist())))
        b = int("".join(str(d - 3) for d in reversed(row_in[7:12].tolist())))
        digits = [d - 3 for d in row_t[row_t != IGNORE].tolist()]
        assert int("".join(map(str, reversed(digits)))) == a + b and len(digits) == 6


def _first_layer_scores(model, tokens):
    kept = []
    with torch.no_grad():
        model(tokens, keep_attention=kept)
    return kept[0][0]


@pytest.mark.parametrize("encoding", ["nope-temp", "nope-logn"])
def test_nope_temperatures_scale_each_query_row(encoding):
    torch.manual_seed(0)
    cfg = dict(vocab_size=12, max_positions=16, n_layers=1, temperature_floor_scale=3)
    plain = LabModel(ModelConfig("nope", **cfg))
    tuned = LabModel(ModelConfig(encoding, **cfg))
    tuned.load_state_dict(plain.state_dict(), strict=False)
    tokens = torch.randint(3, 12, (2, 20))
    base, scaled = _first_layer_scores(plain, tokens), _first_layer_scores(tuned, tokens)
    n = torch.arange(20)
    finite = torch.isfinite(base)
    if encoding == "nope-temp":  # Llama 4: the query at p times 1 + 0.1·log(1 + ⌊(p + 1)/3⌋)
        factor = temperature_scale(n, 0.1, 3).reshape(1, 1, -1, 1)
        assert factor[0, 0, 2, 0] == pytest.approx(1 + 0.1 * math.log(2))
    else:  # Scalable-Softmax: s_h · log(i + 1), s starting at 1 / log(trained positions)
        s = tuned.logn_scale.detach().reshape(1, -1, 1, 1)
        assert float(s[0, 0, 0, 0]) == pytest.approx(1 / math.log(16))
        factor = s * torch.log(n + 1.0).reshape(1, 1, -1, 1)
    torch.testing.assert_close(scaled[finite.expand_as(scaled)], (base * factor)[finite.expand_as(scaled)])


@pytest.mark.parametrize("encoding", ["alibi", "t5", "rope", "learned", "sinusoidal"])
def test_randomised_positions_at_0_to_n_are_the_plain_model(encoding):
    """The randomised model given the positions 0 … n − 1 is the plain model: only the positions differ."""
    torch.manual_seed(1)
    plain = LabModel(ModelConfig(encoding, vocab_size=12, max_positions=24, n_layers=1))
    rand = LabModel(ModelConfig(encoding, vocab_size=12, max_positions=24, n_layers=1, randomized_max=64))
    state = plain.state_dict()
    if encoding == "learned":
        state = {**state, "wpe.weight": rand.state_dict()["wpe.weight"].index_copy(0, torch.arange(24),
                                                                                   state["wpe.weight"])}
    rand.load_state_dict(state)
    tokens = torch.randint(3, 12, (2, 20))
    with torch.no_grad():
        torch.testing.assert_close(rand(tokens, positions=torch.arange(20)), plain(tokens))
        drawn = rand(tokens)  # draws sorted positions from 0 … 63: another answer
    assert not torch.allclose(drawn, plain(tokens))
    assert rand.longest_input() in (None, 64)


def test_randomised_alibi_uses_the_drawn_distances():
    model = LabModel(ModelConfig("alibi", vocab_size=12, max_positions=8, n_heads=2, randomized_max=40))
    positions = torch.tensor([0, 3, 9, 20])
    bias = model.attention_bias(4, positions=positions)
    slopes = torch.tensor([2 ** -4, 2 ** -8])  # two heads: 2^(−8/2·h)
    assert bias[1, 3, 1].item() == pytest.approx(-(20 - 3) * slopes[1].item())
    assert bias[0, 2, 0].item() == pytest.approx(-9 * slopes[0].item()) and bias[0, 0, 1] == float("-inf")


def test_encoding_names_and_the_ranking():
    from peapp.lab.presets import preset, rank

    trained, scalings = parse_encodings("rope+rand,nope-temp,nope")
    assert trained == ("nope", "nope-temp", "rope+rand") and scalings == ()
    assert preset("ranking", randomized=True).encodings[-1] == "nope+rand"

    def summary(values):
        return {"train_length": 8, "rows": [{"variant": v, "length": n, "mean": x, "values": [x]}
                                            for v, x in values.items() for n in (8, 12)]}

    ranking = rank({"copy": summary({"nope": 0.9, "rope": 0.1, "t5": 0.9, "rope+rand": 0.6}),
                    "sort": summary({"nope": 0.5, "rope": 0.2, "t5": 0.1, "rope+rand": 0.2})})
    assert ranking.mean_rank == {"nope": 1.25, "t5": 2.25, "rope": 2.5}  # ties share their mean rank
    assert ranking.order()[0] == "nope" and ranking.verdict().startswith("Agrees")
    assert ranking.randomized_gain == pytest.approx(100 * ((0.6 - 0.1) + 0.0) / 2)
    worse = rank({"copy": summary({"nope": 0.1, "rope": 0.9})})
    assert worse.verdict().startswith("Does not agree")
    tie = rank({"copy": summary({"nope": 0.9, "rope": 0.9, "t5": 0.6}), "addition": summary({"nope": 0.0, "rope": 0.0})})
    assert tie.tasks == ["copy"] and tie.not_learned == ["addition"]
    assert tie.verdict().startswith("Agrees only in part") and "RoPE" in tie.verdict() and "addition" in tie.verdict()


def test_the_temperature_preset_says_whether_a_scale_helps_nope_not_the_ranking():
    """Its verdict compares NoPE with and without each scale past the training length; the
    ranking's ("Does not agree with Kazemnejad et al.: NoPE is not best") was printed for it."""
    from peapp.lab.presets import format_preset, preset_verdict

    def summary(values):
        return {"train_length": 8, "rows": [{"variant": v, "length": n, "mean": x, "values": [x]}
                                            for v, x in values.items() for n in (8, 12)]}

    helped = {"copy": summary({"nope": 0.20, "nope-temp": 0.30, "nope-logn": 0.19}),
              "reverse": summary({"nope": 0.10, "nope-temp": 0.10, "nope-logn": 0.11})}
    verdict = preset_verdict("temperature", helped)
    assert verdict.startswith("Past the training length, mean exact match over copy, reverse: NoPE 0.15, with "
                              "Llama 4's temperature 0.20 (+5.0 points), with log-n 0.15 (+0.0 points).")
    assert verdict.endswith("NoPE + Llama 4 temperature helps NoPE past the training length here.")
    flat = {"copy": summary({"nope": 0.01, "nope-temp": 0.00, "nope-logn": 0.015})}
    text = format_preset("temperature", flat)
    assert "Neither scale helps" in text and "near zero" in text and "Nakanishi" in text
    assert "Kazemnejad" not in text and "mean rank" not in text
    assert "Kazemnejad" in format_preset("ranking", {"copy": summary({"nope": 0.9, "rope": 0.1})})


@pytest.mark.parametrize("encoding", ["nope-temp", "nope-logn", "alibi+rand", "learned+rand"])
def test_a_new_encoding_trains_is_evaluated_saved_and_reopened(encoding, tmp_path):
    from peapp.lab.options import TrainSettings
    from peapp.lab.train import RunSpec, train_run

    spec = RunSpec(task="sort", encoding=encoding, seed=0, train_length=3, eval_lengths=(3, 6),
                   train=TrainSettings(steps=2, batch_size=4, eval_samples=4, warmup_steps=1))
    result = train_run(spec)
    assert [e["length"] for e in result.metrics["eval"][encoding]] == [3, 6]
    assert all("value" in e for e in result.metrics["eval"][encoding])
    from peapp.lab import results

    folder = results.save_run(tmp_path, result)
    again = results.load_model(folder)
    tokens = torch.randint(3, 10, (2, 7))
    with torch.no_grad():
        positions = torch.arange(7)
        fresh = LabModel(result.config)
        fresh.load_state_dict(result.state)
        torch.testing.assert_close(again(tokens, positions=positions), fresh(tokens, positions=positions))


def test_a_presets_progress_runs_once_over_all_its_tasks(tmp_path):
    """The panel's bar and time left follow the whole preset: progress never falls back when the
    next task's grid starts (it reset to 0 per task before), and ends at 1."""
    from peapp.jobs import run_job
    from peapp.lab import presets
    from peapp.lab.options import TrainSettings

    tiny = presets.Preset("tiny", "tiny", tasks=("copy", "reverse"), encodings=("alibi",), train_length=3,
                          eval_lengths=(3,), train=TrainSettings(steps=4, eval_samples=4))
    seen: list[float] = []
    summaries = run_job(presets.preset_steps(tiny, str(tmp_path), workers=1), on_progress=seen.append)
    assert set(summaries) == {"copy", "reverse"}
    assert seen == sorted(seen) and seen[-1] == pytest.approx(1.0)
    assert any(0.4 < f < 0.6 for f in seen)  # the first task's end is half of the preset
