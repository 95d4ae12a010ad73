"""``peapp render``: draw any view to PNG/SVG/PDF (or export its data) without a display.

    peapp render heatmap --encoding rope --rope-head-dim 64 -o rope.png
    peapp render similarity --set sinusoidal.d_model=64 -o sim.svg
    peapp render --session my.json --view heatmap -o fig.pdf
    peapp render --session my.json --all -o figures/ --format png,svg

View names are discovered from the docks (each dock class's ``view_names``), so a new dock is
renderable without changes here.  Rendering builds the main window with only the one dock the
view needs (the others are placed, so the layout is the GUI's, but make no widgets and compute
nothing), on Qt's offscreen platform, and goes through ``ui.export`` — the code
behind the GUI's File > Export — so a render and a GUI export of the same session give the
same picture.  Only what that view needs is imported: a sinusoid's heatmap never imports
transformers, safetensors or gguf.

Declared to ``peapp.cli`` as the ``peapp.commands`` entry point ``render`` (pyproject.toml).
Qt and torch are imported only when this command runs (``peapp --help`` builds every
subcommand's parser and should not load Qt); per-family options are added to the parser only
when ``render`` itself is parsed, so other subcommands (``peapp gui``) do not pay for them.
The order is measured (docs/DESIGN.md, "Start-up"): first a second process starts, which imports
torch and computes every request (peapp.request_process); this one meanwhile imports Qt and the
dock the view needs and makes the window, and imports torch only if the view's own code needs it
(the attention inspector's does, and a model run is computed here: peapp.jobs.Request.travels).
Where no second process can run, torch loads here: its library on a thread beside the window
being made, then the rest.
"""

from __future__ import annotations

import argparse
import atexit
import os
import sys
from typing import Any

from peapp.errors import ParameterError
from peapp.fileio import ExportError

NAME = "render"
ENDS_WITHOUT_TEARDOWN = True  # peapp.cli.run: every file is written and closed when run() returns
HELP = "draw a view to PNG/SVG/PDF or export its data (CSV/NPY/NPZ), headless, from parameters or a session"

DEFAULT_SIZE = "800x600"
DEFAULT_SCALE = 2.0
WINDOW_SIZE = (1360, 820)  # the window the docks are laid out in (as the GUI's default)
RELAYOUT_ROUNDS = 3  # a view whose size moved once its side results were drawn is computed again, at most so often
RENDER_WAIT_S = 600.0  # a view still computing after this long is an error, not a half-drawn file


def add_arguments(parser: argparse.ArgumentParser) -> None:
    unset = argparse.SUPPRESS  # "not given" (no "(default: None)" in the help); read with getattr
    parser.add_argument("view", nargs="?", default=unset, metavar="VIEW",
                        help="the view to draw, the same as --view (default: none, give a view or --all)")
    parser.add_argument("--view", dest="view_option", default=unset, metavar="VIEW",
                        help="the view to draw (default: none, give a view or --all)")
    parser.add_argument("-o", "--output", default=unset, metavar="PATH",
                        help="output file; its extension picks the format (.png .svg .pdf .csv .npy .npz). "
                             "With --all: a folder (default: none, required)")
    parser.add_argument("--session", default=unset, metavar="FILE",
                        help="start from a session file, an export's JSON sidecar, or a PNG/SVG/PDF exported "
                             "by peapp (its embedded parameters) (default: none, the built-in defaults)")
    parser.add_argument("--results", default=unset, metavar="DIR",
                        help="for the lab view: the results folder of `peapp lab -o DIR` or the Training lab panel; "
                             "for claims-ranking: the folder of `peapp lab --preset ranking -o DIR` "
                             "(default: the panel's folder)")
    parser.add_argument("--all", action="store_true",
                        help="render every view of the session into the folder given by -o")
    parser.add_argument("--format", default="png", metavar="LIST",
                        help="with --all: comma-separated formats to write per view (png,svg,pdf,csv,npy,npz)")
    parser.add_argument("--encoding", default=unset, metavar="FAMILY",
                        help="the encoding family to show (default: the session's, else sinusoidal)")
    parser.add_argument("--set", dest="assignments", action="append", default=unset, metavar="FAMILY.PARAM=VALUE",
                        help="set a parameter; FAMILY. may be left out for the chosen family; repeatable (default: none)")
    parser.add_argument("--size", default=DEFAULT_SIZE, metavar="WxH",
                        help="figure size in logical (on-screen) pixels; SVG/PDF page size at 96 dpi")
    parser.add_argument("--scale", type=float, default=DEFAULT_SCALE,
                        help="PNG pixels per logical pixel (PNG is size × scale pixels, 96·scale dpi)")
    parser.add_argument("--dpi", type=float, default=unset,
                        help="PNG resolution instead of --scale (scale = dpi/96) (default: none, --scale decides)")
    parser.add_argument("--theme", default="light", choices=("light", "dark"),
                        help="light: dark ink on white (papers); dark: light ink on black (slides)")
    parser.add_argument("--force", action="store_true",
                        help="replace existing output files (they keep their permissions; for a symlink the "
                             "file it points to is replaced and the link stays)")
    parser.add_argument("--lang", default="en", choices=("en", "hi"),
                        help="the language of the figures' titles, axis labels and legends (en: English, "
                             "hi: Hindi, drawn with the bundled Noto Sans Devanagari)")
    parser.add_argument("--list-views", action="store_true", help="print the view names and exit")
    parser.__class__ = type("RenderParser", (_FamilyOptions, parser.__class__), {})


class _FamilyOptions:
    """Adds one option per parameter of every family (``--rope-head-dim``) on first use.

    Listing them needs the encoding registry; doing it only when ``peapp render`` is parsed
    keeps every other subcommand fast.  The help also lists the view names, which needs Qt.
    """

    _family_options_added = False

    def _add_family_options(self) -> None:
        if self._family_options_added:
            return
        self._family_options_added = True
        from peapp import encodings

        taken = {s for action in self._actions for s in action.option_strings}
        for fam in encodings.families():
            group = self.add_argument_group(f"{fam.label} parameters (with --encoding {fam.name})")
            for info in fam.spec.param_infos():
                flag = f"--{fam.name}-{info.name}".replace("_", "-")
                if flag in taken:
                    continue
                taken.add(flag)
                extra: dict[str, Any] = {}
                if info.choices:
                    extra["choices"] = list(info.choices)
                    extra["metavar"] = "{" + ",".join(info.choices) + "}"
                limits = ""
                if info.minimum is not None and info.maximum is not None:
                    limits = f", {_number(info.minimum)}…{_number(info.maximum)}"
                text = f"{info.label}: {info.help} (default: {info.default}{limits})".replace("%", "%%")
                extra.setdefault("metavar", info.kind.__name__.upper())
                group.add_argument(flag, dest=f"param:{fam.name}:{info.name}", type=_converter(info),
                                   default=argparse.SUPPRESS, help=text, **extra)

    def parse_known_args(self, args=None, namespace=None):
        self._add_family_options()
        return super().parse_known_args(args, namespace)

    def format_help(self):
        self._add_family_options()
        try:  # list the discovered view names (needs Qt; the help works without it)
            from ui import export

            names = ", ".join(export.all_views())
            for action in self._actions:
                if action.dest in ("view", "view_option") and "Views:" not in (action.help or ""):
                    action.help = f"{action.help}. Views: {names}"
        except ImportError:
            pass
        return super().format_help()


def _number(x: float) -> str:
    return f"{int(x)}" if float(x).is_integer() else f"{x:g}"


def _converter(info):
    def convert(text: str):
        if info.kind is bool:
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise argparse.ArgumentTypeError(f"{info.name} takes true or false, not {text!r}")
        if info.kind is int:
            try:
                return int(text.replace("_", ""))
            except ValueError:
                raise argparse.ArgumentTypeError(f"{info.name} takes a whole number, not {text!r}") from None
        if info.kind is float:
            try:
                return float(text)
            except ValueError:
                raise argparse.ArgumentTypeError(f"{info.name} takes a number, not {text!r}") from None
        return text

    convert.__name__ = info.kind.__name__
    return convert


# ---- building the Document -------------------------------------------------------------------------
def build_document(args: argparse.Namespace):
    """The Document described by --session, --encoding, per-family options and --set (in that order)."""
    from peapp import encodings
    from peapp.document import Document
    from peapp.export_data import document_from_file

    document = document_from_file(args.session) if args.session else Document()
    if getattr(args, "results", None):
        document = document.with_view("lab", results=str(args.results))
    if args.encoding:
        document = document.with_family(args.encoding)
    per_family: dict[str, dict[str, Any]] = {}
    for key, value in vars(args).items():
        if key.startswith("param:"):
            _, family, name = key.split(":", 2)
            per_family.setdefault(family, {})[name] = value
    for family, values in per_family.items():
        document = document.with_params(family, **values)
    for text in args.assignments:
        target, sep, raw = text.partition("=")
        if not sep or not target.strip():
            raise ParameterError(f"--set takes FAMILY.PARAM=VALUE (or PARAM=VALUE); got {text!r}")
        family, dot, name = target.strip().rpartition(".")
        family = family if dot else document.family
        fam = encodings.get(family)
        infos = {i.name: i for i in fam.spec.param_infos()}
        if name not in infos:
            raise ParameterError(f"{fam.name} has no parameter {name!r}; it has {', '.join(infos)}")
        try:
            value = _converter(infos[name])(raw)
        except argparse.ArgumentTypeError as exc:
            raise ParameterError(str(exc)) from None
        document = document.with_params(fam.name, **{name: value})
    document.spec()  # the chosen family's values must be valid together
    return document


# ---- running -------------------------------------------------------------------------------------
def run(args: argparse.Namespace) -> int:
    for name, default in (("view", None), ("view_option", None), ("output", None), ("session", None),
                          ("encoding", None), ("assignments", []), ("dpi", None), ("results", None)):
        if not hasattr(args, name):
            setattr(args, name, default)
    os.environ["QT_QPA_PLATFORM"] = "offscreen"  # no display needed, and the same pixels everywhere
    if _started_early:  # by start_early (None: it could not start, and said so)
        requests = _started_early.pop()
    else:
        requests = None if args.list_views else _start_request_process()
    try:
        return _run(args, requests)
    finally:
        if requests is not None:
            requests.close()


_started_early: list = []  # what start_early started (a RequestProcess, or None), for run() to take


def start_early(argv: list[str]) -> None:
    """Called by peapp.cli as soon as the command line names ``render``, before it is parsed:
    the second process starts importing torch 0.15-0.2 s sooner."""
    if "--list-views" not in argv and not _started_early:
        _started_early.append(_start_request_process())


def _start_request_process():
    """The second process that imports torch and computes, started before anything else so that
    it does so while this one imports Qt and builds the window (peapp.request_process).  None,
    and everything is computed here, when torch is already loaded here (a script, the tests:
    nothing to overlap), in a frozen bundle (its executable starts the GUI, not a Python that
    could run the second process), or where no process can start."""
    from ui.application import quiet_openmp

    quiet_openmp()  # before torch loads, here or in the second process (which inherits the environment)
    if "torch" in sys.modules or getattr(sys, "frozen", False):
        return None
    from peapp.request_process import RequestProcess

    from ui.catalogues import core_translator

    try:
        requests = RequestProcess().start(translator_for=core_translator)
    except OSError as exc:  # no processes left, no executable to start (subprocess.Popen)
        print(f"peapp render: computing in this process ({exc})", file=sys.stderr)
        return None
    atexit.register(requests.close)  # an exit before run() took it (a wrong option): no orphan left importing
    return requests


def _run(args: argparse.Namespace, requests) -> int:
    from ui.application import import_qt

    import_qt()  # first: every import after it is then checked the quick way (see there)
    from ui import export

    views = export.all_views()
    if args.list_views:
        for name, cls in views.items():
            print(f"{name}\t{cls.title}")
        return 0
    if args.view and args.view_option and args.view != args.view_option:
        raise ExportError(f"two views given ({args.view} and {args.view_option}); give one")
    view = args.view or args.view_option
    if view is not None:
        view = export.canonical_view(view)  # patches, patchGrid → patch-grid
    if args.all == bool(view):
        raise ExportError("give a VIEW (or --view VIEW), or --all to render every view")
    if not args.output:
        raise ExportError("give the output with -o PATH (a file; a folder with --all)")
    if view is not None and view not in views:
        raise ExportError(f"unknown view {view!r}; choose one of: {', '.join(views)}")
    size = export.parse_size(args.size)
    options = (export.FigureOptions.from_dpi(args.dpi, size=size, theme=args.theme) if args.dpi
               else export.FigureOptions(scale=args.scale, size=size, theme=args.theme))
    document = build_document(args)
    if view == "claims-ranking" and args.results:  # the Measured claims panel reads the preset's folder
        document = document.with_view("claims", ranking_folder=os.path.abspath(str(args.results)))

    if args.all:
        formats = tuple(f.strip().lower().lstrip(".") for f in args.format.split(",") if f.strip())
        from peapp.export_data import FORMATS

        bad = [f for f in formats if f not in FORMATS]
        if bad or not formats:
            raise ExportError(f"--format takes a comma-separated list of {', '.join(FORMATS)}; got {args.format!r}")
        targets = {name: [os.path.join(args.output, f"{name}.{fmt}") for fmt in formats] for name in views}
    else:
        from peapp.export_data import check_targets, format_of

        format_of(args.output)
        check_targets([args.output], args.force)  # before spending seconds on rendering
        targets = {view: [args.output]}
    written = render_views(document, targets, options, overwrite=args.force, make_folder=args.all,
                           language=getattr(args, "lang", "en"), requests=requests)
    for path in written:
        print(path)
    return 0


def render_views(document, targets: dict[str, list[str]], options, *, overwrite: bool = False,
                 make_folder: bool = False, language: str = "en", requests=None) -> list[str]:
    """Render ``{view: [output paths]}`` for ``document`` headless, its texts in ``language``
    ("en", "hi"); returns the files written.  ``requests``: a started
    :class:`peapp.request_process.RequestProcess` to compute in (else torch loads here).

    Views with nothing to show (e.g. a checkpoint view without a checkpoint) are skipped with a
    note on stderr when rendering several, and are an error when it is the only one.
    """
    from ui import export

    views = export.all_views()
    if make_folder:
        folder = os.path.dirname(next(iter(targets.values()))[0])
        try:
            os.makedirs(folder, exist_ok=True)
        except OSError as exc:
            raise ExportError(f"cannot create folder {folder}: {exc.strerror or exc}") from None
    from peapp import export_data

    export_data.check_targets([p for paths in targets.values() for p in paths], overwrite)
    previous_handler = _quiet_offscreen_notes()
    written: list[str] = []
    try:
        for name, paths in targets.items():
            # A fresh window per view: state outside the Document (a clicked cross-section, a
            # zoom) never leaks from one view into the next, so --all draws what single renders do.
            cls = views[name]
            view_document = export.document_for_view(cls, document, name)
            message = f"view {name!r} has nothing to show for this session"
            # a dock that can tell from the Document alone is skipped without building a window
            has_content = getattr(cls, "has_content", None)
            if has_content is not None and not has_content(view_document):
                if len(targets) == 1:
                    raise ExportError(message)
                print(f"peapp render: skipped {message}", file=sys.stderr)
                continue
            window, dock, app = _headless_dock(cls, view_document, language, requests)
            try:
                _wait_for(window, app, name)  # its first view, asked for when it was built
                if dock.compute_now() is None:
                    if len(targets) == 1:
                        raise ExportError(message)
                    print(f"peapp render: skipped {message}", file=sys.stderr)
                    continue
                _wait_for(window, app, name)  # secondary requests (cross-sections, reads …)
                # Drawing those can still move the layout (a cross-section's axes take room from
                # the table above it), and a view computed at its plot's size (a pooled table) is
                # then computed again at the size it is now drawn at: otherwise the picture
                # depended on whether they arrived before compute_now or after.
                for _ in range(RELAYOUT_ROUNDS):
                    asked, drawn = _request_of(dock), getattr(dock.last_result, "request", None)
                    if asked is None or drawn is None or asked == drawn:
                        break
                    dock.compute_now()
                    _wait_for(window, app, name)
                for path in paths:
                    written += export.export(dock, path, options, overwrite=overwrite)
            finally:
                window.close()
                window.deleteLater()
                app.processEvents()
    finally:
        from PySide6.QtCore import qInstallMessageHandler

        qInstallMessageHandler(previous_handler)
    return written


def _request_of(dock):
    """The request the dock would make now (None where it makes none, or cannot say)."""
    try:
        return dock.make_request(dock.ctx.document)
    except Exception:
        return None


def _wait_for(window, app, name: str) -> None:
    """Until the view's work is done; a view still computing after RENDER_WAIT_S is an error
    rather than a file of a half-drawn picture."""
    if not window.wait_until_idle(app.processEvents, RENDER_WAIT_S):
        raise ExportError(f"view {name!r} was still computing after {RENDER_WAIT_S:.0f} s; nothing was written "
                          f"for it. Render it at a smaller size (fewer positions or tokens), or in the app.")


def _headless_dock(cls, document, language: str = "en", requests=None):
    """The main window with only the dock ``cls`` built (and the left column, whose widgets set
    its width): the other docks are placed (so the layout, and the size of size-dependent views
    such as a pooled table, are the GUI's; tests/gui/test_startup_order.py checks it) but make no
    widgets and compute nothing.  With ``requests`` (a RequestProcess) every request is computed
    there and this process never imports torch; without, torch loads here, its C++ library on a
    thread while the window is made."""
    from ui.application import create_application, preload_torch_library

    app = create_application()
    from ui import i18n
    from ui.main_window import MainWindow

    # Every module the window needs is imported by now (the dock classes are), so torch's C++
    # library can load on a thread, off the GIL, while the window is made: the extension
    # modules an import loads would wait for the dynamic loader's lock that load holds.
    if requests is None:
        preload_torch_library()
    window = MainWindow(document, load_backend="later", settings=None, restore_layout=False,
                        only_dock=cls.object_name)
    # the language asked for, not the one the GUI's Preferences keep (the window applied those)
    i18n.set_language(language)
    window.resize(*WINDOW_SIZE)
    window.show()
    dock = window.docks[cls.object_name]
    dock.show()
    dock.raise_()
    app.processEvents()
    # Laid out first, so the view's first request is for the size it is drawn at (it is then
    # the one compute_now asks for; with a second process, it is computed once)
    if requests is not None:
        window.compute_elsewhere(requests.steps)
    else:
        window.load_backend_now()
    app.processEvents()
    return window, dock, app


def _quiet_offscreen_notes():
    """Drop the offscreen platform's notes about window hints it cannot honour (noise on a
    command line); every other Qt message still reaches stderr.  Returns the previous handler."""
    from PySide6.QtCore import qInstallMessageHandler

    def handler(kind, context, message):
        if "This plugin does not support" not in message:
            sys.stderr.write(f"{message}\n")

    return qInstallMessageHandler(handler)
