"""Regenerate ``sensor_sample.csv``: three weeks of hourly greenhouse-sensor readings.

Realistic irregularities, on purpose: the logger wakes a few minutes late now and then, about
8% of hours are missing, two outages drop 5 and 11 hours, and two rows are corrupt (an
impossible hour and an empty timestamp) so the time-series dock has bad rows to report.
Deterministic (seeded); run ``python resources/make_sample_timeseries.py`` to rewrite the file.
"""

import csv
import math
import pathlib
from datetime import datetime, timedelta, timezone

import numpy as np

rng = np.random.default_rng(20240304)
start = datetime(2024, 3, 4, 0, 0, tzinfo=timezone.utc)  # a Monday
hours = 21 * 24
outages = set(range(100, 105)) | set(range(300, 311))
rows = []
for h in range(hours):
    if h in outages or rng.random() < 0.08:
        continue
    late = int(rng.integers(0, 4)) if rng.random() < 0.3 else 0  # minutes late
    t = start + timedelta(hours=h, minutes=late, seconds=int(rng.integers(0, 60)) if late else 0)
    day = (h % 24) / 24
    weekday = (start + timedelta(hours=h)).weekday()
    # daily cycle peaking mid-afternoon, heating off at weekends, slow warming trend, noise
    temp = (18.0 + 4.5 * math.sin(2 * math.pi * (day - 0.375)) - (1.5 if weekday >= 5 else 0.0)
            + 0.05 * h / 24 + rng.normal(0, 0.35))
    humidity = 62.0 - 8.0 * math.sin(2 * math.pi * (day - 0.375)) + rng.normal(0, 1.5)
    rows.append([t.strftime("%Y-%m-%dT%H:%M:%SZ"), f"{temp:.2f}", f"{humidity:.1f}"])

rows.insert(150, ["2024-03-10T25:00:00Z", "19.84", "60.2"])  # impossible hour from a clock glitch
rows.insert(380, ["", "17.02", "66.9"])  # the logger lost its clock for one reading

out = pathlib.Path(__file__).with_name("sensor_sample.csv")
with out.open("w", newline="", encoding="utf-8") as fh:
    writer = csv.writer(fh)
    writer.writerow(["timestamp", "temperature_c", "humidity_pct"])
    writer.writerows(rows)
print(f"wrote {len(rows)} rows to {out}")
