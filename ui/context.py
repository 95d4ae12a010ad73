"""What every dock is given: the document view-model, the compute worker, a status sink, and the
reader that opens other people's files off the GUI thread."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ui.document_model import DocumentModel
from ui.file_reader import FileReader
from ui.worker import ComputeWorker


@dataclass
class AppContext:
    document_model: DocumentModel
    worker: ComputeWorker
    status: Callable[[str], None] = field(default=lambda message: None)
    #: bring the panel showing a view (by view id, e.g. "rotation") to the front of its tabs: the window does it, so a panel that
    #: hands the user over to another (a spectrum pair to Rotations) never touches that panel
    show_panel: Callable[[str], None] = field(default=lambda name: None)
    reader: FileReader = field(default_factory=FileReader)
    #: False while torch loads on the compute thread (the window's start-up): docks say so and
    #: compute nothing until the window calls their ``set_backend_ready()``
    backend_ready: bool = True

    #: compute threads of docks whose work is too long to queue behind the others' (Run on text)
    extra_workers: list[ComputeWorker] = field(default_factory=list)
    _worker_listeners: list[Callable[[ComputeWorker], None]] = field(default_factory=list)

    def add_worker(self, worker: ComputeWorker) -> None:
        """A dock's own compute thread: the window shows its progress, Esc cancels it, closing stops it.
        It runs its requests the way the shared one does (``ComputeWorker.run_request``)."""
        worker.run_request = self.worker.run_request
        self.extra_workers.append(worker)
        for listener in self._worker_listeners:
            listener(worker)

    def on_worker_added(self, listener: Callable[[ComputeWorker], None]) -> None:
        self._worker_listeners.append(listener)
        for worker in self.extra_workers:
            listener(worker)

    @property
    def workers(self) -> list[ComputeWorker]:
        return [self.worker, *self.extra_workers]

    @property
    def document(self):
        return self.document_model.document
