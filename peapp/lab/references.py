"""Published reference points, drawn beside the measured curves and always labelled as the
paper's numbers at the paper's scale (large models, real text), never as a prediction for the
lab's tiny models.

The numbers are as quoted in the project's issue 16 (Training lab); they were not re-read from
the papers in this repository.
"""

from __future__ import annotations

from typing import Any

from peapp.i18n import msg

PRESS_2022_TABLE2: dict[str, Any] = {
    "key": "press2022",
    "short": "Press et al. 2022",  # in a legend entry; the citation goes in the notes
    "citation": ("Press, Smith & Lewis (2022). Train Short, Test Long: Attention with Linear Biases Enables "
                 "Input Length Extrapolation. ICLR 2022, Table 2."),
    "setting": msg("LabReferences", "WikiText-103 language model trained on 512-token inputs"),
    "metric": "perplexity",
    "train_length": 512,
    "lengths": [512, 1012, 3512, 15512],
    # None: not reported in the table.
    "values": {
        "sinusoidal": [20.05, 43.54, 178.97, 406.01],
        "rope": [20.07, 21.37, 35.54, 79.25],
        "t5": [19.65, 18.79, 22.91, None],
        "alibi": [19.73, 18.73, 18.40, 18.31],
    },
}

KAZEMNEJAD_2023_TREND: dict[str, Any] = {
    "key": "kazemnejad2023",
    "short": "Kazemnejad et al. 2023",
    "citation": ("Kazemnejad, Padhi, Natesan Ramamurthy, Das & Reddy (2023). The Impact of Positional Encoding "
                 "on Length Generalization in Transformers. NeurIPS 2023."),
    "setting": msg("LabReferences", "decoder-only models on synthetic reasoning and copy-like tasks, evaluated past the "
                        "training length"),
    "metric": "exact_match",
    # A qualitative trend, best first; encodings in one group performed about the same.
    "ranking": [["nope", "t5"], ["alibi"], ["rope", "learned"]],
    "finding": msg("LabReferences", "NoPE and T5's relative bias generalise to longer inputs best, about equally; ALiBi "
                        "follows; RoPE and absolute (learned) positions do about as poorly as each other."),
}

REFERENCES = (PRESS_2022_TABLE2, KAZEMNEJAD_2023_TREND)


def for_metric(metric: str) -> list[dict[str, Any]]:
    """The references whose metric matches the measured one (perplexity for lm, exact match otherwise)."""
    return [r for r in REFERENCES if r["metric"] == metric]
