"""Trained tables from an open checkpoint for the attention sandbox: a T5 relative bias table and
a word-embedding table with its vocabulary.

Sources are strings ``"PATH::TENSOR"`` (PATH a checkpoint file or model folder), so a Document
that uses them stays JSON; tensors are read on demand through ``peapp.checkpoints.open_cached``.
The vocabulary comes from ``vocab.txt`` (one token per line, WordPiece) or ``tokenizer.json``
(its ``model.vocab``) next to the checkpoint.  Only whole words are looked up: a word that the
vocabulary does not hold as one token is not split into pieces, it keeps the deterministic hash
vector (``peapp.analysis.attention.word_vector``), and the view says which words are which.
"""

from __future__ import annotations

import os
import re
import threading
from dataclasses import dataclass
from typing import TYPE_CHECKING

from peapp import safe_open
from peapp.errors import ParameterError

if TYPE_CHECKING:  # torch loads on first use, not at import (the GUI builds its panels before it)
    import torch

# Word-embedding tensors by architecture: BERT, GPT-2, LLaMA/Mistral/Qwen, T5, GPT-NeoX, GGUF.
_EMBEDDING_NAMES = re.compile(r"(?:^|\.)(?:word_embeddings|wte|embed_tokens|shared|embed_in|token_embd)\.weight$")
# Word-start markers of byte-level BPE (GPT-2, RoBERTa) and SentencePiece vocabularies.
_WORD_START = ("", "Ġ", "▁")
VOCAB_FILES = ("vocab.txt", "tokenizer.json")


def split_source(source: str, what: str) -> tuple[str, str]:
    path, sep, tensor = source.rpartition("::")
    if not sep or not path or not tensor:
        raise ParameterError(f"{what} must be given as PATH::TENSOR; got {source!r}")
    return path, tensor


def _folder(path: str) -> str:
    return path if os.path.isdir(path) else os.path.dirname(path)


def find_word_embeddings(tensors) -> str | None:
    """Name of the word-embedding table [vocab, dim] among a checkpoint's tensors, or None."""
    for name, info in tensors.items():
        if _EMBEDDING_NAMES.search(name) and len(info.shape) == 2 and info.shape[0] > 1:
            return name
    return None


def find_vocabulary(path: str) -> str | None:
    """vocab.txt or tokenizer.json beside a checkpoint file (or inside a model folder)."""
    folder = _folder(path)
    for name in VOCAB_FILES:
        candidate = os.path.join(folder, name)
        if os.path.isfile(candidate):
            return candidate
    return None


def read_vocabulary(file: str) -> dict[str, int]:
    """token → row of the embedding table."""
    # a file someone else named: regular files only, size-capped, depth/number-checked JSON
    text = safe_open.read_text(file, "tokenizer", ParameterError)
    if file.endswith(".txt"):
        lines = text.split("\n")
        if lines and lines[-1] == "":
            lines.pop()  # the final newline ends the last token; it does not start another
        return {line.rstrip("\r"): i for i, line in enumerate(lines)}
    data = safe_open.load_json(text, os.path.basename(file), ParameterError, max_depth=None)  # big: no walk
    model = data.get("model") if isinstance(data, dict) else None
    vocab = model.get("vocab") if isinstance(model, dict) else None
    try:
        if isinstance(vocab, dict):  # WordPiece, BPE
            return {str(k): int(v) for k, v in vocab.items()}
        if isinstance(vocab, list):  # Unigram: [[piece, score], …]
            return {str(entry[0]): i for i, entry in enumerate(vocab)}
    except (TypeError, ValueError, IndexError, KeyError, OverflowError):
        raise ParameterError(f"{file}: model.vocab holds entries that are not token → row pairs; choose a "
                             f"checkpoint with a readable vocab.txt or tokenizer.json.") from None
    raise ParameterError(f"{file} has no model.vocab; choose a checkpoint with a vocab.txt or tokenizer.json.")


@dataclass(frozen=True)
class EmbeddingTable:
    """A word-embedding table scaled to unit standard deviation (like the sandbox's other tokens)."""

    source: str
    weight: torch.Tensor  # [vocab, dim] float32, divided by the whole table's std
    vocab: dict[str, int]
    vocab_file: str

    @property
    def name(self) -> str:
        path, tensor = split_source(self.source, "embedding table")
        return f"{tensor} of {os.path.basename(path.rstrip('/'))}"

    def row(self, word: str) -> int | None:
        """The table row of a whole word, or None if the vocabulary has no single token for it."""
        for mark in _WORD_START:
            row = self.vocab.get(mark + word)
            if row is not None and row < self.weight.shape[0]:
                return row
        return None


_lock = threading.Lock()
_tables: dict[str, EmbeddingTable] = {}


def embedding_table(source: str) -> EmbeddingTable:
    """The table ``"PATH::TENSOR"`` with the vocabulary beside PATH (one table kept in memory)."""
    import torch
    from peapp.checkpoints import open_cached

    with _lock:
        if source in _tables:
            return _tables[source]
        path, tensor = split_source(source, "embedding table")
        vocab_file = find_vocabulary(path)
        if vocab_file is None:
            raise ParameterError(f"no vocab.txt or tokenizer.json next to {path}; sentence words cannot be looked "
                                 f"up. Press 'Seeded tables' to use hashed word vectors.")
        weight = open_cached(path).load(tensor).to(torch.float32)
        if weight.ndim != 2:
            raise ParameterError(f"{tensor} has shape {tuple(weight.shape)}; a word-embedding table is [vocab, dim].")
        weight = weight / weight.std().clamp_min(1e-12)
        table = EmbeddingTable(source, weight, read_vocabulary(vocab_file), vocab_file)
        _tables.clear()
        _tables[source] = table
        return table


def projection(width: int, dim: int) -> torch.Tensor | None:
    """A fixed random map from the table's width to ``dim`` (None when they are equal).

    Entries N(0, 1/width): unit-variance inputs stay unit-variance, and distances between words
    are kept approximately (Johnson–Lindenstrauss)."""
    import torch
    if width == dim:
        return None
    return torch.randn(width, dim, generator=torch.Generator().manual_seed(20231)) / width ** 0.5


def model_word_vectors(words: list[str], dim: int, source: str) -> dict[str, torch.Tensor]:
    """word → its vector from the table (projected to ``dim`` if needed), for the words it holds."""
    import torch
    table = embedding_table(source)
    rows = {w: table.row(w) for w in words}
    found = [w for w in words if rows[w] is not None]
    if not found:
        return {}
    vectors = table.weight[torch.tensor([rows[w] for w in found])]
    proj = projection(table.weight.shape[1], dim)
    if proj is not None:
        vectors = vectors @ proj
    return dict(zip(found, vectors))


def trained_t5_table(source: str, num_buckets: int, n_heads: int) -> torch.Tensor:
    """A checkpoint's T5 relative bias table [num_buckets, heads], checked against the settings."""
    import torch
    from peapp.checkpoints import open_cached

    path, tensor = split_source(source, "T5 bias table")
    table = open_cached(path).load(tensor).to(torch.float32)
    if table.ndim != 2 or tuple(table.shape) != (num_buckets, n_heads):
        raise ParameterError(
            f"the trained T5 table {tensor} is {' × '.join(map(str, table.shape))} (buckets × heads) but the "
            f"settings ask for {num_buckets} buckets × {n_heads} heads; set T5 buckets to {table.shape[0]} and "
            f"Heads to {table.shape[-1]}, or press 'Seeded tables'.")
    return table
