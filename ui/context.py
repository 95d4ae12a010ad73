"""What every dock is given: the document view-model, the compute worker, a status sink."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from ui.document_model import DocumentModel
from ui.worker import ComputeWorker


@dataclass
class AppContext:
    document_model: DocumentModel
    worker: ComputeWorker
    status: Callable[[str], None] = field(default=lambda message: None)

    @property
    def document(self):
        return self.document_model.document
