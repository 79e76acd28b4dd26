"""The call driver: the visible lines that make a function-call (LeetCode-style) solution a stdin program.

A program made from a function-call problem is three parts, in this order:

1. only when the solution uses them without importing them, the names
   LeetCode's judge (and LiveCodeBench's harness) provides: ``from typing
   import List``, ``from collections import deque``, ``import heapq``, ...;
2. the solution, unchanged;
3. the driver, opened by the line ``DRIVER_MARKER``: it reads the call's
   arguments from stdin, one JSON value per line, calls the target once and
   prints the result as canonical JSON (``canonical_json``).

The driver is part of the clean source every arm shows (a model must see how
the input becomes a call). It is execstate's code, not the solution's: the
constructor never puts a checkpoint in a loop at or after ``DRIVER_MARKER``
(``driver_start``).
"""

from __future__ import annotations

import ast
import builtins
import importlib
import json
import re
from functools import cache

from execstate.languages import DEFAULT_LANGUAGE, language_of_file

DRIVER_LANGUAGE: str = language_of_file("driver.py") or DEFAULT_LANGUAGE
"""The language the driver is written in (the registry's ``.py`` language): a function-call problem's solution must
be in it too."""
DRIVER_MARKER = "# ---- execstate call driver ----"
"""The line that opens the driver; every line from it on is the driver's (the last such line counts)."""
DRIVER_FUNCTION = "_execstate_call"
"""The one module-level name the driver adds; a solution that uses it cannot be driven."""
DRIVER_LOOP = "in the call driver (execstate's code, after the solution): never a checkpoint"
"""Why the constructor passes over a loop at or after ``DRIVER_MARKER``."""
HEADER_MARKER = "# ---- execstate: names the judge provides, which the solution uses without importing ----"
HEADER_END = "# ---- the solution, unchanged ----"

JUDGE_MODULES = (
    "string", "re", "datetime", "collections", "heapq", "bisect", "copy", "math", "random", "statistics",
    "itertools", "functools", "operator", "io", "sys", "json", "typing",
)  # fmt: skip
"""The modules LiveCodeBench's harness star-imports before a LeetCode solution, in its order (a later one wins)."""


def canonical_json(value: object) -> str:
    """``value`` as the driver prints it: ``json.dumps`` with no spaces, non-ASCII kept, NaN/Infinity refused.

    Tuples print as lists, ``True``/``False``/``None`` as ``true``/``false``/``null``,
    floats as Python's shortest round-trip text (``2.0``, ``0.1``, ``1e-07``), dict keys
    in insertion order. ``ValueError`` for NaN or an infinity, ``TypeError`` for a value
    JSON has no form for (a set, an object).
    """
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def driver(call: str) -> str:
    """The driver's lines (each ending in a newline) for the call expression ``call`` (``Solution().f``)."""
    lines = [
        DRIVER_MARKER,
        "# Added by execstate; the solution above is unchanged. stdin holds the call's",
        "# arguments, one JSON value per line; the result is printed as one line of JSON.",
        f"def {DRIVER_FUNCTION}():",
        "    import json",
        "    import sys",
        "",
        '    args = [json.loads(line) for line in sys.stdin.read().split("\\n") if line.strip()]',
        f"    result = {call}(*args)",
        '    print(json.dumps(result, ensure_ascii=False, separators=(",", ":"), allow_nan=False))',
        "",
        "",
        f"{DRIVER_FUNCTION}()",
    ]
    return "".join(line + "\n" for line in lines)


def driven_program(solution: str, call: str) -> str:
    """The stdin program: the judge's names the solution needs (if any), the solution unchanged, the driver."""
    tree = ast.parse(solution)
    header = judge_imports(tree)
    body = solution if solution.endswith("\n") else solution + "\n"
    if header:
        lines = re.findall(r"[^\n]*\n", body)  # one per newline-ended line (body ends in one)
        at = _after_future_imports(tree)
        framed = [line + "\n" for line in (HEADER_MARKER, *header, HEADER_END)]
        body = "".join(lines[:at] + framed + lines[at:])
    return body + "\n\n" + driver(call)


def driver_start(source: str) -> int | None:
    """The 1-based line of the last ``DRIVER_MARKER`` line of ``source``, None when it has no driver."""
    found = [n for n, line in enumerate(source.split("\n"), 1) if line.rstrip() == DRIVER_MARKER]
    return found[-1] if found else None


def judge_imports(tree: ast.Module) -> list[str]:
    """Import lines for the names ``tree`` uses but never binds that the judge's modules provide.

    A name is imported from the last of ``JUDGE_MODULES`` that exports it, as the
    harness's star imports bind it, except that ``collections`` wins over
    ``typing``'s aliases of its classes (``Counter``, ``OrderedDict``); a name that
    is one of the modules is imported as the module. Builtins are never imported;
    a name no module provides is left alone (running the program will say so).
    """
    by_module: dict[str, list[str]] = {}
    modules: list[str] = []
    exports = _exports()
    for name in sorted(_free_names(tree)):
        if name in JUDGE_MODULES:
            modules.append(name)
            continue
        owners = [m for m in JUDGE_MODULES if name in exports[m]]
        if owners:
            owner = "collections" if "collections" in owners else owners[-1]
            by_module.setdefault(owner, []).append(name)
    lines = [f"import {m}" for m in modules]
    return lines + [f"from {m} import {', '.join(names)}" for m, names in sorted(by_module.items())]


@cache
def _exports() -> dict[str, frozenset[str]]:
    """What ``from M import *`` binds for each judge module: its ``__all__``, else its public names."""
    found = {}
    for name in JUDGE_MODULES:
        module = importlib.import_module(name)
        public = getattr(module, "__all__", None) or [n for n in dir(module) if not n.startswith("_")]
        found[name] = frozenset(public)
    return found


def _free_names(tree: ast.Module) -> set[str]:
    """Names read somewhere in ``tree`` and bound nowhere in it (any scope), builtins excepted."""
    loaded: set[str] = set()
    bound: set[str] = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            (loaded if isinstance(node.ctx, ast.Load) else bound).add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            bound.add(node.name)
        elif isinstance(node, ast.alias):
            bound.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.arg):
            bound.add(node.arg)
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            bound.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bound.add(node.rest)
    return loaded - bound


def _after_future_imports(tree: ast.Module) -> int:
    """How many lines of the solution stay above the header: through its last leading ``from __future__``."""
    end = 0
    for stmt in tree.body:
        is_doc = stmt is tree.body[0] and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant)
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            end = stmt.end_lineno or stmt.lineno
        elif not is_doc:
            break
    return end
