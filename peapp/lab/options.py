"""The lab's choices and defaults, without torch: the command line builds its --help from these
(``peapp inspect`` and every other subcommand build the same parser, and must not load torch)."""

from __future__ import annotations

from dataclasses import dataclass

from peapp.errors import ParameterError

TASKS = ("copy", "reverse", "recall", "lm")
MODES = ("pool", "process", "inline")
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
        for name in ("steps", "batch_size", "log_every", "eval_samples"):
            if getattr(self, name) < 1:
                raise ParameterError(f"{name.replace('_', ' ')} must be at least 1 (got {getattr(self, name)}).")
        if not 0 < self.learning_rate < 1:
            raise ParameterError(f"learning rate must be between 0 and 1 (got {self.learning_rate:g}).")
