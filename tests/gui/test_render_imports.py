"""``peapp render`` imports only what the view needs: a sinusoid's heatmap needs neither the
checkpoint readers nor transformers, and computes in a second process, so this one does not
import torch either (checked in a fresh process, whose sys.modules is its own)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = textwrap.dedent('''
    import json, sys
    if sys.argv[1] == "torch-here":
        import torch  # loaded before the render: it computes in this process (ui.commands.render)
    from peapp import cli, request_process
    answered = []
    ask = request_process.RequestProcess._ask
    request_process.RequestProcess._ask = lambda self, request: answered.append(ask(self, request)) or answered[-1]
    code = cli.main(["render", *sys.argv[3:], "-o", sys.argv[2]])
    print(json.dumps({"code": code, "modules": sorted(m for m in sys.modules if "." not in m),
                      "docks": sorted(m for m in sys.modules if m.startswith("ui.docks.")),
                      "answers": [None if a is None else a[0] for a in answered]}))
''')


def _render_elsewhere(tmp_path, out, *args, torch_here: bool = False) -> dict:
    """``peapp render ARGS -o OUT`` in a fresh process: its exit code, imported modules and the
    kinds of the second process's answers.  ``torch_here``: torch is imported first, so the
    render computes in that process and starts no second one."""
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    where = "torch-here" if torch_here else "second-process"
    result = subprocess.run([sys.executable, "-c", SCRIPT, where, str(out), *args], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_a_sinusoid_heatmap_render_imports_no_checkpoint_reader(tmp_path):
    out = tmp_path / "x.png"
    report = _render_elsewhere(tmp_path, out, "heatmap", "--encoding", "sinusoidal")
    assert report["code"] == 0 and out.stat().st_size > 0
    for name in ("transformers", "safetensors", "gguf", "tokenizers", "accelerate"):
        assert name not in report["modules"], f"rendering a sinusoid heatmap imported {name}"
    assert "torch" not in report["modules"], "the heatmap's requests are computed in the second process"
    # ... which did compute them: the table, and its cross-section
    assert report["answers"] and set(report["answers"]) == {"result"}, report["answers"]


def test_a_render_computed_in_the_second_process_is_the_one_computed_here_in_hindi_too(tmp_path):
    """The second process builds the captions and labels its results carry in the render's
    language (a Hindi render once had an English colour-bar label); its picture is the one a
    render computing in its own process draws.  Both run in fresh processes: app-wide state a
    test process carries from earlier tests is no part of either picture (a CI run once saw them
    differ with the second render in the test process, and nowhere else)."""
    from PySide6.QtGui import QImage

    args = ["heatmap", "--lang", "hi", "--encoding", "rope", "--set", "n_positions=3000", "--size", "700x500"]
    there, here = tmp_path / "there.png", tmp_path / "here.png"
    report = _render_elsewhere(tmp_path, there, *args)
    assert report["code"] == 0 and "torch" not in report["modules"]  # it was computed there ...
    assert report["answers"] and set(report["answers"]) == {"result"}, report["answers"]
    report = _render_elsewhere(tmp_path, here, *args, torch_here=True)
    assert report["code"] == 0 and report["answers"] == []  # ... and here: no second process was asked
    a, b = QImage(str(there)), QImage(str(here))
    assert a.size() == b.size() and not a.isNull()
    assert a == b, f"the two renders differ in {_differing_box(a, b)} (kept in {tmp_path})"


def _differing_box(a, b) -> str:
    """Where two equally sized images differ: the bounding box of the differing pixels, and how many."""
    import numpy as np

    def pixels(image):
        image = image.convertToFormat(image.Format.Format_RGB32)
        return np.frombuffer(image.constBits(), np.uint32).reshape(image.height(), image.bytesPerLine() // 4)

    rows, columns = np.nonzero(pixels(a) != pixels(b))
    if rows.size == 0:
        return "no pixel (their formats or metadata differ)"
    return (f"{rows.size:,} pixels, x {columns.min()}–{columns.max()}, y {rows.min()}–{rows.max()} "
            f"of {a.width()}×{a.height()}")


def test_an_attention_render_computes_in_the_second_process(tmp_path):
    """The inspector's request and result live apart from its torch code
    (peapp.analysis.attention.request / result), so an attention render imports no torch here."""
    out = tmp_path / "attention.png"
    report = _render_elsewhere(tmp_path, out, "attention", "--size", "900x600")
    assert report["code"] == 0 and out.stat().st_size > 0
    assert "torch" not in report["modules"], "the attention view's requests are computed in the second process"
    assert report["answers"] and set(report["answers"]) == {"result"}, report["answers"]
