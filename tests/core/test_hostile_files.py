"""Files other people made: no hang, no blow-up, no traceback — whatever they contain.

Every hostile file is made by the test itself.  Each case runs in a child process under an
address-space cap (``RLIMIT_AS`` = what the process maps after its imports + ``HEADROOM``) and a
timeout, so a regression fails here (MemoryError, or the timeout for a hang) instead of
exhausting or freezing the machine.  The child reports the outcome, its peak resident
growth and its time; ``test_zz_blowups_report`` prints them (the numbers in the report).
"""

from __future__ import annotations

import json
import os
import stat
import struct
import subprocess
import sys
import zlib

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HEADROOM = 768 * 1024 * 1024
TIMEOUT_S = int(os.environ.get("PEAPP_HOSTILE_TIMEOUT", "120"))  # generous: a case that hangs (FIFO) or is cubic (the old PDF scan) never ends
_REPORT: dict[str, tuple[float, float, str]] = {}

# One server process imports the big libraries once, then forks a child per case: the child sets
# the cap (so it measures the reader alone), runs the case and reports on a pipe.  Importing torch
# in a fresh interpreter per case cost ~45 × 3-10 s; a fork costs milliseconds.
_SERVER = r"""
import json, os, resource, select, sys, time, traceback
import numpy, torch  # noqa: F401  map the big libraries before the cap
torch.zeros(1).clone()
import gguf.gguf_reader  # noqa: F401
import peapp.checkpoints, peapp.checkpoints.detect, peapp.encodings.rope, peapp.export_data  # noqa: F401
import peapp.analysis.timeseries, peapp.document, peapp.commands.inspect  # noqa: F401
from peapp.errors import PeappError

def status_kb(key):
    with open("/proc/self/status") as fh:
        return next(int(line.split()[1]) for line in fh if line.startswith(key))

def run_case(headroom, code):
    _, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (status_kb("VmSize:") * 1024 + headroom, hard))
    try:  # reset the peak-RSS mark (VmHWM) so the imports' peak does not hide the case's
        with open("/proc/self/clear_refs", "w") as fh:
            fh.write("5")
    except OSError:
        pass
    base = status_kb("VmRSS:")
    started = time.monotonic()
    try:
        namespace = {}
        exec(code, namespace)
        outcome = "ok: " + str(namespace.get("result", ""))[:2000]
    except PeappError as exc:
        outcome = f"{type(exc).__name__}: {exc}"
    except MemoryError:
        outcome = "MemoryError"
    except BaseException as exc:
        outcome = f"TRACEBACK {type(exc).__name__}: {exc}\n" + traceback.format_exc()[-1500:]
    return {"outcome": outcome, "seconds": time.monotonic() - started,
            "growth_mb": (status_kb("VmHWM:") - base) / 1024}

replies = os.fdopen(os.dup(1), "w")
for line in sys.stdin:
    request = json.loads(line)
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # a case that prints must not corrupt the replies
        try:
            os.write(write_end, json.dumps(run_case(request["headroom"], request["code"])).encode())
        finally:
            os._exit(0)
    os.close(write_end)
    deadline, chunks, timed_out = time.monotonic() + request["timeout"], [], False
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            timed_out = True
            os.kill(pid, 9)
            break
        if select.select([read_end], [], [], left)[0]:
            data = os.read(read_end, 1 << 16)
            if not data:
                break
            chunks.append(data)
    os.close(read_end)
    _, status = os.waitpid(pid, 0)
    replies.write(json.dumps({"timed_out": timed_out, "status": status,
                              "report": b"".join(chunks).decode(errors="replace")}) + "\n")
    replies.flush()
"""
_server: subprocess.Popen | None = None


def _case_server() -> subprocess.Popen:
    global _server
    if _server is None or _server.poll() is not None:
        env = {**os.environ, "PYTHONPATH": ROOT, "OMP_NUM_THREADS": "1"}
        _server = subprocess.Popen([sys.executable, "-c", _SERVER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                   stderr=subprocess.DEVNULL, text=True, cwd=ROOT, env=env)
    return _server


@pytest.fixture(scope="module", autouse=True)
def _stop_case_server():
    yield
    if _server is not None:
        _server.stdin.close()
        _server.wait(timeout=30)


def run_capped(name: str, code: str, headroom: int = HEADROOM) -> dict:
    """Run ``code`` (it may set ``result``) in a capped child process; returns outcome/seconds/growth."""
    server = _case_server()
    server.stdin.write(json.dumps({"headroom": headroom, "code": code, "timeout": TIMEOUT_S}) + "\n")
    server.stdin.flush()
    line = server.stdout.readline()
    assert line, f"{name}: the case server died (exit {server.poll()})"
    reply = json.loads(line)
    if reply["timed_out"]:
        pytest.fail(f"{name}: still running after {TIMEOUT_S} s (a hang or a super-linear scan)")
    assert reply["report"], f"{name}: the case died without a report (wait status {reply['status']})"
    report = json.loads(reply["report"])
    _REPORT[name] = (report["growth_mb"], report["seconds"], report["outcome"][:90])
    assert "TRACEBACK" not in report["outcome"], report["outcome"]
    assert report["outcome"] != "MemoryError", f"{name}: ran out of memory under the cap"
    return report


def expect_error(name: str, code: str, kind: str, match: str, max_growth_mb: float = 100) -> dict:
    report = run_capped(name, code)
    assert report["outcome"].startswith(kind + ":"), report["outcome"]
    assert match.lower() in report["outcome"].lower(), report["outcome"]
    assert report["growth_mb"] < max_growth_mb, report
    return report


# ---- files that are not files --------------------------------------------------------------------
@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.mark.parametrize("name", ["config.json", "model.safetensors.index.json"])
def test_config_or_index_linked_to_dev_zero_is_refused(tmp_path, name):
    folder = tmp_path / "model"
    folder.mkdir()
    os.symlink("/dev/zero", folder / name)
    target = folder / name
    expect_error(f"{name} -> /dev/zero", f"from peapp.checkpoints import reader\n"
                 f"reader.read_json({str(target)!r}, 'config')", "CheckpointError", "device")
    expect_error(f"inspect folder with {name} -> /dev/zero",
                 f"from peapp.checkpoints import inspect\ninspect({str(folder)!r})", "CheckpointError", "")


def test_fifo_config_is_refused_without_blocking(fifo):
    expect_error("config.json FIFO (reader)", f"from peapp.checkpoints import reader\n"
                 f"reader.read_json({str(fifo)!r}, 'config')", "CheckpointError", "named pipe")
    expect_error("config.json FIFO (RoPE Load config.json)", f"from peapp.encodings import rope\n"
                 f"rope.read_config_file({str(fifo)!r})", "CheckpointError", "named pipe")


def test_session_and_figure_paths_that_are_not_regular_files(fifo, tmp_path):
    for label, path in (("FIFO", fifo), ("/dev/zero", "/dev/zero"), ("folder", tmp_path)):
        expect_error(f"Open Session on {label}", f"from peapp.export_data import document_from_file\n"
                     f"document_from_file({str(path)!r})", "DocumentError", "")
        expect_error(f"Document.load on {label}", f"from peapp.document import Document\n"
                     f"Document.load({str(path)!r})", "DocumentError", "")


def test_time_series_path_from_a_session_that_is_not_a_regular_file(fifo):
    """The time-series dock peeks at the path a session names, on the GUI thread."""
    for label, path in (("FIFO", fifo), ("/dev/zero", "/dev/zero")):
        expect_error(f"time-series peek on {label}", f"from peapp.analysis import timeseries as ts\n"
                     f"ts.peek_columns({str(path)!r})", "DataFileError", "regular files only")
        expect_error(f"time-series load on {label}", f"from peapp.analysis import timeseries as ts\n"
                     f"ts.load_csv({str(path)!r}, 't')", "DataFileError", "regular files only")


def test_vocabulary_file_linked_to_dev_zero(tmp_path):
    os.symlink("/dev/zero", tmp_path / "tokenizer.json")
    expect_error("tokenizer.json -> /dev/zero", f"from peapp.analysis.checkpoint_tables import read_vocabulary\n"
                 f"read_vocabulary({str(tmp_path / 'tokenizer.json')!r})", "ParameterError", "device")


# ---- config.json values ------------------------------------------------------------------------------
LLAMA = {"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "max_position_embeddings": 2048,
         "rope_theta": 10000.0}


def _write(tmp_path, name, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


@pytest.mark.parametrize("label, config, match", [
    ("rope_theta abc", {**LLAMA, "rope_theta": "abc"}, "rope_theta must be a number"),
    ("partial_rotary_factor 1e999", {**LLAMA, "partial_rotary_factor": "INF"}, "partial_rotary_factor"),
    ("rope_type a list", {**LLAMA, "rope_scaling": {"rope_type": ["yarn"], "factor": 2.0}}, "rope_type"),
    ("num_attention_heads 0", {**{k: v for k, v in LLAMA.items()}, "num_attention_heads": 0},
     "num_attention_heads must be at least 1"),
    ("yarn original 0", {**LLAMA, "rope_scaling": {"rope_type": "yarn", "factor": 4.0,
                                                    "original_max_position_embeddings": 0}},
     "original_max_position_embeddings must be at least 1"),
])
def test_wrong_rope_values_are_clear_errors_in_both_readers(tmp_path, label, config, match):
    text = json.dumps(config).replace('"INF"', "1e999")  # json.dumps cannot write 1e999 itself
    path = _write(tmp_path, "config.json", text)
    expect_error(f"Load config.json: {label}", f"from peapp.encodings import rope\nrope.read_config_file({path!r})",
                 "CheckpointError", match)
    # detection (peapp inspect, the Checkpoint panel) reports it as a warning and goes on
    report = run_capped(f"inspect: {label}", f"from peapp.checkpoints import inspect\n"
                        f"r = inspect({path!r})\nresult = r.warnings")
    assert match.split()[0] in report["outcome"], report["outcome"]


def test_a_400_digit_rope_theta(tmp_path):
    path = _write(tmp_path, "config.json", json.dumps(LLAMA).replace("10000.0", "9" * 400))
    expect_error("rope_theta 400 digits (RoPE)", f"from peapp.encodings import rope\nrope.read_config_file({path!r})",
                 "CheckpointError", "more than 40 digits")
    expect_error("rope_theta 400 digits (inspect)", f"from peapp.checkpoints import inspect\ninspect({path!r})",
                 "CheckpointError", "more than 40 digits")


@pytest.mark.parametrize("label, config, match", [
    ("BLOOM n_head -4", {"model_type": "bloom", "n_head": -4, "hidden_size": 64}, "n_head must be at least 1"),
    ("BLOOM n_head 1e12", {"model_type": "bloom", "n_head": 1e12, "hidden_size": 64}, "n_head must be at most"),
    ("MPT alibi_bias_max x", {"model_type": "mpt", "n_heads": 8, "attn_config": {"alibi": True,
                                                                                 "alibi_bias_max": "x"}},
     "alibi_bias_max must be a number"),
])
def test_alibi_values_from_a_config_are_checked_before_allocating(tmp_path, label, config, match):
    path = _write(tmp_path, "config.json", json.dumps(config))
    report = run_capped(f"inspect: {label}", f"from peapp.checkpoints import inspect\n"
                        f"r = inspect({path!r})\nresult = [c.summary for c in r.components] + list(r.warnings)")
    assert report["outcome"].startswith("ok:") and match in report["outcome"], report["outcome"]
    assert report["growth_mb"] < 50, report


def test_alibi_builders_check_head_counts():
    from peapp.checkpoints.detect import alibi_slopes
    from peapp.encodings import alibi
    from peapp.errors import CheckpointError, ParameterError

    with pytest.raises(CheckpointError, match="at most 4,096|at most 4096"):
        alibi_slopes(10**12)
    with pytest.raises(CheckpointError, match="at least 1"):
        alibi_slopes(-4)
    with pytest.raises(ParameterError, match="whole number"):
        alibi.slopes(2.5)
    assert len(alibi_slopes(12)) == 12 and alibi.slopes(12).shape == (12,)


def test_deep_nesting_and_huge_config(tmp_path):
    deep = _write(tmp_path, "deep.json", "[" * 100_000 + "]" * 100_000)
    expect_error("config 100k-deep (RoPE)", f"from peapp.encodings import rope\nrope.read_config_file({deep!r})",
                 "CheckpointError", "nests too deeply")
    expect_error("config 100k-deep (inspect)", f"from peapp.checkpoints import inspect\ninspect({deep!r})",
                 "CheckpointError", "nests too deeply")
    huge = tmp_path / "config.json"
    with open(huge, "wb") as fh:  # 100 MB, sparse: the size alone must refuse it, nothing is read
        fh.write(b'{"a": "')
        fh.truncate(100 * 1024 * 1024)
    report = expect_error("config 100 MB (RoPE)", f"from peapp.encodings import rope\n"
                          f"rope.read_config_file({str(huge)!r})", "CheckpointError", "MiB")
    assert report["growth_mb"] < 20
    expect_error("config 100 MB (inspect)", f"from peapp.checkpoints import inspect\ninspect({str(huge)!r})",
                 "CheckpointError", "MiB", max_growth_mb=20)


# ---- shared figures and sessions ------------------------------------------------------------------------
def test_crafted_pdf_metadata_is_scanned_in_linear_time(tmp_path):
    """The old XMP regex was cubic in the number of unclosed tags: 14 KB took 8 s, this 200 KB
    file would take hours.  The scan is linear; the subprocess's timeout catches a regression."""
    path = tmp_path / "crafted.pdf"
    path.write_bytes(b"%PDF-1.4\n" + b"<dc:description><rdf:li>" * 8000)
    report = expect_error("crafted 200 KB PDF", f"from peapp.export_data import document_from_file\n"
                          f"document_from_file({str(path)!r})", "DocumentError", "carries no peapp parameters")
    assert report["seconds"] < TIMEOUT_S


def _png(*chunks: tuple[bytes, bytes]) -> bytes:
    out = b"\x89PNG\r\n\x1a\n"
    for kind, body in chunks + ((b"IEND", b""),):
        out += struct.pack(">I4s", len(body), kind) + body + struct.pack(">I", zlib.crc32(kind + body))
    return out


def test_png_text_chunk_bomb_is_inflated_with_a_limit(tmp_path):
    squeezer = zlib.compressobj(9)
    zeros = b"\0" * (1 << 24)
    bomb = b"".join(squeezer.compress(zeros) for _ in range(64)) + squeezer.flush()  # 1 GiB inflated
    assert len(bomb) < 2 * 1024 * 1024
    path = tmp_path / "bomb.png"
    path.write_bytes(_png((b"zTXt", b"peapp\0\0" + bomb)))
    expect_error("PNG zTXt 1 MB -> 1 GiB", f"from peapp.export_data import document_from_file\n"
                 f"document_from_file({str(path)!r})", "DocumentError", "inflates to more than", max_growth_mb=80)
    path.write_bytes(_png((b"iTXt", b"peapp\0\1\0\0\0" + bomb)))
    expect_error("PNG iTXt 1 MB -> 1 GiB", f"from peapp.export_data import document_from_file\n"
                 f"document_from_file({str(path)!r})", "DocumentError", "inflates to more than", max_growth_mb=80)


def _session(views=None, params=None) -> dict:
    return {"app": "peapp", "version": 1, "family": "sinusoidal", "params": params or {}, "views": views or {},
            "checkpoint": None}


def test_session_json_limits(tmp_path):
    big = json.dumps(_session({"attentionDock": {"seq_len": 1}})).replace('"seq_len": 1', '"seq_len": ' + "9" * 400)
    path = _write(tmp_path, "big.json", big)
    expect_error("session 400-digit value", f"from peapp.document import Document\nDocument.load({path!r})",
                 "DocumentError", "more than 40 digits")
    deep = json.dumps(_session({"attentionDock": {"seq_len": "X"}})).replace('"X"', "[" * 50_000 + "]" * 50_000)
    path = _write(tmp_path, "deep.json", deep)
    expect_error("session 50,000-deep", f"from peapp.document import Document\nDocument.load({path!r})",
                 "DocumentError", "nests too deeply")
    expect_error("session 50,000-deep (Open Session)", f"from peapp.export_data import document_from_file\n"
                 f"document_from_file({path!r})", "DocumentError", "nests too deeply")
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as fh:
        fh.truncate(40 * 1024 * 1024)
    expect_error("session 40 MB", f"from peapp.document import Document\nDocument.load({str(huge)!r})",
                 "DocumentError", "MiB", max_growth_mb=20)


def test_session_with_a_wrong_typed_view_value_gives_one_line_from_render(tmp_path):
    """``render --session`` with ``seq_len: "lots"``: one line on stderr, never a traceback."""
    path = _write(tmp_path, "s.json", json.dumps(_session({"attentionDock": {"seq_len": "lots"}})))
    env = {**os.environ, "PYTHONPATH": ROOT, "OMP_NUM_THREADS": "1", "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.run([sys.executable, "-m", "peapp", "render", "--session", path, "--view", "attention",
                           "-o", str(tmp_path / "a.png")], capture_output=True, text=True, cwd=ROOT,
                          timeout=TIMEOUT_S, env=env)
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    if proc.returncode != 0:
        assert proc.returncode in (2, 3) and len(proc.stderr.strip().splitlines()) == 1, proc.stderr


# ---- time-series CSV ---------------------------------------------------------------------------------
def test_a_300_mb_single_line_csv_is_refused_in_bounded_memory(tmp_path):
    path = tmp_path / "one_line.csv"
    with open(path, "wb") as fh:
        chunk = b"1," * (1 << 20)
        for _ in range(150):  # 300 MiB, one line
            fh.write(chunk)
    try:
        expect_error("CSV one 300 MB line (load)", f"from peapp.analysis import timeseries as ts\n"
                     f"ts.load_csv({str(path)!r}, '1')", "DataFileError", "longer than", max_growth_mb=60)
        expect_error("CSV one 300 MB line (peek)", f"from peapp.analysis import timeseries as ts\n"
                     f"ts.peek_columns({str(path)!r})", "DataFileError", "longer than", max_growth_mb=60)
    finally:
        path.unlink()


def test_unix_times_beyond_year_9999_are_bad_rows():
    import io

    from peapp.analysis import timeseries as ts
    from peapp.errors import DataFileError

    text = "t,v\n1e15,1\n1700000000,2\n1700003600,3\n"
    series = ts.parse_csv(io.StringIO(text), "t", "v", number_unit="unix_seconds")
    assert len(series) == 2 and series.bad_count == 1
    assert "outside the years 1–9999" in str(series.bad_rows[0]) and series.bad_rows[0].line == 2
    with pytest.raises(DataFileError, match="outside the years"):
        ts.parse_csv(io.StringIO("t\n1e15\n2e15\n"), "t", number_unit="unix_seconds")
    # elapsed (non-calendar) seconds have no calendar to fall off
    assert len(ts.parse_csv(io.StringIO("t\n1e15\n2e15\n"), "t", number_unit="seconds")) == 2


# ---- checkpoints ---------------------------------------------------------------------------------------
def _gguf_with_tensor(dims: list[int]) -> bytes:
    def s(b: bytes) -> bytes:
        return struct.pack("<Q", len(b)) + b

    kv = s(b"general.architecture") + struct.pack("<I", 8) + s(b"llama")
    tensor = s(b"position_embd.weight") + struct.pack("<I", len(dims)) + b"".join(struct.pack("<Q", d) for d in dims)
    tensor += struct.pack("<IQ", 0, 0)  # F32 at offset 0
    body = b"GGUF" + struct.pack("<IQQ", 3, 1, 1) + kv + tensor
    return body + b"\0" * (-len(body) % 32) + b"\0" * 64


@pytest.mark.parametrize("dims, match", [([], "no dimensions"), ([4, 0], "length 0")])
def test_gguf_tensor_without_dimensions_is_refused_at_the_header(tmp_path, dims, match):
    from peapp.checkpoints import gguf_format
    from peapp.errors import CheckpointError

    path = tmp_path / "t.gguf"
    path.write_bytes(_gguf_with_tensor(dims))
    with pytest.raises(CheckpointError, match=match):
        gguf_format.read(str(path))
    path.write_bytes(_gguf_with_tensor([4, 2]))  # the same file with a real shape opens
    _, tensors = gguf_format.read(str(path))
    assert tensors["position_embd.weight"].shape == (2, 4)


def test_loading_an_f32_safetensors_tensor_holds_one_copy(tmp_path):
    import numpy as np
    from safetensors.numpy import save_file

    path = tmp_path / "big.safetensors"
    save_file({"wpe.weight": np.ones((64 * 1024, 1024), dtype=np.float32)}, str(path))  # 256 MiB
    report = run_capped("F32 safetensors 256 MiB load", f"from peapp.checkpoints import open_checkpoint\n"
                        f"t = open_checkpoint({str(path)!r}).load('wpe.weight')\nresult = float(t[-1, -1])")
    assert report["outcome"] == "ok: 1.0", report
    assert report["growth_mb"] < 256 * 1.25, report  # was 2 × 256 MiB


def test_learned_table_peak_matches_its_estimate():
    # 384 MiB each: two do not fit the 512 MiB cache, so the first must go before the second is built
    code = ("from peapp.encodings import learned\n"
            "for seed in (0, 1):\n"
            "    learned.table_for(learned.LearnedSpec(n_positions=50, max_positions=8192, d_model=12288, seed=seed))\n"
            "result = len(learned._cache)")
    report = run_capped("learned 8192 x 12288 twice (384 MiB each)", code, headroom=2 * HEADROOM)
    assert report["outcome"] == "ok: 1", report
    assert report["growth_mb"] < 384 * 1.25, report  # was 3× (randn * std, then the previous table kept)


# ---- memory budget ---------------------------------------------------------------------------------------
def _cgroup_tree(tmp_path, lines: str, files: dict[str, str]):
    proc = tmp_path / "cgroup"
    proc.write_text(lines)
    root = tmp_path / "sys"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return str(proc), str(root)


def test_cgroup_v2_and_v1_limits_are_read(tmp_path):
    from peapp.memory import cgroup_room

    mib = 1024 * 1024
    (tmp_path / "v2").mkdir()
    proc, root = _cgroup_tree(tmp_path / "v2", "0::/user/app\n", {
        "cgroup.controllers": "memory",
        "user/app/memory.max": str(512 * mib), "user/app/memory.current": str(200 * mib),
        "user/app/memory.stat": f"anon 1\ninactive_file {50 * mib}\n",
        "user/memory.max": str(300 * mib), "user/memory.current": str(250 * mib),
        "memory.max": "max"})
    assert cgroup_room(proc, root) == 50 * mib  # the parent's limit is the tighter one
    (tmp_path / "v1").mkdir()
    proc, root = _cgroup_tree(tmp_path / "v1", "4:memory:/job\n0::/\n", {
        "memory/job/memory.limit_in_bytes": str(1024 * mib), "memory/job/memory.usage_in_bytes": str(24 * mib),
        "memory/memory.limit_in_bytes": str(9223372036854771712)})
    assert cgroup_room(proc, root) == 1000 * mib
    (tmp_path / "none").mkdir()
    proc, root = _cgroup_tree(tmp_path / "none", "0::/\n", {"cgroup.controllers": "", "memory.max": "max"})
    assert cgroup_room(proc, root) is None


def test_budget_respects_rlimit_as():
    code = ("import resource\nfrom peapp import memory\n"
            "soft, hard = resource.getrlimit(resource.RLIMIT_AS)\n"
            "result = (memory.rlimit_room(), memory.budget_bytes(), soft)")
    report = run_capped("budget under RLIMIT_AS", code, headroom=300 * 1024 * 1024)
    room, budget, _ = json.loads(report["outcome"][4:].replace("(", "[").replace(")", "]"))
    assert 0 < room <= 300 * 1024 * 1024 and budget <= room // 2 + 1


# ---- output ------------------------------------------------------------------------------------------------
def test_exports_get_the_users_permissions(tmp_path):
    from peapp import export_data

    old = os.umask(0o022)
    try:
        new = tmp_path / "new.json"
        export_data.write_bytes(new, b"{}")
        assert stat.S_IMODE(os.stat(new).st_mode) == 0o644
        kept = tmp_path / "kept.json"
        kept.write_bytes(b"old")
        os.chmod(kept, 0o640)
        export_data.write_bytes(kept, b"{}", overwrite=True)
        assert stat.S_IMODE(os.stat(kept).st_mode) == 0o640 and kept.read_bytes() == b"{}"
        os.umask(0o077)
        private = tmp_path / "private.json"
        export_data.write_bytes(private, b"{}")
        assert stat.S_IMODE(os.stat(private).st_mode) == 0o600
    finally:
        os.umask(old)


def test_force_over_a_symlink_replaces_the_file_it_points_to(tmp_path):
    from peapp import export_data
    from peapp.fileio import ExportError

    target = tmp_path / "real" / "figure.json"
    target.parent.mkdir()
    target.write_bytes(b"old")
    os.chmod(target, 0o644)
    link = tmp_path / "link.json"
    os.symlink(target, link)
    with pytest.raises(ExportError, match="already exist"):
        export_data.write_bytes(link, b"new")
    export_data.write_bytes(link, b"new", overwrite=True)
    assert os.path.islink(link) and target.read_bytes() == b"new"
    assert stat.S_IMODE(os.stat(target).st_mode) == 0o644
    assert sorted(os.listdir(target.parent)) == ["figure.json"]  # no temp file left behind
    os.symlink("/dev/null", tmp_path / "dev.json")
    with pytest.raises(ExportError, match="not a regular file"):
        export_data.write_bytes(tmp_path / "dev.json", b"x", overwrite=True)
    dangling = tmp_path / "dangling.json"
    os.symlink(tmp_path / "nowhere.json", dangling)
    with pytest.raises(ExportError, match="already exist"):
        export_data.write_bytes(dangling, b"x")


def test_inspect_escapes_names_from_the_file(tmp_path, capsys):
    import torch
    from safetensors.torch import save_file

    from peapp.cli import main

    evil = "wpe\x1b]0;owned\x07\x1b[2J\u202egnp.exe.weight"
    save_file({evil: torch.zeros(4, 2), "transformer.wpe.weight": torch.zeros(4, 2)}, str(tmp_path / "m.safetensors"))
    assert main(["inspect", str(tmp_path / "m.safetensors")]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\u202e" not in out and "\x07" not in out
    assert "\\x1b]0;owned\\x07" in out and "\\u202e" in out
    assert main(["inspect", "--json", str(tmp_path / "m.safetensors")]) == 0
    assert "\x1b" not in capsys.readouterr().out


def test_cli_turns_the_unexpected_into_one_line(monkeypatch, capsys):
    from peapp import cli
    from peapp.commands import inspect as inspect_command

    def boom(args):
        raise KeyError("surprise")

    monkeypatch.setattr(inspect_command, "run", boom)
    assert cli.main(["inspect", "x"]) == 3
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "internal error (KeyError" in err and "Traceback" not in err

    def oom(args):
        raise MemoryError("Unable to allocate 3.9 GiB for an array with shape (1000000000000,)")

    monkeypatch.setattr(inspect_command, "run", oom)
    assert cli.main(["inspect", "x"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "out of memory" in err and "3.9 GiB" in err and "can spare about" in err


def test_zz_blowups_report(capsys):
    """Runs last in this module: the peak resident growth and time of every case above."""
    with capsys.disabled():
        print("\nhostile cases (peak RSS growth MB, seconds, outcome):")
        for name, (growth, seconds, outcome) in _REPORT.items():
            print(f"  {name:48s} {growth:8.1f} MB {seconds:7.3f} s  {outcome}")
