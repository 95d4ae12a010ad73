"""The Probes panel (issue 15) on tiny models built here (save_pretrained into tmp_path; nothing downloaded)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from peapp.document import Document
from tests.conftest import wait_idle

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TRAINED = 48  # the tiny Llama's trained context: the probes go past it


@pytest.fixture(autouse=True)
def _cache(tmp_path, monkeypatch):
    monkeypatch.setenv("PEAPP_CACHE_DIR", str(tmp_path / "cache"))  # results kept here, not in the user's cache


@pytest.fixture(scope="module")
def word_llama(tmp_path_factory):
    """A tiny Llama whose tokenizer knows every word of the sample text, the filler and the prompt."""
    import torch
    from tokenizers import Tokenizer, models, pre_tokenizers, trainers
    from transformers import LlamaConfig, LlamaForCausalLM

    from peapp.model_run import passkey
    from peapp.model_run.text_run import resolve_text

    tok = Tokenizer(models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Sequence([pre_tokenizers.Whitespace(),
                                                 pre_tokenizers.Digits(individual_digits=True)])
    texts = [resolve_text("sample")[0], passkey.filler_text(), passkey.INTRO, passkey.NEEDLE, passkey.QUESTION,
             "0 1 2 3 4 5 6 7 8 9"]
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["[UNK]"]))
    torch.manual_seed(6)
    cfg = LlamaConfig(vocab_size=tok.get_vocab_size(), hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=TRAINED, rope_theta=100.0)
    folder = tmp_path_factory.mktemp("word-llama")
    LlamaForCausalLM(cfg).eval().save_pretrained(folder)
    tok.save(str(folder / "tokenizer.json"))
    return str(folder)


@pytest.fixture(scope="module")
def tiny_gpt2(tmp_path_factory, word_llama):
    import shutil

    import torch
    from transformers import GPT2Config, GPT2LMHeadModel

    torch.manual_seed(2)
    vocab = json.load(open(os.path.join(word_llama, "tokenizer.json")))["model"]["vocab"]
    cfg = GPT2Config(vocab_size=len(vocab), n_embd=32, n_layer=2, n_head=2, n_positions=40,
                     bos_token_id=0, eos_token_id=0)
    folder = tmp_path_factory.mktemp("gpt2")
    GPT2LMHeadModel(cfg).eval().save_pretrained(folder)
    shutil.copy(os.path.join(word_llama, "tokenizer.json"), folder / "tokenizer.json")
    return str(folder)


def _open(window, path) -> None:
    model = window.document_model
    model.set_document(model.document.with_checkpoint(str(path)))


def _dock(window):
    dock = window.docks["probeDock"]
    dock.show()
    dock.raise_()
    return dock


def _wait(qtbot, window, dock) -> None:
    """Until the probe is done: its estimate's result starts the run, so the worker is idle in between."""
    qtbot.waitUntil(lambda: dock.controller.state == "idle", timeout=120_000)
    wait_idle(qtbot, window, 120_000)


def _expected(path, length, variants, factor=2.0):
    from peapp.model_run import load_model
    from peapp.model_run.probes import perplexity_probe, tokenize_all
    from peapp.model_run.text_run import resolve_text

    loaded = load_model(path)
    ids = tokenize_all(loaded, resolve_text("sample")[0])[:length]
    return perplexity_probe(loaded, ids, variants=variants, factor=factor, window=10)


def test_perplexity_run_draws_the_probe_numbers_partials_first(main_window, qtbot, word_llama, tmp_path):
    dock = _dock(main_window)
    _open(main_window, word_llama)
    dock.set_settings(length=120, window=10, variants="none,linear,yarn", factor=2.0)
    seen = []
    dock.worker.partialReady.connect(lambda channel, generation, r: seen.append(len(r.curves)))
    dock.run_probe()
    _wait(qtbot, main_window, dock)
    assert not dock.message.text(), dock.message.text()
    assert seen[:2] == [1, 2]  # partial curves arrived before the end
    expected = _expected(word_llama, 120, ("none", "linear", "yarn"))
    shown = dock.shown_result("probe-perplexity")
    for c, e in zip(shown.curves, expected.curves):
        np.testing.assert_allclose(c.nll, e.nll, rtol=1e-5, atol=1e-6)
        item = dock.ppl_curves[c.variant]
        np.testing.assert_allclose(item.yData, e.windowed(10)[2], rtol=1e-5)
    assert dock.trained_line.isVisible() and dock.trained_line.value() == TRAINED
    assert dock.table.rowCount() == 3 and dock.table.item(0, 4).text() == f"{expected.curves[0].perplexity_between(TRAINED, 120):,.2f}"
    caption = dock.caption.text()
    assert "past 48" in caption and ("as the article expects" in caption or "unlike the article" in caption)
    # the hover read-out gives every variant's window perplexity at that position
    text = dock.readout_at(25.0, 10.0)
    assert text.startswith("positions 21–30: perplexity as trained ") and "YaRN" in text
    # the finished run is kept and recorded: a session reopens it
    saved = dock.settings()["results_file"]
    assert saved and json.load(open(saved))["probe"] == "perplexity"
    # the window is a display setting: redrawn, not run again
    dock.set_settings(window=20)
    wait_idle(qtbot, main_window)
    np.testing.assert_allclose(dock.ppl_curves["none"].yData, expected.curves[0].windowed(20)[2], rtol=1e-5)
    # export: PNG + data
    from ui import export

    # the figure's title is drawn once: the plot's own title is the whole of it (no second line above)
    assert export._title_shown(dock.export_widget(), dock.export_title())
    assert dock.ppl_plot.titleLabel.text == dock.export_title()
    written = export.export(dock, str(tmp_path / "ppl.png"), export.FigureOptions(size=(800, 600)))
    assert str(tmp_path / "ppl.png") in written and os.path.getsize(tmp_path / "ppl.png") > 1000
    written = export.export(dock, str(tmp_path / "ppl.npz"), export.FigureOptions())
    data = np.load(tmp_path / "ppl.npz")
    np.testing.assert_allclose(data["perplexity_yarn"], expected.curves[2].windowed(20)[2], rtol=1e-5)


def test_cancel_keeps_the_previous_picture_and_long_runs_ask(main_window, qtbot, word_llama, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    from ui.docks import probe as probe_dock

    dock = _dock(main_window)
    _open(main_window, word_llama)
    dock.set_settings(length=100, window=10, variants="none")
    dock.run_probe()
    _wait(qtbot, main_window, dock)
    assert not dock.message.text() and dock.controller.state == "idle", (dock.message.text(), dock.controller.state, dock.status.text())
    before = dock.ppl_curves["none"].yData.copy()
    # a long run (here: any that is estimated) asks first; No leaves the picture as it was
    from peapp.model_run import probes

    monkeypatch.setattr(probes, "ESTIMATE_FROM", 50)
    monkeypatch.setattr(probe_dock, "CONFIRM_SECONDS", 0.0)
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    dock.set_settings(length=110, variants="none,ntk")
    dock.run_probe()
    _wait(qtbot, main_window, dock)
    assert asked and "estimated to take" in asked[0] and dock.status.text() == "Not started."
    np.testing.assert_array_equal(dock.ppl_curves["none"].yData, before)
    # Yes runs; Cancel (the button, or Esc through the window) while it runs keeps the previous picture
    import time

    from PySide6.QtCore import Qt

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    real_probe = probes.perplexity_probe

    def slow_probe(*args, progress=None, **kwargs):  # a long probe: reports progress (where a cancel lands)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            progress(0.1)
            time.sleep(0.01)
        return real_probe(*args, progress=progress, **kwargs)

    monkeypatch.setattr(probes, "perplexity_probe", slow_probe)
    for stop in (dock.cancel, lambda: qtbot.keyClick(main_window, Qt.Key.Key_Escape)):
        dock.run_probe()
        qtbot.waitUntil(lambda: dock.controller.state == "running" and main_window.cancel_button.isVisible(), timeout=60_000)
        stop()
        _wait(qtbot, main_window, dock)
        assert "cancelled" in dock.message.text() and not dock.cancel_button.isVisible()
        np.testing.assert_array_equal(dock.ppl_curves["none"].yData, before)
        assert set(dock.ppl_curves) == {"none"}


def test_learned_table_says_cannot_past_its_rows(main_window, qtbot, tiny_gpt2):
    dock = _dock(main_window)
    _open(main_window, tiny_gpt2)
    dock.set_settings(length=100, window=10, variants="none,yarn")
    dock.run_probe()
    _wait(qtbot, main_window, dock)
    result = dock.shown_result()
    assert result.n_measured == 40 and dock.cannot_region.isVisible()
    assert tuple(dock.cannot_region.getRegion()) == (40, 100)
    assert "cannot be read" in dock.caption.text() and "yarn: not run" in dock.caption.text()
    assert dock.readout_at(70.0, 10.0).startswith("position 70: cannot")
    assert dock.ppl_curves["none"].xData.max() < 40


def test_passkey_draws_measured_curves_beside_the_paper(main_window, qtbot, word_llama):
    from peapp.model_run import load_model
    from peapp.model_run.passkey import LOST_IN_THE_MIDDLE, passkey_probe

    dock = _dock(main_window)
    _open(main_window, word_llama)
    dock.set_settings(mode="probe-passkey", lengths="80,120", depths="0,0.5,1", attention_layer=1)
    assert dock.tabs.currentIndex() == 1
    dock.run_probe()
    _wait(qtbot, main_window, dock)
    assert not dock.message.text(), dock.message.text()
    expected = passkey_probe(load_model(word_llama), lengths=(80, 120), depths=(0, 0.5, 1))
    arrays = dock.export_arrays()
    np.testing.assert_allclose(arrays["logprob"], expected.table("logprob"), rtol=1e-5)
    np.testing.assert_allclose(arrays["needle_attention_per_layer_120"], expected.layer_attention(120), rtol=1e-5)
    names = [item.opts.get("name") for item in dock.acc_plot.listDataItems()]
    assert any(n and n.startswith("Liu et al. 2023 (the paper") for n in names)
    ref = [i for i in dock.acc_plot.listDataItems() if (i.opts.get("name") or "").startswith("Liu")][0]
    np.testing.assert_allclose(ref.yData, np.asarray(LOST_IN_THE_MIDDLE["accuracy_percent"]) / 100)
    att = [i for i in dock.att_plot.listDataItems() if i.opts.get("name") == "120 tokens"][0]
    np.testing.assert_allclose(att.yData, expected.layer_attention(120)[1], rtol=1e-5)
    assert "another model and task" in dock.caption.text()
    text = dock.readout_at(0.5, 0.5, dock.logp_plot)
    assert text.startswith("depth 50%: 80 tokens: log p") and "120 tokens" in text


def test_session_reopens_the_saved_result_without_running(main_window, qtbot, word_llama, tmp_path, settings):
    from ui.main_window import MainWindow

    dock = _dock(main_window)
    _open(main_window, word_llama)
    dock.set_settings(length=100, window=10, variants="none,ntk")
    dock.run_probe()
    _wait(qtbot, main_window, dock)
    shown = dock.export_arrays()
    session = tmp_path / "s.json"
    main_window.document_model.document.save(session)
    doc = Document.load(session)
    assert doc.views["probe"]["results_file"] == dock.settings()["results_file"]
    window = MainWindow(doc, load_backend="now", settings=settings, restore_layout=False)
    qtbot.addWidget(window)
    window.show()
    wait_idle(qtbot, window)
    again = window.docks["probeDock"]
    qtbot.waitUntil(lambda: again.shown_result() is not None, timeout=20_000)
    assert again.status.text().startswith("Drawn from the saved result")
    assert again.controls["length"].value() == 100 and not again.variant_checks["linear"].isChecked()
    for name, values in shown.items():
        np.testing.assert_allclose(again.export_arrays()[name], values, rtol=1e-5, atol=1e-5)
    window.close()
    # without a saved result, opening a session runs nothing (only Run does)
    bare = Document.load(session).with_view("probe", results_file="")
    window = MainWindow(bare, load_backend="now", settings=settings, restore_layout=False)
    qtbot.addWidget(window)
    window.show()
    wait_idle(qtbot, window)
    assert window.docks["probeDock"].shown_result() is None and window.docks["probeDock"].controller.state == "idle"
    window.close()


def _cli(*args, timeout=300):
    env = dict(os.environ, PYTHONPATH=ROOT, QT_QPA_PLATFORM="offscreen", OMP_NUM_THREADS="1")
    return subprocess.run([sys.executable, "-m", "peapp", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, env=env)


def test_cli_figure_equals_the_gui_export_data(main_window, qtbot, word_llama, tmp_path):
    """`peapp probe perplexity -o fig.png` draws through the panel: its data sidecar equals the GUI's."""
    from ui import export

    text = tmp_path / "t.txt"
    from peapp.model_run.text_run import resolve_text

    text.write_text(resolve_text("sample")[0][:4000], encoding="utf-8")
    proc = _cli("probe", "perplexity", word_llama, "--text-file", str(text), "--length", "90", "--window", "10",
                "--variants", "none,linear", "-o", str(tmp_path / "cli.png"), "--quiet",
                "--dtype", "float32")  # as the panel below: the tests' Preferences > Precision (conftest)
    assert proc.returncode == 0, proc.stderr
    assert os.path.getsize(tmp_path / "cli.png") > 1000 and (tmp_path / "cli.probe.json").exists()
    proc = _cli("render", "--view", "probe-perplexity", "--session", str(tmp_path / "cli.png"), "-o",
                str(tmp_path / "cli.npz"))
    assert proc.returncode == 0, proc.stderr
    dock = _dock(main_window)
    _open(main_window, word_llama)
    dock.use_file(str(text))
    dock.set_settings(length=90, window=10, variants="none,linear")
    dock.run_probe()
    _wait(qtbot, main_window, dock)
    export.export(dock, str(tmp_path / "gui.npz"), export.FigureOptions())
    cli, gui = np.load(tmp_path / "cli.npz"), np.load(tmp_path / "gui.npz")
    assert sorted(cli.files) == sorted(gui.files)
    for name in cli.files:
        np.testing.assert_allclose(cli[name], gui[name], rtol=1e-4, atol=1e-4)


def test_cli_passkey_figure_reopens_its_numbers(word_llama, tmp_path):
    proc = _cli("probe", "passkey", word_llama, "--lengths", "80", "--depths", "0,1", "-o", str(tmp_path / "pk.svg"),
                "--quiet")
    assert proc.returncode == 0, proc.stderr
    saved = json.load(open(tmp_path / "pk.probe.json"))
    assert saved["probe"] == "passkey" and (tmp_path / "pk.svg").stat().st_size > 1000
    proc = _cli("render", "--view", "probe-passkey", "--session", str(tmp_path / "pk.svg"), "-o", str(tmp_path / "pk.npz"))
    assert proc.returncode == 0, proc.stderr
    data = np.load(tmp_path / "pk.npz")
    np.testing.assert_allclose(data["logprob"], np.asarray(saved["mean"]["logprob"], dtype=float), atol=1e-6)
    # the same session has no perplexity result: that view has nothing to show, said as such
    proc = _cli("render", "--view", "probe-perplexity", "--session", str(tmp_path / "pk.svg"), "-o",
                str(tmp_path / "x.png"))
    assert proc.returncode != 0 and "nothing to show" in proc.stderr


def test_a_language_switch_retells_the_held_probe_and_never_runs_it_again(main_window, qtbot, word_llama, monkeypatch):
    """A probe takes minutes: after a switch its curves, table, verdict and status are said in the new
    language from the result held, and no probe is started for it."""
    from ui import i18n

    dock = _dock(main_window)
    _open(main_window, word_llama)
    dock.set_settings(length=80, window=10, variants="none,linear", factor=2.0)
    dock.run_probe()
    _wait(qtbot, main_window, dock)
    before = dock.shown_result("probe-perplexity")
    curves = {k: np.asarray(v.yData) for k, v in dock.ppl_curves.items()}
    submitted = []
    real_refresh, real_side = dock.refresh, dock.submit_side
    monkeypatch.setattr(dock, "refresh", lambda *a, **k: submitted.append(a) or real_refresh(*a, **k))
    monkeypatch.setattr(dock, "submit_side", lambda *a, **k: submitted.append(a) or real_side(*a, **k))
    try:
        i18n.set_language("hi")
        wait_idle(qtbot, main_window)
        assert submitted == [] and dock.shown_result("probe-perplexity") is before
        assert {k: np.asarray(v.yData) for k, v in dock.ppl_curves.items()}.keys() == curves.keys()
        for k, values in curves.items():
            np.testing.assert_array_equal(dock.ppl_curves[k].yData, values)
        assert "ट्रेनिंग जैसा" in dock.table.item(0, 0).text()
        assert dock.table.horizontalHeaderItem(0).text() == "वेरिएंट"
        assert "मापा गया" in dock.status.text() and "टोकन्स" in dock.caption.text()
        i18n.set_language("en")
        wait_idle(qtbot, main_window)
        assert submitted == [] and dock.table.item(0, 0).text() == "as trained"
        assert "Measured in" in dock.status.text()
    finally:
        i18n.set_language("en")


def test_a_probe_on_typed_text(main_window, qtbot, word_llama):
    """Issue 30: Probes has Run on text's text control, so typed text works there too: typed into
    the editor with real key events, it is what the probe measures and what the Document records."""
    from PySide6.QtCore import Qt

    from peapp.model_run import load_model
    from peapp.model_run.probes import perplexity_probe, tokenize_all
    from peapp.model_run.text_run import resolve_text, text_sha256

    dock = _dock(main_window)
    _open(main_window, word_llama)
    dock.set_settings(length=60, window=10, variants="none")
    combo = dock.source_combo
    assert [combo.itemData(i) for i in range(combo.count())] == ["typed", "file", "sample"]
    assert not dock.text_source.editor.isVisible()  # the sample: no editor taking the table's height
    qtbot.mouseClick(combo, Qt.MouseButton.LeftButton)
    qtbot.keyClick(combo.view(), Qt.Key.Key_Home)  # the first entry: typed text
    qtbot.keyClick(combo.view(), Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: combo.currentData() == "typed" and dock.text_source.editor.isVisible(), timeout=5_000)
    words = " ".join(resolve_text("sample")[0].split()[200:290])  # words the tokenizer knows, not the sample's start
    dock.text_source.editor.setFocus()
    qtbot.keyClicks(dock.text_source.editor, words)
    dock.run_probe()
    _wait(qtbot, main_window, dock)
    assert not dock.message.text(), dock.message.text()
    view = dock.settings()
    assert view["text_source"] == "typed" and view["text"] == words and view["text_sha256"] == text_sha256(words)
    loaded = load_model(word_llama)
    expected = perplexity_probe(loaded, tokenize_all(loaded, words)[:60], variants=("none",), window=10)
    np.testing.assert_allclose(dock.shown_result("probe-perplexity").curves[0].nll, expected.curves[0].nll,
                               rtol=1e-5, atol=1e-6)
    assert "typed text" in dock.caption.text()


def test_precision_bfloat16_picked_in_probes_runs_the_probe_in_bf16(main_window, qtbot, word_llama, tmp_path, settings):
    """Precision = bfloat16 chosen with the keyboard and Run clicked: the probe's model runs in bf16, the
    caption and status say where and how it ran (English and Hindi), the saved result keeps it, and a
    session drawn from that result says the same; the passkey probe likewise."""
    from PySide6.QtCore import Qt

    from peapp.model_run.probes import perplexity_probe, tokenize_all
    from peapp.model_run.text_run import resolve_text
    from ui import i18n
    from ui.main_window import MainWindow

    dock = _dock(main_window)
    _open(main_window, word_llama)
    dock.set_settings(length=60, window=10, variants="none")
    wait_idle(qtbot, main_window)
    combo = dock.controls["dtype"]
    assert combo.currentData() == "auto"
    combo.setFocus()
    qtbot.keyClick(combo, Qt.Key.Key_Down)  # auto → float32 → bfloat16
    qtbot.keyClick(combo, Qt.Key.Key_Down)
    assert dock.settings()["dtype"] == "bfloat16"
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.controller.state == "idle" and dock.shown_result() is not None, timeout=120_000)
    wait_idle(qtbot, main_window, 120_000)
    result = dock.shown_result("probe-perplexity")
    assert (result.dtype, result.device) == ("bfloat16", "cpu"), dock.message.text()
    assert "Measured on cpu in bfloat16." in dock.caption.text()
    assert dock.status.text().endswith("on cpu in bfloat16.")
    from peapp.model_run import load_model

    loaded = load_model(word_llama)  # float32: the bf16 curve within bf16's tolerance of it
    expected = perplexity_probe(loaded, tokenize_all(loaded, resolve_text("sample")[0])[:60], variants=("none",),
                                window=10)
    assert result.curves[0].perplexity == pytest.approx(expected.curves[0].perplexity, rel=5e-2)
    assert result.curves[0].perplexity != expected.curves[0].perplexity
    saved = dock.settings()["results_file"]
    assert json.load(open(saved))["dtype"] == "bfloat16"
    i18n.set_language("hi")
    wait_idle(qtbot, main_window)
    caption = dock.caption.text()
    assert "bfloat16" in caption and "Measured on" not in caption
    assert i18n.translate("Probe", "Measured on {device} in {dtype}.").format(device="cpu", dtype="bfloat16") in caption
    i18n.set_language("en")
    # a session reopens the saved result: its caption says how it was measured, and so does its Precision
    session = tmp_path / "s.json"
    main_window.document_model.document.save(session)
    window = MainWindow(Document.load(session), load_backend="now", settings=settings, restore_layout=False)
    qtbot.addWidget(window)
    window.show()
    wait_idle(qtbot, window)
    again = window.docks["probeDock"]
    qtbot.waitUntil(lambda: again.shown_result() is not None, timeout=20_000)
    assert "Measured on cpu in bfloat16." in again.caption.text()
    assert again.controls["dtype"].currentData() == "bfloat16"
    window.close()
    # the passkey tab runs in the same Precision
    dock.set_settings(mode="probe-passkey", lengths="80", depths="0,1")
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.controller.state == "idle" and dock.shown_result("probe-passkey") is not None,
                    timeout=120_000)
    passkey = dock.shown_result("probe-passkey")
    assert passkey.dtype == "bfloat16" and "Measured on cpu in bfloat16." in dock.caption.text()


def test_cli_probe_figure_records_the_dtype_it_measured_in(word_llama, tmp_path):
    """`peapp probe … --dtype bfloat16 -o FIG`: the figure's session names the Precision it was measured in,
    and its caption is drawn from a result that says bf16."""
    from peapp.export_data import document_from_file

    proc = _cli("probe", "passkey", word_llama, "--lengths", "80", "--depths", "0,1", "-o", str(tmp_path / "pk.png"),
                "--quiet", "--dtype", "bfloat16")
    assert proc.returncode == 0, proc.stderr
    doc = document_from_file(str(tmp_path / "pk.png"))
    assert doc.view_spec("probe").dtype == "bfloat16"
    assert json.load(open(tmp_path / "pk.probe.json"))["dtype"] == "bfloat16"


def test_attention_sinks_mode_chosen_run_and_cancelled_with_real_events(main_window, qtbot, word_llama, tmp_path,
                                                                       monkeypatch):
    """Issue 37: the Attention sinks tab, chosen with the mouse, W and K typed (a K past its range
    refused in the field), Run clicked: the panel's numbers are streaming_probe's; the eviction is
    marked, the caption says what was measured (from the numbers) beside Xiao et al.; Esc during a
    second run keeps that result."""
    import time

    from PySide6.QtCore import Qt

    from peapp.model_run import load_model, streaming
    from peapp.model_run.probes import tokenize_all
    from peapp.model_run.text_run import resolve_text
    from ui import export

    dock = _dock(main_window)
    _open(main_window, word_llama)
    bar = dock.tabs.tabBar()
    assert bar.tabText(2) == "Attention sinks (streaming)"
    qtbot.mouseClick(bar, Qt.MouseButton.LeftButton, pos=bar.tabRect(2).center())
    qtbot.waitUntil(lambda: dock.settings()["mode"] == "probe-streaming")
    qtbot.waitUntil(lambda: dock.controls["kv_window"].isVisible())  # the tab's own row: Length, W, K
    assert not dock.controls["factor"].isVisible()  # (the streaming probe runs the model as trained)

    def type_into(name: str, text: str) -> None:
        spin = dock.controls[name]
        spin.setFocus()
        spin.lineEdit().selectAll()
        qtbot.keyClicks(spin, text)
        qtbot.keyClick(spin, Qt.Key.Key_Return)

    type_into("kv_window", "20")
    type_into("sinks", "99")  # K ≤ 64: refused in the field, the Document keeps its value
    assert "64" in dock.form.invalid_fields().get("sinks", "") and dock.settings()["sinks"] == 4
    type_into("sinks", "3")
    assert dock.settings()["kv_window"] == 20 and dock.settings()["sinks"] == 3 and not dock.form.invalid_fields()
    dock.set_settings(stream_length=90, stream_bin=10)
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    _wait(qtbot, main_window, dock)
    assert not dock.message.text(), dock.message.text()
    loaded = load_model(word_llama)
    expected = streaming.streaming_probe(loaded, tokenize_all(loaded, resolve_text("sample")[0])[:90], window=20,
                                         sinks=3, bin=10)
    shown = dock.shown_result("probe-streaming")
    assert [c.variant for c in shown.curves] == ["full", "window", "window+sinks"]
    for c, e in zip(shown.curves, expected.curves, strict=True):
        np.testing.assert_allclose(c.nll, e.nll, rtol=0, atol=1e-6)
        np.testing.assert_allclose(dock.st_curves[c.variant].yData, e.windowed(10)[2], rtol=1e-5)
    assert dock.evict_line.isVisible() and dock.evict_line.value() == 21
    caption = dock.caption.text()
    assert "Measured: " + expected.verdict() in caption
    assert "Xiao et al. 2024 (StreamingLLM)" in caption and "5,158.07" in caption and "sinks 0…K−1" in caption
    assert dock.st_table.rowCount() == 3
    assert dock.st_table.item(1, 4).text() == f"{expected.curve('window').perplexity_between(21, 90):,.2f}"
    text = dock.readout_at(25.0, 10.0)
    want = expected.curve("window").windowed(10)[2][2]
    assert text.startswith("positions 21–30 (token 0 evicted), perplexity — full context: ")
    assert f"; window W = 20: {want:,.2f}; window + 3 sinks: " in text
    saved = dock.settings()["streaming_results_file"]
    assert saved and json.load(open(saved))["probe"] == "streaming"
    # positions per point: redrawn, not run again
    dock.set_settings(stream_bin=30)
    wait_idle(qtbot, main_window)
    np.testing.assert_allclose(dock.st_curves["window"].yData, expected.curve("window").windowed(30)[2], rtol=1e-5)
    # exported like the other probe figures: PNG, SVG and the data
    assert dock.export_widget() is dock.view.st_layout and dock.st_plot.titleLabel.text == dock.export_title()
    for name in ("sinks.png", "sinks.svg"):
        export.export(dock, str(tmp_path / name), export.FigureOptions(size=(800, 600)))
        assert os.path.getsize(tmp_path / name) > 1000
    export.export(dock, str(tmp_path / "sinks.npz"), export.FigureOptions())
    data = np.load(tmp_path / "sinks.npz")
    np.testing.assert_allclose(data["perplexity_window_sinks"], expected.curve("window+sinks").windowed(30)[2],
                               rtol=1e-5)
    # Esc while a second run goes on: cancelled, the last result stays drawn
    before = {k: np.asarray(v.yData).copy() for k, v in dock.st_curves.items()}
    real_probe = streaming.streaming_probe

    def slow_probe(*args, progress=None, **kwargs):
        end = time.monotonic() + 60
        while time.monotonic() < end:
            progress(0.1)
            time.sleep(0.01)
        return real_probe(*args, progress=progress, **kwargs)

    monkeypatch.setattr(streaming, "streaming_probe", slow_probe)
    type_into("sinks", "1")
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.controller.state == "running" and main_window.cancel_button.isVisible(),
                    timeout=60_000)
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    _wait(qtbot, main_window, dock)
    assert dock.message.text() == "Probe cancelled; the previous result stays."
    qtbot.waitUntil(lambda: dock.is_stale)  # the banner: the picture is the one before the cancelled run
    assert dock.shown_result("probe-streaming").sinks == 3 and not dock.cancel_button.isVisible()
    for k, values in before.items():
        np.testing.assert_array_equal(dock.st_curves[k].yData, values)
    assert "Measured: " + expected.verdict() in dock.caption.text()


def test_a_saved_streaming_probe_renders_headless_in_the_probes_figure(word_llama, tmp_path):
    """`peapp probe streaming --json` saved, named by a session's Probes view: `peapp render
    probe-streaming` draws it without running (PNG) and gives its numbers again (data)."""
    proc = _cli("probe", "streaming", word_llama, "--length", "70", "--window", "16", "--sinks", "2", "--bin", "10",
                "--json", "--quiet", "--dtype", "float32")
    assert proc.returncode == 0, proc.stderr
    saved = tmp_path / "measured.json"
    saved.write_text(proc.stdout, encoding="utf-8")
    doc = json.loads(proc.stdout)
    session = tmp_path / "s.json"
    Document().with_checkpoint(word_llama).with_view("probe", mode="probe-streaming", stream_bin=10,
                                                      streaming_results_file=str(saved)).save(session)
    for name in ("sinks.png", "sinks.npz"):
        proc = _cli("render", "--view", "probe-streaming", "--session", str(session), "-o", str(tmp_path / name))
        assert proc.returncode == 0, proc.stderr
    assert os.path.getsize(tmp_path / "sinks.png") > 1000
    data = np.load(tmp_path / "sinks.npz")
    for variant in doc["variants"]:
        key = variant["variant"].replace("+", "_")
        np.testing.assert_allclose(data[f"nll_{key}"], variant["nll"], atol=1e-5)
        np.testing.assert_allclose(data[f"perplexity_{key}"], variant["windows"]["perplexity"], rtol=1e-4)
    np.testing.assert_array_equal(data["window_start"], doc["variants"][0]["windows"]["start"])


def _hindi(context: str, source: str) -> str:
    """The Hindi catalogue's translation of ``source`` in ``context`` (resources/i18n/model_hi.ts)."""
    import xml.etree.ElementTree as ET

    tree = ET.parse(os.path.join(ROOT, "resources", "i18n", "model_hi.ts"))
    for ctx in tree.getroot().iter("context"):
        if ctx.findtext("name") == context:
            for message in ctx.iter("message"):
                if message.findtext("source") == source:
                    return message.findtext("translation") or ""
    raise AssertionError(f"no Hindi for {context}/{source!r}")


def test_cli_streaming_figure_is_the_probes_panels_in_either_language(word_llama, tmp_path):
    """`peapp probe streaming … -o FIG` draws the Probes panel's Attention sinks (streaming) tab —
    the three curves, the eviction marker — in --lang's language, not the Measured claims figure,
    and its session reopens as that tab with the probe's settings."""
    from peapp.export_data import document_from_file

    common = ("probe", "streaming", word_llama, "--length", "70", "--window", "16", "--sinks", "2", "--bin", "10",
              "--quiet", "--dtype", "float32")
    proc = _cli(*common, "-o", str(tmp_path / "en.svg"))
    assert proc.returncode == 0, proc.stderr
    svg = (tmp_path / "en.svg").read_text(encoding="utf-8")
    for text in ("full context", "window W = 16", "window + 2 sinks", "token 0 leaves the window (17)",
                 "Attention sinks"):
        assert text in svg, text
    view = document_from_file(str(tmp_path / "en.svg")).view_spec("probe")
    assert (view.mode, view.stream_length, view.kv_window, view.sinks, view.stream_bin) == (
        "probe-streaming", 70, 16, 2, 10)
    assert view.streaming_results_file == str(tmp_path / "en.probe.json")

    proc = _cli(*common, "--lang", "hi", "-o", str(tmp_path / "hi.svg"))
    assert proc.returncode == 0, proc.stderr
    svg = (tmp_path / "hi.svg").read_text(encoding="utf-8")
    for source in ("full context", "token 0 leaves the window ({position})"):
        hindi = _hindi("Probe", source).replace("{position}", "17")
        assert hindi and hindi in svg, source
    assert "full context" not in svg
