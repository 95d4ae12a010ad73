"""Immutable compute requests: what a view asks the worker to compute.

A request is a frozen dataclass with a ``channel`` (a neutral name of the view it feeds, never
a widget's name; the GUI's worker queues each panel's requests on that panel's own channel,
where a newer request supersedes an older one) and a ``run(progress)`` method that calls the pure
``peapp`` functions.  ``progress(fraction)`` is the worker's hook: it may raise
:class:`Cancelled` between chunks, which is how long jobs stop promptly.  Requests know
nothing of threads or widgets, so the CLI runs them directly.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, ClassVar

ProgressFn = Callable[[float], None]


class Cancelled(Exception):
    """Raised from a progress callback to stop a job that is no longer wanted."""


def _no_progress(fraction: float) -> None:
    return None


@dataclass(frozen=True)
class Request:
    """Base of all requests.  Subclasses are frozen dataclasses that implement ``compute``."""

    channel: ClassVar[str] = "default"
    # False: computed only in the process that asks, never sent to another
    # (peapp.request_process): a model run, long and cancellable, whose result holds tensors
    travels: ClassVar[bool] = True

    def compute(self, progress: ProgressFn) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def run(self, progress: ProgressFn | None = None) -> Any:
        return self.compute(progress or _no_progress)


def frozen_params(values: dict[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable, ordered form of a parameter dict for use inside frozen requests."""
    return tuple(sorted(values.items()))
