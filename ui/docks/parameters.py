"""The parameters dock: choose the family, then edit its parameters.

Each family's form is built by ``ui.forms`` from its spec metadata (``peapp.params``), so a
new family needs no code here.  Edits are throttled (a drag never queues hundreds of jobs; superqt's throttler
always delivers the final value), validated by the Document, and undoable.  A refused value is
said right under its field; fields the current values make irrelevant (YaRN settings while RoPE
is unscaled) are disabled, with the reason in their tooltip.
"""

from __future__ import annotations

from typing import Any, Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import QComboBox, QFormLayout, QFrame, QLabel, QScrollArea, QStyle, QVBoxLayout, QWidget
from superqt.utils import signals_blocked

from peapp.i18n import msg
from peapp import encodings
from peapp.document import Document
from ui.docks.base import ViewDock
from ui import i18n
from ui.forms import Form, tooltip as field_tooltip


class _FamilyPage(QWidget):
    """One family's page: its summary, then its form (``ui.forms``), kept in sync with the Document."""

    def __init__(self, family: encodings.Family, on_edit: Callable[[str, Any], None]):
        super().__init__()
        self.family = family
        layout = QFormLayout(self)
        layout.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
        self.summary = QLabel()
        i18n.keep_updated(self.summary, lambda: self.summary.setText(i18n.shown(family.summary)))
        self.summary.setObjectName(f"summary_{family.name}")
        self.summary.setWordWrap(True)
        layout.addRow(self.summary)
        self.form = Form(family.spec, on_edit, parent=self, prefix="param_")
        self.form.add_rows(layout)
        self.widgets = self.form.widgets
        self._spec = None

    def sync(self, spec) -> None:
        """Show ``spec``'s values; disable the fields they make irrelevant, saying why on hover."""
        self._spec = spec
        self.form.sync(spec.to_dict())
        inactive = spec.inactive_fields()
        for name, widget in self.widgets.items():
            reason = inactive.get(name)
            self.form.set_row_enabled(name, reason is None)
            help_tip = field_tooltip(self.form.infos[name])  # in the current language
            tip = help_tip if reason is None else f"{reason}  {help_tip}"
            widget.setToolTip(tip)
            self.form.labels[name].setToolTip(tip)

    def retranslate(self) -> None:
        """Say the reasons a field is disabled in the new language (the form has set its help)."""
        if self._spec is not None:
            self.sync(self._spec)


class ParametersDock(ViewDock):
    object_name = "parametersDock"
    title = msg("Panels", "Parameters")
    order = 0
    default_area = Qt.DockWidgetArea.LeftDockWidgetArea
    tab_group = "controls"
    shortcut = "Ctrl+0"
    exportable = False

    def build(self) -> None:  # ViewDock.__init__ calls it (a front panel: never built later)
        body = QWidget()
        layout = QVBoxLayout(body)
        layout.setContentsMargins(0, 0, 0, 0)
        self.family_combo = QComboBox()
        self.family_combo.setObjectName("familyCombo")
        i18n.keep_tooltip(self.family_combo, msg("Parameters", "Encoding family shown by the heatmap "
                                                 "(Ctrl+Up/Down to switch)"))
        self._families = encodings.families()
        for fam in self._families:
            self.family_combo.addItem(i18n.shown(fam.label), fam.name)
        i18n.keep_updated(self.family_combo, self._name_families)
        self.family_combo.currentIndexChanged.connect(self._family_chosen)
        layout.addWidget(self.family_combo)
        # one family's page shows at a time; the others are hidden, so the scroll area is as tall
        # as the page shown (a QStackedWidget would be as tall as the tallest page)
        self.pages = QWidget()
        self.pages.setObjectName("parameterPages")
        pages_layout = QVBoxLayout(self.pages)
        pages_layout.setContentsMargins(0, 0, 0, 0)
        self.forms: dict[str, _FamilyPage] = {}
        for fam in self._families:
            form = _FamilyPage(fam, lambda name, value, f=fam.name: self._edit(f, name, value))
            self.forms[fam.name] = form
            form.setVisible(False)
            pages_layout.addWidget(form)
        # The form scrolls rather than squeezes: squeezed, a form layout clips the summary after two
        # lines and overlaps its rows (RoPE has 19 fields; a 768-px screen with the Checkpoint open).
        self.scroll = QScrollArea()
        self.scroll.setObjectName("parametersScroll")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        pages_layout.addStretch(1)
        self.scroll.setWidget(self.pages)
        # scroll up and down only: as wide as the widest form plus its scroll bar
        widest = max(page.minimumSizeHint().width() for page in self.forms.values())
        self.scroll.setMinimumWidth(widest + self.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent) + 4)
        layout.addWidget(self.scroll, 1)
        # a refusal that belongs to no field (the family choice); a field's is said under it
        self.message = QLabel()
        self.message.setObjectName("paramMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet("color: #c0392b;")
        self.message.setVisible(False)
        layout.insertWidget(1, self.message)
        self.set_body(body)
        i18n.keep(self.set_caption, msg("Parameters", "Every value is checked before it is used; Ctrl+Z undoes an edit."),
                  self)
        self._refusal: str | None = None
        self.ctx.document_model.error.connect(self._remember_refusal)
        for key, step, what in (("Ctrl+Down", 1, msg("Parameters", "Show the next encoding family (Parameters panel)")),
                                ("Ctrl+Up", -1, msg("Parameters", "Show the previous encoding family (Parameters panel)"))):
            shortcut = QShortcut(QKeySequence(key), self, context=Qt.ShortcutContext.ApplicationShortcut)
            i18n.keep(shortcut.setWhatsThis, what, shortcut)
            shortcut.activated.connect(lambda s=step: self.step_family(s))
        self.on_document_changed(self.ctx.document)

    def make_request(self, document: Document):
        return None

    def _name_families(self) -> None:
        """The families' names and summaries (on hover) in the current language."""
        for index, fam in enumerate(self._families):
            self.family_combo.setItemText(index, i18n.shown(fam.label))
            self.family_combo.setItemData(index, i18n.shown(fam.summary), Qt.ItemDataRole.ToolTipRole)

    def retranslate(self, language: str = "") -> None:
        """The families' pages say why a field is disabled in the new language."""
        for page in self.forms.values():
            page.retranslate()

    def show_result(self, result) -> None:  # pragma: no cover - never requested
        return None

    def on_document_changed(self, document: Document) -> None:
        with signals_blocked(self.family_combo):
            self.family_combo.setCurrentIndex(self.family_combo.findData(document.family))
        for name, page in self.forms.items():
            page.setVisible(name == document.family)
        for name, form in self.forms.items():
            try:
                form.sync(document.spec(name))
            except Exception:
                continue
        self.message.clear()
        self.message.setVisible(False)

    def step_family(self, step: int) -> None:
        """Show the next (or previous) family: Ctrl+Down / Ctrl+Up."""
        count = self.family_combo.count()
        self.family_combo.setCurrentIndex((self.family_combo.currentIndex() + step) % count)

    def _family_chosen(self, index: int) -> None:
        self._refusal = None
        if not self.ctx.document_model.try_set_family(self.family_combo.itemData(index)):
            self.message.setText(self._refusal or "")
            self.message.setVisible(True)

    def _edit(self, family: str, name: str, value: Any) -> None:
        self._refusal = None
        form = self.forms[family].form
        if self.ctx.document_model.try_set_params(family, **{name: value}):
            form.clear_invalid()
        else:  # the main window puts it in the status bar too
            form.mark_invalid(name, self._refusal or i18n.translate("Parameters", "{value} was refused").format(
                value=repr(value)))

    def _remember_refusal(self, message: str) -> None:
        # the model says why it refused an edit synchronously, before try_set_* returns
        self._refusal = message


DOCK = ParametersDock
