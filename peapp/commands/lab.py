"""``peapp lab``: train small transformers that differ only in position encoding, evaluate them
past their training length, and save models + metrics into a results folder.

Progress goes to stderr; the table (or, with ``--json``, the summary as JSON) to stdout.  A
grid estimated to take more than an hour asks first (or needs ``--yes``).  Re-running into the
same folder skips the runs already finished there.  The figure (``peapp render lab``) comes
with the Training lab panel.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from peapp.lab.options import duration_text as _duration

NAME = "lab"
HELP = "train small transformers, one per position encoding, and measure them past their training length"


def _lengths(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise argparse.ArgumentTypeError(f"evaluation lengths must be whole numbers separated by commas, "
                                         f"such as 10,20,30; got {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError("give at least one evaluation length, each at least 1")
    return values


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from peapp.lab.options import MODES, NOPE_STEP_FACTOR, TASKS
    from peapp.lab.options import TrainSettings as T

    parser.add_argument("--task", choices=TASKS, default="copy",
                        help="copy / reverse / sort a sequence of symbols, add two numbers (addition), associative "
                             "recall (key–value lookup), or character-level language modelling (lm) on a text")
    parser.add_argument("--text", default=None,
                        help="lm: UTF-8 text file (default: the bundled text under resources/, if any)")
    parser.add_argument("--encodings", default="all",
                        help="'all' or a comma list of nope, sinusoidal, learned, t5, rope, alibi, rope-pi, "
                             "rope-ntk, rope-yarn, nope-temp, nope-logn (the rope-* scalings re-evaluate the trained "
                             "RoPE model; nope-temp: NoPE with Llama 4's temperature, nope-logn: with log-n scaling); "
                             "any trained encoding with +rand (rope+rand): randomised positions (Ruoss et al. 2023)")
    parser.add_argument("--train-length", type=int, default=20,
                        help="longest training length (symbols, key–value pairs or characters); training "
                             "samples lengths 1 … this")
    parser.add_argument("--eval-lengths", type=_lengths, default=(10, 20, 25, 30, 40),
                        help="comma list of evaluation lengths (default: 10,20,25,30,40)")
    parser.add_argument("--seeds", type=int, default=3, help="seeds per encoding (0 … N−1)")
    parser.add_argument("--steps", type=int, default=None, help=f"training steps per run (default: {T.steps})")
    parser.add_argument("--nope-steps", type=int, default=None,
                        help=f"training steps for NoPE, which learns more slowly (default: {NOPE_STEP_FACTOR} × --steps)")
    parser.add_argument("--batch-size", type=int, default=None, help=f"sequences per step (default: {T.batch_size})")
    parser.add_argument("--lr", type=float, default=None, help=f"peak learning rate (default: {T.learning_rate:g})")
    parser.add_argument("--eval-samples", type=int, default=None,
                        help=f"sequences per evaluation length (default: {T.eval_samples})")
    parser.add_argument("--layers", type=int, default=2, help="transformer layers")
    parser.add_argument("--d-model", type=int, default=64, help="model width")
    parser.add_argument("--heads", type=int, default=4, help="attention heads")
    parser.add_argument("--workers", type=int, default=2, help="runs in parallel (one single-thread process each)")
    parser.add_argument("--mode", choices=MODES, default="pool",
                        help="pool: persistent single-thread worker processes (fastest measured); process: a "
                             "fresh process per run; inline: this process, one run after another")
    parser.add_argument("--ray", default=None, metavar="ADDRESS",
                        help="run the grid on Ray: 'local' starts a Ray on this machine (--workers CPUs), an "
                             "address (ray://head:10001) joins your cluster; needs the cluster extra "
                             "(pip install -e \".[cluster]\"). Results come back into --output")
    parser.add_argument("-o", "--output", required=True, help="results folder (created; finished runs are kept)")
    parser.add_argument("--yes", action="store_true", help="start even if the grid is estimated to take over an hour")
    parser.add_argument("--json", action="store_true", help="print the summary table as JSON on stdout")
    parser.add_argument("--preset", choices=("ranking", "temperature"), default=None,
                        help="run a published comparison instead of one grid (its own tasks, encodings and lengths): "
                             "ranking (Kazemnejad et al. 2023: copy, reverse, addition, sort × absolute, T5, ALiBi, "
                             "RoPE, NoPE) or temperature (NoPE, NoPE + Llama 4 temperature, NoPE + log-n); results "
                             "in OUTPUT/<task>")
    parser.add_argument("--randomized", action="store_true",
                        help="with --preset: also train every encoding with randomised positions (Ruoss et al. 2023)")


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from peapp.errors import ParameterError
    from peapp.lab import grid as lab_grid
    from peapp.lab import results
    from peapp.lab.train import TrainSettings

    if args.preset:
        return _run_preset(args)
    if args.randomized:
        raise ParameterError("--randomized goes with --preset; for one grid name the encodings with +rand "
                             "(e.g. --encodings rope+rand,nope+rand).")
    encodings, scalings = lab_grid.parse_encodings(args.encodings)
    settings = TrainSettings()
    overrides = {k: v for k, v in (("steps", args.steps), ("batch_size", args.batch_size),
                                   ("learning_rate", args.lr), ("eval_samples", args.eval_samples)) if v is not None}
    settings = replace(settings, **overrides)
    if not 1 <= args.workers <= 256:
        raise ParameterError("--workers must be between 1 and 256 (one process each).")
    spec = lab_grid.GridSpec(task=args.task, encodings=encodings, rope_scalings=scalings,
                             train_length=args.train_length, eval_lengths=args.eval_lengths, seeds=args.seeds,
                             n_layers=args.layers, d_model=args.d_model, n_heads=args.heads, train=settings,
                             nope_steps=args.nope_steps, text=args.text)
    runs = spec.runs()
    estimate = lab_grid.estimate_seconds(spec, workers=args.workers if args.mode != "inline" else 1)
    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    say(f"peapp lab: {len(runs)} runs ({', '.join(encodings)} × {args.seeds} seeds), "
        f"estimated {_duration(estimate)} at the speed measured just now")
    if "nope" in encodings:
        say(f"peapp lab: NoPE trains for {spec.steps_for('nope')} steps (others {settings.steps}): it learns more slowly")
    if estimate > lab_grid.CONFIRM_SECONDS and not args.yes:
        if not sys.stdin.isatty():
            raise ParameterError(f"the grid is estimated to take {_duration(estimate)} (over an hour); "
                                 f"pass --yes to start it anyway, or use fewer seeds, steps or encodings.")
        answer = input(f"The grid is estimated to take {_duration(estimate)}. Start? [y/N] ")
        if answer.strip().lower() not in ("y", "yes"):
            say("peapp lab: not started")
            return 1

    progress = _Progress(runs, say)
    try:
        outcome = lab_grid.run_grid(spec, args.output, workers=args.workers, mode=args.mode, on_event=progress,
                                    ray=args.ray)
    except KeyboardInterrupt:
        done = len(results.finished_runs(args.output))
        say(f"peapp lab: interrupted; {done} finished run(s) are kept in {args.output} "
            f"(run the same command again to continue)")
        return 130
    for run_id, message in outcome.failed:
        say(f"peapp lab: run {run_id} failed: {message}")
    if outcome.write_error:
        say(f"peapp lab: {outcome.write_error}")
        say(f"peapp lab: stopped; {len(outcome.unsaved)} finished run(s) could not be saved: "
            f"{', '.join(r.spec.run_id for r in outcome.unsaved)}; their table is printed below")
    if args.json:
        json.dump(outcome.summary, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(results.format_table(outcome.summary))
    say(f"peapp lab: {len(outcome.finished)} trained, {len(outcome.skipped)} already finished, "
        f"{len(outcome.failed)} failed; results in {args.output} ({time.perf_counter() - progress.started:.0f} s)")
    return 1 if (outcome.failed or outcome.write_error) else 0


def _run_preset(args: argparse.Namespace) -> int:
    from peapp.errors import ParameterError
    from peapp.lab import presets

    if not 1 <= args.workers <= 256:
        raise ParameterError("--workers must be between 1 and 256 (one process each).")
    chosen = presets.preset(args.preset, randomized=args.randomized)

    def say(text: str) -> None:
        print(text, file=sys.stderr, flush=True)

    estimate = presets.estimate_seconds(chosen, workers=args.workers)
    runs = [r for g in chosen.grids() for r in g.runs()]
    say(f"peapp lab: preset {args.preset}: {len(runs)} runs ({', '.join(chosen.tasks)} × "
        f"{', '.join(chosen.encodings)}), estimated {_duration(estimate)} at the speed measured just now")
    if estimate > 3600 and not args.yes:
        raise ParameterError(f"the preset is estimated to take {_duration(estimate)} (over an hour); pass --yes.")
    progress = _Progress(runs, say)
    summaries = presets.run_preset(chosen, args.output, workers=args.workers, on_event=progress, ray=args.ray)
    ranking = presets.rank(summaries)
    elapsed = time.perf_counter() - progress.started
    if args.json:
        json.dump({"preset": args.preset, "estimate_seconds": round(estimate, 1), "wall_seconds": round(elapsed, 1),
                   "summaries": summaries, "ranking": ranking.to_json(),
                   "verdict": presets.preset_verdict(args.preset, summaries)}, sys.stdout, indent=1)
        sys.stdout.write("\n")
    else:
        from peapp.lab import results

        for task, summary in summaries.items():
            sys.stdout.write(f"\n== {task} ==\n" + results.format_table(summary))
        sys.stdout.write("\n" + presets.format_preset(args.preset, summaries))
    say(f"peapp lab: preset {args.preset} finished in {_duration(elapsed)} (estimated {_duration(estimate)}); "
        f"results in {args.output}")
    return 0


class _Progress:
    """One stderr line per finished run, and at most one every few seconds while training."""

    def __init__(self, runs, say, every: float = 5.0):
        self.say, self.every = say, every
        self.steps = {r.run_id: r.train.steps for r in runs}
        self.done_steps = dict.fromkeys(self.steps, 0)
        self.finished = 0
        self.started = time.perf_counter()
        self.last = 0.0

    def __call__(self, event) -> None:
        kind, run_id = event["type"], event["run_id"]
        if kind == "step":
            self.done_steps[run_id] = event["step"]
            now = time.perf_counter()
            if now - self.last >= self.every:
                self.last = now
                self.say(f"  {run_id}: step {event['step']}/{event['steps']}, loss {event['loss']:.3f}; "
                         f"{self._left()}")
        elif kind in ("done", "skipped"):
            if kind == "skipped":  # no time spent: keep it out of the rate the time left is computed from
                self.steps[run_id] = self.done_steps[run_id] = 0
            else:
                self.done_steps[run_id] = self.steps[run_id]
            self.finished += 1
            what = "already finished" if kind == "skipped" else "done"
            self.say(f"[{self.finished}/{len(self.steps)}] {run_id} {what}; {self._left()}")
        elif kind == "failed":
            self.say(f"  {run_id} failed: {event['message']}")

    def _left(self) -> str:
        done, total = sum(self.done_steps.values()), sum(self.steps.values())
        elapsed = time.perf_counter() - self.started
        if done == 0 or elapsed < 1:
            return "time left: estimating"
        return f"about {_duration(elapsed * (total - done) / done)} left"
