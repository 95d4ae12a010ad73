"""``peapp inspect PATH [--json]``: which position scheme a checkpoint uses, without loading it."""

from __future__ import annotations

import argparse
import json
import sys

NAME = "inspect"
HELP = "list the position components of a checkpoint (folder, .safetensors, .bin/.pt, .gguf, config.json)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="model folder or file")
    parser.add_argument("--json", action="store_true",
                        help="print JSON: {path, format, architecture, components: [{kind, tensor, shape, "
                             "params}], warnings}")


def run(args: argparse.Namespace) -> int:
    from peapp.checkpoints import inspect

    report = inspect(args.path)  # CheckpointError → exit 2 with one line (peapp.cli)
    if args.json:
        json.dump(report.to_json(), sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_table(report))
    return 0


def _shape(shape) -> str:
    return "×".join(str(s) for s in shape) if shape else "—"


def format_table(report) -> str:
    ck = report.checkpoint
    lines = [f"path:         {ck.path}",
             f"format:       {ck.format} ({len(ck.tensors):,} tensors)",
             f"architecture: {ck.architecture or 'unknown'}", ""]
    if report.components:
        rows = [("kind", "tensor", "shape", "details")]
        rows += [(c.kind, c.tensor or "—", _shape(c.shape), c.summary) for c in report.components]
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        for r in rows:
            lines.append("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3])
    else:
        lines.append("no position component found")
    if report.warnings:
        lines += ["", "warnings:"] + [f"  - {w}" for w in report.warnings]
    return "\n".join(lines) + "\n"
