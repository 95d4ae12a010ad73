"""``peapp probe perplexity|passkey PATH …``: measure context extension and "lost in the middle"
on a checkpoint (issue 15; :mod:`peapp.model_run.probes`, :mod:`peapp.model_run.passkey`).

    peapp probe perplexity MODEL --length 12288 --variants none,yarn --factor 2 --json
    peapp probe passkey MODEL --lengths 1024,2048 --depths 0,0.5,1

Probes of ``ESTIMATE_FROM`` tokens or more time a short prefix first and print the estimated time
(stderr) before they start; each finished variant or passkey cell is reported on stderr as it
arrives.  ``-o FIGURE`` draws the probe's figure through the desktop app's ``render`` command
(the session names the checkpoint, the text, the settings and the saved result, so the figure
reopens without running again): the Probes panel's tab of that probe, as its Export draws it,
in ``--lang``'s language; it needs the Probes panel there.  torch and transformers are
imported only when a probe runs (``peapp --help`` and ``peapp inspect`` stay torch-free).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from peapp.commands import run_with_progress
from peapp.commands.figure import add_figure_arguments, app_renderer, render_session
from peapp.commands.run import add_placement_arguments
from peapp.errors import ParameterError
from peapp.jobs import HOOKS
from peapp.model_run.probe_run import VARIANTS

NAME = "probe"
HELP = ("measure a checkpoint: perplexity vs position under each RoPE scaling, passkey retrieval by "
        "needle depth (lost in the middle), or a sliding KV window with and without attention sinks")
VARIANT_NAMES = tuple(VARIANTS)  # probe_run's table: torch-free, so the parser does not import torch
ESTIMATE_FROM = 4096  # peapp.model_run.probes.ESTIMATE_FROM
MAX_TRIALS = 100  # the Probes panel's limit


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", help="model folder or .gguf file (a causal language model)")
    p.add_argument("--factor", type=float, default=2.0, help="the scaling factor of every RoPE scaling variant")
    add_placement_arguments(p)
    p.add_argument("--cache-dir", default=None,
                   help="where converted GGUF models are cached (default: the user cache folder, or $PEAPP_CACHE_DIR)")
    p.add_argument("--json", action="store_true", help="print every measured number as JSON (stdout)")
    add_figure_arguments(p, "the probe's figure (the Probes panel's tab)")
    p.add_argument("--quiet", action="store_true", help="no estimate or progress lines on stderr")
    p.add_argument("--ray", default=None, metavar="ADDRESS",
                   help="run the sweep on Ray, one task per variant (perplexity) or per length × depth (passkey): "
                        "'local' starts a Ray here, an address (ray://head:10001) joins your cluster, whose "
                        "workers open PATH themselves (needs the cluster extra: pip install -e \".[cluster]\")")
    p.add_argument("--ray-gpus", type=float, default=0.0, metavar="N",
                   help="with --ray: GPUs Ray reserves for each task (the model then runs on the task's GPU)")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="probe", metavar="PROBE", parser_class=type(parser))
    sub.required = True
    fmt = parser.formatter_class
    ppl = sub.add_parser("perplexity", formatter_class=fmt,
                         help="per-position loss and windowed perplexity for the model as trained and each "
                              "RoPE scaling (linear, ntk, dynamic, yarn, llama3)",
                         description="Per-position next-token loss of a causal LM on a long text, with the "
                                     "rotary frequencies of each RoPE scaling swapped in (RopeSpec's numbers).")
    _common(ppl)
    source = ppl.add_mutually_exclusive_group()
    source.add_argument("--text-file", metavar="FILE", help="a UTF-8 text file to measure on")
    source.add_argument("--sample-text", action="store_true",
                        help="the bundled public-domain sample text (default when no --text-file)")
    ppl.add_argument("--length", type=int, default=4096, help="tokens of the text to measure (its start)")
    ppl.add_argument("--variants", default=",".join(VARIANT_NAMES),
                     help="comma-separated: " + ", ".join(VARIANT_NAMES) + " (none = as trained)")
    ppl.add_argument("--window", type=int, default=256, help="positions per point of the perplexity curve")
    pk = sub.add_parser("passkey", formatter_class=fmt,
                        help="passkey retrieval with the needle at each depth of a filler context",
                        description="A pass key hidden at each depth of a public-domain filler text and asked "
                                    "for at the end: log-probability and top-1 accuracy of its tokens, and the "
                                    "attention the answer rows give the needle per layer; beside Liu et al. 2023.")
    _common(pk)
    pk.add_argument("--lengths", default="1024,2048", help="comma-separated context lengths in tokens")
    pk.add_argument("--depths", default="0,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1",
                    help="comma-separated needle depths, 0 (first) … 1 (last)")
    pk.add_argument("--trials", type=int, default=1, help="pass keys per (length, depth)")
    pk.add_argument("--seed", type=int, default=0, help="seed of the pass keys")
    pk.add_argument("--variant", default="none", choices=VARIANT_NAMES,
                    help="the RoPE frequencies to run with (none = as trained)")
    st = sub.add_parser("streaming", formatter_class=fmt,
                        help="attention sinks: perplexity per window of positions with full context, a sliding KV "
                             "window of W tokens, and the window plus the first K tokens (Xiao et al. 2024)",
                        description="StreamingLLM's experiment on a RoPE causal LM: per-position loss with every "
                                    "query seeing only its own KV cache (one forward pass, a mask per row), positions "
                                    "as StreamingLLM assigns them inside the cache (sinks 0..K-1, window K..K+W-1).")
    _common(st)
    st_source = st.add_mutually_exclusive_group()
    st_source.add_argument("--text-file", metavar="FILE", help="a UTF-8 text file to measure on")
    st_source.add_argument("--sample-text", action="store_true",
                           help="the bundled public-domain sample text (default when no --text-file)")
    st.add_argument("--length", type=int, default=2048, help="tokens of the text to measure (its start)")
    st.add_argument("--window", type=int, default=256, help="W: tokens the sliding KV window keeps")
    st.add_argument("--sinks", type=int, default=4, help="K: first tokens kept beside the window")
    st.add_argument("--bin", type=int, default=128, help="positions per point of the perplexity curves")


def _say(args, text: str) -> None:
    if not args.quiet:
        print(text, file=sys.stderr, flush=True)


def _text(args) -> tuple[str, str]:
    from peapp.model_run.text_run import resolve_text

    if args.text_file:
        return resolve_text("file", text_file=args.text_file)
    return resolve_text("sample")


def run(args: argparse.Namespace) -> int:
    from peapp.model_run.probe_run import parse_numbers, parse_variants

    if args.json and args.output:
        raise ParameterError("--json prints numbers and -o draws a figure: give one of them.")
    if args.ray and args.probe == "streaming":
        raise ParameterError("--ray runs the perplexity and passkey sweeps; the streaming probe is one forward pass "
                             "here: drop --ray.")
    if args.ray_gpus and not args.ray:
        raise ParameterError("--ray-gpus goes with --ray (the GPUs Ray reserves for each task).")
    if args.probe == "streaming":
        if not 2 <= args.length <= 32_768:
            raise ParameterError(f"--length must be between 2 and 32,768 tokens (got {args.length:,}).")
        if not 1 <= args.window <= 32_768 or not 0 <= args.sinks <= 64 or not 1 <= args.bin <= 32_768:
            raise ParameterError("--window must be 1 … 32,768, --sinks 0 … 64 and --bin 1 … 32,768.")
    elif args.probe == "perplexity":
        from peapp.model_run.probe_run import MAX_PROBE_TOKENS

        if not 2 <= args.length <= MAX_PROBE_TOKENS:
            raise ParameterError(f"--length must be between 2 and {MAX_PROBE_TOKENS:,} tokens (got {args.length:,}).")
        if not 1 <= args.window <= MAX_PROBE_TOKENS:
            raise ParameterError(f"--window must be between 1 and {MAX_PROBE_TOKENS:,} positions.")
        parse_variants(args.variants)
    else:  # the Probes panel's limits (peapp.views.probe.ProbeView), before a prompt is built
        from peapp.model_run.probe_run import MAX_PROBE_TOKENS

        lengths = parse_numbers(args.lengths, "--lengths", int)
        if min(lengths) < 2 or max(lengths) > MAX_PROBE_TOKENS:
            raise ParameterError(f"--lengths must each be between 2 and {MAX_PROBE_TOKENS:,} tokens.")
        parse_numbers(args.depths, "--depths")  # each within 0 … 1: checked by the probe before it runs
        if not 1 <= args.trials <= MAX_TRIALS:
            raise ParameterError(f"--trials must be between 1 and {MAX_TRIALS}.")
    renderer = _renderer(args) if args.output else None  # before minutes of work, not after
    from peapp.model_run import load_model

    loaded = load_model(args.path, device=args.device, cache_dir=args.cache_dir, dtype=args.dtype,
                        max_memory=args.max_memory)
    for note in (*loaded.choices, *loaded.notes):
        _say(args, f"peapp probe: {note}")
    if args.probe == "perplexity":
        result, extra = _perplexity(args, loaded)
    elif args.probe == "streaming":
        result, extra = _streaming(args, loaded)
    else:
        result, extra = _passkey(args, loaded)
    doc = result.to_json()
    doc.update({"path": loaded.path, "load_source": loaded.source, "load_seconds": round(loaded.load_seconds, 3),
                "dtype": loaded.dtype, "device": loaded.device, "placement": loaded.placement or None, **extra})
    if renderer is not None:
        return _render(args, renderer, doc)
    if args.json:
        json.dump(doc, sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
    elif args.probe == "perplexity":
        sys.stdout.write(format_perplexity(result))
    elif args.probe == "streaming":
        sys.stdout.write(format_streaming(result))
    else:
        sys.stdout.write(format_passkey(result))
    return 0


def _text_of_length(args, loaded) -> tuple[str, str, list[int]]:
    """The probe's text, its label and exactly --length of its token ids (too short: refused)."""
    from peapp.model_run.probes import tokenize_all

    text, label = _text(args)
    ids = tokenize_all(loaded, text, args.length)
    if len(ids) < args.length:
        raise ParameterError(f"the text has {len(ids):,} tokens, fewer than --length {args.length:,}: give a longer "
                             f"text or a shorter length.")
    return text, label, ids[:args.length]


def _perplexity(args, loaded):
    from peapp.model_run.probes import estimate_seconds, perplexity_probe, position_limit
    from peapp.model_run.text_run import text_sha256
    from peapp.model_run.probe_run import parse_variants

    text, label, ids = _text_of_length(args, loaded)
    variants = parse_variants(args.variants)
    limit = position_limit(loaded)
    measured = min(len(ids), limit) if limit else len(ids)
    runs = len(variants) if loaded.scheme == "rope" else 1
    estimate = None
    if measured >= ESTIMATE_FROM:
        estimate = estimate_seconds(loaded, ids, measured, runs)
        _say(args, f"estimated: {estimate.text()}")
    started = time.perf_counter()

    def arrived(result) -> None:
        c = result.curves[-1]
        if not c.complete:
            _say(args, f"{c.label}, first {c.nll.size + 1:,} positions (the estimate's prefix): perplexity "
                       f"{c.perplexity:.2f}")
            return
        _say(args, f"{c.label}: perplexity {c.perplexity:.2f} over {result.n_measured:,} tokens "
                   f"({c.seconds:.0f} s; {time.perf_counter() - started:.0f} s so far)")

    def job():  # the executor's job protocol; the probe reports per layer, from code that cannot yield
        hooks = yield HOOKS
        return perplexity_probe(loaded, ids, variants=variants, factor=args.factor, window=args.window,
                                progress=hooks.progress, cancelled=hooks.cancelled, partial=hooks.partial,
                                estimate=estimate)

    if args.ray:
        from peapp.model_run.probe_cluster import perplexity_on_ray

        work = perplexity_on_ray(args.ray, args.path, _task_load(args, loaded), ids, variants, args.factor,
                                 args.window, gpus=args.ray_gpus)
    else:
        work = job()
    result = run_with_progress(work, "probe", quiet=args.quiet, on_partial=arrived)
    return result, {"text": {"source": label, "sha256": text_sha256(text), "file": args.text_file}}


def _streaming(args, loaded):
    from peapp.model_run.streaming import streaming_probe
    from peapp.model_run.text_run import text_sha256

    text, label, ids = _text_of_length(args, loaded)

    def arrived(result) -> None:
        c = result.curves[-1]
        _say(args, f"{c.label}: perplexity {c.perplexity:.2f} over {result.n_tokens:,} tokens ({c.seconds:.0f} s)")

    result = streaming_probe(loaded, ids, window=args.window, sinks=args.sinks, bin=args.bin, partial=arrived)
    return result, {"text": {"source": label, "sha256": text_sha256(text), "file": args.text_file}}


def format_streaming(result) -> str:
    from peapp.model_run.streaming import REFERENCE

    lines = [f"model: {result.family} ({result.architecture}); {result.n_tokens:,} tokens, KV window "
             f"{result.window:,}, sinks {result.sinks}; {result.seconds:.0f} s on {result.device}",
             "positions: StreamingLLM's, by place in the cache (sinks 0..K-1, window K..K+W-1)", "",
             f"{'curve':<16s} {'ppl':>9s} {'after eviction':>15s}"]
    for c in result.curves:
        lines.append(f"{c.label:<16s} {c.perplexity:9.2f} {c.perplexity_between(result.window + 1, result.n_tokens):15.2f}")
    lines += ["", f"perplexity per window of {result.bin} positions (first position of each window):"]
    starts = result.curves[0].windowed(result.bin)[0]
    step = max(1, -(-len(starts) // 12))
    picks = list(range(0, len(starts), step))
    lines.append(f"{'position':<16s} " + " ".join(f"{int(starts[i]):>8d}" for i in picks))
    for c in result.curves:
        ppl = c.windowed(result.bin)[2]
        lines.append(f"{c.label:<16s} " + " ".join(f"{ppl[i]:8.1f}" for i in picks))
    ref = REFERENCE
    lines += ["", result.verdict(), "reference, " + ref["citation"] + ": perplexity " + ", ".join(
        f"{k} {v}" for k, v in ref["perplexity"].items()) + f" (cache {ref['cache']}; {ref['text']})"]
    return "\n".join(lines) + "\n"


def _passkey(args, loaded):
    from peapp.model_run.passkey import FILLER_LABEL, PromptBuilder, estimate_passkey_seconds, passkey_probe
    from peapp.model_run.probe_run import parse_numbers

    lengths = parse_numbers(args.lengths, "--lengths", int)
    depths = parse_numbers(args.depths, "--depths")
    estimate = None
    if max(lengths) >= ESTIMATE_FROM:
        runs = len(set(depths)) * args.trials
        estimate = estimate_passkey_seconds(loaded, PromptBuilder(loaded.tokenizer), sorted(set(lengths)), runs)
        _say(args, f"estimated: {estimate.text()}")

    def arrived(result) -> None:
        c = result.cells[-1]
        _say(args, f"{c.n_tokens:,} tokens, depth {c.depth:.0%}: log p(answer) {c.logprob:.2f}, top-1 "
                   f"{c.token_accuracy:.0%} ({c.seconds:.0f} s)")

    def job():  # as for perplexity
        hooks = yield HOOKS
        return passkey_probe(loaded, lengths=lengths, depths=depths, trials=args.trials, seed=args.seed,
                             variant=args.variant, factor=args.factor, progress=hooks.progress,
                             cancelled=hooks.cancelled, partial=hooks.partial, estimate=estimate)

    if args.ray:
        from peapp.model_run.probe_cluster import passkey_on_ray

        work = passkey_on_ray(args.ray, args.path, _task_load(args, loaded), lengths, depths, args.trials,
                              args.seed, args.variant, args.factor, gpus=args.ray_gpus)
    else:
        work = job()
    result = run_with_progress(work, "probe", quiet=args.quiet, on_partial=arrived)
    return result, {"filler": FILLER_LABEL}


def _task_load(args, loaded) -> dict:
    """How each Ray task opens the checkpoint: the dtype resolved here (every task the same), on
    the CPU unless Ray gives it a GPU (--ray-gpus)."""
    return {"dtype": loaded.dtype, "device": "cpu", "cache_dir": args.cache_dir}


def format_perplexity(result) -> str:
    trained = result.trained_context
    lines = [f"model: {result.family} ({result.architecture}, {result.scheme.replace('_', ' ')} positions); "
             f"{result.n_measured:,} tokens measured in {result.seconds:.0f} s on {result.device} "
             f"({result.threads} thread{'s' if result.threads != 1 else ''}); trained context "
             + (f"{trained:,}" if trained else "unknown")]
    if result.cannot:
        lines.append(result.cannot)
    for variant, why in result.not_applied.items():
        lines.append(f"{variant}: not run ({why})")
    past = bool(trained and result.n_measured > trained)
    lines += ["", f"{'variant':<14s} {'factor':>6s} {'ppl':>9s}" + (f" {'≤ trained':>10s} {'> trained':>10s}" if past else "")]
    for c in result.curves:
        row = f"{c.label:<14s} {c.factor:6g} {c.perplexity:9.2f}"
        if past:
            row += f" {c.perplexity_between(1, trained):10.2f} {c.perplexity_between(trained, result.n_measured):10.2f}"
        lines.append(row)
    lines += ["", f"perplexity per window of {result.window} positions (first position of each window):"]
    if result.curves:
        starts, _, _ = result.curves[0].windowed(result.window)
        step = max(1, -(-len(starts) // 12))
        picks = list(range(0, len(starts), step))
        lines.append(f"{'position':<14s} " + " ".join(f"{int(starts[i]):>7d}" for i in picks))
        for c in result.curves:
            ppl = c.windowed(result.window)[2]
            lines.append(f"{c.label:<14s} " + " ".join(f"{ppl[i]:7.1f}" for i in picks))
    return "\n".join(lines) + "\n"


def format_passkey(result) -> str:
    from peapp.model_run.references import LOST_IN_THE_MIDDLE
    from peapp.model_run.probes import VARIANT_LABELS

    lines = [f"model: {result.family} ({result.architecture}); RoPE {VARIANT_LABELS[result.variant]}"
             + (f" ×{result.factor:g}" if result.variant != "none" else "")
             + f"; {len(result.cells)} prompts in {result.seconds:.0f} s on {result.device}", ""]
    head = f"{'depth':>8s} " + " ".join(f"{d:>7.0%}" for d in result.depths)
    for name, label, fmt in (("logprob", "log p(answer), nats", "{:7.2f}"), ("token_accuracy", "top-1 accuracy", "{:7.0%}"),
                             ("needle_attention", "attention on the needle (mean of layers, heads)", "{:7.3f}")):
        lines += [label + ":", head]
        table = result.table(name)
        for i, n in enumerate(result.lengths):
            lines.append(f"{n:>8,d} " + " ".join(fmt.format(v) for v in table[i]))
        lines.append("")
    ref = LOST_IN_THE_MIDDLE
    lines.append("reference, " + ref["citation"])
    lines.append("  accuracy by answer position " + ", ".join(f"{p}: {a} %" for p, a in zip(ref["answer_position"],
                                                                                          ref["accuracy_percent"]))
                 + f"; closed-book {ref['closed_book_percent']} %")
    return "\n".join(lines) + "\n"


# ---- figures through the desktop app's renderer ----------------------------------------------------

def _renderer(args):
    """The desktop app's ``render`` command, if it can draw this probe's figure."""
    return app_renderer(_view_of(args), "Probes panel")


def _view_of(args) -> str:
    """The figure a probe draws: the Probes panel's tab of that probe (what its Export writes)."""
    return f"probe-{args.probe}"


def probe_document(args, results_file: str, doc: dict):
    """The session that describes this probe (checkpoint, text, settings, the saved result)."""
    from peapp.document import Document

    saved = {"perplexity": "results_file", "passkey": "passkey_results_file",
             "streaming": "streaming_results_file"}[args.probe]
    # the precision it was measured in (auto resolved): Run in the reopened panel measures the same
    values = {"mode": f"probe-{args.probe}", "factor": args.factor, "dtype": doc.get("dtype", args.dtype),
              saved: os.path.abspath(results_file)}
    if args.probe in ("perplexity", "streaming"):
        if args.probe == "perplexity":
            values.update(length=args.length, variants=args.variants, window=args.window)
        else:  # the Probes panel's attention-sinks settings (its Length, Window W, Sinks K, Positions per point)
            values.update(stream_length=args.length, kv_window=args.window, sinks=args.sinks, stream_bin=args.bin)
        values["text_sha256"] = doc["text"]["sha256"]
        if args.text_file:
            values.update(text_source="file", text_file=os.path.abspath(args.text_file))
        else:
            values.update(text_source="sample")
    else:
        values.update(lengths=args.lengths, depths=args.depths, trials=args.trials, seed=args.seed,
                      variant=args.variant)
    return Document().with_checkpoint(os.path.abspath(args.path)).with_view("probe", **values)


def _render(args, renderer, doc: dict) -> int:
    root, _ = os.path.splitext(args.output)
    results_file = root + ".probe.json"  # the data the figure is drawn from, kept beside it
    with open(results_file, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, allow_nan=False)
    return render_session(renderer, _view_of(args), probe_document(args, results_file, doc), args)
