"""``peapp run PATH --text-file FILE [--layer L --head H] [--json]``: run a checkpoint on text.

Every layer's real q and k go through peapp's own attention function; the statistics are
computed block by block (see :mod:`peapp.model_run`).  Figures of the run (``--view``) need the
Qt renderer and come with the run panel.
"""

from __future__ import annotations

import argparse
import json
import sys

from peapp.errors import ParameterError

NAME = "run"
HELP = "run a checkpoint (HF folder or .gguf) on a text and print what its attention does with position"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="model folder or .gguf file")
    source = parser.add_mutually_exclusive_group()
    source.add_argument("--text-file", metavar="FILE", help="a UTF-8 text file to run on")
    source.add_argument("--sample-text", action="store_true",
                        help="the bundled public-domain sample text (default when no --text-file)")
    parser.add_argument("--max-tokens", type=int, default=1024, help="tokens of the text to run (its start)")
    parser.add_argument("--layer", type=int, default=0, help="the layer whose map and position/content terms are pooled")
    parser.add_argument("--head", type=int, default=0, help="the head of the position/content comparison and of the map")
    parser.add_argument("--all-heads", action="store_true", help="pool the map of every head of --layer, not only --head")
    parser.add_argument("--bins", type=int, default=256, help="pooled map cells per axis")
    parser.add_argument("--device", default="cpu", choices=("cpu", "cuda", "mps"), help="torch device")
    parser.add_argument("--cache-dir", default=None,
                        help="where converted GGUF models are cached (default: the user cache folder, "
                             "or $PEAPP_CACHE_DIR)")
    parser.add_argument("--json", action="store_true",
                        help="print every statistic as JSON (per-head tables, distance profiles, received "
                             "attention, pooled maps, thumbnails, RoPE usage, position vs content)")


def _text(args) -> str:
    if args.text_file:
        try:
            with open(args.text_file, encoding="utf-8") as fh:
                return fh.read()
        except OSError as exc:
            raise ParameterError(f"cannot read {args.text_file}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ParameterError(f"{args.text_file} is not UTF-8 text; save it as UTF-8.") from None
    from peapp.model_run.sample_text import sample_text

    return sample_text()


def run(args: argparse.Namespace) -> int:
    from peapp.model_run import RunOptions, load_model, run_model, tokenize

    if args.max_tokens < 2:
        raise ParameterError("--max-tokens must be at least 2.")
    text = _text(args)
    loaded = load_model(args.path, device=args.device, cache_dir=args.cache_dir)
    ids, tokens, truncated = tokenize(loaded, text, args.max_tokens)
    options = RunOptions(layer=args.layer, head=args.head, heads=None if args.all_heads else (args.head,),
                         map_bins=args.bins)
    result = run_model(loaded, ids, options, tokens=tokens)
    if args.json:
        doc = result.to_json()
        doc.update({"path": loaded.path, "source": loaded.source, "load_seconds": round(loaded.load_seconds, 3),
                    "text_file": args.text_file, "truncated": truncated})
        json.dump(doc, sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_summary(loaded, result, truncated))
    return 0


def format_summary(loaded, result, truncated: bool) -> str:
    lines = [(f"model:      {loaded.path} ({loaded.family}, {loaded.architecture}, {loaded.source}, "
              f"loaded in {loaded.load_seconds:.1f} s)"),
             (f"tokens:     {result.n_tokens:,}{' (text truncated)' if truncated else ''}; "
              f"run in {result.seconds:.1f} s on {result.device}")]
    if result.perplexity is not None:
        lines.append(f"perplexity: {result.perplexity:.2f}")
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
    if result.rope_usage is not None:
        usage = result.rope_usage.mean(1).mean(0)
        top = usage.argsort()[::-1][:3]
        lines.append("RoPE pairs carrying most |q|·|k| (all layers): " + ", ".join(
            f"pair {i} (wavelength {result.rope_wavelengths[i]:,.0f})" for i in top)
            + f"; trained context {result.trained_context:,}")
    return "\n".join(lines) + "\n"
