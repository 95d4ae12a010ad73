"""Published numbers the probes draw beside what they measure, cited (torch-free: the Probes panel
draws them before torch has loaded)."""

from __future__ import annotations

from typing import Any

#: Liu et al. 2023 (TACL 2024), "Lost in the Middle: How Language Models Use Long Contexts",
#: arXiv:2307.03172, multi-document question answering with 20 documents, GPT-3.5-Turbo: accuracy
#: by the position of the document that holds the answer, and closed-book (no documents).  Drawn
#: beside the passkey curve.
LOST_IN_THE_MIDDLE: dict[str, Any] = {
    "citation": "Liu, Lin, Hewitt, Paranjape, Bevilacqua, Petroni, Liang (2023). Lost in the Middle: How "
                "Language Models Use Long Contexts. TACL 2024; arXiv:2307.03172. Multi-document QA, 20 "
                "documents, GPT-3.5-Turbo.",
    "answer_position": [1, 5, 10, 15, 20],
    "documents": 20,
    "accuracy_percent": [75.8, 57.2, 53.8, 55.4, 63.2],
    "closed_book_percent": 56.1,
    # where the answer document sits, as a depth 0 … 1 of the 20 documents: (position − 1) / 19
    "depth": [0.0, 4 / 19, 9 / 19, 14 / 19, 1.0],
}
