"""ViewDock: the base of every panel.

A dock turns the Document into an immutable request (``make_request``), hands it to the
worker on its own channel, and draws the result it gets back (``show_result``) — only if it
is the latest generation it asked for.  It owns a one-line "what am I seeing" caption, and
offers the export hooks used by File > Export (``export_widget``, ``export_arrays``,
``export_title``).  For scripts, tests and the CLI, ``compute_now()`` runs the same request
synchronously on the calling thread.

The window builds its docks before torch has loaded (importing a dock and the core modules it
uses never imports torch: they import it inside the functions that compute).  Until the window
calls ``set_backend_ready()`` a dock shows "Loading the compute backend…" and computes nothing;
then it draws.  A dock that puts its widgets in ``build()`` instead of ``__init__`` can be built
later (``build_later=True``, for docks behind another tab): on first show, or when anything
asks for an attribute ``build()`` makes.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (QDockWidget, QHBoxLayout, QLabel, QProgressBar, QPushButton, QScrollArea, QTableWidget,
                               QStackedLayout, QVBoxLayout, QWidget)

from peapp.document import Document
from peapp.i18n import msg
from peapp.jobs import Request
from peapp.views import Viewport
from ui import i18n
from ui.context import AppContext
from ui.plotting import configure_axes
from ui.worker import ComputeWorker

# Row-major images everywhere: array[row, col] is drawn at (x=col, y=row), like numpy prints it.
# Curves are drawn as separate segments: Qt's raster engine strokes an antialiased polyline
# wider than 1 px as one self-intersecting outline, 170 ms for a 1,024-point zig-zag against
# 4 ms as segments (measured; it dominated the heatmap's repaint).  Dashed and translucent
# curves opt out (``ui.plotting.draw_as_path``) and vector exports draw whole paths (``ui.export``).
pg.setConfigOptions(imageAxisOrder="row-major", antialias=True, segmentedLineMode="on")
configure_axes()

LOADING_TEXT = msg("Panels", "Loading the compute backend…")


def readout_label(object_name: str, text: str = "", wrap: bool = False) -> QLabel:
    """The hover read-out line under a dock's plots: selectable, so numbers can be copied."""
    label = QLabel(text)
    label.setObjectName(object_name)
    label.setWordWrap(wrap)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
    return label


def show_whole_rows(table: QTableWidget, rows: int) -> None:
    """Rows as tall as their text needs (Devanagari's vowel signs too) and a table at least
    ``rows`` whole rows tall under its header; more rows scroll.  Qt's default rows (~30 px) in a
    table kept small for a 768-px screen showed two rows and the top of a third."""
    metrics = table.fontMetrics()
    row = max(metrics.height(), metrics.boundingRect("ट्रेनिंग जैसा").height()) + 8
    table.verticalHeader().setDefaultSectionSize(row)
    header = max(table.horizontalHeader().sizeHint().height(), row)
    table.setMinimumHeight(header + rows * row + 2 * table.frameWidth())


def error_label(object_name: str) -> QLabel:
    """A red, wrapping message line, hidden until there is something to say."""
    label = QLabel()
    label.setObjectName(object_name)
    label.setWordWrap(True)
    label.setStyleSheet("color: #c0392b;")
    label.setVisible(False)
    return label


def progress_bar(object_name: str, max_width: int = 140) -> QProgressBar:
    """A panel's own progress bar for work of its own thread (0–1000), hidden until work runs."""
    bar = QProgressBar()
    bar.setObjectName(object_name)
    bar.setRange(0, 1000)
    bar.setMaximumWidth(max_width)
    bar.setVisible(False)
    return bar


def cancel_button(object_name: str, text: Any, tooltip: Any, on_cancel: Any) -> QPushButton:
    """A panel's Cancel button (texts kept translated: ``msg(...)``), hidden until work runs."""
    button = i18n.keep_text(QPushButton(), text)
    button.setObjectName(object_name)
    i18n.keep_tooltip(button, tooltip)
    button.clicked.connect(on_cancel)
    button.setVisible(False)
    return button


def scrolling(widget: QWidget, object_name: str) -> QScrollArea:
    """``widget`` in a frameless scroll area that resizes it: short of room (a 1366 × 768 screen,
    the Checkpoint panel open) a panel scrolls, its plots keeping their minimum sizes, instead of
    squeezing them or pushing the window past the bottom of the screen."""
    area = QScrollArea()
    area.setObjectName(object_name)
    area.setWidgetResizable(True)
    area.setFrameShape(QScrollArea.Shape.NoFrame)
    area.setWidget(widget)
    return area


class FittedScroll(QScrollArea):
    """A scroll area around a word-wrapped label that asks for the label's height at the width it
    has, so it shows the text whole where the window allows, yet asks for little as a minimum: a
    small window scrolls it instead of growing past the screen.  (Qt's hints for a wrapped label
    are for a narrow guessed width: 196 px for ~150 px of lines, which kept a scroll bar.)"""

    def __init__(self, label: QLabel, object_name: str):
        super().__init__()
        self.setObjectName(object_name)
        self.setWidgetResizable(True)
        self.setFrameShape(QScrollArea.Shape.NoFrame)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setWidget(label)

    def fit(self) -> None:
        """Call after the label's text changed (a resize calls it itself)."""
        label = self.widget()
        label.setMinimumHeight(0)  # a label's height for a width never goes below its minimum
        label.setMinimumHeight(max(0, label.heightForWidth(self.viewport().width())))  # -1: no text yet
        self.updateGeometry()

    def sizeHint(self) -> QSize:  # Qt override
        hint = super().sizeHint()
        hint.setHeight(self.widget().minimumHeight() + 2 * self.frameWidth())
        return hint

    def minimumSizeHint(self) -> QSize:  # Qt override
        return QSize(super().minimumSizeHint().width(), 3 * self.fontMetrics().height())

    def resizeEvent(self, event) -> None:  # Qt override
        super().resizeEvent(event)
        if event.oldSize().width() != event.size().width():
            self.fit()


# a cancelled panel's previous picture, veiled in this colour until a new one arrives (a view's
# foreground brush: a QGraphicsOpacityEffect over a graphics view drew ghosts of the old layout)
STALE_VEIL = (128, 128, 128, 150)
STALE_TEXT = i18n.msg("ViewDock", "Showing the previous result: the computation for the current settings was "
                                  "cancelled, so this picture does not match them.")


def viewport_of(widget: Any) -> Viewport:
    """A widget's (or view box's) size in device pixels."""
    ratio = widget.devicePixelRatioF() if hasattr(widget, "devicePixelRatioF") else 1.0
    return Viewport(width=int(widget.width() * ratio), height=int(widget.height() * ratio))


class ViewDock(QDockWidget):
    object_name: ClassVar[str] = ""
    #: the key of this panel's settings in ``Document.views``, and of its spec in ``peapp.views``
    #: (a neutral name such as "heatmap"); a dock that does not set it uses its object_name
    view_id: ClassVar[str] = ""
    title: ClassVar[str] = ""
    #: the name on the panel's tab and title bar when ``title`` is long: ten full titles did not fit
    #: the tab bar and were elided ("Length extrapol…"); the tab's tooltip and the menus say ``title``
    tab_title: ClassVar[str] = ""
    order: ClassVar[int] = 100
    #: computes on the device chosen in Preferences (re-run when it changes)
    uses_compute_device: ClassVar[bool] = False
    #: Preferences > Precision reaches it (``precision_changed`` is called when it changes)
    uses_compute_dtype: ClassVar[bool] = False
    default_area: ClassVar[Qt.DockWidgetArea] = Qt.DockWidgetArea.RightDockWidgetArea
    # docks with the same group are tabbed together in the default layout
    tab_group: ClassVar[str] = "views"
    shortcut: ClassVar[str | None] = None  # e.g. "Ctrl+1": toggles the dock from the View menu
    #: closed in the default layout: its widgets are made when it is first shown (as behind a tab)
    starts_closed: ClassVar[bool] = False
    #: compute on a thread of the dock's own (``self.worker``), not the shared one: for work of
    #: minutes that would otherwise hold every other panel's pictures back
    own_worker: ClassVar[bool] = False

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "view_id" not in cls.__dict__:
            cls.view_id = cls.object_name

    #: the dock's widgets exist (emitted by a dock built later, on first show)
    contentBuilt = Signal()

    def __init__(self, ctx: AppContext, parent: QWidget | None = None, *, build_later: bool = False,
                 build_on_show: bool = True):
        """``build_later``: make the widgets on first show (or when one is asked for), not now;
        with ``build_on_show`` False, only when one is asked for (``peapp render`` places the
        docks it does not draw, for the layout, and never builds them)."""
        super().__init__(parent)
        self.setObjectName(self.object_name)
        i18n.keep(self.setWindowTitle, i18n.as_message(self.tab_title or self.title, "Panels"), self)
        # the View menu says the full name
        i18n.keep(self.toggleViewAction().setText, i18n.as_message(self.title, "Panels"), self)
        i18n.notifier.changed.connect(self._language_changed)  # a bound slot: dropped with the dock
        self.ctx = ctx
        self._generation = 0
        self._side_generations: dict[str, int] = {}
        self._last_result: Any = None
        self._last_request: Request | None = None  # the last one submitted on the main channel
        self._built = False
        self._shown_generation = 0  # the generation of the picture drawn now
        self._answered_generation = 0  # the last main request that came back (drawn, failed or cancelled)
        self._content: QWidget | None = None  # what set_body put in: dimmed while stale
        self._body = QWidget()
        self._layout = QVBoxLayout(self._body)
        self._layout.setContentsMargins(4, 4, 4, 4)
        self.stale_bar = self._make_stale_bar()
        self._layout.addWidget(self.stale_bar, 0)
        self.caption = QLabel()
        self.caption.setWordWrap(True)
        self.caption.setObjectName("caption")
        self.caption.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # the text colour (a grey italic, palette(mid), was hard to read: ~2:1 against the window)
        self.caption.setStyleSheet("color: palette(window-text);")
        # The loading message covers the body until the backend is ready.  StackAll: the body is
        # laid out all along, so the first request is made for the plot's real size.
        self.loading_message = i18n.keep_text(QLabel(), LOADING_TEXT)
        self.loading_message.setObjectName("loadingMessage")
        self.loading_message.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.loading_message.setAutoFillBackground(True)
        holder = QWidget()
        stack = QStackedLayout(holder)
        stack.setStackingMode(QStackedLayout.StackingMode.StackAll)
        stack.addWidget(self._body)
        stack.addWidget(self.loading_message)
        self.loading_message.setVisible(not ctx.backend_ready)
        self.loading_message.raise_()
        self.setWidget(holder)
        self.worker = ComputeWorker(self) if self.own_worker else ctx.worker
        if self.own_worker:
            ctx.add_worker(self.worker)
        self.worker.resultReady.connect(self._on_result)
        self.worker.failed.connect(self._on_failed)
        self.worker.cancelled.connect(self._on_cancelled)
        ctx.document_model.changed.connect(self._on_document_changed)
        if not build_later:
            self.ensure_built()
        elif build_on_show:
            self.visibilityChanged.connect(self._build_if_shown)
        # else: built when one of its widgets is asked for (__getattr__)

    # ---- building and the backend ------------------------------------------------------------
    def build(self) -> None:
        """Make the dock's widgets (docks that can be built later put them here)."""

    def ensure_built(self) -> None:
        """Build the dock now if it has not been; once the backend is ready it then draws."""
        if self._built:
            return
        self._built = True
        self.build()
        if self.ctx.backend_ready:
            self.refresh()
        self.contentBuilt.emit()

    def is_built(self) -> bool:
        return self._built

    def _build_if_shown(self, visible: bool) -> None:
        if visible and not self._built:
            # after the tab switch has laid the dock out: on_screen() needs its real region
            QTimer.singleShot(0, lambda: self._built or not self.on_screen() or self.ensure_built())

    def set_backend_ready(self) -> None:
        """The compute backend has loaded: hide the loading message and draw."""
        self.loading_message.setVisible(False)
        if self._built:
            self.refresh()

    def is_loading(self) -> bool:
        """Whether the dock still says the backend is loading."""
        return not self.loading_message.isHidden()

    def __getattr__(self, name: str) -> Any:
        # Reached only when normal look-up fails: a widget build() makes, asked for before the
        # dock was first shown (an export, a session restore, a test) — build it now.
        if name.startswith("__") or self.__dict__.get("_built", True):
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        self.ensure_built()
        return object.__getattribute__(self, name)

    def _on_document_changed(self, document: Document) -> None:
        if self._built:  # a dock built later reads the Document when it is built
            self.on_document_changed(document)

    # ---- for subclasses -------------------------------------------------------------------
    def set_body(self, widget: QWidget) -> None:
        """Put the dock's content above the caption."""
        self._content = widget
        self._layout.addWidget(widget, 1)
        self._layout.addWidget(self.caption, 0)

    def set_caption(self, text: str) -> None:
        self.caption.setText(text)

    def make_request(self, document: Document) -> Request | None:
        raise NotImplementedError

    def _language_changed(self, language: str) -> None:
        if self._built:  # a dock built later builds its texts in the language then current
            self.retranslate(language)

    def retranslate(self, language: str = "") -> None:
        """After a language switch (texts set with ``i18n.keep`` are already done): redraw what
        was built from a computed view.  Default: compute the view again, whose captions and
        labels the core now builds in the new language.  Panels whose work takes long override
        this to redraw their last result instead."""
        if self._last_request is not None:
            self.refresh()

    def unfinished_work(self) -> str | None:
        """What closing the window now would stop and lose (the window asks first), or None."""
        return None

    def view_spec(self, document: Document | None = None) -> Any:
        """This panel's validated settings in ``document`` (default: the current one)."""
        return (document or self.ctx.document).view_spec(self.view_id)

    def set_view(self, **values: Any) -> bool:
        """Change this panel's settings (one undo step; an invalid value is refused and said)."""
        return self.ctx.document_model.set_view(self.view_id, **values)

    def viewport(self) -> Viewport:
        """The size of the dock's main plot in device pixels (requests that depend on it take it
        as an argument).  Override to name the plot; the default is the dock's body."""
        return viewport_of(self._body)

    def show_result(self, result: Any) -> None:
        raise NotImplementedError

    def on_document_changed(self, document: Document) -> None:
        """Default: recompute on every change.  Override to ignore changes that do not matter."""
        self.refresh()

    def export_widget(self) -> QWidget:
        return self._body

    # ---- probes: what a user would see, for scripts, the self-test and tests ---------------------
    def readout_at(self, x: float, y: float, plot: Any = None) -> str:
        """The hover read-out a user reads with the pointer at data point (x, y) of ``plot``
        (default: the dock's ``plot``): the pointer move goes through the scene as a real one does."""
        plot = plot if plot is not None else self.plot  # type: ignore[attr-defined]
        scene = plot.scene()
        scene.sigMouseMoved.emit(plot.getViewBox().mapViewToScene(QPointF(x, y)))
        return self.readout.text()

    def shown_arrays(self) -> dict[str, np.ndarray]:
        """The arrays of what the dock shows now (what File > Export > Data writes)."""
        return self.export_arrays()

    def export_arrays(self) -> dict[str, np.ndarray]:
        return {}

    def export_title(self) -> str:
        return i18n.shown(self.title)

    # ---- a cancelled computation: the picture no longer matches the settings ---------------------
    def _make_stale_bar(self) -> QWidget:
        bar = QWidget()
        bar.setObjectName("staleBar")
        row = QHBoxLayout(bar)
        row.setContentsMargins(6, 3, 6, 3)
        label = i18n.keep_text(QLabel(), STALE_TEXT)
        label.setObjectName("staleText")
        label.setWordWrap(True)
        button = i18n.keep_text(QPushButton(), i18n.msg("ViewDock", "Recompute"))
        button.setObjectName("staleRecompute")
        i18n.keep_tooltip(button, i18n.msg("ViewDock", "Compute the picture for the current settings"))
        button.clicked.connect(lambda: self.refresh())
        row.addWidget(label, 1)
        row.addWidget(button, 0)
        bar.setStyleSheet("#staleBar { background: #7a5c00; border-radius: 3px; } #staleText { color: #fff3c4; }")
        bar.setVisible(False)
        return bar

    @property
    def is_stale(self) -> bool:
        """Whether the picture is the one from before a cancelled computation."""
        return self.stale_bar.isVisibleTo(self)

    def _views(self) -> list:
        return self._content.findChildren(pg.GraphicsView) if self._content is not None else []

    @property
    def is_dimmed(self) -> bool:
        views = self._views()
        return bool(views) and all(v.foregroundBrush().style() != Qt.BrushStyle.NoBrush for v in views)

    def mark_stale(self) -> None:
        """Dim the picture and say it is the previous result (cleared by the next result)."""
        for view in self._views():
            view.setForegroundBrush(QBrush(QColor(*STALE_VEIL)))
        self.stale_bar.setVisible(True)

    def clear_stale(self) -> None:
        if self.stale_bar.isVisibleTo(self):
            for view in self._views():
                view.setForegroundBrush(QBrush())
        self.stale_bar.setVisible(False)

    def _on_cancelled(self, channel: str) -> None:
        if channel != self.object_name:
            return
        cancelled = self._generation
        self._answered_generation = cancelled

        def check() -> None:
            # still waiting for that picture: nothing newer was asked for since (a dock that cancels
            # its own work to submit a newer request is not stale)
            if self._generation == cancelled and self._shown_generation != cancelled:
                self.mark_stale()

        QTimer.singleShot(0, check)

    # ---- machinery --------------------------------------------------------------------------
    def refresh(self, request: Request | None = None) -> int | None:
        """Submit the request for the current Document (or the one given); returns its generation.
        Nothing is submitted while the backend loads or before the dock is built (it draws then)."""
        if not self.can_compute():
            return None
        if request is None:
            try:
                request = self.make_request(self.ctx.document)
            except Exception as exc:  # invalid view settings: keep the last good picture
                self.ctx.status(f"{i18n.shown(self.title)}: {exc}")
                return None
        if request is None:
            return None
        self._last_request = request
        self._generation = self.worker.submit(self.object_name, request, background=not self.on_screen())
        return self._generation

    def awaits_picture(self) -> bool:
        """Whether the last view this dock asked for has not come back yet (its result, once
        delivered, is drawn on the GUI thread: the start-up order waits for that, not only for
        the compute thread to be idle)."""
        return self._generation != self._answered_generation

    def can_compute(self) -> bool:
        """The backend has loaded and the dock's widgets exist."""
        return self.ctx.backend_ready and self._built

    def on_screen(self) -> bool:
        """Whether any of the dock shows (a dock behind another tab is 'visible' to Qt but has
        no visible region); its work goes before that of docks that do not."""
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def refresh_if_changed(self, document: Document) -> bool:
        """Submit the request for ``document`` unless it equals the last one submitted (a change
        elsewhere in the Document); False when nothing was submitted.  Invalid settings are
        said in the status bar and keep the last picture."""
        if not self.can_compute():
            return False
        try:
            request = self.make_request(document)
        except Exception as exc:
            self.ctx.status(f"{i18n.shown(self.title)}: {exc}")
            return False
        if request is None or request == self._last_request:
            return False
        return self.refresh(request) is not None

    def compute_now(self) -> Any:
        """Compute and show the current Document's view synchronously (CLI, tests, self-test)."""
        self.ensure_built()
        request = self.make_request(self.ctx.document)
        if request is None:
            return None
        # What the worker may still compute for this dock is older than this: it must not be
        # drawn over it (peapp render's requests wait in a second process, so it can come later)
        self.worker.cancel(self.object_name)
        result = self.worker.run_now(request)
        self._last_result = result
        self._shown_generation = self._answered_generation = self._generation  # not stale: see _on_cancelled
        self.clear_stale()
        self.show_result(result)
        return result

    @property
    def last_result(self) -> Any:
        return self._last_result

    def submit_side(self, name: str, request: Request) -> int:
        """Submit a secondary request (e.g. a cross-section) on its own channel; its result
        arrives in ``show_side_result(name, result)``."""
        generation = self.worker.submit(f"{self.object_name}:{name}", request, background=not self.on_screen())
        self._side_generations[name] = generation
        return generation

    def show_side_result(self, name: str, result: Any) -> None:
        """Override to draw secondary results."""

    def _on_result(self, channel: str, generation: int, result: Any) -> None:
        if channel.startswith(self.object_name + ":"):
            name = channel[len(self.object_name) + 1:]
            if self._side_generations.get(name) == generation:
                self.show_side_result(name, result)
            return
        if channel != self.object_name or generation != self._generation:
            return  # another dock's, or a stale generation: never drawn
        self._last_result = result
        self._shown_generation = self._answered_generation = generation
        self.clear_stale()
        self.show_result(result)

    def _on_failed(self, channel: str, generation: int, message: str) -> None:
        if channel.startswith(self.object_name + ":"):
            name = channel[len(self.object_name) + 1:]
            if self._side_generations.get(name) == generation:
                self.ctx.status(f"{i18n.shown(self.title)}: {message}")
                self.on_side_failed(name, message)
            return
        if channel != self.object_name or generation != self._generation:
            return
        self._answered_generation = generation
        self.ctx.status(f"{i18n.shown(self.title)}: {message}")
        self.on_failed(message)

    def on_failed(self, message: str) -> None:
        """The last request failed; the previous picture stays. Override to show it inline."""

    def on_side_failed(self, name: str, message: str) -> None:
        """A secondary request failed (already said in the status bar). Override to show it inline."""
