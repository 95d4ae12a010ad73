"""The GUI side of export and sessions: File menu actions and each dock's Export button.

``install(window)`` is the only hook the main window calls (from ``_build_menus``).  It adds
File > Open Session / Save Session / Export Figure / Export Data / Export All, and, once the
docks exist (``docksBuilt``; a dock behind a tab once it is built, ``dockBuilt``), an Export button beside the caption of every dock whose
``exportable`` is not False — so docks added later get it without any code here.

All writing goes through ``ui.export`` (the same code ``peapp render`` uses).  Questions to
the user (file names, "replace?") are methods of :class:`ExportActions`, so tests can answer
them without modal dialogs.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (QApplication, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog,
                               QFormLayout, QHBoxLayout, QLabel, QLineEdit, QMenu, QMessageBox, QPushButton,
                               QSpinBox, QStyle, QToolButton, QWidget)

from peapp.document import Document
from peapp.errors import PeappError
from ui import i18n, settings as preferences
from ui.i18n import msg

if TYPE_CHECKING:  # for the annotations only; see below for why not at run time
    from ui import export

# ``ui.export`` (pyqtgraph, numpy) and ``peapp.export_data`` are imported inside the methods:
# this module is imported while the window is built, before its first paint.

FIGURE_FILTERS = {"png": msg("Export", "PNG image (*.png)"), "svg": msg("Export", "SVG vector figure (*.svg)"),
                  "pdf": msg("Export", "PDF document (*.pdf)")}
DATA_FILTERS = {"csv": msg("Export", "CSV text (*.csv)"), "npy": msg("Export", "NumPy array (*.npy)"),
                "npz": msg("Export", "NumPy archive, all arrays (*.npz)")}
SESSION_FILTER = msg("Export", "peapp session (*.json);;Exported figure or data with parameters (*.png *.svg *.pdf *.json)")
EXPORT_ALL_FORMATS = ("png", "svg", "pdf", "csv")


def install(window) -> "ExportActions":
    """Add the export and session actions to ``window`` (a MainWindow); idempotent per window."""
    actions = getattr(window, "export_actions", None)
    if actions is None:
        actions = ExportActions(window)
        window.export_actions = actions
    return actions


def _is_exportable(dock) -> bool:
    return getattr(dock, "exportable", True) is not False  # the same rule as ui.export.is_exportable


class ExportActions(QObject):
    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self._recent: list[Any] = []  # exportable docks, the one the user last interacted with first
        self._folder = ""
        self.buttons: dict[str, QToolButton] = {}
        self._build_menu()
        window.docksBuilt.connect(self.install_dock_buttons)
        window.dockBuilt.connect(lambda dock: self.install_dock_buttons())  # a dock built on first show
        app = QApplication.instance()
        if app is not None:
            app.focusChanged.connect(self._focus_changed)
        if getattr(window, "docks", None):  # docks already built
            self.install_dock_buttons()

    # ---- menu ---------------------------------------------------------------------------------
    def _build_menu(self) -> None:
        w = self.window
        menu = w.file_menu

        def action(text, slot, shortcut=None, tip=None):
            a = QAction(w)
            a.triggered.connect(slot)
            if shortcut:
                a.setShortcut(QKeySequence(shortcut))
            i18n.keep(a.setText, text, a)
            i18n.keep_updated(a, lambda: (a.setStatusTip(i18n.shown(tip)), a.setToolTip(i18n.shown(tip))))
            return a

        self.open_session_action = action(msg("Menus", "Open &Session…"), self.open_session, "Ctrl+Shift+O",
                                          msg("Menus", "Restore every parameter and view setting from a session file "
                                                       "(or from an exported figure's embedded parameters)"))
        self.save_session_action = action(msg("Menus", "Save S&ession…"), self.save_session, "Ctrl+Shift+S",
                                          msg("Menus", "Save every parameter and view setting to a JSON session file"))
        self.export_figure_action = action(msg("Menus", "&Export Figure…"), lambda: self.export_figure(), "Ctrl+E",
                                           msg("Menus", "Export the current panel as PNG, SVG or PDF"))
        self.export_data_action = action(msg("Menus", "Export &Data…"), lambda: self.export_data(), "Ctrl+Shift+E",
                                         msg("Menus", "Export the current panel's data as CSV or NPY, with its "
                                                      "parameters as JSON"))
        self.export_all_action = action(msg("Menus", "Export &All…"), self.export_all, None,
                                        msg("Menus", "Write every open panel's figure and data into a folder"))
        first = menu.actions()[0] if menu.actions() else None
        new = [self.open_session_action, self.save_session_action, None, self.export_figure_action,
               self.export_data_action, self.export_all_action, None]
        for a in new:
            if a is None:
                sep = QAction(w)
                sep.setSeparator(True)
                a = sep
            menu.insertAction(first, a) if first is not None else menu.addAction(a)

    # ---- dock buttons ---------------------------------------------------------------------------
    def install_dock_buttons(self) -> None:
        for dock in self.window.docks.values():
            if not dock.is_built():
                continue  # built on first show: dockBuilt brings it here again
            if _is_exportable(dock) and dock.objectName() not in self.buttons:
                self.buttons[dock.objectName()] = self._add_button(dock)
                self._watch_raising(dock)

    def _add_button(self, dock) -> QToolButton:
        button = QToolButton(dock)
        button.setObjectName(f"{dock.objectName()}ExportButton")
        i18n.keep(button.setText, msg("Export", "Export"))
        button.setIcon(dock.style().standardIcon(QStyle.StandardPixmap.SP_DialogSaveButton))
        button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        button.setAutoRaise(True)
        i18n.keep_updated(button, lambda: button.setToolTip(
            i18n.translate("Export", "Export the {panel} panel: figure (PNG, SVG, PDF) or data (CSV, NPY)")
            .format(panel=i18n.shown(dock.title))))
        button.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        menu = QMenu(button)
        figure = menu.addAction("", lambda d=dock: self.export_figure(d))
        i18n.keep(figure.setText, msg("Export", "Figure (PNG, SVG, PDF)…"), figure)
        data = menu.addAction("", lambda d=dock: self.export_data(d))
        i18n.keep(data.setText, msg("Export", "Data (CSV, NPY) and parameters…"), data)
        button.setMenu(menu)
        # Beside the caption line (the contract's public ``caption`` label), else at the bottom.
        caption = getattr(dock, "caption", None)
        # the caption's parent is the dock's body (dock.widget() also holds the loading message)
        body = caption.parentWidget() if caption is not None and caption.parentWidget() is not None else dock.widget()
        layout = body.layout() if body is not None else None
        index = layout.indexOf(caption) if layout is not None and caption is not None else -1
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        if index >= 0:
            layout.removeWidget(caption)
            row.addWidget(caption, 1)
            row.addWidget(button, 0, Qt.AlignmentFlag.AlignTop)
            layout.insertLayout(index, row)
        elif layout is not None:
            row.addStretch(1)
            row.addWidget(button)
            layout.addLayout(row)
        return button

    # ---- which dock ---------------------------------------------------------------------------------
    # The panel File > Export (Ctrl+E) acts on: the one the user last interacted with — clicked or
    # typed in (focus), or brought to the front (a tab, Ctrl+1 … 9) — that is on screen now.  A
    # panel behind another tab is never the target, however recently it had the focus.
    def _focus_changed(self, old, new) -> None:
        widget = new
        while widget is not None:
            if widget in self.window.docks.values():
                self._interacted(widget)
                return
            widget = widget.parentWidget()

    def _interacted(self, dock) -> None:
        if _is_exportable(dock):
            self._recent = [dock] + [d for d in self._recent if d is not dock]

    def _watch_raising(self, dock) -> None:
        # a tab clicked (or a panel shown) is the panel the user turned to
        dock.visibilityChanged.connect(lambda visible, d=dock: visible and self._interacted(d))
        # a click on a plot (which takes no focus of its own) gives the focus to the panel's body
        body = dock.widget()
        if body is not None and body.focusPolicy() == Qt.FocusPolicy.NoFocus:
            body.setFocusPolicy(Qt.FocusPolicy.ClickFocus)

    @staticmethod
    def _on_screen(dock) -> bool:
        return dock.isVisible() and not dock.visibleRegion().isEmpty()

    def exportable_docks(self, visible_only: bool = True) -> list:
        docks = [d for d in self.window.docks.values() if _is_exportable(d)]
        if visible_only:
            docks = [d for d in docks if d.toggleViewAction().isChecked()]
        return docks

    def current_dock(self):
        """The panel last interacted with that is on screen, else the first one on screen; None when
        no exportable panel shows (File > Export then says so rather than export a hidden one)."""
        for dock in self._recent:
            if self._on_screen(dock):
                return dock
        for dock in self.exportable_docks():
            if self._on_screen(dock):
                return dock
        return None

    # ---- questions (overridden in tests) -----------------------------------------------------------------
    def ask_figure(self, dock) -> tuple[str, export.FigureOptions] | None:
        fmt, scale = preferences.export_defaults(self.window.settings)  # Edit > Preferences
        dialog = FigureDialog(dock, self._suggest(dock, fmt if fmt in FIGURE_FILTERS else "png"), self.window)
        dialog.scale_spin.setValue(scale)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return None
        return dialog.path(), dialog.options()

    def ask_data_path(self, dock) -> str | None:
        fmt, _ = preferences.export_defaults(self.window.settings)
        path, _ = QFileDialog.getSaveFileName(self.window, i18n.translate("Export", "Export data of {panel}")
                                              .format(panel=i18n.shown(dock.title)),
                                              self._suggest(dock, fmt if fmt in DATA_FILTERS else "csv"),
                                              ";;".join(map(i18n.shown, DATA_FILTERS.values())), "",
                                              QFileDialog.Option.DontConfirmOverwrite)
        return path or None

    def ask_folder(self) -> str | None:
        path = QFileDialog.getExistingDirectory(self.window, i18n.translate("Export", "Export every open panel into a folder"),
                                                self._folder)
        return path or None

    def ask_session_path(self, save: bool) -> str | None:
        if save:
            path, _ = QFileDialog.getSaveFileName(self.window, i18n.translate("Export", "Save session"),
                                                  os.path.join(self._folder, "session.json"), i18n.shown(SESSION_FILTER), "",
                                                  QFileDialog.Option.DontConfirmOverwrite)
        else:
            path, _ = QFileDialog.getOpenFileName(self.window, i18n.translate("Export", "Open session"), self._folder,
                                                  i18n.shown(SESSION_FILTER))
        return path or None

    def confirm_replace(self, paths: list[str]) -> bool:
        names = "\n".join(os.path.basename(p) for p in paths[:8]) + ("\n…" if len(paths) > 8 else "")
        answer = QMessageBox.question(self.window, i18n.translate("Export", "Replace files?"),
                                      i18n.translate("Export", "These files already exist in {folder}:\n\n{names}\n\n"
                                                               "Replace them?").format(folder=os.path.dirname(paths[0]),
                                                                                       names=names),
                                      QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
                                      QMessageBox.StandardButton.Cancel)
        return answer == QMessageBox.StandardButton.Yes

    def show_error(self, title: str, message: str) -> None:
        self.window.show_status(message)
        QMessageBox.warning(self.window, title, message)

    # ---- actions -----------------------------------------------------------------------------------
    def _suggest(self, dock, ext: str) -> str:
        from ui import export

        return os.path.join(self._folder, f"{export.current_view_name(dock)}.{ext}")

    def _remember(self, path: str) -> None:
        self._folder = os.path.dirname(os.path.abspath(path))

    def _may_write(self, paths: list[str]) -> bool | None:
        """None: cancelled; else the ``overwrite`` flag to pass (True after confirmation)."""
        existing = [p for p in paths if os.path.exists(p)]
        if not existing:
            return False
        return True if self.confirm_replace(existing) else None

    def export_figure(self, dock=None) -> list[str]:
        from ui import export

        dock = dock or self.current_dock()
        if dock is None:
            self.window.show_status(i18n.translate("Export", "No panel to export."))
            return []
        answer = self.ask_figure(dock)
        if answer is None:
            return []
        path, options = answer
        return self._run(lambda overwrite: [export.export_figure(dock, path, options, overwrite=overwrite)],
                         [path], i18n.translate("Export", "Export failed"))

    def export_data(self, dock=None) -> list[str]:
        from peapp import export_data
        from ui import export

        dock = dock or self.current_dock()
        if dock is None:
            self.window.show_status(i18n.translate("Export", "No panel to export."))
            return []
        path = self.ask_data_path(dock)
        if not path:
            return []
        if not os.path.splitext(path)[1]:
            path += ".csv"
        try:
            arrays = dock.export_arrays()
            targets = list(export_data.data_files(path, arrays, export.dock_metadata(dock)))
        except PeappError as exc:
            self.show_error(i18n.translate("Export", "Export failed"), str(exc))
            return []
        return self._run(lambda overwrite: export.export_data_files(dock, path, overwrite=overwrite),
                         targets, i18n.translate("Export", "Export failed"))

    def export_all(self) -> list[str]:
        from peapp import export_data
        from ui import export

        docks = self.exportable_docks()
        if not docks:
            self.window.show_status(i18n.translate("Export", "No open panel to export."))
            return []
        folder = self.ask_folder()
        if not folder:
            return []
        try:
            files = export.export_all_files(docks, folder, EXPORT_ALL_FORMATS)
        except PeappError as exc:
            self.show_error(i18n.translate("Export", "Export failed"), str(exc))
            return []
        return self._run(lambda overwrite: export_data.write_files(files, overwrite=overwrite), list(files),
                         i18n.translate("Export", "Export failed"), folder=folder)

    def _run(self, write, targets: list[str], title: str, folder: str | None = None) -> list[str]:
        overwrite = self._may_write(targets)
        if overwrite is None:
            self.window.show_status(i18n.translate("Export", "Export cancelled; nothing was written."))
            return []
        try:
            written = write(overwrite)
        except PeappError as exc:
            self.show_error(title, str(exc))
            return []
        except OSError as exc:  # anything fileio did not translate: still one clear line
            self.show_error(title, i18n.translate("Export", "writing failed: {problem}; nothing was written.")
                            .format(problem=exc.strerror or exc))
            return []
        self._remember(folder or written[0])
        where = folder or os.path.dirname(os.path.abspath(written[0]))
        names = ", ".join(os.path.basename(p) for p in written[:4]) + (" …" if len(written) > 4 else "")
        self.window.show_status((i18n.translate("Export", "Exported 1 file to {folder}: {names}") if len(written) == 1 else
                                 i18n.translate("Export", "Exported {n} files to {folder}: {names}"))
                                .format(n=len(written), folder=where, names=names))
        return written

    def save_session(self) -> str | None:
        from peapp import export_data

        path = self.ask_session_path(save=True)
        if not path:
            return None
        if not os.path.splitext(path)[1]:
            path += ".json"
        overwrite = self._may_write([path])
        if overwrite is None:
            return None
        try:
            export_data.write_bytes(path, (self.window.document_model.document.to_json() + "\n").encode("utf-8"),
                                    overwrite=overwrite)
        except PeappError as exc:
            self.show_error(i18n.translate("Export", "Session not saved"), str(exc))
            return None
        self._remember(path)
        self.window.show_status(i18n.translate("Export", "Session saved to {path}").format(path=path))
        return path

    def open_session(self, path: str | None = None) -> None:
        """Read a session (or a figure's embedded one) off the GUI thread, then make it the
        Document in one undo step: Ctrl+Z brings back the previous one.  A file that does not open
        leaves the Document and the undo history as they were."""
        from peapp import export_data

        path = path or self.ask_session_path(save=False)
        if not path:
            return
        self.window.ctx.reader.read("open-session", lambda: export_data.document_from_file(path),
                                    lambda document: self._session_read(path, document),
                                    lambda message: self.show_error(
                                        i18n.translate("Export", "Session not opened"),
                                        message + "\n" + i18n.translate("Export", "The current session is unchanged.")),
                                    what=f"session {path}")

    def _session_read(self, path: str, document: Document) -> None:
        self.window.document_model.set_document(document, i18n.translate("Export", "Open session {name}")
                                                .format(name=os.path.basename(path)))
        self._remember(path)
        self.window.show_status(i18n.translate("Export", "Opened session {path} (Undo brings back the previous one)")
                                .format(path=path))


_THEME_NAMES = {"light": msg("Export", "light"), "dark": msg("Export", "dark")}


class FigureDialog(QDialog):
    """File name, format, size, scale and theme of a figure export."""

    def __init__(self, dock, suggested_path: str, parent: QWidget | None = None):
        from ui import export

        super().__init__(parent)
        self.setWindowTitle(i18n.translate("Export", "Export figure — {panel}").format(panel=i18n.shown(dock.title)))
        self.setObjectName("figureExportDialog")
        width, height = export.figure_size(dock, export.FigureOptions())
        form = QFormLayout(self)
        self.path_edit = QLineEdit(suggested_path)
        self.path_edit.setToolTip(i18n.translate("Export", "Where the figure is written; its extension picks the format"))
        browse = QPushButton(i18n.translate("Export", "Browse…"))
        browse.setToolTip(i18n.translate("Export", "Choose the file in a dialog"))
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.addWidget(self.path_edit, 1)
        row.addWidget(browse)
        form.addRow(i18n.translate("Export", "File"), row)
        self.format_combo = QComboBox()
        for fmt, label in FIGURE_FILTERS.items():
            self.format_combo.addItem(i18n.shown(label), fmt)
        self.format_combo.setToolTip(i18n.translate("Export", "PNG: pixels at the chosen scale; SVG and PDF: vector, "
                                                              "text stays text (Hindi in SVG also as outlines)"))
        self.format_combo.currentIndexChanged.connect(self._format_chosen)
        form.addRow(i18n.translate("Export", "Format"), self.format_combo)
        self.width_spin, self.height_spin = QSpinBox(), QSpinBox()
        for spin, value in ((self.width_spin, width), (self.height_spin, height)):
            spin.setRange(export.MIN_SIZE, 20_000)
            spin.setValue(value)
            spin.setSuffix(" px")
            spin.setToolTip(i18n.translate("Export", "Figure size in on-screen pixels (SVG/PDF page size at 96 dpi)"))
            spin.valueChanged.connect(self._update_pixels)
        size_row = QHBoxLayout()
        size_row.addWidget(self.width_spin)
        size_row.addWidget(QLabel("×"))
        size_row.addWidget(self.height_spin)
        form.addRow(i18n.translate("Export", "Size (on screen)"), size_row)
        self.scale_spin = QDoubleSpinBox()
        self.scale_spin.setRange(0.5, 8.0)
        self.scale_spin.setSingleStep(0.5)
        self.scale_spin.setValue(export.DEFAULT_SCALE)
        self.scale_spin.setSuffix(" ×")
        self.scale_spin.setToolTip(i18n.translate("Export", "PNG pixels per on-screen pixel; 2× is sharp on high-DPI "
                                                            "screens and slides"))
        self.scale_spin.valueChanged.connect(self._update_pixels)
        self.pixels_label = QLabel()
        scale_row = QHBoxLayout()
        scale_row.addWidget(self.scale_spin)
        scale_row.addWidget(self.pixels_label, 1)
        form.addRow(i18n.translate("Export", "PNG scale"), scale_row)
        self.theme_combo = QComboBox()
        for theme in export.THEMES:
            self.theme_combo.addItem(i18n.shown(_THEME_NAMES.get(theme, theme)), theme)
        self.theme_combo.setToolTip(i18n.translate("Export", "light: black on white, for papers; dark: light on black, "
                                                             "for slides"))
        form.addRow(i18n.translate("Export", "Theme"), self.theme_combo)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.path_edit.textChanged.connect(self._path_edited)
        self._path_edited(suggested_path)
        self._update_pixels()

    def _browse(self) -> None:
        fmt = self.format_combo.currentData()
        path, _ = QFileDialog.getSaveFileName(self, i18n.translate("Export", "Export figure"), self.path_edit.text(),
                                              ";;".join(map(i18n.shown, FIGURE_FILTERS.values())),
                                              i18n.shown(FIGURE_FILTERS[fmt]),
                                              QFileDialog.Option.DontConfirmOverwrite)
        if path:
            self.path_edit.setText(path)

    def _path_edited(self, text: str) -> None:
        ext = os.path.splitext(text)[1].lower().lstrip(".")
        index = self.format_combo.findData(ext)
        if index >= 0 and index != self.format_combo.currentIndex():
            self.format_combo.blockSignals(True)
            self.format_combo.setCurrentIndex(index)
            self.format_combo.blockSignals(False)
        self.scale_spin.setEnabled(self.format_combo.currentData() == "png")

    def _format_chosen(self, index: int) -> None:
        fmt = self.format_combo.itemData(index)
        stem = os.path.splitext(self.path_edit.text())[0] or "figure"
        self.path_edit.setText(f"{stem}.{fmt}")

    def _update_pixels(self) -> None:
        from ui import export

        scale = self.scale_spin.value()
        self.pixels_label.setText(f"→ {round(self.width_spin.value() * scale)} × "
                                  f"{round(self.height_spin.value() * scale)} px, {export.SCREEN_DPI * scale:.0f} dpi")

    def path(self) -> str:
        text = self.path_edit.text().strip()
        if not os.path.splitext(text)[1]:
            text += "." + self.format_combo.currentData()
        return text

    def options(self) -> export.FigureOptions:
        from ui import export

        return export.FigureOptions(scale=self.scale_spin.value(),
                                    size=(self.width_spin.value(), self.height_spin.value()),
                                    theme=self.theme_combo.currentData())
