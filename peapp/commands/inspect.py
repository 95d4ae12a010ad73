"""``peapp inspect PATH [--json]``: which position scheme a checkpoint uses, without loading it."""

from __future__ import annotations

import argparse
import json
import sys
import unicodedata

NAME = "inspect"
HELP = "list the position components of a checkpoint (folder, .safetensors, .bin/.pt, .gguf, config.json)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("path", help="model folder or file")
    parser.add_argument("--json", action="store_true",
                        help="print JSON: {path, format, architecture, model: {layers, heads, kv_heads, head_dim, "
                             "hidden_size, context_length, vocab_size, dtype, parameters, file_size: {value, text, "
                             "source}}, components: [{kind, tensor, shape, "
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


def printable(text: object) -> str:
    """``text`` with everything a terminal would act on escaped: control characters (ESC sequences
    could retitle, recolour or rewrite the user's terminal), bidi and other format characters
    (which reorder what is shown), line/paragraph separators.  Names come from files someone else
    made.  ``\\`` is doubled so an escape in the output is never ambiguous."""
    out = []
    for ch in str(text):
        if ch == "\\":
            out.append("\\\\")
        elif unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            code = ord(ch)
            out.append(f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}")
        else:
            out.append(ch)
    return "".join(out)


def _shape(shape) -> str:
    return "×".join(str(s) for s in shape) if shape else "—"


def format_table(report) -> str:
    ck = report.checkpoint
    lines = [f"path:         {printable(ck.path)}",
             f"format:       {ck.format} ({len(ck.tensors):,} tensors)",
             f"architecture: {printable(ck.architecture or 'unknown')}", ""]
    facts = [(label, text) for label, text, _ in report.facts.rows() if text != "—"]
    if facts:
        width = max(len(label) for label, _ in facts)
        lines += ["model:"] + [f"  {label.ljust(width)}  {printable(text)}" for label, text in facts] + [""]
    if report.components:
        rows = [("kind", "tensor", "shape", "details")]
        rows += [(c.kind, printable(c.tensor or "—"), _shape(c.shape), printable(c.summary))
                 for c in report.components]
        widths = [max(len(r[i]) for r in rows) for i in range(3)]
        for r in rows:
            lines.append("  ".join(r[i].ljust(widths[i]) for i in range(3)) + "  " + r[3])
    else:
        lines.append("no position component found")
    if report.warnings:
        lines += ["", "warnings:"] + [f"  - {printable(w)}" for w in report.warnings]
    return "\n".join(lines) + "\n"
