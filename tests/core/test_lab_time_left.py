"""The lab's time left: steady on a grid whose first seconds are process start-up."""

from __future__ import annotations

import math

import pytest

from peapp.lab.time_left import TimeLeft


def _simulate(time_left: TimeLeft, startup: float, total_steps_seconds: float, reports: int = 40):
    """A grid that spends ``startup`` seconds before its first step, then steps evenly."""
    answers = []
    for k in range(1, reports):
        elapsed = startup + total_steps_seconds * k / reports
        true_left = startup + total_steps_seconds - elapsed
        answers.append((time_left.update(elapsed, k / reports), true_left))
    return answers


def test_a_grid_with_a_slow_start_gets_a_steady_estimate():
    # the case: 19 s in all, ~7 s of it start-up; the measured estimate was 20 s
    answers = _simulate(TimeLeft(estimate=20.0), startup=7.0, total_steps_seconds=12.0)
    for said, true in answers:
        assert abs(said - true) <= 3.0, (said, true)
    # the old formula elapsed·(1−f)/f said ~4 min at the first report
    elapsed, fraction = 7.0 + 12.0 / 40, 1 / 40
    assert elapsed * (1 - fraction) / fraction > 240


def test_without_an_estimate_the_rate_after_start_up_decides():
    answers = _simulate(TimeLeft(), startup=30.0, total_steps_seconds=60.0)
    assert math.isnan(answers[0][0])  # one report: nothing to say yet
    for said, true in answers[2:]:
        assert said == pytest.approx(true, rel=0.05)


def test_before_any_progress_the_estimate_counts_down_and_ends_at_zero():
    time_left = TimeLeft(estimate=50.0)
    assert time_left.update(10.0, 0.0) == 40.0
    assert time_left.update(80.0, 0.0) == 0.0
    assert time_left.update(81.0, 1.0) == 0.0
