"""File-menu actions for checkpoints: Open, Open Folder, Open Recent, Open Sample, drag and drop,
and ``python main.py PATH``.  ``install(window)`` adds them to a MainWindow; reading happens
in the checkpoint dock, on the compute worker.
"""

from __future__ import annotations

import os
import sys

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QFileDialog, QMenu

from peapp.checkpoints.samples import INSTALL_HINT, available_samples, missing_packages
from ui import i18n, settings as preferences
from ui.i18n import msg

MAX_RECENT = 8
FILE_FILTER = msg("CheckpointActions", "Checkpoints (*.safetensors *.bin *.pt *.pth *.ckpt *.gguf *.json);;"
                 "Safetensors (*.safetensors *.safetensors.index.json);;GGUF (*.gguf);;"
                 "PyTorch state dicts (*.bin *.pt *.pth *.ckpt);;Config (config.json);;All files (*)")


def install(window) -> None:
    """Add the checkpoint actions at the top of ``window.file_menu`` and accept drops."""
    menu = window.file_menu
    first = menu.actions()[0] if menu.actions() else None
    open_file = QAction(window, shortcut=QKeySequence.StandardKey.Open, triggered=lambda: _choose_file(window))
    i18n.keep(open_file.setText, msg("CheckpointActions", "&Open Checkpoint…"))
    i18n.keep(open_file.setToolTip, msg("CheckpointActions", "Open a .safetensors, .bin/.pt, .gguf or config.json file"))
    # Ctrl+Shift+O is Open Session (ui.export_actions): two actions on one key would both go dead
    open_folder = QAction(window, shortcut=QKeySequence("Ctrl+Alt+O"), triggered=lambda: _choose_folder(window))
    i18n.keep(open_folder.setText, msg("CheckpointActions", "Open Model &Folder…"))
    i18n.keep(open_folder.setToolTip, msg("CheckpointActions", "Open a Hugging Face model folder (config.json and weights)"))
    window.recent_menu = QMenu(window)
    i18n.keep(window.recent_menu.setTitle, msg("CheckpointActions", "Open &Recent"))
    window.recent_menu.setObjectName("recentMenu")
    window.sample_menu = QMenu(window)
    i18n.keep(window.sample_menu.setTitle, msg("CheckpointActions", "Open &Sample"))
    window.sample_menu.setObjectName("sampleMenu")
    for action in (open_file, open_folder):
        menu.insertAction(first, action)
    menu.insertMenu(first, window.recent_menu)
    menu.insertMenu(first, window.sample_menu)
    menu.insertSeparator(first)
    window.checkpoint_actions = {"open": open_file, "open_folder": open_folder}
    window._recent_memory = []  # used when the window has no QSettings
    i18n.keep_updated(window.sample_menu, lambda: _fill_samples(window))
    i18n.keep_updated(window.recent_menu, lambda: _fill_recent(window))
    window.setAcceptDrops(True)
    window._drop_filter = _DropFilter(window)
    window.installEventFilter(window._drop_filter)
    window.docksBuilt.connect(lambda: _initial_layout(window))
    layout_restored = getattr(window, "layoutRestored", None)
    if layout_restored is not None:
        layout_restored.connect(lambda: _after_layout_restored(window))


def _initial_layout(window) -> None:
    """Without a saved layout: the Checkpoint tab stays closed until something is opened (the
    first view is the encoding itself)."""
    dock = window.docks.get("checkpointDock")
    saved = window.settings.value("window/state") if window.settings is not None else None
    if dock is None or saved is not None:
        return
    if not window.document_model.document.checkpoint and not dock.opening:
        dock.hide()


def open_path(window, path: str) -> None:
    """Open ``path`` in the checkpoint dock (waiting if the backend still loads)."""
    dock = window.docks.get("checkpointDock")
    if dock is None or not window.ctx.backend_ready:
        def later():
            window.backendReady.disconnect(later)
            open_path(window, path)

        window.backendReady.connect(later)
        window.show_status(i18n.translate("CheckpointActions", "Will open {path} when the backend has loaded …")
                           .format(path=path))
        return
    if not os.path.exists(path):
        window.show_status(i18n.translate("CheckpointActions", "{path} does not exist; choose a model file or folder.")
                           .format(path=path))
        return
    path = os.path.abspath(path)
    if window.document_model.document.checkpoint == path:
        add_recent(window, path)  # already open, so it opened before: just move it to the top
    else:
        _remember_when_opened(window, path)
    dock.show()
    dock.raise_()
    dock.open_path(path)


def _remember_when_opened(window, path: str) -> None:
    """Add ``path`` to Open Recent once it has opened (the Document then names it); a file that
    fails to open never changes the Document, so it is not added."""
    previous = getattr(window, "_recent_pending", None)
    if previous is not None:  # a newer open replaces one still under way
        window.document_model.changed.disconnect(previous)

    def on_changed(document) -> None:
        if document.checkpoint == path:
            window.document_model.changed.disconnect(on_changed)
            window._recent_pending = None
            add_recent(window, path)

    window._recent_pending = on_changed
    window.document_model.changed.connect(on_changed)


def recent_paths(window) -> list[str]:
    if window.settings is None:
        return list(window._recent_memory)
    return preferences.recent_files(window.settings)  # the one list Preferences also shows


def add_recent(window, path: str) -> None:
    if window.settings is None:
        window._recent_memory = ([path] + [p for p in window._recent_memory if p != path])[:MAX_RECENT]
    else:
        preferences.add_recent(path, window.settings)
    _fill_recent(window)


def _fill_recent(window) -> None:
    menu = window.recent_menu
    menu.clear()
    paths = recent_paths(window)
    for i, path in enumerate(paths):
        action = menu.addAction(f"&{i + 1} {path}")
        action.setData(path)
        action.triggered.connect(lambda checked=False, p=path: open_path(window, p))
    if not paths:
        menu.addAction(i18n.translate("CheckpointActions", "(none yet)")).setEnabled(False)
    else:
        menu.addSeparator()
        menu.addAction(i18n.translate("CheckpointActions", "Clear list"), lambda: _clear_recent(window))


def _clear_recent(window) -> None:
    if window.settings is None:
        window._recent_memory = []
    else:
        preferences.clear_recent(window.settings)
    _fill_recent(window)


def _fill_samples(window) -> None:
    menu = window.sample_menu
    menu.clear()
    samples = available_samples()
    for label, path in samples:
        action = menu.addAction(i18n.shown(label))
        action.setData(path)
        action.setToolTip(path)
        action.triggered.connect(lambda checked=False, p=path: open_path(window, p))
    if missing_packages() and not getattr(sys, "frozen", False):  # a bundle cannot pip install
        menu.addAction(i18n.translate("CheckpointActions", "More samples: {command}")
                       .format(command=INSTALL_HINT)).setEnabled(False)


def _choose_file(window) -> None:
    path, _ = QFileDialog.getOpenFileName(window, i18n.translate("CheckpointActions", "Open checkpoint"),
                                          _start_dir(window), i18n.shown(FILE_FILTER))
    if path:
        open_path(window, path)


def _choose_folder(window) -> None:
    path = QFileDialog.getExistingDirectory(window, i18n.translate("CheckpointActions", "Open model folder"),
                                            _start_dir(window))
    if path:
        open_path(window, path)


def _start_dir(window) -> str:
    recent = recent_paths(window)
    return os.path.dirname(recent[0]) if recent else os.path.expanduser("~")


class _DropFilter(QObject):
    """Accept files and folders dropped anywhere on the window; open the first one."""

    def __init__(self, window):
        super().__init__(window)
        self._window = window

    def eventFilter(self, obj, event) -> bool:  # Qt override
        kind = event.type()
        if kind in (QEvent.Type.DragEnter, QEvent.Type.DragMove):
            if _local_paths(event.mimeData()):
                event.acceptProposedAction()
                return True
        elif kind == QEvent.Type.Drop:
            paths = _local_paths(event.mimeData())
            if paths:
                event.acceptProposedAction()
                open_path(self._window, paths[0])
                return True
        return False


def _local_paths(mime) -> list[str]:
    if mime is None or not mime.hasUrls():
        return []
    return [url.toLocalFile() for url in mime.urls() if url.isLocalFile()]


def _after_layout_restored(window) -> None:
    """A restored (or reset) layout never brings back an empty Checkpoint panel: it was saved while
    a model was open."""
    dock = window.docks.get("checkpointDock")
    if dock is None or dock.isFloating():
        return
    if not window.document_model.document.checkpoint and not dock.opening:
        dock.hide()
