"""``peapp temperature [PATH]``: NoPE's attention temperature — Llama 4's scale curve (formula,
parameters from the config, the positions where it steps), Scalable-Softmax's s·log n beside it, and
a NoPE layer's attention entropy per query position with and without the scale (the own q and k of
a model with NoPE layers — Llama 4, SmolLM3, Command R7B — when PATH is given; seeded random q and
k otherwise)."""

from __future__ import annotations

import argparse
import json
import sys

from peapp.errors import ParameterError

NAME = "temperature"
HELP = ("NoPE with temperature tuning: Llama 4's query scale (steps, formula) and a NoPE layer's attention "
        "entropy by position with and without it")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", nargs="?", default=None,
                        help="a folder of a model with NoPE layers — Llama 4, SmolLM3, Command R7B (cohere2) — "
                             "(config.json + safetensors + tokenizer.json): its settings and a NoPE layer's own q and k")
    parser.add_argument("--length", type=int, default=512, help="query positions")
    parser.add_argument("--attn-scale", type=float, default=None,
                        help="Llama 4's attn_scale for the 'with' curve (default: the config's, or 0.1)")
    parser.add_argument("--floor-scale", type=float, default=None,
                        help="Llama 4's floor_scale (default: the config's, or 8192)")
    parser.add_argument("--logn-s", type=float, default=1.0, help="Scalable-Softmax's s in s·log n")
    parser.add_argument("--layer", type=int, default=None, help="the NoPE layer (default: the first)")
    parser.add_argument("--json", action="store_true", help="print every number as JSON (stdout)")


def run(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from peapp.analysis.temperature import FORMULA, LOGN_FORMULA, read_config, scale_curve, seeded_entropy

    if not 2 <= args.length <= 65_536:
        raise ParameterError("--length must be between 2 and 65,536.")
    if args.path:
        from peapp.model_run.temperature import nope_entropy, token_ids

        ids = token_ids(args.path, args.length)
        entropy = nope_entropy(args.path, ids, args.layer, attn_scale=args.attn_scale, floor_scale=args.floor_scale)
        settings = entropy.settings
    else:
        settings = read_config({})
    overrides = {k: v for k, v in (("attn_scale", args.attn_scale), ("floor_scale", args.floor_scale)) if v is not None}
    if overrides:
        settings = replace(settings, **overrides)
    if not args.path:
        entropy = seeded_entropy(args.length, settings)
    curve = scale_curve(args.length, settings.attn_scale, settings.floor_scale, args.logn_s)
    if args.json:
        doc = {"formula": FORMULA, "logn_formula": LOGN_FORMULA, "attn_scale": settings.attn_scale,
               "floor_scale": settings.floor_scale, "tuning": settings.tuning, "config": settings.source,
               "steps": curve.steps.astype(int).tolist(), "llama4_scale": [round(float(x), 6) for x in curve.llama4],
               "logn_scale": [round(float(x), 6) for x in curve.logn], "entropy": entropy.to_json()}
        json.dump(doc, sys.stdout, allow_nan=False)
        sys.stdout.write("\n")
        return 0
    lines = [f"Llama 4 temperature: {FORMULA}",
             f"  attn_scale {settings.attn_scale:g}, floor_scale {settings.floor_scale:g} (from {settings.source}"
             f"{', tuning on' if settings.tuning else ''}); steps at positions "
             + (", ".join(f"{int(s):,}" for s in curve.steps[:12]) + (" …" if len(curve.steps) > 12 else "")
                if len(curve.steps) else f"none below {args.length:,}")
             + f"; scale at position {args.length - 1:,}: {curve.llama4[-1]:.4f}",
             f"Scalable-Softmax: {LOGN_FORMULA}, s = {args.logn_s:g}; at position {args.length - 1:,}: {curve.logn[-1]:.3f}",
             "", f"attention entropy (nats, mean over heads), layer {entropy.layer} ({entropy.source}):",
             f"{'position':>10s} {'without':>9s} {'with':>9s} {'uniform':>9s}"]
    import math

    for p in sorted({1, 3, 7, 15, 31, 63, 127, 255, 511, 1023, 2047, 4095, args.length - 1}):
        if p < args.length:
            lines.append(f"{p:>10,d} {entropy.without_scale[p]:9.3f} {entropy.with_scale[p]:9.3f} {math.log(p + 1):9.3f}")
    lines += ["", entropy.summary()] + [f"note: {n}" for n in entropy.notes]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0

