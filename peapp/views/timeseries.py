"""The time-series view's settings: the data file and its columns, the encoding, two samples."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.i18n import msg
from peapp.analysis import timeseries as ts
from peapp.params import param
from peapp.views.base import ViewSpec, register

NUMBER_UNIT_LABELS = {"seconds": msg("Params", "seconds"), "minutes": msg("Params", "minutes"),
                      "hours": msg("Params", "hours"), "days": msg("Params", "days"),
                      "unix_seconds": msg("Params", "Unix seconds"), "unix_ms": msg("Params", "Unix milliseconds")}


@register
@dataclass(frozen=True)
class TimeSeriesView(ViewSpec):
    view_id: ClassVar[str] = "timeseries"
    title: ClassVar[str] = msg("Panels", "Time series")
    legacy_ids: ClassVar[tuple[str, ...]] = ("timeSeriesDock",)

    path: str = param("", msg("Params", "Data"), readonly=True,
                      help=msg("Params", "The CSV file read; empty: the built-in sensor sample"))
    time_column: str = param("timestamp", msg("Params", "time"), help=msg("Params", "The column holding the timestamps"))
    value_column: str = param("temperature_c", msg("Params", "value"),
                              help=msg("Params", "Optional: a numeric column to plot above the encoding (empty: none)"))
    number_unit: str = param("seconds", msg("Params", "numbers in"),
                             choices={key: NUMBER_UNIT_LABELS[key] for key in ts.NUMBER_UNITS},
                             help=msg("Params", "What plain-number timestamps count (Unix times also allow calendar cycles)"))
    kind: str = param("sinusoidal", msg("Params", "Encoding"), choices={key: ts.ENCODING_LABELS[key] for key in ts.ENCODINGS},
                      help=msg("Params", "Sinusoid of the real elapsed time; calendar cycles as sin/cos pairs; or a "
                           "Time2Vec-style linear + periodic encoding with seeded parameters"))
    unit: str = param("hours", msg("Params", "unit"), choices={key: NUMBER_UNIT_LABELS[key] for key in ts.TIME_UNITS},
                      help=msg("Params", "One unit of elapsed time = one position step of the sinusoid"))
    d_model: int = param(32, "d_model", minimum=2, maximum=1024, step=2,
                         help=msg("Params", "Width of the sinusoidal time encoding (even: sin/cos pairs)"))
    base: float = param(10000.0, msg("Params", "base"), minimum=2.0, maximum=1e9, log=True,
                        help=msg("Params", "Sinusoid base: the slowest pair's wavelength is base·2π time units"))
    k: int = param(16, msg("Params", "features k"), minimum=2, maximum=1024, step=1, help=msg("Params", "Time2Vec features: 1 linear + k − 1 periodic"))
    seed: int = param(0, msg("Params", "seed"), minimum=0, maximum=2**31 - 1, step=1,
                      help=msg("Params", "Seed of the Time2Vec parameters (a model would learn them)"))
    pick_a: int = param(0, msg("Params", "compare"), minimum=0, maximum=ts.MAX_ROWS, step=1,
                        help=msg("Params", "A sample (row, in time order) for the two-timestamp comparison"))
    pick_b: int = param(24, msg("Params", "with"), minimum=0, maximum=ts.MAX_ROWS, step=1,
                        help=msg("Params", "A sample (row, in time order) for the two-timestamp comparison"))

    def request(self) -> "ts.TimeSeriesRequest":
        return ts.TimeSeriesRequest(path=self.path, time_column=self.time_column,
                                    value_column=self.value_column or None, number_unit=self.number_unit,
                                    kind=self.kind, unit=self.unit, d_model=self.d_model, base=self.base, k=self.k,
                                    seed=self.seed, pick_a=self.pick_a, pick_b=self.pick_b)
