"""Export of a view's data and parameters, and reading the parameters back (Qt-free).

A view's data is a dict of named numpy arrays (a dock's ``export_arrays()``).  It is written
as CSV (one file per array, exact round trip via :func:`read_csv`), NPY (one file per array)
or NPZ (all arrays in one file), always with a JSON sidecar of every parameter that made it
(:func:`export_metadata`).  The same parameters are embedded in exported figures, and
:func:`read_parameters` recovers them from a JSON, PNG or SVG file, so any export can be
regenerated (``peapp render --session figure.png --view …``).

Every write is atomic (``peapp.fileio``); an existing file is never replaced unless the caller
says so (``overwrite=True``).  When several files are written, all targets are checked before
the first byte is written, so a name collision leaves nothing behind.
"""

from __future__ import annotations

import io
import json
import os
import re
import struct
import zlib
from typing import Any, Mapping

import numpy as np

from peapp import __version__
from peapp.fileio import ExportError, atomic_write_bytes

FIGURE_FORMATS = ("png", "svg", "pdf")
DATA_FORMATS = ("csv", "npy", "npz")
FORMATS = FIGURE_FORMATS + DATA_FORMATS
# Key under which the parameters are embedded in a PNG text chunk / SVG metadata element.
METADATA_KEY = "peapp"
MAX_TEXT_CHUNK = 2 * 2**20  # the largest embedded parameters accepted (ours are a few KB)
SVG_METADATA_NS = "https://peapp.invalid/ns/export"  # our own namespace; never fetched

# Significant digits that make a float survive text and come back bit-identical.
_ROUND_TRIP_DIGITS = {2: 5, 4: 9, 8: 17}
_CSV_HEADER = re.compile(r"^# peapp array (?P<key>\S+) shape=(?P<shape>\(.*?\)) dtype=(?P<dtype>\w+)")


def format_of(path: str | os.PathLike) -> str:
    """The export format named by a file's extension ('png', 'csv', …)."""
    ext = os.path.splitext(os.fspath(path))[1].lower().lstrip(".")
    if ext not in FORMATS:
        raise ExportError(f"cannot tell the format of {os.fspath(path)!r}: use one of the extensions "
                          f"{', '.join('.' + f for f in FORMATS)}")
    return ext


def export_metadata(document: Any, dock: str, *, view: str | None = None, title: str | None = None,
                    **extra: Any) -> dict[str, Any]:
    """Every parameter behind an export: the Document, which dock and view, and the resolved
    parameters of the chosen family (the Document may omit values that equal the default).

    ``document`` is a :class:`peapp.document.Document`; ``extra`` adds export settings (size, scale).
    """
    meta: dict[str, Any] = {"app": "peapp", "peapp_version": __version__, "dock": dock,
                            "document": document.to_dict()}
    if view is not None:
        meta["view"] = view
    if title is not None:
        meta["title"] = title
    try:
        meta["resolved_params"] = {document.family: document.spec().to_dict()}
    except Exception:  # a family that cannot resolve still gets its Document recorded
        pass
    meta.update(extra)
    return meta


def metadata_json(meta: Mapping[str, Any]) -> str:
    return json.dumps(meta, indent=2, sort_keys=True, default=_json_default)


def _json_default(value: Any) -> Any:
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (tuple, set)):
        return list(value)
    return str(value)


# ---- writing ------------------------------------------------------------------------------------
def check_targets(paths: list[str], overwrite: bool) -> None:
    """Refuse (before anything is written) if a target exists and ``overwrite`` is false."""
    existing = [p for p in paths if os.path.lexists(p)]  # a dangling symlink counts: --force follows it
    if existing and not overwrite:
        names = ", ".join(os.path.basename(p) for p in existing)
        raise ExportError(f"{names} already exist{'s' if len(existing) == 1 else ''} in "
                          f"{os.path.dirname(os.path.abspath(existing[0]))}; choose another name or "
                          f"allow replacing (--force on the command line)")
    for p in paths:
        if os.path.isdir(p):
            raise ExportError(f"{p} is a folder; give a file name")
        folder = os.path.dirname(os.path.abspath(p))
        if not os.path.isdir(folder):
            raise ExportError(f"cannot write {p}: folder {folder} does not exist")


def write_bytes(path: str | os.PathLike, data: bytes, *, overwrite: bool = False) -> str:
    """Write ``data`` atomically; refuse to replace an existing file unless ``overwrite``."""
    path = os.fspath(path)
    check_targets([path], overwrite)
    atomic_write_bytes(path, data)
    return path


def write_files(files: Mapping[str, bytes], *, overwrite: bool = False) -> list[str]:
    """Write several files, each atomically, after checking every target first.

    If a later write fails, the files this call already wrote are removed again (files that
    existed before are never touched unless ``overwrite``), so a failure leaves nothing partial.
    """
    paths = list(files)
    check_targets(paths, overwrite)
    written: list[str] = []
    try:
        for path, data in files.items():
            existed = os.path.lexists(path)
            atomic_write_bytes(path, data)
            if not existed:
                written.append(path)
    except BaseException:
        for path in written:
            try:
                os.unlink(path)
            except OSError:
                pass
        raise
    return paths


def _clean_key(key: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9_.-]+", "_", str(key)).strip("._")
    return safe or "array"


def csv_bytes(key: str, array: np.ndarray) -> bytes:
    """One array as CSV text that :func:`read_csv` turns back into the identical array.

    1-D arrays are one column, 2-D arrays a matrix; higher dimensions are flattened to
    ``shape[0]`` rows (the header records the shape).  Floats are written with enough digits
    to round-trip exactly.
    """
    array = np.asarray(array)
    kind = array.dtype.kind
    if kind == "b":
        fmt = "%d"
    elif kind in "iu":
        fmt = "%d"
    elif kind == "f":
        fmt = f"%.{_ROUND_TRIP_DIGITS.get(array.dtype.itemsize, 17)}g"
    else:
        raise ExportError(f"array {key!r} holds {array.dtype} values, which CSV cannot hold; export it as NPY")
    if array.ndim == 0:
        table = array.reshape(1, 1)
    elif array.ndim == 1:
        table = array.reshape(-1, 1)
    else:
        table = array.reshape(array.shape[0], -1)
    out = io.StringIO()
    out.write(f"# peapp array {_clean_key(key)} shape={tuple(array.shape)} dtype={array.dtype.name}\n")
    np.savetxt(out, table.astype(np.int64) if kind == "b" else table, fmt=fmt, delimiter=",")
    return out.getvalue().encode("utf-8")


def read_csv(path: str | os.PathLike) -> np.ndarray:
    """Read a CSV written by :func:`csv_bytes` back into an array of the same shape and dtype."""
    from peapp.safe_open import open_regular

    with open_regular(path, "array", ExportError) as fh:  # regular files only, size-capped
        first = fh.readline(4096).decode("utf-8", errors="replace")
        match = _CSV_HEADER.match(first)
        if match is None:
            raise ExportError(f"{os.fspath(path)} is not a peapp array CSV (no '# peapp array' header)")
        shape = tuple(int(n) for n in re.findall(r"\d+", match["shape"]))
        try:
            dtype = np.dtype(match["dtype"])
            fh.seek(0)
            table = np.loadtxt(fh, delimiter=",", comments="#",
                               dtype=np.float64 if dtype.kind == "f" else np.int64, ndmin=2)
            return table.astype(dtype).reshape(shape)
        except (TypeError, ValueError) as exc:
            raise ExportError(f"{os.fspath(path)} does not hold the array its header describes "
                              f"({str(exc)[:120]})") from None


def npy_bytes(key: str, array: np.ndarray) -> bytes:
    out = io.BytesIO()
    try:
        np.save(out, np.asarray(array), allow_pickle=False)
    except ValueError as exc:
        raise ExportError(f"array {key!r} cannot be saved as NPY: {exc}") from None
    return out.getvalue()


def npz_bytes(arrays: Mapping[str, np.ndarray]) -> bytes:
    out = io.BytesIO()
    try:
        np.savez(out, allow_pickle=False, **{_clean_key(k): np.asarray(v) for k, v in arrays.items()})
    except ValueError as exc:
        raise ExportError(f"the arrays cannot be saved as NPZ: {exc}") from None
    return out.getvalue()


def data_files(path: str | os.PathLike, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any],
               fmt: str | None = None) -> dict[str, bytes]:
    """The files a data export consists of: ``{path: bytes}``.

    ``stem.csv``/``stem.npy`` holds the first (main) array — the file the user named always
    exists — and ``stem-KEY.csv``/``.npy`` each further one; ``stem.npz`` holds all of them.
    Always ``stem.json`` with the parameters and the list of arrays (name, shape, dtype, file).
    """
    path = os.fspath(path)
    fmt = fmt or format_of(path)
    if fmt not in DATA_FORMATS:
        raise ExportError(f"{fmt!r} is not a data format; use one of {', '.join(DATA_FORMATS)}")
    if not arrays:
        raise ExportError("this view has no data to export yet (nothing is drawn)")
    stem = os.path.splitext(path)[0]
    files: dict[str, bytes] = {}
    listing: list[dict[str, Any]] = []
    if fmt == "npz":
        target = stem + ".npz"
        files[target] = npz_bytes(arrays)
        for key, array in arrays.items():
            listing.append({"name": _clean_key(key), "shape": list(np.shape(array)),
                            "dtype": np.asarray(array).dtype.name, "file": os.path.basename(target)})
    else:
        for n, (key, array) in enumerate(arrays.items()):
            target = f"{stem}.{fmt}" if n == 0 else f"{stem}-{_clean_key(key)}.{fmt}"
            files[target] = csv_bytes(key, array) if fmt == "csv" else npy_bytes(key, array)
            listing.append({"name": _clean_key(key), "shape": list(np.shape(array)),
                            "dtype": np.asarray(array).dtype.name, "file": os.path.basename(target)})
    sidecar = dict(meta)
    sidecar["arrays"] = listing
    files[stem + ".json"] = (metadata_json(sidecar) + "\n").encode("utf-8")
    return files


def write_data(path: str | os.PathLike, arrays: Mapping[str, np.ndarray], meta: Mapping[str, Any], *,
               fmt: str | None = None, overwrite: bool = False) -> list[str]:
    """Write a view's arrays and their parameters (see :func:`data_files`); returns the paths."""
    return write_files(data_files(path, arrays, meta, fmt), overwrite=overwrite)


# ---- reading parameters back ----------------------------------------------------------------------
def read_parameters(path: str | os.PathLike) -> dict[str, Any]:
    """The export metadata embedded in a PNG or SVG we wrote, or stored in a JSON sidecar.

    A plain session file (a Document's JSON) is returned as ``{"document": …}`` so callers can
    treat both alike.
    """
    from peapp.safe_open import LIMITS, open_regular

    path = os.fspath(path)
    with open_regular(path, "figure", ExportError) as fh:  # regular files only, size-capped
        try:
            data = fh.read(64)
            # JSON (a session, a sidecar) is capped as a session: parsing a 100 MB "session" would hold
            # the interpreter (and so the GUI thread, whatever thread reads) for a second and more
            figure = data.startswith((b"\x89PNG\r\n\x1a\n", b"%PDF")) or path.lower().endswith(".svg") or \
                data.lstrip().startswith((b"<?xml", b"<svg"))
            limit = LIMITS["figure" if figure else "session"]
            data += fh.read(limit + 1 - len(data))
        except OSError as exc:
            raise ExportError(f"cannot read {path}: {exc.strerror or exc}.") from None
    if len(data) > limit:
        raise ExportError(f"{path} is more than {limit // 2**20:,} MiB, more than a "
                          f"{'figure' if figure else 'session'} file can be; is it the right file?")
    text: str | None
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        text = png_text_chunks(data).get(METADATA_KEY)
    elif path.lower().endswith(".svg") or data.lstrip().startswith((b"<?xml", b"<svg")):
        text = _svg_metadata(data)
    elif data.startswith(b"%PDF"):
        text = _pdf_metadata(data)
    else:
        text = data.decode("utf-8", errors="replace")
    if not text:
        raise ExportError(f"{path} carries no peapp parameters")
    from peapp.safe_open import load_json

    meta = load_json(text, f"the parameters in {path}", ExportError)  # depth and number length checked
    if isinstance(meta, dict) and "document" not in meta and meta.get("app") == "peapp":
        meta = {"document": meta}  # a session file
    if not isinstance(meta, dict) or "document" not in meta:
        raise ExportError(f"{path} is neither a peapp session nor a peapp export")
    return meta


def png_text_chunks(data: bytes) -> dict[str, str]:
    """Text chunks (tEXt, zTXt, iTXt) of a PNG file, decoded; a small reader of the PNG spec."""
    if not data.startswith(b"\x89PNG\r\n\x1a\n"):
        raise ExportError("not a PNG file")
    out: dict[str, str] = {}
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        start = pos + 8
        pos += 12 + length
        if kind == b"IEND":
            break
        if kind not in (b"tEXt", b"zTXt", b"iTXt"):
            continue  # image data is skipped, not copied
        body = data[start:start + length]
        try:
            if kind == b"tEXt":
                key, _, value = body.partition(b"\0")
                out[key.decode("latin-1")] = value.decode("latin-1")
            elif kind == b"zTXt":
                key, _, rest = body.partition(b"\0")
                out[key.decode("latin-1")] = _inflate(rest[1:], key).decode("latin-1")
            elif kind == b"iTXt":
                key, _, rest = body.partition(b"\0")
                compressed, _method = rest[0], rest[1]
                _lang, _, rest = rest[2:].partition(b"\0")
                _translated, _, value = rest.partition(b"\0")
                out[key.decode("latin-1")] = (_inflate(value, key) if compressed else value).decode("utf-8")
        except (zlib.error, IndexError, UnicodeDecodeError):
            continue  # a damaged chunk is skipped, not fatal
    return out


def _inflate(data: bytes, key: bytes) -> bytes:
    """A compressed PNG text chunk, inflated to at most MAX_TEXT_CHUNK bytes (a 1 MB chunk can
    inflate to gigabytes: the limit is applied while inflating, not after)."""
    inflater = zlib.decompressobj()
    out = inflater.decompress(data, MAX_TEXT_CHUNK + 1)
    if len(out) > MAX_TEXT_CHUNK or inflater.unconsumed_tail:
        raise ExportError(f"the PNG text chunk {key.decode('latin-1')[:40]!r} inflates to more than "
                          f"{MAX_TEXT_CHUNK // 2**20} MiB; it is not metadata peapp wrote.")
    return out


def _pdf_metadata(data: bytes) -> str | None:
    """The parameters from the XMP packet we write into PDFs (stored uncompressed, as XMP asks).

    Found by a linear scan (``bytes.find``), never a backtracking regex: a crafted file full of
    unclosed tags made the old pattern's cost grow with the cube of the file size.
    """
    from html import unescape

    start = data.find(b"<dc:description>")
    if start < 0:
        return None
    item = data.find(b"<rdf:li", start)
    tag_end = data.find(b">", item) if item >= 0 else -1
    close = data.find(b"</rdf:li>", tag_end) if tag_end >= 0 else -1
    if close < 0 or close - tag_end - 1 > MAX_TEXT_CHUNK:
        return None
    # another producer's XMP need not be UTF-8: undecodable bytes become U+FFFD (then "not valid JSON")
    return unescape(data[tag_end + 1:close].decode("utf-8", errors="replace"))


def document_from_file(path: str | os.PathLike):
    """A Document from a session file, an export's JSON sidecar, or a PNG/SVG/PDF we exported."""
    from peapp.document import Document
    from peapp.errors import DocumentError

    try:
        meta = read_parameters(path)
    except ExportError as exc:
        raise DocumentError(str(exc)) from None
    return Document.from_dict(meta["document"])


def _svg_metadata(data: bytes) -> str | None:
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(data)
    except ET.ParseError as exc:
        raise ExportError(f"the SVG file does not parse: {exc}") from None
    for element in root.iter(f"{{{SVG_METADATA_NS}}}parameters"):
        return element.text
    return None
