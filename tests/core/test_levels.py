"""The one colour-level policy (peapp.analysis.levels): every scale, against hand-computed levels."""

from __future__ import annotations

import math

import numpy as np
import pytest

from peapp.analysis import heatmap
from peapp.analysis.levels import LEVEL_SHARE, LOG_DECADES, colour_levels


def test_symmetric_and_range_are_exact_without_outliers():
    values = np.array([[-0.3, 0.1], [0.2, np.nan]])
    assert colour_levels(values, "symmetric").levels == (-0.3, 0.3)
    assert colour_levels(values, "symmetric").diverging
    assert colour_levels(values, "range").levels == (-0.3, 0.2)
    assert colour_levels(np.full(4, 2.0), "range").levels == (1.5, 2.5)  # flat: ±0.5 around it
    assert colour_levels(np.array([np.nan]), "range").levels == (-1.0, 1.0)
    assert colour_levels(np.zeros(3), "symmetric").levels == (-1.0, 1.0)


def test_robust_clipping_holds_the_central_share():
    rng = np.random.default_rng(1)
    values = rng.normal(0, 0.05, 200_000)
    values[:5] = [3.0, -2.5, 2.0, 1.5, -1.5]
    shown = colour_levels(values, "symmetric")
    assert shown.saturated and shown.levels[0] == -shown.levels[1]
    assert np.mean(np.abs(values) <= shown.levels[1]) == pytest.approx(LEVEL_SHARE, abs=0.002)
    exact = colour_levels(values, "symmetric", robust=False)
    assert not exact.saturated and exact.levels == (-3.0, 3.0)
    # the heatmap's (and the worker's) call is this policy
    assert heatmap.colour_levels(values, True) == (shown.levels, True)
    assert heatmap.default_levels(values, True) == exact.levels


def test_signed_centres_on_zero_only_when_both_signs_matter():
    both = np.array([-1.0, 0.5, 2.0])
    assert colour_levels(both, "signed", robust=False) .levels == (-2.0, 2.0)
    assert colour_levels(both, "signed", robust=False).diverging
    one_sided = np.array([-0.01, 1.0, 3.0])  # the negative side is under 5% of the positive
    shown = colour_levels(one_sided, "signed", robust=False)
    assert shown.levels == (-0.01, 3.0) and not shown.diverging
    assert colour_levels(np.array([-np.inf, np.nan]), "signed").levels == (0.0, 1.0)  # all masked


def test_weights_are_never_clipped():
    weights = np.full((100, 100), 1e-4)
    weights[0, 0] = 1.0  # one certain query: its weight is the top colour
    assert colour_levels(weights, "weights").levels == (0.0, 1.0)
    assert colour_levels(weights * 0.5, "weights").levels == (0.0, 0.5)
    assert colour_levels(weights * 0.5, "weights", unit=True).levels == (0.0, 1.0)
    top = math.log10(0.5)
    assert colour_levels(weights * 0.5, "weights", log=True).levels == pytest.approx((top - LOG_DECADES, top))
    assert colour_levels(weights, "weights", log=True, unit=True).levels == (-LOG_DECADES, 0.0)
    with pytest.raises(ValueError, match="unknown colour scale"):
        colour_levels(weights, "rainbow")
