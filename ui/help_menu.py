"""Help menu: a tour of the panels, the keyboard shortcuts, and "Which encoding should I use?".

Everything is generated from what the running app has: the tour from the discovered dock
classes (title, shortcut, first sentence of the docstring), the shortcut list from the
actions and shortcuts that exist in the window (each says what it does: an action's status
tip, a shortcut's whatsThis), the guide from ``peapp.guide``.  Nothing is written twice, so a
new dock or action appears here without touching this file.

The tour is a walkthrough: each step brings one panel to the front and says in a sentence what
it shows; Next / Back move through the panels, Esc ends it.
"""

from __future__ import annotations

import inspect
import sys

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (QAbstractButton, QCheckBox, QDialog, QDialogButtonBox, QFrame, QGridLayout,
                               QGroupBox, QHBoxLayout, QHeaderView, QLabel, QPushButton, QScrollArea, QTableWidget,
                               QTableWidgetItem, QVBoxLayout, QWidget)

from peapp import guide
from peapp.errors import PeappError
from ui import i18n
from ui.i18n import msg, translate

#: the tour's sentence of each panel (the first sentence of its docstring, see dock_description),
#: marked here so it is translated: the tour looks each sentence up in "Tour" (a test checks that
#: every panel's sentence is here, so a changed docstring is not left untranslated)
TOUR_SENTENCES = (
    msg("Tour", "The parameters dock: choose the family, then edit its parameters."),
    msg("Tour", "The encoding heatmap: positions × dimensions of the chosen family, or position × position "
                "similarity, with a colour bar, hover read-out, and cross-sections of a clicked cell."),
    msg("Tour", "RoPE as rotations: a pair's 2D vector turning with position, and what that buys."),
    msg("Tour", "The RoPE frequency spectrum: what a scaling (PI, NTK, YaRN, Llama-3, LongRoPE) does to each pair."),
    msg("Tour", "The attention-matrix inspector: what each positional scheme does to attention."),
    msg("Tour", "The vision-patch grid: how 2D position encodings see an image cut into patches."),
    msg("Tour", "The checkpoint panel: what an opened model holds and how it encodes position."),
    msg("Tour", "The worked example: a word's embedding, its positional vector, and what the model sees."),
    msg("Tour", "Length extrapolation, side by side: what each scheme does past its training length."),
    msg("Tour", "Time series: encodings of real, irregular timestamps."),
    msg("Tour", "Training lab: train small transformers that differ only in position encoding, then draw what they "
                "measure past their training length (exact match or perplexity vs length, a band over seeds)."),
    msg("Tour", "Probes: context extension, \"lost in the middle\" and attention sinks, measured on the opened "
                "checkpoint."),
    msg("Tour", "Run on text: the opened checkpoint run on the user's text, and what its attention does with position."),
    msg("Tour", "Multimodal positions (M-RoPE): text, images and video in one sequence."),
    msg("Tour", "Measured claims: the article's claims on NoPE's temperature, the cost of relative positions, "
                "attention sinks and the NoPE ranking, each beside what was measured."),
)


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
        entries.append((name, i18n.shown(cls.title), shortcut, dock_description(cls)))
    return entries


def first_sentence(text: str) -> str:
    """The first sentence of ``text`` (up to the first full stop followed by a space)."""
    head, dot, _rest = text.partition(". ")
    return head + "." if dot else text


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
            tip = action.statusTip() or action.toolTip()
            what = tip if tip and _plain(tip) != _plain(action.text()) else _plain(action.text())
            if action.isCheckable() and action.parent() in window.docks.values():
                what = translate("Help", "Show/hide the {panel} panel").format(panel=_plain(action.text()))
            add(action.shortcuts(), what)
    for shortcut in window.findChildren(QShortcut):
        add([shortcut.key()], shortcut.whatsThis() or _owner_description(shortcut))
    for button in window.findChildren(QAbstractButton):
        if not button.shortcut().isEmpty():
            add([button.shortcut()], button.toolTip().split(" (")[0] or _plain(button.text()))
    return sorted(found, key=lambda pair: (_key_order(pair[0]), pair[1].lower()))


def _key_order(key: str) -> tuple:
    """Keys in the order people look them up: plain keys first, then by modifiers (Ctrl, Ctrl+Shift,
    …), then the key itself with digits in numeric order (Ctrl+0 … Ctrl+9 together, not among the
    descriptions they do; the list was sorted by description)."""
    modifiers, _, last = key.rpartition("+") if len(key) > 1 else ("", "", key)
    if not last:  # "Ctrl++"
        modifiers, last = modifiers.rstrip("+"), "+"
    return (modifiers.count("+") + bool(modifiers), modifiers, len(last) > 1, last.isdigit(), last)


def _owner_description(obj) -> str:
    """For a shortcut without whatsThis (a bug: every QShortcut should say what it does)."""
    parent = obj.parent()
    while parent is not None:
        title = getattr(type(parent), "title", "")
        if title and parent in getattr(parent.parent(), "docks", {}).values():
            return translate("Help", "{panel} panel: {what}").format(
                panel=i18n.shown(title), what=_plain(obj.objectName()) or translate("Help", "undocumented shortcut"))
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
    """A walkthrough of the panels: each step brings one to the front and says what it shows."""

    def __init__(self, window):
        super().__init__(window)
        self.window_ = window
        self.setObjectName("tourDialog")
        self.setWindowTitle(translate("Help", "Tour of the panels"))
        self.resize(440, 210)
        self.entries = tour_entries(window)
        self.step = 0
        # panels the tour showed that were closed (an empty Checkpoint panel): closed again at the end
        self._opened: set[str] = set()
        # a frame over the panel a step describes, so its place in the window is seen
        self.highlight = QFrame(window)
        self.highlight.setObjectName("tourHighlight")
        self.highlight.setStyleSheet("#tourHighlight { border: 3px solid #f1c40f; border-radius: 4px; "
                                     "background: transparent; }")
        self.highlight.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)
        self.highlight.hide()
        layout = QVBoxLayout(self)
        self.heading = QLabel()
        self.heading.setObjectName("tourHeading")
        self.text = QLabel()
        self.text.setObjectName("tourText")
        self.text.setWordWrap(True)
        layout.addWidget(self.heading)
        layout.addWidget(self.text, 1)
        hint = QLabel(translate("Help", "Every panel follows the Parameters panel; panels can be moved, tabbed and "
                                        "hidden (View menu), and each has its own Export. Esc ends the tour."))
        hint.setWordWrap(True)
        hint.setStyleSheet("color: palette(window-text);")  # palette(mid) was hard to read
        layout.addWidget(hint)
        row = QHBoxLayout()
        self.back_button = QPushButton(translate("Help", "< &Back"))
        self.back_button.setObjectName("tourBack")
        self.back_button.setToolTip(translate("Help", "The previous panel"))
        self.back_button.clicked.connect(lambda: self.go(self.step - 1))
        self.next_button = QPushButton(translate("Help", "&Next >"))
        self.next_button.setObjectName("tourNext")
        self.next_button.setToolTip(translate("Help", "The next panel"))
        self.next_button.setDefault(True)
        self.next_button.clicked.connect(self._next)
        close = QPushButton(translate("Help", "Close"))
        close.setToolTip(translate("Help", "End the tour (Esc)"))
        close.clicked.connect(self.reject)
        row.addWidget(close)
        row.addStretch(1)
        row.addWidget(self.back_button)
        row.addWidget(self.next_button)
        layout.addLayout(row)
        self.go(0)

    def current_panel(self) -> str | None:
        return self.entries[self.step][0] if self.entries else None

    def go(self, step: int) -> None:
        """Show step ``step``: raise its panel and say what it shows."""
        if not self.entries:
            self.heading.setText("<b>" + translate("Help", "The panels are still loading") + "</b>")
            self.text.setText(translate("Help", "Open the tour again in a moment."))
            self.back_button.setEnabled(False)
            self.next_button.setEnabled(False)
            return
        self.step = max(0, min(step, len(self.entries) - 1))
        name, title, shortcut, description = self.entries[self.step]
        keys = f" — {shortcut}" if shortcut else ""
        step = translate("Help", "{step} of {count}: {title}").format(step=self.step + 1, count=len(self.entries),
                                                                      title=title)
        self.heading.setText(f"<b>{step}</b>{keys}")
        sentence = first_sentence(description)
        self.text.setText(translate("Tour", sentence))  # marked in TOUR_SENTENCES
        self.back_button.setEnabled(self.step > 0)
        last = self.step == len(self.entries) - 1
        self.next_button.setText(translate("Help", "&Finish") if last else translate("Help", "&Next >"))
        dock = self.window_.docks.get(name)
        if dock is not None and dock.isHidden():
            self._opened.add(name)
        _raise_dock(self.window_, name)
        self._stand_beside(dock)
        self._frame(dock)

    def _frame(self, dock) -> None:
        if dock is None or dock.isFloating():
            self.highlight.hide()
            return
        self.window_.layout().activate()  # the raised panel's place, now
        top_left = dock.mapTo(self.window_, dock.rect().topLeft())
        self.highlight.setGeometry(QRect(top_left, dock.size()))
        self.highlight.show()
        self.highlight.raise_()

    def done(self, result: int) -> None:  # Qt override: Finish, Close and Esc all end here
        self.highlight.hide()
        self.highlight.deleteLater()
        document = self.window_.ctx.document
        for name in self._opened:
            dock = self.window_.docks.get(name)
            # shown for the tour only: an empty Checkpoint panel is not left open (a model opened
            # meanwhile keeps it)
            if dock is not None and not (name == "checkpointDock" and document.checkpoint):
                dock.hide()
        super().done(result)

    def _next(self) -> None:
        if self.step >= len(self.entries) - 1:
            self.accept()
        else:
            self.go(self.step + 1)

    def _stand_beside(self, dock) -> None:
        """Keep the tour off the panel it describes: on the other half of the window."""
        if dock is None or dock.isFloating() or not self.window_.isVisible():
            return
        area = self.window_.geometry()
        centre = dock.mapTo(self.window_, dock.rect().center()).x()
        x = area.left() + 24 if centre > area.width() // 2 else area.right() - self.width() - 24
        self.move(x, area.bottom() - self.height() - 48)


class ShortcutsDialog(QDialog):
    def __init__(self, window):
        super().__init__(window)
        self.setObjectName("shortcutsDialog")
        self.setWindowTitle(translate("Help", "Keyboard shortcuts"))
        self.resize(460, 420)
        layout = QVBoxLayout(self)
        entries = shortcut_entries(window)
        self.table = QTableWidget(len(entries), 2)
        self.table.setObjectName("shortcutsTable")
        self.table.setHorizontalHeaderLabels([translate("Help", "Keys"), translate("Help", "Action")])
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
        self.setWindowTitle(translate("Help", "Which encoding should I use?"))
        self.resize(620, 600)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel("<b>" + translate("Help", "What matters for what you are building?") + "</b> "
                                + translate("Help", "Tick all that apply.")))
        self.boxes: dict[str, QCheckBox] = {}
        for need in guide.NEEDS:
            box = QCheckBox(i18n.shown(need.label))
            box.setObjectName(f"need_{need.key}")
            box.setToolTip(i18n.shown(need.help))
            box.toggled.connect(self.update_answers)
            layout.addWidget(box)
            self.boxes[need.key] = box
        self._answers = QWidget()
        self._answers_layout = QVBoxLayout(self._answers)
        layout.addWidget(_scrolling(self._answers), 1)
        layout.addWidget(self._claims_box())
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self.show_buttons: dict[str, QPushButton] = {}
        self.update_answers()

    def _claims_box(self) -> QGroupBox:
        """The article's four claims, measured (issue 37): a click opens one in Measured claims, as
        Help > Measured claims does; its caption is the button's tip."""
        from peapp.model_run.claims import CAPTIONS, MODES

        box = QGroupBox(translate("Help", "What the article claims, measured"))
        box.setObjectName("guideClaims")
        grid = QGridLayout(box)
        self.claim_buttons: dict[str, QPushButton] = {}
        for i, (mode, label) in enumerate(MODES.items()):
            button = QPushButton(i18n.shown(label))
            button.setObjectName(f"guide_{mode.replace('-', '_')}")
            button.setToolTip(i18n.shown(CAPTIONS[mode]))
            button.clicked.connect(lambda _=False, m=mode: _show_claim(self.window_, m))
            grid.addWidget(button, i // 2, i % 2)
            self.claim_buttons[mode] = button
        return box

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
        labels = {need.key: i18n.shown(need.label) for need in guide.NEEDS}
        if not advice.recommendations:
            hint = QLabel(translate("Help", "Tick one or more needs above to see a recommendation."))
            hint.setObjectName("guideHint")
            self._answers_layout.addWidget(hint)
        for note in advice.notes:
            label = QLabel(f"⚠ {i18n.shown(note)}")
            label.setWordWrap(True)
            label.setObjectName("guideNote")
            self._answers_layout.addWidget(label)
        for rank, rec in enumerate(advice.recommendations):
            name = i18n.shown(rec.label)
            box = QGroupBox(translate("Help", "Best fit: {family}").format(family=name)
                            if rank == 0 and len(advice.recommendations) > 1 else name)
            box.setObjectName(f"answer_{rec.family}")
            inner = QVBoxLayout(box)
            why = "<br>".join(f"• {i18n.shown(reason)}" for reason in rec.reasons)
            covers = translate("Help", "Covers: {needs}.").format(needs="; ".join(labels[key] for key in rec.needs))
            text = QLabel(f"{why}<br><i>{covers}</i>")
            text.setWordWrap(True)
            inner.addWidget(text)
            dock = self.dock_for(rec)
            if dock is not None:
                title = i18n.shown(type(self.window_.docks[dock]).title)
                button = QPushButton(translate("Help", "Show {family} in the {panel} panel").format(family=name, panel=title))
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
        model.set_document(document, translate("Help", "Show {family}").format(family=i18n.shown(rec.label)))
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
        QAction(window, objectName="actionTour", triggered=lambda: _open(window, TourDialog)),
        QAction(window, objectName="actionShortcuts", shortcut=QKeySequence("Ctrl+/"),
                triggered=lambda: _open(window, ShortcutsDialog)),
        QAction(window, objectName="actionGuide", triggered=lambda: _open(window, GuideDialog)),
    ]
    i18n.keep(actions[0].setText, msg("Menus", "&Tour of the panels"))
    i18n.keep(actions[1].setText, msg("Menus", "&Keyboard shortcuts"))
    i18n.keep(actions[1].setStatusTip, msg("Menus", "List every keyboard shortcut and what it does"))
    i18n.keep(actions[2].setText, msg("Menus", "&Which encoding should I use?"))
    for action in actions:
        menu.insertAction(first, action)
    menu.insertMenu(first, _claims_menu(window))
    if first is not None:
        menu.insertSeparator(first)


def _claims_menu(window):
    """Help > Measured claims > one entry per claim (two clicks): the panel in that mode, its caption
    as the entry's status tip (issue 37)."""
    from PySide6.QtWidgets import QMenu

    from peapp.model_run.claims import CAPTIONS, MODES

    menu = QMenu(window)
    menu.setObjectName("menuClaims")
    i18n.keep(menu.setTitle, msg("Menus", "&Measured claims"))
    for mode, label in MODES.items():
        action = QAction(window, objectName=f"action_{mode.replace('-', '_')}")
        i18n.keep(action.setText, label)
        i18n.keep(action.setStatusTip, CAPTIONS[mode])
        i18n.keep(action.setToolTip, CAPTIONS[mode])
        action.triggered.connect(lambda _=False, m=mode: _show_claim(window, m))
        menu.addAction(action)
        if mode == "claims-sinks":  # the same experiment run here, on the opened model
            run = QAction(window, objectName="action_probe_streaming")
            i18n.keep(run.setText, STREAMING_ENTRY)
            i18n.keep(run.setStatusTip, STREAMING_CAPTION)
            i18n.keep(run.setToolTip, STREAMING_CAPTION)
            run.triggered.connect(lambda _=False: _show_streaming_probe(window))
            menu.addAction(run)
    # the NoPE temperature where it is measured on a model's own q and k, and in the sandbox layer
    menu.addSeparator()
    for name, label, tip, show in (
            ("action_run_nope", msg("Menus", "NoPE temperature in Run on text"),
             msg("Menus", "A NoPE layer's attention entropy with and without Llama 4's temperature, from the q and k "
                          "of the opened model's run on a text (Run on text, NoPE temperature tab)"), _show_run_nope),
            ("action_attention_nope", msg("Menus", "NoPE temperature in the attention inspector"),
             msg("Menus", "The attention inspector with the NoPE scheme: each query's entropy with Llama 4's "
                          "temperature dashed beside the plain one"), _show_attention_nope)):
        action = QAction(window, objectName=name)
        i18n.keep(action.setText, label)
        i18n.keep(action.setStatusTip, tip)
        i18n.keep(action.setToolTip, tip)
        action.triggered.connect(lambda _=False, f=show: f(window))
        menu.addAction(action)
    menu.setToolTipsVisible(True)
    return menu


STREAMING_ENTRY = msg("Menus", "Attention sinks: run on the opened model (Probes)")
STREAMING_CAPTION = msg("Menus", "StreamingLLM's experiment on the opened checkpoint: perplexity by position with a "
                                 "KV cache of the last W tokens, with and without the first K tokens kept — set W "
                                 "and K, then Run")


def _show_streaming_probe(window) -> None:
    window.document_model.set_view("probe", mode="probe-streaming")
    _raise_dock(window, "probeDock")


def _show_claim(window, mode: str) -> None:
    window.document_model.set_view("claims", mode=mode)
    _raise_dock(window, "claimsDock")


def _show_run_nope(window) -> None:
    """Run on text on its NoPE temperature tab (its caption says what to open and run first)."""
    window.document_model.set_view("run", mode="run-nope")
    _raise_dock(window, "runDock")


def _show_attention_nope(window) -> None:
    """The attention inspector with the NoPE scheme and its temperature curve on."""
    from peapp.views.attention import with_attention_settings

    try:
        new = with_attention_settings(window.document_model.document, scheme="nope", nope_temperature=True)
    except PeappError as exc:
        window.statusBar().showMessage(str(exc))
        return
    window.document_model.set_document(new, "NoPE temperature")
    _raise_dock(window, "attentionDock")
