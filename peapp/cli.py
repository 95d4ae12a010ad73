"""The ``peapp`` command line: ``peapp SUBCOMMAND …`` (also ``python -m peapp``).

A subcommand is a module that provides ``NAME``, ``HELP``, ``add_arguments(parser)`` and
``run(args) -> int``, and optionally ``start_early(argv)`` (see ``_start_early``).  The core's own (``inspect``, ``extrapolate``) live under
``peapp/commands/`` and are listed in ``CORE_COMMANDS``; installed packages add theirs through
the entry-point group ``peapp.commands`` (the desktop app declares ``gui`` and ``render`` in
pyproject.toml, implemented in ``ui/commands/``), so the core never imports the GUI.
Errors the user can cause exit 2 with one line on stderr; running out of memory says how much
this machine can spare (exit 2); anything unexpected (a bug) is one line and exit 3 —
``PEAPP_DEBUG=1`` prints the traceback as well.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from importlib.metadata import entry_points
from types import ModuleType
from typing import NoReturn

from peapp import __version__
from peapp.errors import PeappError

CORE_COMMANDS = (
    "peapp.commands.inspect",
    "peapp.commands.extrapolate",
    "peapp.commands.lab",
    "peapp.commands.run",
    "peapp.commands.probe",
    "peapp.commands.cost",
    "peapp.commands.temperature",
)
ENTRY_POINT_GROUP = "peapp.commands"  # value: a module path, e.g. "ui.commands.render"


class HelpFormatter(argparse.ArgumentDefaultsHelpFormatter):
    """Every option's help ends with its default; an option whose help already says its
    default in words (``default: eval/train``) is not given a second, literal one."""

    def _get_help_string(self, action: argparse.Action) -> str:
        text = action.help or ""
        if "(default" in text:
            return text
        return super()._get_help_string(action) or ""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one clear line, exit 2 (argparse prints usage too)
        self.exit(2, f"{self.prog}: error: {message}\n")


def build_parser(modules: list[ModuleType] | None = None) -> argparse.ArgumentParser:
    parser = _Parser(prog="peapp", description="Positional Encoding Explorer: see, compare and measure how "
                     "transformers encode position.", formatter_class=HelpFormatter)
    parser.add_argument("--version", action="version", version=f"peapp {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for module in commands() if modules is None else modules:
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.HELP, formatter_class=HelpFormatter)
        module.add_arguments(p)
        p.set_defaults(_run=module.run, _ends_fast=getattr(module, "ENDS_WITHOUT_TEARDOWN", False))
    return parser


def commands() -> list[ModuleType]:
    """The subcommand modules: the core's, then those installed packages declare, by name.

    A declared command whose module cannot be imported (its package half-installed) is left
    out with one line on stderr, so the core's commands keep working.
    """
    modules = {module.NAME: module for module in map(importlib.import_module, CORE_COMMANDS)}
    for point in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda p: p.name):
        if point.name in modules:
            continue  # a package never replaces a core command (nor, installed twice, itself)
        try:
            module = point.load()
        except ImportError as exc:
            print(f"peapp: command {point.name!r} unavailable ({point.value}: {exc})", file=sys.stderr)
            continue
        modules[module.NAME] = module
    return list(modules.values())


_end_fast = False  # the command run by main() declared ENDS_WITHOUT_TEARDOWN (see run())


def main(argv: list[str] | None = None) -> int:
    global _end_fast
    argv = sys.argv[1:] if argv is None else list(argv)
    modules = commands()
    parser = build_parser(modules)
    _start_early(modules, argv)
    args = parser.parse_args(argv)
    _end_fast = bool(getattr(args, "_ends_fast", False))
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except PeappError as exc:
        print(f"peapp {args.command}: {exc}", file=sys.stderr)
        return 2
    except MemoryError as exc:  # an allocation no estimate caught: say how much there is to spare
        from peapp.memory import budget_bytes, human_bytes

        _debug_traceback()
        detail = f" ({str(exc)[:200]})" if str(exc) else ""
        print(f"peapp {args.command}: out of memory{detail}; this machine can spare about "
              f"{human_bytes(budget_bytes())}: choose a smaller size.", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"peapp {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # `peapp inspect … | head`: the reader went away, nothing to say
        try:
            sys.stdout = open(os.devnull, "w")
        except OSError:
            pass
        return 0
    except BaseException as exc:  # a bug: one line, not a traceback (PEAPP_DEBUG=1 shows it)
        # (BaseException: a Rust library's panic (pyo3's PanicException) is one, and passes
        # `except Exception`; SystemExit and KeyboardInterrupt are handled above or re-raised)
        if isinstance(exc, (SystemExit, GeneratorExit)):
            raise
        from peapp.libraries import missing_library

        missing = missing_library(exc)  # a trimmed install: which library, and how to get it
        if missing is not None:
            print(f"peapp {args.command}: {missing}", file=sys.stderr)
            return 2
        _debug_traceback()
        text = str(exc).splitlines()[0][:300] if str(exc) else "no detail"
        print(f"peapp {args.command}: internal error ({type(exc).__name__}: {text}); please report it "
              f"(PEAPP_DEBUG=1 shows the traceback).", file=sys.stderr)
        return 3


def _start_early(modules: list[ModuleType], argv: list[str]) -> None:
    """Let the command named in ``argv`` start slow work that needs none of its arguments before
    they are parsed (a module's optional ``start_early(argv)``; not for ``--help``).  ``peapp
    render`` starts the process that imports torch there: parsing its per-family options took
    0.15-0.18 s (numpy and the encodings registry), all of it on a cold render's critical path."""
    name = next((a for a in argv if not a.startswith("-")), None)  # peapp's own options take no value
    if "-h" in argv or "--help" in argv:
        return
    for module in modules:
        if module.NAME == name and hasattr(module, "start_early"):
            module.start_early(argv)


def run() -> NoReturn:
    """The ``peapp`` command: :func:`main`, then exit.  A command whose module declares
    ``ENDS_WITHOUT_TEARDOWN = True`` (``render``: its files are written and closed when it returns,
    and it keeps no settings) ends without tearing the interpreter down: freeing torch's and Qt's
    objects one by one took 0.3-0.4 s after a ``peapp render``, measured; mypy ends the same way.
    Every other command exits normally (the GUI's settings are written as Qt tears down)."""
    code = main()
    if not _end_fast:
        sys.exit(code)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: started with that descriptor closed (`… >&-`)
                stream.flush()
        except Exception:  # a closed pipe (`peapp render … | head`): nothing to say
            pass
    os._exit(code)


def _debug_traceback() -> None:
    if os.environ.get("PEAPP_DEBUG"):
        import traceback

        traceback.print_exc()


if __name__ == "__main__":  # pragma: no cover
    run()
