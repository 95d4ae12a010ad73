"""``peapp cost``: peak memory and time of a full forward pass and of one generated token with a KV
cache, per position scheme, at several lengths, on a decoder of the lab's shape and a larger one
(:mod:`peapp.analysis.cost`), with the article's claim and whether the measurement agrees.

    peapp cost                                  # the default run: a minute or two
    peapp cost --models lab --lengths 1024,4096,16384,32768 --max-memory 8 --json
    peapp cost --models lab -o cost.svg --lang hi

``-o FIGURE`` draws the Measured claims panel's "Cost of positions" figure through the desktop
app's ``render`` command, the numbers kept beside it as ``FIGURE.cost.json`` (the session in the
figure names that file, so it reopens in the panel without measuring again).
"""

from __future__ import annotations

import argparse
import json
import os
import sys

from peapp.commands.figure import add_figure_arguments, app_renderer, render_session
from peapp.errors import ParameterError

NAME = "cost"
HELP = ("measure what each position scheme costs: peak memory and time of a full forward and of one generated "
        "token with a KV cache (learned, sinusoidal, Shaw, T5, ALiBi, RoPE, NoPE)")
VIEW = "claims-cost"  # the Measured claims panel's figure that -o draws
SCHEMES = ("learned", "sinusoidal", "shaw", "t5", "alibi", "rope", "nope")  # peapp.analysis.cost.SCHEMES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--models", default="lab,large",
                        help="comma list: lab (2 layers, d_model 64, 4 heads: the training lab's), large (8 layers, "
                             "d_model 512, 8 heads, 32k vocabulary)")
    parser.add_argument("--schemes", default=",".join(SCHEMES), help="comma list of " + ", ".join(SCHEMES))
    parser.add_argument("--lengths", default=None,
                        help="comma list of sequence lengths for every model (default: lab 1024,4096,16384; "
                             "large 1024)")
    parser.add_argument("--kinds", default="forward,decode",
                        help="forward (a full pass over n tokens), decode (one token with a cache of n)")
    parser.add_argument("--max-memory", type=float, default=2.0, metavar="GIB",
                        help="cases predicted to need more than this many GiB are not run (their need is given); "
                             "0: half the memory available")
    parser.add_argument("--threads", type=int, default=1, help="torch threads per case")
    parser.add_argument("--json", action="store_true", help="print every measured number as JSON (stdout)")
    add_figure_arguments(parser, "the Measured claims panel's cost figure")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")


def _names(text: str, allowed, what: str) -> tuple[str, ...]:
    names = tuple(dict.fromkeys(n.strip() for n in text.split(",") if n.strip()))
    bad = [n for n in names if n not in allowed]
    if bad or not names:
        raise ParameterError(f"--{what}: {', '.join(bad) or 'none given'}; choose from {', '.join(allowed)}.")
    return names


def run(args: argparse.Namespace) -> int:
    from peapp.analysis.cost import DEFAULT_LENGTHS, MODELS, measure_cost

    models = _names(args.models, tuple(MODELS), "models")
    schemes = _names(args.schemes, SCHEMES, "schemes")
    kinds = _names(args.kinds, ("forward", "decode"), "kinds")
    lengths = None
    if args.lengths:
        try:
            values = tuple(int(v) for v in args.lengths.replace("_", "").split(",") if v.strip())
        except ValueError:
            raise ParameterError(f"--lengths {args.lengths!r} is not a comma list of whole numbers.") from None
        if not values:
            raise ParameterError("--lengths: give at least one length.")
        lengths = {m: values for m in models}
    else:
        lengths = {m: DEFAULT_LENGTHS[m] for m in models}
    if not 0 <= args.max_memory <= 1 << 20:
        raise ParameterError("--max-memory must be between 0 and 1,048,576 GiB.")
    if args.json and args.output:
        raise ParameterError("--json prints numbers and -o draws a figure: give one of them.")
    renderer = app_renderer(VIEW, "Measured claims panel") if args.output else None  # before minutes of work

    def arrived(case) -> None:
        if args.quiet:
            return
        if not case.run:
            print(f"{case.model} {case.scheme} {case.length:,} {case.kind}: {case.note}", file=sys.stderr, flush=True)
            return
        peak = "" if case.peak_bytes is None else f", peak {case.peak_bytes / 2**20:.1f} MiB"
        print(f"{case.model} {case.scheme} {case.length:,} {case.kind}: {case.seconds * 1000:.1f} ms{peak}",
              file=sys.stderr, flush=True)

    result = measure_cost(models, schemes, lengths, kinds, max_bytes=int(args.max_memory * 2**30) or None,
                          threads=args.threads, partial=arrived)
    if renderer is not None:
        return _render(args, renderer, result.to_json())
    if args.json:
        json.dump(result.to_json(), sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_cost(result))
    return 0


def _render(args, renderer, doc: dict) -> int:
    from peapp.document import Document

    root, _ = os.path.splitext(args.output)
    saved = os.path.abspath(root + ".cost.json")  # the numbers the figure is drawn from, kept beside it
    with open(saved, "w", encoding="utf-8") as fh:
        json.dump(doc, fh, allow_nan=False)
    document = Document().with_view("claims", mode=VIEW, cost_file=saved)
    return render_session(renderer, VIEW, document, args)


def format_cost(result) -> str:
    from peapp.analysis.cost import CLAIM, MODELS, SCHEMES as ALL
    from peapp.i18n import shown
    from peapp.memory import human_bytes

    lines = []
    for model in MODELS:
        cases = [c for c in result.cases if c.model == model]
        if not cases:
            continue
        shape = MODELS[model]
        lines.append(f"{model} model: {shape.layers} layers, d_model {shape.d_model}, {shape.heads} heads "
                     f"(head_dim {shape.head_dim}), vocabulary {shape.vocab:,}; float32, {result.threads} thread(s)")
        lengths = sorted({c.length for c in cases})
        for kind, title in (("forward", "full forward: time / peak memory"),
                            ("decode", "one generated token with a KV cache of n: time / peak memory (cache held)")):
            if not any(c.kind == kind for c in cases):
                continue
            lines.append(f"  {title}")
            lines.append(f"  {'scheme':<12s}" + "".join(f"{n:>30,d}" for n in lengths))
            for scheme in ALL:
                row = [result.find(model, scheme, n, kind) for n in lengths]
                if not any(row):
                    continue
                cells = []
                for c in row:
                    if c is None:
                        cells.append(f"{'':>30s}")
                    elif not c.run:
                        cells.append(f"{'(needs ~' + human_bytes(c.predicted_bytes) + ')':>30s}")
                    else:
                        peak = "?" if c.peak_bytes is None else human_bytes(c.peak_bytes)
                        extra = f" ({human_bytes(c.cache_bytes)})" if c.cache_bytes else ""
                        cells.append(f"{f'{c.seconds * 1000:.1f} ms / {peak}{extra}':>30s}")
                lines.append(f"  {scheme:<12s}" + "".join(cells))
        lines.append("")
    lines += ["claim: " + shown(CLAIM), "measured: " + result.verdict(),
              f"({result.seconds:.0f} s; memory: peak resident memory per case, each in a fresh process; "
              f"'needs ~X': predicted working set over the {human_bytes(result.max_bytes)} cap, not run)"]
    return "\n".join(lines) + "\n"
