"""Arms are data: no library file outside ``execstate/arms`` and the registry names an arm, neither by a
constant (``LOOP_TRACE_ARM``, ``FINAL_ARMS``, ...) nor by its name as a string (``"loop-trace"``). The rest
of the library asks ``arm_names(...)`` / ``arm_spec(...)``, so a plug-in's arm goes everywhere a built-in does.

Run as a script to list every offending line: ``python tests/test_arm_vocabulary.py``.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import execstate
from execstate.arms import arm_names

SRC = Path(execstate.__file__).resolve().parent
ALLOWED = ("arms/", "registry.py")
"""The arm modules and the registry: the only places an arm is named."""
CONSTANTS = frozenset(
    ("ARMS", "FINAL_ARMS", "STATE_ARMS", "FUNCTION_ARMS", "PROGRAM_INPUT_ARM", "EXTRA_ARMS", "LOOP_TRACE_ARM",
     "LINE_COUNT_ARM", "FURTHER_ARMS", "CASE_ARMS")
)  # fmt: skip
"""The arm constants of ``execstate.arms`` (kept there for readers of the public API)."""


def _docstrings(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for stmt in body:  # a module's, class's or function's docstring, and attribute docstrings after fields
                if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                    found.add(id(stmt.value))
    return found


def offences(path: Path, arm_names: frozenset[str]) -> list[tuple[int, str]]:
    """The lines of ``path`` naming an arm: ``(line, what)``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs = _docstrings(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs:
            if node.value in arm_names:
                found.append((node.lineno, f"the arm name {node.value!r}"))
        elif isinstance(node, ast.Name) and node.id in CONSTANTS:
            found.append((node.lineno, f"the arm constant {node.id}"))
        elif isinstance(node, ast.Attribute) and node.attr in CONSTANTS:
            found.append((node.lineno, f"the arm constant {node.attr}"))
        elif isinstance(node, ast.alias) and node.name in CONSTANTS:
            found.append((node.lineno, f"an import of the arm constant {node.name}"))
    return sorted(found)


def library_files() -> list[Path]:
    """Every library module but the arm modules, the registry and the studies' case programs (data)."""
    out = []
    for path in sorted(SRC.rglob("*.py")):
        rel = path.relative_to(SRC).as_posix()
        if rel.startswith(ALLOWED) or (rel.startswith("studies/") and rel.count("/") > 1):
            continue
        out.append(path)
    return out


def all_offences() -> dict[str, list[tuple[int, str]]]:
    names = frozenset(arm_names(builtin=True))
    return {p.relative_to(SRC).as_posix(): o for p in library_files() if (o := offences(p, names))}


def test_no_library_file_names_an_arm():
    found = all_offences()
    listed = "; ".join(f"{f}:{line} {what}" for f, lines in found.items() for line, what in lines[:3])
    assert not found, f"{len(found)} library files name an arm (ask execstate.arms instead): {listed}"


def test_the_check_can_fail(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(
        '"""Docstrings may say loop-trace."""\nfrom execstate.arms import LOOP_TRACE_ARM\n'
        'x = "line-count"\ny = execstate.arms.FINAL_ARMS\n'
    )
    found = offences(planted, frozenset(arm_names(builtin=True)))
    assert [line for line, _ in found] == [2, 3, 4]


if __name__ == "__main__":
    result = all_offences()
    for name, lines in result.items():
        for line, what in lines:
            print(f"src/execstate/{name}:{line}: {what}")
    print(f"{sum(len(v) for v in result.values())} lines in {len(result)} files", file=sys.stderr)
