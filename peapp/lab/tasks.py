"""Synthetic tasks for the training lab: copy, reverse, sort, addition, associative recall,
character-level LM (copy, reverse, sort and addition are tasks of Kazemnejad et al. 2023).

Every task is a generator of fixed-seed batches for a causal decoder: ``inputs`` [B, T] and
``targets`` [B, T] (the next token, or ``IGNORE`` where no loss is taken).  A task's *length*
counts items (symbols to copy, key–value pairs, characters), not tokens; ``positions(n)`` says
how many positions a sequence of length n occupies, which is what a learned table must hold.

Exact match (copy, reverse, recall) is judged on teacher-forced predictions in one forward
pass: with greedy decoding, a sequence comes out exactly right if and only if every
teacher-forced argmax is right (by induction over the output), so the two measures agree.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import torch

from peapp.errors import DataFileError, ParameterError
from peapp.lab.options import TASKS

IGNORE = -100  # targets with this value take no loss (torch's cross_entropy default)
PAD, BOS, SEP = 0, 1, 2
_SPECIAL = 3


class Task:
    """Base class: ``vocab_size``, ``metric``, ``positions(n)`` and ``batch(generator, lengths)``."""

    name: str = ""
    metric: str = "exact_match"  # or "perplexity"
    min_length: int = 1

    @property
    def vocab_size(self) -> int:
        raise NotImplementedError

    def positions(self, length: int) -> int:
        raise NotImplementedError

    def batch(self, generator: torch.Generator, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        raise NotImplementedError

    def sample_lengths(self, generator: torch.Generator, batch_size: int, max_length: int) -> torch.Tensor:
        """Training lengths: one per batch, uniform over min_length … max_length.

        One length per batch rather than per sequence: padding every batch to its longest
        sequence doubled the work (mean length ≈ half the longest) on a CPU-bound trainer.
        """
        low = min(self.min_length, max_length)
        length = int(torch.randint(low, max_length + 1, (1,), generator=generator))
        return torch.full((batch_size,), length, dtype=torch.long)


@dataclass(frozen=True)
class _SeqTask(Task):
    """Copy or reverse: BOS x₁…xₙ SEP y₁…yₙ, loss on the y's; 2n + 1 input positions
    (the last y is a target only)."""

    name: str = "copy"
    n_symbols: int = 16

    @property
    def vocab_size(self) -> int:
        return _SPECIAL + self.n_symbols

    def positions(self, length: int) -> int:
        return 2 * length + 1

    def batch(self, generator: torch.Generator, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        lengths = lengths.to(torch.long)
        batch, longest = len(lengths), int(lengths.max())
        x = torch.randint(_SPECIAL, _SPECIAL + self.n_symbols, (batch, longest), generator=generator)
        n = lengths.reshape(-1, 1)
        j = torch.arange(2 * longest + 2).reshape(1, -1)  # position in the full sequence
        in_x = (j >= 1) & (j <= n)
        in_y = (j >= n + 2) & (j <= 2 * n + 1)
        i = j - n - 2  # index into the output
        source = (n - 1 - i) if self.name == "reverse" else i
        xs = x.gather(1, (j - 1).clamp(0, longest - 1).expand(batch, -1))
        if self.name == "sort":  # the first n symbols in ascending order (padding sorts last)
            cols = torch.arange(longest).reshape(1, -1)
            x = torch.where(cols < n, x, torch.full_like(x, _SPECIAL + self.n_symbols)).sort(dim=1).values
        ys = x.gather(1, source.clamp(0, longest - 1))
        seq = torch.full((batch, 2 * longest + 2), PAD, dtype=torch.long)
        seq[:, 0] = BOS
        seq = torch.where(in_x, xs, seq)
        seq = torch.where(j == n + 1, torch.full_like(seq, SEP), seq)
        seq = torch.where(in_y, ys, seq)
        targets = torch.where(in_y, seq, torch.full_like(seq, IGNORE))
        return seq[:, :-1], targets[:, 1:]


def copy_task(n_symbols: int = 16) -> Task:
    return _SeqTask("copy", n_symbols)


def reverse_task(n_symbols: int = 16) -> Task:
    return _SeqTask("reverse", n_symbols)


def sort_task(n_symbols: int = 16) -> Task:
    """BOS x₁…xₙ SEP then the same symbols in ascending order (repeats kept)."""
    return _SeqTask("sort", n_symbols)


@dataclass(frozen=True)
class AdditionTask(Task):
    """Addition of two n-digit numbers: BOS a₁…aₙ + b₁…bₙ SEP c₁…cₙ₊₁, digits least significant
    first (the order in which carries are computed, as in Kazemnejad et al.'s scratchpad-free
    setting); loss and exact match on the n + 1 digits of the sum.  3n + 3 input positions."""

    name: str = "addition"

    @property
    def vocab_size(self) -> int:
        return _SPECIAL + 11  # ten digits and "+"

    def positions(self, length: int) -> int:
        return 3 * length + 3

    def batch(self, generator: torch.Generator, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        lengths = lengths.to(torch.long)
        batch, n = len(lengths), int(lengths.max())
        if int(lengths.min()) != n:
            raise ParameterError("an addition batch has one length (its numbers have that many digits).")
        a = torch.randint(0, 10, (batch, n), generator=generator)
        b = torch.randint(0, 10, (batch, n), generator=generator)
        digits = torch.zeros(batch, n + 1, dtype=torch.long)
        carry = torch.zeros(batch, dtype=torch.long)
        for i in range(n):  # least significant first
            total = a[:, i] + b[:, i] + carry
            digits[:, i], carry = total % 10, total // 10
        digits[:, n] = carry
        plus = torch.full((batch, 1), _SPECIAL + 10, dtype=torch.long)
        seq = torch.cat((torch.full((batch, 1), BOS, dtype=torch.long), a + _SPECIAL, plus, b + _SPECIAL,
                         torch.full((batch, 1), SEP, dtype=torch.long), digits + _SPECIAL), dim=1)
        targets = torch.full_like(seq, IGNORE)
        targets[:, 2 * n + 3:] = seq[:, 2 * n + 3:]
        return seq[:, :-1], targets[:, 1:]


@dataclass(frozen=True)
class RecallTask(Task):
    """Associative recall: BOS k₁ v₁ … kₙ vₙ SEP q → the value stored under key q.

    Keys are distinct (drawn without replacement from ``n_keys``), values from ``n_values``;
    the query is one of the n keys; loss on the answer only.  2n + 3 positions.
    """

    name: str = "recall"
    n_keys: int = 64
    n_values: int = 16
    min_length: int = 2

    @property
    def vocab_size(self) -> int:
        return _SPECIAL + self.n_keys + self.n_values

    def positions(self, length: int) -> int:
        return 2 * length + 3

    def batch(self, generator: torch.Generator, lengths: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        lengths = lengths.to(torch.long)
        batch, longest = len(lengths), int(lengths.max())
        if longest > self.n_keys:
            raise ParameterError(f"associative recall with {longest} pairs needs at least that many distinct "
                                 f"keys (the task has {self.n_keys}); evaluate at most {self.n_keys} pairs.")
        keys = torch.rand(batch, self.n_keys, generator=generator).argsort(dim=1)[:, :longest] + _SPECIAL
        values = torch.randint(0, self.n_values, (batch, longest), generator=generator) + _SPECIAL + self.n_keys
        pick = (torch.rand(batch, generator=generator) * lengths).to(torch.long)  # which pair is asked for
        width = 2 * longest + 3
        seq = torch.full((batch, width), PAD, dtype=torch.long)
        seq[:, 0] = BOS
        pairs = torch.stack((keys, values), dim=2).reshape(batch, 2 * longest)
        j = torch.arange(width).reshape(1, -1)
        n = lengths.reshape(-1, 1)
        body = pairs.gather(1, (j - 1).clamp(0, 2 * longest - 1).expand(batch, -1))
        seq = torch.where((j >= 1) & (j <= 2 * n), body, seq)
        seq = torch.where(j == 2 * n + 1, torch.full_like(seq, SEP), seq)
        query = keys.gather(1, pick.reshape(-1, 1))
        answer = values.gather(1, pick.reshape(-1, 1))
        seq = torch.where(j == 2 * n + 2, query.expand(-1, width), seq)
        # the query (the last input) predicts the answer; nothing else takes a loss
        targets = torch.where(j == 2 * n + 2, answer.expand(-1, width), torch.full_like(seq, IGNORE))
        return seq, targets


class TextTask(Task):
    """Character-level language modelling on a text file; metric: perplexity per character.

    Training windows come from the first 90 % of the text, evaluation windows from the last
    10 % (held out).  A window of length n is n characters, all predicted (the first from BOS).
    """

    name = "lm"
    metric = "perplexity"
    min_length = 1

    def __init__(self, path: str | Path):
        from peapp.safe_open import read_text

        path = Path(path)
        if not os.path.lexists(path):
            raise DataFileError(f"text file {path} does not exist; give a UTF-8 text file with --text PATH.")
        text = read_text(path, "text", DataFileError)  # a FIFO or /dev/zero: refused, not read
        chars = sorted(set(text))
        if len(text) < 2000:
            raise DataFileError(f"{path} has only {len(text):,} characters; the language-modelling task needs "
                                f"at least 2,000 (a book-length text is best).")
        self.path = str(path)
        self.chars = chars
        index = {c: i + _SPECIAL for i, c in enumerate(chars)}
        ids = torch.tensor([index[c] for c in text], dtype=torch.long)
        split = int(len(ids) * 0.9)
        self.train_ids, self.eval_ids = ids[:split], ids[split:]

    @property
    def vocab_size(self) -> int:
        return _SPECIAL + len(self.chars)

    def positions(self, length: int) -> int:
        return length

    def sample_lengths(self, generator: torch.Generator, batch_size: int, max_length: int) -> torch.Tensor:
        return torch.full((batch_size,), max_length, dtype=torch.long)  # LM trains on full windows

    def batch(self, generator: torch.Generator, lengths: torch.Tensor, held_out: bool = False
              ) -> tuple[torch.Tensor, torch.Tensor]:
        ids = self.eval_ids if held_out else self.train_ids
        n = int(lengths.max())
        if n >= len(ids):
            raise ParameterError(f"windows of {n:,} characters do not fit in the {'held-out' if held_out else 'training'} "
                                 f"part of {self.path} ({len(ids):,} characters); use shorter lengths or a longer text.")
        starts = torch.randint(0, len(ids) - n, (len(lengths),), generator=generator)
        window = ids[starts.reshape(-1, 1) + torch.arange(n).reshape(1, -1)]
        inputs = torch.cat((torch.full((len(lengths), 1), BOS, dtype=torch.long), window[:, :n - 1]), dim=1)
        return inputs, window[:, :n]




def make_task(name: str, text: str | Path | None = None) -> Task:
    """The task called ``name``; ``lm`` needs ``text`` (a UTF-8 file)."""
    if name == "copy":
        return copy_task()
    if name == "reverse":
        return reverse_task()
    if name == "sort":
        return sort_task()
    if name == "addition":
        return AdditionTask()
    if name == "recall":
        return RecallTask()
    if name == "lm":
        if text is None:
            text = default_text()
        return TextTask(text)
    raise ParameterError(f"unknown task {name!r}; choose one of {', '.join(TASKS)}.")


def default_text() -> Path:
    """The bundled public-domain text for the LM task, if the resources hold one."""
    from peapp.resources import resource_dir

    found = sorted(p for p in resource_dir().glob("**/*.txt") if p.stat().st_size >= 100_000)
    if not found:
        raise DataFileError("no bundled text found under resources/ for the language-modelling task; "
                            "give a UTF-8 text file with --text PATH.")
    return found[0]
