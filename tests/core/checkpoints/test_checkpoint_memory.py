"""Hostile files that made a reader allocate without bound: each must give a clear CheckpointError
while the process's memory stays small.

Every reader runs in a subprocess under an address-space cap (``RLIMIT_AS`` set to what the
process already maps plus ``_HEADROOM``) with a timeout, so a regression fails the test instead
of exhausting the CI machine's memory.  The subprocess also reports its peak resident growth.
"""

import json
import os
import re
import struct
import subprocess
import sys
import zipfile

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
_HEADROOM = 768 * 1024 * 1024  # address space the reader may map beyond the imports
_MAX_GROWTH_MB = 150  # peak resident growth allowed while reading all files of one batch

_RUNNER = r"""
import json, resource, sys
if sys.argv[1] == "torch":
    import torch  # map torch before the cap, so the cap measures the reader alone
    torch.zeros(1).clone()
from peapp.checkpoints import open_checkpoint
from peapp.errors import CheckpointError
import gguf.gguf_reader  # noqa: F401  (imported lazily by the reader; map it before the cap)

def vm_size():
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) * 1024 for line in fh if line.startswith("VmSize:"))

_, hard = resource.getrlimit(resource.RLIMIT_AS)
resource.setrlimit(resource.RLIMIT_AS, (vm_size() + int(sys.argv[2]), hard))
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out = {}
for path in sys.argv[3:]:
    try:
        ckpt = open_checkpoint(path)
        out[path] = "opened: " + ", ".join(sorted(ckpt.tensors))
    except CheckpointError as exc:
        out[path] = "CheckpointError: " + str(exc)
    except MemoryError:
        out[path] = "MemoryError"
    except BaseException as exc:
        out[path] = f"{type(exc).__name__}: {exc}"
grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
print(json.dumps({"results": out, "growth_mb": grew}))
"""


def _read_capped(paths, kind="plain"):
    """path → outcome line, from one capped subprocess; asserts the peak memory stayed small."""
    proc = subprocess.run([sys.executable, "-c", _RUNNER, kind, str(_HEADROOM), *map(str, paths)],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    assert report["growth_mb"] < _MAX_GROWTH_MB, report
    return {os.path.basename(p): report["results"][str(p)] for p in paths}


def _s(b: bytes) -> bytes:
    return struct.pack("<Q", len(b)) + b


def _gguf(kvs: bytes, n_kv: int, tensors: bytes = b"", n_tensors: int = 0) -> bytes:
    return b"GGUF" + struct.pack("<IQQ", 3, n_tensors, n_kv) + kvs + tensors


def _array(key: bytes, item_type: int, length: int, items: bytes) -> bytes:
    return _s(key) + struct.pack("<IIQ", 9, item_type, length) + items


def _fuzz_found_gguf() -> bytes:
    """The input random fuzzing found (1 in ~5000 mutants of the fuzz seed): an int32 array
    whose length field got a high byte, in a file truncated so that the bytes after the array
    start are a multiple of 4.  GGUFReader then reads empty views past the end for ever."""
    kvs = (_s(b"general.architecture") + struct.pack("<I", 8) + _s(b"llama")
           + _s(b"llama.context_length") + struct.pack("<II", 4, 64)
           + _array(b"llama.some_array", 5, 0x5000000000000003, struct.pack("<3i", 1, 2, 3)))
    tensor = _s(b"position_embd.weight") + struct.pack("<I2QIQ", 2, 8, 4, 0, 0)
    blob = _gguf(kvs, 3, tensor, 1)
    array_start = blob.index(b"llama.some_array") + 16 + 4 + 12
    cut = array_start + (len(blob) - array_start) // 4 * 4
    return blob[:cut]


def test_hostile_gguf_is_refused_in_bounded_memory(tmp_path):
    cases = {
        "fuzz_found.gguf": (_fuzz_found_gguf(), "runs past the end|cannot fit|declares"),
        # 61 bytes: an int32 array declaring 2**62 elements and holding 3
        "array_past_end.gguf": (_gguf(_array(b"a", 5, 2**62, struct.pack("<3i", 1, 2, 3)), 1), "declares"),
        "u8_array_past_end.gguf": (_gguf(_array(b"a", 0, 2**40, bytes(16)), 1), "declares"),
        "string_array_past_end.gguf": (_gguf(_array(b"a", 8, 2**50, _s(b"x") * 4), 1), "cannot fit"),
        # honest lengths, but 4.2 million one-byte values would cost GGUFReader ~3 GB and a minute
        "many_values.gguf": (_gguf(_array(b"a", 0, 4_200_000, bytes(4_200_000)), 1), "more than 4,000,000"),
        "nested_arrays.gguf": (_gguf(_s(b"a") + struct.pack("<I", 9) + struct.pack("<IQ", 9, 1) * 4
                                     + struct.pack("<IQ", 5, 0), 1), "nests arrays"),
        "unknown_value_type.gguf": (_gguf(_s(b"a") + struct.pack("<II", 99, 0), 1), "unknown value type"),
        "huge_ndims.gguf": (_gguf(b"", 0, _s(b"t") + struct.pack("<I", 2**31) + bytes(64), 1), "dimensions"),
        "huge_name.gguf": (_gguf(b"", 0, struct.pack("<Q", 2**63) + bytes(32), 1), "name of tensor"),
        "huge_counts.gguf": (b"GGUF" + struct.pack("<IQQ", 3, 2**40, 2**40) + bytes(64), "more than"),
    }
    for name, (blob, _) in cases.items():
        (tmp_path / name).write_bytes(blob)
    results = _read_capped([tmp_path / name for name in cases])
    for name, (_, match) in cases.items():
        assert results[name].startswith("CheckpointError: "), (name, results[name])
        assert re.search(match, results[name]), (name, results[name])


def test_gguf_layout_check_accepts_what_the_writer_writes(tmp_path):
    """The pre-check walks every value type, arrays of strings and of arrays, both byte orders."""
    import numpy as np
    from gguf import GGUFEndian, GGUFWriter

    from peapp.checkpoints import gguf_format

    for order in (GGUFEndian.LITTLE, GGUFEndian.BIG):
        p = tmp_path / f"all-{order.name}.gguf"
        w = GGUFWriter(str(p), "llama", endianess=order)
        w.add_uint8("x.u8", 7)
        w.add_int16("x.i16", -3)
        w.add_uint64("x.u64", 2**40)
        w.add_float64("x.f64", 0.5)
        w.add_bool("x.bool", True)
        w.add_string("x.str", "héllo")
        w.add_array("x.strs", ["a", "bb", ""])
        w.add_array("x.floats", [1.0, 2.0])
        w.add_array("x.nested", [[1, 2], [3]])
        w.add_array("x.vocab", [f"tok{i}" for i in range(200)])
        w.add_tensor("a.weight", np.ones((3, 5), dtype=np.float32))
        w.add_tensor("b.weight", np.ones((2,), dtype=np.float16))
        w.write_header_to_file()
        w.write_kv_data_to_file()
        w.write_tensors_to_file()
        w.close()
        metadata, tensors = gguf_format.read(str(p))
        assert metadata["x.u64"] == 2**40 and metadata["x.str"] == "héllo" and metadata["x.strs"] == ["a", "bb", ""]
        assert "x.vocab" not in metadata  # long arrays are skipped, not kept
        assert tensors["a.weight"].shape == (3, 5) and tensors["b.weight"].dtype == "F16"


def _torch_dag(path, levels):
    """torch.save keeps shared references: 40 levels of x = [x, x] are a 2 KB file with 2**40 paths."""
    import torch

    x = [torch.zeros(1)]
    for _ in range(levels):
        x = [x, x]
    torch.save({"a": x}, path)


def test_hostile_torch_files_are_refused_in_bounded_memory(tmp_path):
    import torch

    _torch_dag(tmp_path / "dag40.pt", 40)  # used to list 2**40 tensor names until memory ran out
    _torch_dag(tmp_path / "dag20.pt", 20)  # fine, but must list its one tensor once, not 2**20 times
    loop = [torch.ones(2)]
    loop.append(loop)  # a list that contains itself
    torch.save({"loop": loop}, tmp_path / "cycle.pt")
    # a zip bomb: a 64 MB pickle deflated into a few kB (torch.save never compresses)
    with zipfile.ZipFile(tmp_path / "bomb.pt", "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("bomb/data.pkl", "w", force_zip64=True) as fh:
            fh.write(b"\x80\x02X" + struct.pack("<I", 64 * 2**20))
            chunk = b"a" * 2**20
            for _ in range(64):
                fh.write(chunk)
            fh.write(b".")
        zf.writestr("bomb/version", "3\n")
    assert os.path.getsize(tmp_path / "bomb.pt") < 2**20
    # legacy format, one damaged string length: the unpickler asked the file for 4 GB (found by fuzzing)
    torch.save({"w": torch.ones(3)}, tmp_path / "legacy.pt", _use_new_zipfile_serialization=False)
    raw = (tmp_path / "legacy.pt").read_bytes()
    field = b"X" + struct.pack("<I", len(b"little_endian")) + b"little_endian"
    assert field in raw
    (tmp_path / "legacy_long_string.pt").write_bytes(raw.replace(field, b"X" + struct.pack("<I", 2**32 - 16)
                                                                 + b"little_endian"))
    names = ["dag40.pt", "dag20.pt", "cycle.pt", "bomb.pt", "legacy.pt", "legacy_long_string.pt"]
    results = _read_capped([tmp_path / n for n in names], kind="torch")
    assert results["dag40.pt"].startswith("CheckpointError: ") and "nest more than" in results["dag40.pt"]
    assert results["dag20.pt"] == "opened: a" + ".0" * 21
    assert results["cycle.pt"] == "opened: loop.0"
    assert results["bomb.pt"].startswith("CheckpointError: ") and "expand" in results["bomb.pt"]
    assert results["legacy.pt"] == "opened: w"
    assert results["legacy_long_string.pt"].startswith("CheckpointError: ")
    assert "damaged" in results["legacy_long_string.pt"] and "memory" not in results["legacy_long_string.pt"]


def test_safetensors_numbers_beyond_float_range_are_clear_errors(tmp_path):
    from peapp.checkpoints.safetensors_format import parse_header
    from peapp.checkpoints.reader import read_json
    from peapp.errors import CheckpointError

    huge_shape = json.dumps({"a": {"dtype": "F32", "shape": [10**30] * 64, "data_offsets": [0, 16]}}).encode()
    with pytest.raises(CheckpointError, match="needs"):
        parse_header(huge_shape, 8 + len(huge_shape), 16)
    many_digits = b'{"a": {"dtype": "F32", "shape": [' + b"1" * 5000 + b'], "data_offsets": [0, 16]}}'
    with pytest.raises(CheckpointError, match="not valid JSON"):
        parse_header(many_digits, 8 + len(many_digits), 16)
    (tmp_path / "config.json").write_bytes(b'{"max_position_embeddings": ' + b"9" * 5000 + b"}")
    with pytest.raises(CheckpointError, match="not a usable config|more than 40 digits"):
        read_json(tmp_path / "config.json", "config")
