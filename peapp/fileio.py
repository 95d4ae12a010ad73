"""Atomic writes: a temp file in the target folder, then a rename. A failed write leaves
nothing behind and never damages an existing file."""

from __future__ import annotations

import os
import tempfile
from contextlib import contextmanager
from typing import Iterator

from peapp.errors import PeappError


class ExportError(PeappError):
    """A file could not be written; the message says why and what to do."""


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[str]:
    """Yield a temp path beside ``path``; on success rename it over ``path``, else delete it."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise ExportError(f"cannot write {path}: folder {folder} does not exist")
    try:
        fd, tmp = tempfile.mkstemp(prefix=".peapp-", suffix=os.path.splitext(path)[1], dir=folder)
    except OSError as exc:
        raise ExportError(f"cannot write to {folder}: {exc.strerror or exc}. Choose another folder.") from None
    os.close(fd)
    try:
        yield tmp
        os.replace(tmp, path)
    except OSError as exc:
        _remove(tmp)
        raise ExportError(f"writing {path} failed: {exc.strerror or exc}; nothing was written.") from None
    except BaseException:
        _remove(tmp)
        raise


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def atomic_write_bytes(path: str | os.PathLike, data: bytes) -> None:
    with atomic_path(path) as tmp:
        with open(tmp, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())


def atomic_write_text(path: str | os.PathLike, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))
