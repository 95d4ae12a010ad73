"""Data export (CSV/NPY/NPZ + JSON), metadata read-back and failure paths — without Qt."""

from __future__ import annotations

import errno
import json
import os
import struct
import zlib

import numpy as np
import pytest

from peapp import export_data, fileio
from peapp.document import Document
from peapp.errors import DocumentError
from peapp.fileio import ExportError

ARRAYS = {
    "float32": np.array([[0.1, -2.5e-38, 3.4028235e38], [np.pi, -0.0, 1e-45]], dtype=np.float32),
    "float64": np.array([1 / 3, np.e, -1e-300, 2.0 ** 60 + 1.0, np.nan, -np.inf]),
    "float16": np.array([0.1, 65504, -6e-8], dtype=np.float16),
    "int64": np.array([-(2 ** 62), 0, 2 ** 62 + 7]),
    "uint8": np.arange(6, dtype=np.uint8).reshape(2, 3),
    "bool": np.array([True, False, True]),
    "cube": np.random.default_rng(0).standard_normal((3, 4, 5)).astype(np.float32),
    "scalar": np.array(7.25),
}


def _doc() -> Document:
    return Document().with_family("rope").with_params("rope", head_dim=64, base=500000.0).with_view(
        "heatmap", mode="similarity")


@pytest.mark.parametrize("key", list(ARRAYS))
def test_csv_round_trip_is_exact(tmp_path, key):
    array = ARRAYS[key]
    path = tmp_path / f"{key}.csv"
    path.write_bytes(export_data.csv_bytes(key, array))
    back = export_data.read_csv(path)
    assert back.dtype == array.dtype and back.shape == array.shape
    np.testing.assert_array_equal(back, array)  # bit-exact (NaN equal to NaN)
    assert np.array_equal(np.signbit(back), np.signbit(array))


def test_csv_of_a_matrix_is_a_plain_matrix(tmp_path):
    text = export_data.csv_bytes("values", np.array([[1.5, 2.0], [3.0, 4.25]], dtype=np.float32)).decode()
    assert text.splitlines()[1:] == ["1.5,2", "3,4.25"]
    with pytest.raises(ExportError, match="NPY"):
        export_data.csv_bytes("c", np.array([1 + 2j]))


def test_data_files_layout_and_sidecar(tmp_path):
    arrays = {"values": ARRAYS["float32"], "row positions": np.arange(2)}
    meta = export_data.export_metadata(_doc(), "heatmapDock", view="similarity", title="t")
    files = export_data.write_data(tmp_path / "fig.csv", arrays, meta)
    names = sorted(os.path.basename(p) for p in files)
    assert names == ["fig-row_positions.csv", "fig.csv", "fig.json"]  # the file named holds the main array
    sidecar = json.loads((tmp_path / "fig.json").read_text())
    assert sidecar["dock"] == "heatmapDock" and sidecar["view"] == "similarity"
    assert Document.from_dict(sidecar["document"]) == _doc()
    assert sidecar["resolved_params"]["rope"]["head_dim"] == 64
    assert [a["file"] for a in sidecar["arrays"]] == ["fig.csv", "fig-row_positions.csv"]
    np.testing.assert_array_equal(export_data.read_csv(tmp_path / "fig.csv"), arrays["values"])
    assert export_data.document_from_file(tmp_path / "fig.json") == _doc()


def test_npy_and_npz_round_trip(tmp_path):
    meta = export_data.export_metadata(Document(), "heatmapDock")
    export_data.write_data(tmp_path / "one.npy", {"values": ARRAYS["cube"]}, meta)
    np.testing.assert_array_equal(np.load(tmp_path / "one.npy"), ARRAYS["cube"])
    export_data.write_data(tmp_path / "all.npz", ARRAYS, meta)
    with np.load(tmp_path / "all.npz") as archive:
        for key, array in ARRAYS.items():
            np.testing.assert_array_equal(archive[key], array)
            assert archive[key].dtype == array.dtype
    with pytest.raises(ExportError, match="no data"):
        export_data.write_data(tmp_path / "empty.csv", {}, meta)
    with pytest.raises(ExportError, match="NPY"):
        export_data.npy_bytes("objects", np.array([object()], dtype=object))


def test_refuses_to_overwrite_and_collisions_write_nothing(tmp_path):
    meta = export_data.export_metadata(Document(), "heatmapDock")
    (tmp_path / "fig.json").write_text("mine")
    arrays = {"values": np.ones((2, 2)), "rows": np.arange(2)}
    with pytest.raises(ExportError, match="fig.json already exists"):
        export_data.write_data(tmp_path / "fig.csv", arrays, meta)
    assert sorted(os.listdir(tmp_path)) == ["fig.json"] and (tmp_path / "fig.json").read_text() == "mine"
    export_data.write_data(tmp_path / "fig.csv", arrays, meta, overwrite=True)
    assert json.loads((tmp_path / "fig.json").read_text())["dock"] == "heatmapDock"
    with pytest.raises(ExportError, match="already exists"):
        export_data.write_bytes(tmp_path / "fig.json", b"x")
    with pytest.raises(ExportError, match="cannot tell the format"):
        export_data.format_of("figure.bmp")


def test_disk_full_leaves_no_partial_file_and_keeps_the_old_one(tmp_path, monkeypatch):
    target = tmp_path / "fig.csv"
    target.write_text("previous export")

    def full(src, dst):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(fileio.os, "replace", full)
    with pytest.raises(ExportError, match="No space left on device"):
        export_data.write_bytes(target, b"new data", overwrite=True)
    assert os.listdir(tmp_path) == ["fig.csv"] and target.read_text() == "previous export"


def test_failure_midway_removes_the_files_already_written(tmp_path, monkeypatch):
    calls = []
    real_write = fileio.atomic_write_bytes

    def second_fails(path, data):
        calls.append(path)
        if len(calls) == 2:
            raise ExportError("writing failed: No space left on device; nothing was written.")
        real_write(path, data)

    monkeypatch.setattr(export_data, "atomic_write_bytes", second_fails)
    meta = export_data.export_metadata(Document(), "heatmapDock")
    with pytest.raises(ExportError, match="No space"):
        export_data.write_data(tmp_path / "f.npy", {"a": np.ones(2), "b": np.zeros(2)}, meta)
    assert os.listdir(tmp_path) == []


def test_unwritable_folder_says_why(tmp_path, monkeypatch):
    with pytest.raises(ExportError, match="does not exist"):
        export_data.write_bytes(tmp_path / "missing" / "x.png", b"x")
    with pytest.raises(ExportError, match="cannot write to /sys"):  # read-only even for root
        export_data.write_bytes("/sys/peapp-test.png", b"x")

    def denied(*args, **kwargs):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))

    monkeypatch.setattr(fileio.tempfile, "mkstemp", denied)
    with pytest.raises(ExportError, match="Permission denied. Choose another folder"):
        export_data.write_bytes(tmp_path / "x.png", b"x")
    assert os.listdir(tmp_path) == []


def _png_with(chunks: list[tuple[bytes, bytes]]) -> bytes:
    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    ihdr = struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0)
    idat = zlib.compress(b"\0\0")
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + b"".join(chunk(k, b) for k, b in chunks)
            + chunk(b"IDAT", idat) + chunk(b"IEND", b""))


def test_png_text_chunks_of_every_kind(tmp_path):
    meta = export_data.export_metadata(_doc(), "heatmapDock", title="RoPE — table")
    text = export_data.metadata_json(meta)
    itxt = b"peapp\0\x01\0\0\0" + zlib.compress(text.encode("utf-8"))
    data = _png_with([(b"tEXt", b"Software\0peapp"), (b"zTXt", b"Comment\0\0" + zlib.compress(b"hello")),
                      (b"iTXt", itxt)])
    chunks = export_data.png_text_chunks(data)
    assert chunks["Software"] == "peapp" and chunks["Comment"] == "hello"
    (tmp_path / "f.png").write_bytes(data)
    assert export_data.read_parameters(tmp_path / "f.png")["title"] == "RoPE — table"
    assert export_data.document_from_file(tmp_path / "f.png") == _doc()
    (tmp_path / "plain.png").write_bytes(_png_with([]))
    with pytest.raises(DocumentError, match="carries no peapp parameters"):
        export_data.document_from_file(tmp_path / "plain.png")


def test_session_round_trip_and_newer_version(tmp_path):
    doc = _doc().with_checkpoint("/models/llama").with_params("sinusoidal", d_model=64)
    doc.save(tmp_path / "s.json")
    assert Document.load(tmp_path / "s.json") == doc
    assert export_data.document_from_file(tmp_path / "s.json") == doc
    data = doc.to_dict()
    data["version"] = 99
    (tmp_path / "new.json").write_text(json.dumps(data))
    with pytest.raises(DocumentError, match="newer peapp"):
        export_data.document_from_file(tmp_path / "new.json")


def test_a_foreign_pdf_with_non_utf8_metadata_is_an_export_error(tmp_path):
    """Opening someone else's PDF as a session: one clear error, not a UnicodeDecodeError."""
    pdf = tmp_path / "other.pdf"
    pdf.write_bytes(b"%PDF-1.4\n<dc:description><rdf:Alt><rdf:li xml:lang='x-default'>caf\xe9</rdf:li>"
                    b"</rdf:Alt></dc:description>\n%%EOF\n")
    with pytest.raises(ExportError, match="not valid JSON"):
        export_data.read_parameters(pdf)


def test_a_json_session_is_capped_as_a_session_not_as_a_figure(tmp_path):
    """A 100 MB 'session' was read and parsed whole (the figure cap is 256 MiB): a second and more
    holding the interpreter, so the GUI stalled even though the read ran on another thread."""
    from peapp.safe_open import LIMITS

    big = tmp_path / "big.json"
    with open(big, "wb") as fh:
        fh.write(b'{"app": "peapp", "x": "')
        fh.truncate(100 * 2**20)  # sparse: costs nothing to make
    with pytest.raises(export_data.ExportError, match=f"more than {LIMITS['session'] // 2**20} MiB.*session"):
        export_data.read_parameters(big)
