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

No progress or cancellation crosses the pipe; the one user, ``peapp render``, never cancels.
"""

from __future__ import annotations

import builtins
import gc
import io
import pickle
import threading
from typing import Any, Callable

from peapp import i18n
from peapp.i18n import Translator
from peapp.jobs import ProgressFn, Request

# The plain values a pickle may build (besides exceptions, peapp's classes and numpy's arrays).
_BUILTINS = frozenset({"bool", "bytearray", "bytes", "complex", "dict", "float", "frozenset", "int",
                       "list", "range", "set", "slice", "str", "tuple"})
_OTHER_CLASSES = {"collections": frozenset({"OrderedDict", "defaultdict", "deque", "Counter"}),
                  "pathlib": frozenset({"PosixPath", "WindowsPath", "PurePosixPath", "PureWindowsPath", "Path"})}
# How numpy pickles an array, a dtype and a scalar (numpy 1 under numpy.core, numpy 2 under numpy._core).
_NUMPY_MODULES = frozenset({"numpy", "numpy.core.multiarray", "numpy._core.multiarray",
                            "numpy.core.numeric", "numpy._core.numeric", "numpy.dtypes"})
_NUMPY_NAMES = frozenset({"_reconstruct", "_frombuffer", "scalar", "dtype", "ndarray"})


class _DataOnly(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if module == "builtins":
            value = getattr(builtins, name, None)
            if name in _BUILTINS or (isinstance(value, type) and issubclass(value, BaseException)):
                return value
        elif name in _OTHER_CLASSES.get(module, ()):
            return super().find_class(module, name)
        elif module in _NUMPY_MODULES and (name in _NUMPY_NAMES or name.endswith("DType")):
            return super().find_class(module, name)
        elif module == "peapp" or module.startswith("peapp."):
            value = super().find_class(module, name)
            if isinstance(value, type):  # a class (a dataclass, an enum, an error): never a function
                return value
        raise pickle.UnpicklingError(f"{module}.{name} is not data this pipe carries")


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
        self._last: tuple[tuple[str, Request], tuple[str, Any]] | None = None  # the last (language, request), its reply
        self._translates = False
        self.ran_here = 0  # requests that could not travel and were run in this process

    def start(self, translator_for: Callable[[str], Translator | None] | None = None) -> "RequestProcess":
        """Start the second process.  ``translator_for(code)``: the translator it uses for the
        strings results carry (captions, labels) in language ``code`` (``peapp.i18n``: the GUI
        plugs Qt's in, and so must the second process); a module-level function, since it travels
        by name.  Without one, requests made in another language than English are computed here."""
        import multiprocessing

        self._translates = translator_for is not None

        # spawn, not fork: a fresh interpreter (fork after Qt or OpenMP started is unsafe, and
        # is not available everywhere); PyInstaller bundles support it (multiprocessing.freeze_support)
        context = multiprocessing.get_context("spawn")
        ours, theirs = context.Pipe()
        self._process = context.Process(target=serve, args=(theirs, translator_for), name="peapp-requests",
                                        daemon=True)
        self._process.start()
        theirs.close()
        self._connection = ours
        return self

    @property
    def alive(self) -> bool:
        return self._connection is not None

    def run(self, request: Request, progress: ProgressFn | None = None) -> Any:
        """The result of ``request``, computed in the second process (its error raised here);
        computed here when it cannot travel or that process is gone.

        The same request asked again right after (a view's automatic request, then the render's
        own ``compute_now``) is answered with the same result, not computed twice: requests
        are immutable descriptions of pure computations."""
        reply: tuple[str, Any] | None
        asked = (i18n.language(), request)  # results carry text: made in the asker's language
        with self._lock:
            if self._last is not None and self._last[0] == asked:
                reply = self._last[1]
            elif asked[0] != "en" and not self._translates:
                reply = None
            else:
                reply = self._ask(asked)
                self._last = (asked, reply) if reply is not None else None
        if reply is not None:
            kind, value = reply
            if kind == "result":
                return value
            if kind == "error":
                raise value
        self.ran_here += 1
        return request.run(progress)

    def _ask(self, asked: tuple[str, Request]) -> tuple[str, Any] | None:
        if self._connection is None or not _travels(type(asked[1])):
            return None
        try:
            data = dumps(asked)
        except Exception:  # a request holding something that does not pickle: run it here
            return None
        try:
            self._connection.send_bytes(data)
            reply = self._connection.recv_bytes()
        except (EOFError, OSError):  # the process died (killed, out of memory): no more asking
            self._drop()
            return None
        try:
            kind, value = loads(reply)
        except Exception:  # a result of a class this pipe does not carry
            return None
        return (kind, value) if kind in ("result", "error") else None

    def close(self) -> None:
        """End the second process (it also ends by itself when this one goes: its pipe closes)."""
        with self._lock:
            process = self._process
            self._drop()
        if process is not None and process.is_alive():
            process.terminate()
            process.join(2)

    def _drop(self) -> None:
        if self._connection is not None:
            try:
                self._connection.close()
            except OSError:
                pass
        self._connection = None


def _travels(cls: type) -> bool:
    """Whether the other end can rebuild a request of this class (only peapp's classes do)."""
    return cls.__module__ == "peapp" or cls.__module__.startswith("peapp.")


def warm_up() -> None:
    """Import torch and what the views compute with, then freeze those objects out of the cycle
    collector (they live as long as the process; a full collection walked ~200,000 of them).
    No collection runs meanwhile: the import makes no garbage worth a look, and collections
    during it took 0.2-0.3 s of its ~2.3 s (measured)."""
    gc.disable()
    try:
        import torch  # noqa: F401

        from peapp import encodings
        from peapp.analysis import heatmap  # noqa: F401

        encodings.families()
    finally:
        gc.freeze()
        gc.enable()


def serve(connection: Any, translator_for: Callable[[str], Translator | None] | None = None) -> None:
    """The second process: warm up, then answer each request until the pipe closes, in the
    language it was asked in (see :meth:`RequestProcess.start`)."""
    import signal

    if threading.current_thread() is threading.main_thread():  # (the tests serve on a thread)
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C reaches the whole group: the caller answers it
    warm_up()
    while True:
        try:
            data = connection.recv_bytes()
        except (EOFError, OSError):
            return
        try:
            language, request = loads(data)
        except Exception as exc:  # a class this pipe does not carry: the caller runs it itself
            connection.send_bytes(dumps(("cannot-travel", f"{type(exc).__name__}: {exc}")))
            continue
        try:
            if language != i18n.language():
                i18n.set_translator(translator_for(language) if translator_for else None, language)
            result = request.run()
        except BaseException as exc:  # every failure goes back, to be raised there
            reply = _error_reply(exc)
        else:
            try:
                reply = dumps(("result", result))
            except Exception as exc:  # a tensor or a function inside: the caller runs it itself
                reply = dumps(("cannot-travel", f"{type(exc).__name__}: {exc}"))
        try:
            connection.send_bytes(reply)
        except OSError:
            return


def _error_reply(exc: BaseException) -> bytes:
    try:
        data = dumps(("error", exc))
        loads(data)  # the other end can read it (an error class it allows, arguments it can rebuild)
        return data
    except Exception:  # it cannot: the caller runs the request itself and meets the error there
        return dumps(("cannot-travel", f"{type(exc).__name__}: {exc}"))
