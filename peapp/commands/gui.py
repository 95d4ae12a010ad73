"""``peapp gui [PATH]``: start the desktop app (the same as ``python main.py``)."""

from __future__ import annotations

import argparse

NAME = "gui"
HELP = "start the desktop app, optionally opening a checkpoint, config or session file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", default=None, help="file or folder to open (default: none, the app starts with the sinusoidal table)")


def run(args: argparse.Namespace) -> int:
    # The only place peapp/ reaches into ui/, and only when asked to start the GUI.
    import importlib

    return importlib.import_module("ui.app").main([args.path] if args.path else [])
