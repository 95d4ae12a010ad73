"""What a user reads in a widget tree, and which of it is still English (for the Hindi tests).

``visible_texts(widget)`` collects every text a widget tree shows or offers on hover: labels,
buttons, group titles, tabs, combo-box items, placeholders, tooltips, table headers, menus and
their actions, and the pyqtgraph plots' titles, axis labels and legends.  ``english_words``
finds the words in them that are English: a word of three or more letters, not all capitals
(acronyms such as PNG, BERT, GPU stay as they are), without digits or ``_`` or ``.`` (``T5``,
``d_model``, ``config.json``), and not in :data:`ALLOWED` — the names the field writes in Latin
letters in Hindi text too (the glossary, ``resources/i18n/glossary_hi.md``, lists them).
User data (the text being analysed, file paths, token labels on axes) is not part of the walk.
"""

from __future__ import annotations

import re

from PySide6.QtWidgets import (QAbstractButton, QComboBox, QDockWidget, QGroupBox, QLabel, QLineEdit, QMenu,
                               QPlainTextEdit, QTabBar, QTableView, QTableWidget, QTextEdit, QWidget)

#: Latin-script names kept as they are in Hindi text: schemes, papers' authors, models, units, keys
ALLOWED = frozenset("""
RoPE ALiBi NoPE YaRN Llama Mistral Qwen Gemma Phi Pythia RoBERTa DistilBERT MiniLM SmolLM SmolLM2 NeoX
Shaw Press Vaswani Kazemnejad Liu Chen Peng Raffel Su Dosovitskiy Zhang Ding Xiong Beltagy bloc97 al
Hugging Face transformers safetensors torch PyTorch PySide Qt pyqtgraph superqt numpy gguf tokenizers
Ctrl Shift Alt Esc Enter Tab Del Backspace Home End PgUp PgDn Cmd
sin cos exp log max min softmax argmax rad deg
px dpi Hz kHz ms
ViT DeiT Swin CLIP
peapp dtype English viridis cividis magma inferno plasma turbo LongRoPE cpu
KiB MiB GiB TiB
LongRoPE DeepSeek RoFormer BEiT mscale clip DataCamp timestamp
txt Barbero LongRoPE arXiv
StreamingLLM
""".split())

_WORD = re.compile(r"[A-Za-z][A-Za-z0-9_.'/-]*")
_TAG = re.compile(r"<[^>]+>|&[a-z]+;|&#\d+;")
_GLOB = re.compile(r"\*\.[\w.]+|\(\*\)")  # file patterns in file-type filters: *.png, *.safetensors.index.json


def english_words(text: str) -> list[str]:
    words = []
    for token in _WORD.findall(_GLOB.sub(" ", _TAG.sub(" ", text.replace("&&", "&")))):
        token = token.strip(".'/-").replace("&", "")
        if len(token) < 3 or any(c.isdigit() or c in "_./" for c in token):
            continue
        parts = [p for p in token.split("-") if p]
        for part in parts:
            part = part.rstrip("'s") if part.endswith("'s") else part
            if len(part) < 3 or part.isupper() or part in ALLOWED:
                continue
            words.append(part)
    return words


def _plot_texts(widget: QWidget) -> list[tuple[str, str]]:
    """Titles, axis labels and legend entries of a pyqtgraph plot widget."""
    import pyqtgraph as pg

    found: list[tuple[str, str]] = []
    items = []
    if isinstance(widget, pg.PlotWidget):
        items = [widget.getPlotItem()]
    elif isinstance(widget, pg.GraphicsLayoutWidget):
        items = [i for i in widget.ci.items if isinstance(i, pg.PlotItem)]
    for item in items:
        if item.titleLabel is not None and item.titleLabel.text:
            found.append(("plot title", item.titleLabel.text))
        for name in ("left", "bottom", "right", "top"):
            axis = item.getAxis(name)
            if axis.isVisible() and axis.labelText:
                found.append(("axis label", axis.labelText))
        legend = item.legend
        if legend is not None:
            for _sample, label in legend.items:
                found.append(("legend", label.text))
    return found


def visible_texts(root: QWidget) -> list[tuple[str, str, str]]:
    """(where, kind, text) for every text of ``root`` and its descendants."""
    found: list[tuple[str, str, str]] = []

    def add(widget: QWidget, kind: str, text: str | None) -> None:
        if text and text.strip():
            found.append((widget.objectName() or type(widget).__name__, kind, text))

    widgets = [root, *root.findChildren(QWidget)]
    for widget in widgets:
        add(widget, "tooltip", widget.toolTip())
        if isinstance(widget, QLabel):
            add(widget, "label", widget.text())
        elif isinstance(widget, QAbstractButton):
            add(widget, "button", widget.text())
        elif isinstance(widget, QGroupBox):
            add(widget, "group", widget.title())
        elif isinstance(widget, QDockWidget):
            add(widget, "title", widget.windowTitle())
        elif isinstance(widget, QComboBox):
            for index in range(widget.count()):
                add(widget, "choice", widget.itemText(index))
        elif isinstance(widget, QLineEdit):
            add(widget, "placeholder", widget.placeholderText())
        elif isinstance(widget, (QPlainTextEdit, QTextEdit)):
            add(widget, "placeholder", widget.placeholderText())
        elif isinstance(widget, QTabBar):
            for index in range(widget.count()):
                add(widget, "tab", widget.tabText(index))
                add(widget, "tab tooltip", widget.tabToolTip(index))
        elif isinstance(widget, QMenu):
            add(widget, "menu", widget.title())
            for action in widget.actions():
                add(widget, "action", action.text())
                add(widget, "action tip", action.statusTip())
        if isinstance(widget, (QTableView, QTableWidget)) and widget.model() is not None:
            from PySide6.QtCore import Qt

            model = widget.model()
            for column in range(model.columnCount()):
                add(widget, "header", model.headerData(column, Qt.Orientation.Horizontal))
        for where, text in _plot_texts(widget):
            add(widget, where, text)
    return found


def english_in(root: QWidget) -> list[str]:
    """One line per text that still has English words: ``where [kind]: words — text``."""
    lines = []
    for where, kind, text in visible_texts(root):
        words = english_words(text)
        if words:
            lines.append(f"{where} [{kind}]: {' '.join(sorted(set(words)))} — {text[:120]!r}")
    return lines
