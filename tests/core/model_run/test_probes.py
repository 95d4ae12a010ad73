"""The probes (issue 15) against transformers itself, on tiny save_pretrained models.

References: transformers' own loss (``labels=ids``) for the per-position loss; transformers'
own models built with ``rope_parameters`` linear / dynamic / YaRN / Llama-3 (same weights) for the
variants; for static NTK-aware (not a transformers rope_type), the same model with its base
raised to base·factor^(dim/(dim − 2)), the closed form.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.core.model_run.conftest import VOCAB, _save

TRAINED = 32  # the tiny model's trained context: the probes go past it
THETA = 100.0


@pytest.fixture(scope="module")
def short_llama(tmp_path_factory):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(3)
    cfg = LlamaConfig(vocab_size=VOCAB, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=TRAINED,
                      rope_theta=THETA)
    return _save(LlamaForCausalLM(cfg).eval(), tmp_path_factory.mktemp("short-llama"))


@pytest.fixture(scope="module")
def loaded(short_llama):
    from peapp.model_run import load_model

    return load_model(short_llama)


def _ids(n: int, seed: int = 0) -> list[int]:
    return np.random.default_rng(seed).integers(1, VOCAB, n).tolist()


def _reference(folder: str, rope_parameters: dict | None = None):
    """transformers' own LlamaForCausalLM from ``folder``'s weights, with other rope parameters."""
    import torch
    from transformers import AutoConfig, LlamaForCausalLM

    config = AutoConfig.from_pretrained(folder)
    if rope_parameters is not None:
        config.rope_parameters = {"rope_theta": THETA, **rope_parameters}
    model = LlamaForCausalLM.from_pretrained(folder, config=config, dtype=torch.float32, attn_implementation="eager")
    return model.eval()


def _logits(model, ids):
    import torch

    with torch.no_grad():
        return model(torch.tensor([ids])).logits[0].numpy()


def test_per_position_loss_is_transformers_own_loss(loaded, short_llama):
    import torch

    from peapp.model_run.probes import perplexity_probe

    ids = _ids(48)
    result = perplexity_probe(loaded, ids, variants=("none",), window=8, return_logits=True)
    curve = result.curves[0]
    assert curve.nll.shape == (47,)
    model = _reference(short_llama)
    with torch.no_grad():
        out = model(torch.tensor([ids]), labels=torch.tensor([ids]))
    assert curve.mean_nll == pytest.approx(float(out.loss), rel=1e-5)
    logp = torch.log_softmax(out.logits[0, :-1].double(), -1)
    want = -logp[torch.arange(47), torch.tensor(ids[1:])].numpy()
    np.testing.assert_allclose(curve.nll, want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(curve.logits, out.logits[0].numpy(), rtol=1e-4, atol=1e-4)
    starts, stops, ppl = curve.windowed(8)
    assert starts.tolist() == [1, 9, 17, 25, 33, 41] and stops.tolist() == [9, 17, 25, 33, 41, 48]
    assert ppl[0] == pytest.approx(np.exp(want[:8].mean()), rel=1e-4)
    assert ppl[-1] == pytest.approx(np.exp(want[40:].mean()), rel=1e-4)


@pytest.mark.parametrize("variant,rope_parameters", [
    ("linear", {"rope_type": "linear", "factor": 2.0}),
    ("dynamic", {"rope_type": "dynamic", "factor": 2.0}),
    ("yarn", {"rope_type": "yarn", "factor": 2.0, "original_max_position_embeddings": TRAINED}),
    ("llama3", {"rope_type": "llama3", "factor": 2.0, "original_max_position_embeddings": TRAINED,
                "low_freq_factor": 1.0, "high_freq_factor": 4.0}),
])
def test_each_variant_equals_transformers_own_scaled_model(loaded, short_llama, variant, rope_parameters):
    from peapp.model_run.probes import perplexity_probe

    ids = _ids(80, seed=1)  # 2.5× the trained context: dynamic NTK grows its base for 80
    result = perplexity_probe(loaded, ids, variants=("none", variant), factor=2.0, return_logits=True)
    plain, scaled = result.curves
    want = _logits(_reference(short_llama, rope_parameters), ids)
    np.testing.assert_allclose(scaled.logits, want, rtol=1e-4, atol=1e-5)
    # and it is a different model from the unscaled one (the test can fail)
    assert not np.allclose(plain.logits, want, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(plain.logits, _logits(_reference(short_llama), ids), rtol=1e-4, atol=1e-5)
    if variant == "yarn":
        assert scaled.attention_factor == pytest.approx(0.1 * np.log(2.0) + 1.0)
    # the model's own frequencies are back
    np.testing.assert_allclose(_logits(loaded.model, ids), plain.logits, rtol=1e-5, atol=1e-6)


def test_static_ntk_is_the_raised_base(loaded, short_llama):
    from peapp.model_run.probes import perplexity_probe

    ids = _ids(64, seed=2)
    result = perplexity_probe(loaded, ids, variants=("ntk",), factor=4.0, return_logits=True)
    dim = 8
    want = _logits(_reference(short_llama, {"rope_type": "default", "rope_theta": THETA * 4.0 ** (dim / (dim - 2))}),
                   ids)
    np.testing.assert_allclose(result.curves[0].logits, want, rtol=1e-4, atol=1e-5)


def test_variants_come_from_ropespec_the_spectrum_panel_uses(loaded):
    import torch

    from peapp.encodings.rope import RopeSpec
    from peapp.model_run.probes import model_rope_spec, variant_spec

    base = model_rope_spec(loaded)
    assert (base.rope_type, base.base, base.head_dim, base.original_max_position_embeddings) == \
        ("default", THETA, 8, TRAINED)
    spec = variant_spec(base, "yarn", 3.0)
    panel = RopeSpec.from_dict({**base.to_dict(), "rope_type": "yarn", "factor": 3.0})
    assert torch.equal(spec.inv_freq(100)[0], panel.inv_freq(100)[0])
    assert spec.inv_freq(100)[1] == panel.yarn_attention_factor()


def test_partial_results_progress_and_cancel(loaded):
    from peapp.jobs import Cancelled
    from peapp.model_run.probes import perplexity_probe

    ids = _ids(40, seed=4)
    seen, fractions = [], []
    perplexity_probe(loaded, ids, variants=("none", "linear", "yarn"), partial=lambda r: seen.append(
        [c.variant for c in r.curves]), progress=fractions.append)
    assert seen == [["none"], ["none", "linear"], ["none", "linear", "yarn"]]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0 and len(fractions) >= 6
    before = _logits(loaded.model, ids)
    calls = []

    def cancel_in_second_variant():
        calls.append(1)
        return len(calls) > 3  # two layers of the first variant, then stop inside the second

    with pytest.raises(Cancelled):
        perplexity_probe(loaded, ids, variants=("none", "linear"), cancelled=cancel_in_second_variant,
                         partial=lambda r: seen.append("partial"))
    assert seen[-1] == "partial" and len(calls) == 4
    np.testing.assert_allclose(_logits(loaded.model, ids), before, rtol=0, atol=0)  # frequencies restored
    assert loaded.model.config._attn_implementation == "peapp_blocks"


def test_learned_table_cannot_past_its_rows(tiny_gpt2):
    import torch

    from peapp.model_run import load_model
    from peapp.model_run.probes import perplexity_probe

    loaded = load_model(tiny_gpt2)  # 64 positions
    ids = _ids(100, seed=5)
    result = perplexity_probe(loaded, ids, variants=("none", "yarn"))
    assert result.n_tokens == 100 and result.n_measured == 64 and result.position_limit == 64
    assert "cannot" in result.cannot and "64 rows" in result.cannot
    assert [c.variant for c in result.curves] == ["none"] and "yarn" in result.not_applied
    assert result.curves[0].nll.shape == (63,)
    from transformers import GPT2LMHeadModel

    model = GPT2LMHeadModel.from_pretrained(tiny_gpt2, attn_implementation="eager").eval()
    with torch.no_grad():
        loss = model(torch.tensor([ids[:64]]), labels=torch.tensor([ids[:64]])).loss
    assert result.curves[0].mean_nll == pytest.approx(float(loss), rel=1e-5)
    doc = result.to_json()
    assert doc["cannot"] == result.cannot and len(doc["variants"][0]["nll"]) == 63


def test_encoders_are_refused_with_a_reason(tiny_bert):
    from peapp.errors import ParameterError
    from peapp.model_run import load_model
    from peapp.model_run.probes import perplexity_probe

    loaded = load_model(tiny_bert)
    with pytest.raises(ParameterError, match="causal language model"):
        perplexity_probe(loaded, _ids(10))


def test_time_estimate_fits_the_two_points():
    from peapp.model_run.probes import fit_time

    est = fit_time([(512, 1.0), (1024, 3.0)], 4096, runs=2)
    # a·512 + b·512² = 1 and a·1024 + b·1024² = 3 give a = 0.5/512, b = 0.5/512²
    assert est.quadratic == pytest.approx(0.5 / 512 ** 2) and est.linear == pytest.approx(0.5 / 512)
    assert est.per_run == pytest.approx(0.5 * 8 + 0.5 * 64) and est.seconds == pytest.approx(72.0)
    flat = fit_time([(512, 2.0), (1024, 3.0)], 2048)  # sub-linear: b < 0 clamped, a line through the longer
    assert flat.quadratic == 0.0 and flat.per_run == pytest.approx(6.0)
    assert "2 runs of 4,096 tokens" in est.text()


# ---- passkey -------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def word_llama(tmp_path_factory):
    """A tiny Llama whose tokenizer knows every word of the filler and the prompt (digits one by one)."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM

    from peapp.model_run import passkey

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(),
                                                 pre_tokenizers.Digits(individual_digits=True)])
    texts = [passkey.filler_text(), passkey.INTRO, passkey.NEEDLE, passkey.QUESTION, "0 1 2 3 4 5 6 7 8 9"]
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[UNK]"]))
    torch.manual_seed(6)
    cfg = LlamaConfig(vocab_size=tok.get_vocab_size(), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=TRAINED,
                      rope_theta=THETA)
    folder = tmp_path_factory.mktemp("word-llama")
    LlamaForCausalLM(cfg).eval().save_pretrained(folder)
    tok.save(str(folder / "tokenizer.json"))
    return str(folder)


@pytest.mark.parametrize("n_tokens", [120, 333])
def test_passkey_needle_at_the_asked_depth_token_exact(word_llama, n_tokens):
    from tokenizers import Tokenizer

    from peapp.model_run.passkey import DEFAULT_DEPTHS, NEEDLE, PromptBuilder

    tok = Tokenizer.from_file(f"{word_llama}/tokenizer.json")
    builder = PromptBuilder(tok)
    needle = tok.encode(NEEDLE.format(key="68231"), add_special_tokens=False).ids
    head = len(builder.specials) + len(builder.intro)
    starts = []
    for depth in DEFAULT_DEPTHS:
        p = builder.build(n_tokens, depth, "68231")
        assert len(p.ids) == n_tokens
        fill = p.filler_tokens
        start = head + int(np.floor(depth * fill + 0.5))
        assert p.needle == (start, start + len(needle))
        assert p.ids[start:start + len(needle)] == needle
        # the filler around it is the filler's own tokens, in order, cut exactly there
        assert p.ids[head:start] == builder.filler[:start - head]
        after = start + len(needle)
        assert p.ids[after:after + fill - (start - head)] == builder.filler[start - head:fill]
        assert p.ids[after + fill - (start - head):p.answer[0]] == builder.answer_ids("68231")[0]
        assert tok.decode(p.ids[p.answer[0]:p.answer[1]]).replace(" ", "") == "68231"
        assert p.rows == list(range(p.answer[0] - 1, p.answer[1] - 1))
        starts.append(start)
    assert starts[0] == head and starts[-1] == head + fill  # 0 %: first thing after the intro; 100 %: last
    assert starts == sorted(starts) and len(set(starts)) == len(starts)


def test_passkey_measures_equal_eager_attention_and_logits(word_llama):
    import torch
    from transformers import LlamaForCausalLM

    from peapp.model_run import load_model
    from peapp.model_run.passkey import PromptBuilder, measure_prompt, passkey_probe

    loaded = load_model(word_llama)
    prompt = PromptBuilder(loaded.tokenizer).build(150, 0.3, "40517")
    logprob, accuracy, exact, attention, uniform = measure_prompt(loaded, prompt)
    model = LlamaForCausalLM.from_pretrained(word_llama, attn_implementation="eager").eval()
    with torch.no_grad():
        out = model(torch.tensor([prompt.ids]), output_attentions=True)
    rows = prompt.rows
    targets = torch.tensor(prompt.ids[prompt.answer[0]:prompt.answer[1]])
    logp = torch.log_softmax(out.logits[0, rows].double(), -1)
    assert logprob == pytest.approx(float(logp[torch.arange(len(rows)), targets].sum()), rel=1e-5)
    top = (logp.argmax(-1) == targets).double()
    assert accuracy == pytest.approx(float(top.mean())) and exact == bool(top.all())
    s0, s1 = prompt.needle
    want = np.stack([a[0][:, rows, s0:s1].sum(-1).mean(-1).numpy() for a in out.attentions])  # [L, H]
    np.testing.assert_allclose(attention, want, rtol=1e-4, atol=1e-6)
    assert uniform == pytest.approx(np.mean([(s1 - s0) / (r + 1) for r in rows]))

    seen = []
    result = passkey_probe(loaded, lengths=(100, 150), depths=(0.0, 0.5, 1.0), partial=lambda r: seen.append(
        len(r.cells)))
    assert seen == [1, 2, 3, 4, 5, 6]
    table = result.table("logprob")
    assert table.shape == (2, 3) and np.isfinite(table).all()
    assert result.layer_attention(150).shape == (2, 3)
    doc = result.to_json()
    assert doc["reference"]["accuracy_percent"] == [75.8, 57.2, 53.8, 55.4, 63.2]
    assert doc["reference"]["closed_book_percent"] == 56.1
    with pytest.raises(Exception, match="no room for filler"):
        passkey_probe(loaded, lengths=(20,), depths=(0.5,))


def test_passkey_cancel_and_learned_limit(word_llama, tiny_gpt2):
    from peapp.errors import ParameterError
    from peapp.jobs import Cancelled
    from peapp.model_run import load_model
    from peapp.model_run.passkey import passkey_probe

    loaded = load_model(word_llama)
    with pytest.raises(Cancelled):
        passkey_probe(loaded, lengths=(100,), depths=(0.0, 1.0), cancelled=lambda: True)
    gpt2 = load_model(tiny_gpt2)
    with pytest.raises(ParameterError, match="no row past them"):
        passkey_probe(gpt2, lengths=(65,))


# ---- the command line ----------------------------------------------------------------------------

def test_cli_perplexity_and_passkey_json(short_llama, word_llama, tmp_path, capsys):
    import json

    from peapp.cli import main

    text = tmp_path / "words.txt"
    text.write_text(" ".join(f"w{i}" for i in _ids(90, seed=7)), encoding="utf-8")
    assert main(["probe", "perplexity", short_llama, "--text-file", str(text), "--length", "80",
                 "--variants", "none,yarn", "--factor", "2", "--window", "16", "--json", "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["probe"] == "perplexity" and doc["n_measured"] == 80 and doc["trained_context"] == TRAINED
    assert [v["variant"] for v in doc["variants"]] == ["none", "yarn"]
    assert len(doc["variants"][1]["nll"]) == 79 and len(doc["variants"][1]["windows"]["perplexity"]) == 5
    assert doc["variants"][1]["rope"]["rope_type"] == "yarn" and doc["text"]["sha256"]
    assert "perplexity_beyond_trained" in doc["variants"][0]
    assert main(["probe", "perplexity", short_llama, "--text-file", str(text), "--length", "80",
                 "--variants", "none,linear"]) == 0
    captured = capsys.readouterr()
    assert "linear (PI)" in captured.out and "> trained" in captured.out and "perplexity" in captured.err

    assert main(["probe", "passkey", word_llama, "--lengths", "100,140", "--depths", "0,0.5,1", "--json",
                 "--quiet"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["lengths"] == [100, 140] and doc["depths"] == [0.0, 0.5, 1.0] and len(doc["cells"]) == 6
    assert len(doc["cells"][0]["needle_attention_per_layer"]) == 2
    assert main(["probe", "passkey", word_llama, "--lengths", "100", "--depths", "0,1", "--quiet"]) == 0
    assert "top-1 accuracy" in capsys.readouterr().out


@pytest.mark.parametrize("argv,message", [
    (["probe", "perplexity", "MODEL", "--variants", "none,rope9"], "rope9"),
    (["probe", "perplexity", "MODEL", "--length", "500", "--text-file", "TEXT"], "fewer than --length"),
    (["probe", "passkey", "MODEL", "--depths", "0,1.5"], "outside 0"),
    (["probe", "passkey", "MODEL", "--lengths", "ten"], "not a comma-separated list"),
    (["probe", "perplexity", "BERT"], "causal language model"),
])
def test_cli_bad_input_is_one_line(short_llama, tiny_bert, tmp_path, capsys, argv, message):
    from peapp.cli import main

    text = tmp_path / "short.txt"
    text.write_text("w1 w2 w3 w4", encoding="utf-8")
    names = {"MODEL": short_llama, "BERT": tiny_bert, "TEXT": str(text)}
    argv = [names.get(a, a) for a in argv]
    assert main(argv + ["--quiet"]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_cli_choices_equal_the_core_and_the_view(short_llama):
    from peapp.commands import probe as command
    from peapp.document import Document
    from peapp.model_run import probes
    from peapp.views import probe as view

    assert command.VARIANT_NAMES == probes.VARIANTS == tuple(view.VARIANTS)
    assert dict(view.VARIANTS) == probes.VARIANT_LABELS
    assert command.ESTIMATE_FROM == probes.ESTIMATE_FROM and view.MAX_PROBE_TOKENS == probes.MAX_PROBE_TOKENS
    doc = Document().with_checkpoint(short_llama).with_view("probe", mode="probe-passkey", lengths="512,1024")
    assert Document.from_json(doc.to_json()) == doc
    from peapp.errors import ParameterError

    with pytest.raises(ParameterError, match="depths"):
        Document().with_view("probe", depths="0,2")


def test_the_estimate_prefix_is_a_true_preview_of_the_trained_curve(loaded):
    from peapp.model_run.probes import estimate_seconds, perplexity_probe

    ids = _ids(80, seed=8)
    estimate = estimate_seconds(loaded, ids, 80, runs=2)
    assert [m for m, _ in estimate.measured] == [20, 40] and estimate.seconds > 0
    seen = []
    result = perplexity_probe(loaded, ids, variants=("none", "linear"), estimate=estimate,
                              partial=lambda r: seen.append([(c.variant, c.complete, c.nll.copy()) for c in r.curves]))
    assert [[(v, done) for v, done, _ in step] for step in seen] == [
        [("none", False)], [("none", True)], [("none", True), ("linear", True)]]
    preview, full = seen[0][0][2], result.curves[0].nll
    assert preview.shape == (39,)
    np.testing.assert_allclose(preview, full[:39], rtol=1e-5, atol=1e-6)  # the same positions, measured
    assert result.to_json()["estimate"]["measured"][1][0] == 40
    # no preview when the first run is not the model as trained (the prefix is not its start)
    seen.clear()
    perplexity_probe(loaded, ids, variants=("linear",), estimate=estimate, partial=lambda r: seen.append(1))
    assert seen == [1]


def test_saved_results_read_back(loaded, word_llama):
    import json

    from peapp.errors import ParameterError
    from peapp.model_run import load_model
    from peapp.model_run.passkey import passkey_from_json, passkey_probe
    from peapp.model_run.probes import perplexity_from_json, perplexity_probe

    result = perplexity_probe(loaded, _ids(50, seed=9), variants=("none", "dynamic"), window=10)
    doc = json.loads(json.dumps(result.to_json()))
    again = perplexity_from_json(doc)
    # the dtype it ran in is kept; a result saved before --dtype existed ran in float32; no other dtype reads
    assert doc["dtype"] == again.dtype == "float32"
    assert perplexity_from_json({**doc, "dtype": "bfloat16"}).dtype == "bfloat16"
    assert perplexity_from_json({k: v for k, v in doc.items() if k != "dtype"}).dtype == "float32"
    with pytest.raises(ParameterError, match="dtype"):
        perplexity_from_json({**doc, "dtype": "float64"})
    back = again.to_json()
    for saved, read in zip(doc["variants"], back["variants"]):  # windows recomputed from the saved 5-digit nll
        np.testing.assert_allclose(read["windows"]["perplexity"], saved["windows"]["perplexity"], rtol=1e-4)
        saved.pop("windows"), read.pop("windows")
        for key in ("perplexity", "mean_nll", "perplexity_within_trained", "perplexity_beyond_trained"):
            assert read.get(key) == pytest.approx(saved.get(key), rel=1e-4)
            saved.pop(key, None), read.pop(key, None)
    assert back == doc
    np.testing.assert_allclose(again.curves[1].nll, result.curves[1].nll, rtol=1e-5)
    pk = passkey_probe(load_model(word_llama), lengths=(100,), depths=(0.0, 1.0))
    doc = json.loads(json.dumps(pk.to_json()))
    assert passkey_from_json({**doc, "dtype": "bfloat16"}).dtype == "bfloat16"
    with pytest.raises(ParameterError, match="dtype"):
        passkey_from_json({**doc, "dtype": "int8"})
    back = passkey_from_json(doc).to_json()
    for saved, read in zip(doc["cells"], back["cells"]):  # per-layer means recomputed from the saved 7 digits
        np.testing.assert_allclose(read.pop("needle_attention_per_layer"), saved.pop("needle_attention_per_layer"),
                                   rtol=1e-5, atol=1e-7)
    for name in doc["mean"]:
        np.testing.assert_allclose(np.array(back["mean"][name], dtype=float), np.array(doc["mean"][name], dtype=float),
                                   rtol=1e-5, atol=1e-7)
    back.pop("mean"), doc.pop("mean")
    assert back == doc
    with pytest.raises(ParameterError, match="not a saved passkey"):
        passkey_from_json({"probe": "perplexity"})
    doc["cells"][0].pop("logprob")
    with pytest.raises(ParameterError, match="damaged"):
        passkey_from_json(doc)


def test_the_panel_request_runs_reads_saved_results_and_cancels(short_llama, word_llama, tmp_path, monkeypatch):
    import json

    from peapp.jobs import Cancelled, run_job
    from peapp.model_run import probes
    from peapp.model_run.probe_run import ProbeRequest
    from peapp.views.probe import ProbeView

    monkeypatch.setattr(probes, "ESTIMATE_FROM", 50)  # "long" for this test: the estimate and its preview run
    words = " ".join(f"w{i}" for i in _ids(70, seed=10))
    view = ProbeView(text_source="typed", text=words, length=60, variants="none,yarn", window=20)
    arrived = []
    outcome = run_job(ProbeRequest.from_view(view, short_llama), on_partial=lambda r: arrived.append(
        [c.complete for c in r.curves]))
    assert [c.variant for c in outcome.result.curves] == ["none", "yarn"]
    assert arrived == [[False], [True], [True, True]] and outcome.result.estimate.n == 60
    assert outcome.text_label == "typed text" and len(outcome.text_sha256) == 64
    saved = tmp_path / "probe.json"
    saved.write_text(json.dumps(outcome.result.to_json()), encoding="utf-8")
    again = ProbeRequest.from_view(view.replace(results_file=str(saved)), "").run()
    assert again.from_file == str(saved) and [c.variant for c in again.result.curves] == ["none", "yarn"]

    calls = []

    def progress(fraction):
        calls.append(fraction)
        if len(calls) > 2:
            raise Cancelled()

    passkey_view = ProbeView(mode="probe-passkey", lengths="100", depths="0,1")
    with pytest.raises(Cancelled):
        ProbeRequest.from_view(passkey_view, word_llama).run(progress)
    done = ProbeRequest.from_view(passkey_view, word_llama).run()
    assert len(done.result.cells) == 2


def test_a_run_started_during_a_probe_equals_the_run_alone(short_llama, monkeypatch):
    """The cached model is lent to one job at a time (issue 30): a probe used to swap its rotary
    frequencies for each variant, and a run started meanwhile computed with them.  The run is
    started from inside the probe while a scaled variant runs; it must wait for the model and then
    equal the run made alone, and the model's own frequencies are untouched meanwhile (the
    variant's are the probe's calls' own)."""
    import threading

    import torch

    from peapp.model_run import probes
    from peapp.model_run.probe_run import ProbeRequest
    from peapp.model_run.text_run import MODEL_CACHE, TextRunRequest
    from peapp.views.probe import ProbeView

    class _WatchedLock:  # the cache's lend lock, saying when a job had to wait for it
        def __init__(self):
            self.lock, self.waited = threading.Lock(), threading.Event()

        def acquire(self, timeout=-1):
            got = self.lock.acquire(timeout=timeout)
            if not got:
                self.waited.set()
            return got

        def release(self):
            self.lock.release()

    MODEL_CACHE.clear()
    words = " ".join(f"w{i}" for i in _ids(70, seed=11))
    run = TextRunRequest(checkpoint=short_llama, text_source="typed", text=words, layer=1, head=1)
    alone = run.run()
    probe_view = ProbeView(text_source="typed", text=words, length=60, variants="none,linear", window=20)
    probe_alone = ProbeRequest.from_view(probe_view, short_llama).run()

    watched = _WatchedLock()
    monkeypatch.setattr(MODEL_CACHE, "_lent", watched, raising=False)
    during: dict = {}
    started = threading.Event()

    def start_the_run_while_scaled(_fraction):
        rotary = probes._rotary_modules(MODEL_CACHE._loaded.model)[0]
        if started.is_set() or not probes._scaled.get():
            return
        started.set()  # the linear variant runs now, with its own frequencies
        assert torch.equal(rotary.inv_freq, rotary.original_inv_freq)  # and the model's are its own
        thread = threading.Thread(target=lambda: during.setdefault("run", run.run()))
        thread.start()
        during["thread"] = thread
        while thread.is_alive() and not watched.waited.is_set():
            thread.join(0.01)

    probe_during = ProbeRequest.from_view(probe_view, short_llama).run(start_the_run_while_scaled)
    during["thread"].join(60)
    assert started.is_set() and watched.waited.is_set()  # the run waited for the probe's model
    for name in ("attention_map", "logit_map", "distance_profile", "entropy", "rope_usage"):
        np.testing.assert_array_equal(getattr(during["run"].run, name), getattr(alone.run, name))
    for a, b in zip(probe_during.result.curves, probe_alone.result.curves):
        assert a.variant == b.variant and a.perplexity == b.perplexity


def test_attention_strategies_of_two_jobs_on_one_model_do_not_mix(loaded):
    """One registered attention function, its strategy passed per call, and a probe's frequencies
    its own calls' (issue 30): a run started inside a probe's forward pass (as trained or scaled),
    a probe and a streaming pass started inside a run's, all on the same model object with no
    lending between them, each equal what it gives alone (a probe that switched the model's
    attention function sent the other job's layers to its own, and its scaled buffers were the
    run's)."""
    import threading

    from peapp.model_run.attention_hook import ATTENTION_NAME
    from peapp.model_run.probes import (model_rope_specs, position_nll, rotary_frequencies, scaled_frequencies,
                                        variant_specs)
    from peapp.model_run.runner import RunOptions, run_model
    from peapp.model_run.streaming import streaming_nll

    ids = _ids(40, seed=7)
    options = RunOptions(layer=1, head=1)
    run_alone = run_model(loaded, ids, options)
    probe_alone, _ = position_nll(loaded, ids)
    stream_alone = streaming_nll(loaded, ids, 8, 2)
    got: dict = {}

    def inside(name: str, job):
        """A progress callback that, at its first call (inside the first layer), runs ``job`` on
        another thread to the end."""
        def progress(_fraction):
            if name in got:
                return
            got[name] = None
            thread = threading.Thread(target=lambda: got.__setitem__(name, job()))
            thread.start()
            thread.join(120)
        return progress

    probe_outer, _ = position_nll(loaded, ids, progress=inside("run", lambda: run_model(loaded, ids, options)))
    run_outer = run_model(loaded, ids, options, progress=inside("probe", lambda: position_nll(loaded, ids)[0]))
    stream_outer = streaming_nll(loaded, ids, 8, 2, progress=inside("stream_run", lambda: run_model(
        loaded, ids, options)))
    run_outer_2 = run_model(loaded, ids, options, progress=inside("stream", lambda: streaming_nll(loaded, ids, 8, 2)))
    # a scaled variant's frequencies are its own calls' too
    frequencies = scaled_frequencies(variant_specs(model_rope_specs(loaded), "linear", 2.0), len(ids))
    with rotary_frequencies(loaded.model, frequencies):
        scaled_alone, _ = position_nll(loaded, ids)
        scaled_outer, _ = position_nll(loaded, ids, progress=inside("scaled_run", lambda: run_model(
            loaded, ids, options)))
    assert not np.allclose(scaled_alone, probe_alone)
    np.testing.assert_array_equal(scaled_outer, scaled_alone)
    # and the rows the trunk stands in with while the LM head is applied alone are its call's own
    start_run = inside("head_run", lambda: run_model(loaded, ids, options))
    handle = loaded.model.lm_head.register_forward_hook(lambda *_: start_run(0.0))
    try:
        head_outer, _ = position_nll(loaded, ids)
    finally:
        handle.remove()
    np.testing.assert_array_equal(head_outer, probe_alone)
    for result in (got["run"], run_outer, got["stream_run"], run_outer_2, got["scaled_run"], got["head_run"]):
        for name in ("attention_map", "logit_map", "distance_profile", "entropy", "rope_usage", "thumbnails"):
            np.testing.assert_array_equal(getattr(result, name), getattr(run_alone, name))
        assert result.mean_nll == run_alone.mean_nll
    for nll in (probe_outer, got["probe"]):
        np.testing.assert_array_equal(nll, probe_alone)
    for nll in (stream_outer, got["stream"]):
        np.testing.assert_array_equal(nll, stream_alone)
    assert loaded.model.config._attn_implementation == ATTENTION_NAME
