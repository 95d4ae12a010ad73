"""Requests run in a second process that imports torch while this one does other work.

A cold ``peapp render`` used to import torch (2.3-2.8 s on a 2-core test machine) and Qt,
pyqtgraph and the window (1.5-2 s) one after the other.  Threads cannot overlap the two: both
hold the GIL, and an ``import torch`` on a thread beside a busy GUI thread took 40-68 s
(measured), since each time the import gave the GIL up for I/O it waited a switch interval to
get it back.  A second process can: :class:`RequestProcess` starts one that imports torch and the
core on the other core, and runs the :class:`~peapp.jobs.Request` objects sent to it, one at a
time, in order.  This process then need not import torch at all.

Requests are frozen dataclasses and their results plain data (numpy arrays, dataclasses of
them), so they travel as pickles.  Both ends read them with :func:`loads`, which builds only
peapp's own classes, numpy arrays and Python's plain values and never calls any other function,
so a pipe can carry data and nothing else (the rule for files, which are never unpickled at all,
holds here too in spirit).  Whatever cannot travel (a result holding a tensor or a function, an
error whose class is not allowed) or a second process that is gone makes :meth:`RequestProcess.run`
run the request here instead: slower, never wrong.

No progress or cancellation crosses the pipe: a request sent there runs to its end (``peapp
render``, the one user, never needs it stopped).  A request class with ``travels = False`` (a
model run: long, cancellable, holding tensors and the caller's caches) is always computed here.
"""

from __future__ import annotations

import builtins
import io
import os
import pickle
import struct
import sys
import threading
from typing import Any, Callable

from peapp import backend, i18n
from peapp.i18n import Translator
from peapp.jobs import Cancelled, Job, ProgressFn, Request, run_job

# The plain values a pickle may build (besides exceptions, peapp's classes and numpy's arrays).
_BUILTINS = frozenset({"bool", "bytearray", "bytes", "complex", "dict", "float", "frozenset", "int",
                       "list", "range", "set", "slice", "str", "tuple"})
_OTHER_CLASSES = {"collections": frozenset({"OrderedDict", "defaultdict", "deque", "Counter"}),
                  "pathlib": frozenset({"PosixPath", "WindowsPath", "PurePosixPath", "PureWindowsPath", "Path"})}
# How numpy pickles an array, a dtype and a scalar (numpy 1 under numpy.core, numpy 2 under numpy._core).
_NUMPY_MODULES = frozenset({"numpy", "numpy.core.multiarray", "numpy._core.multiarray",
                            "numpy.core.numeric", "numpy._core.numeric"})
_NUMPY_NAMES = frozenset({"_reconstruct", "_frombuffer", "scalar", "dtype", "ndarray"})


class _DataOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        try:
            value = self._allowed(module, name) if "." not in name else None  # "io.FileIO" via a peapp module: no
        except (ImportError, AttributeError):
            value = None
        if value is None:
            raise pickle.UnpicklingError(f"{module}.{name} is not data this pipe carries")
        return value

    def _allowed(self, module: str, name: str) -> Any:
        if module == "builtins":
            value = getattr(builtins, name, None)
            if name in _BUILTINS or (isinstance(value, type) and issubclass(value, BaseException)):
                return value
            return None
        if name in _OTHER_CLASSES.get(module, ()) or (module in _NUMPY_MODULES and name in _NUMPY_NAMES):
            return super().find_class(module, name)
        if module == "numpy.dtypes" or module == "peapp" or module.startswith("peapp."):
            value = super().find_class(module, name)
            # a class defined there (a dataclass, an enum, an error; numpy's dtype classes), never
            # a function, nor something that module merely imported
            if isinstance(value, type) and value.__module__ == module:
                return value
        return None


def dumps(value: Any) -> bytes:
    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def loads(data: bytes) -> Any:
    """Unpickle ``data`` building only allowed classes (see the module docstring)."""
    return _DataOnly(io.BytesIO(data)).load()


class RequestProcess:
    """A second process that runs Requests (see the module docstring).

    ``start()`` returns at once; the process imports torch while the caller goes on, and the
    first ``run`` waits for that.  ``run`` may be called from any thread (one request at a time).
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._connection: Any = None
        self._process: Any = None
        self._closed = False
        self._last: tuple[bytes, tuple[str, Any]] | None = None  # the last request sent (pickled) and its reply
        self._translates = False
        self.ran_here = 0  # requests that could not travel and were run in this process

    def start(self, translator_for: Callable[[str], Translator | None] | None = None) -> "RequestProcess":
        """Start the second process.  ``translator_for(code)``: the translator it uses for the
        strings results carry (captions, labels) in language ``code`` (``peapp.i18n``: the GUI
        plugs Qt's in, and so must the second process); a module-level function, since it travels
        by name.  Without one, requests made in another language than English are computed here.

        A plain ``python -c`` talking over its stdin and stdout, not multiprocessing: spawn
        re-imports the caller's main module there (a script without a ``__main__`` guard would
        run again) and starts a resource-tracker interpreter too, both on a cold render's
        critical path."""
        import json
        import subprocess

        self._translates = translator_for is not None
        name = f"{translator_for.__module__}:{translator_for.__qualname__}" if translator_for else ""
        code = ("import sys, json; sys.path[:0] = json.loads(sys.argv[1]); "
                "from peapp.request_process import main; main(sys.argv[2])")
        self._process = subprocess.Popen([sys.executable, "-c", code, json.dumps(sys.path), name],
                                         stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._connection = _Stream(self._process.stdout, self._process.stdin)
        return self

    @property
    def alive(self) -> bool:
        return self._connection is not None

    def run(self, request: Request, progress: ProgressFn | None = None) -> Any:
        """The result of ``request`` (see :meth:`steps`), waited on here."""
        return run_job(self.steps(request), on_progress=progress)

    def steps(self, request: Request) -> Job:
        """``request``'s job for the executor (its ``request_runner``): the result computed in the
        second process (its error raised here); the request's own steps, here, when it cannot
        travel or that process is gone.  Raises Cancelled once :meth:`close` was called (nothing
        is computed for a process that is ending).

        The request sent last, asked again (a view's automatic request, then the render's own
        ``compute_now``), is answered with the same result, not computed twice: a request is an
        immutable description of a computation."""
        with self._lock:
            reply = self._ask(request)
        if self._closed:
            raise Cancelled
        if reply is not None:
            kind, value = reply
            if kind == "result":
                return value
            if kind == "error":
                raise value
        self.ran_here += 1
        return (yield from request.steps())

    def _ask(self, request: Request) -> tuple[str, Any] | None:
        language = i18n.language()  # results carry text: made in the asker's language
        if self._connection is None or not getattr(request, "travels", True) or not _travels(type(request)):
            return None
        if language != "en" and not self._translates:
            return None
        try:
            data = dumps((language, request))
        except Exception:  # a request holding something that does not pickle: run it here
            return None
        if self._last is not None and self._last[0] == data:
            return self._last[1]
        try:
            self._connection.send_bytes(data)
            raw = self._connection.recv_bytes()
        except (EOFError, OSError):  # the process died (killed, out of memory) or was closed
            self._drop()
            return None
        except BaseException:  # interrupted between asking and the answer: the pipe is out of step
            self._drop()
            raise
        try:
            kind, value = loads(raw)
        except Exception:  # a result of a class this pipe does not carry
            return None
        if kind not in ("result", "error"):
            return None
        self._last = (data, (kind, value))
        return kind, value

    def close(self) -> None:
        """End the second process now (it also ends by itself when this one goes: its pipe
        closes).  Not under the lock: a request in flight there is abandoned, and its asker
        gets Cancelled."""
        self._closed = True
        process = self._process
        if process is not None and process.poll() is None:
            process.terminate()
            try:
                process.wait(2)
            except Exception:  # subprocess.TimeoutExpired: it is ending; nothing here waits for it
                pass
        with self._lock:
            self._drop()

    def _drop(self) -> None:
        if self._connection is not None:
            try:
                self._connection.close()
            except OSError:
                pass
        self._connection = None


class _Stream:
    """Length-prefixed messages over a pair of byte streams (the second process's stdin and
    stdout); the same two calls as a multiprocessing Connection."""

    def __init__(self, reader: Any, writer: Any) -> None:
        self._reader, self._writer = reader, writer

    def send_bytes(self, data: bytes) -> None:
        self._writer.write(struct.pack("<Q", len(data)))
        self._writer.write(data)
        self._writer.flush()

    def recv_bytes(self) -> bytes:
        (size,) = struct.unpack("<Q", self._read(8))
        return self._read(size)

    def _read(self, size: int) -> bytes:
        data = self._reader.read(size)
        if len(data) < size:
            raise EOFError("the other end closed the stream")
        return data

    def close(self) -> None:
        for stream in (self._writer, self._reader):
            try:
                stream.close()
            except OSError:
                pass


def main(translator_name: str = "") -> None:
    """The second process's entry (``RequestProcess.start``): answer on stdin and stdout.
    Anything printed (a library's note) goes to stderr, never into the replies."""
    replies = os.fdopen(os.dup(1), "wb")
    os.dup2(2, 1)
    translator_for = None
    if translator_name:
        import importlib

        module, _, name = translator_name.partition(":")
        translator_for = getattr(importlib.import_module(module), name)
    serve(_Stream(os.fdopen(os.dup(0), "rb"), replies), translator_for)


def _travels(cls: type) -> bool:
    """Whether the other end can rebuild a request of this class (only peapp's classes do)."""
    return cls.__module__ == "peapp" or cls.__module__.startswith("peapp.")


def serve(connection: Any, translator_for: Callable[[str], Translator | None] | None = None) -> None:
    """The second process: warm up, then answer each request until the pipe closes, in the
    language it was asked in (see :meth:`RequestProcess.start`)."""
    import signal

    if threading.current_thread() is threading.main_thread():  # (the tests serve on a thread)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C reaches the whole group: the caller answers it
    backend.load(collect=False)  # torch, before the first request asks
    while True:
        try:
            data = connection.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            connection.send_bytes(_answer(data, translator_for))
        except OSError:
            return


def _answer(data: bytes, translator_for: Callable[[str], Translator | None] | None) -> bytes:
    try:
        language, request = loads(data)
    except Exception as exc:  # a class this pipe does not carry: the caller runs it itself
        return _cannot_travel(exc)
    try:
        if language != i18n.language():
            i18n.set_translator(translator_for(language) if translator_for else None, language)
        result = request.run()
    except Exception as exc:  # goes back, to be raised there; anything else ends this process
        import traceback

        exc.add_note("(computed in peapp render's second process:)\n" + traceback.format_exc().rstrip())
        return _checked(("error", exc))
    return _checked(("result", result))


def _checked(reply: tuple[str, Any]) -> bytes:
    """The reply pickled, once it is sure the other end can read it: a result holding a tensor
    or a function, or an error it cannot rebuild, is answered "cannot travel" instead (and is
    computed there), rather than sent for nothing."""
    try:
        data = dumps(reply)
        loads(data)
        return data
    except Exception as exc:
        return _cannot_travel(exc)


def _cannot_travel(exc: BaseException) -> bytes:
    return dumps(("cannot-travel", f"{type(exc).__name__}: {exc}"))
