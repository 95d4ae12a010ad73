"""The Training lab's settings: the grid to train (task, encodings, lengths, model size, budget)
and the results folder it is saved in and drawn from."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from peapp.analysis import lab as lab_analysis
from peapp.lab import options, presets
from peapp.i18n import msg, translate
from peapp.params import param
from peapp.views.base import ViewSpec, register

TASK_LABELS = {"copy": msg("LabPanel", "Copy"), "reverse": msg("LabPanel", "Reverse"), "recall": msg("LabPanel", "Associative recall"),
               "lm": msg("LabPanel", "Character LM (bundled text)"), "sort": msg("LabPanel", "Sort"),
               "addition": msg("LabPanel", "Addition")}


@register
@dataclass(frozen=True)
class LabView(ViewSpec):
    view_id: ClassVar[str] = "lab"
    title: ClassVar[str] = msg("Panels", "Training lab")

    task: str = param("copy", msg("LabPanel", "task"), choices=TASK_LABELS,
                      help=msg("LabPanel", "Copy, reverse and recall are scored by exact match per sequence; the character "
                           "language model by perplexity on the bundled text"))
    # the list of names is spelled out: a marked text cannot be built (options.ALL_VARIANTS, kept equal by a test)
    encodings: str = param("all", msg("LabPanel", "encodings"),
                           help=msg("LabPanel", "'all', or a comma list of nope, sinusoidal, learned, t5, rope, alibi, rope-pi, "
                                         "rope-ntk, rope-yarn, nope-temp, nope-logn (rope-pi / rope-ntk / rope-yarn rescale "
                                         "the trained RoPE model at evaluation, without retraining; nope-temp: NoPE with "
                                         "Llama 4's attention temperature, nope-logn: with log-n scaling; any trained "
                                         "one with +rand: randomised positions, Ruoss et al. 2023)"))
    train_length: int = param(20, msg("LabPanel", "training length"), minimum=2, maximum=512, step=1,
                              help=msg("LabPanel", "Training sequences are drawn with lengths up to this"))
    eval_lengths: str = param("10,20,25,30,40", msg("LabPanel", "evaluation lengths"),
                              help=msg("LabPanel", "Comma list of lengths to evaluate at (past the training length is "
                                   "extrapolation)"))
    seeds: int = param(3, msg("LabPanel", "seeds"), minimum=1, maximum=10, step=1, help=msg("LabPanel", "Runs per encoding (the band spans them)"))
    n_layers: int = param(2, msg("LabPanel", "layers"), minimum=1, maximum=8, step=1, help=msg("LabPanel", "Transformer layers"))
    d_model: int = param(64, "d_model", minimum=8, maximum=512, step=8, help=msg("LabPanel", "Model width"))
    n_heads: int = param(4, msg("LabPanel", "heads"), minimum=1, maximum=16, step=1, help=msg("LabPanel", "Attention heads (d_model / heads even)"))
    steps: int = param(2500, msg("LabPanel", "steps"), minimum=1, maximum=200_000, step=100,
                       help=msg("LabPanel", "Training steps per run (NoPE gets 2× this: it learns more "
                                     "slowly)"))
    results: str = param("", msg("LabPanel", "results folder"),
                         help=msg("LabPanel", "Where runs are saved and read from (empty: the user data folder, "
                              "…/peapp/lab); a folder from `peapp lab -o` opens here too"))

    cluster: str = param("", msg("LabPanel", "cluster"),
                         help=msg("LabPanel", "Where the grid runs: empty for local processes, 'local' for a Ray started "
                                  "on this machine, or a Ray cluster's address (ray://head:10001); needs the cluster "
                                  "extra (pip install -e \".[cluster]\"). Results come back into the results folder"))

    # a published comparison instead of the grid above: its own tasks, encodings, lengths and budget
    preset: str = param("ranking", msg("LabPanel", "preset"),
                        choices={name: p.label for name, p in presets.PRESETS.items()},
                        help=msg("LabPanel", "Run preset trains a published comparison with its own tasks, encodings "
                                             "and lengths into the results folder (a subfolder per task), then ranks "
                                             "the encodings beside the paper's ranking"))
    randomized: bool = param(False, msg("LabPanel", "+ randomised positions"),
                             help=msg("LabPanel", "Run preset also trains every encoding with randomised positions "
                                                  "(Ruoss et al. 2023)"))

    def check(self) -> None:
        options.parse_encodings(self.encodings)
        options.parse_lengths(self.eval_lengths)
        if self.d_model % self.n_heads or (self.d_model // self.n_heads) % 2:
            from peapp.errors import ParameterError

            raise ParameterError(translate("LabPanel", "d_model {d_model} / {heads} heads must be a whole, even head width; "
                                                "change d_model or the head count.").format(d_model=self.d_model,
                                                                                            heads=self.n_heads))

    def folder(self) -> str:
        return self.results or options.default_results_folder()

    def request(self) -> lab_analysis.LabResultsRequest:
        return lab_analysis.LabResultsRequest(folder=self.folder())

    def grid_settings(self) -> lab_analysis.GridSettings:
        trained, scalings = options.parse_encodings(self.encodings)
        return lab_analysis.GridSettings(task=self.task, encodings=trained, rope_scalings=scalings,
                                         train_length=self.train_length,
                                         eval_lengths=options.parse_lengths(self.eval_lengths), seeds=self.seeds,
                                         n_layers=self.n_layers, d_model=self.d_model, n_heads=self.n_heads,
                                         steps=self.steps, cluster=self.cluster.strip())
