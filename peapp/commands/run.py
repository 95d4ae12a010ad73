"""``peapp run PATH --text-file FILE [--layer L --head H] [--json | --view VIEW -o FILE]``: run a
checkpoint on text.

Every layer's real q and k go through peapp's own attention function (or, for the families whose
transformers class does not use the attention registry, each layer's weights are taken by hooks on
its attention module); the statistics are computed block by block (see :mod:`peapp.model_run`),
and each layer's position scheme is reported as its code applied it.  ``--view`` draws one figure of the "Run on
text" panel headless: the run is described as a session (checkpoint, text, layer, head, view) and
drawn by the desktop app's ``render`` command, reached through the ``peapp.commands`` entry point
(the core never imports the GUI), so the figure is the GUI's and reopens as a session.
"""

from __future__ import annotations

import argparse
import json
import sys

from peapp.errors import ParameterError

NAME = "run"
# The Run on text panel's figures (peapp.views.run.MODES; a test keeps the two equal). Spelled out
# here because importing peapp.views loads every view spec, and with them torch: `peapp inspect`
# builds this parser too and must stay torch-free.
VIEW_NAMES = ("run-attention", "run-grid", "run-distance", "run-sinks", "run-rope", "run-terms", "run-nope")
HELP = "run a checkpoint (HF folder or .gguf) on a text and print what its attention does with position"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="model folder or .gguf file")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--text-file", metavar="FILE", help="a UTF-8 text file to run on")
    source.add_argument("--sample-text", action="store_true",
                        help="the bundled public-domain sample text (default when no --text-file)")
    parser.add_argument("--max-tokens", type=int, default=1024,
                        help="tokens of the text to run (its start; only as much of the text is tokenised), "
                             "2 … 131,072; a text file may be at most 16 MiB")
    parser.add_argument("--layer", type=int, default=0, help="the layer whose map and position/content terms are pooled")
    parser.add_argument("--head", type=int, default=0, help="the head of the position/content comparison and of the map")
    parser.add_argument("--all-heads", action="store_true", help="pool the map of every head of --layer, not only --head")
    parser.add_argument("--bins", type=int, default=256, help="pooled map cells per axis")
    add_placement_arguments(parser)
    parser.add_argument("--cache-dir", default=None,
                        help="where converted GGUF models are cached (default: the user cache folder, "
                             "or $PEAPP_CACHE_DIR)")
    parser.add_argument("--view", choices=VIEW_NAMES, default=None, metavar="VIEW",
                        help="draw this figure of the run instead of printing numbers: " + ", ".join(VIEW_NAMES)
                             + " (needs the desktop app installed; the output's extension picks the format; "
                               "the panel runs it in --dtype, recorded as its Precision)")
    parser.add_argument("-o", "--output", default=None, metavar="FILE",
                        help="with --view: the figure or data file (.png .svg .pdf .csv .npy .npz)")
    parser.add_argument("--size", default="1000x700", metavar="WxH", help="with --view: figure size in logical pixels")
    parser.add_argument("--force", action="store_true", help="with --view: replace an existing output file")
    parser.add_argument("--json", action="store_true",
                        help="print every statistic as JSON (the route, each layer's position scheme, per-head "
                             "tables, distance profiles, received attention, pooled maps, thumbnails, RoPE usage "
                             "per layer, position vs content)")


def add_placement_arguments(parser) -> None:
    """--dtype, --device and --max-memory, shared by ``peapp run`` and ``peapp probe``."""
    parser.add_argument("--dtype", default="auto", choices=("auto", "float32", "bfloat16", "float16"),
                        help="precision of the model's weights and activations (statistics are always "
                             "accumulated in float32/float64); auto: the checkpoint's own dtype on a GPU, on a "
                             "CPU bfloat16 where torch reports fast bf16 and a bf16 product measures faster, else "
                             "float32 (what was chosen is said on stderr)")
    parser.add_argument("--device", default="cpu", type=_device_name, metavar="DEVICE",
                        help="cpu, cuda, cuda:N, mps, or auto: accelerate's device_map=\"auto\" spreads a "
                             "model over every GPU, then CPU memory and disk (without a GPU it runs on the "
                             "CPU and says so)")
    parser.add_argument("--max-memory", default=None, metavar="LIMITS",
                        help="with --device auto: accelerate's max_memory per device, e.g. 0=20GiB,cpu=60GiB "
                             "(what does not fit goes to the next device, then to disk)")


def _device_name(text: str) -> str:
    import argparse
    import re

    if text in ("cpu", "cuda", "mps", "auto") or re.fullmatch(r"cuda:\d+", text):
        return text
    raise argparse.ArgumentTypeError(f"unknown device {text!r}: use cpu, cuda, cuda:N, mps or auto")


def _text(args) -> str:
    """The text to run on: a regular UTF-8 file of at most 16 MiB (a FIFO or a device is refused,
    not read), or the sample."""
    from peapp.model_run.text_run import resolve_text

    if args.text_file:
        return resolve_text("file", text_file=args.text_file)[0]
    return resolve_text("sample")[0]


def run(args: argparse.Namespace) -> int:
    from peapp.commands import run_with_progress
    from peapp.jobs import HOOKS
    from peapp.model_run import RunOptions, load_model, run_model, tokenize

    from peapp.model_run.runner import check_max_tokens

    check_max_tokens(args.max_tokens)
    if args.view or args.output:
        return _render(args)
    text = _text(args)
    loaded = load_model(args.path, device=args.device, cache_dir=args.cache_dir, dtype=args.dtype,
                        max_memory=args.max_memory)
    ids, tokens, truncated = tokenize(loaded, text, args.max_tokens)
    options = RunOptions(layer=args.layer, head=args.head, heads=None if args.all_heads else (args.head,),
                         map_bins=args.bins)
    for note in (*loaded.choices, *loaded.notes):
        print(f"peapp run: {note}", file=sys.stderr)

    def job():  # the executor's job protocol; the run reports per layer, from code that cannot yield
        hooks = yield HOOKS
        return run_model(loaded, ids, options, tokens=tokens, progress=hooks.progress, cancelled=hooks.cancelled)

    result = run_with_progress(job(), "run", quiet=args.json)
    if args.json:
        doc = result.to_json()
        doc.update({"path": loaded.path, "source": loaded.source, "load_seconds": round(loaded.load_seconds, 3),
                    "text_file": args.text_file, "truncated": truncated})
        json.dump(doc, sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_summary(loaded, result, truncated))
    return 0


def run_document(args: argparse.Namespace):
    """The session that describes this run in the "Run on text" panel (checkpoint, text, precision, view)."""
    import os

    from peapp.model_run.text_run import text_sha256
    from peapp.document import Document

    text = _text(args)
    dtype = args.dtype
    if dtype == "auto":  # the core's auto (on the CPU: --view runs there), not the app's Preferences
        from peapp.model_run.placement import resolve

        chosen = resolve("auto", "cpu")
        dtype = chosen.dtype
        for note in chosen.notes:
            print(f"peapp run: {note}", file=sys.stderr)
    values = {"mode": args.view, "max_tokens": args.max_tokens, "layer": args.layer, "head": args.head,
              "dtype": dtype, "text_sha256": text_sha256(text)}
    if args.text_file:
        values.update(text_source="file", text_file=os.path.abspath(args.text_file))
    else:
        values.update(text_source="sample")
    return Document().with_checkpoint(os.path.abspath(args.path)).with_view("run", **values)


def _render(args: argparse.Namespace) -> int:
    import os
    from importlib.metadata import entry_points

    from peapp.cli import ENTRY_POINT_GROUP
    from peapp.commands.figure import render_session

    if not (args.view and args.output):
        raise ParameterError("give both --view VIEW and -o FILE to draw a figure of the run.")
    if args.json:
        raise ParameterError("--json prints numbers and --view draws a figure: give one of them.")
    if args.device != "cpu" or args.max_memory:
        raise ParameterError("--view runs on the device chosen in the app's Preferences; use --device cpu here.")
    points = [p for p in entry_points(group=ENTRY_POINT_GROUP) if p.name == "render"]
    if not points:
        raise ParameterError("--view needs the desktop app (peapp's `render` command), which is not installed; "
                             "use --json for the numbers.")
    renderer = points[0].load()
    if args.cache_dir:
        os.environ["PEAPP_CACHE_DIR"] = args.cache_dir  # where the panel's run reads converted GGUFs
    return render_session(renderer, args.view, run_document(args), args)


def _layer_line(info: dict) -> str:
    """One layer's scheme as the run found it, e.g. "rope θ=10,000 8/8 dims half, window 4"."""
    text = str(info.get("position"))
    rope = info.get("rope")
    if rope:
        theta = rope.get("theta")
        text += (f" θ={theta:,.10g}" if isinstance(theta, (int, float)) else "") + \
            (f" {rope['rope_type']}" if rope.get("rope_type") not in (None, "default") else "") + \
            f" {rope['rotary_dims']}/{rope['head_dim']} dims {rope['pair_layout']}"
    if info.get("sliding_window"):
        text += f", window {info['sliding_window']}"
    if info.get("attention_chunk"):
        text += f", chunks of {info['attention_chunk']}"
    if info.get("learned_sinks"):
        text += ", learned sinks"
    if info.get("temperature_tuning"):
        text += ", temperature tuning"
    return text


def format_summary(loaded, result, truncated: bool) -> str:
    import numpy as np

    lines = [(f"model:      {loaded.path} ({loaded.family}, {loaded.architecture}, {loaded.source}, "
              f"loaded in {loaded.load_seconds:.1f} s)"),
             (f"tokens:     {result.n_tokens:,}{' (text truncated)' if truncated else ''}; "
              f"run in {result.seconds:.1f} s on {result.device} in {result.dtype}"
              + (f" (spread: {result.placement})" if result.placement else "")),
             f"route:      {result.route}" + (f" (one layer's weights: {result.route_memory:,} bytes)"
                                              if result.route_memory else "")]
    if result.perplexity is not None:
        lines.append(f"perplexity: {result.perplexity:.2f}")
    lines += ["", "layer  position scheme"]
    lines += [f"{info['layer']:5d}  {_layer_line(info)}" for info in result.layer_schemes]
    lines += ["", "layer  head  class           prev   local  sink0  sink4  entropy"]
    for layer in range(result.layers):
        for head in range(result.heads):
            lines.append(f"{layer:5d} {head:5d}  {result.head_class[layer][head]:<14s} "
                         f"{result.previous_token[layer, head]:6.3f} {result.local[layer, head]:6.3f} "
                         f"{result.sink_first[layer, head]:6.3f} {result.sink_span[layer, head]:6.3f} "
                         f"{result.entropy[layer, head]:8.3f}")
    if result.term_kind:
        s = result.term_summary
        lines += ["", (f"layer {result.options.layer} head {result.options.head}: real logits vs {result.term_kind}: "
                       f"std {s['real_std']:.3f} vs {s['term_std']:.3f}, correlation {s['correlation']:.3f}")]
    elif result.term_note():
        lines += ["", str(result.term_note())]
    if result.rope_usage is not None:
        groups: dict[str, list[int]] = {}  # layers that share a type's frequencies, e.g. Gemma 3's local / global
        for layer in result.layer_wavelengths:
            groups.setdefault(str(result.layer_schemes[layer].get("layer_type")), []).append(layer)
        for layer_type, layers in groups.items():
            usage = np.nanmean(result.rope_usage[layers], axis=(0, 1))
            waves = result.layer_wavelengths[layers[0]]
            top = [i for i in usage.argsort()[::-1] if np.isfinite(usage[i])][:3]
            where = f"{layer_type} layers" if len(groups) > 1 else "all RoPE layers"
            lines.append(f"RoPE pairs carrying most |q|·|k| ({where}): " + ", ".join(
                f"pair {i} (wavelength {waves[i]:,.0f})" for i in top)
                + (f"; trained context {result.trained_context:,}" if result.trained_context else ""))
    return "\n".join(lines) + "\n"
