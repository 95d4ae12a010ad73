"""Fixtures shared by the core's tests: a local Ray for the tests of ``--ray`` (the lab's grid in
tests/core/lab, the probes' sweeps in tests/core/model_run)."""

from __future__ import annotations

import importlib.util
import os

import pytest

# Ray's start-up timeouts, raised well past their defaults: on a loaded machine (a shared CI runner,
# `-n auto` with every core busy) a worker process or the node can take minutes to register.  Set
# before ray is imported (it reads some at import) and inherited by the processes ray.init starts.
RAY_PATIENCE = {
    "RAY_worker_register_timeout_seconds": "600",  # default 60
    "RAY_gcs_server_request_timeout_seconds": "300",  # default 60
    "RAY_gcs_rpc_server_connect_timeout_s": "120",  # default 5
    "RAY_py_gcs_connect_timeout_s": "300",
    "RAY_agent_register_timeout_ms": "600000",
    "RAY_health_check_timeout_ms": "60000",  # a raylet slow to answer is not declared dead
}
START_TRIES = 3  # ray.init waits a fixed 30 s for its raylet; under load, start it again


def require_ray() -> None:
    """Fail the calling test where Ray (the cluster extra) is not installed.  The README's set-up
    (`make test`: the test extra pulls the cluster extra) always installs it, so a missing Ray is a
    broken install, and a test that skipped for it would hide that."""
    if importlib.util.find_spec("ray") is None:
        pytest.fail("ray is not installed: `make test` installs it (the test extra pulls the cluster extra); "
                    "reinstall with `.venv/bin/pip install -e \".[test]\"`", pytrace=False)


@pytest.fixture(scope="module")
def local_ray():
    """``"local"``, with a local Ray of two CPUs started for the module (shut down after it)."""
    require_ray()
    for name, value in RAY_PATIENCE.items():
        os.environ.setdefault(name, value)
    from peapp import cluster

    for attempt in range(START_TRIES):
        try:
            cluster.connect("local", cpus=2)
            break
        except Exception:
            cluster.shutdown()
            if attempt == START_TRIES - 1:
                raise
    yield "local"
    cluster.shutdown()
