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
    reader: FileReader = field(default_factory=FileReader)

    @property
    def document(self):
        return self.document_model.document
