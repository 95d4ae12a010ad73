"""Safetensors: parse the header ourselves, with strict bounds checks, and read single tensors.

Layout: an 8-byte little-endian header length N, N bytes of UTF-8 JSON, then the data.
The JSON maps each tensor name to ``{"dtype", "shape", "data_offsets": [begin, end]}`` (offsets
relative to the start of the data) plus an optional ``"__metadata__"`` of strings.

Only the header is read to list tensors, so a file of any size opens in the time it takes to
read a few kilobytes.  Every number in the header is checked against the file before it is
trusted: a damaged or hostile file gives a :class:`CheckpointError`, never an allocation the
size of a bogus length or a read past the end.
"""

from __future__ import annotations

import json
import math
import os
import struct

from peapp.checkpoints.model import TensorInfo
from peapp.errors import CheckpointError

# Bits per element.  Sub-byte types (F4, F6) are listed so their headers are accepted; their
# data cannot be turned into a float table here (say so when asked).
DTYPE_BITS = {
    "BOOL": 8, "U8": 8, "I8": 8, "F8_E5M2": 8, "F8_E4M3": 8, "F8_E4M3FNUZ": 8, "F8_E5M2FNUZ": 8,
    "F8_E8M0": 8, "I16": 16, "U16": 16, "F16": 16, "BF16": 16, "I32": 32, "U32": 32, "F32": 32,
    "I64": 64, "U64": 64, "F64": 64, "C64": 64, "F4": 4, "F6_E2M3": 6, "F6_E3M2": 6,
}
# The safetensors library refuses headers above 100 MB; so do we (a real header is kilobytes).
MAX_HEADER_BYTES = 100_000_000


def read_header(path: str) -> tuple[dict[str, TensorInfo], dict[str, str]]:
    """Tensors (name → TensorInfo with absolute file offsets) and the ``__metadata__`` dict."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            head = fh.read(8)
            if len(head) < 8:
                raise CheckpointError(f"{path} is not a safetensors file: it is only {size} bytes long "
                                      f"(the header length alone takes 8). The file may be truncated.")
            (n,) = struct.unpack("<Q", head)
            if n > size - 8:
                raise CheckpointError(
                    f"{path} is damaged: its header claims {n:,} bytes but the file has only {size - 8:,} "
                    f"after the length field (truncated download, or not a safetensors file).")
            if n > MAX_HEADER_BYTES:
                raise CheckpointError(f"{path}: header of {n:,} bytes is larger than any real safetensors "
                                      f"header (limit {MAX_HEADER_BYTES:,}); the file is not usable.")
            raw = fh.read(n)
    except OSError as exc:
        raise CheckpointError(f"cannot read {path}: {exc.strerror or exc}") from None
    if len(raw) != n:  # the file shrank between stat and read
        raise CheckpointError(f"{path} is truncated: expected a {n:,}-byte header, read {len(raw):,}.")
    return parse_header(raw, data_start=8 + n, data_len=size - 8 - n, path=path)


def parse_header(raw: bytes, data_start: int, data_len: int, path: str = "<bytes>"
                 ) -> tuple[dict[str, TensorInfo], dict[str, str]]:
    """Validate a header's JSON against a data section of ``data_len`` bytes."""
    try:
        header = json.loads(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:  # bad UTF-8 or JSON, a 5000-digit number, deep nesting
        raise CheckpointError(f"{path}: the safetensors header is not valid JSON ({_short(exc)}); "
                              f"the file is damaged or not a safetensors file.") from None
    if not isinstance(header, dict):
        raise CheckpointError(f"{path}: the safetensors header must be a JSON object, "
                              f"got {type(header).__name__}.")
    metadata = header.pop("__metadata__", None) or {}
    if not isinstance(metadata, dict) or not all(isinstance(v, str) for v in metadata.values()):
        raise CheckpointError(f"{path}: __metadata__ must map strings to strings.")
    tensors: dict[str, TensorInfo] = {}
    spans: list[tuple[int, int, str]] = []
    for name, entry in header.items():
        tensors[name] = info = _entry(name, entry, data_start, data_len, path)
        spans.append((info.offset - data_start, info.offset - data_start + info.nbytes, name))
    # Two tensors must not share bytes (empty tensors take none, so they may share an offset).
    furthest_end, furthest_name = 0, ""
    for begin, end, name in sorted(s for s in spans if s[1] > s[0]):
        if begin < furthest_end:
            raise CheckpointError(f"{path}: tensors {furthest_name!r} and {name!r} overlap in the data "
                                  f"section; the header is corrupt.")
        furthest_end, furthest_name = end, name
    return tensors, dict(metadata)


def _entry(name: str, entry: object, data_start: int, data_len: int, path: str) -> TensorInfo:
    where = f"{path}: tensor {name!r}"
    if not isinstance(entry, dict):
        raise CheckpointError(f"{where}: entry must be an object with dtype, shape and data_offsets.")
    dtype, shape, offsets = entry.get("dtype"), entry.get("shape"), entry.get("data_offsets")
    if not isinstance(dtype, str) or dtype not in DTYPE_BITS:
        raise CheckpointError(f"{where} has unknown dtype {dtype!r}; known: {', '.join(sorted(DTYPE_BITS))}. "
                              f"The file may come from a newer safetensors version.")
    if (not isinstance(shape, list) or len(shape) > 64
            or not all(type(s) is int and s >= 0 for s in shape)):
        raise CheckpointError(f"{where}: shape must be a list of non-negative integers, got {shape!r}.")
    if (not isinstance(offsets, list) or len(offsets) != 2
            or not all(type(o) is int for o in offsets)):
        raise CheckpointError(f"{where}: data_offsets must be two integers, got {offsets!r}.")
    begin, end = offsets
    if not 0 <= begin <= end <= data_len:
        raise CheckpointError(f"{where}: data_offsets [{begin}, {end}] lie outside the {data_len:,}-byte "
                              f"data section; the file is truncated or its header is corrupt.")
    expected = (math.prod(shape) * DTYPE_BITS[dtype] + 7) // 8  # integers: shapes may exceed a float
    if end - begin != expected:
        raise CheckpointError(f"{where}: shape {shape} of {dtype} needs {expected:,} bytes but data_offsets "
                              f"span {end - begin:,}; the header is corrupt.")
    return TensorInfo(name=name, shape=tuple(shape), dtype=dtype, file=path,
                      offset=data_start + begin, nbytes=end - begin)


def _short(exc: Exception) -> str:
    return str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__


def load_tensor(info: TensorInfo):
    """The tensor's data as a torch tensor in its own dtype: only its byte range is read."""
    import torch

    from peapp.checkpoints.model import read_range

    dtypes = {
        "BOOL": torch.bool, "U8": torch.uint8, "I8": torch.int8, "I16": torch.int16, "U16": torch.uint16,
        "F16": torch.float16, "BF16": torch.bfloat16, "I32": torch.int32, "U32": torch.uint32,
        "F32": torch.float32, "I64": torch.int64, "U64": torch.uint64, "F64": torch.float64,
        "C64": torch.complex64, "F8_E5M2": torch.float8_e5m2, "F8_E4M3": torch.float8_e4m3fn,
        "F8_E4M3FNUZ": torch.float8_e4m3fnuz, "F8_E5M2FNUZ": torch.float8_e5m2fnuz,
    }
    if info.dtype not in dtypes:
        raise CheckpointError(f"tensor {info.name!r} is stored as {info.dtype}, which peapp cannot "
                              f"convert to numbers; choose another tensor.")
    buf = read_range(info)
    if not buf:
        return torch.empty(info.shape, dtype=dtypes[info.dtype])
    # safetensors data is little-endian, as are the machines torch runs on here.
    return torch.frombuffer(buf, dtype=dtypes[info.dtype]).reshape(info.shape)  # buf is writable: no copy
