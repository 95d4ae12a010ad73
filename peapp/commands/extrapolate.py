"""``peapp extrapolate --train L --eval E``: one computed verdict per scheme, as in the dock."""

from __future__ import annotations

import argparse

NAME = "extrapolate"
HELP = "say, per position scheme, what happens at an evaluation length longer than training"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--train", type=int, default=2048, help="training length (tokens)")
    parser.add_argument("--eval", type=int, default=8192, dest="eval_len", help="evaluation length (tokens)")
    parser.add_argument("--d-model", type=int, default=128, help="sinusoidal width")
    parser.add_argument("--head-dim", type=int, default=128, help="RoPE head dimension")
    parser.add_argument("--rope-base", type=float, default=10000.0, help="RoPE base (rope_theta)")
    parser.add_argument("--factor", type=float, default=None, help="RoPE scaling factor (default eval/train)")
    parser.add_argument("--heads", type=int, default=8, help="ALiBi heads")
    parser.add_argument("--threshold", type=float, default=10.0,
                        help="ALiBi reach: distance where the bias falls below −threshold")


def run(args: argparse.Namespace) -> int:
    from peapp.analysis.extrapolation import analyse

    result = analyse(args.train, args.eval_len, d_model=args.d_model, head_dim=args.head_dim,
                     rope_base=args.rope_base, factor=args.factor, n_heads=args.heads, threshold=args.threshold)
    print(f"training length {result.train_len:,}, evaluation length {result.eval_len:,}")
    for summary in result.summaries:
        print(f"- {summary.line}")
    return 0
