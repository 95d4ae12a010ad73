"""GGUF (llama.cpp) files, read through the ``gguf`` package's GGUFReader.

The reader memory-maps the whole file; we copy out the metadata and the tensor inventory and
drop it, so no mapping or handle outlives the call.  Tensor data is later read by byte range.
GGUF lists dimensions innermost first; :class:`TensorInfo` shapes here are reversed to the
PyTorch order.
"""

from __future__ import annotations

import os
import struct

from peapp.checkpoints.model import TensorInfo, read_range
from peapp.errors import CheckpointError

MAGIC = b"GGUF"
_MAX_ARRAY_ITEMS = 64  # longer arrays (tokenizer vocabularies) are not kept in the metadata


def read(path: str) -> tuple[dict[str, object], dict[str, TensorInfo]]:
    """(metadata key → value, tensor name → TensorInfo) of a GGUF file."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            head = fh.read(8)
    except OSError as exc:
        raise CheckpointError(f"cannot read {path}: {exc.strerror or exc}") from None
    if head[:4] != MAGIC:
        raise CheckpointError(f"{path} is not a GGUF file: it starts with {head[:4]!r}, not b'GGUF'.")
    if size < 24:  # magic, version, tensor count, metadata count
        raise CheckpointError(f"{path} is truncated: a GGUF header needs 24 bytes, the file has {size}.")
    with open(path, "rb") as fh:
        fh.seek(8)
        tensor_count, kv_count = struct.unpack("<QQ", fh.read(16))
    # Every tensor entry and key/value pair takes at least 8 + 4 bytes in the file; counts the
    # file cannot hold are corrupt or hostile, and the reader would try to allocate for them.
    if (tensor_count + kv_count) * 12 > size:
        raise CheckpointError(f"{path} is damaged: its header lists {tensor_count:,} tensors and {kv_count:,} "
                              f"metadata entries, more than a {size:,}-byte file can hold.")
    try:
        metadata, tensors = _read_with_gguf(path)
    except CheckpointError:
        raise
    except MemoryError:
        raise CheckpointError(f"{path}: the GGUF header asks for more memory than exists; the file is "
                              f"corrupt.") from None
    except Exception as exc:  # the reader raises many types on damaged input; none may escape raw
        raise CheckpointError(f"{path}: damaged or unsupported GGUF file ({type(exc).__name__}: "
                              f"{str(exc).splitlines()[0][:160] if str(exc) else 'no detail'}).") from None
    return metadata, tensors


def _read_with_gguf(path: str) -> tuple[dict[str, object], dict[str, TensorInfo]]:
    from gguf import GGUFReader, GGUFValueType

    reader = GGUFReader(path, "r")
    try:
        metadata: dict[str, object] = {}
        for key, fld in reader.fields.items():
            if fld.types and fld.types[0] == GGUFValueType.ARRAY and len(fld.data) > _MAX_ARRAY_ITEMS:
                continue
            value = fld.contents()
            metadata[key] = value.item() if hasattr(value, "item") else value
        tensors: dict[str, TensorInfo] = {}
        size = os.path.getsize(path)
        for t in reader.tensors:
            offset, nbytes = int(t.data_offset), int(t.n_bytes)
            if offset < 0 or nbytes < 0 or offset + nbytes > size:
                raise CheckpointError(f"{path}: tensor {t.name!r} lies outside the file "
                                      f"(offset {offset:,} + {nbytes:,} bytes > {size:,}); it is truncated.")
            if t.name in tensors:
                raise CheckpointError(f"{path}: tensor {t.name!r} is listed twice; the file is corrupt.")
            tensors[t.name] = TensorInfo(name=t.name, shape=tuple(int(d) for d in reversed(t.shape.tolist())),
                                         dtype=t.tensor_type.name, file=path, offset=offset, nbytes=nbytes)
        return metadata, tensors
    finally:
        # GGUFReader keeps a numpy memmap (and with it a dup of the file descriptor); every value
        # above was copied out of it, so dropping the reader unmaps the file and closes the handle.
        del reader


def load_tensor(info: TensorInfo):
    """The tensor as float32 torch (quantized types are dequantized by the gguf package)."""
    import numpy as np
    import torch
    from gguf import GGMLQuantizationType
    from gguf.quants import dequantize, quant_shape_to_byte_shape

    try:
        qtype = GGMLQuantizationType[info.dtype]
    except KeyError:
        raise CheckpointError(f"tensor {info.name!r} has GGML type {info.dtype}, which this gguf "
                              f"package cannot decode.") from None
    raw = np.frombuffer(read_range(info), dtype=np.uint8)
    try:
        values = dequantize(raw.reshape(quant_shape_to_byte_shape(info.shape, qtype)), qtype)
    except (NotImplementedError, ValueError) as exc:
        raise CheckpointError(f"tensor {info.name!r} ({info.dtype}) cannot be decoded: {exc}") from None
    return torch.from_numpy(np.array(values, dtype=np.float32, copy=True).reshape(info.shape))
