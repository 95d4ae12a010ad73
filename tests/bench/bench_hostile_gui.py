"""How long the GUI thread is blocked while opening hostile files (issue 19).

A 10 ms QTimer heartbeat runs on the GUI thread; for each case the largest gap between beats
while the action runs (and the worker finishes what it started) is the longest the GUI froze.
Run:  QT_QPA_PLATFORM=offscreen python tests/bench/bench_hostile_gui.py   (prints one line per case)
"""

from __future__ import annotations

import json
import os
import struct
import sys
import tempfile
import time
import zlib

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def _png(*chunks):
    out = b"\x89PNG\r\n\x1a\n"
    for kind, body in chunks + ((b"IEND", b""),):
        out += struct.pack(">I4s", len(body), kind) + body + struct.pack(">I", zlib.crc32(kind + body))
    return out


def _session(views):
    return json.dumps({"app": "peapp", "version": 1, "family": "sinusoidal", "params": {}, "views": views,
                       "checkpoint": None})


def make_files(folder: str) -> dict[str, str]:
    p = lambda name: os.path.join(folder, name)  # noqa: E731
    files = {}
    fifo = p("pipe")
    os.mkfifo(fifo)
    with open(p("crafted.pdf"), "wb") as fh:
        fh.write(b"%PDF-1.4\n" + b"<dc:description><rdf:li>" * 8000)
    files["crafted 200 KB PDF"] = p("crafted.pdf")
    squeezer = zlib.compressobj(9)
    bomb = b"".join(squeezer.compress(b"\0" * (1 << 24)) for _ in range(64)) + squeezer.flush()
    with open(p("bomb.png"), "wb") as fh:
        fh.write(_png((b"zTXt", b"peapp\0\0" + bomb)))
    files["PNG zTXt bomb (1 MB -> 1 GiB)"] = p("bomb.png")
    with open(p("deep.json"), "w") as fh:
        fh.write(_session({"x": {"y": "X"}}).replace('"X"', "[" * 50_000 + "]" * 50_000))
    files["session 50,000-deep"] = p("deep.json")
    with open(p("digits.json"), "w") as fh:
        fh.write(_session({"attentionDock": {"seq_len": 1}}).replace('"seq_len": 1', '"seq_len": ' + "9" * 400))
    files["session 400-digit value"] = p("digits.json")
    with open(p("max.json"), "w") as fh:  # the largest session accepted: 4 MiB of padding
        fh.write(_session({"x": {"pad": "a" * (4 * 1024 * 1024 - 200)}}))
    files["session 4 MiB (at the cap)"] = p("max.json")
    files["session path is a FIFO"] = fifo
    files["session path is /dev/zero"] = "/dev/zero"
    with open(p("one_line.csv"), "wb") as fh:
        for _ in range(150):
            fh.write(b"1," * (1 << 20))
    for label, path in (("FIFO", fifo), ("/dev/zero", "/dev/zero"), ("300 MB one-line CSV", p("one_line.csv"))):
        name = p(f"ts-{len(files)}.json")
        with open(name, "w") as fh:
            fh.write(_session({"timeSeriesDock": {"path": path, "time_column": "t"}}))
        files[f"session naming a time series: {label}"] = name
    files["config: FIFO"] = fifo
    with open(p("deep_config.json"), "w") as fh:
        fh.write("[" * 100_000 + "]" * 100_000)
    files["config: 100k-deep"] = p("deep_config.json")
    with open(p("big_config.json"), "wb") as fh:
        fh.write(b'{"a": "')
        fh.truncate(100 * 1024 * 1024)
    files["config: 100 MB"] = p("big_config.json")
    with open(p("max_config.json"), "w") as fh:  # the largest accepted config: 4 MiB
        fh.write(json.dumps({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4,
                             "pad": "a" * (4 * 1024 * 1024 - 200)}))
    files["config: 4 MiB (at the cap)"] = p("max_config.json")
    with open(p("abc_config.json"), "w") as fh:
        fh.write(json.dumps({"model_type": "llama", "hidden_size": 256, "num_attention_heads": 4,
                             "rope_theta": "abc"}))
    files["config: rope_theta abc"] = p("abc_config.json")
    return files


def main() -> int:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication

    from ui.main_window import MainWindow

    app = QApplication.instance() or QApplication([sys.argv[0]])
    window = MainWindow(load_backend="now", settings=None)
    window.show()
    actions = window.export_actions
    errors: list[str] = []
    actions.show_error = lambda title, message: errors.append(message)  # no modal box in a benchmark
    spectrum = window.docks["spectrumDock"]
    window.wait_until_idle(app.processEvents)

    beats = [time.monotonic()]
    worst = [0.0]

    def beat() -> None:
        now = time.monotonic()
        worst[0] = max(worst[0], now - beats[0])
        beats[0] = now

    timer = QTimer()
    timer.setInterval(10)
    timer.timeout.connect(beat)
    timer.start()

    def measure(action) -> float:
        end = time.monotonic() + 0.2
        while time.monotonic() < end:  # settle
            app.processEvents()
            time.sleep(0.002)
        beats[0], worst[0] = time.monotonic(), 0.0
        QTimer.singleShot(0, action)
        end = time.monotonic() + 0.5
        while time.monotonic() < end or window.worker.is_busy():
            app.processEvents()
            time.sleep(0.002)
        return worst[0] * 1000

    with tempfile.TemporaryDirectory() as folder:
        files = make_files(folder)
        print(f"load {open('/proc/loadavg').read().split()[:3]}")
        for label, path in files.items():
            errors.clear()
            if label.startswith("config"):
                ms = measure(lambda p=path: spectrum.load_config(p))
                said = spectrum.error_label.text()
            else:
                ms = measure(lambda p=path: actions.open_session(p))
                said = errors[-1] if errors else window.statusBar().currentMessage()
            flag = "OVER 100 ms" if ms > 100 else "ok"
            print(f"{label:45s} GUI blocked at most {ms:7.1f} ms  {flag:11s} {said[:110]!r}")
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
