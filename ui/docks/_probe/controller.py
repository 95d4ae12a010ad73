"""Probes' controller: the state of the probe request cycle, no widget.

A probe runs in two phases (its time first, then — asked if long — the probe), its partial
results arrive while it runs (the worker drops a cancelled or superseded job's), and
a finished result is kept per tab and saved, so a session reopens it without running."""

from __future__ import annotations

from typing import Any

from peapp.model_run.probe_run import SAVED_RESULT, ProbeOutcome

MODES = tuple(SAVED_RESULT)


def mode_of(result: Any) -> str:
    """The tab a result is drawn in: a streaming result has its window and sinks, a perplexity one
    its curves, a passkey one its cells."""
    if hasattr(result, "sinks"):
        return "probe-streaming"
    return "probe-perplexity" if hasattr(result, "curves") else "probe-passkey"


def kind(mode: str) -> str:
    """The view setting that records ``mode``'s saved result file."""
    return SAVED_RESULT.get(mode, "results_file")


class ProbeController:
    def __init__(self) -> None:
        self.outcomes: dict[str, ProbeOutcome] = {}  # mode → the outcome drawn in its tab
        self.partial: dict[str, Any] = {}  # mode → the partial result of the run under way
        self.running_mode: str | None = None
        self.state = "idle"  # idle | estimating | running
        self.estimate: Any = None
        self.written: dict[str, str] = {}  # mode → results file this panel wrote (not read back)
        self.loaded_files: dict[str, str] = {}  # mode → results file drawn

    def shown_result(self, mode: str) -> Any:
        """The result drawn in ``mode``'s tab: the run under way's partial one, else the last."""
        if mode in self.partial:
            return self.partial[mode]
        outcome = self.outcomes.get(mode)
        return None if outcome is None else outcome.result

    def needs_reading(self, mode: str, saved: str) -> bool:
        """Whether a saved result the Document names (a session, undo) is to be read: not one this
        panel wrote or drew, never during a run."""
        return bool(saved) and saved != self.written.get(mode) and saved != self.loaded_files.get(mode) \
            and self.state == "idle"

    def start(self, mode: str) -> None:
        self.loaded_files.pop(mode, None)
        self.running_mode = mode
        self.partial.pop(mode, None)

    def stopped(self) -> str | None:
        """The run ended without a result (cancelled, failed): its partial curves go; the mode it ran."""
        mode, self.state = self.running_mode, "idle"
        if mode is not None:
            self.partial.pop(mode, None)
        return mode

    def partial_arrived(self, result: Any) -> bool:
        if self.state != "running" or self.running_mode is None:
            return False
        self.partial[self.running_mode] = result
        return True

    def finished(self, outcome: ProbeOutcome) -> str:
        mode = mode_of(outcome.result)
        self.state = "idle"
        self.partial.pop(mode, None)
        self.outcomes[mode] = outcome
        if outcome.from_file:
            self.loaded_files[mode] = outcome.from_file
        return mode

    def saved(self, mode: str, path: str) -> None:
        self.written[mode] = path
        self.loaded_files[mode] = path
