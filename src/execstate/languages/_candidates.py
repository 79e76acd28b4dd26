"""What the constructor may choose from in a program: its loops, and each loop's projection candidates.

SPEC section 5: the projection is drawn from the variables assigned in the
loop body or bound by its header. For each loop this module lists those names
with the two facts the preference order needs (whether the loop also reads
the name, and where the name is first assigned); the constructor then
measures which of them are JSON-representable and change between the
checkpoints. Python positions come from ``ast`` (C++: ``cpp/candidates.py``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from execstate.metrics import parse_python

MUTATORS = frozenset(
    [
        "append",
        "extend",
        "insert",
        "pop",
        "popleft",
        "appendleft",
        "remove",
        "clear",
        "add",
        "discard",
        "update",
        "setdefault",
        "sort",
        "reverse",
        "push_back",
        "emplace_back",
        "pop_back",
        "push_front",
        "emplace_front",
        "pop_front",
        "emplace",
        "push",
        "erase",
        "assign",
        "resize",
        "swap",
    ]
)
"""Method names that change their receiver: ``xs.append(v)`` in a loop body counts as assigning ``xs``."""


@dataclass(frozen=True)
class Candidate:
    """One variable the constructor may project at a loop's checkpoints."""

    name: str
    read: bool
    """The loop (header or body) also reads the name, so its value carries from one iteration to the next."""
    first: tuple[int, int]
    """(line, column) of its first assignment in the loop (header first): the last tie-breaker."""


def python_loops(source: str) -> list[int]:
    """Header lines of every ``for``/``while`` statement, in order (comprehensions are not statements)."""
    tree = parse_python(source)
    return sorted({n.lineno for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))})


def _scope_walk(node: ast.AST):
    """Every node under ``node`` that runs in its scope: nested functions, classes and comprehensions stay out."""
    stack = list(ast.iter_child_nodes(node))
    while stack:
        n = stack.pop()
        if isinstance(
            n,
            (
                ast.FunctionDef,
                ast.AsyncFunctionDef,
                ast.Lambda,
                ast.ClassDef,
                ast.ListComp,
                ast.SetComp,
                ast.DictComp,
                ast.GeneratorExp,
            ),
        ):
            continue
        yield n
        stack.extend(ast.iter_child_nodes(n))


def _target_names(target: ast.AST) -> list[ast.Name]:
    """The variables an assignment target binds or changes: ``a``, ``a, b``, ``a[i]``, ``a.x``, ``*a``."""
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for t in target.elts for n in _target_names(t)]
    if isinstance(target, ast.Starred):
        return _target_names(target.value)
    if isinstance(target, (ast.Subscript, ast.Attribute)):
        base = target.value
        while isinstance(base, (ast.Subscript, ast.Attribute)):
            base = base.value
        return [base] if isinstance(base, ast.Name) else []
    return []


def python_candidates(source: str, loop_line: int) -> list[Candidate]:
    """Names the loop at ``loop_line`` binds in its header or assigns in its body, in first-assignment order."""
    tree = parse_python(source)
    loop = next(n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While)) and n.lineno == loop_line)
    written: dict[str, tuple[int, int]] = {}
    loaded: set[str] = set()

    def write(names: list[ast.Name]) -> None:
        for n in names:
            written.setdefault(n.id, (n.lineno, n.col_offset))

    if isinstance(loop, ast.For):
        write(_target_names(loop.target))
    nodes = sorted(_scope_walk(loop), key=lambda n: (getattr(n, "lineno", 0), getattr(n, "col_offset", 0)))
    for n in nodes:
        if isinstance(n, ast.Assign):
            for t in n.targets:
                write(_target_names(t))
        elif isinstance(n, (ast.AugAssign, ast.AnnAssign)) or (isinstance(n, ast.For) and n is not loop):
            write(_target_names(n.target))
            if isinstance(n, ast.AugAssign):
                loaded.update(x.id for x in _target_names(n.target))
        elif isinstance(n, ast.NamedExpr):
            write([n.target])
        elif isinstance(n, ast.withitem) and n.optional_vars is not None:
            write(_target_names(n.optional_vars))
        elif isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in MUTATORS:
            write(_target_names(n.func))
            loaded.update(x.id for x in _target_names(n.func))
        elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            loaded.add(n.id)
    return [Candidate(name, name in loaded, pos) for name, pos in sorted(written.items(), key=lambda kv: kv[1])]
