"""Atomic writes: a temp file in the target folder, then a rename. A failed write leaves
nothing behind and never damages an existing file.

The written file gets the permissions a plain ``open(path, "w")`` would give: those of the file
it replaces, else 0666 minus the user's umask (a temp file is created 0600, so the mode is set
before the rename).  A target that is a symbolic link is followed: the file it points to is
replaced (atomically, in that file's folder) and the link stays a link; a link to something other
than a regular file (a folder, a device, a pipe) is refused.
"""

from __future__ import annotations

import os
import stat
import tempfile
from contextlib import contextmanager
from typing import Iterator

from peapp.errors import PeappError


class ExportError(PeappError):
    """A file could not be written; the message says why and what to do."""


def _umask() -> int:
    """The process umask, read without changing it (os.umask() would, for every thread, briefly)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def resolve_target(path: str) -> str:
    """The file a write to ``path`` replaces: the path itself, or what a symlink points to."""
    if os.path.islink(path):
        real = os.path.realpath(path)
        if os.path.lexists(real) and not os.path.isfile(real):
            raise ExportError(f"cannot write {path}: it is a link to {real}, which is not a regular file.")
        return real
    if os.path.lexists(path) and not os.path.isfile(path):
        raise ExportError(f"cannot write {path}: it exists and is not a regular file (a folder, device or pipe).")
    return path


def _mode_for(target: str) -> int:
    try:
        info = os.stat(target)
    except OSError:
        return 0o666 & ~_umask()
    return stat.S_IMODE(info.st_mode)


@contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[str]:
    """Yield a temp path beside ``path``; on success rename it over ``path``, else delete it."""
    path = resolve_target(os.fspath(path))
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
        os.chmod(tmp, _mode_for(path))  # mkstemp made it 0600
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
