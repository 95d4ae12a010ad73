"""The QApplication every entry point shares (the app, ``--self-test``, ``peapp render``,
benchmarks), and the process settings that must come before torch loads."""

from __future__ import annotations

import os
import sys

APP_NAME = "Positional Encoding Explorer"
ORGANIZATION = "peapp"


def create_application(argv: list[str] | None = None):
    """The QApplication with the app's name and organisation (QSettings use them)."""
    from PySide6.QtWidgets import QApplication

    from peapp import __version__
    from ui.resources import app_icon

    app = QApplication.instance() or QApplication(list(argv or [sys.argv[0]]))
    app.setApplicationName(APP_NAME)
    app.setOrganizationName(ORGANIZATION)
    app.setApplicationVersion(__version__)
    app.setDesktopFileName("peapp")  # matches packaging/peapp.desktop (Wayland task bar icon)
    app.setWindowIcon(app_icon())
    from ui.i18n import register_fonts

    register_fonts()  # Devanagari: a bare machine has no font for it, and would draw boxes
    from ui import gui_thread_gc

    gui_thread_gc.install(app)  # cycles holding widgets are freed on the GUI thread, never a compute one
    return app


def quiet_openmp() -> None:
    """Let torch's OpenMP threads sleep instead of spin while they wait.

    The compute thread shares the CPU with the GUI thread; spinning workers (the OpenMP
    default) measured 3–5× more CPU for the same work on a busy 2-core machine.  Must run
    before torch is imported; a value the user set wins.
    """
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
