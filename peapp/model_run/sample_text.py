"""The bundled public-domain sample text (source and licence: resources/texts/SOURCE.md)."""

from __future__ import annotations

from peapp.i18n import msg
from peapp.resources import resource_path

SAMPLE_TEXT_FILE = "texts/alice-chapters-1-6.txt"
SAMPLE_TEXT_LABEL = msg("TextRun", "Alice's Adventures in Wonderland, chapters I–VI (Lewis Carroll, 1865; public domain)")


def sample_text() -> str:
    with open(resource_path(SAMPLE_TEXT_FILE), encoding="utf-8") as fh:
        return fh.read()
