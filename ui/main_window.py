"""The main window: menus, status bar, and the docks.

Start-up order matters for how fast the window appears (docs/DESIGN.md, "Start-up"): the
window and its menus paint first; then every dock is placed without torch (no module a dock
imports loads it), each saying "Loading the compute backend…", and painted; then the shown
docks make their widgets and torch loads on the compute thread; when it is there
(``backendReady``) the docks draw, and once their first pictures are painted the docks behind
other tabs make theirs, one at a time (or on first show).  Scripts and tests can ask for a
synchronous start with ``MainWindow(load_backend="now")``, or start the load themselves with
``load_backend="later"`` and ``start_backend()`` (or ``load_backend_now()``).
"""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys
import time
import zlib
from typing import Callable

import shiboken6
from PySide6.QtCore import QByteArray, QEvent, QObject, QSettings, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QApplication, QLabel, QMainWindow, QMenu, QMessageBox, QProgressBar, QPushButton, QTabBar, QWidget

from peapp import __version__, backend
from peapp.document import Document
from peapp.jobs import Request
from ui import i18n
from ui.i18n import msg
from ui import gui_thread_gc, help_menu, settings as preferences
from ui.application import preload_torch_library
from ui.context import AppContext
from ui.document_model import DocumentModel
from ui.file_reader import FileReader
from ui.worker import ComputeWorker

# Bump when the meaning of a saved layout changes.  The set of docks is folded into the version
# too (layout_version()), so a layout saved with other docks is never applied to this set.
LAYOUT_VERSION = 2  # 2: the Checkpoint panel is a tab beside the views (was a strip along the bottom)
# Start-up steps wait for the window's paint; if none comes (a window opened minimised) this long
PAINT_WAIT_MS = 2000
READ_PROGRESS_DELAY_S = 0.2  # a read shows the busy bar once it has taken this long
SETTLE_S = 0.02  # wait_until_idle: how long idleness must last (a few event-loop turns)


class _LoadBackend(Request):
    """Import torch and what the first views compute with (``peapp.backend.load``), on the compute
    thread (or, for ``load_backend="now"``, here)."""

    def compute(self, progress):
        started = time.perf_counter()
        backend.load()
        return time.perf_counter() - started


class _WarmUpCore(Request):
    """Import every other core module, after the first views (background work on the compute
    thread), so that what they import on first use costs nothing on the GUI thread later.

    Only Qt-free modules here: loading Qt libraries (pyqtgraph pulls QtOpenGL) off the GUI
    thread once failed with an undefined symbol; the docks are imported on the GUI thread."""

    def compute(self, progress):
        import peapp

        for module in pkgutil.walk_packages(peapp.__path__, "peapp."):
            if module.name.endswith("__main__"):
                continue  # the command-line entry: nothing to warm up
            importlib.import_module(module.name)
            progress(0.0)  # a point to stop at when the window closes
        return None


class _AfterFirstPaint(QObject):
    """Calls ``then`` once, just after the window's first paint event."""

    def __init__(self, window, then: Callable[[], None]):
        super().__init__(window)
        self._then = then

    def eventFilter(self, obj, event) -> bool:  # Qt override
        if event.type() == QEvent.Type.Paint and self._then is not None:
            then, self._then = self._then, None
            obj.removeEventFilter(self)
            QTimer.singleShot(0, then)  # after this paint has finished
        return False


class _OnResize(QObject):
    """Calls ``then`` after each resize of the watched widget."""

    def __init__(self, parent, then: Callable[[], None]):
        super().__init__(parent)
        self._then = then

    def eventFilter(self, obj, event) -> bool:  # Qt override
        if event.type() == QEvent.Type.Resize:
            self._then()
        return False


#: what the file reader says it reads ("time series /path"), named in the interface's language
_READ_KINDS = {"session": msg("MainWindow", "session"), "time series": msg("MainWindow", "time series"),
               "config": msg("MainWindow", "config"), "checkpoint": msg("MainWindow", "checkpoint")}


def _reading_kind(what: str) -> tuple[str, str]:
    """(kind in the current language, path) of a reader's "kind /path"."""
    for kind, name in _READ_KINDS.items():
        if what.startswith(kind + " "):
            return i18n.shown(name), what[len(kind) + 1:]
    kind, _, path = what.partition(" ")
    return kind, path


class _StepNamer(QObject):
    """Names an undo/redo action "prefix step" in the current language."""

    def __init__(self, action: QAction, prefix) -> None:
        super().__init__(action)
        self._action, self._prefix = action, prefix

    @Slot(str)
    def name(self, step: str) -> None:
        if not shiboken6.isValid(self._action):  # the stack is cleared as the window goes
            return
        self._action.setText(i18n.shown(self._prefix) + (f" {step}" if step else ""))


def _set_tips(action: QAction, tip: str) -> None:
    action.setToolTip(tip)
    action.setStatusTip(tip)


def _menu(menu, title) -> "QMenu":
    """``menu`` titled ``title`` (a marked message), kept translated."""
    i18n.keep(menu.setTitle, title, menu)
    return menu


def _action_texts(action: QAction, text, tip=None) -> QAction:
    """An action's text and status tip (marked messages), kept translated."""
    i18n.keep(action.setText, text, action)
    if tip is not None:
        i18n.keep(action.setStatusTip, tip, action)
    return action


class MainWindow(QMainWindow):
    backendReady = Signal()
    #: every dock exists (emitted once: from the constructor, or at start-up just after the
    #: window's first paint; docks behind a tab may make their widgets later)
    docksBuilt = Signal()
    #: a dock built later (on first show) has made its widgets
    dockBuilt = Signal(object)
    # after a saved layout is restored or the layout is reset: panels that must not come back
    # as they were saved (an empty Checkpoint strip) put themselves right
    layoutRestored = Signal()

    def __init__(self, document: Document | None = None, *, load_backend: str = "background",
                 settings: QSettings | None = None, restore_layout: bool = True, only_dock: str | None = None,
                 hidden_docks: str | None = None):
        """``only_dock``: build only this dock's widgets and the left column's (the others are
        placed, so the layout is the GUI's, but make no widgets): ``peapp render`` draws one view.

        ``hidden_docks``: when the docks behind another tab (or closed) make their widgets.
        ``"idle"`` (the app's, and the default unless the backend loads ``"now"``): on first show,
        or one at a time once the compute thread is idle.  ``"on-use"``: only on first show or
        when one of their widgets is asked for (tests and scripts that look at one or two panels:
        a window then costs its shown panels, 0.3 s here, not all thirteen, 3 s).  ``"now"`` (the
        default with ``load_backend="now"``): every dock at once."""
        super().__init__()
        self.setObjectName("peappMainWindow")
        i18n.keep(self.setWindowTitle, msg("MainWindow", "Positional Encoding Explorer"), self)
        self._fit_to_screen()
        self.setDockNestingEnabled(True)
        self.settings = settings
        self._restore_layout = restore_layout
        self.document_model = DocumentModel(document or Document(), self)
        self.worker = ComputeWorker(self)
        self.reader = FileReader(self)  # other people's files, read off the GUI thread
        self.ctx = AppContext(self.document_model, self.worker, self.show_status, reader=self.reader,
                              show_panel=self._show_view)
        self.docks: dict[str, QWidget] = {}
        self.backend_seconds: float | None = None
        self._build_status_bar()
        self._build_menus()
        __import__("ui.checkpoint_actions").checkpoint_actions.install(self)  # File > Open…, drops, samples
        preferences.install(self)  # stored theme/colour maps/layout choice; Edit > Preferences
        help_menu.install(self)  # tour, shortcuts, "which encoding?" guide
        # the first paint, before the panels exist (they are built just after it): never an empty frame
        placeholder = i18n.keep_text(QLabel(), msg("MainWindow", "Opening the panels…"))
        placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        placeholder.setObjectName("loadingPlaceholder")
        self.setCentralWidget(placeholder)
        self.ctx.on_worker_added(self._adopt_worker)
        self.worker.progressed.connect(self._on_progress)
        self.worker.busyChanged.connect(self._on_busy)
        self.reader.busyChanged.connect(self._on_reading)
        self.document_model.error.connect(self.show_status)
        self.worker.resultReady.connect(self._on_backend_loaded)
        self.worker.failed.connect(self._on_backend_failed)
        self._backend_generation: int | None = None
        self._widgets_after_paint: list = []  # shown docks whose widgets come after the first paint
        self._closed = False
        self._updates_held = False  # the first paint waits for the layout (_lay_out_then_paint)
        self._idle_before = False  # the last check found the compute thread idle (hidden docks)
        self._only_dock = only_dock
        if hidden_docks is None:
            hidden_docks = "now" if load_backend == "now" else "idle"
        if hidden_docks not in ("idle", "on-use", "now"):
            raise ValueError(f"hidden_docks must be 'idle', 'on-use' or 'now', not {hidden_docks!r}")
        self._hidden_docks = hidden_docks
        if load_backend == "now":
            # Not the rest of the core (_WarmUpCore): a render or a script imports what it uses.
            # (It was run here because renders differed without it; the cause was a figure
            # drawing a thinned curve for the width it arrived at, fixed in ui.export.)
            self._load_backend_here()
            self._build_docks(build_hidden_later=only_dock is not None or hidden_docks != "now")
            self._backend_loaded()
            return
        self.ctx.backend_ready = False
        self._say_loading()
        i18n.notifier.changed.connect(self._say_loading)  # `main.py --lang` switches after this
        if load_backend == "background":
            # The window (menus, status bar) paints first, at once; then the panels are built
            # (pyqtgraph and the dock modules take a second of their own) and painted; then torch
            # loads, which holds the GIL for seconds at a time.
            self.installEventFilter(_AfterFirstPaint(self, self._build_docks_then_backend))
            QTimer.singleShot(PAINT_WAIT_MS, self._build_docks_then_backend)  # a window never painted
        else:
            self._build_docks()

    def load_backend_now(self) -> None:
        """Load torch and the core here, on the GUI thread, and let the docks draw (for a window
        made with ``load_backend="later"``: ``peapp render`` builds its dock while torch's
        library loads beside it, then calls this)."""
        if self.ctx.backend_ready:
            return
        self._load_backend_here()
        self._backend_loaded()
        self.show_status(i18n.translate("MainWindow", "Ready (backend loaded in {seconds} s)")
                         .format(seconds=f"{self.backend_seconds:.1f}"), 4000)

    def compute_elsewhere(self, run_request) -> None:
        """Make every request's job with ``run_request`` (the executor's backend) and let the docks draw at once: for a window
        made with ``load_backend="later"`` whose backend is another process (``peapp render``:
        peapp.request_process, which imports torch on the other core while this window is made),
        so this process never imports torch."""
        if self.ctx.backend_ready:
            return
        for worker in self.ctx.workers:
            worker.run_request = run_request
        self._backend_loaded()

    def _load_backend_here(self) -> None:
        self.backend_seconds = _LoadBackend().run()

    def _build_docks_then_backend(self) -> None:
        if self.docks or self._closed:  # a window closed before its first paint's timer fired
            return
        import ui.docks

        # The dock modules first (_build_docks then finds them imported): they load numpy's and
        # Qt's extension modules, and each of those waits for the dynamic loader's lock, which
        # dlopen of libtorch holds for ~0.3 s (numpy took 0.3-0.4 s instead of 0.08 with the
        # preload started before it).
        ui.docks.dock_classes()
        # torch's C++ library loads off the GIL beside the panels being built (not before the
        # window's first paint: on a loaded machine it would take CPU from that paint)
        preload_torch_library()
        self._build_docks(widgets_after_paint=True)
        self.installEventFilter(_AfterFirstPaint(self, self._build_widgets_then_backend))
        QTimer.singleShot(PAINT_WAIT_MS, self._build_widgets_then_backend)
        self.update()

    def _build_widgets_then_backend(self) -> None:
        """After the panels' first paint: the shown panels make their widgets, then torch loads."""
        waiting, self._widgets_after_paint = self._widgets_after_paint, []
        if self._closed:
            return
        for dock in waiting:
            dock.ensure_built()
        self.start_backend()

    def _say_loading(self, *_language) -> None:
        if not self.ctx.backend_ready:
            self.show_status(i18n.translate("MainWindow", "Loading the compute backend (torch)…"), 0)

    def start_backend(self) -> None:
        """Load torch and the core on the compute thread (once); ``backendReady`` follows."""
        if self._closed or not self.worker.thread_running():
            return  # closed: nothing would ever answer (and the collector would stay held)
        if not self.docks:
            self._build_docks()
        if self._backend_generation is None and not self.ctx.backend_ready:
            if "torch" not in sys.modules:
                gui_thread_gc.hold()  # released once it is in (and frozen: _LoadBackend)
            self._backend_generation = self.worker.submit("backend", _LoadBackend())

    # ---- start-up -----------------------------------------------------------------------------
    def _on_backend_loaded(self, channel: str, generation: int, seconds: float) -> None:
        if channel != "backend":
            return
        self.backend_seconds = seconds
        gui_thread_gc.release()
        self._backend_loaded()
        self.worker.submit("backend-warm-up", _WarmUpCore(), background=True)  # after the first views
        self.show_status(i18n.translate("MainWindow", "Ready (backend loaded in {seconds} s)")
                         .format(seconds=f"{seconds:.1f}"), 4000)

    def _backend_loaded(self) -> None:
        self.ctx.backend_ready = True
        for dock in self.docks.values():
            dock.set_backend_ready()
        self.backendReady.emit()
        self._build_hidden_docks_when_idle()

    def _on_backend_failed(self, channel: str, generation: int, message: str) -> None:
        if channel == "backend":
            gui_thread_gc.release()
            QMessageBox.critical(self, "peapp", i18n.translate("MainWindow", "The compute backend could not be loaded:\n{message}")
                                 .format(message=message))

    def _build_docks(self, build_hidden_later: bool | None = None, widgets_after_paint: bool = False) -> None:
        """Every dock, torch or not; those behind another tab make their widgets on first show.
        ``widgets_after_paint``: the shown ones too wait, for ``_build_widgets_then_backend``
        (their loading message covers them either way: the panels paint 0.2 s sooner)."""
        import ui.docks
        from ui.docks.base import ViewDock

        if build_hidden_later is None:
            build_hidden_later = self._hidden_docks != "now"
        placeholder = self.centralWidget()
        if placeholder is not None:  # the docks fill the window now
            self.setCentralWidget(None)
            placeholder.deleteLater()
        first_in_group: dict[tuple, QWidget] = {}
        for cls in ui.docks.dock_classes():
            key = (cls.default_area, cls.tab_group)
            # behind another tab, and its widgets are made in build(): made on first show
            # the left column (Parameters) is as wide as its widgets need: always made at once, so
            # that it does not jump, and a render's drawn dock has the GUI's size
            left_column = cls.default_area == Qt.DockWidgetArea.LeftDockWidgetArea and not cls.starts_closed
            later = build_hidden_later and cls.build is not ViewDock.build and (
                (key in first_in_group or cls.starts_closed) if self._only_dock is None
                else cls.object_name != self._only_dock and not left_column)
            if later:  # a render's other docks are placed for the layout only: never built by being shown
                dock = cls(self.ctx, self, build_later=True, build_on_show=self._only_dock is None)
            elif widgets_after_paint and cls.build is not ViewDock.build and not left_column:
                dock = cls(self.ctx, self, build_later=True, build_on_show=False)
                self._widgets_after_paint.append(dock)
            else:
                dock = cls(self.ctx, self)
            self.docks[cls.object_name] = dock
            if key in first_in_group:
                self.tabifyDockWidget(first_in_group[key], dock)
            else:
                self.addDockWidget(cls.default_area, dock)
                first_in_group[key] = dock
            if not dock.is_built():
                dock.contentBuilt.connect(lambda d=dock: self.dockBuilt.emit(d))
            action = dock.toggleViewAction()  # the View menu toggles; the panel's key shows it
            i18n.keep_updated(action, lambda a=action, t=cls.title: _set_tips(
                a, i18n.translate("MainWindow", "Show or hide the {panel} panel").format(panel=i18n.shown(t))))
            self.view_menu.addAction(action)
            if cls.shortcut:
                self.go_to_menu.addAction(self._show_panel_action(dock))
        for dock in first_in_group.values():
            dock.raise_()
        for dock in self.docks.values():  # a panel moved or (re)tabbed gets a new tab: name it again
            dock.dockLocationChanged.connect(self._name_tabs_soon)
            dock.topLevelChanged.connect(self._name_tabs_soon)
        self._name_tabs_soon()
        i18n.notifier.changed.connect(self._name_tabs_soon)  # tabs take the new titles
        if "parametersDock" in self.docks:  # a dragged column edge is the width it keeps
            self.docks["parametersDock"].installEventFilter(_OnResize(self, self._note_left_width))
        self._apply_default_sizes()
        # Once more after the new docks are laid out (resizeDocks needs real geometry), then the
        # saved layout; at start-up nothing is painted until both are applied (the first paint
        # showed the panels at half width, and then jumped).
        if widgets_after_paint:
            self._updates_held = True
            self.setUpdatesEnabled(False)
        QTimer.singleShot(0, self._lay_out_then_paint)
        self.docksBuilt.emit()

    def _build_hidden_docks_when_idle(self) -> None:
        """Build the docks behind other tabs one at a time while the compute thread is idle, so
        switching to one later is instant and the first views are not slowed down."""
        waiting = [d for d in self.docks.values() if not d.is_built()]
        if not waiting or self._only_dock is not None or self._hidden_docks != "idle":
            return
        # idle, and the pictures it made are drawn (a result waits in the event queue until then:
        # building a dock first put 0.15 s between the heatmap's result and its paint)
        idle = not self.worker.is_busy() and not any(
            d.worker is self.worker and d.awaits_picture() for d in self.docks.values())
        if not (idle and self._idle_before):
            # a picture delivered is painted on a later turn of the event loop (pyqtgraph's scene
            # posts its own update): idle on two checks in a row, 50 ms apart, before building
            self._idle_before = idle
            QTimer.singleShot(50 if idle else 100, self._build_hidden_docks_when_idle)
            return
        QApplication.sendPostedEvents(self, QEvent.Type.UpdateRequest)  # what still waits to paint
        waiting[0].ensure_built()
        QTimer.singleShot(20, self._build_hidden_docks_when_idle)

    def _name_tabs_soon(self, *_args) -> None:
        QTimer.singleShot(0, self.name_tabs)

    def name_tabs(self) -> None:
        """Each panel's tab says its full title (and its key) on hover: tabs show the short name.
        Qt sets a tab's tooltip to its text when it makes the tab, so this runs after each change."""
        if not shiboken6.isValid(self):
            return  # a switch's timer that fired after the window was deleted
        i18n.make_room_in_tabs(self)  # Devanagari tab texts need a taller tab
        by_text = {dock.windowTitle(): dock for dock in self.docks.values()}
        for bar in self.findChildren(QTabBar):
            if bar.parent() is not self:
                continue  # a panel's own tabs (the Checkpoint panel's views), not the docks'
            # the short names whole ("Heatm…", "Rotati…" at 1238–1600 px): tabs that do not fit
            # scroll (arrows at the end of the bar) instead of being cut
            bar.setElideMode(Qt.TextElideMode.ElideNone)
            bar.setUsesScrollButtons(True)
            for index in range(bar.count()):
                dock = by_text.get(bar.tabText(index))
                if dock is not None:
                    key = type(dock).shortcut
                    title = i18n.shown(type(dock).title)
                    bar.setTabToolTip(index, title + (f" ({key})" if key else ""))

    def _show_panel_action(self, dock) -> QAction:
        """Ctrl+1 … 9, 0: bring the panel to the front (show it if hidden, raise its tab); pressing
        it on a panel that is behind a tab never hides it, as a toggle would."""
        action = QAction(self, objectName=f"show_{dock.objectName()}")
        action.setShortcut(QKeySequence(type(dock).shortcut))
        i18n.keep(action.setText, i18n.as_message(dock.title, "Panels"), action)
        i18n.keep_updated(action, lambda: _set_tips(action, i18n.translate(
            "MainWindow", "Bring the {panel} panel to the front").format(panel=i18n.shown(dock.title))))
        action.triggered.connect(lambda: self.show_panel(dock.objectName()))
        return action

    def _show_view(self, view_id: str) -> None:
        """Bring the panel that shows view ``view_id`` to the front (a panel asks by view, never by dock)."""
        for name, dock in self.docks.items():
            if getattr(dock, "view_id", None) == view_id:
                self.show_panel(name)
                return

    def show_panel(self, name: str) -> None:
        """Show panel ``name`` and bring it to the front of its tab group, with the keyboard in it."""
        dock = self.docks[name]
        dock.show()
        dock.raise_()
        dock.setFocus(Qt.FocusReason.ShortcutFocusReason)  # so Export (Ctrl+E) and keys go to it

    def _fit_to_screen(self) -> None:
        """Default size: most of the screen, so 1366×768 and 4K both start sensibly."""
        screen = self.screen().availableGeometry() if self.screen() else None
        if screen is None or screen.width() < 200:
            self.resize(1360, 820)
            return
        self.resize(min(int(screen.width() * 0.9), 2400), min(int(screen.height() * 0.9), 1500))

    def _lay_out_then_paint(self) -> None:
        if not shiboken6.isValid(self):
            return  # the window went before its first layout (a test, a script)
        try:
            self._apply_default_sizes()
            if self._restore_layout:
                self.restore_layout()
            self.layout().activate()  # resizeDocks takes effect at the next layout pass: now
        finally:
            if self._updates_held:
                self._updates_held = False
                self.setUpdatesEnabled(True)

    def _apply_default_sizes(self) -> None:
        left = [d for d in self.docks.values() if type(d).default_area == Qt.DockWidgetArea.LeftDockWidgetArea]
        right = [d for d in self.docks.values() if type(d).default_area == Qt.DockWidgetArea.RightDockWidgetArea]
        if left and right:
            width = self.width()
            side = min(380, max(260, width // 5))
            self._left_width = side
            self.resizeDocks([left[0], right[0]], [side, width - side], Qt.Orientation.Horizontal)

    def _left_column(self) -> QWidget | None:
        dock = self.docks.get("parametersDock")
        if dock is None or dock.isFloating() or not dock.isVisible() or \
                self.dockWidgetArea(dock) != Qt.DockWidgetArea.LeftDockWidgetArea:
            return None
        return dock

    def resizeEvent(self, event) -> None:  # Qt override
        # Without a central widget Qt shares a window's new width between the dock areas: widening
        # gave half of it to the Parameters column (340 → 690 px), not the plots.  The column
        # keeps the width it had (the default, or where the user dragged its edge).
        super().resizeEvent(event)
        column = self._left_column()
        width = getattr(self, "_left_width", None)
        views = [d for d in self.docks.values() if d.isVisible() and not d.isFloating() and
                 self.dockWidgetArea(d) == Qt.DockWidgetArea.RightDockWidgetArea]
        if column is not None and views and width is not None and event.oldSize().width() != event.size().width():
            # both sides named: resizeDocks moves the edge between them (one dock alone did nothing)
            self.resizeDocks([column, views[0]], [width, max(1, self.width() - width)], Qt.Orientation.Horizontal)
        self._width_laid_out = self.width()

    def _note_left_width(self) -> None:
        """The Parameters column changed width with the window's unchanged: the user dragged its edge."""
        column = self._left_column()
        if column is not None and getattr(self, "_width_laid_out", None) == self.width() and \
                abs(column.width() - (getattr(self, "_left_width", None) or 0)) > 4:
            # (within 4 px it is the layout placing the width asked for: the dock's frame is not
            # counted by resizeDocks, and taking that as the new width shrank it 3 px each resize)
            self._left_width = column.width()

    # ---- menus and status ---------------------------------------------------------------------
    def _build_menus(self) -> None:
        menu = self.menuBar()
        self.file_menu = _menu(menu.addMenu(""), msg("Menus", "&File"))
        quit_action = QAction(self, shortcut=QKeySequence("Ctrl+Q"), triggered=self.close)
        _action_texts(quit_action, msg("Menus", "&Quit"), msg("Menus", "Close the window (the layout is kept for next time)"))
        self.file_menu.addAction(quit_action)
        self.edit_menu = _menu(menu.addMenu(""), msg("Menus", "&Edit"))
        stack = self.document_model.undo_stack
        undo = stack.createUndoAction(self)
        undo.setShortcut(QKeySequence.StandardKey.Undo)
        redo = stack.createRedoAction(self)
        redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
        # the stack names its actions "prefix step" in the language they were made in: named here,
        # after the stack's own update (connected later, so called later) and after each switch
        for action, prefix, step_text, changed, tip in (
                (undo, msg("Menus", "&Undo"), stack.undoText, stack.undoTextChanged,
                 msg("Menus", "Undo the last edit of a parameter or panel setting (also inside a field)")),
                (redo, msg("Menus", "&Redo"), stack.redoText, stack.redoTextChanged,
                 msg("Menus", "Redo the edit undone last"))):
            namer = _StepNamer(action, prefix)
            changed.connect(namer.name)  # a slot of the action's child: gone with the action
            i18n.keep_updated(action, lambda namer=namer, step_text=step_text: namer.name(step_text()))
            i18n.keep(action.setStatusTip, tip, action)
        self.edit_menu.addActions([undo, redo])
        self.view_menu = _menu(menu.addMenu(""), msg("Menus", "&View"))
        reset = QAction(self, triggered=self.reset_layout)
        _action_texts(reset, msg("Menus", "Reset &layout"),
                      msg("Menus", "Dock every panel back in its place; show them all (an empty Checkpoint panel stays closed)"))
        self.view_menu.addAction(reset)
        self.go_to_menu = _menu(self.view_menu.addMenu(""), msg("Menus", "&Go to panel"))
        self.go_to_menu.setObjectName("goToPanelMenu")
        self.view_menu.addSeparator()
        self.help_menu = _menu(menu.addMenu(""), msg("Menus", "&Help"))
        about = QAction(self, triggered=self.show_about)
        _action_texts(about, msg("Menus", "&About peapp"))
        self.help_menu.addAction(about)
        __import__("ui.export_actions").export_actions.install(self)  # File > sessions and export (issue 7)

    def _build_status_bar(self) -> None:
        bar = self.statusBar()
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.setRange(0, 1000)
        self.progress.setVisible(False)
        self.cancel_button = i18n.keep_text(QPushButton(), msg("MainWindow", "Cancel"))
        i18n.keep_tooltip(self.cancel_button, msg("MainWindow", "Stop every long computation the status bar shows "
                                                         "(Esc); the previous pictures stay"))
        self.cancel_button.clicked.connect(self.cancel_running)
        # Esc is the window's own shortcut, not the button's: QAbstractButton.setText replaces a
        # button's shortcut with the text's mnemonic, so a language switch (which sets the text
        # again) left Esc cancelling nothing.  Enabled only while Cancel shows, so Esc means
        # nothing to the window (and reaches widgets) when there is nothing to stop.
        self.cancel_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), self)
        self.cancel_shortcut.activated.connect(self.cancel_running)
        i18n.keep(self.cancel_shortcut.setWhatsThis, msg("MainWindow", "Stop every long computation the status bar "
                                                                       "shows; the previous pictures stay"))
        # (whatsThis: what Help > Keyboard shortcuts lists for it)
        self._show_cancel(False)
        self.reading_label = QLabel()  # what a slow read is opening (see _show_reading)
        self.reading_label.setObjectName("readingLabel")
        self.reading_label.setVisible(False)
        bar.addPermanentWidget(self.reading_label)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.cancel_button)
        # every long job the bar has shown since it started, (thread, channel): Esc stops them all
        self._shown_jobs: set[tuple[ComputeWorker, str]] = set()

    def _show_cancel(self, visible: bool) -> None:
        self.cancel_button.setVisible(visible)
        self.cancel_shortcut.setEnabled(visible)

    def show_status(self, message: str, timeout_ms: int = 8000) -> None:
        self.statusBar().showMessage(message, timeout_ms)

    def _adopt_worker(self, worker: ComputeWorker) -> None:
        """A dock's own compute thread: its progress in the status bar, Esc cancels it."""
        worker.progressed.connect(lambda c, g, f, w=worker: self._on_progress(c, g, f, w))
        worker.busyChanged.connect(self._on_busy)

    def compute_busy(self) -> bool:
        """Whether any compute thread (shared or a dock's own) has work queued or running."""
        return any(worker.is_busy() for worker in self.ctx.workers)

    def _on_progress(self, channel: str, generation: int, fraction: float, worker: ComputeWorker | None = None) -> None:
        self._shown_jobs.add((worker or self.worker, channel))
        self.progress.setRange(0, 1000)
        self.progress.setVisible(True)
        self._show_cancel(True)
        self.progress.setValue(int(fraction * 1000))

    def _on_busy(self, busy: bool) -> None:
        if not self.reader.is_busy():
            self.reading_label.setVisible(False)
        if not busy and not self.compute_busy() and not self.reader.is_busy():
            self.progress.setVisible(False)
            self._show_cancel(False)
            self._shown_jobs.clear()

    def _on_reading(self, busy: bool) -> None:
        # a read that takes a while says what it opens, with a busy bar and Cancel (quick ones
        # would only flash them, and overwrite the status line for nothing)
        if busy:
            QTimer.singleShot(int(READ_PROGRESS_DELAY_S * 1000), self, self._show_reading)
            return
        self._on_busy(False)

    def _show_reading(self) -> None:
        what = self.reader.reading()
        if what is None:
            return
        # beside the bar, not in the status line: that keeps the message it had
        kind, path = _reading_kind(what)  # "session /path/to/file.json"
        self.reading_label.setText(i18n.translate("MainWindow", "Opening {kind} {name} …")
                                   .format(kind=kind, name=os.path.basename(path) or path))
        self.reading_label.setToolTip(i18n.translate("MainWindow", "Opening {kind} {path} (Esc cancels)")
                                      .format(kind=kind, path=path))
        self.reading_label.setVisible(True)
        if not self.progress.isVisible():  # a computation's bar has priority
            self.progress.setRange(0, 0)  # no fraction is known for a read: a busy indicator
            self.progress.setVisible(True)
            self._show_cancel(True)

    def cancel_running(self) -> None:
        if self.progress.maximum() == 0:  # the busy bar of a read (see _show_reading)
            self.reader.cancel()
            self.show_status(i18n.translate("MainWindow", "Cancelled; nothing was opened and everything is as it was."))
        elif self._shown_jobs:
            for worker, channel in self._shown_jobs:
                worker.cancel(channel)
            self._shown_jobs.clear()
            self.show_status(i18n.translate("MainWindow", "Cancelled; the previous view is kept."))
        self.progress.setVisible(False)
        self._show_cancel(False)
        self.reading_label.setVisible(False)

    def about_text(self) -> str:
        """What Help > About says (rich text): the app, its version and the libraries' versions."""
        import PySide6
        import pyqtgraph
        import torch

        return (f"<b>{i18n.translate('MainWindow', 'Positional Encoding Explorer')}</b> {__version__}<br>"
                f"torch {torch.__version__} · Qt {PySide6.QtCore.qVersion()} · "
                f"PySide6 {PySide6.__version__} · pyqtgraph {pyqtgraph.__version__}")

    def show_about(self) -> None:
        QMessageBox.about(self, i18n.translate("MainWindow", "About peapp"), self.about_text())

    # ---- layout persistence -------------------------------------------------------------------
    def restore_layout(self) -> None:
        if self.settings is None:
            return
        state = self.settings.value("window/state")
        geometry = self.settings.value("window/geometry")
        if isinstance(geometry, QByteArray):
            self.restoreGeometry(geometry)
        if isinstance(state, QByteArray) and not self.restoreState(state, self.layout_version()):
            self.show_status(i18n.translate("MainWindow", "The saved window layout did not fit this version; "
                                                          "using the default layout."))
        self.layoutRestored.emit()
        self._name_tabs_soon()
        QTimer.singleShot(0, self._keep_on_screen)  # once the layout's new minimum size is known

    def _keep_on_screen(self) -> None:
        """A geometry saved on a larger screen (or while a tall panel was open) is fitted to this one:
        a window taller than the screen hides its status bar and squeezes its panels."""
        screen = self.screen().availableGeometry() if self.screen() else None
        if screen is None or screen.width() < 200 or self.isMaximized() or self.isFullScreen():
            return
        frame = self.frameGeometry()
        width, height = min(self.width(), screen.width()), min(self.height(), screen.height() - (frame.height() - self.height()))
        if (width, height) != (self.width(), self.height()):
            self.resize(width, height)
            self.move(max(screen.left(), min(self.x(), screen.right() - self.frameGeometry().width())),
                      max(screen.top(), min(self.y(), screen.bottom() - self.frameGeometry().height())))

    def layout_version(self) -> int:
        names = ",".join(sorted(self.docks))
        return (LAYOUT_VERSION * 1_000_003 + zlib.crc32(names.encode())) & 0x7FFFFFFF

    def save_layout(self) -> None:
        if self.settings is not None:
            self.settings.setValue("window/state", self.saveState(self.layout_version()))
            self.settings.setValue("window/geometry", self.saveGeometry())

    def reset_layout(self) -> None:
        for dock in self.docks.values():
            dock.setFloating(False)
            dock.setVisible(True)
        self._apply_default_sizes()
        self.layoutRestored.emit()
        self._name_tabs_soon()

    def closeEvent(self, event) -> None:  # Qt override
        # a dock never built has no work (asking it would build it: 0.5 s for Run on text)
        unfinished = [text for dock in self.docks.values()
                      if dock.is_built() and (text := dock.unfinished_work())]
        if unfinished and not self.confirm_close(unfinished):
            event.ignore()  # the user chose to let it finish: nothing is stopped
            return
        self.save_layout()
        self._closed = True  # start-up steps still on a timer stop here
        gui_thread_gc.release()  # held while a backend load was still running
        self.reader.shutdown()  # a read still blocked is left to end alone: closing never waits for it
        for worker in self.ctx.workers:
            worker.shutdown()
        super().closeEvent(event)

    def confirm_close(self, unfinished: list[str]) -> bool:
        """Ask whether to quit although work is running (separate so tests can answer it)."""
        answer = QMessageBox.question(self, i18n.translate("MainWindow", "Quit peapp?"),
                                      "\n\n".join(unfinished) + "\n\n" + i18n.translate("MainWindow", "Quit anyway?"),
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
                                      QMessageBox.StandardButton.No)
        return answer == QMessageBox.StandardButton.Yes

    def wait_until_idle(self, process_events: Callable[[], None], timeout_s: float = 30.0) -> bool:
        """Spin the event loop until the worker and the file reader have nothing to do and stay so
        (for scripts and tests); False if they were still busy after ``timeout_s``.  "Stay": a
        result delivered on the last turn can ask for more on a later one (a dock shown, built
        and drawn, then asking for its cross-sections), so idleness must outlast a few turns."""
        deadline = time.monotonic() + timeout_s

        def busy() -> bool:
            return self.compute_busy() or self.reader.is_busy()

        while True:
            while busy() and time.monotonic() < deadline:
                process_events()
                time.sleep(0.005)
            settled = time.monotonic() + SETTLE_S
            while time.monotonic() < settled:
                process_events()
                time.sleep(0.002)
            if not busy():
                return True
            if time.monotonic() >= deadline:
                return False
