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
                             "params}], layers: {source, keys, notes, groups: [{layers, text}], layers: [{layer, "
                             "layer_type, position, attention, window, chunk, sinks, rope: {rope_theta, rope_type, "
                             "head_dim, rotary_dim, layout, scaling}, temperature}]}, memory: {length, groups: "
                             "[{layers, keys_held, kv_bytes, scores_bytes}]}, warnings}")
    parser.add_argument("--length", type=int, default=None, metavar="N",
                        help="tokens for the attention memory per layer type (default: the model's context "
                             "length)")


def run(args: argparse.Namespace) -> int:
    from peapp.checkpoints import inspect

    from peapp.errors import ParameterError
    from peapp.file_values import MAX_LENGTH

    if args.length is not None and not 1 <= args.length <= MAX_LENGTH:
        raise ParameterError(f"--length must be a positive number of tokens, got {args.length:,}.")
    report = inspect(args.path)  # CheckpointError → exit 2 with one line (peapp.cli)
    if args.json:
        out = report.to_json()
        memory = _memory(report, args.length)
        if memory is not None:
            length, rows, size, _ = memory
            out["memory"] = {"length": length, "bytes_per_element": size,
                             "groups": [{"layers": list(m.group.indices), "keys_held": m.keys_held,
                                         "kv_bytes": m.kv_bytes, "scores_bytes": m.scores_bytes} for m in rows]}
        json.dump(out, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(format_table(report, args.length))
    return 0


def _memory(report, length: int | None):
    """(length, per-group memory, bytes per element, why) or None without a layer map or a length."""
    from peapp.checkpoints.layer_schemes import memory_at

    lm = report.layers
    length = length or report.facts.get("context_length")
    if lm is None or not isinstance(length, int) or not report.facts.get("head_dim"):
        return None
    rows, size, why = memory_at(lm, report.facts, length)
    return length, rows, size, why


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


def format_table(report, length: int | None = None) -> str:
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
    lm = report.layers
    if lm is not None:
        lines += ["", f"layers ({len(lm)}, from {lm.source} {', '.join(lm.keys) or 'layer count'}):"]
        groups = lm.groups()
        width = max(len(g.ranges) + len(str(len(g.indices))) + 3 for g in groups)
        lines += [f"  {(g.ranges + f' ({len(g.indices)})').ljust(width)}  {printable(g.scheme.describe())}"
                  for g in groups]
        lines += [f"  note: {printable(n)}" for n in lm.notes]
        memory = _memory(report, length)
        if memory is not None:
            length, rows, size, why = memory
            from peapp.memory import human_bytes
            lines += ["", f"attention memory at {length:,} tokens (K/V {size} bytes per value: {printable(why)}):"]
            for m in rows:
                g = m.group
                lines.append(f"  {(g.ranges + f' ({len(g.indices)})').ljust(width)}  keys held {m.keys_held:,}; "
                             f"K/V cache {human_bytes(m.kv_bytes)} ({len(g.indices)} layers); one layer's eager "
                             f"attention weights {human_bytes(m.scores_bytes)}")
            lines.append(f"  total K/V cache {human_bytes(sum(m.kv_bytes for m in rows))}")
    if report.warnings:
        lines += ["", "warnings:"] + [f"  - {printable(w)}" for w in report.warnings]
    return "\n".join(lines) + "\n"
