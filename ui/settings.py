"""User preferences (QSettings): theme, colour maps, export defaults, compute device and precision, recent
files, window layout — and the Edit > Preferences dialog.

Everything read from the store is checked: a value of the wrong type or out of range, or a
store Qt cannot parse, falls back to the default, and the user is told which setting was
reset (status bar).  Nothing here raises on a bad store.

API for other modules:

* ``add_recent(path, settings=None)`` / ``recent_files(settings=None)`` — the recent-files list
  (newest first, at most ``MAX_RECENT``, files that no longer exist are dropped when read).
* ``colormap_name(symmetric)`` / ``colormap(symmetric)`` — the colour map the user chose (diverging for data centred on
  zero, sequential otherwise).  Docks call it when they draw.
* ``export_defaults(settings)`` — ``(format, scale)`` for File > Export.
* ``install(window)`` — the Preferences action, and applying the stored preferences at start.
"""

from __future__ import annotations

import os
import sys
import weakref
from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Callable

from PySide6.QtCore import QObject, QRectF, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QColor, QIcon, QKeySequence, QLinearGradient, QPainter, QPalette, QPen, QPixmap
from PySide6.QtWidgets import (QApplication, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox,
                               QFormLayout, QGroupBox, QHBoxLayout, QLabel, QListWidget, QProxyStyle, QPushButton, QStyle,
                               QStyleFactory, QVBoxLayout)

from ui import i18n
from ui.i18n import LANGUAGES, msg, system_language

THEMES = ("system", "light", "dark")  # system: the desktop's own palette, untouched
SEQUENTIAL_MAPS = ("viridis", "cividis", "magma", "inferno", "plasma", "turbo", "CET-L1")
DIVERGING_MAPS = ("CET-D1A", "CET-D1", "CET-D3", "CET-D4", "CET-D9", "CET-D13")
EXPORT_FORMATS = ("png", "svg", "pdf", "csv", "npy", "npz")  # = peapp.export_data.FORMATS (a test checks)
SCALE_RANGE = (1.0, 8.0)
MAX_RECENT = 10


@dataclass(frozen=True)
class Preferences:
    theme: str = "system"
    sequential_colormap: str = "viridis"
    diverging_colormap: str = "CET-D1A"
    export_format: str = "png"
    export_scale: float = 2.0
    compute_device: str = "cpu"
    compute_dtype: str = "auto"  # what a model panel's Precision "auto" runs in (peapp.model_run.placement.DTYPES)
    restore_layout: bool = True
    language: str = "en"  # at first start: the desktop's locale if it is Hindi (load_preferences)


# QSettings key of each field.
KEYS = {
    "theme": "appearance/theme",
    "sequential_colormap": "appearance/sequential_colormap",
    "diverging_colormap": "appearance/diverging_colormap",
    "export_format": "export/format",
    "export_scale": "export/scale",
    "compute_device": "compute/device",
    "compute_dtype": "compute/dtype",
    "restore_layout": "window/restore_layout",
    "language": "appearance/language",
}
RECENT_KEY = "recent/files"


# ---- reading and writing the store (no widgets) ------------------------------------------------
def _as_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "false", "1", "0"):
        return value.strip().lower() in ("true", "1")
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise ValueError("not true/false")


def _as_scale(value: Any) -> float:
    scale = float(value)  # INI stores numbers as text
    if not SCALE_RANGE[0] <= scale <= SCALE_RANGE[1]:
        raise ValueError(f"not between {SCALE_RANGE[0]:g} and {SCALE_RANGE[1]:g}")
    return scale


def _one_of(choices: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if not isinstance(value, str) or value not in choices:
            raise ValueError(f"not one of {', '.join(choices)}")
        return value
    return check


def _device(value: Any) -> str:
    if isinstance(value, str) and (value in ("cpu", "mps") or value.startswith("cuda:") and value[5:].isdigit()):
        return value
    raise ValueError("not 'cpu', 'cuda:N' or 'mps'")


def _dtype(value: Any) -> str:
    from peapp.model_run.placement import DTYPES  # (peapp.model_run on first use: start-up imports stay as they were)

    return _one_of(DTYPES)(value)


_PARSERS: dict[str, Callable[[Any], Any]] = {
    "theme": _one_of(THEMES),
    "sequential_colormap": _one_of(SEQUENTIAL_MAPS),
    "diverging_colormap": _one_of(DIVERGING_MAPS),
    "export_format": _one_of(EXPORT_FORMATS),
    "export_scale": _as_scale,
    "compute_device": _device,
    "compute_dtype": _dtype,
    "restore_layout": _as_bool,
    "language": _one_of(tuple(LANGUAGES)),
}


def load_preferences(settings: QSettings) -> tuple[Preferences, list[str]]:
    """The stored preferences, and one message per value that was unusable (reset to default)."""
    defaults = Preferences(language=system_language())
    problems: list[str] = []
    if settings.status() != QSettings.Status.NoError:
        problems.append(i18n.translate("Preferences", "The settings file {file} could not be read; using the defaults "
                                       "(fix or delete that file to keep your changes).").format(file=settings.fileName()))
        return defaults, problems
    values: dict[str, Any] = {}
    for f in fields(Preferences):
        key = KEYS[f.name]
        if not settings.contains(key):
            continue
        raw = settings.value(key)
        try:
            values[f.name] = _PARSERS[f.name](raw)
        except (TypeError, ValueError) as exc:
            default = getattr(defaults, f.name)
            problems.append(i18n.translate("Preferences", "Setting {key} = {value} is {problem}; using {default}.")
                            .format(key=key, value=repr(raw), problem=exc, default=repr(default)))
    return replace(defaults, **values), problems


def save_preferences(settings: QSettings, prefs: Preferences) -> None:
    for name, value in asdict(prefs).items():
        settings.setValue(KEYS[name], value)
    settings.sync()


def _default_settings(settings: QSettings | None) -> QSettings:
    return settings if settings is not None else QSettings()


def recent_files(settings: QSettings | None = None) -> list[str]:
    """Recently opened files/folders, newest first; entries that no longer exist are left out."""
    raw = _default_settings(settings).value(RECENT_KEY, [])
    if isinstance(raw, str):  # QSettings returns a one-element list as a plain string
        raw = [raw]
    if not isinstance(raw, (list, tuple)):
        return []
    paths = [p for p in raw if isinstance(p, str) and p]
    return [p for p in dict.fromkeys(paths) if os.path.exists(p)][:MAX_RECENT]


def add_recent(path: str | os.PathLike, settings: QSettings | None = None) -> list[str]:
    """Put ``path`` first in the recent-files list (absolute, no duplicates); returns the list."""
    settings = _default_settings(settings)
    path = os.path.abspath(os.fspath(path))
    paths = [path] + [p for p in recent_files(settings) if p != path]
    settings.setValue(RECENT_KEY, paths[:MAX_RECENT])
    settings.sync()
    return paths[:MAX_RECENT]


def clear_recent(settings: QSettings | None = None) -> None:
    settings = _default_settings(settings)
    settings.remove(RECENT_KEY)
    settings.sync()


def export_defaults(settings: QSettings | None) -> tuple[str, float]:
    """``(format, scale)`` chosen in Preferences for File > Export (built-in defaults if no store)."""
    prefs = load_preferences(settings)[0] if settings is not None else Preferences()
    return prefs.export_format, prefs.export_scale


# ---- applying preferences -------------------------------------------------------------------------
_active = Preferences()  # what the running app uses (colormap() reads it)


def compute_device() -> str:
    """The torch device the user chose for the compute thread ("cpu", "cuda:N", "mps"); the
    attention inspector runs there (peapp refuses a device torch does not have, with a message)."""
    return _active.compute_device


def compute_dtype(choice: str = "auto") -> str:
    """The precision a model panel runs in: its own Precision ``choice``, or for "auto" the one in
    Preferences (whose "auto" is the core's: :func:`peapp.model_run.placement.resolve` decides
    when the model loads)."""
    return choice if choice != "auto" else _active.compute_dtype


def auto_dtype_note() -> str:
    """What Precision "auto" picks, in words, with what it picks on this machine's CPU — asked of
    the core (:func:`peapp.model_run.placement.resolve`, which times a bf16 matrix product once
    per process), so the words never disagree with the choice."""
    from peapp.model_run import placement

    text = i18n.translate("Preferences", "auto: the checkpoint's own dtype on a GPU; on a CPU bfloat16 where torch "
                                         "reports fast bf16 and a bf16 matrix product measures faster than float32, "
                                         "else float32.")
    try:
        chosen = placement.resolve("auto", "cpu").dtype
        speedup = placement.cpu_bf16_speedup()
    except (ImportError, OSError, RuntimeError):  # torch missing or broken: the rule alone is still true
        return text
    if speedup is None:
        here = i18n.translate("Preferences", "On this CPU: {dtype} (torch reports no fast bf16 here).")
    else:
        here = i18n.translate("Preferences", "On this CPU: {dtype} (a bf16 matrix product ran {speedup}× as fast as "
                                             "float32).")
    return text + " " + here.format(dtype=chosen, speedup=f"{speedup or 0:.1f}")


def colormap_name(symmetric: bool) -> str:
    """The user's colour map: diverging for values centred on zero, sequential otherwise."""
    return _active.diverging_colormap if symmetric else _active.sequential_colormap


def colormap(symmetric: bool):
    """:func:`colormap_name` as a pyqtgraph ColorMap."""
    import pyqtgraph as pg

    return pg.colormap.get(colormap_name(symmetric))


def available_devices() -> list[tuple[str, str]]:
    """``(value, label)`` of the compute devices torch can use here: the CPU, and each GPU it sees.

    Only asks torch if it is already loaded (the backend loads it at start-up); never imports it
    on the GUI thread.
    """
    devices = [("cpu", "CPU")]
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available():
        for index in range(torch.cuda.device_count()):
            devices.append((f"cuda:{index}", f"GPU {index}: {torch.cuda.get_device_name(index)}"))
    mps = getattr(torch.backends, "mps", None) if torch is not None else None
    if mps is not None and mps.is_available():
        devices.append(("mps", "Apple GPU (MPS)"))
    return devices


PLOT_COLORS = {"light": ("#ffffff", "#202020"), "dark": ("#19191c", "#c8c8c8")}


def dark_palette() -> QPalette:
    palette = QPalette()
    window, base, text = QColor(45, 45, 48), QColor(30, 30, 32), QColor(220, 220, 220)
    disabled = QColor(120, 120, 120)
    roles = {
        QPalette.ColorRole.Window: window, QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base, QPalette.ColorRole.AlternateBase: QColor(40, 40, 43),
        QPalette.ColorRole.ToolTipBase: QColor(60, 60, 64), QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: QColor(140, 140, 140),
        QPalette.ColorRole.Text: text, QPalette.ColorRole.Button: QColor(53, 53, 57),
        QPalette.ColorRole.ButtonText: text, QPalette.ColorRole.BrightText: QColor(255, 90, 90),
        QPalette.ColorRole.Light: QColor(75, 75, 80), QPalette.ColorRole.Midlight: QColor(62, 62, 66),
        QPalette.ColorRole.Mid: QColor(150, 150, 155), QPalette.ColorRole.Dark: QColor(25, 25, 27),
        QPalette.ColorRole.Shadow: QColor(10, 10, 10),
        QPalette.ColorRole.Highlight: QColor(42, 130, 218), QPalette.ColorRole.HighlightedText: QColor(255, 255, 255),
        QPalette.ColorRole.Link: QColor(90, 160, 240), QPalette.ColorRole.LinkVisited: QColor(170, 130, 230),
    }
    for role, color in roles.items():
        palette.setColor(role, color)
    for role in (QPalette.ColorRole.WindowText, QPalette.ColorRole.Text, QPalette.ColorRole.ButtonText):
        palette.setColor(QPalette.ColorGroup.Disabled, role, disabled)
    return palette


class _DarkStyle(QProxyStyle):
    """Fusion with check boxes and radio buttons that can be seen on a dark palette: Fusion
    outlines them in the window colour darkened, which on a dark window is all but invisible
    (an unticked box was a dark square on a dark panel).  Here they get a light outline."""

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(self, element, option, painter, widget=None) -> None:  # Qt override
        super().drawPrimitive(element, option, painter, widget)
        if element not in (QStyle.PrimitiveElement.PE_IndicatorCheckBox,
                           QStyle.PrimitiveElement.PE_IndicatorRadioButton):
            return
        enabled = bool(option.state & QStyle.StateFlag.State_Enabled)
        color = option.palette.color(QPalette.ColorRole.Mid if enabled else QPalette.ColorRole.Midlight)
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing, True)
        painter.setPen(QPen(color, 1.2))
        painter.setBrush(Qt.BrushStyle.NoBrush)
        rect = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if element == QStyle.PrimitiveElement.PE_IndicatorRadioButton:
            painter.drawEllipse(rect)
        else:
            painter.drawRoundedRect(rect, 1.5, 1.5)
        painter.restore()


def apply_theme(theme: str, window=None) -> None:
    """Palette of every widget; plot colours of ``window``'s plots and of every future plot."""
    app = QApplication.instance()
    if app is None:
        return
    if app.property("peappNativeStyle") is None:
        if theme == "system":
            return  # nothing was changed yet: leave the desktop's style and palette alone
        app.setProperty("peappNativeStyle", app.style().name())
    # Fusion draws from the palette on every platform (native styles ignore a dark palette).
    if theme == "dark":
        app.setStyle(_DarkStyle())
    else:
        app.setStyle(app.property("peappNativeStyle"))
    if theme == "dark":
        app.setPalette(dark_palette())
    elif theme == "light":
        app.setPalette(app.style().standardPalette())
    else:
        app.setPalette(QPalette())  # an empty palette: back to the platform's own
    apply_plot_theme(theme, window)


def plot_colors(theme: str) -> tuple[str, str]:
    """(background, foreground) of plots; "system" follows the lightness of the window palette."""
    if theme == "system":
        app = QApplication.instance()
        dark = app is not None and app.palette().color(QPalette.ColorRole.Window).lightness() < 128
        theme = "dark" if dark else "light"
    return PLOT_COLORS[theme]


def apply_plot_theme(theme: str, window=None) -> None:
    """Plot colours for new plots, and for the plots already in ``window``; only if pyqtgraph is
    loaded.  It is not imported here: at start-up it loads with the backend (``import
    pyqtgraph`` costs ~1 s, which must not delay the first window).  Only the window's own
    plots are visited: ``QApplication.allWidgets()`` can hand back widgets being destroyed."""
    pg = sys.modules.get("pyqtgraph")
    if pg is None:
        return
    background, foreground = plot_colors(theme)
    pg.setConfigOptions(background=background, foreground=foreground)
    if window is not None:
        for view in window.findChildren(pg.GraphicsView):
            _restyle_plots(view, background, foreground)


def _restyle_plots(view, background: str, foreground: str) -> None:
    import pyqtgraph as pg

    view.setBackground(background)
    scene = view.scene()
    if scene is None:
        return
    for item in scene.items():
        if isinstance(item, pg.AxisItem):
            item.setPen(foreground)
            item.setTextPen(foreground)
        elif isinstance(item, pg.LabelItem):
            item.setText(item.text, color=foreground)


def apply_preferences(prefs: Preferences, window=None) -> None:
    """Make ``prefs`` the running app's: theme now, colour maps on the next draw (redrawn now)."""
    global _active
    old, _active = _active, prefs
    if prefs.language != i18n.language():
        i18n.set_language(prefs.language)  # every panel, menu and dialog retranslates itself
    apply_theme(prefs.theme, window)
    if window is not None and (old.sequential_colormap, old.diverging_colormap) != \
            (prefs.sequential_colormap, prefs.diverging_colormap):
        for dock in getattr(window, "docks", {}).values():
            result = getattr(dock, "last_result", None)
            if result is not None:
                dock.show_result(result)
    if window is not None and old.compute_device != prefs.compute_device:
        for dock in getattr(window, "docks", {}).values():
            if getattr(dock, "uses_compute_device", False):
                dock.refresh()  # the same view, computed on the new device
    elif window is not None and old.compute_dtype != prefs.compute_dtype:
        for dock in getattr(window, "docks", {}).values():
            if getattr(dock, "uses_compute_dtype", False):
                dock.precision_changed()  # Run on text with Precision auto runs again (a probe: at its next Run)


# ---- the dialog -------------------------------------------------------------------------------------
_THEME_NAMES = {"system": msg("Preferences", "System"), "light": msg("Preferences", "Light"),
                "dark": msg("Preferences", "Dark")}


def _label(text) -> QLabel:
    """A form row's label, kept translated."""
    return i18n.keep_text(QLabel(), text)


def _group(title) -> QGroupBox:
    box = QGroupBox()
    i18n.keep(box.setTitle, title, box)
    return box


def _swatch(name: str) -> QIcon:
    import pyqtgraph as pg

    pixmap = QPixmap(64, 14)
    painter = QPainter(pixmap)
    try:
        gradient = QLinearGradient(0, 0, 64, 0)
        for stop, color in zip(*pg.colormap.get(name).getStops(mode="qcolor")):
            gradient.setColorAt(float(stop), color)
        painter.fillRect(pixmap.rect(), gradient)
    finally:
        painter.end()
    return QIcon(pixmap)


class PreferencesDialog(QDialog):
    """Edit > Preferences.  OK/Apply save to QSettings and apply at once."""

    def __init__(self, settings: QSettings, prefs: Preferences, window=None):
        super().__init__(window)
        self.setObjectName("preferencesDialog")
        # through a weak reference: a kept text must not keep a closed (deleted) dialog's wrapper alive
        # (its owner is a child: the kept list holds its owner)
        dialog = weakref.ref(self)
        self._title_owner = QObject(self)
        i18n.keep_updated(self._title_owner, lambda: (d := dialog()) is not None and d.setWindowTitle(
            i18n.translate("Preferences", "Preferences")))
        self.settings = settings
        self.window_ = window
        layout = QVBoxLayout(self)

        look = _group(msg("Preferences", "Appearance"))
        form = QFormLayout(look)
        self.language = QComboBox(objectName="prefLanguage")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)  # each language in its own script, whatever is shown now
        form.addRow(_label(msg("Preferences", "Language")), self.language)
        self.theme = QComboBox(objectName="prefTheme")
        for index, theme in enumerate(THEMES):
            self.theme.addItem("", theme)
            i18n.keep_updated(self.theme, lambda i=index, t=theme, combo=self.theme:
                              combo.setItemText(i, i18n.shown(_THEME_NAMES[t])))
        form.addRow(_label(msg("Preferences", "Theme")), self.theme)
        self.sequential = self._colormap_combo("prefSequential", SEQUENTIAL_MAPS)
        i18n.keep_tooltip(self.sequential, msg("Preferences", "For values that only grow (similarities of non-negative data, magnitudes)"))
        form.addRow(_label(msg("Preferences", "Colour map")), self.sequential)
        self.diverging = self._colormap_combo("prefDiverging", DIVERGING_MAPS)
        i18n.keep_tooltip(self.diverging, msg("Preferences", "For values centred on zero (encodings, cosine similarity)"))
        form.addRow(_label(msg("Preferences", "Diverging colour map")), self.diverging)
        layout.addWidget(look)

        export = _group(msg("Preferences", "Export"))
        form = QFormLayout(export)
        self.export_format = QComboBox(objectName="prefExportFormat")
        for fmt in EXPORT_FORMATS:
            self.export_format.addItem(fmt.upper(), fmt)
        form.addRow(_label(msg("Preferences", "Default format")), self.export_format)
        self.export_scale = QDoubleSpinBox(objectName="prefExportScale")
        self.export_scale.setRange(*SCALE_RANGE)
        self.export_scale.setSingleStep(0.5)
        self.export_scale.setSuffix(" ×")
        i18n.keep_tooltip(self.export_scale, msg("Preferences", "Pixel scale of PNG exports (2 × ≈ 192 dpi at the panel's size)"))
        form.addRow(_label(msg("Preferences", "Default scale")), self.export_scale)
        layout.addWidget(export)

        compute = _group(msg("Preferences", "Compute"))
        form = QFormLayout(compute)
        self.device = QComboBox(objectName="prefDevice")
        for value, label in available_devices():
            self.device.addItem(label, value)  # the attention analysis returns CPU arrays from any device
        i18n.keep_tooltip(self.device, msg("Preferences", "Where the attention inspector computes its maps, and Run on text "
                                                      "and Probes run the model")
                          if self.device.count() > 1 else
                          msg("Preferences", "torch sees no GPU on this machine; everything runs on the CPU"))
        form.addRow(_label(msg("Preferences", "Device")), self.device)
        from peapp.model_run.placement import DTYPES

        self.dtype = QComboBox(objectName="prefDtype")
        for value in DTYPES:
            self.dtype.addItem(value, value)  # the dtype names, as the CLI's --dtype spells them
        i18n.keep_updated(self.dtype, lambda combo=self.dtype: combo.setItemText(
            combo.findData("auto"), i18n.translate("Preferences", "auto")))
        owner = weakref.ref(self.dtype)
        i18n.keep_updated(self.dtype, lambda: (combo := owner()) is not None and combo.setToolTip(
            i18n.translate("Preferences", "The precision Run on text and Probes run a model in when their own "
                                          "Precision is auto (statistics are accumulated in float32 / float64 "
                                          "whatever it is).") + " " + auto_dtype_note()))
        form.addRow(_label(msg("Preferences", "Precision")), self.dtype)
        layout.addWidget(compute)

        win = _group(msg("Preferences", "Window"))
        box = QVBoxLayout(win)
        self.restore_layout = i18n.keep_text(QCheckBox(objectName="prefRestoreLayout"),
                                             msg("Preferences", "Restore the window layout when the app starts"))
        box.addWidget(self.restore_layout)
        reset = i18n.keep_text(QPushButton(), msg("Preferences", "Reset layout now"))
        i18n.keep_tooltip(reset, msg("Preferences", "Put every panel back in its default place"))
        reset.clicked.connect(self._reset_layout)
        reset.setEnabled(window is not None and hasattr(window, "reset_layout"))
        row = QHBoxLayout()
        row.addWidget(reset)
        row.addStretch(1)
        box.addLayout(row)
        layout.addWidget(win)

        recent = _group(msg("Preferences", "Recent files"))
        box = QVBoxLayout(recent)
        self.recent = QListWidget(objectName="prefRecent")
        self.recent.setMaximumHeight(110)
        self.recent.addItems(recent_files(settings))
        box.addWidget(self.recent)
        clear = i18n.keep_text(QPushButton(), msg("Preferences", "Clear list"))
        clear.clicked.connect(self._clear_recent)
        row = QHBoxLayout()
        row.addWidget(clear)
        row.addStretch(1)
        box.addLayout(row)
        layout.addWidget(recent)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Apply
                                   | QDialogButtonBox.StandardButton.Cancel
                                   | QDialogButtonBox.StandardButton.RestoreDefaults)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        buttons.button(QDialogButtonBox.StandardButton.Apply).clicked.connect(self.apply)
        buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults).clicked.connect(
            lambda: self.set_preferences(Preferences()))
        layout.addWidget(buttons)
        self.set_preferences(prefs)

    def _colormap_combo(self, name: str, maps: tuple[str, ...]) -> QComboBox:
        combo = QComboBox(objectName=name)
        combo.setIconSize(QSize(64, 14))
        for cmap in maps:
            combo.addItem(_swatch(cmap), cmap, cmap)
        return combo

    def set_preferences(self, prefs: Preferences) -> None:
        for combo, value in ((self.theme, prefs.theme), (self.sequential, prefs.sequential_colormap),
                             (self.diverging, prefs.diverging_colormap), (self.export_format, prefs.export_format),
                             (self.device, prefs.compute_device), (self.dtype, prefs.compute_dtype),
                             (self.language, prefs.language)):
            index = combo.findData(value)
            combo.setCurrentIndex(max(index, 0))  # a GPU saved on another machine shows as CPU here
        self.export_scale.setValue(prefs.export_scale)
        self.restore_layout.setChecked(prefs.restore_layout)

    def preferences(self) -> Preferences:
        return Preferences(theme=self.theme.currentData(), sequential_colormap=self.sequential.currentData(),
                           diverging_colormap=self.diverging.currentData(),
                           export_format=self.export_format.currentData(),
                           export_scale=float(self.export_scale.value()),
                           compute_device=self.device.currentData(), compute_dtype=self.dtype.currentData(),
                           restore_layout=self.restore_layout.isChecked(),
                           language=self.language.currentData())

    def apply(self) -> None:
        prefs = self.preferences()
        save_preferences(self.settings, prefs)
        apply_preferences(prefs, self.window_)

    def accept(self) -> None:
        self.apply()
        super().accept()

    def _reset_layout(self) -> None:
        self.window_.reset_layout()
        for key in ("window/state", "window/geometry"):
            self.settings.remove(key)

    def _clear_recent(self) -> None:
        clear_recent(self.settings)
        self.recent.clear()


# ---- wiring into the main window ------------------------------------------------------------------
def install(window) -> None:
    """Apply the stored preferences and add Edit > Preferences… (Ctrl+,)."""
    settings = window.settings if window.settings is not None else QSettings()
    prefs, problems = load_preferences(settings)
    window._restore_layout = window._restore_layout and prefs.restore_layout
    apply_preferences(prefs, window)
    if problems:  # said in the language just set
        problems = load_preferences(settings)[1]
    # the docks' plots exist once the docks are built (those behind a tab: on first show)
    window.docksBuilt.connect(lambda: apply_plot_theme(_active.theme, window))
    window.dockBuilt.connect(lambda dock: apply_plot_theme(_active.theme, dock))
    action = QAction(window, objectName="actionPreferences")
    action.setShortcut(QKeySequence("Ctrl+,"))
    i18n.keep(action.setText, msg("Menus", "&Preferences…"), action)
    i18n.keep(action.setStatusTip, msg("Menus", "Open Preferences: theme, colour maps, export defaults, compute device "
                                               "and precision, window layout"), action)
    action.setMenuRole(QAction.MenuRole.PreferencesRole)  # the app menu on macOS
    action.triggered.connect(lambda: open_dialog(window, settings))
    window.edit_menu.addSeparator()
    window.edit_menu.addAction(action)
    window.preferences_action = action
    if problems:
        message = " ".join(problems)
        window.show_status(message, 15000)
        # the start-up "Ready" message would hide it: say it again once the docks are up
        window.backendReady.connect(lambda: QTimer.singleShot(0, lambda: window.show_status(message, 15000)))
        window.settings_problems = problems


def open_dialog(window, settings: QSettings | None = None) -> PreferencesDialog:
    settings = settings if settings is not None else window.settings
    prefs, _ = load_preferences(settings)
    dialog = PreferencesDialog(settings, prefs, window)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.open()
    return dialog
