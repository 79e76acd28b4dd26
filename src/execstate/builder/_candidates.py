"""What the constructor may choose from in a program: its loops, and each loop's projection candidates.

SPEC section 5: the projection is drawn from the variables assigned in the
loop body or bound by its header. For each loop this module lists those names
with the two facts the preference order needs (whether the loop also reads
the name, and where the name is first assigned); the constructor then
measures which of them are JSON-representable and change between the
checkpoints. Python positions come from ``ast``, C++ positions from the same
tree-sitter parse the instrumentation uses.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from execstate.builder._cpp import (
    _KEYWORDS,
    _header_names,
    _init_names,
    _loop_headers,
    _parse,
    _text,
    _visible_names,
    _walk,
)
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


def cpp_loops(source: str) -> list[int]:
    """Header lines of every ``for``, range-``for``, ``while`` and ``do`` loop that starts a line alone."""
    _, root = _parse(source)
    return sorted(line for line, nodes in _loop_headers(root).items() if len(nodes) == 1)


_CPP_ASSIGN = ("assignment_expression", "update_expression")


def _cpp_base(node):
    """The variable an lvalue changes: ``a`` of ``a``, ``a[i]``, ``a.x``, ``(a)``; None for ``*p``."""
    while node is not None and node.type in ("subscript_expression", "field_expression", "parenthesized_expression"):
        node = node.child_by_field_name("argument") if node.type != "parenthesized_expression" else node.named_child(0)
    return node if node is not None and node.type == "identifier" else None


def cpp_candidates(source: str, loop_line: int) -> list[Candidate]:
    """Names the loop at ``loop_line`` changes (assignments, ``++``/``--``, mutating calls) that are in scope
    at both checkpoints: declared before the loop or by a ``for`` loop's init-statement (the post copy
    moves that declaration in front of the loop), not by a range-for element, a condition or the body."""
    data, root = _parse(source)
    loop = _loop_headers(root)[loop_line][0]
    init = set(_init_names(data, loop))
    visible = (_visible_names(data, root, loop) - set(_header_names(data, loop))) | init
    written: dict[str, tuple[int, int]] = {}
    loaded: set[str] = set()
    for n in _walk(loop):
        target = None
        if n.type == "assignment_expression":
            target = _cpp_base(n.child_by_field_name("left"))
            op = n.child_by_field_name("operator")
            if target is not None and op is not None and _text(data, op) != "=":
                loaded.add(_text(data, target))
        elif n.type == "update_expression":
            target = _cpp_base(n.child_by_field_name("argument"))
            if target is not None:
                loaded.add(_text(data, target))
        elif n.type == "call_expression":
            fn = n.child_by_field_name("function")
            if fn is not None and fn.type == "field_expression":
                field = fn.child_by_field_name("field")
                if field is not None and _text(data, field) in MUTATORS:
                    target = _cpp_base(fn.child_by_field_name("argument"))
                    if target is not None:
                        loaded.add(_text(data, target))
        elif n.type == "identifier":
            parent = n.parent
            left = parent.child_by_field_name("left") if parent is not None and parent.type in _CPP_ASSIGN[:1] else None
            if not (left is not None and left.id == n.id):
                loaded.add(_text(data, n))
        if target is not None:
            name = _text(data, target)
            if name in visible and name not in _KEYWORDS:
                written.setdefault(name, (target.start_point.row + 1, target.start_point.column))
    return [Candidate(name, name in loaded, pos) for name, pos in sorted(written.items(), key=lambda kv: kv[1])]
