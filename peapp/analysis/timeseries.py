"""Position encodings for continuous time: irregular timestamps, calendar cycles, Time2Vec.

Text has positions 0, 1, 2, …; a sensor log has timestamps with gaps.  Three ways to encode them:

* **sinusoidal over real time** — the transformer formula with position replaced by the elapsed
  time τ = (t − t₀)/unit, a real number, so a 3-hour gap moves the encoding by exactly 3 hours'
  worth of phase (no pretending the samples are evenly spaced);
* **calendar cycles** — hour of day, day of week and day of year as sin/cos pairs, so 23:00 and
  00:00 (or Sunday and Monday) are neighbours;
* **Time2Vec-style** (Kazemi et al. 2019) — one linear feature ω₀τ + φ₀ and k − 1 periodic ones
  sin(ω_iτ + φ_i); in a model these are learned, here they are seeded so the view is
  reproducible.

Input is a CSV with a user-chosen timestamp column holding ISO 8601 dates or plain numbers.
Rows that cannot be used are reported (line number and reason), never silently dropped.
"""

from __future__ import annotations

import csv
import io
import math
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Callable, ClassVar, Iterable, Iterator, Sequence

import numpy as np

from peapp import safe_open
from peapp.encodings import sinusoidal
from peapp.errors import DataFileError, ParameterError
from peapp.i18n import msg, shown, translate
from peapp.jobs import ProgressFn, Request
from peapp.memory import ensure_fits
from peapp.resources import resource_path


SAMPLE_NAME = "sensor_sample.csv"
#: Units a plain-number timestamp can be in; the ``unix_*`` ones also allow calendar cycles.
NUMBER_UNITS = {"seconds": 1.0, "minutes": 60.0, "hours": 3600.0, "days": 86400.0,
                "unix_seconds": 1.0, "unix_ms": 0.001}
#: Units of elapsed time τ (one unit = one "position" of the sinusoid).
TIME_UNITS = {"seconds": 1.0, "minutes": 60.0, "hours": 3600.0, "days": 86400.0}
ENCODINGS = ("sinusoidal", "calendar", "time2vec")
ENCODING_LABELS = {"sinusoidal": msg("TimeSeries", "Sinusoidal over real time"),  # marked: shown translated
                   "calendar": msg("TimeSeries", "Calendar cycles"), "time2vec": msg("TimeSeries", "Time2Vec (seeded)")}
CALENDAR_LABELS = (msg("TimeSeries", "hour sin"), msg("TimeSeries", "hour cos"), msg("TimeSeries", "weekday sin"),
                   msg("TimeSeries", "weekday cos"), msg("TimeSeries", "day-of-year sin"),
                   msg("TimeSeries", "day-of-year cos"))
MAX_ROWS = 5_000_000
MAX_LINE_CHARS = 1 << 20  # a longer line is refused before it is read whole
PEEK_CHARS = 64 * 1024  # the most a look at the header and first rows reads
# Unix seconds that datetime (and so every date shown) can represent: years 1 to 9999.
_UNIX_RANGE = (-62_135_596_800.0, 253_402_300_799.0)
MAX_BAD_ROWS_KEPT = 1000
PROGRESS_ROWS = 20_000
MAX_HEATMAP_ROWS = 4096
MAX_PAIRS = 3000
CURVE_POINTS = 512
MAX_CURVE_POINTS = 16_384


# ---------------------------------------------------------------------------------------------
# Reading


@dataclass(frozen=True)
class BadRow:
    line: int  # 1-based line number in the file (the header is line 1)
    # the reason: a marked message and its fields, put together in the language shown (a read series
    # is cached, so its words must not be fixed at reading time)
    template: str
    fields: tuple[tuple[str, object], ...] = ()

    @property
    def reason(self) -> str:
        text = shown(self.template)
        return text.format(**dict(self.fields)) if self.fields else text

    def __str__(self) -> str:
        return translate("TimeSeries", "line {line}: {reason}").format(line=self.line, reason=self.reason)


class _TimestampError(ValueError):
    """A timestamp that cannot be read: the reason as a marked message and its fields."""

    def __init__(self, reason: str, **fields: object):
        super().__init__(str(reason).format(**fields))
        self.reason, self.fields = reason, tuple(fields.items())


@dataclass(frozen=True)
class TimeSeries:
    times: np.ndarray  # float64 seconds, sorted; Unix seconds when ``calendar`` is true
    values: np.ndarray | None  # float64, aligned with times (None without a value column)
    lines: np.ndarray  # int64 source line of each sample
    time_column: str
    value_column: str | None
    kind: str  # "datetime" | "number"
    calendar: bool  # the times are absolute (dates or Unix numbers): calendar cycles apply
    bad_rows: tuple[BadRow, ...]  # the first MAX_BAD_ROWS_KEPT
    bad_count: int
    reordered: bool  # rows were not in time order and have been sorted
    source: str

    def __len__(self) -> int:
        return len(self.times)

    def bad_report(self, limit: int = 20) -> str:
        if not self.bad_count:
            return translate("TimeSeries", "no bad rows")
        listed = "\n".join(str(b) for b in self.bad_rows[:limit])
        more = self.bad_count - min(limit, len(self.bad_rows))
        head = translate("TimeSeries", "1 bad row skipped:") if self.bad_count == 1 else \
            translate("TimeSeries", "{n} bad rows skipped:").format(n=self.bad_count)
        return head + "\n" + listed + (
            translate("TimeSeries", "\n… and {n} more").format(n=more) if more > 0 else "")


def sample_path() -> Path:
    return resource_path(SAMPLE_NAME)


def _open_text(path: str | os.PathLike) -> io.TextIOWrapper:
    # a path from a session or a figure is someone else's: regular files only, size-capped
    return safe_open.open_text(path, "csv", DataFileError)


def _bounded_lines(lines: Iterable[str], source: str) -> Iterator[str]:
    """The lines of ``lines``, refusing one longer than MAX_LINE_CHARS before it is held whole
    (a 300 MB single-line file must not become a 300 MB string and millions of fields)."""
    readline = getattr(lines, "readline", None)
    number = 0
    if readline is None:
        for number, line in enumerate(lines, 1):
            if len(line) > MAX_LINE_CHARS:
                raise _long_line(source, number)
            yield line
        return
    while True:
        line = readline(MAX_LINE_CHARS + 1)
        if not line:
            return
        number += 1
        if len(line) > MAX_LINE_CHARS:
            raise _long_line(source, number)
        yield line


def _long_line(source: str, number: int) -> DataFileError:
    return DataFileError(f"{source}: line {number:,} is longer than {MAX_LINE_CHARS:,} characters; a CSV row of "
                         f"a time series is a few dozen. Is it the right file (a CSV with one row per line)?")


def sniff_delimiter(fh) -> str:
    """The field delimiter of an open CSV text file (comma, semicolon, tab or bar), rewinding it."""
    try:
        sample = fh.read(4096)  # csv.Sniffer is slow on long samples, and the GUI waits for it (ui.file_reader)
    except UnicodeDecodeError:
        sample = ""
    fh.seek(0)
    try:
        return csv.Sniffer().sniff(sample, delimiters=",;\t|").delimiter
    except csv.Error:
        return ","


def _rows(lines: Iterable[str], source: str, delimiter: str = ",") -> Iterable[tuple[int, list[str]]]:
    """(line number where the row ends, fields) for each CSV row."""
    reader = csv.reader(_bounded_lines(lines, source), delimiter=delimiter)
    try:
        for row in reader:
            yield reader.line_num, row
    except UnicodeDecodeError:
        raise DataFileError(f"{source} is not UTF-8 text; save it as UTF-8 CSV and open it again") from None
    except csv.Error as exc:
        raise DataFileError(f"{source} is not a readable CSV file (line {reader.line_num}: {exc})") from None


def read_header(path: str | os.PathLike) -> list[str]:
    """The column names of a CSV file (its first row)."""
    return _first_rows(path, 0)[0]


def parse_timestamp(text: str) -> tuple[str, float]:
    """("number", value) or ("datetime", Unix seconds); raises ValueError with a reason."""
    text = text.strip()
    if not text:
        raise _TimestampError(msg("TimeSeries", "empty timestamp"))
    try:
        number = float(text)
    except ValueError:
        pass
    else:
        if not math.isfinite(number):
            raise _TimestampError(msg("TimeSeries", "timestamp {text} is not a finite number"), text=repr(text))
        return "number", number
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        raise _TimestampError(msg("TimeSeries", "{text} is neither a number nor an ISO 8601 date/time"),
                              text=repr(text)) from None
    if moment.tzinfo is None:  # naive times are taken as UTC (said in the caption)
        moment = moment.replace(tzinfo=timezone.utc)
    return "datetime", moment.timestamp()


_TIME_NAME_HINTS = ("time", "date", "stamp", "epoch", "elapsed", "second", "hour", "day")


def guess_time_column(header: Sequence[str], first_rows: Sequence[Sequence[str]]) -> int:
    """The likely timestamp column: the first holding dates; else the first numeric column that is
    named like time or never decreases; else 0."""
    def values(col: int, kind: str) -> list[float]:
        out = []
        for row in first_rows:
            try:
                k, v = parse_timestamp(row[col])
            except (ValueError, IndexError):
                continue
            if k == kind:
                out.append(v)
        return out

    enough = max(1, len(first_rows) // 2)
    for col in range(len(header)):
        if len(values(col, "datetime")) >= enough:
            return col
    for col, name in enumerate(header):
        numbers = values(col, "number")
        if len(numbers) >= enough and (any(h in name.lower() for h in _TIME_NAME_HINTS)
                                       or (len(numbers) > 1 and all(np.diff(numbers) >= 0))):
            return col
    return 0


def peek(path: str | os.PathLike, n: int = 20) -> tuple[list[str], int]:
    """(header, guessed timestamp column index) from the first ``n`` data rows."""
    header, rows = _first_rows(path, n)
    return header, guess_time_column(header, rows)


def peek_columns(path: str | os.PathLike, n: int = 20) -> tuple[list[str], int, str | None]:
    """(header, guessed timestamp column index, guessed value column name or None)."""
    header, rows = _first_rows(path, n)
    time_index = guess_time_column(header, rows)
    return header, time_index, guess_value_column(header, rows, time_index)


def guess_value_column(header: Sequence[str], first_rows: Sequence[Sequence[str]], time_index: int) -> str | None:
    """The first column other than the timestamps whose first rows are mostly numbers, or None."""
    for col, name in enumerate(header):
        if col == time_index:
            continue
        numbers = 0
        for row in first_rows:
            try:
                float(row[col])
                numbers += 1
            except (ValueError, IndexError):
                pass
        if first_rows and numbers >= len(first_rows) // 2 + 1:
            return name
    return None


def _first_rows(path: str | os.PathLike, n: int) -> tuple[list[str], list[list[str]]]:
    """The header (first non-blank row) and up to ``n`` data rows; DataFileError if unreadable.

    Reads at most PEEK_CHARS (the GUI asks this, off its own thread, for a path a session named)."""
    with _open_text(path) as fh:
        delimiter = sniff_delimiter(fh)
        try:
            text = fh.read(PEEK_CHARS + 1)
        except UnicodeDecodeError:
            raise DataFileError(f"{path} is not UTF-8 text; save it as UTF-8 CSV and open it again") from None
    lines = list(io.StringIO(text, newline=""))  # split as a file is (csv wants its line ends kept)
    if len(text) > PEEK_CHARS and lines:
        lines.pop()  # cut off mid-line
        if not lines:
            raise _long_line(str(path), 1)
    rows = []
    header: list[str] | None = None
    for _, row in _rows(lines, str(path), delimiter):
        if header is None:
            if any(c.strip() for c in row):
                header = [c.strip() for c in row]
            continue
        rows.append(row)
        if len(rows) >= n:
            break
    if header is None:
        raise DataFileError(f"{path} is empty; a CSV needs a header row and at least one data row")
    return header, rows


def parse_csv(lines: Iterable[str], time_column: str, value_column: str | None = None, *,
              number_unit: str = "seconds", source: str = "CSV", delimiter: str = ",",
              progress: Callable[[int], None] | None = None) -> TimeSeries:
    """Parse CSV text (an iterable of lines) into a sorted :class:`TimeSeries`, reporting bad rows.

    ``progress(rows_read)`` is called every ``PROGRESS_ROWS`` rows (it may raise to cancel).
    """
    if number_unit not in NUMBER_UNITS:
        raise ParameterError(f"number unit must be one of {', '.join(NUMBER_UNITS)}; got {number_unit!r}")
    rows = _rows(lines, source, delimiter)
    header: list[str] | None = None
    for _, row in rows:
        if any(c.strip() for c in row):
            header = [c.strip() for c in row]
            break
    if header is None:
        raise DataFileError(f"{source} is empty; a CSV needs a header row and at least one data row")
    if time_column not in header:
        raise ParameterError(f"{source} has no column {time_column!r}; its columns are {', '.join(header)}")
    t_idx = header.index(time_column)
    v_idx = None
    if value_column:
        if value_column not in header:
            raise ParameterError(f"{source} has no column {value_column!r}; its columns are {', '.join(header)}")
        v_idx = header.index(value_column)

    kinds: list[str] = []
    stamps: list[float] = []
    values: list[float] = []
    lines_used: list[int] = []
    bad: list[BadRow] = []
    bad_count = 0

    def reject(line: int, reason: str, **fields: object) -> None:
        nonlocal bad_count
        bad_count += 1
        if len(bad) < MAX_BAD_ROWS_KEPT:
            bad.append(BadRow(line, reason, tuple(fields.items())))

    need = max(t_idx, v_idx if v_idx is not None else 0) + 1
    for count, (line, row) in enumerate(rows):
        if progress is not None and count % PROGRESS_ROWS == PROGRESS_ROWS - 1:
            progress(count + 1)
        if not any(c.strip() for c in row):
            continue  # blank lines are not data
        if len(row) < need:
            reject(line, msg("TimeSeries", "has 1 field; expected at least {need} to reach column {column}")
                   if len(row) == 1 else
                   msg("TimeSeries", "has {n} fields; expected at least {need} to reach column {column}"),
                   n=len(row), need=need, column=repr(header[need - 1]))
            continue
        try:
            kind, stamp = parse_timestamp(row[t_idx])
        except _TimestampError as exc:
            reject(line, exc.reason, **dict(exc.fields))
            continue
        if kind == "number" and number_unit.startswith("unix") and \
                not _UNIX_RANGE[0] <= stamp * NUMBER_UNITS[number_unit] <= _UNIX_RANGE[1]:
            reject(line, msg("TimeSeries", "{stamp} as {unit} is outside the years 1–9999 (is the unit right? "
                                           "milliseconds are unix_ms)"),
                   stamp=row[t_idx].strip(), unit=number_unit)
            continue
        value = math.nan
        if v_idx is not None:
            try:
                value = float(row[v_idx])
                if not math.isfinite(value):
                    raise ValueError
            except ValueError:
                reject(line, msg("TimeSeries", "value {value} in {column} is not a finite number"),
                       value=repr(row[v_idx].strip()), column=repr(value_column))
                continue
        kinds.append(kind)
        stamps.append(stamp)
        values.append(value)
        lines_used.append(line)
        if len(stamps) > MAX_ROWS:
            raise DataFileError(f"{source} has more than {MAX_ROWS:,} rows; use a shorter extract")

    if not stamps:
        first = "; ".join(str(b) for b in bad[:3])
        raise DataFileError(f"{source} has no usable rows in column {time_column!r}"
                            + (f" ({first})" if first else "") + ". Choose the timestamp column.")
    # One column, one kind: the minority kind (a number among dates or vice versa) is reported.
    n_dates = kinds.count("datetime")
    kind = "datetime" if n_dates >= len(kinds) - n_dates else "number"
    keep = np.array([k == kind for k in kinds])
    for k, stamp_line in zip(kinds, lines_used):
        if k != kind:
            reject(stamp_line, msg("TimeSeries", "a number in a column of dates") if k == "number" else
                   msg("TimeSeries", "a date in a column of numbers"))
    bad.sort(key=lambda b: b.line)
    times = np.asarray(stamps, dtype=np.float64)[keep]
    if kind == "number":
        times = times * NUMBER_UNITS[number_unit]
    vals = np.asarray(values, dtype=np.float64)[keep]
    line_arr = np.asarray(lines_used, dtype=np.int64)[keep]
    order = np.argsort(times, kind="stable")
    reordered = bool(np.any(order != np.arange(len(order))))
    return TimeSeries(times=times[order], values=vals[order] if v_idx is not None else None,
                      lines=line_arr[order], time_column=time_column, value_column=value_column or None,
                      kind=kind, calendar=kind == "datetime" or number_unit.startswith("unix"),
                      bad_rows=tuple(bad), bad_count=bad_count, reordered=reordered, source=source)


def load_csv(path: str | os.PathLike, time_column: str, value_column: str | None = None, *,
             number_unit: str = "seconds", progress: Callable[[float], None] | None = None) -> TimeSeries:
    """Read a CSV file; ``progress(fraction)`` gets the share of the file read so far."""
    with _open_text(path) as fh:
        size = max(1, os.fstat(fh.fileno()).st_size)

        def report(rows_read: int) -> None:
            if progress is not None:
                progress(min(0.99, os.lseek(fh.fileno(), 0, os.SEEK_CUR) / size))  # bytes read so far

        return parse_csv(fh, time_column, value_column, number_unit=number_unit, source=Path(path).name,
                         delimiter=sniff_delimiter(fh), progress=report)


# ---------------------------------------------------------------------------------------------
# Encodings


@dataclass(frozen=True)
class TimeEncoding:
    """How to encode time; validated on construction."""

    kind: str = "sinusoidal"
    unit: str = "hours"  # one unit of elapsed time = one position step of the sinusoid
    d_model: int = 32
    base: float = 10000.0
    k: int = 16  # Time2Vec features (1 linear + k − 1 periodic)
    seed: int = 0
    min_period: float = 1.0  # Time2Vec periods (in ``unit``), log-uniform in [min, max]
    max_period: float = 1000.0

    def __post_init__(self) -> None:
        if self.kind not in ENCODINGS:
            raise ParameterError(f"time encoding must be one of {', '.join(ENCODINGS)}; got {self.kind!r}")
        if self.unit not in TIME_UNITS:
            raise ParameterError(f"time unit must be one of {', '.join(TIME_UNITS)}; got {self.unit!r}")
        if not (2 <= self.d_model <= 1024 and self.d_model % 2 == 0):
            raise ParameterError(f"d_model must be an even number from 2 to 1024; got {self.d_model}")
        if not 2.0 <= self.base <= 1e9:
            raise ParameterError(f"base must be between 2 and 1e9; got {self.base:g}")
        if not 2 <= self.k <= 1024:
            raise ParameterError(f"Time2Vec needs 2 to 1024 features; got {self.k}")
        if not 0 < self.min_period < self.max_period:
            raise ParameterError(f"Time2Vec periods need 0 < shortest < longest; got "
                                 f"{self.min_period:g} and {self.max_period:g}")

    @property
    def unit_seconds(self) -> float:
        return TIME_UNITS[self.unit]


@dataclass(frozen=True)
class Time2VecParams:
    omega: np.ndarray  # [k]: ω₀ (linear) then the periodic frequencies, radians per unit
    phi: np.ndarray  # [k]


def time2vec_params(k: int, seed: int = 0, min_period: float = 1.0, max_period: float = 1000.0) -> Time2VecParams:
    """Seeded stand-ins for learned parameters: periods log-uniform in [min, max], phases uniform."""
    rng = np.random.default_rng(int(seed))
    periods = np.exp(rng.uniform(math.log(min_period), math.log(max_period), size=k - 1))
    omega = np.concatenate([[rng.uniform(0.5, 1.5) / max_period], 2 * math.pi / np.sort(periods)])
    phi = np.concatenate([[rng.uniform(-0.5, 0.5)], rng.uniform(0.0, 2 * math.pi, size=k - 1)])
    return Time2VecParams(omega, phi)


def time2vec(tau: np.ndarray, params: Time2VecParams) -> np.ndarray:
    """[n, k]: ω₀τ + φ₀, then sin(ω_iτ + φ_i)."""
    z = np.asarray(tau, dtype=np.float64)[:, None] * params.omega[None, :] + params.phi[None, :]
    z[:, 1:] = np.sin(z[:, 1:])
    return z


def sinusoidal_time(tau: np.ndarray, d_model: int, base: float = 10000.0) -> np.ndarray:
    """The transformer sinusoid evaluated at real-valued positions τ (interleaved sin/cos), float64."""
    import torch
    return sinusoidal.rows(torch.from_numpy(np.asarray(tau, dtype=np.float64)), d_model, base,
                           "interleaved").to(torch.float64).numpy()


def calendar_fractions(unix_seconds: np.ndarray) -> np.ndarray:
    """[n, 3] fraction through the day, the week (Monday = 0) and the year, in UTC."""
    t = np.asarray(unix_seconds, dtype=np.float64)
    whole = np.floor(t)
    stamp = whole.astype(np.int64).astype("datetime64[s]")
    day = np.mod(t, 86400.0) / 86400.0
    week = np.mod(t / 86400.0 + 3.0, 7.0) / 7.0  # 1970-01-01 was a Thursday (Monday + 3)
    year = stamp.astype("datetime64[Y]")
    start = year.astype("datetime64[s]").astype(np.int64)
    length = (year + 1).astype("datetime64[s]").astype(np.int64) - start
    year_frac = (t - start) / length
    return np.stack([day, week, year_frac], axis=1)


def calendar(unix_seconds: np.ndarray) -> np.ndarray:
    """[n, 6] sin/cos of hour of day, day of week and day of year (columns as CALENDAR_LABELS)."""
    angle = 2 * math.pi * calendar_fractions(unix_seconds)
    return np.stack([np.sin(angle[:, 0]), np.cos(angle[:, 0]), np.sin(angle[:, 1]), np.cos(angle[:, 1]),
                     np.sin(angle[:, 2]), np.cos(angle[:, 2])], axis=1)


def encode(times: np.ndarray, enc: TimeEncoding, origin: float, *, calendar_ok: bool = True) -> np.ndarray:
    """Encode absolute times (seconds) with ``enc``; τ = (t − origin)/unit for the relative encodings."""
    times = np.asarray(times, dtype=np.float64)
    if enc.kind == "calendar":
        if not calendar_ok:
            raise ParameterError("calendar cycles need dates: this timestamp column holds plain numbers. "
                                 "If they are Unix times, set the number unit to unix_seconds or unix_ms.")
        return calendar(times)
    tau = (times - origin) / enc.unit_seconds
    if enc.kind == "sinusoidal":
        return sinusoidal_time(tau, enc.d_model, enc.base)
    return time2vec(tau, time2vec_params(enc.k, enc.seed, enc.min_period, enc.max_period))


def column_labels(enc: TimeEncoding) -> list[str]:
    if enc.kind == "calendar":
        return [shown(label) for label in CALENDAR_LABELS]
    if enc.kind == "sinusoidal":
        return [f"{'sin' if c % 2 == 0 else 'cos'} {c // 2}" for c in range(enc.d_model)]
    periodic = translate("TimeSeries", "periodic {i}")
    return [translate("TimeSeries", "linear")] + [periodic.format(i=i) for i in range(1, enc.k)]


def cosine(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Row-wise cosine similarity of two [n, d] arrays (0 where a row is all zeros)."""
    num = np.sum(a * b, axis=-1)
    den = np.linalg.norm(a, axis=-1) * np.linalg.norm(b, axis=-1)
    return np.where(den > 0, num / np.where(den > 0, den, 1.0), 0.0)


def fastest_period(enc: TimeEncoding) -> float:
    """The shortest period (in ``enc.unit``) among the encoding's columns."""
    if enc.kind == "sinusoidal":
        return 2 * math.pi
    if enc.kind == "calendar":
        return 86400.0 / enc.unit_seconds
    return enc.min_period


def curve_points(enc: TimeEncoding, max_gap: float) -> int:
    """Enough samples of the gap axis to resolve the fastest column (16 per period), bounded."""
    return int(min(MAX_CURVE_POINTS, max(CURVE_POINTS, math.ceil(16 * max_gap / fastest_period(enc)) + 1)))


def similarity_vs_gap(enc: TimeEncoding, t0: float, max_gap: float, points: int = CURVE_POINTS,
                      calendar_ok: bool = True, origin: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """(gaps in ``enc.unit``, cosine similarity of the encodings of t0 and t0 + gap).

    ``origin`` is where elapsed time τ starts (default t0); it matters only for encodings that
    are not shift-invariant (Time2Vec's linear term).
    """
    origin = t0 if origin is None else origin
    gaps = np.linspace(0.0, float(max_gap), int(points))
    at = np.full_like(gaps, t0)
    a = encode(at, enc, origin, calendar_ok=calendar_ok)
    b = encode(at + gaps * enc.unit_seconds, enc, origin, calendar_ok=calendar_ok)
    return gaps, cosine(a, b)


# ---------------------------------------------------------------------------------------------
# The dock's request


@dataclass(frozen=True)
class TimeSeriesResult:
    series: TimeSeries
    encoding: TimeEncoding
    tau: np.ndarray  # elapsed time of every sample, in encoding.unit
    grid_tau: np.ndarray  # [cells] a regular time grid over the series (for the heatmap) …
    matrix_index: np.ndarray  # … the sample drawn in each cell (−1: no sample there, a gap) …
    matrix: np.ndarray  # … and its encoding [cells, cols] float32, NaN rows in gaps
    labels: list[str]
    gaps: np.ndarray  # similarity curve: gap (unit) …
    curve: np.ndarray  # … and cosine similarity at that gap from sample A (``pick[0]``)
    pair_gaps: np.ndarray  # sampled pairs of real timestamps: |τ_i − τ_j| …
    pair_sims: np.ndarray  # … and their similarity
    pick: tuple[int, int, float, float]  # (i, j, gap, similarity) of the two chosen samples
    caption: str


_series_cache: dict[tuple, TimeSeries] = {}


def _load_cached(path: str, time_column: str, value_column: str | None, number_unit: str,
                 progress: ProgressFn | None = None) -> TimeSeries:
    try:
        st = os.stat(path)
    except OSError as exc:
        raise DataFileError(f"cannot open {path}: {exc.strerror or exc}. Choose another file.") from None
    key = (os.path.abspath(path), st.st_mtime_ns, st.st_size, time_column, value_column, number_unit)
    if key not in _series_cache:
        _series_cache.clear()
        _series_cache[key] = load_csv(path, time_column, value_column, number_unit=number_unit,
                                      progress=(lambda f: progress(0.8 * f)) if progress else None)
    return _series_cache[key]


#: the time units as captions say them ("3 hours")
_UNIT_NAMES = {"seconds": msg("TimeSeries", "seconds"), "minutes": msg("TimeSeries", "minutes"),
               "hours": msg("TimeSeries", "hours"), "days": msg("TimeSeries", "days")}


def _fmt_gap(value: float, unit: str) -> str:
    return f"{value:,.3g} {shown(_UNIT_NAMES.get(unit, unit))}"


@dataclass(frozen=True)
class TimeSeriesRequest(Request):
    channel: ClassVar[str] = "timeseries"
    path: str = ""  # "" = the built-in sample
    time_column: str = "timestamp"
    value_column: str | None = "temperature_c"
    number_unit: str = "seconds"
    kind: str = "sinusoidal"
    unit: str = "hours"
    d_model: int = 32
    base: float = 10000.0
    k: int = 16
    seed: int = 0
    max_gap: float | None = None  # similarity curve range (unit); None = the series' span
    pick_a: int = 0
    pick_b: int = 24

    def compute(self, progress: ProgressFn) -> TimeSeriesResult:
        enc = TimeEncoding(kind=self.kind, unit=self.unit, d_model=self.d_model, base=self.base, k=self.k,
                           seed=self.seed)
        series = _load_cached(self.path or str(sample_path()), self.time_column, self.value_column,
                              self.number_unit, progress)
        progress(0.8)
        return summarise(series, enc, max_gap=self.max_gap, pick=(self.pick_a, self.pick_b), seed=self.seed)


def time_grid(tau: np.ndarray, max_cells: int = MAX_HEATMAP_ROWS) -> tuple[np.ndarray, np.ndarray]:
    """A regular grid over sorted elapsed times, for drawing: (cell times, sample per cell or −1).

    The step is the median gap (or coarser, so there are at most ``max_cells`` cells); a cell
    shows the sample nearest its time if one lies within half a step, else nothing — so an
    outage shows as a gap instead of being stretched over.
    """
    tau = np.asarray(tau, dtype=np.float64)
    if len(tau) == 0:
        return np.zeros(0), np.zeros(0, dtype=np.int64)
    span = float(tau[-1] - tau[0])
    gaps = np.diff(tau)
    positive = gaps[gaps > 0]
    step = float(np.median(positive)) if len(positive) else 1.0
    if span > 0:
        step = max(step, span / (max_cells - 1))
    cells = int(math.floor(span / step + 1e-9)) + 1
    grid = tau[0] + np.arange(cells) * step
    right = np.clip(np.searchsorted(tau, grid), 0, len(tau) - 1)
    left = np.clip(right - 1, 0, len(tau) - 1)
    nearest = np.where(np.abs(tau[left] - grid) <= np.abs(tau[right] - grid), left, right)
    found = np.abs(tau[nearest] - grid) <= step / 2 + 1e-12
    return grid, np.where(found, nearest, -1).astype(np.int64)


def summarise(series: TimeSeries, enc: TimeEncoding, *, max_gap: float | None = None,
              pick: tuple[int, int] = (0, 1), seed: int = 0) -> TimeSeriesResult:
    """Everything the time-series dock shows, for a loaded series and an encoding."""
    n = len(series)
    t0 = float(series.times[0])
    tau = (series.times - t0) / enc.unit_seconds
    grid_tau, index = time_grid(tau)
    cols = len(column_labels(enc))
    ensure_fits((len(index), cols), 8 * 3, what="the time encoding",
                suggestion="lower d_model or the number of Time2Vec features")
    matrix = np.full((len(index), cols), np.nan, dtype=np.float32)
    present = index >= 0
    if present.any():
        matrix[present] = encode(series.times[index[present]], enc, t0, calendar_ok=series.calendar)
    span = float(tau[-1]) if n > 1 else 1.0
    gap_range = float(max_gap) if max_gap else max(span, 1e-9)
    if not gap_range > 0:
        raise ParameterError(f"the largest gap must be positive; got {gap_range:g}")
    a, b = (min(max(int(p), 0), n - 1) for p in pick)
    # the curve starts at sample A, so sample B (when later) lies on it for every encoding
    gaps, curve = similarity_vs_gap(enc, float(series.times[a]), gap_range, points=curve_points(enc, gap_range),
                                    calendar_ok=series.calendar, origin=t0)
    rng = np.random.default_rng(seed)
    if n > 1:
        count = min(MAX_PAIRS, n * (n - 1) // 2)
        i = rng.integers(0, n, size=count)
        j = rng.integers(0, n, size=count)
        ea = encode(series.times[i], enc, t0, calendar_ok=series.calendar)
        eb = encode(series.times[j], enc, t0, calendar_ok=series.calendar)
        pair_gaps, pair_sims = np.abs(tau[i] - tau[j]), cosine(ea, eb)
    else:
        pair_gaps = pair_sims = np.zeros(0)
    ab = encode(series.times[[a, b]], enc, t0, calendar_ok=series.calendar)
    pick_result = (a, b, float(abs(tau[b] - tau[a])), float(cosine(ab[:1], ab[1:])[0]))

    gaps_real = np.diff(tau)
    irregular = translate("TimeSeries", "gaps from {shortest} to {longest}").format(
        shortest=_fmt_gap(gaps_real.min(), enc.unit), longest=_fmt_gap(gaps_real.max(), enc.unit)) \
        if n > 1 else translate("TimeSeries", "a single sample")
    if enc.kind == "sinusoidal":
        what = translate("TimeSeries", "the sinusoid (d_model {d}, base {base:g}) evaluated at the real elapsed time "
                                       "in {unit}, so an irregular gap shifts the phase by exactly its length").format(
            d=enc.d_model, base=enc.base, unit=shown(_UNIT_NAMES.get(enc.unit, enc.unit)))
    elif enc.kind == "calendar":
        what = translate("TimeSeries", "hour of day, day of week and day of year (UTC) as sin/cos pairs: cycles "
                                       "wrap, so 23:00 is next to 00:00 and Sunday next to Monday")
    else:
        what = translate("TimeSeries", "Time2Vec-style: 1 linear + {periodic} periodic features with seeded (not "
                                       "learned) frequencies, seed {seed}; the linear term makes similarity depend on "
                                       "when, not only on the gap").format(periodic=enc.k - 1, seed=enc.seed)
    if not series.bad_count:
        bad = ""
    elif series.bad_count == 1:
        bad = translate("TimeSeries", "; 1 bad row reported, not used")
    else:
        bad = translate("TimeSeries", "; {n} bad rows reported, not used").format(n=series.bad_count)
    extent = translate("TimeSeries", "{n:,} samples over {span}, ").format(n=n, span=_fmt_gap(span, enc.unit)) \
        if n > 1 else ""
    caption = translate("TimeSeries", "{source}, column {column}: {extent}{irregular}{bad}. Encoding: {what}. "
                                      "Samples {a} and {b} are {gap} apart, cosine similarity {similarity:.3f}.").format(
        source=series.source, column=repr(series.time_column), extent=extent, irregular=irregular, bad=bad,
        what=what, a=a, b=b, gap=_fmt_gap(pick_result[2], enc.unit), similarity=pick_result[3])
    return TimeSeriesResult(series=series, encoding=enc, tau=tau, grid_tau=grid_tau, matrix_index=index,
                            matrix=matrix,
                            labels=column_labels(enc), gaps=gaps, curve=curve, pair_gaps=pair_gaps,
                            pair_sims=pair_sims, pick=pick_result, caption=caption)
