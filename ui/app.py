"""Start the desktop app: ``python main.py [--lang en|hi] [--self-test] [PATH]`` (``--help``).

The window is shown before torch loads (the backend loads on the compute thread), so the
first paint does not wait for the ~2 s ``import torch``.
"""

from __future__ import annotations

import argparse
import os
import sys

# In their own module, which ui.self_test and ui.commands.render import too (ui.self_test
# importing them from here, which imports ui.self_test, was a cycle).
from ui.application import create_application, import_qt, quiet_openmp

NO_DISPLAY_MESSAGE = ("peapp: no display found. Run the app on a desktop, or under a virtual display: "
                      "xvfb-run -a python main.py  (for pictures without any display use "
                      "`peapp render …`).")


def has_display() -> bool:
    """False on Linux/BSD when neither X11 nor Wayland is reachable and no platform is forced."""
    if sys.platform.startswith(("win", "darwin")):
        return True
    if os.environ.get("QT_QPA_PLATFORM"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def main(argv: list[str] | None = None) -> int:
    import_qt()  # before everything else that imports: see there
    options = parse_arguments(list(sys.argv[1:] if argv is None else argv))
    language = options.lang
    argv = [options.path] if options.path else []
    quiet_openmp()
    if options.self_test:  # smoke test of an installed/bundled app; needs no display
        from ui.self_test import run_self_test

        return run_self_test()
    probe = bool(os.environ.get("PEAPP_STARTUP_PROBE"))  # start-up timing (tests/bench/bench_startup.py)
    if probe:
        from ui.startup_probe import stamp

        stamp("main")
    if not has_display():
        print(NO_DISPLAY_MESSAGE, file=sys.stderr)
        return 2
    from PySide6.QtCore import QSettings

    app = create_application([sys.argv[0]])
    from ui.main_window import MainWindow

    window = MainWindow(settings=QSettings())
    if language:  # for this run only; Preferences → Language is what is remembered
        from ui import i18n

        i18n.set_language(language)
    install_exception_hook(window)
    if probe:
        from ui.startup_probe import install

        install(window)
    window.show()
    if argv:  # python main.py PATH: open it once the docks exist
        from ui.checkpoint_actions import open_path

        open_path(window, argv[0])
    code = app.exec()
    # Destroy the window while Python is fully alive.  Left to interpreter shutdown (signal
    # connections keep it referenced until then), pyqtgraph's Python overrides run on half
    # torn-down modules and crash in shiboken (SIGSEGV at exit, seen under load).
    import shiboken6

    shiboken6.delete(window)
    return finish(code)


def parse_arguments(argv: list[str]) -> argparse.Namespace:
    """``python main.py [--lang CODE] [--self-test] [PATH]``.  ``--help`` prints the usage and a
    mistyped option is refused (exit 2), rather than opened as a file of that name."""
    from ui.i18n import LANGUAGES

    parser = argparse.ArgumentParser(prog="main.py", description="Start the Positional Encoding Explorer.")
    parser.add_argument("--lang", choices=list(LANGUAGES), default=None,
                        help="the interface language for this run (Preferences > Language is what is remembered)")
    parser.add_argument("--self-test", action="store_true",
                        help="check an installed or bundled app without a display, then exit")
    parser.add_argument("path", nargs="?", default=None,
                        help="a checkpoint, config or session file (or model folder) to open")
    # macOS adds -psn_… (a process serial number) to an app opened from the Finder
    return parser.parse_args([item for item in argv if not item.startswith("-psn_")])


def finish(code: int) -> int:
    """``code``, or, if a compute job was still blocked when the window closed, end the process
    now with it: a running QThread destroyed at interpreter exit aborts (exit 134)."""
    from ui.worker import abandoned_threads

    if abandoned_threads():
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def install_exception_hook(window) -> None:
    """An exception escaping a slot on the GUI thread becomes one status-bar line (and a traceback
    on stderr for a bug report) instead of passing silently or ending the app."""
    import traceback

    from peapp.errors import PeappError

    def hook(kind, value, tb) -> None:
        if issubclass(kind, KeyboardInterrupt):
            sys.__excepthook__(kind, value, tb)
            return
        if not isinstance(value, PeappError):
            traceback.print_exception(kind, value, tb, file=sys.stderr)
        text = str(value) if isinstance(value, PeappError) else \
            f"internal error ({kind.__name__}: {str(value)[:200]}); the previous view is kept"
        if isinstance(value, MemoryError) and not isinstance(value, PeappError):
            text = "out of memory: choose a smaller size"
        try:
            window.show_status(text)
        except RuntimeError:  # the window is already gone
            pass

    sys.excepthook = hook


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
