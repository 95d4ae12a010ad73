"""The ``peapp`` command line: ``peapp SUBCOMMAND …`` (also ``python -m peapp``).

Each subcommand lives in its own module under ``peapp/commands/`` and is listed in
``COMMANDS``; a module provides ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``.  Errors the user can cause exit 2 with one line on stderr.
"""

from __future__ import annotations

import argparse
import importlib
import sys

from peapp import __version__
from peapp.errors import PeappError

COMMANDS = (
    "peapp.commands.gui",
    "peapp.commands.inspect",
    "peapp.commands.render",
    "peapp.commands.extrapolate",
    "peapp.commands.run",
)


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's help ends with its default; an option whose help already says its
    default in words (``default: eval/train``) is not given a second, literal one."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "(default" in text:
            return text
        return super()._get_help_string(action)


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one clear line, exit 2 (argparse prints usage too)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="peapp", description="Positional Encoding Explorer: see, compare and measure how "
                     "transformers encode position.", formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"peapp {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in COMMANDS:
        module = importlib.import_module(name)
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP, formatter_class=HelpFormatter)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except PeappError as exc:
        print(f"peapp {args.command}: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
