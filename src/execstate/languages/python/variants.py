"""Source variants of a Python program that keep its meaning (issue 44): renamed identifiers and dead code.

Made with libcst, a concrete syntax tree, so every comment, blank line and layout of the program stays. Each
variant is a pure function of the source, the variant's name and a seed; whether it really keeps the program's
meaning is decided by running it (the builder's checks), never assumed here.

- ``rename``: every name the program binds in a module or function scope (variables, functions, parameters,
  classes, loop and ``with``/``except`` targets, comprehension variables) is renamed consistently, program-wide by
  name, to a neutral name (``v1``, ``f2``, ``C1``). Never renamed: builtins (even when the program rebinds one),
  imported names, dunder names, names bound in a class body (methods and class attributes are reached through
  attributes), attribute names, and a parameter name some call passes by keyword.
- ``mislead``: the same renaming to plausible but wrong names drawn, with the seed, from a fixed list
  (``MISLEADING``): a counter may be called ``maximum``, a list ``sorted_keys``; and up to three lines end in a
  comment stating a fact about the line that the program contradicts (``wrong_comments``).
- ``deadcode``: a few statements that never change the program's state, inserted at statement boundaries of
  function and module bodies (seeded): an unused constant computation, and a branch that can never be taken.
  Nothing is inserted into a loop's header or a class body, nor before a docstring or a ``__future__`` import.
"""

from __future__ import annotations

import ast
import builtins
import difflib
import keyword
import random
from typing import Any

import libcst as cst
from libcst.metadata import Assignment, ClassScope, MetadataWrapper, ScopeProvider

from execstate.languages._variants import VARIANTS, SourceVariant

MISLEADING = (
    "maximum",
    "minimum",
    "sorted_keys",
    "total",
    "count",
    "result",
    "visited",
    "index",
    "length",
    "average",
    "is_done",
    "prime",
    "parent",
    "depth",
    "left",
    "right",
    "distance",
    "cache",
    "queue",
    "stack",
    "width",
    "height",
    "offset",
    "limit",
    "score",
    "weight",
    "found",
    "first",
    "last",
    "step",
    "size",
    "key",
    "value",
    "memo",
    "answer",
    "target",
    "remaining",
    "best",
    "carry",
    "origin",
)
"""Plausible names a ``mislead`` variant draws from: each says something about a value it does not hold."""
MISLEADING_FUNCTIONS = (
    "binary_search",
    "merge_sort",
    "is_prime",
    "shortest_path",
    "count_vowels",
    "reverse_list",
    "flatten",
    "checksum",
    "normalize",
    "validate",
)
"""Plausible function names for a ``mislead`` variant."""
MISLEADING_CLASSES = ("Matrix", "Graph", "Cache", "Parser", "Counter2", "Vector", "Queue2", "Registry")
"""Plausible class names for a ``mislead`` variant."""

_BUILTINS = frozenset(dir(builtins))


def make_variant(source: str, name: str, seed: int) -> SourceVariant:
    """The ``name`` variant of ``source`` (one of ``VARIANTS``) drawn with ``seed``; ``ValueError`` for another name."""
    if name == "rename":
        return _renamed(source, name, seed, neutral=True)
    if name == "mislead":
        return _renamed(source, name, seed, neutral=False)
    if name == "deadcode":
        return _dead_code(source, seed)
    raise ValueError(f"unknown variant {name!r} (known: {', '.join(VARIANTS)})")


def _renamed(source: str, variant: str, seed: int, *, neutral: bool) -> SourceVariant:
    module = cst.parse_module(source)
    wrapper = MetadataWrapper(module)
    scopes = {s for s in wrapper.resolve(ScopeProvider).values() if s is not None}
    kinds: dict[str, str] = {}
    order: dict[str, tuple[int, int]] = {}
    refused: set[str] = _keyword_names(wrapper.module)
    positions = wrapper.resolve(cst.metadata.PositionProvider)
    for scope in scopes:
        for assignment in scope.assignments:
            name = assignment.name
            if isinstance(scope, ClassScope):
                refused.add(name)  # reached through attributes: never renamed, in any scope
                continue
            if not isinstance(assignment, Assignment) or _fixed(name):
                continue
            target = _bound_name(assignment.node, name)
            if target is None:
                refused.add(name)
                continue
            kinds.setdefault(name, _kind(assignment.node))
            at = positions[target].start
            order[name] = min(order.get(name, (at.line, at.column)), (at.line, at.column))
    names = sorted((n for n in kinds if n not in refused), key=lambda n: order[n])
    taken = _identifiers(module)
    mapping = _new_names(names, kinds, taken, seed, neutral=neutral)
    renamed = wrapper.module.visit(_Renamer(mapping))
    text = renamed.code if neutral else wrong_comments(renamed.code, seed)
    return SourceVariant(variant, seed, text, mapping, {i: i for i in range(1, source.count("\n") + 2)})


WRONG_COMMENTS = 3
"""How many lines a ``mislead`` variant gives a comment stating a wrong fact (fewer when fewer qualify)."""


def wrong_comments(source: str, seed: int) -> str:
    """``source`` with up to ``WRONG_COMMENTS`` lines (seeded) ending in a comment that the program's own text
    contradicts: ``# x is not used after this line`` on an assignment to ``x`` that a later line of the same
    function reads, or ``# this loop does not change x`` on the header of a loop whose body assigns ``x``. Only
    one-line statements without a comment (or a ``#`` in a string) get one; the lines stay where they were."""
    tree = ast.parse(source)
    lines = source.splitlines(keepends=True)
    claims: dict[int, str] = {}
    for scope in [tree, *(n for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)))]:
        own = _scope_nodes(scope)
        loads = [(n.lineno, n.id) for n in own if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]
        for node in own:
            if isinstance(node, ast.Assign) and node.lineno == node.end_lineno:
                names = [t.id for t in node.targets if isinstance(t, ast.Name)]
                if names and any(line > node.lineno and name == names[0] for line, name in loads):
                    claims.setdefault(node.lineno, f"{names[0]} is not used after this line")
            elif isinstance(node, (ast.For, ast.While)):
                assigned = [
                    t.id
                    for stmt in node.body
                    for sub in ast.walk(stmt)
                    if isinstance(sub, (ast.Assign, ast.AugAssign))
                    for t in (sub.targets if isinstance(sub, ast.Assign) else [sub.target])
                    if isinstance(t, ast.Name)
                ]
                if assigned:
                    claims.setdefault(node.lineno, f"this loop does not change {assigned[0]}")
    usable = sorted(
        line
        for line in claims
        if "#" not in lines[line - 1] and not lines[line - 1].rstrip("\r\n").endswith(("\\", ","))
    )
    chosen = sorted(random.Random(seed).sample(usable, min(WRONG_COMMENTS, len(usable))))
    for line in chosen:
        text = lines[line - 1]
        body = text.rstrip("\r\n")
        lines[line - 1] = f"{body}  # {claims[line]}" + text[len(body) :]
    return "".join(lines)


def _scope_nodes(scope: ast.AST) -> list[Any]:
    """The nodes of a module or function, nested functions' and classes' own nodes left out."""
    found: list[Any] = []
    pending = list(ast.iter_child_nodes(scope))
    while pending:
        node = pending.pop()
        found.append(node)
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            pending.extend(ast.iter_child_nodes(node))
    return found


def _fixed(name: str) -> bool:
    """Names a variant never renames: builtins, dunders and keywords."""
    return name in _BUILTINS or (name.startswith("__") and name.endswith("__")) or keyword.iskeyword(name)


def _bound_name(node: cst.CSTNode, name: str) -> cst.Name | None:
    """The ``Name`` node that binds ``name`` in an assignment's node (a def's or class's name, a parameter's)."""
    if isinstance(node, cst.Name):
        return node if node.value == name else None
    if isinstance(node, (cst.FunctionDef, cst.ClassDef)):
        return node.name if node.name.value == name else None
    if isinstance(node, cst.Param):
        return node.name if node.name.value == name else None
    return None


def _kind(node: cst.CSTNode) -> str:
    if isinstance(node, cst.FunctionDef):
        return "function"
    if isinstance(node, cst.ClassDef):
        return "class"
    return "variable"


def _keyword_names(module: cst.Module) -> set[str]:
    """Every name some call passes by keyword (``f(n=3)``): renaming a parameter of that name would break the call."""
    found: set[str] = set()

    class Visitor(cst.CSTVisitor):
        def visit_Arg(self, node: cst.Arg) -> None:
            if node.keyword is not None:
                found.add(node.keyword.value)

    module.visit(Visitor())
    return found


def _identifiers(module: cst.Module) -> set[str]:
    """Every identifier the program's text holds (names and attributes), so a new name collides with none."""
    found: set[str] = set()

    class Visitor(cst.CSTVisitor):
        def visit_Name(self, node: cst.Name) -> None:
            found.add(node.value)

    module.visit(Visitor())
    return found | _BUILTINS | set(keyword.kwlist)


def _new_names(names: list[str], kinds: dict[str, str], taken: set[str], seed: int, *, neutral: bool) -> dict[str, str]:
    """The new name of each of ``names`` (in order): neutral ``v1``/``f1``/``C1``, or drawn from the misleading
    lists with ``seed``; never a name the program or Python already uses, never one another name got."""
    rng = random.Random(seed)
    pools = {
        "variable": rng.sample(MISLEADING, len(MISLEADING)),
        "function": rng.sample(MISLEADING_FUNCTIONS, len(MISLEADING_FUNCTIONS)),
        "class": rng.sample(MISLEADING_CLASSES, len(MISLEADING_CLASSES)),
    }
    prefix = {"variable": "v", "function": "f", "class": "C"}
    used = set(taken)
    counters = {kind: 0 for kind in prefix}
    mapping: dict[str, str] = {}
    for name in names:
        kind = kinds[name]
        new = None
        if not neutral:
            pool = pools[kind]
            while pool and new is None:
                candidate = pool.pop(0)
                if candidate not in used and candidate != name:
                    new = candidate
        while new is None or new in used:
            counters[kind] += 1
            new = f"{prefix[kind]}{counters[kind]}" if neutral else f"{_fallback(kind)}_{counters[kind]}"
        used.add(new)
        mapping[name] = new
    return mapping


def _fallback(kind: str) -> str:
    return {"variable": "temp", "function": "helper", "class": "Node"}[kind]


class _Renamer(cst.CSTTransformer):
    """Renames every ``Name`` whose value ``mapping`` holds, except an attribute's name, a call's keyword and an
    imported name: the names in ``mapping`` are bound only in module and function scopes, so every other
    occurrence of one is a use of it (a comprehension's inner uses included, which scope analysis may miss)."""

    def __init__(self, mapping: dict[str, str]) -> None:
        super().__init__()
        self.mapping = mapping
        self.protected: set[int] = set()

    def visit_Attribute(self, node: cst.Attribute) -> None:
        self.protected.add(id(node.attr))

    def visit_Arg(self, node: cst.Arg) -> None:
        if node.keyword is not None:
            self.protected.add(id(node.keyword))

    def visit_ImportAlias(self, node: cst.ImportAlias) -> bool:
        return False

    def visit_ImportFrom(self, node: cst.ImportFrom) -> bool:
        return False

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.Name:
        if id(original) not in self.protected and original.value in self.mapping:
            return updated.with_changes(value=self.mapping[original.value])
        return updated


DEAD_STATEMENTS = 3
"""How many dead statements a ``deadcode`` variant inserts (fewer when the program has fewer boundaries)."""


def _dead_code(source: str, seed: int) -> SourceVariant:
    module = cst.parse_module(source)
    taken = _identifiers(module)
    rng = random.Random(seed)
    boundaries = _boundaries(module)
    chosen = sorted(rng.sample(range(len(boundaries)), min(DEAD_STATEMENTS, len(boundaries))))
    picks: dict[int, dict[int, list[cst.BaseStatement]]] = {}
    counter = [0]

    def fresh() -> str:
        while True:
            counter[0] += 1
            name = f"unused{counter[0]}"
            if name not in taken:
                taken.add(name)
                return name

    def dead(kind: int) -> list[cst.BaseStatement]:
        name = fresh()
        a, b = rng.randint(2, 9), rng.randint(2, 9)
        if kind % 2 == 0:  # an unused computation
            return [cst.parse_statement(f"{name} = {a} * {b} + {a}\n")]
        return [  # a branch that can never be taken
            cst.parse_statement(f"{name} = {a * b}\n"),
            cst.parse_statement(f"if {name} < 0:\n    {name} = -{name}\n"),
        ]

    for n, i in enumerate(chosen):  # numbered in the boundaries' order (the module's, then each function's)
        block, index = boundaries[i]
        picks.setdefault(id(block), {})[index] = dead(n)

    class Inserter(cst.CSTTransformer):
        def _insert(self, original: cst.CSTNode, updated: cst.CSTNode) -> cst.CSTNode:
            at = picks.get(id(original))
            if not at:
                return updated
            body = list(updated.body)  # type: ignore[attr-defined]
            for index in sorted(at, reverse=True):  # later boundaries first: the earlier indices stay right
                body[index:index] = at[index]
            return updated.with_changes(body=body)

        def leave_Module(self, original: cst.Module, updated: cst.Module) -> cst.Module:
            return self._insert(original, updated)  # type: ignore[return-value]

        def leave_IndentedBlock(self, original: cst.IndentedBlock, updated: cst.IndentedBlock) -> cst.IndentedBlock:
            return self._insert(original, updated)  # type: ignore[return-value]

    text = module.visit(Inserter()).code
    return SourceVariant("deadcode", seed, text, {}, _line_map(source, text))


def _boundaries(module: cst.Module) -> list[tuple[cst.CSTNode, int]]:
    """Where a statement may go: (a module or function body block, the index before which), the module's first,
    then each function's in the order they are defined; never before a docstring or ``from __future__`` import,
    never in a class body."""
    found: list[tuple[cst.CSTNode, int]] = []

    def add(block: cst.Module | cst.IndentedBlock, statements: list[cst.BaseStatement]) -> None:
        start = 0
        while start < len(statements) and _must_lead(statements[start]):
            start += 1
        found.extend((block, i) for i in range(start, len(statements) + 1))

    add(module, list(module.body))

    class Visitor(cst.CSTVisitor):
        def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
            if isinstance(node.body, cst.IndentedBlock):
                add(node.body, list(node.body.body))

    module.visit(Visitor())
    return found


def _must_lead(statement: cst.BaseStatement) -> bool:
    """A docstring or a ``from __future__`` import: nothing may be inserted before it."""
    if not isinstance(statement, cst.SimpleStatementLine) or not statement.body:
        return False
    first = statement.body[0]
    if isinstance(first, cst.Expr) and isinstance(first.value, (cst.SimpleString, cst.ConcatenatedString)):
        return True
    return (
        isinstance(first, cst.ImportFrom) and isinstance(first.module, cst.Name) and first.module.value == "__future__"
    )


def _line_map(before: str, after: str) -> dict[int, int]:
    """Each line of ``before`` -> its line in ``after``, which only inserted whole lines."""
    old, new = before.splitlines(), after.splitlines()
    mapping: dict[int, int] = {}
    for block in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_matching_blocks():
        for k in range(block.size):
            mapping[block.a + k + 1] = block.b + k + 1
    return mapping


__all__ = ["MISLEADING", "VARIANTS", "SourceVariant", "make_variant", "wrong_comments"]
