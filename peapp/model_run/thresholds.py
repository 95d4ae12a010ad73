"""The spans and head-class thresholds the run statistics use (:mod:`peapp.model_run.runner`).

Torch-free, so the Run on text panel can label its figures before torch has loaded."""

from __future__ import annotations

SINK_SPAN = 4
LOCAL_WINDOW = 8
CLASS_THRESHOLDS = {
    "previous_token": "mean weight on the previous token ≥ 0.5",
    "sink": "mean weight on token 0 ≥ 0.5",
    "local": f"mean weight within distance ≤ {LOCAL_WINDOW} ≥ 0.7",
    "broad": "none of the above (spread over content)",
}
