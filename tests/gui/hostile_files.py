"""Hostile files for the GUI's read-off-the-GUI-thread tests and benchmark (issue 19), made cheaply.

Each case is (label, kind, path, named): ``named`` are the paths a session names inside; ``kind`` says which GUI action opens it — "session" (File >
Open Session), "config" (the RoPE spectrum's Load config.json), "csv" (the time-series panel's
Open CSV), "image" (the patch grid's image), "checkpoint" (File > Open on a model folder).
Big files are sparse (``truncate``): a 300 MB file costs no disk and no time to make.
"""

from __future__ import annotations

import json
import os
import struct
import zlib

from peapp.document import Document


def png(*chunks: tuple[bytes, bytes]) -> bytes:
    out = b"\x89PNG\r\n\x1a\n"
    for kind, body in chunks + ((b"IEND", b""),):
        out += struct.pack(">I4s", len(body), kind) + body + struct.pack(">I", zlib.crc32(kind + body))
    return out


def _sparse(path: str, head: bytes, size: int) -> str:
    with open(path, "wb") as fh:
        fh.write(head)
        fh.truncate(size)
    return path


def _session(path: str, document: Document) -> str:
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(document.to_json())
    return path


def make_cases(folder: str, bomb_mib: int = 64) -> list[tuple[str, str, str, tuple[str, ...]]]:
    """The hostile cases, written into ``folder``.  ``bomb_mib``: what the PNG text chunk inflates
    to (64 MiB is 32× the 2 MiB cap; the benchmark uses the issue's 1 GiB)."""
    p = lambda name: os.path.join(folder, name)  # noqa: E731
    cases: list[tuple[str, str, str, tuple[str, ...]]] = []
    fifo = p("pipe")
    os.mkfifo(fifo)
    zero_link = p("zero_link.json")
    os.symlink("/dev/zero", zero_link)

    # sessions and figures
    with open(p("crafted.pdf"), "wb") as fh:
        fh.write(b"%PDF-1.4\n" + b"<dc:description><rdf:li>" * 8000)
    cases.append(("crafted PDF (200 KB of unclosed XMP tags)", "session", p("crafted.pdf"), ()))
    squeezer = zlib.compressobj(9)
    block = b"\0" * (1 << 24)
    bomb = b"".join(squeezer.compress(block) for _ in range(max(1, bomb_mib // 16))) + squeezer.flush()
    with open(p("bomb.png"), "wb") as fh:
        fh.write(png((b"zTXt", b"peapp\0\0" + bomb)))
    cases.append((f"PNG zTXt bomb (inflates to {bomb_mib} MiB)", "session", p("bomb.png"), ()))
    cases.append(("session path is a FIFO", "session", fifo, ()))
    cases.append(("session path links to /dev/zero", "session", zero_link, ()))
    with open(p("deep.json"), "w", encoding="utf-8") as fh:
        fh.write(Document().to_json().replace('"views": {}', '"views": {"x": ' + "[" * 50_000 + "]" * 50_000 + "}"))
    cases.append(("session nested 50,000 deep", "session", p("deep.json"), ()))
    cases.append(("session 100 MB (sparse)", "session", _sparse(p("big_session.json"), b'{"app": "peapp", "x": "',
                                                               100 * 2**20), ()))
    one_line = _sparse(p("one_line.csv"), b"t,", 300 * 2**20)  # a 300 MB line (of NULs after "t,")
    for label, target in (("a FIFO", fifo), ("/dev/zero", "/dev/zero"), ("a 300 MB one-line CSV", one_line)):
        document = Document().with_view("timeseries", path=target, time_column="t")
        cases.append((f"session naming {label} as its time series", "session",
                      _session(p(f"ts_{len(cases)}.json"), document), (target,)))
        document = Document().with_view("patch_grid", image_path=target)
        cases.append((f"session naming {label} as its image", "session",
                      _session(p(f"img_{len(cases)}.json"), document), (target,)))
    figure_session = Document().with_view("timeseries", path=fifo, time_column="t").to_json()
    with open(p("figure.png"), "wb") as fh:
        fh.write(png((b"tEXt", b"peapp\0" + figure_session.encode("latin-1"))))
    cases.append(("figure whose embedded session names a FIFO", "session", p("figure.png"), (fifo,)))

    # config.json for the RoPE spectrum
    cases.append(("config is a FIFO", "config", fifo, ()))
    cases.append(("config links to /dev/zero", "config", zero_link, ()))
    with open(p("deep_config.json"), "w", encoding="utf-8") as fh:
        fh.write("[" * 100_000 + "]" * 100_000)
    cases.append(("config nested 100,000 deep", "config", p("deep_config.json"), ()))
    cases.append(("config 100 MB (sparse)", "config", _sparse(p("big_config.json"), b'{"a": "', 100 * 2**20), ()))
    with open(p("abc_config.json"), "w", encoding="utf-8") as fh:
        json.dump({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4, "rope_theta": "abc"}, fh)
    cases.append(("config with rope_theta 'abc'", "config", p("abc_config.json"), ()))

    # time-series CSVs and images opened directly
    cases.append(("CSV: a 300 MB one-line file", "csv", one_line, ()))
    cases.append(("CSV: a FIFO", "csv", fifo, ()))
    cases.append(("image: a FIFO", "image", fifo, ()))
    with open(p("huge.png"), "wb") as fh:  # a header claiming 100,000 × 100,000 pixels
        fh.write(png((b"IHDR", struct.pack(">IIBBBBB", 100_000, 100_000, 8, 2, 0, 0, 0)),
                     (b"IDAT", zlib.compress(b"\0" * 1024))))
    cases.append(("image: 100,000 × 100,000 px header", "image", p("huge.png"), ()))

    # a model folder whose config and index are not regular files
    model = p("model")
    os.mkdir(model)
    os.symlink("/dev/zero", os.path.join(model, "config.json"))
    os.mkfifo(os.path.join(model, "model.safetensors.index.json"))
    cases.append(("model folder: config -> /dev/zero, index a FIFO", "checkpoint", model, ()))
    return cases


def open_case(window, kind: str, path: str) -> None:
    """Start opening ``path`` the way the GUI does for ``kind`` (returns at once: the reading is off-thread)."""
    if kind == "session":
        window.export_actions.open_session(path)
    elif kind == "config":
        window.docks["spectrumDock"].load_config(path)
    elif kind == "csv":
        window.docks["timeSeriesDock"].open_csv(path)
    elif kind == "image":
        window.docks["patchGridDock"].set_image(path)
    elif kind == "checkpoint":
        from ui.checkpoint_actions import open_path

        open_path(window, path)
    else:
        raise ValueError(kind)
