"""Every panel's view spec: defaults, ranges, choices and unknown keys are checked by the Document,
without Qt; sessions round-trip and older files (dock objectNames as keys) still open."""

from __future__ import annotations

import json

import pytest

from peapp import views
from peapp.document import Document
from peapp.errors import DocumentError, ParameterError
from peapp.views import Viewport
from peapp.views.heatmap import FULL_ROWS, MAX_PIXEL_ROWS, MIN_PIXEL_ROWS, table_request

BUILT_IN = ("heatmap", "spectrum", "rotation", "example", "extrapolation", "timeseries")
SPECS = [views.get(view_id) for view_id in BUILT_IN]


def test_every_built_in_panel_has_a_registered_spec():
    assert set(BUILT_IN) <= set(views.registry())
    for view_id in BUILT_IN:
        assert views.get(view_id).view_id == view_id


@pytest.mark.parametrize("spec", SPECS, ids=BUILT_IN)
def test_defaults_obey_their_own_metadata(spec):
    defaults = spec()  # would raise if a default broke its range or choices
    for info in spec.param_infos():
        value = getattr(defaults, info.name)
        assert isinstance(value, info.kind), info.name
        if info.minimum is not None:
            assert value >= info.minimum, info.name
        if info.maximum is not None:
            assert value <= info.maximum, info.name
        if info.choices:
            assert value in info.choices and len(info.choice_labels) in (0, len(info.choices)), info.name
        assert info.help, f"{spec.view_id}.{info.name} has no help text (its tooltip)"


def _bad_values(info):
    """Values of the wrong type, out of range, or not a choice, for one field."""
    if info.kind is bool:
        return ["yes", 1]
    if info.kind is str:
        return [5, None] + (["not-a-choice"] if info.choices else [])
    bad = ["many", None, True]
    if info.minimum is not None:
        bad.append(info.minimum - 1)
    if info.maximum is not None:
        bad.append(info.maximum + 1)
    if info.choices:
        bad.append(max(info.choices) + 1)
    if info.kind is int:
        bad.append(1.5)
    return bad


CASES = [(spec, info, bad) for spec in SPECS for info in spec.param_infos() for bad in _bad_values(info)]


@pytest.mark.parametrize("spec, info, bad", CASES,
                         ids=[f"{s.view_id}.{i.name}={b!r}" for s, i, b in CASES])
def test_a_bad_value_is_refused_naming_the_setting_and_the_document_is_unchanged(spec, info, bad):
    doc = Document()
    with pytest.raises(ParameterError, match=f"\\({info.name}\\)|^{spec.title}: {info.name}") as caught:
        doc.with_view(spec.view_id, **{info.name: bad})
    assert spec.title in str(caught.value)
    assert doc == Document() and doc.views == {}


@pytest.mark.parametrize("spec", SPECS, ids=BUILT_IN)
def test_an_unknown_setting_is_refused_listing_the_allowed_ones(spec):
    with pytest.raises(ParameterError, match="unknown setting.*speeed") as caught:
        Document().with_view(spec.view_id, speeed=3)
    for name in spec.setting_names():
        assert name in str(caught.value)


def test_valid_values_are_stored_coerced_and_only_the_ones_set():
    doc = Document().with_view("extrapolation", train_len=4096.0, factor=2)
    assert doc.views == {"extrapolation": {"train_len": 4096, "factor": 2.0}}
    assert type(doc.views["extrapolation"]["train_len"]) is int
    assert doc.view("extrapolation", "eval_len") == 8192  # the spec's default
    assert doc.view_spec("extrapolation").eval_len == 8192
    assert doc.view_spec("rotation").speed == 1
    # an edit is checked with the settings already there: the merged whole must be valid
    with pytest.raises(ParameterError, match="speed"):
        Document().with_view("rotation", pair=3).with_view("rotation", speed=5)


def test_an_unknown_view_is_refused_naming_the_known_ones():
    """Every panel has a spec, so a view id nobody registered is a typo or a hostile file."""
    with pytest.raises(ParameterError, match="unknown view 'somePluginDock'; known: attention, checkpoint"):
        Document().with_view("somePluginDock", anything=[1, 2])
    with pytest.raises(DocumentError, match="unknown view 'bogus'"):
        Document.from_json('{"app": "peapp", "version": 2, "views": {"bogus": {}}}')
    with pytest.raises(ParameterError, match="no view spec"):
        Document().view_spec("somePluginDock")


def test_a_huge_number_is_refused_as_out_of_range_not_an_overflow():
    with pytest.raises(DocumentError, match="must be at most 131,072; got a 401-digit number"):
        Document.from_dict({"app": "peapp", "version": 2, "views": {"attention": {"seq_len": 10**400}}})
    with pytest.raises(ParameterError, match="must be a number"):
        Document().with_params("rope", base=10**400)


def test_session_round_trip_of_every_panel():
    doc = (Document().with_view("heatmap", mode="similarity", similarity="dot")
           .with_view("rotation", pair=7, speed=16, m=9, n=4, position=300)
           .with_view("example", word="Token", source="hashed", d_model=8, scheme="rope", pair=2)
           .with_view("extrapolation", train_len=4096, eval_len=32768, factor=8.0, rope_base=500000.0)
           .with_view("timeseries", kind="time2vec", k=8, seed=3, number_unit="unix_ms", value_column=""))
    again = Document.from_json(doc.to_json())
    assert again == doc
    assert again.view_spec("rotation").speed == 16
    assert json.loads(doc.to_json())["version"] == 2


def test_a_format_1_session_keyed_by_dock_names_opens_under_the_view_ids():
    old = {"app": "peapp", "version": 1, "views": {
        "heatmapDock": {"mode": "similarity"}, "rotationDock": {"pair": 3, "speed": 4},
        "exampleDock": {"word": "Token", "source": "hashed"}, "attentionDock": {"scheme": "alibi"}}}
    doc = Document.from_dict(old)
    assert doc.view_spec("heatmap").mode == "similarity"
    assert doc.view_spec("rotation").pair == 3 and doc.view_spec("example").word == "Token"
    assert doc.views["attention"] == {"scheme": "alibi"} and "attentionDock" not in doc.views
    assert "heatmapDock" not in doc.views


@pytest.mark.parametrize("views_json, message", [
    ('{"heatmap": {"mode": "sideways"}}', "Encoding heatmap: Show \\(mode\\) must be one of encoding, similarity"),
    ('{"rotationDock": {"m": -1}}', "RoPE rotations: q at m \\(m\\) must be at least 0"),
    ('{"extrapolation": {"colour": "red"}}', "Length extrapolation: unknown setting\\(s\\) colour; allowed: train_len"),
    ('{"spectrum": {"factor": 2}}', "RoPE spectrum: unknown setting\\(s\\) factor; allowed: none \\(this view has no settings of its own\\)"),
    ('{"timeseries": {"d_model": "wide"}}', "Time series: d_model must be a whole number"),
])
def test_a_session_with_a_bad_view_setting_is_a_document_error(views_json, message):
    with pytest.raises(DocumentError, match="invalid view setting: " + message):
        Document.from_json('{"app": "peapp", "version": 2, "views": ' + views_json + '}')


def test_the_heatmap_request_takes_its_viewport_as_an_argument():
    small = Document().with_params("sinusoidal", n_positions=100)
    assert table_request(small, Viewport(800, 300)).max_rows == 100  # whole: every row drawn
    big = Document().with_params("sinusoidal", n_positions=100_000)
    assert table_request(big, Viewport(800, 700)).max_rows == 700
    assert table_request(big, Viewport()).max_rows == MIN_PIXEL_ROWS  # unknown size: the smallest
    assert table_request(big, Viewport(800, 10_000)).max_rows == MAX_PIXEL_ROWS
    assert FULL_ROWS < 100_000
    similarity = big.with_view("heatmap", mode="similarity", similarity="dot")
    request = table_request(similarity, Viewport(800, 700), selected_row=5)
    assert (request.mode, request.similarity, request.selected_row) == ("similarity", "dot", None)
    assert table_request(big, Viewport(800, 700), selected_row=5).selected_row == 5


def test_the_article_docks_build_their_requests_from_the_spec():
    from peapp.analysis import worked_example as we

    request = Document().view_spec("example").request()
    assert (request.word, request.d_model, request.position) == (we.ARTICLE_WORD, 4, we.ARTICLE_POSITION)
    assert Document().view_spec("extrapolation").request().factor is None  # 0 = auto
    assert Document().with_view("timeseries", value_column="").view_spec("timeseries").request().value_column is None


def test_the_attention_log_colour_help_says_the_decades_the_levels_use():
    """A marked help text is a literal (it cannot be formatted): it must still say what the code does."""
    from peapp.analysis.levels import LOG_DECADES
    from peapp.views.attention import AttentionView

    assert f"a log scale, {LOG_DECADES} decades below the top" in AttentionView.info("log_scale").help
