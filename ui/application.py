"""The QApplication every entry point shares (the app, ``--self-test``, ``peapp render``,
benchmarks), and the process settings that must come before torch loads."""

from __future__ import annotations

import ctypes
import importlib.util
import os
import sys
import threading
from pathlib import Path
from typing import Any, Callable

APP_NAME = "Positional Encoding Explorer"
ORGANIZATION = "peapp"


def create_application(argv: list[str] | None = None):
    """The QApplication with the app's name and organisation (QSettings use them)."""
    import_qt()
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


def import_qt() -> None:
    """Import Qt, and keep its import hook from slowing down every import after it.

    PySide6 replaces ``__import__`` (for its opt-in ``from __feature__ import …``) and, after
    each module's first import, asks whether the module's source mentions "PySide6" through
    ``inspect.getsource``, which decodes the file into lines and keeps them in ``linecache``
    (PYSIDE-2029's check; napari reported the same start-up cost, napari#8584).  torch, numpy
    and pyqtgraph import some 1,200 modules after Qt: 0.22 s of that check against 0.05 s for the
    same question answered by searching the file's bytes (measured), and less memory held.
    Measured start-up of the app, interleaved runs on this machine: every panel present
    1.21 → 0.91 s, the default heatmap drawn 3.05 → 2.43 s.

    This replaces one private function of shiboken's support package; it changes nothing when
    that function is not there (a PySide6 that changed its hook), and it defers to PySide6's
    own check for every module that is not a plain ``.py`` file.
    ``tests/gui/test_startup_order.py`` checks that both give the same answers.
    """
    import PySide6.QtCore  # noqa: F401 - installs the hook (and shibokensupport.feature)

    feature = sys.modules.get("shibokensupport.feature")
    upstream = getattr(feature, "_mod_uses_pyside", None)
    if upstream is None or getattr(upstream, "reads_the_file", False):
        return
    feature._mod_uses_pyside = _uses_pyside_reader(upstream)


def _uses_pyside_reader(upstream: Callable[[Any], bool]) -> Callable[[Any], bool]:
    def uses_pyside(module: Any) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as source:
                    return b"PySide6" in source.read()
            except OSError:
                pass
        return upstream(module)

    uses_pyside.reads_the_file = True  # type: ignore[attr-defined]
    uses_pyside.upstream = upstream  # type: ignore[attr-defined]  # PySide6's own, for the tests
    return uses_pyside


def preload_torch_library() -> threading.Thread | None:
    """Start loading torch's C++ library on a thread that does not hold the GIL; ``import torch``
    later finds it loaded.

    ``import torch`` holds the GIL for all of its ~2 s, and ~0.3 s of that (measured on this
    2-core machine) is the dynamic loader mapping libtorch_cpu.so and running its static
    initialisers.  Called through ctypes (a foreign call, which releases the GIL) ``dlopen``
    runs that part beside the GUI thread instead of before the heatmap.  Nothing Python-side
    is loaded: torch itself is still imported where it always was.  Linux only, and only when
    the library is where pip puts it; anything else just leaves the whole load to
    ``import torch`` (which then says what is wrong, if anything is).  Call after
    ``quiet_openmp``: the OpenMP runtime reads its settings when it loads.
    """
    if not sys.platform.startswith("linux") or "torch" in sys.modules:
        return None
    try:
        spec = importlib.util.find_spec("torch")  # locates the package without importing it
    except (ImportError, ValueError):
        return None
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    library = Path(locations[0]) / "lib" / "libtorch_cpu.so" if locations else None
    if library is None or not library.is_file():
        return None

    def load() -> None:
        dlopen = ctypes.CDLL(None).dlopen
        dlopen.restype = ctypes.c_void_p
        dlopen.argtypes = [ctypes.c_char_p, ctypes.c_int]
        # the handle is kept open for the life of the process, as torch's own load would
        dlopen(os.fsencode(library), os.RTLD_NOW | os.RTLD_LOCAL)

    thread = threading.Thread(target=load, name="peapp-torch-preload", daemon=True)
    thread.start()
    return thread
