"""The lab's choices and defaults, without torch: the command line builds its --help from these
(``peapp inspect`` and every other subcommand build the same parser, and must not load torch)."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from peapp import schemes
from peapp.i18n import msg, translate
from peapp.errors import ParameterError

TASKS = ("copy", "reverse", "recall", "lm", "sort", "addition")
MODES = ("pool", "process", "inline")
ENCODINGS = ("nope", "sinusoidal", "learned", "t5", "rope", "alibi")  # "all"
# NoPE with a temperature on its logits, asked for by name (not in "all"): Llama 4's
# attn_temperature_tuning (peapp.encodings.nope.temperature_scale) and Scalable-Softmax's s·log n
EXTRA_ENCODINGS = ("nope-temp", "nope-logn")
# Ruoss et al. 2023's randomised positions for any encoding: "<encoding>+rand"
RANDOMIZED = "+rand"
# RoPE frequencies changed at evaluation time (the trained RoPE model, no retraining):
# name → RopeSpec.rope_type.
ROPE_SCALINGS = {"pi": "linear", "ntk": "ntk", "yarn": "yarn"}
CONFIRM_SECONDS = 3600.0  # a grid estimated longer than this asks first (the CLI and the panel)
LABELS = {**{encoding: schemes.get(encoding).name for encoding in ENCODINGS},
          "rope-pi": "RoPE + PI", "rope-ntk": "RoPE + NTK",
          "rope-yarn": "RoPE + YaRN", "nope-temp": msg("LabOptions", "NoPE + Llama 4 temperature"),
          "nope-logn": msg("LabOptions", "NoPE + log-n scaling")}
LABELS.update({  # the randomised-positions variants, spelled out (a marked text cannot be built)
    "nope+rand": msg("LabOptions", "NoPE, randomised positions"),
    "sinusoidal+rand": msg("LabOptions", "Sinusoidal, randomised positions"),
    "learned+rand": msg("LabOptions", "Learned absolute, randomised positions"),
    "t5+rand": msg("LabOptions", "T5 relative bias, randomised positions"),
    "rope+rand": msg("LabOptions", "RoPE, randomised positions"),
    "alibi+rand": msg("LabOptions", "ALiBi, randomised positions"),
    "nope-temp+rand": msg("LabOptions", "NoPE + Llama 4 temperature, randomised positions"),
    "nope-logn+rand": msg("LabOptions", "NoPE + log-n scaling, randomised positions")})
ALL_VARIANTS = ENCODINGS + tuple(f"rope-{s}" for s in ROPE_SCALINGS) + EXTRA_ENCODINGS
TRAINED = ENCODINGS + EXTRA_ENCODINGS + tuple(e + RANDOMIZED for e in ENCODINGS + EXTRA_ENCODINGS)


def base_encoding(name: str) -> str:
    """The position scheme of a trained encoding name: "rope+rand" → "rope"."""
    return name[:-len(RANDOMIZED)] if name.endswith(RANDOMIZED) else name


MAX_EVAL_LENGTH = 4096


def parse_encodings(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """``all`` or a comma list of encodings and rope-pi / rope-ntk / rope-yarn →
    (encodings to train, RoPE scalings to evaluate).  A scaling implies training RoPE."""
    names = [n.strip().lower() for n in text.split(",") if n.strip()]
    if not names:
        raise ParameterError(translate("LabOptions", "no encodings given; use 'all' or a comma list such as "
                                            "rope,alibi,rope-yarn."))
    if names == ["all"]:
        return ENCODINGS, tuple(ROPE_SCALINGS)
    bad = [n for n in names if n not in ALL_VARIANTS and n not in TRAINED]
    if bad:
        raise ParameterError(translate("LabOptions", "unknown encoding {bad}; choose from all, {allowed} (any of "
                                                     "them with +rand: randomised positions).").format(
            bad=", ".join(bad), allowed=", ".join(ALL_VARIANTS)))
    scalings = tuple(s for s in ROPE_SCALINGS if f"rope-{s}" in names)
    trained = tuple(e for e in TRAINED if e in names or (e == "rope" and scalings))
    return trained, scalings


def parse_lengths(text: str) -> tuple[int, ...]:
    """Evaluation lengths as a comma list (``10,20,25``) → sorted unique whole numbers ≥ 1."""
    out = set()
    for part in (p.strip().replace("_", "") for p in text.split(",")):
        if not part:
            continue
        if not part.isdigit() or len(part) > 7:
            raise ParameterError(translate("LabOptions", "evaluation length {value} is not a whole number; give a comma list "
                                                "such as 10,20,30,40.").format(value=repr(part)))
        value = int(part)
        if not 1 <= value <= MAX_EVAL_LENGTH:
            raise ParameterError(translate("LabOptions", "evaluation length {value} is outside 1…{limit}.").format(
                value=value, limit=MAX_EVAL_LENGTH))
        out.add(value)
    if not out:
        raise ParameterError(translate("LabOptions", "give at least one evaluation length, e.g. 10,20,30,40."))
    return tuple(sorted(out))

# NoPE learns copy more slowly than the schemes that hand it positions: it gets this many
# times the step budget unless told otherwise (said in the results: its runs record their steps).
NOPE_STEP_FACTOR = 2


@dataclass(frozen=True)
class TrainSettings:
    steps: int = 2500
    batch_size: int = 32
    learning_rate: float = 5e-3
    warmup_steps: int = 100
    weight_decay: float = 0.01
    grad_clip: float = 1.0
    log_every: int = 10  # loss-curve points: the mean loss over this many steps
    eval_samples: int = 256  # sequences (or windows) per evaluation length

    def __post_init__(self) -> None:
        for name, most in (("steps", 10_000_000), ("batch_size", 65_536), ("log_every", 10_000_000),
                           ("eval_samples", 1_000_000)):
            if not 1 <= getattr(self, name) <= most:
                raise ParameterError(f"{name.replace('_', ' ')} must be between 1 and {most:,} "
                                     f"(got {getattr(self, name):,}).")
        if not 0 < self.learning_rate < 1:
            raise ParameterError(f"learning rate must be between 0 and 1 (got {self.learning_rate:g}).")


def default_results_folder() -> str:
    """Where the Training lab panel saves runs unless told otherwise: the user data folder
    (XDG_DATA_HOME on Linux, Application Support on macOS, LOCALAPPDATA on Windows)/peapp/lab;
    PEAPP_LAB_DIR overrides."""
    if os.environ.get("PEAPP_LAB_DIR"):
        return os.environ["PEAPP_LAB_DIR"]
    if sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Application Support")
    elif os.name == "nt":
        base = os.environ.get("LOCALAPPDATA") or os.path.expanduser("~\\AppData\\Local")
    else:
        base = os.environ.get("XDG_DATA_HOME") or os.path.expanduser("~/.local/share")
    return os.path.join(base, "peapp", "lab")


def duration_text(seconds: float) -> str:
    """A time as people say it: 40 s, 12 min, 1.5 h (the lab's estimates and progress)."""
    if seconds < 90:
        return translate("LabOptions", "{n} s").format(n=f"{seconds:.0f}")
    if seconds < 5400:
        return translate("LabOptions", "{n} min").format(n=f"{seconds / 60:.0f}")
    return translate("LabOptions", "{n} h").format(n=f"{seconds / 3600:.1f}")
