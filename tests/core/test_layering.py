"""The layering, checked from the source: ``peapp`` never imports the GUI — not at the top, not
inside a function, not through ``importlib.import_module("…")`` or ``__import__("…")`` — and no
module of ``peapp`` or ``ui`` is part of an import cycle.

``lint-imports`` (contracts in pyproject.toml, run by ``make test``) checks import statements
too; this test adds the dynamic imports it cannot see, and runs with the rest of the suite.
"""

from __future__ import annotations

import ast
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parents[2]
GUI = ("ui", "PySide6", "pyqtgraph", "superqt", "shiboken6")
DYNAMIC_IMPORTERS = ("import_module", "__import__")  # importlib.import_module, __import__

# Module-level import cycles that are known and being removed (say why beside each).  A cycle
# not listed fails the test; a listed one that no longer exists fails too, so the list stays true.
KNOWN_CYCLES: set[frozenset[str]] = set()


def gui_imports(package: Path) -> list[str]:
    """``"path:line module"`` for every import of a GUI module in the ``.py`` files under ``package``."""
    hits: list[tuple[str, int, str]] = []
    for path in sorted(package.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module] if node.level == 0 and node.module else []  # relative: inside the package
            elif isinstance(node, ast.Call) and _called_name(node.func) in DYNAMIC_IMPORTERS and node.args \
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
                names = [node.args[0].value]
            else:
                continue
            hits += [(str(path.relative_to(package.parent)), node.lineno, name)
                     for name in names if name.split(".")[0] in GUI]
    return [f"{path}:{line} {name}" for path, line, name in sorted(hits)]


def _called_name(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else ""


def test_peapp_never_imports_the_gui_not_even_inside_a_function():
    assert gui_imports(ROOT / "peapp") == []


def test_the_check_finds_every_way_of_importing(tmp_path):
    package = tmp_path / "core"
    package.mkdir()
    (package / "planted.py").write_text(
        "import importlib\n"
        "import numpy, PySide6.QtCore\n"                      # 2: a GUI module among others
        "from . import sibling\n"                             # 3: relative, fine
        "def draw():\n"
        "    from ui.export import render\n"                  # 5: inside a function
        "    import pyqtgraph as pg\n"                        # 6
        "    importlib.import_module('ui.app')\n"             # 7: dynamic, by name
        "    __import__('superqt')\n"                         # 8
        "    importlib.import_module(name_from_elsewhere)\n"  # 9: not a constant: unknowable here
        "    import uikit, shiboken6\n"                       # 10: 'uikit' is not 'ui'
    )
    assert gui_imports(package) == ["core/planted.py:2 PySide6.QtCore", "core/planted.py:5 ui.export",
                                    "core/planted.py:6 pyqtgraph", "core/planted.py:7 ui.app",
                                    "core/planted.py:8 superqt", "core/planted.py:10 shiboken6"]


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    return grimp.build_graph("peapp", "ui", cache_dir=None)  # every import statement, in functions too


def import_cycles(graph: grimp.ImportGraph, package: str) -> set[frozenset[str]]:
    """The sets of modules under ``package`` that import each other, directly or through others."""
    members: dict[str, set[str]] = {}
    for importer in sorted(graph.find_descendants(package) | {package}):
        for imported in graph.find_modules_directly_imported_by(importer):
            if imported.split(".")[0] == package and graph.chain_exists(importer=imported, imported=importer):
                group = members.get(importer, {importer}) | members.get(imported, {imported})
                for module in group:
                    members[module] = group
    return {frozenset(group) for group in members.values()}


@pytest.mark.parametrize("package", ["peapp", "ui"])
def test_no_import_cycles(graph, package):
    known = {cycle for cycle in KNOWN_CYCLES if next(iter(cycle)).split(".")[0] == package}
    cycles = import_cycles(graph, package)
    assert cycles - known == set(), "import cycle(s): break them (a module both sides need, or a late import)"
    assert known - cycles == set(), "a known cycle is gone: remove it from KNOWN_CYCLES"


def test_the_cycle_check_sees_a_cycle():
    planted = grimp.ImportGraph()
    for module in ("pkg", "pkg.a", "pkg.b", "pkg.c", "pkg.d"):
        planted.add_module(module)
    planted.add_import(importer="pkg.a", imported="pkg.b")
    planted.add_import(importer="pkg.b", imported="pkg.c")
    planted.add_import(importer="pkg.c", imported="pkg.a")
    planted.add_import(importer="pkg.d", imported="pkg.a")  # imports the cycle, is not in it
    assert import_cycles(planted, "pkg") == {frozenset({"pkg.a", "pkg.b", "pkg.c"})}
