"""``python main.py`` reads its command line with argparse: ``--help`` prints the usage, a mistyped
option is refused.  Before, every argument but ``--lang`` was taken as a file to open, so
``main.py --help`` started the app and tried to open a file named "--help"."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _main(*args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY")}
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True,
                          env=env, timeout=120)


def test_help_prints_the_usage_without_starting_the_app():
    done = _main("--help")
    assert done.returncode == 0, done.stderr
    assert "usage: main.py" in done.stdout and "--lang" in done.stdout and "--self-test" in done.stdout


@pytest.mark.parametrize("args, says", [(("--lnag", "hi"), "--lnag"), (("--lang", "fr"), "'fr'"),
                                        (("one", "two"), "two")])
def test_a_mistyped_command_line_is_refused_with_the_usage(args, says):
    done = _main(*args)
    assert done.returncode == 2
    assert "usage: main.py" in done.stderr and says in done.stderr


def test_peapp_gui_passes_the_language_on(monkeypatch):
    from ui.commands import gui

    seen = []
    monkeypatch.setattr(gui, "start_app", lambda argv: seen.append(argv) or 0)
    parser = __import__("argparse").ArgumentParser()
    gui.add_arguments(parser)
    assert gui.run(parser.parse_args(["model.gguf", "--lang", "hi"])) == 0
    assert seen == [["model.gguf", "--lang", "hi"]]
