"""No panel calls another: docks share state only through the Document.

Read from the source (AST), so a dock-to-dock call fails here even when no test exercises it:
no dock module reaches the window's dock table (``window().docks``, ``docks.get(…)``), looks a
panel up as a child widget, imports another dock module, or names another dock's objectName.
A panel that changes another view's settings does it as a Document edit under that view's id from
the core (``peapp.views``, ``peapp.checkpoint_links``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

DOCKS = Path(__file__).resolve().parents[2] / "ui" / "docks"
# helpers, not panels: the base, and "_"-named modules (ui.docks discovers no panel there; a
# panel's own helper such as the Checkpoint panel's _layer_map)
SHARED = {"base", "__init__"} | {p.stem for p in DOCKS.glob("_*.py")}


def _modules() -> dict[str, ast.Module]:
    return {p.stem: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in sorted(DOCKS.glob("*.py"))}


def _object_names(modules: dict[str, ast.Module]) -> dict[str, str]:
    """objectName → module, from each dock class's ``object_name = "…"``."""
    names = {}
    for module, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "object_name"
                                                    for t in node.targets):
                if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str) and node.value.value:
                    names[node.value.value] = module
    return names


def _strings(tree: ast.Module):
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            yield node
        elif isinstance(node, ast.JoinedStr):  # f-strings: their literal parts
            yield from (v for v in node.values if isinstance(v, ast.Constant))


def _docstrings(tree: ast.Module) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _parts() -> dict[str, list[ast.Module]]:
    """A panel's own package (``ui/docks/_run/`` for ``run.py``: its controller and views), checked as the panel."""
    return {p.name[1:]: [ast.parse(f.read_text(encoding="utf-8"), str(f)) for f in sorted(p.glob("*.py"))]
            for p in sorted(DOCKS.glob("_*")) if p.is_dir() and (DOCKS / f"{p.name[1:]}.py").exists()}


MODULES = _modules()
PARTS = _parts()
NAMES = _object_names(MODULES)


def test_every_dock_has_an_object_name():
    assert set(NAMES.values()) == set(MODULES) - SHARED
    assert {"checkpointDock", "attentionDock", "patchGridDock"} <= set(NAMES)


@pytest.mark.parametrize("module", sorted(set(MODULES) - SHARED))
def test_no_dock_names_or_reaches_another(module):
    problems = [p for tree in (MODULES[module], *PARTS.get(module, ())) for p in _problems(module, tree, NAMES)]
    assert not problems, f"ui/docks/{module}.py talks to other panels directly:\n" + "\n".join(problems)


def _problems(module: str, tree: ast.Module, names: dict[str, str]) -> list[str]:
    problems = []
    docstrings = _docstrings(tree)
    for node in _strings(tree):
        if id(node) in docstrings:
            continue
        for name, owner in names.items():
            if owner != module and name in node.value:
                problems.append(f"line {node.lineno}: names {name} ({owner}.py)")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == "docks":
            problems.append(f"line {node.lineno}: reaches the window's dock table (.docks)")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr" \
                and len(node.args) > 1 and isinstance(node.args[1], ast.Constant) and node.args[1].value == "docks":
            problems.append(f"line {node.lineno}: reaches the window's dock table (getattr … 'docks')")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                and node.func.attr in ("findChild", "findChildren") and _reaches_up(node.func.value):
            problems.append(f"line {node.lineno}: looks up a widget outside the dock ({node.func.attr})")
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("ui.docks."):
            other = node.module.split(".")[2]
            if other not in SHARED and other != f"_{module}":  # its own package (controller, views) is the panel
                problems.append(f"line {node.lineno}: imports the {other} panel")
        if isinstance(node, ast.ImportFrom) and node.module == "ui.docks":
            others = {a.name for a in node.names} - SHARED
            if others:
                problems.append(f"line {node.lineno}: imports the {', '.join(sorted(others))} panel(s)")
        if isinstance(node, ast.Import) and any(a.name.startswith("ui.docks.") and a.name.split(".")[2] not in SHARED
                                                for a in node.names):
            problems.append(f"line {node.lineno}: imports another panel")
    return problems


def _reaches_up(node: ast.AST) -> bool:
    """``self.window()``, ``self.parent()``, ``self.parentWidget()``, ``QApplication…``: outside the dock."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in ("window", "parent", "parentWidget", "topLevelWidgets",
                                                           "activeWindow"):
            return True
    return False


def test_a_panels_own_package_is_checked_as_the_panel():
    assert {"run"} <= set(PARTS) and len(PARTS["run"]) >= 2
    assert _problems("probe", ast.parse("from ui.docks._run.figures import RunFigures\n"), NAMES)  # not Probes' own
    assert not _problems("run", ast.parse("from ui.docks._run.figures import RunFigures\n"), NAMES)


def test_the_check_catches_a_dock_to_dock_call():
    """The check itself, on the old checkpoint panel's hand-offs: each one is caught."""
    source = ('from ui.docks.patch_grid import PatchGridDock\n'
              'class D:\n    def f(self):\n'
              '        dock = getattr(self.window(), "docks", {}).get("patchGridDock")\n'
              '        self.window().docks["attentionDock"].set_settings(scheme="t5")\n'
              '        self.window().findChild(object, "x")\n')
    problems = _problems("checkpoint", ast.parse(source), NAMES)
    assert any("names patchGridDock" in p for p in problems)
    assert any("names attentionDock" in p for p in problems)
    assert any("getattr … 'docks'" in p for p in problems)
    assert any("(.docks)" in p for p in problems)
    assert any("findChild" in p for p in problems)
    assert any("imports the patch_grid panel" in p for p in problems)
    assert not _problems("checkpoint", ast.parse('x = "checkpointDock"\n'), NAMES)  # its own name is fine
