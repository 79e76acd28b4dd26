"""What the constructor may choose from in a C++ program: its loops, and each loop's projection candidates.

The C++ side of ``_candidates.py`` (SPEC section 5), on the tree-sitter parse of ``syntax.py``:
the names a loop changes (assignments, ``++``/``--``, mutating calls) that are in scope at both
of its checkpoints. A loop written through a loop macro (``rep(i, n) {``) is read as the loop it
expands to (``syntax.program_view``), at its invocation's line, like the loop written out.
"""

from __future__ import annotations

from execstate.languages._candidates import MUTATORS, Candidate
from execstate.languages.cpp.syntax import (
    KEYWORDS,
    header_names,
    init_names,
    loop_headers,
    node_text,
    program_view,
    visible_names,
    walk,
)


def cpp_loops(source: str) -> list[int]:
    """Header lines of every ``for``, range-``for``, ``while`` and ``do`` loop that starts a line alone
    (a loop macro's invocation, ``rep(i, n)``, is one: its line is the header line)."""
    return sorted(line for line, nodes in loop_headers(program_view(source).root).items() if len(nodes) == 1)


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
    view = program_view(source)
    data, root = view.data, view.root
    loop = loop_headers(root)[loop_line][0]
    init = set(init_names(data, loop))
    visible = (visible_names(data, root, loop) - set(header_names(data, loop))) | init
    written: dict[str, tuple[int, int]] = {}
    loaded: set[str] = set()
    for n in walk(loop):
        target = None
        if n.type == "assignment_expression":
            target = _cpp_base(n.child_by_field_name("left"))
            op = n.child_by_field_name("operator")
            if target is not None and op is not None and node_text(data, op) != "=":
                loaded.add(node_text(data, target))
        elif n.type == "update_expression":
            target = _cpp_base(n.child_by_field_name("argument"))
            if target is not None:
                loaded.add(node_text(data, target))
        elif n.type == "call_expression":
            fn = n.child_by_field_name("function")
            if fn is not None and fn.type == "field_expression":
                field = fn.child_by_field_name("field")
                if field is not None and node_text(data, field) in MUTATORS:
                    target = _cpp_base(fn.child_by_field_name("argument"))
                    if target is not None:
                        loaded.add(node_text(data, target))
        elif n.type == "identifier":
            parent = n.parent
            left = parent.child_by_field_name("left") if parent is not None and parent.type in _CPP_ASSIGN[:1] else None
            if not (left is not None and left.id == n.id):
                loaded.add(node_text(data, n))
        if target is not None:
            name = node_text(data, target)
            if name in visible and name not in KEYWORDS:
                written.setdefault(name, view.clean_point(target.start_byte))  # where the program has it
    return [Candidate(name, name in loaded, pos) for name, pos in sorted(written.items(), key=lambda kv: kv[1])]
