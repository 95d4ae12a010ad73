"""A GGUF file as ``gguf.GGUFReader`` presents it, built from peapp's own checked header walk.

transformers 5.24 reads a GGUF of the common families (Llama, Qwen2, Phi-3, GPT-2, …) through
``gguf.GGUFReader`` three times per open (config, weights, tokenizer); the reader makes two numpy
views per vocabulary string, 7–90 s for SmolLM2's 49,152 tokens and 48,900 merges on this machine.
:func:`fast_gguf_reader` lets transformers' own GGUF code run unchanged — its key mapping, tensor
names, the llama q/k permutation, ``gguf``'s dequantisation — on :class:`Fields` instead: the same
``fields`` / ``tensors`` interface, decoded on demand from the byte offsets that
:func:`peapp.checkpoints.gguf_format.read_layout` checked (every length against the file size).
"""

from __future__ import annotations

import contextlib
import os
import struct
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from peapp.checkpoints import gguf_format

_STRING, _ARRAY = 8, 9
_SCALAR_DTYPES = {0: "u1", 1: "i1", 2: "u2", 3: "i2", 4: "u4", 5: "i4", 6: "f4", 7: "?", 10: "u8", 11: "i8",
                  12: "f8"}
# the numpy element type GGUFReader gives a tensor of these ggml types; every other type: raw bytes
_PLAIN_TENSOR_DTYPES = {"F16": "f2", "F32": "f4", "F64": "f8", "I8": "i1", "I16": "i2", "I32": "i4", "I64": "i8"}


class _Parts:
    """GGUFReader's ``ReaderField.parts`` of one key/value: [key length, key bytes, type, value parts…],
    computed on access (string payloads as ``bytes``, numbers as 1-element arrays)."""

    def __init__(self, fields: Fields, key: str, vtype: int, start: int):
        self.fields, self.key, self.vtype, self.start = fields, key, vtype, start
        self._elements: list[int] | None = None  # start of each string element of an array

    def _head(self) -> list[Any]:
        f = self.fields
        raw = self.key.encode("utf-8")
        return [np.array([len(raw)], dtype=f.order + "u8"), np.frombuffer(raw, dtype=np.uint8),
                np.array([self.vtype], dtype=f.order + "u4")]

    def _string(self, pos: int, part: int) -> Any:
        (length,) = struct.unpack_from(self.fields.order + "Q", self.fields.blob, pos)
        if part == 0:
            return np.array([length], dtype=self.fields.order + "u8")
        return bytes(self.fields.blob[pos + 8:pos + 8 + length])

    def _array_header(self) -> tuple[int, int]:
        return struct.unpack_from(self.fields.order + "IQ", self.fields.blob, self.start)

    def element_starts(self) -> list[int]:
        if self._elements is None:
            itype, count = self._array_header()
            pos, starts, blob, fmt = self.start + 12, [], self.fields.blob, self.fields.order + "Q"
            for _ in range(count):  # lengths were checked by the walk
                starts.append(pos)
                pos += 8 + struct.unpack_from(fmt, blob, pos)[0]
            self._elements = starts
        return self._elements

    def __getitem__(self, index: int) -> Any:
        if index < 0:
            raise IndexError("negative part index")
        if index < 3:
            return self._head()[index]
        f, vtype, index = self.fields, self.vtype, index - 3
        if vtype == _STRING:
            return self._string(self.start, index)
        if vtype in _SCALAR_DTYPES:
            if index:
                raise IndexError(index)
            return np.frombuffer(f.blob, dtype=f.order + _SCALAR_DTYPES[vtype], count=1, offset=self.start)
        itype, count = self._array_header()
        if index == 0:
            return np.array([itype], dtype=f.order + "u4")
        if index == 1:
            return np.array([count], dtype=f.order + "u8")
        index -= 2
        if itype == _STRING:
            element, part = divmod(index, 2)
            return self._string(self.element_starts()[element], part)
        width = np.dtype(_SCALAR_DTYPES[itype]).itemsize
        return np.frombuffer(f.blob, dtype=f.order + _SCALAR_DTYPES[itype], count=1,
                             offset=self.start + 12 + index * width)


@dataclass
class _Field:
    """GGUFReader's ``ReaderField``: ``parts``, ``data`` (indices of the value parts), ``types``."""

    name: str
    parts: Any  # _Parts, or a plain list for the three header counts
    types: list[int]
    data: Any
    offset: int


@dataclass
class _Tensor:
    """GGUFReader's ``ReaderTensor`` (``data``: a read-only view into the mapped file)."""

    name: str
    tensor_type: Any
    shape: np.ndarray
    n_elements: int
    n_bytes: int
    data_offset: int
    data: np.ndarray
    field: Any = None


class Fields:
    """``fields`` and ``tensors`` of one GGUF file, as GGUFReader has them (the subset transformers uses)."""

    def __init__(self, path: str):
        from gguf import GGMLQuantizationType
        from gguf.quants import quant_shape_to_byte_shape

        walk = gguf_format.read_layout(path)
        self.path = os.path.abspath(path)
        self.order = walk.order
        self.tensor_data = np.memmap(path, mode="r", dtype=np.uint8)
        # the header as bytes: slicing bytes is far cheaper than slicing a memmap (98k strings)
        header_end = min((info.offset for info in walk.tensors.values()), default=len(self.tensor_data))
        with open(path, "rb") as fh:
            self.blob = fh.read(header_end)
        self.metadata = walk.metadata
        self.fields: dict[str, _Field] = {}
        version, tensor_count, kv_count = struct.unpack_from(self.order + "IQQ", self.blob, 4)
        for name, value, width, vtype, offset in (("GGUF.version", version, "u4", 4, 4),
                                                  ("GGUF.tensor_count", tensor_count, "u8", 10, 8),
                                                  ("GGUF.kv_count", kv_count, "u8", 10, 16)):
            self.fields[name] = _Field(name, [np.array([value], dtype=self.order + width)], [vtype], [0], offset)
        for key, (vtype, start) in walk.value_at.items():
            parts = _Parts(self, key, vtype, start)
            if vtype == _ARRAY:
                itype, count = parts._array_header()
                data: Any = range(6, 6 + 2 * count, 2) if itype == _STRING else range(5, 5 + count)
                types = [_ARRAY, itype]
            else:
                data, types = [4 if vtype == _STRING else 3], [vtype]
            self.fields[key] = _Field(key, parts, types, data, start)
        self.tensors: list[_Tensor] = []
        for info in walk.tensors.values():
            qtype = GGMLQuantizationType[info.dtype]
            dims = tuple(reversed(info.shape))  # GGUF order, innermost first
            n_elements = int(np.prod(info.shape, dtype=np.int64))
            if info.dtype in _PLAIN_TENSOR_DTYPES:
                dtype = np.dtype(self.order + _PLAIN_TENSOR_DTYPES[info.dtype])
                data = np.ndarray(info.shape, dtype=dtype, buffer=self.tensor_data, offset=info.offset)
            else:
                data = self.tensor_data[info.offset:info.offset + info.nbytes].reshape(
                    quant_shape_to_byte_shape(info.shape, qtype))
            self.tensors.append(_Tensor(info.name, qtype, np.array(dims, dtype=np.uint64), n_elements,
                                        info.nbytes, info.offset, data))

    def get_field(self, key: str) -> _Field | None:
        return self.fields.get(key)

    def get_tensor(self, index: int) -> _Tensor:
        return self.tensors[index]


_patch_lock = threading.RLock()


@contextlib.contextmanager
def fast_gguf_reader(fields: Any, path: str | None = None) -> Iterator[None]:
    """While inside, ``gguf.GGUFReader(path)`` of ``fields``' file returns ``fields`` (other
    files get the real reader), so transformers' GGUF loading reads the header once, ours.
    ``fields`` may also be a real GGUFReader of ``path`` (tests: transformers' load, read once)."""
    import gguf

    target = os.path.abspath(path or fields.path)
    with _patch_lock:
        real = gguf.GGUFReader

        def reader(path, *args, **kwargs):
            if os.path.abspath(os.fspath(path)) == target and not args and not kwargs:
                return fields
            return real(path, *args, **kwargs)

        setattr(gguf, "GGUFReader", reader)  # noqa: B010  # a module attribute swapped for the block
        try:
            yield
        finally:
            setattr(gguf, "GGUFReader", real)  # noqa: B010
