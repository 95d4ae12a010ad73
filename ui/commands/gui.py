"""``peapp gui [PATH]``: start the desktop app (the same as ``python main.py``).

Declared to ``peapp.cli`` as the ``peapp.commands`` entry point ``gui`` (pyproject.toml)."""

from __future__ import annotations

import argparse

from ui.app import main as start_app  # light: ui.app imports Qt only when it starts the app

NAME = "gui"
HELP = "start the desktop app, optionally opening a checkpoint, config or session file"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", default=None, help="file or folder to open (default: none, the app starts with the sinusoidal table)")
    parser.add_argument("--lang", default=None, help="the interface language for this run: en or hi")


def run(args: argparse.Namespace) -> int:
    return start_app(([args.path] if args.path else []) + (["--lang", args.lang] if args.lang else []))
