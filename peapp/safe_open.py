"""The one way to open a file someone else named: regular files only, a size cap per kind.

Every path a user, a session or a figure names goes through here.  A FIFO would block the
reader forever, ``/dev/zero`` (or a symlink to it) would be read until memory runs out, and a
folder gives a confusing error, so the file is opened ``O_NONBLOCK`` (opening a FIFO with no
writer then returns at once), checked with ``fstat`` on the open descriptor (no race with a
swapped path; a symlink is followed, and what it points at must be a regular file), and read
with a cap that depends on what the file is meant to be.

JSON from such files goes through :func:`load_json`: number length is checked while parsing
(a 400-digit number would become an int later arithmetic cannot use) and nesting depth after
(Python's parser recurses; past its limit the RecursionError is caught).
"""

from __future__ import annotations

import io
import json
import os
import stat
from typing import Any

from peapp.errors import PeappError
from peapp.i18n import msg, shown, translate

MiB = 1024 * 1024

#: The largest file accepted for each kind of file.  Generous for real files (a Llama config is
#: 1 KB, a sharded index 100 KB, a tokenizer.json 10–30 MB, a figure a few MB), small enough that
#: reading one whole never strains memory.
LIMITS = {
    "config": 4 * MiB,
    "index": 64 * MiB,
    "tokenizer": 256 * MiB,
    "session": 4 * MiB,
    "figure": 256 * MiB,
    "image": 256 * MiB,
    "csv": 1024 * MiB,
    "array": 1024 * MiB,
    "text": 16 * MiB,  # a .txt to run a model on (8,192 tokens are ≈ 40 KB)
    "results": 64 * MiB,  # a saved probe result or a training-lab metrics file
    "weights": 1024 * 1024 * MiB,  # a .gguf or .safetensors: hashed in chunks or mapped, never read whole
}
KIND_LABELS = {"config": msg("SafeOpen", "config"), "index": msg("SafeOpen", "index"),
               "tokenizer": msg("SafeOpen", "tokenizer/vocabulary"), "session": msg("SafeOpen", "session"),
               "figure": msg("SafeOpen", "figure"), "image": msg("SafeOpen", "image"), "csv": "CSV",
               "array": msg("SafeOpen", "data"), "text": msg("SafeOpen", "text"),
               "results": msg("SafeOpen", "results"), "weights": msg("SafeOpen", "weights")}
#: JSON nested deeper than this is refused (real configs nest 3–4 levels).
MAX_JSON_DEPTH = 64
#: Integers with more digits than this are refused (JSON allows any length; nothing peapp reads needs it).
MAX_NUMBER_DIGITS = 40


def _describe_mode(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return translate("SafeOpen", "a folder")
    if stat.S_ISFIFO(mode):
        return translate("SafeOpen", "a named pipe (FIFO)")
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return translate("SafeOpen", "a device")
    if stat.S_ISSOCK(mode):
        return translate("SafeOpen", "a socket")
    return translate("SafeOpen", "not a regular file")


def open_regular(path: str | os.PathLike, kind: str, error: type[PeappError] = PeappError) -> io.BufferedReader:
    """A binary reader for ``path`` if it is a regular file within the size cap of ``kind``.

    Raises ``error`` (a project exception type) saying what the path is and what to do.
    """
    limit = LIMITS[kind]
    label = shown(KIND_LABELS[kind])
    name = os.fspath(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(name, flags)
    except FileNotFoundError:
        raise error(translate("SafeOpen", "{path}: no such file; choose an existing {kind} file.").format(
            path=name, kind=label)) from None
    except IsADirectoryError:
        raise error(translate("SafeOpen", "{path} is a folder, not a {kind} file.").format(path=name, kind=label)) from None
    except OSError as exc:
        raise error(f"cannot open {name}: {exc.strerror or exc}.") from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise error(translate("SafeOpen", "{path} is {what}, not a {kind} file; peapp reads regular files "
                                  "only.").format(path=name, what=_describe_mode(info.st_mode), kind=label))
        if info.st_size > limit:
            raise error(translate("SafeOpen", "{path} is {size} MiB, more than a {kind} file can be ({limit} MiB); "
                                  "is it the right file?").format(path=name, size=f"{info.st_size / MiB:,.1f}",
                                                                  kind=label, limit=f"{limit // MiB:,}"))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)  # a regular file: ordinary reads from here on
        handle = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    return handle


def read_bytes(path: str | os.PathLike, kind: str, error: type[PeappError] = PeappError) -> bytes:
    """The whole file, if it is a regular file within the cap of ``kind``."""
    limit = LIMITS[kind]
    with open_regular(path, kind, error) as fh:
        try:
            data = fh.read(limit + 1)  # +1: a file that grew after fstat is still caught
        except OSError as exc:
            raise error(f"cannot read {os.fspath(path)}: {exc.strerror or exc}.") from None
    if len(data) > limit:
        raise error(translate("SafeOpen", "{path} is more than {limit} MiB, more than a {kind} file can be; is it "
                              "the right file?").format(path=os.fspath(path), limit=f"{limit // MiB:,}",
                                                        kind=shown(KIND_LABELS[kind])))
    return data


def read_text(path: str | os.PathLike, kind: str, error: type[PeappError] = PeappError) -> str:
    """The whole file as UTF-8 text (a BOM is dropped)."""
    data = read_bytes(path, kind, error)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise error(translate("SafeOpen", "{path} is not UTF-8 text, so not a {kind} file.").format(
            path=os.fspath(path), kind=shown(KIND_LABELS[kind]))) from None


def open_text(path: str | os.PathLike, kind: str, error: type[PeappError] = PeappError) -> io.TextIOWrapper:
    """A text reader (UTF-8, BOM dropped, newlines kept as written: ``csv`` wants that)."""
    return io.TextIOWrapper(open_regular(path, kind, error), encoding="utf-8-sig", newline="")


class _TooLong(ValueError):
    pass


def _parse_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise _TooLong(text)
    return int(text)


def _parse_float(text: str) -> float:
    if len(text) > MAX_NUMBER_DIGITS + 20:  # digits, sign, point and exponent
        raise _TooLong(text)
    return float(text)


def json_depth(value: Any, limit: int | None = None) -> int:
    """The deepest nesting of lists/dicts in a parsed JSON value (iterative; stops past ``limit``)."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, (list, dict)):
            if depth > deepest:
                deepest = depth
                if limit is not None and deepest > limit:
                    return deepest
            stack.extend((child, depth + 1) for child in (node.values() if isinstance(node, dict) else node))
    return deepest


def load_json(text: str | bytes, what: str, error: type[PeappError] = PeappError,
              max_depth: int | None = MAX_JSON_DEPTH) -> Any:
    """Parse JSON from a file someone else made: numbers of more than MAX_NUMBER_DIGITS digits
    are refused while parsing; nesting past ``max_depth`` is refused (past Python's recursion
    limit the parser itself stops, caught here).  ``what`` names the file in messages."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise error(f"{what} is not UTF-8 text.") from None
    try:
        value = json.loads(text, parse_int=_parse_int, parse_float=_parse_float)
    except _TooLong:
        raise error(f"{what} holds a number with more than {MAX_NUMBER_DIGITS} digits, which no setting "
                    f"can use; fix the value in the file.") from None
    except RecursionError:
        raise error(f"{what} nests too deeply (at most {max_depth or MAX_JSON_DEPTH} levels are accepted); "
                    f"it is not a file peapp wrote or reads.") from None
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg}).") from None
    except ValueError as exc:
        raise error(f"{what} is not usable JSON ({str(exc)[:120]}).") from None
    # (a text with few brackets cannot nest deeply: the walk is skipped for almost every real file)
    if max_depth is not None and text.count("[") + text.count("{") > max_depth \
            and json_depth(value, max_depth) > max_depth:
        raise error(f"{what} nests more than {max_depth} levels deep; it is not a file peapp wrote or reads.")
    return value
