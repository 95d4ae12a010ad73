"""The "Run on text" panel on tiny models built here (save_pretrained into tmp_path; nothing downloaded)."""

from __future__ import annotations

import json
import os
import re

import numpy as np
import pytest

from peapp.document import Document
from peapp.model_run import RunOptions, load_model, run_model, tokenize
from tests.conftest import wait_idle

WORDS = "the a of and to in alice rabbit was she it said".split()
TEXT = "alice said the rabbit was in the hole and she said it was late to the rabbit"


def _tokenizer(folder) -> None:
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {"[UNK]": 0, **{w: i + 1 for i, w in enumerate(WORDS)}}
    tok = Tokenizer(models.WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.save(os.path.join(folder, "tokenizer.json"))


@pytest.fixture(scope="module")
def tiny_llama(tmp_path_factory):
    import torch
    from transformers import LlamaConfig, LlamaForCausalLM

    torch.manual_seed(0)
    cfg = LlamaConfig(vocab_size=32, hidden_size=32, intermediate_size=64, num_hidden_layers=2,
                      num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=128)
    folder = str(tmp_path_factory.mktemp("llama"))
    LlamaForCausalLM(cfg).eval().save_pretrained(folder)
    _tokenizer(folder)
    return folder


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory):
    import torch
    from transformers import BertConfig, BertModel

    torch.manual_seed(1)
    cfg = BertConfig(vocab_size=32, hidden_size=32, num_hidden_layers=3, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=64)
    folder = str(tmp_path_factory.mktemp("bert"))
    BertModel(cfg).eval().save_pretrained(folder)
    _tokenizer(folder)
    return folder


def _open(window, path) -> None:
    model = window.document_model
    model.set_document(model.document.with_checkpoint(str(path)))


def _run(qtbot, window, dock, text=TEXT) -> None:
    dock.show()
    dock.raise_()
    dock.type_text(text)
    dock.run_text()
    wait_idle(qtbot, window, 120_000)


def _reference(path, text, layer, head):
    loaded = load_model(path)
    ids, tokens, _ = tokenize(loaded, text, 512)
    return run_model(loaded, ids, RunOptions(layer=layer, head=head), tokens=tokens)


@pytest.mark.all_docks
def test_llama_run_shows_real_attention_with_tokens_and_masked_cells(main_window, qtbot, tiny_llama):
    dock = main_window.docks["runDock"]
    assert "open a checkpoint" in dock.caption.text()
    _open(main_window, tiny_llama)
    assert "is open: choose a text" in dock.caption.text()  # no longer asks for what is there
    _run(qtbot, main_window, dock)
    result = dock.result
    assert result is not None and not dock.message.text()
    run = result.run
    ref = _reference(tiny_llama, TEXT, 0, 0)
    assert run.tokens == ref.tokens and run.n_tokens == len(TEXT.split())
    np.testing.assert_allclose(run.attention_map[0], ref.attention_map[0], atol=1e-6, equal_nan=True)
    # the hover read-out names query token, key token and the weight
    q, k = 5, 2
    text = dock.readout_at(k + 0.5, q + 0.5)
    assert f"query {q} '{run.tokens[q]}'" in text and f"key {k} '{run.tokens[k]}'" in text
    assert f"{run.attention_map[0, q, k]:.4g}" in text
    # a future key is masked, said so and drawn grey, never as weight 0
    assert "masked" in dock.readout_at(6.5, 1.5)
    assert np.isnan(dock.shown_arrays()["map"][1, 6])
    masked_rgba = np.asarray(dock.view.map_masked.image)
    assert tuple(masked_rgba[1, 6]) != (0, 0, 0, 0) and tuple(masked_rgba[6, 1]) == (0, 0, 0, 0)
    # the tokens label the axes, centred on their cells
    axis = dock.map_plot.getAxis("bottom")
    [(spacing, centres)] = axis.tickValues(0, run.n_tokens, 2000)
    assert list(centres) == [i + 0.5 for i in range(run.n_tokens)]
    assert axis.tickStrings(centres, 1, spacing)[:3] == run.tokens[:3]
    [(_, few)] = axis.tickValues(0, run.n_tokens, 200)  # a short axis: thinned
    assert 1 < len(few) < run.n_tokens and few[0] == 0.5
    assert "grey cells are masked" in dock.caption.text()


def test_every_view_draws_the_runs_statistics(main_window, qtbot, tiny_llama):
    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    run = dock.result.run
    shown = dock.shown_arrays()
    np.testing.assert_allclose(shown["sink_first"], run.sink_first)
    np.testing.assert_allclose(shown["sink_span"], run.sink_span)
    assert run.rope_usage is not None and shown["rope_share"].shape == (run.layers, run.rope_usage.shape[-1])
    np.testing.assert_allclose(shown["rope_share"].sum(1), 1.0, rtol=1e-6)
    assert shown["real_logits"].shape == run.logit_map.shape
    profile = shown["distance_head0"]
    expected = run.distance_profile[0, 0, 1:]
    np.testing.assert_allclose(profile, expected[expected > 0])
    for mode, words in (("run-distance", "previous-token if mean weight on the previous token ≥ 0.5"),
                        ("run-sinks", "weight on token 0"), ("run-rope", "trained context 128"),
                        ("run-terms", "rotation undone")):
        dock.set_settings(mode=mode)
        assert words in dock.caption.text()
        assert dock.tabs.currentWidget() is dock.export_widget()
        assert dock.export_arrays()


def _counting_runs(monkeypatch) -> list:
    """Count the forward passes (peapp.model_run.run_model calls) from now on."""
    import peapp.model_run as model_run

    real_run, calls = model_run.run_model, []

    def counted(*args, **kwargs):
        calls.append(1)
        return real_run(*args, **kwargs)

    monkeypatch.setattr(model_run, "run_model", counted)
    return calls


def _click_tile(qtbot, dock, layer_row: int, column: int) -> None:
    """Press and release the left button on the head grid's viewport over a tile."""
    from PySide6.QtCore import QPointF, Qt

    figure = dock.figures["run-grid"]
    scene = dock.grid_plot.getViewBox().mapViewToScene(QPointF(column + 0.5, layer_row + 0.5))
    pos = figure.mapFromScene(scene)
    qtbot.mouseMove(figure.viewport(), pos)
    qtbot.mousePress(figure.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    qtbot.mouseRelease(figure.viewport(), Qt.MouseButton.LeftButton, pos=pos)


def test_a_click_on_a_head_grid_tile_shows_that_head_without_running_again(main_window, qtbot, tiny_llama,
                                                                           monkeypatch):
    """Issue 35, item 2: after one run, a real click on a tile of the head grid (and Layer / Head)
    shows that head's map, equal to a run of its layer, with no new forward pass."""
    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    dock.set_settings(mode="run-grid", sort_grid=True, grid_statistic="sink_first")
    run = dock.result.run
    before = np.asarray(dock.view.map_image.image).copy()
    forwards = _counting_runs(monkeypatch)
    order = np.argsort(-run.sink_first[1], kind="stable")
    _click_tile(qtbot, dock, 1, 0)  # layer 1, first column: the head with the largest share on token 0
    qtbot.waitUntil(lambda: dock.settings()["layer"] == 1, timeout=5_000)
    assert dock.settings()["head"] == int(order[0]) and dock.settings()["mode"] == "run-attention"
    wait_idle(qtbot, main_window, 60_000)
    assert forwards == [] and dock.result.run is run and not dock.progress.isVisible()
    ref = _reference(main_window.document_model.document.checkpoint, TEXT, 1, int(order[0]))
    shown = np.asarray(dock.view.map_image.image)
    assert not np.array_equal(shown, before, equal_nan=True)
    np.testing.assert_allclose(shown, dock.view.weights_shown(ref.attention_map[int(order[0])])[0], atol=1e-5,
                               equal_nan=True)
    assert "thumbnail" not in dock.view.map_plot.titleLabel.text and "browsed without running" in dock.caption.text()
    # Head in its field: also no run
    dock.controls["head"].setValue(3)
    qtbot.waitUntil(lambda: dock.settings()["head"] == 3, timeout=5_000)
    wait_idle(qtbot, main_window, 60_000)
    assert forwards == []
    ref3 = _reference(main_window.document_model.document.checkpoint, TEXT, 1, 3)
    np.testing.assert_allclose(np.asarray(dock.view.map_image.image),
                               dock.view.weights_shown(ref3.attention_map[3])[0], atol=1e-5, equal_nan=True)
    dock.run_button.click()  # Run runs (this layer and head, for the terms tab)
    wait_idle(qtbot, main_window, 60_000)
    assert forwards == [1] and dock.result.layer == 1 and dock.result.head == 3


def test_bert_is_unmasked_and_has_a_position_term(main_window, qtbot, tiny_bert):
    dock = main_window.docks["runDock"]
    _open(main_window, tiny_bert)
    _run(qtbot, main_window, dock)
    run = dock.result.run
    assert not run.causal and np.isfinite(run.attention_map).all()
    assert "masked" not in dock.readout_at(6.5, 1.5)
    dock.set_settings(mode="run-terms")
    assert run.term_kind == "position table" and "position table" in dock.caption.text()
    dock.set_settings(mode="run-rope")
    assert "needs a RoPE model" in dock.caption.text()


def test_a_failed_run_keeps_the_previous_result_and_says_why(main_window, qtbot, tiny_llama, tmp_path):
    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    before = dock.result
    t5 = tmp_path / "t5"
    t5.mkdir()
    (t5 / "config.json").write_text(json.dumps({"model_type": "t5", "is_encoder_decoder": True}))
    _open(main_window, t5)
    wait_idle(qtbot, main_window, 120_000)
    assert dock.result is before
    assert "cannot run this t5 model: encoder-decoder" in dock.message.text()  # one line: why and what to open
    assert "previous result stays" in dock.message.text()


def test_cancel_keeps_the_previous_result(main_window, qtbot, tiny_llama):
    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    before = dock.result
    dock.set_settings(max_tokens=100)  # a new run …
    assert dock.cancel_button.isVisible()
    dock.cancel()  # … stopped: whatever it computed is never shown
    wait_idle(qtbot, main_window, 120_000)
    assert dock.result is before and "cancelled" in dock.message.text()
    assert not dock.progress.isVisible()


def test_texts_from_a_file_and_the_sample_are_recorded_for_sessions(main_window, qtbot, tiny_llama, tmp_path):
    from peapp.model_run.text_run import text_sha256

    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    text_file = tmp_path / "words.txt"
    text_file.write_text(TEXT, encoding="utf-8")
    dock.show()
    dock.use_file(str(text_file))
    dock.run_text()
    wait_idle(qtbot, main_window, 120_000)
    settings = main_window.document_model.document.views["run"]
    assert settings["text_source"] == "file" and settings["text_file"] == str(text_file)
    assert settings["text_sha256"] == text_sha256(TEXT)
    # the session reopens the same run: checkpoint, file and hash
    reopened = Document.from_json(main_window.document_model.document.to_json())
    assert reopened.checkpoint == tiny_llama and reopened.views["run"] == settings
    # a file that changed since is noticed
    text_file.write_text(TEXT + " alice", encoding="utf-8")
    dock.set_settings(max_tokens=100)
    wait_idle(qtbot, main_window, 120_000)
    assert dock.result.text_changed and "SHA-256 differs" in dock.caption.text()
    # the bundled sample: recorded by name
    dock.use_sample()
    dock.set_settings(max_tokens=24)
    dock.run_text()
    wait_idle(qtbot, main_window, 120_000)
    assert main_window.document_model.document.views["run"]["text_source"] == "sample"
    assert dock.result.run.n_tokens == 24 and "Alice's Adventures" in dock.caption.text()


def test_a_non_utf8_file_is_refused_inline(main_window, tmp_path):
    dock = main_window.docks["runDock"]
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9".encode("latin-1"))
    dock.use_file(str(bad))
    assert "not UTF-8" in dock.message.text()


def test_export_records_checkpoint_and_text(main_window, qtbot, tiny_llama, tmp_path):
    from peapp.export_data import document_from_file
    from ui import export

    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    dock.set_settings(mode="run-sinks")
    written = export.export(dock, str(tmp_path / "sinks.png"))
    doc = document_from_file(written[0])
    assert doc.checkpoint == tiny_llama
    assert doc.views["run"]["text"] == TEXT and doc.views["run"]["mode"] == "run-sinks"


def test_zoom_recomputes_the_visible_region_token_by_token(main_window, qtbot, tiny_llama):
    """A 600-token run is pooled (3 tokens per cell); zooming in draws the region at one token
    per cell, equal to an exact run, the hover reads it, and Reset zoom goes back to the pooled map."""
    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    text = " ".join((TEXT.split() * 60)[:600])
    dock.set_settings(max_tokens=600)
    _run(qtbot, main_window, dock, text)
    run = dock.result.run
    assert run.n_tokens == 600 and run.map_bin == (3, 3) and not dock.zoom_image.isVisible()
    dock.zoom_to((300, 360), (250, 330))
    wait_idle(qtbot, main_window, 60_000)
    qtbot.waitUntil(lambda: dock.zoom_image.isVisible(), timeout=20_000)
    loaded = load_model(tiny_llama)
    ids, tokens, _ = tokenize(loaded, text, 600)
    exact = run_model(loaded, ids, RunOptions(layer=0, map_bins=600, thumb_bins=0), tokens=tokens).attention_map[0]
    r0, r1, c0, c1 = dock.controller.zoom.region
    assert dock.controller.zoom.cell == (1, 1) and r0 <= 300 and r1 >= 360 and c0 <= 250 and c1 >= 330
    np.testing.assert_allclose(dock.controller.zoom.values[0], exact[r0:r1, c0:c1], atol=1e-6, equal_nan=True)
    drawn, _ = dock.view.weights_shown(exact[r0:r1, c0:c1])  # log colours (the default) or linear
    np.testing.assert_allclose(np.asarray(dock.zoom_image.image), drawn, atol=1e-5, equal_nan=True)
    q, k = 340, 301
    assert f"query {q:,} '{run.tokens[q]}'" in dock.readout_at(k + 0.5, q + 0.5)
    assert f"{exact[q, k]:.4g}" in dock.readout.text()
    assert "mean per cell" not in dock.map_bar.axis.labelText  # pooled outside, single tokens where zoomed
    assert f"zoomed to queries {r0:,}–{r1 - 1:,}" in dock.caption.text() and "one token per cell" in dock.caption.text()
    dock.set_settings(head=1)  # another head: the same region, redrawn from the same kept q/k
    qtbot.waitUntil(lambda: dock.zoom_image.isVisible(), timeout=10_000)
    exact1 = run_model(loaded, ids, RunOptions(layer=0, map_bins=600, thumb_bins=0), tokens=tokens).attention_map[1]
    np.testing.assert_allclose(dock.controller.zoom.values[1], exact1[r0:r1, c0:c1], atol=1e-6, equal_nan=True)
    np.testing.assert_allclose(np.asarray(dock.zoom_image.image), dock.view.weights_shown(exact1[r0:r1, c0:c1])[0],
                               atol=1e-5, equal_nan=True)
    dock.reset_zoom_button.click()
    assert not dock.zoom_image.isVisible()
    (x0, x1), (y0, y1) = dock.map_plot.getViewBox().viewRange()
    assert (x0, x1, y0, y1) == pytest.approx((0, 600, 0, 600), abs=1)


def test_escape_in_the_window_stops_a_run_and_keeps_the_result(main_window, qtbot, tiny_llama, monkeypatch):
    import time

    import peapp.model_run as model_run
    from PySide6.QtCore import Qt

    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    before = dock.result
    real_run = model_run.run_model

    def slow_run(*args, progress=None, **kwargs):  # a long run: reports progress (where a cancel lands)
        end = time.monotonic() + 60
        while time.monotonic() < end:
            progress(0.1)
            time.sleep(0.01)
        return real_run(*args, progress=progress, **kwargs)

    monkeypatch.setattr(model_run, "run_model", slow_run)
    dock.set_settings(max_tokens=100)
    qtbot.waitUntil(lambda: main_window.cancel_button.isVisible(), timeout=10_000)
    qtbot.keyClick(main_window, Qt.Key.Key_Escape)
    wait_idle(qtbot, main_window, 120_000)
    assert dock.result is before and "cancelled" in dock.message.text()
    assert not dock.progress.isVisible() and not dock.cancel_button.isVisible()


def test_a_long_run_does_not_hold_back_the_other_panels(main_window, qtbot, tiny_llama, monkeypatch):
    """The run computes on the dock's own thread: while it runs, an edit elsewhere is drawn."""
    import threading

    import peapp.model_run as model_run

    dock = main_window.docks["runDock"]
    assert dock.worker is not main_window.worker and dock.worker in main_window.ctx.workers
    _open(main_window, tiny_llama)
    release = threading.Event()
    real_run = model_run.run_model

    def held_run(*args, progress=None, **kwargs):
        while not release.wait(0.01):
            progress(0.2)
        return real_run(*args, progress=progress, **kwargs)

    monkeypatch.setattr(model_run, "run_model", held_run)
    dock.show()
    dock.type_text(TEXT)
    dock.run_text()
    qtbot.waitUntil(lambda: dock.worker.running_channel() == dock.object_name, timeout=20_000)
    heatmap = main_window.docks["heatmapDock"]
    before = heatmap.last_result
    model = main_window.document_model
    assert model.try_set_params(model.document.family, d_model=48)
    qtbot.waitUntil(lambda: heatmap.last_result is not before, timeout=30_000)  # drawn while the run holds
    assert dock.worker.is_busy() and main_window.compute_busy()
    release.set()
    wait_idle(qtbot, main_window, 60_000)
    assert dock.result is not None and not dock.worker.is_busy()


def test_smollm2_sample_from_the_menu_on_the_bundled_text(main_window, qtbot):
    """What a new user does: File > Open Sample (SmolLM2), Run on text, the bundled sample text."""
    from peapp.model_run.sample_text import sample_text
    from peapp.model_run.text_run import display_token

    action = next(a for a in main_window.sample_menu.actions() if "SmolLM2" in a.text())
    action.trigger()
    wait_idle(qtbot, main_window, 120_000)
    assert main_window.document_model.document.checkpoint.endswith(".gguf")
    dock = main_window.docks["runDock"]
    dock.show()
    dock.raise_()
    dock.set_settings(max_tokens=256)
    dock.source_combo.setCurrentIndex(dock.source_combo.findData("sample"))
    dock.run_text()
    wait_idle(qtbot, main_window, 600_000)
    result = dock.result
    assert result is not None, dock.message.text()
    run = result.run
    assert (result.family, run.layers, run.heads, run.n_tokens) == ("llama", 30, 9, 256)
    assert run.scheme == "rope" and run.rope_usage.shape == (30, 9, 32)
    assert 1 < run.perplexity < 40
    ids, tokens, _ = tokenize(load_model(result.checkpoint), sample_text(), 256)  # the cached conversion
    assert run.tokens == tokens and run.token_ids == ids
    assert np.allclose(run.received.sum(-1), 1.0, atol=1e-5)
    arrays = dock.shown_arrays()
    assert arrays["grid_thumbs"].size and arrays["rope_share"].shape[0] == 30
    text = dock.readout_at(1.5, 5.5)  # query 5 → key 1: tokens and a weight
    assert f"query 5 '{display_token(run.tokens[5])}'" in text and "weight" in text


def test_closing_during_a_run_asks_and_no_keeps_it_running(main_window, qtbot, tiny_llama, monkeypatch):
    import threading

    import peapp.model_run as model_run

    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    release = threading.Event()
    real_run = model_run.run_model

    def held_run(*args, progress=None, **kwargs):
        while not release.wait(0.01):
            progress(0.3)
        return real_run(*args, progress=progress, **kwargs)

    monkeypatch.setattr(model_run, "run_model", held_run)
    asked: list[list[str]] = []
    monkeypatch.setattr(main_window, "confirm_close", lambda texts: asked.append(texts) or False)
    dock.show()
    dock.type_text(TEXT)
    dock.run_text()
    qtbot.waitUntil(lambda: dock.worker.running_channel() == dock.object_name, timeout=20_000)
    main_window.close()  # answered No: the window stays and the run goes on
    assert asked and "Run on text is running" in asked[0][0]
    assert main_window.isVisible() and dock.worker.thread_running()
    release.set()
    wait_idle(qtbot, main_window, 60_000)
    assert dock.result is not None and dock.unfinished_work() is None


@pytest.mark.all_docks
def test_every_figure_fits_its_panel_at_a_laptop_width(main_window, qtbot, tiny_llama):
    """A plot title's text sets a figure's minimum width: a long one pushed the head grid (and its
    colour bar) off the right edge at 1600 px.  Each figure's plots must lie inside its widget."""
    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    main_window.resize(1000, 700)
    for mode, figure in dock.figures.items():
        dock.tabs.setCurrentIndex(list(dock.figures).index(mode))
        qtbot.wait(50)
        width = figure.viewport().width()
        right = figure.ci.mapRectToScene(figure.ci.boundingRect()).right()
        assert right <= width + 1, f"{mode}: the figure is {right:.0f} px wide in a {width} px panel"


def test_a_language_switch_redraws_the_held_result_and_never_runs_again(main_window, qtbot, tiny_llama, monkeypatch):
    """A run takes minutes: after a switch the panel retells the result it holds in the new language
    (captions, titles, tabs), and neither starts a new run nor restarts one in flight."""
    import threading

    import peapp.model_run as model_run
    from ui import i18n

    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    before, caption = dock.result, dock.caption.text()
    real_run = model_run.run_model
    calls = []
    release = threading.Event()

    def counted_run(*args, progress=None, **kwargs):
        calls.append(1)
        while not release.wait(0.01):
            progress(0.3)
        return real_run(*args, progress=progress, **kwargs)

    monkeypatch.setattr(model_run, "run_model", counted_run)
    try:
        i18n.set_language("hi")
        wait_idle(qtbot, main_window, 60_000)
        assert dock.result is before and calls == []  # the same result, redrawn: no run
        assert dock.caption.text() != caption and "टोकन्स" in dock.caption.text()
        assert dock.tabs.tabText(0) == "अटेंशन, लेयर × हेड"
        assert "लेयर" in dock.map_plot.titleLabel.text
        # a run in flight goes on through a switch: not restarted, its result arrives once
        dock.set_settings(layer=1, max_tokens=100)
        qtbot.waitUntil(lambda: calls == [1], timeout=20_000)
        generation = dock._generation
        i18n.set_language("en")
        assert dock._generation == generation and dock.progress.isVisible()
        release.set()
        wait_idle(qtbot, main_window, 60_000)
        assert calls == [1] and dock.result is not before and dock.result.layer == 1
        assert "grey cells are masked" in dock.caption.text()
    finally:
        release.set()
        i18n.set_language("en")


def _type_tokens(qtbot, dock, text: str) -> None:
    from PySide6.QtCore import Qt

    spin = dock.controls["max_tokens"]
    spin.setFocus()
    spin.lineEdit().selectAll()
    qtbot.keyClicks(spin, text)
    qtbot.keyClick(spin, Qt.Key.Key_Return)


def test_run_with_a_refused_tokens_value_says_so_and_runs_nothing(main_window, qtbot, tiny_llama, monkeypatch):
    """Issue 35, item 14: Tokens holding a refused value (typed with keys) and a mouse click on Run:
    the panel says why instead of silently running the previous value."""
    from PySide6.QtCore import Qt

    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    _run(qtbot, main_window, dock)
    before = dock.result
    forwards = _counting_runs(monkeypatch)
    _type_tokens(qtbot, dock, "99999")  # past the 8,192 any run takes
    assert "max_tokens" in dock.form.invalid_fields() and dock.settings()["max_tokens"] == 512
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, main_window, 60_000)
    assert forwards == [] and dock.result is before
    assert "Not run: Tokens holds a refused value" in dock.message.text() and dock.message.isVisible()
    _type_tokens(qtbot, dock, "12")  # corrected: Run runs it
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, main_window, 60_000)
    assert forwards and dock.result.run.n_tokens == 12 and not dock.message.isVisible()  # the edit runs, and Run


def test_tokens_past_a_learned_tables_context_are_refused_in_the_field(main_window, qtbot, tiny_bert):
    """Issue 35, item 6: a model with a 64-row learned position table (MiniLM: 512) refuses more
    Tokens in the field, saying it is the model's context (not "Max tokens")."""
    dock = main_window.docks["runDock"]
    _open(main_window, tiny_bert)
    dock.show()
    _type_tokens(qtbot, dock, "100")
    refused = dock.form.invalid_fields().get("max_tokens", "")
    assert "past this model's context" in refused and "64 rows" in refused
    assert dock.settings()["max_tokens"] == 512
    _type_tokens(qtbot, dock, "64")
    assert "max_tokens" not in dock.form.invalid_fields() and dock.settings()["max_tokens"] == 64


def test_the_hover_readout_follows_a_new_text_and_a_zoom_without_a_mouse_move(main_window, qtbot, tiny_llama):
    """Issue 35, item 5: with the pointer resting on the map (a real mouse move), another text and a
    zoom refresh the read-out: it never keeps the previous tokens or a pooled description."""
    from PySide6.QtCore import QPointF

    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    text = " ".join((TEXT.split() * 60)[:600])
    dock.set_settings(max_tokens=600)
    _run(qtbot, main_window, dock, text)
    figure = dock.figures["run-attention"]
    vb = dock.map_plot.getViewBox()
    pos = figure.mapFromScene(vb.mapViewToScene(QPointF(301.5, 340.5)))  # query 340, key 301
    qtbot.mouseMove(figure.viewport(), pos)
    qtbot.waitUntil(lambda: re.search(r"queries 3\d\d–3\d\d .*mean weight", dock.readout.text()) is not None,
                    timeout=5_000)  # pooled: 3 tokens a cell
    dock.zoom_to((300, 360), (250, 330))  # cells of one token: the read-out says so without a move
    qtbot.waitUntil(lambda: dock.view.zoom_image.isVisible(), timeout=30_000)
    pos_now = figure.mapFromScene(vb.mapViewToScene(QPointF(301.5, 340.5)))
    qtbot.waitUntil(lambda: re.search(r"query 3\d\d '", dock.readout.text()) is not None, timeout=5_000)
    assert "mean weight" not in dock.readout.text()
    assert pos_now == figure.mapFromScene(vb.mapViewToScene(QPointF(301.5, 340.5)))
    other = " ".join((["she", "was"] * 400)[:600])  # another text: other tokens under the pointer
    dock.reset_zoom_button.click()
    dock.type_text(other)
    dock.run_text()
    wait_idle(qtbot, main_window, 120_000)
    qtbot.waitUntil(lambda: re.search(r"\('(she|was)' …\) → keys [\d–]+ \('(she|was)' …\)", dock.readout.text())
                    is not None, timeout=5_000)


def _pick(qtbot, combo, value) -> None:
    """Choose ``value`` in ``combo`` as a user does with the keyboard: arrow keys from where it is."""
    from PySide6.QtCore import Qt

    target = combo.findData(value)
    assert target >= 0, value
    combo.setFocus()
    while combo.currentIndex() != target:
        key = Qt.Key.Key_Down if combo.currentIndex() < target else Qt.Key.Key_Up
        before = combo.currentIndex()
        qtbot.keyClick(combo, key)
        assert combo.currentIndex() != before  # the key moved it


def test_precision_bfloat16_picked_in_the_panel_runs_the_model_in_bf16(main_window, qtbot, tiny_llama):
    """Precision = bfloat16 chosen with the keyboard, then Run clicked: the model loads and runs in bf16,
    the run says so in its caption (English and Hindi), the statistics stay within bf16's tolerance of
    float32, and the choice is a setting the Document records."""
    from PySide6.QtCore import Qt

    from ui import i18n

    dock = main_window.docks["runDock"]
    _open(main_window, tiny_llama)
    dock.show()
    dock.raise_()
    wait_idle(qtbot, main_window)
    combo = dock.controls["dtype"]
    assert combo.currentData() == "auto" and dock.settings()["dtype"] == "auto"
    _pick(qtbot, combo, "bfloat16")
    assert main_window.document_model.document.views["run"]["dtype"] == "bfloat16"
    dock.type_text(TEXT)
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.result is not None and not dock.controller.running, timeout=120_000)
    run = dock.result.run
    assert (run.dtype, run.device) == ("bfloat16", "cpu"), dock.message.text()
    assert "on cpu in bfloat16." in dock.caption.text()
    ref = _reference(tiny_llama, TEXT, 0, 0)  # float32
    assert ref.dtype == "float32"
    np.testing.assert_allclose(run.sink_first, ref.sink_first, atol=2e-2)
    np.testing.assert_allclose(run.attention_map[0], ref.attention_map[0], atol=2e-2, equal_nan=True)
    i18n.set_language("hi")
    wait_idle(qtbot, main_window)
    caption = dock.caption.text()
    assert "cpu" in caption and "bfloat16" in caption and "on cpu in" not in caption
    assert i18n.translate("Run", "; run in {seconds} s on {device} in {dtype}.").format(
        seconds=f"{run.seconds:.1f}", device="cpu", dtype="bfloat16") in caption
    # float32 picked again: another forward pass, in float32
    i18n.set_language("en")
    _pick(qtbot, combo, "float32")
    qtbot.waitUntil(lambda: dock.result is not None and dock.result.run.dtype == "float32"
                    and not dock.controller.running, timeout=120_000)
    assert "on cpu in float32." in dock.caption.text()


def test_preferences_precision_is_what_a_new_panels_auto_runs_in(main_window, qtbot, tiny_llama):
    """Edit > Preferences > Precision = bfloat16 (keys and OK clicked): Run on text, whose own Precision is
    auto, runs in bf16; back to float32 in Preferences, the run shown runs again in float32. The
    tooltip says what auto picks on this CPU, as the core decides it."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QDialogButtonBox

    from peapp.model_run import placement
    from ui import settings as preferences

    def set_in_dialog(value: str) -> None:
        dialog = preferences.open_dialog(main_window)
        qtbot.addWidget(dialog)
        _pick(qtbot, dialog.dtype, value)
        tip = dialog.dtype.toolTip()
        assert "checkpoint's own dtype on a GPU" in tip
        assert f"On this CPU: {placement.resolve('auto', 'cpu').dtype} (" in tip
        qtbot.mouseClick(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok),
                         Qt.MouseButton.LeftButton)
        assert main_window.settings.value("compute/dtype") == value

    assert preferences.load_preferences(main_window.settings)[0].compute_dtype == "float32"  # (conftest)
    set_in_dialog("bfloat16")
    dock = main_window.docks["runDock"]  # built now, on first use: its Precision is auto
    _open(main_window, tiny_llama)
    dock.show()
    dock.raise_()
    wait_idle(qtbot, main_window)
    assert dock.settings()["dtype"] == "auto" and dock.controls["dtype"].currentData() == "auto"
    dock.type_text(TEXT)
    qtbot.mouseClick(dock.run_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: dock.result is not None and not dock.controller.running, timeout=120_000)
    assert dock.result.run.dtype == "bfloat16" and "on cpu in bfloat16." in dock.caption.text()
    set_in_dialog("float32")
    qtbot.waitUntil(lambda: dock.result.run.dtype == "float32" and not dock.controller.running, timeout=120_000)
    assert "on cpu in float32." in dock.caption.text()
    # a Precision chosen in the panel is not overridden by Preferences
    dock.set_settings(dtype="bfloat16")
    qtbot.waitUntil(lambda: dock.result.run.dtype == "bfloat16" and not dock.controller.running, timeout=120_000)
    before = dock.result
    set_in_dialog("float16")
    wait_idle(qtbot, main_window)
    assert dock.result is before and not dock.controller.running


def test_sessions_and_the_cli_view_keep_the_precision(main_window, qtbot, tiny_llama, tmp_path, settings):
    """The Precision is a view setting: saved in a session and reopened into the control; a value no model
    runs in is refused naming the choices; `peapp run --view … --dtype bfloat16` records it in the
    figure's session (no longer refused)."""
    import subprocess
    import sys

    from peapp.errors import ParameterError
    from ui.main_window import MainWindow

    dock = main_window.docks["runDock"]
    dock.show()
    _pick(qtbot, dock.controls["dtype"], "float16")
    session = tmp_path / "s.json"
    main_window.document_model.document.save(session)
    assert json.load(open(session))["views"]["run"]["dtype"] == "float16"
    window = MainWindow(Document.load(session), load_backend="now", settings=settings, restore_layout=False)
    qtbot.addWidget(window)
    window.show()
    wait_idle(qtbot, window)
    again = window.docks["runDock"]
    again.show()
    wait_idle(qtbot, window)
    assert again.controls["dtype"].currentData() == "float16" and again.settings()["dtype"] == "float16"
    window.close()
    with pytest.raises(ParameterError, match="bfloat16"):
        Document().with_view("run", dtype="float64")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=root, QT_QPA_PLATFORM="offscreen", OMP_NUM_THREADS="1")
    figure = tmp_path / "sinks.png"
    proc = subprocess.run([sys.executable, "-m", "peapp", "run", tiny_llama, "--view", "run-sinks", "-o", str(figure),
                           "--dtype", "bfloat16", "--max-tokens", "16"], capture_output=True, text=True, timeout=300,
                          cwd=root, env=env)
    assert proc.returncode == 0, proc.stderr
    from peapp.export_data import document_from_file

    assert document_from_file(str(figure)).view_spec("run").dtype == "bfloat16"
