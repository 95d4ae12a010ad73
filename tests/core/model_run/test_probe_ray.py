"""The probes' sweeps on Ray (issue 33): a local Ray (two CPUs) gives the local probe's numbers,
one task per variant (perplexity) and per length × depth (passkey), in the local order."""

from __future__ import annotations

import json

import numpy as np

from peapp.jobs import run_job
from peapp.model_run import load_model
from peapp.model_run.passkey import passkey_probe
from peapp.model_run.probes import perplexity_probe

from .test_probes import _ids, short_llama, word_llama  # noqa: F401  (fixtures)

def test_perplexity_variants_on_ray_equal_the_local_probe(local_ray, short_llama):  # noqa: F811
    from peapp.model_run.probe_cluster import perplexity_on_ray

    ids = _ids(80)
    local = perplexity_probe(load_model(short_llama), ids, variants=["none", "linear", "ntk"], factor=2.0, window=16)
    seen = []
    on_ray = run_job(perplexity_on_ray(local_ray, short_llama, {"dtype": "float32"}, ids, ["none", "linear", "ntk"],
                                       2.0, 16), on_partial=lambda r: seen.append(len(r.curves)))
    assert [c.variant for c in on_ray.curves] == ["none", "linear", "ntk"]
    assert sorted(seen) == [1, 2, 3]
    for a, b in zip(on_ray.curves, local.curves):
        np.testing.assert_allclose(a.nll, b.nll, rtol=1e-5, atol=1e-6)


def test_passkey_cells_on_ray_equal_the_local_probe(local_ray, word_llama):  # noqa: F811
    from peapp.model_run.probe_cluster import passkey_on_ray

    local = passkey_probe(load_model(word_llama), lengths=(100, 150), depths=(0.0, 1.0), trials=2, seed=7)
    on_ray = run_job(passkey_on_ray(local_ray, word_llama, {"dtype": "float32"}, (150, 100), (0.0, 1.0), 2, 7, "none",
                                    2.0))
    assert [(c.n_tokens, c.depth) for c in on_ray.cells] == [(c.n_tokens, c.depth) for c in local.cells]
    for name in ("logprob", "token_accuracy", "needle_attention"):
        np.testing.assert_allclose(on_ray.table(name), local.table(name), rtol=1e-5, atol=1e-6)


def test_cli_probe_with_ray_prints_the_same_json(local_ray, short_llama, capsys):  # noqa: F811
    from peapp import cli

    common = ["probe", "perplexity", short_llama, "--length", "60", "--variants", "none,linear", "--window", "10",
              "--dtype", "float32", "--json", "--quiet"]
    assert cli.main(common) == 0
    local = json.loads(capsys.readouterr().out)
    assert cli.main(common + ["--ray", local_ray]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert on_ray["dtype"] == "float32" and on_ray["device"] == "cpu"
    for a, b in zip(on_ray["variants"], local["variants"]):
        assert a["variant"] == b["variant"]
        np.testing.assert_allclose(a["nll"], b["nll"], rtol=1e-4, atol=1e-5)
