"""Build the one-folder desktop bundle and smoke-test it.

    python packaging/build.py            # -> dist/peapp/peapp  (dist/peapp/peapp.exe on Windows)
    python packaging/build.py --no-build # only slim + smoke-test an existing dist/peapp/

Steps: PyInstaller with packaging/peapp.spec (CPU torch, PySide6-Essentials only, resources/,
every dock/encoding/command module as a hidden import, the cuts listed in packaging/slim.py);
a second slimming pass over the output folder (catches files PyInstaller adds after the spec's
filters); then ``dist/peapp/peapp --self-test``.  Prints the build time, the bundle size and its
largest parts; exits non-zero if the build or the smoke test fails.  Takes several minutes on two
cores.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "packaging"))

from slim import drop  # noqa: E402

SPEC = ROOT / "packaging" / "peapp.spec"


def bundle_dir(dist: Path) -> Path:
    return dist / "peapp"


def executable(dist: Path) -> Path:
    return bundle_dir(dist) / ("peapp.exe" if sys.platform == "win32" else "peapp")


def folder_size(path: Path) -> int:
    return sum(p.stat().st_size for p in path.rglob("*") if p.is_file() and not p.is_symlink())


def part_sizes(bundle: Path, top: int = 12) -> list[tuple[str, int]]:
    """The largest parts of the bundle: each entry of _internal/ (a package, a shared library) and
    the executable (which holds the archive of every module's bytecode), biggest first."""
    parts = [(p.name, folder_size(p) if p.is_dir() else p.stat().st_size)
             for p in (bundle / "_internal").iterdir() if not p.is_symlink()]
    parts += [(p.name + " (executable + module archive)", p.stat().st_size) for p in bundle.iterdir() if p.is_file()]
    parts.sort(key=lambda part: -part[1])
    return parts[:top]


def run_pyinstaller(dist: Path, work: Path) -> None:
    command = [sys.executable, "-m", "PyInstaller", str(SPEC), "--noconfirm", "--clean",
               "--distpath", str(dist), "--workpath", str(work), "--log-level", "WARN"]
    print("+", " ".join(command), flush=True)
    subprocess.run(command, cwd=ROOT, check=True)


def slim(bundle: Path) -> int:
    """Delete files the spec's filters could not see; returns the bytes removed."""
    internal = bundle / "_internal"
    removed = 0
    for path in sorted(internal.rglob("*"), reverse=True):
        rel = path.relative_to(internal).as_posix()
        if path.is_file() and not path.is_symlink() and drop(rel):
            removed += path.stat().st_size
            path.unlink()
        elif path.is_dir() and not any(path.iterdir()):
            path.rmdir()
    return removed


def self_test(exe: Path, out_dir: Path) -> int:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    started = time.perf_counter()
    result = subprocess.run([str(exe), "--self-test"], env=env, cwd=out_dir, timeout=600)
    print(f"self-test exit code {result.returncode} after {time.perf_counter() - started:.1f} s "
          f"(includes the bundle's cold start)")
    return result.returncode


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="output folder")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller", help="PyInstaller work folder")
    parser.add_argument("--no-build", action="store_true", help="skip PyInstaller; slim and test dist/peapp")
    parser.add_argument("--no-self-test", action="store_true", help="do not run the smoke test")
    args = parser.parse_args(argv)
    dist, work = args.dist.resolve(), args.work.resolve()
    bundle = bundle_dir(dist)

    started = time.perf_counter()
    if not args.no_build:
        if bundle.exists():
            shutil.rmtree(bundle)
        try:
            run_pyinstaller(dist, work)
        except subprocess.CalledProcessError as exc:
            print(f"build FAILED: PyInstaller exited with {exc.returncode}", file=sys.stderr)
            return 1
    if not executable(dist).is_file():
        print(f"build FAILED: {executable(dist)} does not exist", file=sys.stderr)
        return 1
    removed = slim(bundle)
    build_seconds = time.perf_counter() - started
    size = folder_size(bundle)
    print(f"bundle: {bundle}  size {size / 2**20:.0f} MiB  (slimming pass removed {removed / 2**20:.1f} MiB)")
    for name, nbytes in part_sizes(bundle):
        print(f"  {nbytes / 2**20:7.1f} MiB  {name}")
    if not args.no_build:
        print(f"build time: {build_seconds:.0f} s")
    if args.no_self_test:
        return 0
    return 0 if self_test(executable(dist), dist) == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
