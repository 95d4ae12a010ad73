"""The Training lab panel's core: its settings are checked without torch or Qt, and a results
folder reads into curves with seed bands, "cannot" cells and the table the panel draws."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

from peapp.analysis import lab as lab_analysis
from peapp.document import Document
from peapp.errors import ParameterError
from peapp.lab import grid as lab_grid
from peapp.lab.options import TrainSettings, parse_lengths
from peapp.views import get as view_spec


def test_settings_are_checked_and_build_the_grid():
    spec = view_spec("lab")(encodings="alibi,rope-yarn", eval_lengths="40, 10,20,10", seeds=2)
    settings = spec.grid_settings()
    assert settings.encodings == ("rope", "alibi") and settings.rope_scalings == ("yarn",)
    assert settings.eval_lengths == (10, 20, 40)
    grid = settings.grid_spec()
    assert isinstance(grid, lab_grid.GridSpec) and len(grid.runs()) == 4
    for bad, match in ((dict(encodings="rope,xpos"), "unknown encoding xpos"),
                       (dict(eval_lengths="10,abc"), "not a whole number"),
                       (dict(eval_lengths="0"), "outside 1"), (dict(eval_lengths=" , "), "at least one"),
                       (dict(d_model=64, n_heads=3), "head width"), (dict(seeds=0), "seeds")):
        with pytest.raises(ParameterError, match=match):
            view_spec("lab")(**bad)
    with pytest.raises(ParameterError, match="unknown encoding"):
        Document().with_view("lab", encodings="bogus")  # a session carrying it is refused the same way
    assert parse_lengths("1_000") == (1000,)


def test_importing_the_lab_view_modules_needs_no_torch():
    """The panel's modules import without torch (the window builds it before torch loads); only
    reading results and training, on the worker, load it."""
    code = "import sys, peapp.analysis.lab, peapp.lab.options; print('torch' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False", out.stderr


@pytest.fixture(scope="module")
def trained_folder(tmp_path_factory):
    """learned and ALiBi, 2 seeds, trained on lengths ≤ 3 and evaluated at 3 and 6 (inline: seconds)."""
    folder = tmp_path_factory.mktemp("lab")
    grid = lab_grid.GridSpec(encodings=("learned", "alibi"), rope_scalings=(), train_length=3, eval_lengths=(3, 6),
                             seeds=2, train=TrainSettings(steps=3, eval_samples=8, warmup_steps=1))
    outcome = lab_grid.run_grid(grid, folder, workers=1, mode="inline")
    assert len(outcome.finished) == 4
    return folder


def test_results_folder_reads_into_curves_bands_and_cannot(trained_folder):
    result = lab_analysis.LabResultsRequest(str(trained_folder)).run()
    assert result.runs == 4 and result.metric == "exact_match" and result.train_length == 3
    curves = {c.variant: c for c in result.curves}
    assert set(curves) == {"learned", "alibi"}
    learned, alibi = curves["learned"], curves["alibi"]
    np.testing.assert_array_equal(learned.lengths, [3, 6])
    assert learned.cannot == [6] and np.isnan(learned.mean[1]) and learned.seeds == 2
    assert alibi.cannot == [] and np.isfinite(alibi.mean).all()
    # the band spans the seeds' own values (from their metrics.json files)
    values = [json.loads(p.read_text())["eval"]["alibi"][1]["value"] for p in sorted(trained_folder.glob("*alibi*/metrics.json"))]
    assert alibi.low[1] == min(values) and alibi.high[1] == max(values)
    assert np.isclose(alibi.mean[1], np.mean(values))
    header, *rows = result.table
    assert header == ["encoding", "length 3", "length 6"]
    assert rows[0][0] == "Learned absolute" and rows[0][2] == "cannot"
    assert len(result.loss_curves) == 4 and all(curve.shape[1] == 2 for _, _, curve in result.loss_curves.values())
    assert result.references  # exact-match references (Kazemnejad et al.) are listed


def test_runs_of_other_settings_are_not_drawn_and_damaged_ones_are_named(trained_folder, tmp_path):
    import shutil

    folder = tmp_path / "copy"
    shutil.copytree(trained_folder, folder)
    grid = json.loads((folder / "grid.json").read_text())
    grid["encodings"] = ["alibi"]
    (folder / "grid.json").write_text(json.dumps(grid))
    bad = next(folder.glob("*alibi*seed1"))
    (bad / "metrics.json").write_text("{not json")
    result = lab_analysis.load_results(folder)
    assert [c.variant for c in result.curves] == ["alibi"] and result.runs == 1
    assert any("other settings" in note for note in result.notes)
    assert any("skipped" in note and bad.name in note for note in result.notes)


def test_an_empty_or_missing_folder_is_no_runs(tmp_path):
    result = lab_analysis.load_results(tmp_path / "nothing")
    assert result.empty and result.curves == [] and result.metric is None
    assert lab_analysis.LabResultsRequest(str(tmp_path / "nothing")).run() is None  # nothing to draw or export


def test_the_help_texts_spell_out_the_options_they_name():
    """Marked texts are literals (no numbers or lists built in): they must still say what the code does."""
    from peapp.lab import options
    from peapp.views.lab import LabView

    assert f"NoPE gets {options.NOPE_STEP_FACTOR}× this" in LabView.info("steps").help
    assert "a comma list of " + ", ".join(options.ALL_VARIANTS) + " (" in LabView.info("encodings").help
