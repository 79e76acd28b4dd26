"""Cyclomatic complexity of a Python source file under mccabe's graph convention (SPEC section 6)."""

from __future__ import annotations

import ast

from execstate.metrics._ast import parse_python


def cyclomatic(source: str) -> int:
    """``1 + sum over graphs of (E - N + 2 - 1)`` with mccabe's graphs; raises SyntaxError on bad source.

    mccabe (0.7) makes one graph per top-level function or method, and one per
    ``if``/loop/``try`` statement that is not inside a function ("the module
    body" of SPEC 6, split at its decisions). Within a graph each ``if`` or
    ``elif``, ``for``, ``while`` (``async`` too) adds 1; a ``try`` adds its number
    of ``except`` handlers plus 1; a function or method nested in a graph adds 1.
    As in mccabe, boolean operators, conditional expressions, comprehensions,
    ``assert``, ``match`` and ``try ... except*`` add nothing, and statements
    under ``finally``, ``match`` or ``except*`` are not looked at. A graph's
    value minus 1 is the number of its decisions, so the file's value is
    1 + all decisions.
    """
    tree = parse_python(source)
    return 1 + _decisions(tree.body, in_graph=False)


def _decisions(body: list[ast.stmt], in_graph: bool) -> int:
    return sum(_statement(node, in_graph) for node in body)


def _statement(node: ast.stmt, in_graph: bool) -> int:
    """Decisions a statement adds; mirrors mccabe.PathGraphingAstVisitor."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return (1 if in_graph else 0) + _decisions(node.body, in_graph=True)
    if isinstance(node, ast.ClassDef):
        return _decisions(node.body, in_graph)
    if isinstance(node, (ast.If, ast.For, ast.AsyncFor, ast.While)):
        return 1 + _decisions(node.body, True) + _decisions(node.orelse, True)
    if isinstance(node, ast.Try):
        handlers = sum(_decisions(h.body, True) for h in node.handlers)
        return 1 + len(node.handlers) + _decisions(node.body, True) + handlers + _decisions(node.orelse, True)
    if isinstance(node, (ast.With, ast.AsyncWith)):
        return _decisions(node.body, in_graph)
    return 0
