"""peapp.request_process: requests computed in a second process give the same results and
errors as computed here; the pipe carries data only; whatever cannot travel, or a second process
that is gone, is computed here instead."""

from __future__ import annotations

import dataclasses
import os
import pickle
import threading
from multiprocessing import Pipe

import numpy as np
import pytest

from peapp import i18n, request_process
from peapp.analysis.heatmap import AnsweredRowRequest, RowRequest, TableRequest
from peapp.errors import ParameterError
from peapp.jobs import Cancelled, Request, frozen_params
from peapp.request_process import RequestProcess, dumps, loads

SINUSOID = frozen_params({"n_positions": 300, "d_model": 64})


@pytest.fixture(scope="module")
def second_process():
    requests = RequestProcess().start()
    yield requests
    requests.close()


def _same_table(a, b) -> None:
    assert np.array_equal(a.view.values, b.view.values)
    assert a.caption == b.caption and a.levels == b.levels and a.request == b.request


def test_a_table_computed_there_is_the_one_computed_here(second_process):
    request = TableRequest(family="sinusoidal", params=SINUSOID, max_rows=100, selected_row=7)
    there = second_process.run(request)
    _same_table(there, request.run())
    assert np.array_equal(there.selected_row, request.run().selected_row)
    asked_again = second_process.run(request)  # answered from the last reply, not computed twice
    assert asked_again is there
    row_request = AnsweredRowRequest("sinusoidal", SINUSOID, 12)
    answered, row = second_process.run(row_request)
    assert answered == row_request and np.array_equal(row, row_request.run()[1])
    assert second_process.ran_here == 0 and second_process.alive


def _shouting(code: str):  # a translator the second process finds by name (tests.core…)
    return lambda context, text: f"[{code}] {text}"


def test_results_are_made_in_the_language_they_were_asked_in(monkeypatch, second_process):
    request = TableRequest(family="sinusoidal", params=SINUSOID, max_rows=50)
    translated = RequestProcess().start(translator_for=_shouting)
    try:
        assert translated.run(request).caption == request.run().caption  # English: no translator used
        monkeypatch.setattr(i18n, "_language", "hi")
        assert translated.run(request).caption.startswith("[hi] ")  # not the English reply kept from before
        assert translated.ran_here == 0
    finally:
        translated.close()
    before = second_process.ran_here  # started without a translator: another language is computed here
    assert second_process.run(request).caption == request.run().caption
    assert second_process.ran_here == before + 1


def test_an_error_there_is_raised_here_with_its_class_and_message(second_process):
    bad = TableRequest(family="sinusoidal", params=frozen_params({"n_positions": 300, "d_model": 63}))
    with pytest.raises(ParameterError) as here:
        bad.run()
    before = second_process.ran_here
    with pytest.raises(ParameterError) as there:
        second_process.run(bad)
    assert str(there.value) == str(here.value)
    assert "second process" in "".join(getattr(there.value, "__notes__", []))  # where it happened, for PEAPP_DEBUG
    assert second_process.alive and second_process.ran_here == before


@dataclasses.dataclass(frozen=True)
class _TestsOwnRequest(Request):  # not peapp's: the other end would not rebuild it
    value: int

    def compute(self, progress):
        return os.getpid(), self.value


def test_a_request_of_a_class_outside_peapp_is_computed_here(second_process):
    before = second_process.ran_here
    assert second_process.run(_TestsOwnRequest(3)) == (os.getpid(), 3)
    assert second_process.ran_here == before + 1


def test_a_request_that_does_not_travel_is_computed_here(second_process, monkeypatch):
    monkeypatch.setattr(TableRequest, "travels", False)  # as a model run declares
    before = second_process.ran_here
    request = TableRequest(family="sinusoidal", params=SINUSOID, max_rows=40)
    _same_table(second_process.run(request), request.run())
    assert second_process.ran_here == before + 1


def test_once_the_second_process_is_gone_every_request_is_computed_here():
    requests = RequestProcess().start()
    try:
        request = TableRequest(family="sinusoidal", params=SINUSOID, max_rows=50)
        requests.run(request)
        requests._process.kill()  # killed (out of memory, by hand): the pipe closes
        requests._process.wait(10)
        other = RowRequest("sinusoidal", SINUSOID, 5)
        assert np.array_equal(requests.run(other), other.run())
        assert requests.ran_here == 1 and not requests.alive
        assert np.array_equal(requests.run(RowRequest("sinusoidal", SINUSOID, 6)), RowRequest("sinusoidal", SINUSOID, 6).run())
        assert requests.ran_here == 2
    finally:
        requests.close()
    assert requests._process.poll() is not None
    with pytest.raises(Cancelled):  # closed: the process is ending, nothing more is computed
        requests.run(RowRequest("sinusoidal", SINUSOID, 6))


def test_a_result_that_cannot_travel_is_computed_here(monkeypatch):
    """The serving loop (run on a thread here, with its warm-up skipped) answers "cannot travel"
    for a result that does not pickle, and the asking side computes it itself."""
    monkeypatch.setattr(request_process.backend, "load", lambda collect=True: False)
    monkeypatch.setattr(RowRequest, "compute", lambda self, progress: (lambda: self.position))
    ours, theirs = Pipe()
    server = threading.Thread(target=request_process.serve, args=(theirs,), daemon=True)
    server.start()
    requests = RequestProcess()
    requests._connection = ours
    result = requests.run(RowRequest("sinusoidal", SINUSOID, 9))
    assert result() == 9 and requests.ran_here == 1 and requests.alive
    ours.close()
    server.join(10)
    assert not server.is_alive()  # the loop ends when the pipe closes


# ---- the pipe carries data only -----------------------------------------------------------

class _Calls:
    def __init__(self, function, *args):
        self.function, self.args = function, args

    def __reduce__(self):
        return self.function, self.args


@pytest.mark.parametrize("payload", [
    _Calls(os.system, "true"),
    _Calls(eval, "1 + 1"),
    _Calls(getattr, 1, "real"),
    _Calls(request_process.serve, None),  # peapp's own functions are not data either
    _Calls(np.load, "x.npy"),
])
def test_a_pickle_that_would_call_a_function_is_refused(payload):
    data = pickle.dumps(payload)
    with pytest.raises(pickle.UnpicklingError, match="is not data this pipe carries"):
        loads(data)


def _global(module: str, name: str) -> bytes:
    """A protocol-4 pickle of just the global ``module``.``name`` (STACK_GLOBAL)."""
    m, n = module.encode(), name.encode()
    return b"\x80\x04\x8c" + bytes([len(m)]) + m + b"\x8c" + bytes([len(n)]) + n + b"\x93."


@pytest.mark.parametrize("module, name", [
    ("peapp.request_process", "io.FileIO"),  # a dotted name reaches through a peapp module to anything
    ("peapp.request_process", "pickle.Unpickler"),
    ("peapp.request_process", "Request"),  # a class that module merely imports
    ("peapp.request_process", "serve"),
    ("builtins", "eval"),
    ("builtins", "getattr"),
    ("os", "system"),
    ("numpy", "load"),
    ("numpy.dtypes", "np"),
])
def test_a_global_other_than_a_data_class_is_refused(module, name):
    with pytest.raises(pickle.UnpicklingError, match="is not data this pipe carries"):
        loads(_global(module, name))
    assert loads(_global("peapp.analysis.heatmap", "RowRequest")) is RowRequest  # the same pickle of a data class loads


def test_data_round_trips():
    values = [np.arange(12, dtype=np.float32).reshape(3, 4), np.float64(2.5), np.array([1 + 2j]),
              {"a": (1, 2.0, None, "x", b"y")}, frozenset({1}), ParameterError("too long"),
              TableRequest(family="rope", params=SINUSOID)]
    back = loads(dumps(values))
    assert np.array_equal(back[0], values[0]) and back[0].dtype == np.float32
    assert back[1] == 2.5 and back[2][0] == 1 + 2j and back[3] == values[3] and back[4] == values[4]
    assert isinstance(back[5], ParameterError) and str(back[5]) == "too long"
    assert back[6] == values[6]
