"""Help menu: a tour of the panels, the keyboard shortcuts, and "Which encoding should I use?".

Everything is generated from what the running app has: the tour from the discovered dock
classes (title, shortcut, first paragraph of the docstring), the shortcut list from the
actions and shortcuts that exist in the window, the guide from ``peapp.guide``.  Nothing is
written twice, so a new dock or action appears here without touching this file.
"""

from __future__ import annotations

import inspect
import sys

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractButton, QCheckBox, QDialog, QDialogButtonBox, QFrame, QGroupBox,
                               QHBoxLayout, QHeaderView, QLabel, QPushButton, QScrollArea, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from peapp import guide
from peapp.errors import PeappError


# ---- content (plain data; tests read these) -------------------------------------------------------
def dock_description(cls: type) -> str:
    """The first paragraph of the dock's own docstring, else of its module's, on one line."""
    doc = cls.__dict__.get("__doc__") or inspect.getdoc(sys.modules.get(cls.__module__)) or ""
    paragraph = inspect.cleandoc(doc).split("\n\n")[0]
    return " ".join(paragraph.split())


def tour_entries(window) -> list[tuple[str, str, str, str]]:
    """``(objectName, title, shortcut, description)`` of every panel, in the View menu's order."""
    entries = []
    for name, dock in window.docks.items():
        cls = type(dock)
        shortcut = QKeySequence(cls.shortcut).toString(QKeySequence.SequenceFormat.NativeText) if cls.shortcut else ""
        entries.append((name, cls.title, shortcut, dock_description(cls)))
    return entries


def _plain(text: str) -> str:
    return text.replace("&&", "\0").replace("&", "").replace("\0", "&").replace("…", "").strip()


def shortcut_entries(window) -> list[tuple[str, str]]:
    """``(key, what it does)`` for every action, shortcut and button with a key in the window."""
    found: dict[tuple[str, str], None] = {}

    def add(sequences, what: str) -> None:
        for seq in sequences:
            key = seq.toString(QKeySequence.SequenceFormat.NativeText)
            if key and what:
                found[(key, what)] = None

    actions = set(window.findChildren(QAction))
    for menu in (window.menuBar().actions()):
        if menu.menu() is not None:
            actions.update(menu.menu().actions())
    for action in actions:
        if action.shortcuts():
            what = _plain(action.text())
            if action.isCheckable() and action.parent() in window.docks.values():
                what = f"Show/hide the {what} panel"
            add(action.shortcuts(), what)
    for shortcut in window.findChildren(QShortcut):
        add([shortcut.key()], shortcut.whatsThis() or _owner_description(shortcut))
    for button in window.findChildren(QAbstractButton):
        if not button.shortcut().isEmpty():
            add([button.shortcut()], button.toolTip().split(" (")[0] or _plain(button.text()))
    return sorted(found, key=lambda pair: (pair[1].lower(), pair[0]))


def _owner_description(obj) -> str:
    """For a shortcut without whatsThis: name the panel it belongs to (set whatsThis to say more)."""
    parent = obj.parent()
    while parent is not None:
        title = getattr(type(parent), "title", "")
        if title and parent in getattr(parent.parent(), "docks", {}).values():
            return f"(a shortcut of the {title} panel)"
        parent = parent.parent()
    return _plain(obj.objectName())


# ---- dialogs ----------------------------------------------------------------------------------------
def _raise_dock(window, name: str) -> None:
    dock = window.docks.get(name)
    if dock is not None:
        dock.show()
        dock.raise_()


def _scrolling(widget: QWidget) -> QScrollArea:
    area = QScrollArea()
    area.setWidgetResizable(True)
    area.setFrameShape(QFrame.Shape.NoFrame)
    area.setWidget(widget)
    return area


class TourDialog(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("tourDialog")
        self.setWindowTitle("Tour of the panels")
        self.resize(560, 520)
        layout = QVBoxLayout(self)
        intro = QLabel("Every panel follows the Parameters panel: pick an encoding family there and change a "
                       "value, and each view recomputes. Panels can be moved, tabbed and hidden (View menu); "
                       "each has its own export and a line at the bottom saying what it shows.")
        intro.setWordWrap(True)
        layout.addWidget(intro)
        body = QWidget()
        rows = QVBoxLayout(body)
        entries = tour_entries(window)
        if not entries:
            rows.addWidget(QLabel("The panels are still loading; open the tour again in a moment."))
        for name, title, shortcut, text in entries:
            box = QGroupBox(f"{title}   {shortcut}".strip())
            box.setObjectName(f"tour_{name}")
            inner = QHBoxLayout(box)
            label = QLabel(text)
            label.setWordWrap(True)
            inner.addWidget(label, 1)
            show = QPushButton("Show")
            show.setToolTip(f"Bring the {title} panel to the front")
            show.clicked.connect(lambda _=False, n=name: _raise_dock(window, n))
            inner.addWidget(show, 0, Qt.AlignmentFlag.AlignTop)
            rows.addWidget(box)
        rows.addStretch(1)
        layout.addWidget(_scrolling(body), 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class ShortcutsDialog(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(460, 420)
        layout = QVBoxLayout(self)
        entries = shortcut_entries(window)
        self.table = QTableWidget(len(entries), 2)
        self.table.setObjectName("shortcutsTable")
        self.table.setHorizontalHeaderLabels(["Keys", "Action"])
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (key, what) in enumerate(entries):
            self.table.setItem(row, 0, QTableWidgetItem(key))
            self.table.setItem(row, 1, QTableWidgetItem(what))
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        layout.addWidget(self.table)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)


class GuideDialog(QDialog):
    """Tick what matters; see which encodings fit, why, and open the panel that shows each."""

    def __init__(self, window):
        super().__init__(window)
        self.window_ = window
        self.setObjectName("guideDialog")
        self.setWindowTitle("Which encoding should I use?")
        self.resize(620, 600)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("<b>What matters for what you are building?</b> Tick all that apply."))
        self.boxes: dict[str, QCheckBox] = {}
        for need in guide.NEEDS:
            box = QCheckBox(need.label)
            box.setObjectName(f"need_{need.key}")
            box.setToolTip(need.help)
            box.toggled.connect(self.update_answers)
            layout.addWidget(box)
            self.boxes[need.key] = box
        self._answers = QWidget()
        self._answers_layout = QVBoxLayout(self._answers)
        layout.addWidget(_scrolling(self._answers), 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.show_buttons: dict[str, QPushButton] = {}
        self.update_answers()

    def ticked(self) -> set[str]:
        return {key for key, box in self.boxes.items() if box.isChecked()}

    def update_answers(self) -> None:
        while self._answers_layout.count():
            item = self._answers_layout.takeAt(0)
            if item.widget() is not None:
                item.widget().hide()  # deleteLater alone would leave it painted until the next loop turn
                item.widget().deleteLater()
        self.show_buttons = {}
        advice = guide.recommend(self.ticked())
        labels = {need.key: need.label for need in guide.NEEDS}
        if not advice.recommendations:
            hint = QLabel("Tick one or more needs above to see a recommendation.")
            hint.setObjectName("guideHint")
            self._answers_layout.addWidget(hint)
        for note in advice.notes:
            label = QLabel(f"⚠ {note}")
            label.setWordWrap(True)
            label.setObjectName("guideNote")
            self._answers_layout.addWidget(label)
        for rank, rec in enumerate(advice.recommendations):
            box = QGroupBox(("Best fit: " if rank == 0 and len(advice.recommendations) > 1 else "") + rec.label)
            box.setObjectName(f"answer_{rec.family}")
            inner = QVBoxLayout(box)
            why = "<br>".join(f"• {reason}" for reason in rec.reasons)
            covers = "; ".join(labels[key] for key in rec.needs)
            text = QLabel(f"{why}<br><i>Covers: {covers}.</i>")
            text.setWordWrap(True)
            inner.addWidget(text)
            dock = self.dock_for(rec)
            if dock is not None:
                title = type(self.window_.docks[dock]).title
                button = QPushButton(f"Show {rec.label} in the {title} panel")
                button.setObjectName(f"show_{rec.family}")
                button.clicked.connect(lambda _=False, r=rec: self.show_family(r))
                row = QHBoxLayout()
                row.addWidget(button)
                row.addStretch(1)
                inner.addLayout(row)
                self.show_buttons[rec.family] = button
            self._answers_layout.addWidget(box)
        self._answers_layout.addStretch(1)

    def view_and_dock_for(self, rec: guide.Recommendation) -> tuple[str, str] | tuple[None, None]:
        """The first of the recommendation's views that a panel of this window shows, and that
        panel's objectName (the guide names views as `peapp render` does; the panels map them)."""
        from ui.export import view_names  # not at the top: it loads pyqtgraph, this module must not

        for view in rec.views:
            for name, dock in self.window_.docks.items():
                if view in view_names(type(dock)):
                    return view, name
        return None, None

    def dock_for(self, rec: guide.Recommendation) -> str | None:
        return self.view_and_dock_for(rec)[1]

    def show_family(self, rec: guide.Recommendation) -> None:
        """Select the family — in the document and, for a dock with its own scheme choice, in that
        dock's settings — as one undoable edit, and raise the panel."""
        model = self.window_.document_model
        view, dock = self.view_and_dock_for(rec)
        try:
            document = model.document.with_family(rec.family)
            key = guide.VIEW_FAMILY_SETTING.get(view) if view else None
            if key and dock:
                document = document.with_view(self.window_.docks[dock].view_id, **{key: rec.family})
        except PeappError as exc:  # a build without that family: say so, change nothing
            self.window_.show_status(str(exc))
            return
        model.set_document(document, f"Show {rec.label}")
        if dock is not None:
            _raise_dock(self.window_, dock)


# ---- wiring ------------------------------------------------------------------------------------------
def _open(window, cls) -> QDialog:
    dialog = cls(window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog


def install(window) -> None:
    """Put the tour, shortcuts and guide above the existing About entry of the Help menu."""
    menu = window.help_menu
    first = menu.actions()[0] if menu.actions() else None
    actions = [
        QAction("&Tour of the panels", window, objectName="actionTour",
                triggered=lambda: _open(window, TourDialog)),
        QAction("&Keyboard shortcuts", window, objectName="actionShortcuts",
                shortcut=QKeySequence("Ctrl+/"), triggered=lambda: _open(window, ShortcutsDialog)),
        QAction("&Which encoding should I use?", window, objectName="actionGuide",
                triggered=lambda: _open(window, GuideDialog)),
    ]
    for action in actions:
        menu.insertAction(first, action)
    if first is not None:
        menu.insertSeparator(first)
