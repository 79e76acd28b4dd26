"""The lines a ``line-count`` task may mark in a Python program: one-line statements that open a branch's arm.

``branch_lines`` reads the program with ``ast`` (``LineCounting.branch_lines``). A line is offered only when
its count is plainly "how many times this arm was entered": the arm's first statement alone on its line,
not compound, not a ``pass`` or a bare constant (which the compiler may drop), and holding no code that runs
as a frame of its own (``lambda``, comprehensions, generator expressions).
"""

from __future__ import annotations

import ast
from collections import Counter
from typing import Literal

from execstate.languages._protocol import BranchLine, source_lines
from execstate.metrics import parse_python

_OWN_FRAMES = (ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_COMPOUND = (
    ast.If,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Match,
    *((ast.TryStar,) if hasattr(ast, "TryStar") else ()),
)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def branch_lines(source: str, loop_line: int) -> list[BranchLine]:
    """Every line a line count may mark in the body of the loop at ``loop_line``, in line order (see the module)."""
    tree = parse_python(source)
    loop = next(n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While)) and n.lineno == loop_line)
    starts = Counter(n.lineno for n in ast.walk(tree) if isinstance(n, ast.stmt))
    lines = source_lines(source)
    found: dict[int, BranchLine] = {}
    for branch in _branches(loop):
        if not _one_line(branch.test):
            continue
        arms: list[tuple[Literal["then", "else"], list[ast.stmt]]] = [("then", branch.body)]
        if branch.orelse and not _is_elif(branch, lines):
            arms.append(("else", branch.orelse))
        for arm, body in arms:
            first = body[0]
            if first.lineno != branch.lineno and starts[first.lineno] == 1 and _plain(first):
                found.setdefault(first.lineno, BranchLine(first.lineno, branch.lineno, arm))
    return [found[line] for line in sorted(found)]


def _branches(loop: ast.For | ast.While) -> list[ast.If]:
    """The ``if``/``elif`` statements in the loop's body (its ``else`` clause not included), nested loops' bodies
    included, nested functions and classes not (their lines run when called, not as the loop runs)."""
    found: list[ast.If] = []
    pending: list[ast.AST] = list(loop.body)
    while pending:
        node = pending.pop()
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, ast.If):
            found.append(node)
        pending.extend(ast.iter_child_nodes(node))
    return found


def _one_line(node: ast.AST) -> bool:
    return getattr(node, "lineno", 0) == getattr(node, "end_lineno", -1)


def _is_elif(branch: ast.If, lines: list[str]) -> bool:
    """True when ``branch``'s ``else`` part is an ``elif`` (an ``If`` of its own, counted as its own branch)."""
    if len(branch.orelse) != 1 or not isinstance(branch.orelse[0], ast.If):
        return False
    inner = branch.orelse[0]
    return lines[inner.lineno - 1].lstrip().startswith("elif")


def _plain(stmt: ast.stmt) -> bool:
    """A statement whose line runs once each time it runs: simple, on one line, nothing with a frame of its own."""
    if isinstance(stmt, (*_COMPOUND, ast.Pass)) or not _one_line(stmt):
        return False
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
        return False
    return not any(isinstance(n, _OWN_FRAMES) for n in ast.walk(stmt))


__all__ = ["branch_lines"]
