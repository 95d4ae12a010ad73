"""The checkpoint dock and File-menu actions, end to end in the main window."""

from __future__ import annotations

import json

import numpy as np
import pytest
import torch
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from safetensors.torch import save_file

from tests.conftest import wait_idle
from ui import checkpoint_actions


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    """A GPT-2-like and a RoBERTa-like safetensors folder, a Llama config, and a broken file."""
    root = tmp_path_factory.mktemp("gui_ckpts")
    g = torch.Generator().manual_seed(0)
    gpt2 = root / "gpt2"
    gpt2.mkdir()
    wpe = torch.cumsum(torch.randn(40, 12, generator=g), 0)  # smooth, like a trained table
    save_file({"transformer.wpe.weight": wpe, "transformer.wte.weight": torch.zeros(30, 12),
               "transformer.h.0.attn.c_attn.weight": torch.zeros(12, 36)}, gpt2 / "model.safetensors")
    (gpt2 / "config.json").write_text(json.dumps({"model_type": "gpt2", "architectures": ["GPT2LMHeadModel"],
                                                  "n_positions": 40, "n_embd": 12, "n_head": 2}))
    roberta = root / "roberta"
    roberta.mkdir()
    save_file({"roberta.embeddings.position_embeddings.weight": torch.randn(22, 8, generator=g)},
              roberta / "model.safetensors")
    (roberta / "config.json").write_text(json.dumps({"model_type": "roberta", "pad_token_id": 1,
                                                     "max_position_embeddings": 22}))
    llama = root / "llama" / "config.json"
    llama.parent.mkdir()
    llama.write_text(json.dumps({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4,
                                 "rope_theta": 500000.0, "max_position_embeddings": 4096}))
    bad = root / "bad.safetensors"
    bad.write_bytes(b"\xff" * 8 + b"{}")
    return {"gpt2": gpt2, "wpe": wpe, "roberta": roberta, "llama": llama, "bad": bad}


def _open(qtbot, window, path):
    dock = window.docks["checkpointDock"]
    checkpoint_actions.open_path(window, str(path))
    qtbot.waitUntil(lambda: not window.worker.is_busy() and dock.opening is None, timeout=20_000)
    wait_idle(qtbot, window)
    return dock


def test_open_shows_table_in_heatmap_and_analysis(main_window, qtbot, models):
    dock = _open(qtbot, main_window, models["gpt2"])
    assert dock.objectName() == "checkpointDock"
    doc = main_window.document_model.document
    assert doc.checkpoint == str(models["gpt2"]) and doc.family == "learned"
    assert dock.components.count() == 1 and "learned_absolute" in dock.components.item(0).text()
    heat = main_window.docks["heatmapDock"]
    np.testing.assert_allclose(heat.image.image, models["wpe"].numpy(), rtol=0, atol=0)
    assert "Trained learned table" in heat.caption.text()
    assert dock.tabs.isVisible() and dock.analysis is not None
    assert dock.pca_points.data.shape[0] == 40
    np.testing.assert_allclose(dock.norm_curve.yData, np.linalg.norm(models["wpe"].numpy(), axis=1), rtol=1e-5)
    assert set(dock.export_arrays()) >= {"table", "pca", "norms", "mean_spectrum"}
    assert str(models["gpt2"]) in checkpoint_actions.recent_paths(main_window)
    assert any(a.data() == str(models["gpt2"]) for a in main_window.recent_menu.actions())
    # the similarity view of the same table works too
    main_window.document_model.set_view("heatmap", mode="similarity")
    wait_idle(qtbot, main_window)
    assert heat.image.image.shape == (40, 40)


def test_offset_and_search(main_window, qtbot, models):
    dock = _open(qtbot, main_window, models["roberta"])
    spec = main_window.document_model.document.spec("learned")
    assert (spec.offset, spec.max_positions, spec.d_model) == (2, 20, 8)
    assert main_window.docks["heatmapDock"].image.image.shape == (20, 8)
    dock = _open(qtbot, main_window, models["gpt2"])
    assert len(dock.visible_tensors()) == 3
    dock.search.setText("wpe")
    qtbot.waitUntil(lambda: dock.visible_tensors() == ["transformer.wpe.weight"], timeout=5000)
    dock.search.setText("")
    qtbot.waitUntil(lambda: len(dock.visible_tensors()) == 3, timeout=5000)


def test_rope_config_fills_the_rope_family(main_window, qtbot, models):
    dock = _open(qtbot, main_window, models["llama"])
    doc = main_window.document_model.document
    assert doc.family == "rope"
    spec = doc.spec("rope")
    assert (spec.base, spec.head_dim, spec.layout) == (500000.0, 64, "half")
    assert not dock.tabs.isVisible()


def test_bad_file_keeps_the_last_good_state(main_window, qtbot, models):
    dock = _open(qtbot, main_window, models["gpt2"])
    before = main_window.document_model.document
    _open(qtbot, main_window, models["bad"])
    assert main_window.document_model.document == before
    assert dock.report.checkpoint.path == str(models["gpt2"])
    assert "Could not open" in dock.caption.text() and "claims" in dock.caption.text()
    assert "claims" in main_window.statusBar().currentMessage()


def test_undo_open_and_drop(main_window, qtbot, models):
    dock = _open(qtbot, main_window, models["gpt2"])
    stack = main_window.document_model.undo_stack
    while stack.canUndo():
        stack.undo()
    wait_idle(qtbot, main_window)
    assert main_window.document_model.document.checkpoint is None and dock.report is None
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(models["roberta"]))])
    event = QDropEvent(QPointF(20, 20), Qt.DropAction.CopyAction, mime, Qt.MouseButton.NoButton,
                       Qt.KeyboardModifier.NoModifier)
    checkpoint_actions._DropFilter(main_window).eventFilter(main_window, event)
    qtbot.waitUntil(lambda: dock.report is not None, timeout=20_000)
    wait_idle(qtbot, main_window)
    assert dock.report.checkpoint.path == str(models["roberta"])


def test_menu_actions_and_samples(main_window):
    from peapp.checkpoints.samples import available_samples

    texts = [a.text() for a in main_window.file_menu.actions()]
    assert "&Open Checkpoint…" in texts and "Open Model &Folder…" in texts
    sample_paths = [a.data() for a in main_window.sample_menu.actions() if a.data()]
    assert sample_paths == [p for _, p in available_samples()]


def test_open_before_the_backend_is_ready(qtbot, settings, models):
    """python main.py PATH: the path is opened once the docks exist."""
    from ui.main_window import MainWindow

    window = MainWindow(settings=settings)  # backend loads on the worker
    qtbot.addWidget(window)
    window.show()
    checkpoint_actions.open_path(window, str(models["gpt2"]))
    qtbot.waitUntil(lambda: "checkpointDock" in window.docks and window.docks["checkpointDock"].report is not None,
                    timeout=60_000)
    wait_idle(qtbot, window)
    assert window.document_model.document.checkpoint == str(models["gpt2"])
    window.close()
    assert not window.worker.thread_running()


def _config_folder(root, name, config, tensors=None):
    folder = root / name
    folder.mkdir()
    (folder / "config.json").write_text(json.dumps(config))
    if tensors:
        save_file(tensors, folder / "model.safetensors")
    return folder


@pytest.fixture(scope="module")
def computed(tmp_path_factory):
    root = tmp_path_factory.mktemp("gui_computed")
    t5_bias = "encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"
    return {
        "bloom": _config_folder(root, "bloom", {"model_type": "bloom", "n_head": 8}),
        "t5": _config_folder(root, "t5", {"model_type": "t5", "num_heads": 4, "relative_attention_num_buckets": 16,
                                          "relative_attention_max_distance": 64}, {t5_bias: torch.zeros(16, 4)}),
        "marian": _config_folder(root, "marian", {"model_type": "marian", "d_model": 16,
                                                  "max_position_embeddings": 64}),
        "smollm3": _config_folder(root, "smollm3", {"model_type": "smollm3", "hidden_size": 64,
                                                    "num_attention_heads": 2, "no_rope_layers": [1, 1, 1, 0],
                                                    "rope_parameters": {"rope_theta": 2e6, "rope_type": "default"}}),
        "shaw": _config_folder(root, "shaw", {"model_type": "bert", "position_embedding_type": "relative_key"},
                               {"encoder.layer.0.attention.self.distance_embedding.weight": torch.zeros(41, 4)}),
    }


@pytest.mark.parametrize("name, row, family, values", [
    ("bloom", 0, "alibi", {"n_heads": 8}),
    ("t5", 0, "t5", {"num_buckets": 16, "max_distance": 64, "n_heads": 4, "bidirectional": True}),
    ("marian", 0, "sinusoidal", {"d_model": 16, "layout": "concatenated"}),
    ("smollm3", 0, "rope", {"base": 2e6, "head_dim": 32}),
    ("smollm3", 1, "nope", {}),
    ("shaw", 0, "shaw", {"max_distance": 20}),
])
def test_choosing_a_component_sets_its_family(main_window, qtbot, computed, name, row, family, values):
    dock = _open(qtbot, main_window, computed[name])
    dock.components.setCurrentRow(row)
    wait_idle(qtbot, main_window)
    doc = main_window.document_model.document
    assert doc.family == family
    spec = doc.spec(family).to_dict()
    assert {k: spec[k] for k in values} == values


def test_components_become_references_in_the_document(main_window, qtbot, computed, tmp_path):
    """Choosing a component is one Document edit: the family, and table references for the patch
    grid and the attention inspector, which read the tables themselves (no panel calls another)."""
    vit = _config_folder(tmp_path, "vit", {"model_type": "vit", "image_size": 32, "patch_size": 8},
                         {"embeddings.position_embeddings": torch.arange(17 * 4, dtype=torch.float32).reshape(1, 17, 4),
                          "embeddings.cls_token": torch.zeros(1, 1, 4)})
    _open(qtbot, main_window, vit)
    doc = main_window.document_model.document
    view = doc.views["patch_grid"]
    assert view["encoding"] == "table" and view["table_source"] == f"{vit}::embeddings.position_embeddings"
    assert (view["prefix_tokens"], view["image_height"], view["image_width"]) == (1, 4 * 16, 4 * 16)
    assert doc.family == "learned" and doc.spec("learned").offset == 1
    stack = main_window.document_model.undo_stack
    assert stack.undoText() == "Show checkpoint vision_learned_2d"  # one step: family and references
    _open(qtbot, main_window, computed["t5"])
    t5_table = f"{computed['t5']}::encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight"
    from peapp.views.attention import attention_settings

    view = attention_settings(main_window.document_model.document).to_dict()  # heads and mask: the family's
    assert {k: view[k] for k in ("scheme", "n_heads", "causal", "t5_source")} == \
        {"scheme": "t5", "n_heads": 4, "causal": False, "t5_source": t5_table}
    _open(qtbot, main_window, computed["bloom"])
    view = attention_settings(main_window.document_model.document).to_dict()
    assert (view["scheme"], view["n_heads"]) == ("alibi", 8)


@pytest.mark.all_docks
def test_a_session_restores_the_referenced_tables_in_a_fresh_window(main_window, qtbot, settings, computed,
                                                                    tmp_path):
    """Save a session after choosing a ViT table (patch grid) and a T5 table (attention), reopen it
    in a new window: the same arrays in both panels."""
    from ui.main_window import MainWindow

    table = torch.randn(1, 1 + 16, 8, generator=torch.Generator().manual_seed(4))
    vit = _config_folder(tmp_path, "vit_session", {"model_type": "vit", "image_size": 32, "patch_size": 8},
                         {"vit.embeddings.position_embeddings": table, "vit.embeddings.cls_token": torch.zeros(1, 1, 8)})
    t5 = tmp_path / "t5_session"
    t5.mkdir()
    bias = torch.randn(16, 4, generator=torch.Generator().manual_seed(6))
    save_file({"encoder.block.0.layer.0.SelfAttention.relative_attention_bias.weight": bias},
              str(t5 / "model.safetensors"))
    (t5 / "config.json").write_text(json.dumps({"model_type": "t5", "num_heads": 4,
                                                "relative_attention_num_buckets": 16,
                                                "relative_attention_max_distance": 64}))
    main_window.document_model.set_view("attention", seq_len=40, head_dim=16)
    _open(qtbot, main_window, vit)
    _open(qtbot, main_window, t5)
    wait_idle(qtbot, main_window)
    patch, attention = main_window.docks["patchGridDock"], main_window.docks["attentionDock"]
    before = {"patch": patch.export_arrays(), "attention": attention.export_arrays()}
    assert before["patch"] and before["attention"]
    np.testing.assert_allclose(attention.last_result.t5_table, bias.numpy())
    path = tmp_path / "session.json"
    main_window.document_model.document.save(path)

    fresh = MainWindow(load_backend="now", settings=settings)
    qtbot.addWidget(fresh)
    try:
        fresh.show()
        qtbot.waitExposed(fresh)
        wait_idle(qtbot, fresh)
        fresh.export_actions.open_session(str(path))
        wait_idle(qtbot, fresh)
        assert fresh.document_model.document.checkpoint is not None
        qtbot.waitUntil(lambda: fresh.docks["checkpointDock"].report is not None, timeout=20_000)
        wait_idle(qtbot, fresh)
        after = {"patch": fresh.docks["patchGridDock"].export_arrays(),
                 "attention": fresh.docks["attentionDock"].export_arrays()}
        for panel, arrays in before.items():
            assert set(after[panel]) == set(arrays), panel
            for name, values in arrays.items():
                np.testing.assert_array_equal(after[panel][name], values, err_msg=f"{panel}: {name}")
        assert "vit.embeddings.position_embeddings" in fresh.docks["patchGridDock"].caption.text()
        assert "trained bias table" in fresh.docks["attentionDock"].caption.text()
    finally:
        fresh.close()
    assert not fresh.worker.thread_running()


def test_relative_components_show_by_distance(main_window, qtbot, computed):
    dock = _open(qtbot, main_window, computed["t5"])  # the T5 table is chosen first
    qtbot.waitUntil(lambda: dock.distance is not None, timeout=10_000)
    assert dock.tabs.isVisible() and dock.tabs.currentWidget() is dock.distance_plot
    assert len(dock.distance_curves) == 4  # one per head
    assert set(dock.export_arrays()) == {"distance", "values"}
    dock.distance = None
    _open(qtbot, main_window, computed["bloom"])
    qtbot.waitUntil(lambda: dock.distance is not None, timeout=10_000)
    assert len(dock.distance_curves) == 8 and dock.distance.curves[0][-1] == 0


@pytest.mark.all_docks
def test_session_restore_keeps_the_documents_choice(main_window, qtbot, models, computed):
    """Reopening from a session (or undo) selects what the Document shows; it never switches family."""
    from peapp.document import Document

    source = f"{models['roberta']}::roberta.embeddings.position_embeddings.weight"
    session = Document().with_checkpoint(str(models["roberta"])).with_params(
        "learned", source=source, offset=2, max_positions=20, d_model=8, n_positions=20).with_family("learned")
    main_window.document_model.replace_without_undo(session)
    dock = main_window.docks["checkpointDock"]
    qtbot.waitUntil(lambda: dock.report is not None and dock.analysis is not None, timeout=20_000)
    wait_idle(qtbot, main_window)
    assert main_window.document_model.document == session
    assert dock.components.currentRow() == 0 and dock.analysis.table.shape == (20, 8)
    # a session showing sinusoids next to a checkpoint stays on sinusoids
    session = Document().with_checkpoint(str(computed["t5"]))
    main_window.document_model.replace_without_undo(session)
    qtbot.waitUntil(lambda: dock.report is not None and dock.report.checkpoint.path == str(computed["t5"]),
                    timeout=20_000)
    wait_idle(qtbot, main_window)
    assert main_window.document_model.document == session


def test_export_after_opening(main_window, qtbot, models, tmp_path):
    from PySide6.QtGui import QImage

    from ui import export

    dock = main_window.docks["checkpointDock"]
    assert not export.is_exportable(dock)  # nothing to draw yet
    source = f"{models['gpt2']}::transformer.wpe.weight"
    main_window.document_model.replace_without_undo(  # a session that shows the table
        main_window.document_model.document.with_checkpoint(str(models["gpt2"])).with_params(
            "learned", source=source, max_positions=40, d_model=12, n_positions=40).with_family("learned"))
    dock.compute_now()  # what `peapp render` and File > Export do: synchronous, no event loop
    assert dock.analysis is not None and export.is_exportable(dock)
    png, svg = tmp_path / "ckpt.png", tmp_path / "ckpt.svg"
    export.export_figure(dock, png, export.FigureOptions(scale=1, size=(500, 400)))
    export.export_figure(dock, svg)
    assert QImage(str(png)).width() == 500
    assert "PC1" in svg.read_text()
    np.testing.assert_allclose(dock.export_arrays()["table"], models["wpe"].numpy())
    wait_idle(qtbot, main_window)


@pytest.mark.all_docks
def test_vision_table_reaches_the_real_patch_grid(main_window, qtbot, tmp_path):
    patch = main_window.docks["patchGridDock"]
    table = torch.randn(1, 1 + 16, 8, generator=torch.Generator().manual_seed(3))
    vit = _config_folder(tmp_path, "vit_real", {"model_type": "vit", "image_size": 32, "patch_size": 8},
                         {"vit.embeddings.position_embeddings": table, "vit.embeddings.cls_token": torch.zeros(1, 1, 8)})
    _open(qtbot, main_window, vit)
    qtbot.waitUntil(lambda: patch.last_result is not None and patch.last_result.table is not None, timeout=20_000)
    wait_idle(qtbot, main_window)
    given = patch.last_result.table
    assert (given.grid, given.num_prefix_tokens) == ((4, 4), 1)
    np.testing.assert_array_equal(given.values, table[0].numpy())
    # what the panel draws is the cosine of the table's grid rows, the CLS row left out
    grid_rows = torch.nn.functional.normalize(table[0, 1:], dim=1)
    np.testing.assert_allclose(patch.export_arrays()["similarity_a"], (grid_rows @ grid_rows.T).numpy(), atol=1e-6)


def test_strip_appears_when_a_checkpoint_opens(main_window, qtbot, models):
    dock = main_window.docks["checkpointDock"]
    assert dock.isHidden()  # the first view is the encoding itself
    _open(qtbot, main_window, models["gpt2"])
    assert dock.isVisible()


def test_t5_and_alibi_reach_the_real_attention_inspector(main_window, qtbot, computed):
    attention = main_window.docks["attentionDock"]
    _open(qtbot, main_window, computed["t5"])
    settings = attention.settings()
    assert (settings["scheme"], settings["n_heads"], settings["causal"]) == ("t5", 4, False)
    assert main_window.document_model.document.spec("t5").num_buckets == 16
    _open(qtbot, main_window, computed["bloom"])
    settings = attention.settings()
    assert (settings["scheme"], settings["n_heads"]) == ("alibi", 8)


def test_a_failed_analysis_is_said_not_left_at_analysing(main_window, qtbot, models):
    """A secondary request that fails (here: a tensor the file does not have) ends in a message."""
    from peapp.analysis.position_table import TableAnalysisRequest

    dock = _open(qtbot, main_window, models["gpt2"])
    messages: list[str] = []
    main_window.statusBar().messageChanged.connect(lambda text: text and messages.append(text))
    dock.readout.setText("Analysing transformer.no_such_table …")
    dock.submit_side("analysis", TableAnalysisRequest(f"{models['gpt2']}::transformer.no_such_table", 0))
    qtbot.waitUntil(lambda: dock.readout.text().startswith("Could not"), timeout=20_000)
    assert "no_such_table" in dock.readout.text()
    assert any(m.startswith("Checkpoint: ") and "no_such_table" in m for m in messages), messages
    assert "analysis" not in dock.pending_views  # compute_now will not run it again


def test_a_file_that_fails_to_open_is_not_recent(main_window, qtbot, models):
    _open(qtbot, main_window, models["bad"])
    assert str(models["bad"]) not in checkpoint_actions.recent_paths(main_window)
    assert not any(a.data() == str(models["bad"]) for a in main_window.recent_menu.actions())
    _open(qtbot, main_window, models["gpt2"])  # a good one after it still is
    assert checkpoint_actions.recent_paths(main_window)[0] == str(models["gpt2"])


def test_the_metadata_block_shows_what_the_file_says(main_window, qtbot, models):
    dock = _open(qtbot, main_window, models["gpt2"])
    facts = dock.fact_texts()
    assert (facts["heads"], facts["head_dim"], facts["hidden_size"], facts["context_length"]) == ("2", "6", "12", "40")
    assert facts["vocab_size"] == "30" and facts["dtype"] == "F32"  # rows of wte; the tensors' dtype
    assert facts["parameters"].startswith(f"{40 * 12 + 30 * 12 + 12 * 36:,} ")
    assert facts["layers"] == "—"  # the config gives no n_layer: said, not guessed
    assert dock.fact_values["context_length"].toolTip() == "from config.json n_positions"


def test_smollm2_sets_the_spectrum_and_extrapolation_panels(main_window, qtbot):
    from tests import samples

    dock = _open(qtbot, main_window, samples.smollm2())
    facts = dock.fact_texts()
    assert [facts[k] for k in ("layers", "heads", "kv_heads", "head_dim", "hidden_size", "context_length",
                               "vocab_size")] == ["30", "9", "3", "64", "576", "8,192", "49,152"]
    assert facts["dtype"] == "Q4_1 (GGUF file type 3)"
    doc = main_window.document_model.document
    rope = doc.spec("rope")
    assert (doc.family, rope.original_max_position_embeddings, rope.max_position_embeddings) == ("rope", 8192, 0)
    spectrum = main_window.docks["spectrumDock"]
    spectrum.compute_now()
    assert spectrum.original_line.label.format == "original context 8,192"
    assert not spectrum.extended_line.isVisible()
    extrapolation = main_window.docks["extrapolationDock"]
    view = doc.view_spec("extrapolation")
    assert (view.train_len, view.eval_len, view.head_dim, view.rope_base) == (8192, 32768, 64, 100000.0)
    wait_idle(qtbot, main_window)
    assert (extrapolation.train_spin.value(), extrapolation.head_spin.value(), extrapolation.base_spin.value()) \
        == (8192, 64, 100000.0)
