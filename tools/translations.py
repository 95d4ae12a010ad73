"""Update and compile the interface's translations (Qt's own tools, shipped with PySide6).

    python tools/translations.py update [AREA]  # pyside6-lupdate: new strings into resources/i18n/*.ts
    python tools/translations.py release   # pyside6-lrelease: every .ts to its .qm (what the app loads)
    python tools/translations.py check     # exit 1 when a .ts misses a string of the code, or a .qm is stale
    python tools/translations.py todo AREA                # the area's untranslated strings, as JSON lines
    python tools/translations.py apply AREA FILE.json     # write translations ({"context": .., "source": ..,
                                                          #  "translation": ..} lines) into the area's .ts
    python tools/translations.py stats     # strings and translated share per catalogue

The strings are split into catalogues by area (``AREAS``) so that people translating different
panels edit different files.  A source file belongs to the first area whose patterns match it.
Besides ``translate("C", "…")``, ``self.tr("…")`` and ``QT_TRANSLATE_NOOP("C", "…")``, lupdate
is told that ``msg("C", "…")`` (``peapp.i18n.msg``) marks a string.  ``qt_<lang>.ts`` is kept by
hand: Qt's own strings (standard dialog buttons), which Qt ships no Hindi catalogue for.
"""

from __future__ import annotations

import argparse
import fnmatch
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
I18N = ROOT / "resources" / "i18n"
LANGUAGES = ("hi",)
ALIASES = "QT_TRANSLATE_NOOP+=msg"

# area → glob patterns (relative to the repository root), first match wins
AREAS: dict[str, tuple[str, ...]] = {
    "model": ("ui/docks/attention.py", "ui/docks/run.py", "ui/docks/probe.py", "ui/docks/lab.py",
              "ui/docks/_run/*.py", "ui/docks/_probe/*.py", "ui/docks/_attention/*.py", "ui/docks/_text_source.py",
              "peapp/views/attention.py", "peapp/views/run.py", "peapp/views/probe.py", "peapp/views/lab.py",
              "peapp/model_run/*.py", "peapp/lab/*.py", "peapp/analysis/attention/*.py"),
    "panels": ("ui/docks/parameters.py", "ui/docks/heatmap.py", "ui/docks/rotation.py", "ui/docks/spectrum.py", "ui/docks/example.py",
               "ui/docks/extrapolation.py", "ui/docks/timeseries.py", "ui/docks/patch_grid.py",
               "peapp/views/heatmap.py", "peapp/views/rotation.py", "peapp/views/spectrum.py",
               "peapp/views/example.py", "peapp/views/extrapolation.py", "peapp/views/timeseries.py",
               "peapp/views/patch_grid.py", "ui/docks/multimodal.py", "peapp/views/multimodal.py",
               "peapp/analysis/*.py", "peapp/encodings/*.py"),
    "shell": ("ui/*.py", "ui/docks/*.py", "ui/commands/*.py", "peapp/*.py", "peapp/views/*.py",
              "peapp/checkpoints/*.py", "peapp/commands/*.py", "main.py"),
}


def sources() -> list[Path]:
    return sorted(p for p in [*ROOT.glob("ui/**/*.py"), *ROOT.glob("peapp/**/*.py"), ROOT / "main.py"]
                  if "__pycache__" not in p.parts)


def area_of(path: Path) -> str:
    relative = path.relative_to(ROOT).as_posix()
    for area, patterns in AREAS.items():
        if any(fnmatch.fnmatchcase(relative, pattern) for pattern in patterns):
            return area
    raise LookupError(f"{relative} is in no translation area: add it to AREAS in tools/translations.py")


def files_by_area() -> dict[str, list[Path]]:
    grouped: dict[str, list[Path]] = {area: [] for area in AREAS}
    for path in sources():
        grouped[area_of(path)].append(path)
    return grouped


def catalogue(area: str, language: str) -> Path:
    return I18N / f"{area}_{language}.ts"


def _tool(name: str) -> str:
    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if not found:
        raise SystemExit(f"{name} not found: it comes with PySide6-Essentials (pip install -e .)")
    return found


def lupdate(files: list[Path], ts: Path, extra: tuple[str, ...] = ()) -> None:
    subprocess.run([_tool("pyside6-lupdate"), "-tr-function-alias", ALIASES, "-locations", "none", *extra,
                    *map(str, files), "-ts", str(ts)], check=True, capture_output=True, text=True)


def lrelease(ts: Path, qm: Path) -> None:
    subprocess.run([_tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True,
                   capture_output=True, text=True)


def update(only: str | None = None) -> None:
    I18N.mkdir(parents=True, exist_ok=True)
    for area, files in files_by_area().items():
        if only and area != only:
            continue
        for language in LANGUAGES:  # -no-obsolete: strings removed from the code leave the catalogue
            lupdate(files, catalogue(area, language), ("-no-obsolete", "-target-language", language))


def release() -> None:
    for ts in sorted(I18N.glob("*.ts")):
        lrelease(ts, ts.with_suffix(".qm"))


def problems() -> list[str]:
    """What `check` reports: catalogues missing strings of the code, or .qm files not matching their .ts."""
    found: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for area, files in files_by_area().items():
            for language in LANGUAGES:
                ts = catalogue(area, language)
                if not ts.is_file():
                    found.append(f"{ts.name} is missing: run python tools/translations.py update")
                    continue
                fresh = Path(tmp) / ts.name
                shutil.copy(ts, fresh)
                before = fresh.read_bytes()
                lupdate(files, fresh, ("-no-obsolete", "-target-language", language))
                if fresh.read_bytes() != before:
                    found.append(f"{ts.name} is not up to date with the code: run python tools/translations.py update")
        for ts in sorted(I18N.glob("*.ts")):
            qm = ts.with_suffix(".qm")
            fresh_qm = Path(tmp) / qm.name
            lrelease(ts, fresh_qm)
            if not qm.is_file() or qm.read_bytes() != fresh_qm.read_bytes():
                found.append(f"{qm.name} is stale: run python tools/translations.py release")
    return found


def _parse(ts: Path):
    import xml.etree.ElementTree as ET

    return ET.parse(ts)


def _messages(tree):
    """(context name, <message> element) for every message of a parsed catalogue."""
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            yield name, message


def todo(area: str, language: str = "hi") -> list[dict[str, str]]:
    out = []
    for context, message in _messages(_parse(catalogue(area, language))):
        translation = message.find("translation")
        if translation is None or translation.get("type") == "unfinished" or not (translation.text or "").strip():
            out.append({"context": context, "source": message.findtext("source") or ""})
    return out


def apply(area: str, json_lines: Path, language: str = "hi") -> int:
    """Write the translations into the area's catalogue (then lupdate normalises it); how many matched."""
    import json

    wanted = {}
    for line in json_lines.read_text(encoding="utf-8").splitlines():
        if line.strip():
            entry = json.loads(line)
            wanted[(entry["context"], entry["source"])] = entry["translation"]
    ts = catalogue(area, language)
    tree = _parse(ts)
    matched = 0
    for context, message in _messages(tree):
        text = wanted.get((context, message.findtext("source") or ""))
        if text is not None:
            translation = message.find("translation")
            translation.text = text
            translation.attrib.pop("type", None)
            matched += 1
    tree.write(ts, encoding="utf-8", xml_declaration=True)
    lupdate(files_by_area()[area], ts, ("-no-obsolete", "-target-language", language))  # lupdate's own layout
    return matched


def stats() -> list[tuple[str, int, int]]:
    rows = []
    for ts in sorted(I18N.glob("*.ts")):
        total = done = 0
        for _context, message in _messages(_parse(ts)):
            total += 1
            translation = message.find("translation")
            if translation is not None and translation.get("type") != "unfinished" and (translation.text or "").strip():
                done += 1
        rows.append((ts.name, total, done))
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=("update", "release", "check", "todo", "apply", "stats"))
    parser.add_argument("area", nargs="?", choices=tuple(AREAS))
    parser.add_argument("file", nargs="?", type=Path)
    args = parser.parse_args(argv)
    if args.command in ("todo", "apply") and not args.area:
        parser.error(f"{args.command} needs an AREA: one of {', '.join(AREAS)}")
    if args.command == "todo":
        import json

        for entry in todo(args.area):
            print(json.dumps(entry, ensure_ascii=False))
    elif args.command == "apply":
        if args.file is None:
            parser.error("apply needs a FILE of JSON lines")
        print(f"{apply(args.area, args.file)} translations written into {catalogue(args.area, 'hi').name}")
    elif args.command == "stats":
        for name, total, done in stats():
            print(f"{name:20s} {done:5d} / {total:5d} translated ({100 * done / max(total, 1):.0f} %)")
    elif args.command == "update":
        update()
    elif args.command == "release":
        release()
    else:
        issues = problems()
        print("\n".join(issues) or "translations are up to date")
        return 1 if issues else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
