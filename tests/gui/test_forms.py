"""The one form builder (ui/forms.py): controls from spec metadata, throttled edits that keep the
final value, refresh from the Document (undo) without emitting, tooltips from the help text."""

from __future__ import annotations

from PySide6.QtWidgets import QComboBox, QDoubleSpinBox, QLineEdit, QSpinBox, QWidget
from superqt import QLabeledSlider

from peapp.encodings.learned import LearnedSpec
from peapp.encodings.rope import RopeSpec
from peapp.views.extrapolation import ExtrapolationView
from peapp.views.rotation import RotationView
from peapp.views.timeseries import TimeSeriesView
from ui.forms import Form, Spin


_hosts: list[QWidget] = []  # the forms' parents live as long as the test module


def _form(qtbot, spec, **kwargs):
    host = QWidget()
    qtbot.addWidget(host)
    _hosts.append(host)
    edits: list[tuple[str, object]] = []
    form = Form(spec, lambda name, value: edits.append((name, value)), parent=host, **kwargs)
    return form, edits


def test_controls_follow_the_metadata(qtbot):
    form, _ = _form(qtbot, RopeSpec)
    assert isinstance(form.widgets["n_positions"], QSpinBox)  # 1 … 2^20: typed, not dragged
    assert isinstance(form.widgets["head_dim"], QLabeledSlider)
    assert isinstance(form.widgets["base"], QDoubleSpinBox)  # log-scaled
    layout = form.widgets["layout"]
    assert isinstance(layout, QComboBox) and [layout.itemData(i) for i in range(layout.count())] == ["half", "interleaved"]
    info = {i.name: i for i in RopeSpec.param_infos()}["head_dim"]
    assert form.widgets["head_dim"].toolTip().startswith(info.help) and f"Range 2 … {info.maximum:g}" in form.widgets["head_dim"].toolTip()
    assert form.labels["head_dim"].text() == info.label and form.labels["head_dim"].toolTip() == form.widgets["head_dim"].toolTip()
    assert form.widgets["head_dim"].objectName() == "head_dim"


def test_choice_labels_and_numeric_choices(qtbot):
    form, edits = _form(qtbot, RotationView, names=("speed",), object_names={"speed": "rotationSpeed"})
    combo = form.widgets["speed"]
    assert combo.objectName() == "rotationSpeed"
    assert combo.itemText(3) == "16 pos/frame" and combo.itemData(3) == 16
    combo.setCurrentIndex(3)
    assert edits == [("speed", 16)]
    timeseries, _ = _form(qtbot, TimeSeriesView, names=("number_unit",))
    assert timeseries.widgets["number_unit"].itemText(5) == "Unix milliseconds"


def test_a_readonly_text_field_is_shown_not_typed(qtbot):
    form, edits = _form(qtbot, LearnedSpec, names=("source",))
    field = form.widgets["source"]
    assert isinstance(field, QLineEdit) and field.isReadOnly()
    form.sync({"source": "/m/model.safetensors::wpe.weight"})
    assert field.text() == "/m/model.safetensors::wpe.weight" and edits == []


def test_a_drag_is_throttled_and_the_final_value_is_never_lost(qtbot):
    form, edits = _form(qtbot, RotationView, names=("m",))
    spin = form.widgets["m"]
    for value in range(1, 301):  # a fast drag: 300 values within a few milliseconds
        spin.setValue(value)
    qtbot.waitUntil(lambda: edits and edits[-1] == ("m", 300), timeout=2000)
    qtbot.wait(100)  # nothing more arrives after the final value
    assert edits[0] == ("m", 1)  # leading edge: the first value at once
    assert edits[-1] == ("m", 300)
    assert len(edits) < 30, f"{len(edits)} edits for one drag"


def test_sync_shows_values_without_emitting(qtbot):
    form, edits = _form(qtbot, ExtrapolationView, hints={"factor": Spin(decimals=2, special="auto")})
    changed: list[int] = []
    form.widgets["train_len"].valueChanged.connect(changed.append)
    form.sync(ExtrapolationView(train_len=4096, factor=0.0, rope_base=500000.0))
    qtbot.wait(80)
    assert form.widgets["train_len"].value() == 4096 and form.widgets["rope_base"].value() == 500000.0
    assert form.widgets["factor"].text() == "auto"  # the special text at the minimum
    assert edits == [] and changed == []  # showing a value is not an edit
    assert not form.widgets["train_len"].signalsBlocked()  # unblocked again afterwards


def test_parameters_panel_undo_refreshes_its_widgets(qtbot, main_window):
    from tests.conftest import wait_idle

    model = main_window.document_model
    slider = main_window.docks["parametersDock"].forms["rope"].widgets["head_dim"]
    model.try_set_family("rope")
    before = model.document.spec("rope").head_dim
    slider.setValue(64)
    qtbot.waitUntil(lambda: model.document.spec("rope").head_dim == 64, timeout=2000)
    model.undo_stack.undo()
    assert model.document.spec("rope").head_dim == before
    assert slider.value() == before  # the widget shows the Document again
    model.undo_stack.redo()
    assert slider.value() == 64
    wait_idle(qtbot, main_window)


def test_an_invalid_view_edit_is_refused_and_said(qtbot, app_context):
    model = app_context.document_model
    errors: list[str] = []
    model.error.connect(errors.append)
    assert not model.set_view("rotation", speed=3)
    assert model.document.views == {} and "Speed (speed) must be one of 1, 2, 4" in errors[-1]
    assert model.set_view("rotation", speed=4) and model.document.view("rotation", "speed") == 4
