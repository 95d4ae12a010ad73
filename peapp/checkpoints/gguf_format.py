"""GGUF (llama.cpp) files: the header read by one walk of our own, tensor data by byte range.

The ``gguf`` package's GGUFReader builds numpy views of every value in the file, the whole
tokenizer vocabulary included (seconds for a 50k-token model); detection needs only the scalar
metadata and the tensor inventory.  The walk below checks every count and length against the
bytes that are left (nothing proportional to a declared length is allocated), keeps scalars,
strings and short arrays, skips long arrays (vocabularies) without decoding them, and lists the
tensors with their byte ranges.  The ``gguf`` package still decodes quantized tensor data.
GGUF lists dimensions innermost first; :class:`TensorInfo` shapes here are reversed to the
PyTorch order.
"""

from __future__ import annotations

import mmap
import os
import struct

from peapp.checkpoints.model import TensorInfo, read_range
from peapp.errors import CheckpointError
from peapp.memory import available_bytes, human_bytes

MAGIC = b"GGUF"
_MAX_ARRAY_ITEMS = 64  # longer arrays (tokenizer vocabularies) are not kept in the metadata

# GGUFReader keeps one numpy view per array element (two per string) and several per tensor:
# about 700 bytes and 10 µs each (measured, gguf 0.19).  The largest real vocabularies
# (256k tokens with scores, types and merges) come to about 1.5 million.
_READER_BYTES_PER_VALUE = 750
_MAX_READER_VALUES = 4_000_000
_READER_VALUES_PER_TENSOR = 10
_MAX_ARRAY_NESTING = 2  # arrays of arrays; llama.cpp writes none
_MAX_DIMS = 8  # ggml tensors have at most 4
_SCALAR_SIZES = {0: 1, 1: 1, 2: 2, 3: 2, 4: 4, 5: 4, 6: 4, 7: 1, 10: 8, 11: 8, 12: 8}  # GGUFValueType → bytes
_STRING, _ARRAY = 8, 9
_SCALAR_FORMATS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
_MAX_KEPT_STRING = 1 << 16  # longer metadata strings (chat templates are a few kB) are cut


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
    try:
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as view:
            walk = _LayoutWalk(view, size, path, keep=True)
            walk.run()
    except OSError as exc:
        raise CheckpointError(f"cannot read {path}: {exc.strerror or exc}") from None
    return walk.metadata, walk.tensors


def read_layout(path: str) -> _LayoutWalk:
    """The checked walk itself (metadata, tensors, where every value starts, byte order), for a
    caller that decodes more than :func:`read` keeps; raises as :func:`read` does."""
    try:
        size = os.path.getsize(path)
        with open(path, "rb") as fh:
            head = fh.read(8)
    except OSError as exc:
        raise CheckpointError(f"cannot read {path}: {exc.strerror or exc}") from None
    if head[:4] != MAGIC or size < 24:
        raise CheckpointError(f"{path} is not a GGUF file (or is truncated before its header ends).")
    try:
        with open(path, "rb") as fh, mmap.mmap(fh.fileno(), 0, access=mmap.ACCESS_READ) as view:
            walk = _LayoutWalk(view, size, path, keep=True)
            walk.run()
    except OSError as exc:
        raise CheckpointError(f"cannot read {path}: {exc.strerror or exc}") from None
    walk.view = None  # type: ignore[assignment]  # closed with the file; positions stay valid
    return walk


class _LayoutWalk:
    def __init__(self, view: mmap.mmap, size: int, path: str, keep: bool = False):
        self.view, self.size, self.path, self.keep = view, size, path, keep
        self.metadata: dict[str, object] = {}
        # key → (value type, byte offset of the value): every entry, checked, for readers that
        # decode what the metadata above leaves out (peapp.model_run's GGUF fields)
        self.value_at: dict[str, tuple[int, int]] = {}
        self.tensors: dict[str, TensorInfo] = {}
        self.values = 0  # numpy views GGUFReader will create for array elements and tensors
        (version,) = struct.unpack_from("<I", view, 4)
        # GGUFReader's rule: a version whose low half is zero was written with the other byte order
        self.order = ">" if version & 0xFFFF == 0 else "<"
        (self.version,) = struct.unpack_from(self.order + "I", view, 4)

    def fail(self, what: str):
        raise CheckpointError(f"{self.path} is damaged: {what}. Re-download or re-convert the file.")

    def unpack(self, fmt: str, pos: int, what: str) -> tuple[tuple, int]:
        n = struct.calcsize(self.order + fmt)
        if pos + n > self.size:
            self.fail(f"{what} at byte {pos:,} runs past the end of the {self.size:,}-byte file")
        return struct.unpack_from(self.order + fmt, self.view, pos), pos + n

    def skip(self, pos: int, nbytes: int, what: str) -> int:
        if nbytes > self.size - pos:
            self.fail(f"{what} at byte {pos:,} declares {nbytes:,} bytes, but only {self.size - pos:,} remain")
        return pos + nbytes

    def string(self, pos: int, what: str) -> int:
        (length,), pos = self.unpack("Q", pos, f"the length of {what}")
        return self.skip(pos, length, what)

    def count(self, n: int) -> None:
        self.values += n
        if self.values > _MAX_READER_VALUES:
            self.fail(f"its header holds more than {_MAX_READER_VALUES:,} array values and tensors (real models "
                      f"have at most about 1.5 million); reading them would take "
                      f"{human_bytes(self.values * _READER_BYTES_PER_VALUE)} or more")

    def value(self, pos: int, vtype: int, what: str, depth: int = 0) -> int:
        if vtype == _STRING:
            return self.string(pos, what)
        if vtype in _SCALAR_SIZES:
            return self.skip(pos, _SCALAR_SIZES[vtype], what)
        if vtype != _ARRAY:
            self.fail(f"{what} has unknown value type {vtype}")
        (itype, length), pos = self.unpack("IQ", pos, f"the array header of {what}")
        if itype in _SCALAR_SIZES:  # fixed-size elements: check the whole run at once
            end = self.skip(pos, length * _SCALAR_SIZES[itype], f"the {length:,}-element array {what}")
            self.count(length)
            return end
        if itype == _STRING:
            smallest = 8
        elif itype == _ARRAY:
            if depth + 1 > _MAX_ARRAY_NESTING:
                self.fail(f"{what} nests arrays more than {_MAX_ARRAY_NESTING} deep")
            smallest = 12
        else:
            self.fail(f"{what} is an array of unknown type {itype}")
        if length * smallest > self.size - pos:
            self.fail(f"the {length:,}-element array {what} at byte {pos:,} cannot fit in the "
                      f"{self.size - pos:,} bytes that remain")
        self.count(2 * length)
        for _ in range(length):
            pos = self.value(pos, itype, f"an element of {what}", depth + 1)
        return pos

    def _key_at(self, start: int) -> str:
        """The whole string (a key or a tensor name) whose length field is at ``start`` (already checked)."""
        (length,) = struct.unpack_from(self.order + "Q", self.view, start)
        return bytes(self.view[start + 8:start + 8 + length]).decode("utf-8", "replace")

    def list_tensors(self, pos: int, listed, quant_sizes, quant_types) -> None:
        """TensorInfos with absolute byte ranges: data starts at the next multiple of general.alignment."""
        given = self.metadata.get("general.alignment", 32)
        if isinstance(given, bool) or not isinstance(given, int) or given <= 0 or given & (given - 1):
            self.fail(f"general.alignment is {given!r}, not a power of two")
        alignment = int(given)  # type: ignore[call-overload]  # checked just above
        data_start = (pos + alignment - 1) // alignment * alignment
        for name, dims, ggml_type, offset in listed:
            block, type_size = quant_sizes[quant_types(ggml_type)]
            numel = 1
            for d in dims:
                numel *= d
            nbytes = numel * type_size // block
            start = data_start + offset
            if start + nbytes > self.size:
                raise CheckpointError(f"{self.path}: tensor {name!r} lies outside the file "
                                      f"(offset {start:,} + {nbytes:,} bytes > {self.size:,}); it is truncated.")
            if name in self.tensors:
                raise CheckpointError(f"{self.path}: tensor {name!r} is listed twice; the file is corrupt.")
            self.tensors[name] = TensorInfo(name=name, shape=tuple(int(d) for d in reversed(dims)),
                                            dtype=quant_types(ggml_type).name, file=self.path, offset=start,
                                            nbytes=nbytes)

    def decode(self, pos: int, vtype: int, what: str) -> tuple[object, int] | None:
        """(value, end) of a scalar, a string or a short array of them; None for what is not kept."""
        if vtype in _SCALAR_FORMATS:
            (value,), end = self.unpack(_SCALAR_FORMATS[vtype], pos, what)
            return value, end
        if vtype == _STRING:
            (length,), start = self.unpack("Q", pos, f"the length of {what}")
            end = self.skip(start, length, what)
            return bytes(self.view[start:start + min(length, _MAX_KEPT_STRING)]).decode("utf-8", "replace"), end
        if vtype == _ARRAY:
            (itype, length), start = self.unpack("IQ", pos, f"the array header of {what}")
            if length > _MAX_ARRAY_ITEMS or itype == _ARRAY:
                return None
            items, cur = [], start
            for _ in range(length):
                got = self.decode(cur, itype, f"an element of {what}")
                if got is None:
                    return None
                item, cur = got
                items.append(item)
            return items, cur
        return None

    def run(self) -> None:
        if self.version not in (2, 3):
            raise CheckpointError(f"{self.path} is GGUF version {self.version}; peapp reads versions 2 and 3 "
                                  f"(convert it again with a current llama.cpp).")
        (tensor_count, kv_count), pos = self.unpack("QQ", 8, "the header counts")
        # Every tensor entry and key/value pair takes at least 8 + 4 bytes in the file.
        if (tensor_count + kv_count) * 12 > self.size:
            self.fail(f"its header lists {tensor_count:,} tensors and {kv_count:,} metadata entries, more than "
                      f"a {self.size:,}-byte file can hold")
        for i in range(kv_count):
            start = pos
            pos = self.string(pos, f"metadata key {i}")
            key = self.view[start + 8:min(pos, start + 128)].decode("utf-8", "replace")
            (vtype,), pos = self.unpack("I", pos, f"the type of metadata {key!r}")
            value_start = pos
            pos = self.value(pos, vtype, f"metadata {key!r}")  # checks the whole value first
            if self.keep:
                self.value_at[self._key_at(start)] = (vtype, value_start)
                got = self.decode(value_start, vtype, f"metadata {key!r}")
                if got is not None:
                    self.metadata[self._key_at(start)] = got[0]
        from gguf.constants import GGML_QUANT_SIZES, GGMLQuantizationType

        known_types = {int(t) for t in GGML_QUANT_SIZES}
        listed: list[tuple[str, tuple[int, ...], int, int]] = []
        self.count(tensor_count * _READER_VALUES_PER_TENSOR)
        for i in range(tensor_count):
            start = pos
            pos = self.string(pos, f"the name of tensor {i}")
            name = self.view[start + 8:min(pos, start + 128)].decode("utf-8", "replace")
            (n_dims,), pos = self.unpack("I", pos, f"the dimension count of tensor {name!r}")
            if n_dims > _MAX_DIMS:
                self.fail(f"tensor {name!r} claims {n_dims:,} dimensions (GGUF tensors have at most 4)")
            if n_dims == 0:  # ggml tensors have at least one dimension; a view would index shape[-1]
                self.fail(f"tensor {name!r} has no dimensions (GGUF tensors have 1 to 4)")
            dims, pos = self.unpack(f"{n_dims}Q", pos, f"the shape of tensor {name!r}")
            if 0 in dims:
                self.fail(f"tensor {name!r} has a dimension of length 0 (shape {list(dims)})")
            (ggml_type, _offset), pos = self.unpack("IQ", pos, f"the type and offset of tensor {name!r}")
            if ggml_type not in known_types:
                known = ", ".join(t.name for t in GGMLQuantizationType if int(t) in known_types)
                raise CheckpointError(f"{self.path}: tensor {name!r} has GGML type {ggml_type}, which this gguf "
                                      f"package does not know (known: {known}); update gguf or re-convert.")
            listed.append((self._key_at(start), dims, ggml_type, _offset))
        if self.keep:
            self.list_tensors(pos, listed, GGML_QUANT_SIZES, GGMLQuantizationType)
        need = self.values * _READER_BYTES_PER_VALUE
        if need > available_bytes() // 2:
            raise CheckpointError(f"{self.path}: reading its header would need about {human_bytes(need)}, more "
                                  f"than this machine can spare; close other programs or use a smaller model.")


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
