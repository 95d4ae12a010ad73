"""Run every benchmark script in this folder, one subprocess each, and print their output."""

from __future__ import annotations

import pathlib
import subprocess
import sys


def main() -> int:
    here = pathlib.Path(__file__).parent
    failed = 0
    for script in sorted(here.glob("bench_*.py")):
        print(f"\n=== {script.stem} ===", flush=True)
        proc = subprocess.run([sys.executable, "-m", f"tests.bench.{script.stem}"], cwd=here.parent.parent)
        failed += proc.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
