"""A core command's ``-o FIGURE``: drawn by the desktop app's ``render`` command from a session
that names the saved numbers (``peapp probe … -o``, ``peapp cost -o``), so a command-line figure
is the panel's own, as its File > Export draws it, and reopens there without measuring again."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import tempfile

from peapp.errors import ParameterError


def add_figure_arguments(p: argparse.ArgumentParser, what: str) -> None:
    """``-o FIGURE``, ``--size``, ``--force`` and ``--lang``; ``what`` names the figure in the help."""
    p.add_argument("-o", "--output", default=None, metavar="FIGURE",
                   help=f"draw {what} (.png .svg .pdf) through the desktop app's renderer "
                        "(default: none, print numbers)")
    p.add_argument("--size", default="1000x700", metavar="WxH", help="with -o: figure size in logical pixels")
    p.add_argument("--force", action="store_true", help="with -o: replace an existing output file")
    p.add_argument("--lang", default="en", choices=("en", "hi"),
                   help="with -o: the language of the figure's title, axis labels and legend (en: English, "
                        "hi: Hindi), as `peapp render --lang`")


def app_renderer(view: str, panel: str):
    """The desktop app's ``render`` command, if it can draw ``view`` (``panel`` draws it)."""
    from importlib.metadata import entry_points

    from peapp.cli import ENTRY_POINT_GROUP

    points = [p for p in entry_points(group=ENTRY_POINT_GROUP) if p.name == "render"]
    if not points:
        raise ParameterError("-o needs the desktop app (peapp's `render` command), which is not installed; "
                             "use --json for the numbers.")
    renderer = points[0].load()
    parser = argparse.ArgumentParser()
    renderer.add_arguments(parser)
    listing = io.StringIO()
    with contextlib.redirect_stdout(listing):
        renderer.run(parser.parse_args(["--list-views"]))
    if view not in {line.split("\t")[0] for line in listing.getvalue().splitlines()}:
        raise ParameterError(f"-o: this install's desktop app has no {view!r} figure (the {panel} draws it); "
                             f"use --json for the numbers.")
    return renderer


def render_session(renderer, view: str, document, args: argparse.Namespace) -> int:
    """Draw ``view`` of ``document`` to ``args.output`` (with its --size, --lang, --force)."""
    handle, session = tempfile.mkstemp(suffix=".json", prefix="peapp-figure-")
    os.close(handle)
    try:
        document.save(session)
        parser = argparse.ArgumentParser()
        renderer.add_arguments(parser)
        lang = getattr(args, "lang", None)  # `peapp run --view` draws in the app's language
        render_args = parser.parse_args([view, "--session", session, "-o", args.output, "--size", args.size]
                                        + (["--lang", lang] if lang else []) + (["--force"] if args.force else []))
        return int(renderer.run(render_args) or 0)
    finally:
        os.unlink(session)
