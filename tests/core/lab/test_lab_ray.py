"""The lab's grid on Ray (issue 33): a local Ray with two CPUs runs a two-run grid with the
metrics of the local run; a cancelled Ray grid (its job closed) keeps its finished runs and
cancels the task still out; a second call skips them."""

from __future__ import annotations

import pytest

from peapp.lab import grid as lab_grid
from peapp.lab import results
from peapp.lab.train import TrainSettings

from ..conftest import require_ray


def _grid(**kw) -> lab_grid.GridSpec:
    settings = dict(encodings=("alibi", "rope"), rope_scalings=(), train_length=4, eval_lengths=(4, 8), seeds=1,
                    n_layers=1, d_model=16, n_heads=2, train=TrainSettings(steps=12, eval_samples=8, warmup_steps=2))
    settings.update(kw)
    return lab_grid.GridSpec(**settings)


def _numbers(metrics: dict) -> tuple:
    return metrics["loss_curve"], metrics["eval"], metrics["spec"], metrics["threads"]


def test_a_ray_grid_gives_the_local_grids_metrics(local_ray, tmp_path):
    grid = _grid()
    events = []
    on_ray = lab_grid.run_grid(grid, tmp_path / "ray", ray=local_ray, on_event=events.append)
    local = lab_grid.run_grid(grid, tmp_path / "local", mode="pool", workers=2)
    assert not on_ray.failed and not local.failed
    assert len(on_ray.finished) == len(local.finished) == 2
    ray_metrics = {m["run_id"]: _numbers(m) for m in results.finished_runs(tmp_path / "ray")}
    local_metrics = {m["run_id"]: _numbers(m) for m in results.finished_runs(tmp_path / "local")}
    assert ray_metrics == local_metrics
    assert on_ray.summary == local.summary
    kinds = {e["type"] for e in events}
    assert {"step", "done"} <= kinds  # progress crossed from the tasks
    again = lab_grid.run_grid(grid, tmp_path / "ray", ray=local_ray)  # skip-finished, as locally
    assert sorted(again.skipped) == sorted(ray_metrics) and not again.finished


def test_a_cancelled_ray_grid_keeps_its_finished_runs(local_ray, tmp_path):
    """The Ray grid is an executor job too: cancelled once the first run is done, it keeps that run
    and the Ray task still out is cancelled (its CPU comes back to the local Ray)."""
    import time

    import ray

    from peapp.jobs import Cancelled, Executor

    grid = _grid(nope_steps=200_000, encodings=("alibi", "nope"))  # nope would take many minutes
    handle_box: list = []
    events: list = []

    def on_event(event):
        events.append(event)
        if event["type"] == "done":
            handle_box[0].cancel()

    executor = Executor("serial")
    handle_box.append(executor.submit(lab_grid.grid_steps(grid, tmp_path, ray=local_ray), "lab", on_partial=on_event))
    with pytest.raises(Cancelled):
        handle_box[0].result(timeout=600)
    finished = [m["run_id"] for m in results.finished_runs(tmp_path)]
    assert finished == [e["run_id"] for e in events if e["type"] == "done"] and len(finished) == 1
    assert "alibi" in finished[0]
    deadline = time.monotonic() + 300  # the cancelled NoPE task gives its CPU back (polled, not slept on; generous
    # for a loaded machine: it returns within a second when idle)
    while ray.available_resources().get("CPU", 0) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert ray.available_resources().get("CPU", 0) == 2
    executor.shutdown()


def test_ray_is_installed_where_the_tests_need_it():
    """`make test` and CI install the cluster extra: there the Ray tests above run, never skip."""
    from peapp import cluster

    require_ray()  # fails without Ray: the README's set-up installs it
    assert cluster.available()


def test_the_cluster_extra_can_join_a_ray_client_address():
    """`--ray ray://head:10001` (the README's and --help's example) joins through Ray Client, which
    the minimal Ray refuses ("Ray Client requires pip package `ray[client]`"): the cluster extra
    installs ray[client] (grpcio).  Checked as Ray checks it before connecting."""
    require_ray()
    from ray._private.utils import get_ray_client_dependency_error

    assert get_ray_client_dependency_error() is None


def test_ray_is_refused_with_a_clear_line_without_an_address():
    from peapp import cluster
    from peapp.errors import ParameterError

    with pytest.raises(ParameterError, match="--ray needs"):
        cluster.connect("")


def test_the_panels_cluster_field_runs_the_grid_on_ray(local_ray, tmp_path, monkeypatch):
    from peapp import cluster
    from peapp.analysis.lab import TrainRequest
    from peapp.views.lab import LabView

    view = LabView(encodings="alibi", train_length=4, eval_lengths="4,8", seeds=1, n_layers=1, d_model=16, n_heads=2,
                   steps=5, cluster=" local ")
    settings = view.grid_settings()
    assert settings.cluster == "local"
    fractions, addresses = [], []
    original = cluster.task_steps

    def spy(address, *args, **kwargs):
        addresses.append(address)
        return original(address, *args, **kwargs)

    monkeypatch.setattr(cluster, "task_steps", spy)
    outcome = TrainRequest(settings=settings, folder=str(tmp_path)).run(fractions.append)
    assert outcome.finished == 1 and not outcome.failed and fractions and fractions[-1] == 1.0
    assert addresses == ["local"]
    assert len(results.finished_runs(tmp_path)) == 1
