"""Fuzzing the readers of files other people made (issue 19): config.json's RoPE settings, session
JSON, figure metadata (PNG chunks, PDF XMP) and time-series CSV.  Whatever the input, the result
is a value or the project's own error — never another exception.  New random inputs every run
(PEAPP_FUZZ_DERANDOMIZE=1 for the fixed sequence), under an address-space cap."""

from __future__ import annotations

import io
import json
import os
import struct
import zlib

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from peapp.errors import PeappError
from tests.core.checkpoints.test_checkpoint_safety import _memory_cap

DERANDOMIZE = bool(os.environ.get("PEAPP_FUZZ_DERANDOMIZE"))
COUNTS: dict[str, int] = {}
_FUZZ = settings(max_examples=300, deadline=None, derandomize=DERANDOMIZE, print_blob=True,
                 suppress_health_check=[HealthCheck.too_slow])

_scalars = st.one_of(st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(allow_nan=True),
                     st.text(max_size=6), st.sampled_from(["yarn", "llama3", "longrope", "su", "dynamic", "linear"]))
_values = st.recursive(_scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=4), c, max_size=3),
                       max_leaves=8)
_ROPE_KEYS = ["rope_theta", "rope_scaling", "rope_parameters", "head_dim", "hidden_size", "num_attention_heads",
              "n_head", "partial_rotary_factor", "rotary_pct", "rotary_dim", "max_position_embeddings",
              "original_max_position_embeddings", "qk_rope_head_dim", "model_type", "n_embd", "n_positions"]
_SCALING_KEYS = ["rope_type", "type", "factor", "original_max_position_embeddings", "beta_fast", "beta_slow",
                 "low_freq_factor", "high_freq_factor", "short_factor", "long_factor", "attention_factor",
                 "mscale", "rope_theta", "partial_rotary_factor", "full_attention", "sliding_attention"]
_scaling = st.dictionaries(st.sampled_from(_SCALING_KEYS), _values, max_size=6)
_configs = st.dictionaries(st.sampled_from(_ROPE_KEYS), st.one_of(_values, _scaling), max_size=10)


def _count(name: str) -> None:
    COUNTS[name] = COUNTS.get(name, 0) + 1


@_FUZZ
@given(config=_configs)
def test_fuzz_hf_config_readers(config):
    """Detection's reader and the RoPE family's reader: a result or a PeappError."""
    from peapp.checkpoints import hf_config, rope_config
    from peapp.encodings import rope

    _count("config.json (RoPE readers)")
    with _memory_cap():
        for call in (lambda: hf_config.read_all_rope(config), lambda: rope_config.hf_rope_params(config),
                     lambda: rope.read_hf_config(config)):
            try:
                call()
            except PeappError:
                pass


@_FUZZ
@given(config=_configs, model_type=st.sampled_from(["llama", "bloom", "mpt", "gptj", "t5", "", "qwen2"]),
       attn=st.dictionaries(st.sampled_from(["alibi", "alibi_bias_max"]), _values, max_size=2))
def test_fuzz_detection_of_a_config(tmp_path_factory, config, model_type, attn):
    from peapp.checkpoints import inspect

    _count("config.json (inspect)")
    path = tmp_path_factory.mktemp("cfg") / "config.json"
    path.write_text(json.dumps({**config, "model_type": model_type, "attn_config": attn}, default=str))
    with _memory_cap():
        try:
            inspect(path)
        except PeappError:
            pass


_json_text = st.one_of(
    _values.map(lambda v: json.dumps({"app": "peapp", "version": 1, "views": {"d": {"k": v}}, "params": v})),
    st.text(alphabet='[]{}",:0123456789.eE-+ tfnrulasx\\', max_size=300),
    st.integers(1, 3000).map(lambda n: "[" * n + "]" * n),
)


@_FUZZ
@given(text=_json_text)
def test_fuzz_session_json(text):
    from peapp.document import Document

    _count("session JSON")
    with _memory_cap():
        try:
            Document.from_json(text)
        except PeappError:
            pass


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I4s", len(body), kind) + body + struct.pack(">I", zlib.crc32(kind + body))


_png_chunks = st.lists(st.tuples(st.sampled_from([b"tEXt", b"zTXt", b"iTXt", b"IDAT", b"IEND"]),
                                 st.one_of(st.binary(max_size=60),
                                           st.binary(max_size=40).map(lambda b: b"peapp\0\0" + zlib.compress(b)),
                                           st.integers(0, 1 << 22).map(lambda n: b"peapp\0\0" +
                                                                       zlib.compress(b"\0" * n, 1)))),
                       max_size=4)


@_FUZZ
@given(chunks=_png_chunks, cut=st.integers(0, 400), pdf=st.binary(max_size=300))
def test_fuzz_figure_metadata(tmp_path_factory, chunks, cut, pdf):
    from peapp.export_data import read_parameters

    _count("figure metadata (PNG/PDF)")
    folder = tmp_path_factory.mktemp("fig")
    png = b"\x89PNG\r\n\x1a\n" + b"".join(_chunk(k, b) for k, b in chunks)
    (folder / "f.png").write_bytes(png[: 8 + cut] if cut < len(png) - 8 else png)
    (folder / "f.pdf").write_bytes(b"%PDF-1.4\n<dc:description><rdf:li>" + pdf + b"</rdf:li>")
    with _memory_cap():
        for name in ("f.png", "f.pdf"):
            try:
                read_parameters(folder / name)
            except PeappError:
                pass


@_FUZZ
@given(text=st.text(alphabet="t,v\n\r\"0123456789.eE-+:TZ x;\t", max_size=400),
       unit=st.sampled_from(["seconds", "unix_seconds", "unix_ms", "days"]))
def test_fuzz_time_series_csv(text, unit):
    from peapp.analysis import timeseries as ts

    _count("time-series CSV")
    with _memory_cap():
        try:
            series = ts.parse_csv(io.StringIO("t,v\n" + text), "t", "v", number_unit=unit)
        except PeappError:
            return
    if series.calendar:  # whatever is kept can be shown as a date
        assert all(-62_135_596_800 <= t <= 253_402_300_799 for t in series.times)


def test_zz_fuzz_counts_recorded(capsys):
    with capsys.disabled():
        print("\nfuzz inputs tried: " + ", ".join(f"{k} {v}" for k, v in sorted(COUNTS.items())))
    assert all(v >= 100 for v in COUNTS.values()) and len(COUNTS) == 5
