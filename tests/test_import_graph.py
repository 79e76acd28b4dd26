"""No import circle anywhere in the package: the graph of which module imports which (every import counted:
module level, inside functions, under ``TYPE_CHECKING``, and every ``"execstate.module:attr"`` string, the way
registries and hooks name what they import on first use) has no cycle. Beside the layering test, which keeps
imports from running up a floor, this keeps two rooms of one floor from leaning on each other."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import execstate

SRC = Path(execstate.__file__).resolve().parent


def _module_name(path: Path) -> str:
    parts = ("execstate", *path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    """Every module of the package but the studies' case and pool programs (data, not code)."""
    found = {}
    for path in SRC.rglob("*.py"):
        rel = path.relative_to(SRC).as_posix()
        if not (rel.startswith("studies/") and rel.count("/") > 1):
            found[_module_name(path)] = path
    return found


def _edges(path: Path, me: str, known: set[str]) -> set[str]:
    """The package's modules ``path`` imports: ``import a.b``, ``from a import b`` (module ``a``, and ``a.b`` when
    that is a module), relative imports resolved."""
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = package.rsplit(".", node.level - 1)[0] if node.level else ""
            module = ".".join(p for p in (base, node.module or "") if p)
            out |= {module} | {f"{module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and (named := _LAZY.fullmatch(node.value)):
            out.add(named.group(1))  # a registry entry or hook: imported on first use, an edge all the same
    return {m for m in out if m in known and m != me}


_LAZY = re.compile(r"(execstate(?:\.\w+)+):[A-Za-z_][\w.]*")
"""A lazy import: ``"execstate.run.providers.openai:ENTRY"`` (the module part is the edge)."""


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        top = stack.pop()
                        on_stack.discard(top)
                        component.append(top)
                        if top == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
            elif child not in index:
                index[child] = low[child] = len(index)
                stack.append(child)
                on_stack.add(child)
                work.append((child, iter(sorted(graph[child]))))
            elif child in on_stack:
                low[node] = min(low[node], index[child])
    return cycles


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _edges(path, name, set(modules)) for name, path in modules.items()}


def test_no_import_circle_in_the_package():
    assert import_cycles(_graph()) == []


def test_the_cycle_finder_finds_a_planted_circle():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert import_cycles(graph) == [["a", "b", "c"]]
    assert import_cycles({"a": {"b"}, "b": set()}) == []


def test_registry_strings_count(tmp_path):
    module = tmp_path / "m.py"
    module.write_text('ENTRIES = {"x": "execstate.run.providers.openai:ENTRY"}\nNOT = "execstate: no"\n')
    assert _edges(module, "execstate.x", {"execstate.run.providers.openai"}) == {"execstate.run.providers.openai"}


def test_type_checking_and_function_level_imports_count(tmp_path):
    module = tmp_path / "m.py"
    module.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from execstate.records import Task\n"
        "def f():\n    from execstate.errors import UsageError\n"
    )
    assert _edges(module, "execstate.x", {"execstate.records", "execstate.errors"}) == {
        "execstate.records",
        "execstate.errors",
    }
