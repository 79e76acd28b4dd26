"""C++ syntax for checkpoints: a tree-sitter-cpp parse, the program's loops, and the scopes of its variables.

Positions come from the tree-sitter-cpp grammar, never from regexes on the text.
``resolve_loop_cpp`` finds the selected loop (a ``for``, range-``for``, ``while``
or ``do`` statement by its header line or text) and ``check_variables_cpp``
refuses a projection that cannot be shown at both checkpoints of it; both raise
``SpecProblem`` naming the spec key to fix. The instrumentation
(``instrument.py``) and the constructor's candidates (``candidates.py``) walk the
same parse with ``parse``, ``walk``, ``loop_at`` and the scope helpers;
``branch_lines_cpp`` finds the one-line statements in the arms of the loop's
branches that a ``line-count`` task may mark.

Loops written through the program's own function-like macros (``#define rep(i, n) for (int i = 0;
i < (n); ++i)``, a range-for ``each(x, v)``, a ``while``) are loops too: ``program_view`` gives
the program with every invocation of such a macro replaced by its expansion on the same line
(``ProgramView``), so the loop finder, the scopes and the candidates see the ``for`` statement
the compiler sees, at the invocation's line. The instrumentation edits that view and then puts
each invocation back as written (``ProgramView.invocations``) unless an edit falls inside it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

import tree_sitter
import tree_sitter_cpp

from execstate.errors import SpecProblem
from execstate.languages._protocol import BranchLine, line_of_text

LOOP_KINDS = {"for_statement": "for", "for_range_loop": "range-for", "while_statement": "while", "do_statement": "do"}
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_KEYWORD_TEXT = (
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t "
    "char32_t class compl concept const consteval constexpr constinit const_cast continue co_await "
    "co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern "
    "false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr "
    "operator or or_eq private protected public register reinterpret_cast requires return short signed "
    "sizeof static static_assert static_cast struct switch template this thread_local throw true try "
    "typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq"
)
KEYWORDS = frozenset(_KEYWORD_TEXT.split())
_LANGUAGE = tree_sitter.Language(tree_sitter_cpp.language())
Node = tree_sitter.Node


def parse(source: str) -> tuple[bytes, Node]:
    data = source.encode("utf-8")
    return data, tree_sitter.Parser(_LANGUAGE).parse(data).root_node  # a parser per call: thread-safe


def walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def node_text(data: bytes, node: Node) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def loop_headers(root: Node) -> dict[int, list[Node]]:
    headers: dict[int, list[Node]] = {}
    for n in walk(root):
        if n.type in LOOP_KINDS:
            headers.setdefault(n.start_point.row + 1, []).append(n)
    return headers


def _enclosing_function(node: Node) -> Node | None:
    found = None
    parent = node.parent
    while parent is not None:
        if parent.type in ("function_definition", "lambda_expression"):
            found = parent
        parent = parent.parent
    return found  # the outermost: a lambda or a macro-made "function" sits inside a real one


def loop_at(source: str, root: Node, loop_line: int) -> Node:
    headers = loop_headers(root)
    lines = source.split("\n")
    if loop_line not in headers:
        shown = lines[loop_line - 1].strip() if 0 < loop_line <= len(lines) else "<past the end of the file>"
        raise SpecProblem(
            "checkpoint.loop",
            f"line {loop_line} ({shown!r}) is not the header of a for/while/do loop (nor a loop macro's invocation)",
            f"point at one of the loop headers on lines {sorted(headers)}",
        )
    nodes = headers[loop_line]
    if len(nodes) > 1:
        raise SpecProblem(
            "checkpoint.loop",
            f"line {loop_line} starts {len(nodes)} loops, so the selected one is ambiguous",
            "put the selected loop's header on a line of its own",
        )
    node = nodes[0]
    # A statement the grammar cannot read elsewhere (`rep(i, n) x++;`, a macro) does not matter;
    # one inside the loop, or a loop inside an unreadable region, would misplace the insertions.
    broken = node.has_error
    parent = node.parent
    while parent is not None and not broken:
        broken = parent.type == "ERROR"
        parent = parent.parent
    if broken:
        first, last = node.start_point.row + 1, node.end_point.row + 1
        raise SpecProblem(
            "program",
            f"the C++ parser (tree-sitter-cpp) cannot read the loop on line {loop_line} (lines {first}-{last})",
            "check that the program compiles; a macro that hides braces or statements there cannot be instrumented",
        )
    return node


def resolve_loop_cpp(source: str, loop: int | None, loop_text: str | None) -> int:
    """Return the 1-based header line of the selected ``for``/range-``for``/``while``/``do`` loop.

    A loop's header line is the line its keyword (``for``, ``while``, ``do``) is on, or the line a
    loop macro's invocation (``rep(i, n)``) is on; ``loop_text`` is that line's exact text as
    written (``rep(i, n) {``) with surrounding spaces stripped, and must be unique in the file.
    """
    root = program_view(source).root
    lines = [line.rstrip("\r") for line in source.split("\n")]
    if loop_text is not None:
        loop = line_of_text(lines, loop_text)
    if loop is None:
        raise SpecProblem("checkpoint", "the checkpoint names no loop", "set `loop = <line>` or `loop_text`")
    loop_at(source, root, loop)
    return loop


# --- loop macros ----------------------------------------------------------------------------------

# Nodes whose whole text is one token for the macro scan (their insides are not identifiers).
_ATOMIC = frozenset(("string_literal", "raw_string_literal", "char_literal", "system_lib_string", "number_literal"))
# Preprocessor lines whose tokens are never macro invocations (a macro body is expanded where it is used).
_DIRECTIVES = frozenset(("preproc_def", "preproc_function_def", "preproc_call", "preproc_include"))
_CONTINUATION = re.compile(r"\\\r?\n")
_MAX_CHAIN = 8


def _tokens(node: Node) -> list[Node]:
    """The program's tokens in order: leaves (and literals whole), without comments, zero-width
    (missing) nodes, directive lines (``#define``, ``#undef``, ...) and ``#if`` conditions."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type == "comment" or n.type in _DIRECTIVES or n.start_byte == n.end_byte:
            continue
        if n.type in _ATOMIC or n.child_count == 0:
            out.append(n)
            continue
        skip = None
        if n.type in ("preproc_if", "preproc_elif", "preproc_ifdef", "preproc_elifdef"):
            skip = n.child_by_field_name("condition") or n.child_by_field_name("name")
        stack.extend(c for c in reversed(n.children) if skip is None or c.id != skip.id)
    return out


def _close(texts: list[str], open_at: int) -> int | None:
    """Index of the ``)`` matching the ``(`` at ``open_at`` (the preprocessor counts parentheses only)."""
    depth = 0
    for i in range(open_at, len(texts)):
        depth += {"(": 1, ")": -1}.get(texts[i], 0)
        if depth == 0:
            return i
    return None


def _split_args(texts: list[str], first: int, stop: int) -> list[tuple[int, int]]:
    """``(start, stop)`` token ranges of the macro arguments in ``texts[first:stop]`` (commas at depth 0)."""
    ranges, depth, start = [], 0, first
    for i in range(first, stop):
        depth += {"(": 1, ")": -1}.get(texts[i], 0)
        if texts[i] == "," and depth == 0:
            ranges.append((start, i))
            start = i + 1
    ranges.append((start, stop))
    return ranges


_Tokens = tuple[tuple[str, bool], ...]
"""A token sequence as ``(text, preceded by a blank or comment)``."""


def _sequence(data: bytes, tokens: list[Node]) -> _Tokens:
    return tuple((node_text(data, t), i > 0 and t.start_byte > tokens[i - 1].end_byte) for i, t in enumerate(tokens))


def _merges(left: str, right: str) -> bool:
    """Written side by side, would the two tokens read as one (``-`` ``-1``, ``a`` ``b``)?"""
    word = lambda c: c.isalnum() or c == "_"
    ops = "+-*/%<>=!&|^~.:?#"
    return (word(left) and word(right)) or (left in ops and right in ops)


def _render(tokens: _Tokens, args: dict[str, str]) -> str:
    """The token sequence as one line of text, each parameter replaced by its argument's text."""
    out = ""
    for text, blank in tokens:
        piece = args.get(text, text) if IDENT.match(text) else text
        if not piece:
            continue
        if out and (blank or _merges(out[-1], piece[0])):
            out += " "
        out += piece
    return out


@dataclass(frozen=True)
class LoopMacro:
    """A function-like macro whose body is a loop header, e.g. ``#define rep(i, n) for (int i = 0; i < (n); ++i)``.

    ``tokens`` is the body's token sequence: a ``for``/range-``for``/``while`` header without its
    statement, or (``target`` set) one invocation of another loop macro (``#define rep(i, n)
    FOR(i, 0, n)``) whose arguments are ``target_args``.
    """

    name: str
    params: tuple[str, ...]
    tokens: _Tokens
    defined_at: int
    """Byte offset where the ``#define`` ends: only invocations after it are expanded."""
    target: str | None = None
    target_args: tuple[_Tokens, ...] = ()


def _loop_macro(data: bytes, node: Node) -> LoopMacro | None:
    """The ``#define`` at ``node`` as a ``LoopMacro``, or None if its body is not one loop header
    (variadic macros, ``#``/``##`` in the body and anything after the header are not)."""
    name, params, value = (node.child_by_field_name(f) for f in ("name", "parameters", "value"))
    if name is None or params is None or value is None:
        return None
    names = tuple(node_text(data, c) for c in params.named_children)
    if any(c.type != "identifier" for c in params.named_children) or "..." in node_text(data, params):
        return None  # variadic
    body = _CONTINUATION.sub(" ", node_text(data, value))
    if "#" in body:
        return None
    head = "void _f() {\n"
    wrapper = (head + body + "\n{}\n}\n").encode("utf-8")  # the statement on a line of its own: after a `//`
    root = tree_sitter.Parser(_LANGUAGE).parse(wrapper).root_node
    start, stop = len(head.encode("utf-8")), len((head + body).encode("utf-8"))
    tokens = [t for t in _tokens(root) if start <= t.start_byte and t.end_byte <= stop]
    seq = _sequence(wrapper, tokens)
    if not tokens:
        return None
    function = root.named_children[0] if root.named_child_count == 1 else None
    block = function.child_by_field_name("body") if function is not None else None
    stmts = [c for c in block.named_children if c.type != "comment"] if block is not None else []
    loop = stmts[0] if len(stmts) == 1 and stmts[0].type in LOOP_KINDS and stmts[0].type != "do_statement" else None
    inner = loop.child_by_field_name("body") if loop is not None else None
    if not root.has_error and inner is not None and inner.type == "compound_statement" and inner.start_byte >= stop:
        return LoopMacro(node_text(data, name), names, seq, node.end_byte)
    texts = [t for t, _ in seq]
    if (
        len(texts) >= 3
        and IDENT.match(texts[0])
        and texts[0] not in KEYWORDS
        and texts[1] == "("
        and _close(texts, 1) == len(texts) - 1
    ):
        args = tuple(seq[a:b] for a, b in _split_args(texts, 2, len(texts) - 1))
        return LoopMacro(node_text(data, name), names, seq, node.end_byte, texts[0], args)
    return None


def _expand(macros: dict[str, LoopMacro], name: str, args: list[str], at: int, depth: int = 0) -> str | None:
    """The loop header an invocation of ``name`` with ``args`` at byte ``at`` expands to, or None."""
    macro = macros.get(name)
    if macro is None or macro.defined_at > at or depth > _MAX_CHAIN:
        return None
    if len(args) != len(macro.params) and not (not macro.params and args == [""]):
        return None
    bound = dict(zip(macro.params, args))
    if macro.target is None:
        return _render(macro.tokens, bound)
    return _expand(macros, macro.target, [_render(a, bound) for a in macro.target_args], at, depth + 1)


def loop_macros(data: bytes, root: Node) -> dict[str, LoopMacro]:
    """The program's loop macros by name. A name defined more than once differently (``#ifdef LOCAL``
    variants) or ``#undef``-ed is left out: which definition an invocation sees is not certain."""
    found: dict[str, list[LoopMacro | None]] = {}
    undefined: set[str] = set()
    for n in walk(root):
        if n.type in ("preproc_def", "preproc_function_def"):
            name = n.child_by_field_name("name")
            if name is not None:
                macro = _loop_macro(data, n) if n.type == "preproc_function_def" else None
                found.setdefault(node_text(data, name), []).append(macro)
        elif n.type == "preproc_call":
            directive, arg = n.child_by_field_name("directive"), n.child_by_field_name("argument")
            if directive is not None and arg is not None and node_text(data, directive) == "#undef":
                undefined.add(node_text(data, arg).strip())
    macros: dict[str, LoopMacro] = {}
    for macro_name, defs in found.items():
        first = defs[0]
        if (
            macro_name not in undefined
            and first is not None
            and all(d is not None and (d.params, d.tokens) == (first.params, first.tokens) for d in defs)
        ):
            macros[macro_name] = first
    return macros


@dataclass(frozen=True)
class MacroInvocation:
    """One loop macro invocation (``rep(i, n)``): its bytes in the program and its expansion in the view."""

    start: int
    end: int
    view_start: int
    view_end: int
    text: bytes
    """The invocation as written (``rep(i, n)``)."""
    expansion: bytes
    """What the view holds instead (``for (int i = 0; i < (n); ++i)``)."""


@dataclass(frozen=True)
class ProgramView:
    """The program as the loop finder reads it: each loop macro invocation replaced by its expansion.

    Every invocation sits on one line and so does its expansion, so the view has the program's
    lines, each loop at its line; byte offsets and columns differ only after an expansion on its
    line. Without loop macros the view is the program itself (``source`` is the same string).
    """

    source: str
    data: bytes
    root: Node
    program: bytes
    """The program's own bytes (``data`` when there are no invocations)."""
    invocations: tuple[MacroInvocation, ...] = ()

    def clean_offset(self, offset: int) -> int:
        """The program's byte offset for the view's ``offset`` (inside an expansion: the invocation's start)."""
        shift = 0
        for inv in self.invocations:
            if offset < inv.view_start:
                break
            if offset < inv.view_end:
                return inv.start
            shift = inv.view_end - inv.end
        return offset - shift

    def clean_point(self, offset: int) -> tuple[int, int]:
        """``(line, column)``, 1-based line and 0-based byte column, in the program of the view's ``offset``."""
        clean = self.clean_offset(offset)
        return self.program.count(b"\n", 0, clean) + 1, clean - (self.program.rfind(b"\n", 0, clean) + 1)


def program_view(source: str) -> ProgramView:
    """The program with each invocation of its loop macros (``LoopMacro``) replaced by the expansion.

    An invocation is the macro's name followed by its parenthesised arguments, on one line, after
    the ``#define`` (outside directives, comments and literals); its expansion is the macro's loop
    header with each parameter replaced by the argument's text, as the preprocessor does.
    """
    data, root = parse(source)
    macros = loop_macros(data, root)
    if not macros:
        return ProgramView(source, data, root, data)
    tokens = _tokens(root)
    texts = [data[t.start_byte : t.end_byte].decode("utf-8", "replace") for t in tokens]
    invocations: list[MacroInvocation] = []
    out, cursor, i = bytearray(), 0, 0
    while i < len(tokens):
        close = _close(texts, i + 1) if texts[i] in macros and i + 1 < len(tokens) and texts[i + 1] == "(" else None
        if close is None:
            i += 1
            continue
        start, end = tokens[i].start_byte, tokens[close].end_byte
        spans = [(tokens[a].start_byte, tokens[b - 1].end_byte) if b > a else None
                 for a, b in _split_args(texts, i + 2, close)]  # fmt: skip
        args = ["" if s is None else data[s[0] : s[1]].decode("utf-8") for s in spans]
        one_line = tokens[i].start_point.row == tokens[close].end_point.row
        expansion = _expand(macros, texts[i], args, start) if one_line and b"/*" not in data[start:end] else None
        if expansion is None:
            i += 1
            continue
        out += data[cursor:start]
        encoded = expansion.encode("utf-8")
        invocations.append(MacroInvocation(start, end, len(out), len(out) + len(encoded), data[start:end], encoded))
        out += encoded
        cursor, i = end, close + 1
    if not invocations:
        return ProgramView(source, data, root, data)
    out += data[cursor:]
    view_data = bytes(out)
    view_root = tree_sitter.Parser(_LANGUAGE).parse(view_data).root_node
    return ProgramView(view_data.decode("utf-8"), view_data, view_root, data, tuple(invocations))


def expand_loop_macros(source: str) -> str:
    """The program with its loop macro invocations expanded (``ProgramView.source``): the same lines,
    each macro loop written out, e.g. for a token-based metric that should count it as a loop."""
    return program_view(source).source


# --- branch arms (line counts) ------------------------------------------------------------------

# Code inside the loop's body that does not run as the body's own statements (it runs when called).
_NESTED_CODE = frozenset(("lambda_expression", "field_declaration_list"))
_BRACES = frozenset((b"{", b"}"))


def _is_statement(node: Node) -> bool:
    return node.type.endswith("_statement") or node.type in LOOP_KINDS or node.type == "declaration"


def _arms(if_node: Node) -> list[tuple[Literal["then", "else"], Node]]:
    """The arms of an ``if`` statement and their statements; an ``else if``'s inner ``if`` is no arm."""
    arms: list[tuple[Literal["then", "else"], Node]] = []
    then = if_node.child_by_field_name("consequence")
    if then is not None:
        arms.append(("then", then))
    alternative = if_node.child_by_field_name("alternative")
    if alternative is not None:
        inner = [c for c in alternative.named_children if c.type != "comment"]
        if len(inner) == 1 and inner[0].type != "if_statement":
            arms.append(("else", inner[0]))
    return arms


def _first_statement(arm: Node) -> Node | None:
    """The first statement an arm runs: the first of a ``{...}`` block, or the arm's one statement."""
    if arm.type != "compound_statement":
        return arm
    first = next((c for c in arm.named_children if c.type != "comment"), None)
    return first if first is not None and _is_statement(first) else None


def _alone_on_its_line(data: bytes, stmt: Node, leaves: dict[int, list[Node]]) -> bool:
    """Whether ``stmt`` is a one-line statement that is not a loop, holds no other statement and no lambda,
    and shares its line with nothing but comments and braces."""
    row = stmt.start_point.row
    if row != stmt.end_point.row or stmt.type in LOOP_KINDS or stmt.has_error:
        return False
    if stmt.type == "expression_statement" and stmt.named_child_count == 0:
        return False  # the empty statement `;`: no code of its own to count
    inside = walk(stmt)
    next(inside)  # the statement itself
    if any(_is_statement(n) or n.type == "lambda_expression" for n in inside):
        return False
    return all(
        stmt.start_byte <= leaf.start_byte < stmt.end_byte
        or leaf.type == "comment"
        or data[leaf.start_byte : leaf.end_byte] in _BRACES
        for leaf in leaves.get(row, [])
    )


def _leaves_by_row(root: Node) -> dict[int, list[Node]]:
    """The parse's tokens (leaves), each under the rows it starts and ends on."""
    rows: dict[int, list[Node]] = {}
    for n in walk(root):
        if n.child_count == 0 and n.start_byte < n.end_byte:
            for row in {n.start_point.row, n.end_point.row}:
                rows.setdefault(row, []).append(n)
    return rows


def branch_lines_cpp(source: str, loop_line: int) -> list[BranchLine]:
    """The lines a line count may mark inside the body of the loop at ``loop_line`` (``LineCounting.branch_lines``).

    For each ``if`` statement of the body (nested loops' bodies included; not inside a lambda or a local
    class, whose code runs when called, nor an ``if constexpr``, decided at compile time) whose condition
    lies on one line, each arm (``then``: the consequence; ``else``: the alternative unless it is an
    ``else if``, whose ``if`` is a branch of its own) gives the line of its first statement (of a ``{...}``
    block, or the arm's one statement) when that statement starts and ends on the line, is not a loop, holds
    no other statement and no lambda, and shares its line with nothing but braces and comments (so
    ``if (c) x++;`` on one line gives nothing). ``branch_line`` is the condition's line. Sorted by line.
    Lines are the program's own: a loop macro's invocation is read as its expansion on the same line.
    """
    view = program_view(source)
    loop = loop_at(source, view.root, loop_line)
    body = loop.child_by_field_name("body")
    leaves = _leaves_by_row(view.root)
    found: dict[int, BranchLine] = {}
    for node in walk(body) if body is not None else iter(()):
        if node.type != "if_statement" or _within(node, body, _NESTED_CODE):
            continue
        cond = node.child_by_field_name("condition")
        constexpr = any(c.type == "constexpr" for c in node.children)
        if cond is None or constexpr or cond.has_error or cond.start_point.row != cond.end_point.row:
            continue
        for arm, stmt in _arms(node):
            first = _first_statement(stmt)
            if first is not None and _alone_on_its_line(view.data, first, leaves):
                line = first.start_point.row + 1
                found.setdefault(line, BranchLine(line, cond.start_point.row + 1, arm))
    return [found[line] for line in sorted(found)]


def _within(node: Node, top: Node | None, kinds: frozenset[str]) -> bool:
    """Whether a node of one of ``kinds`` lies between ``node`` and its ancestor ``top``."""
    parent = node.parent
    while parent is not None and (top is None or parent.id != top.id):
        if parent.type in kinds:
            return True
        parent = parent.parent
    return False


# --- scopes -------------------------------------------------------------------------------------

_DECLARATOR_WRAPPERS = (
    "init_declarator",
    "pointer_declarator",
    "reference_declarator",
    "array_declarator",
    "function_declarator",  # `vector<int> v(n);` parses as a function declaration: accept the name
    "attributed_declarator",
    "parenthesized_declarator",
)


def _declarator_names(data: bytes, node: Node | None) -> list[str]:
    if node is None:
        return []
    if node.type in ("identifier", "field_identifier"):
        return [node_text(data, node)]
    if node.type == "structured_binding_declarator":
        return [node_text(data, c) for c in node.named_children if c.type == "identifier"]
    if node.type in _DECLARATOR_WRAPPERS:
        inner = node.child_by_field_name("declarator")
        if inner is None:
            inner = next((c for c in node.named_children if c.type != "comment"), None)
        return _declarator_names(data, inner)
    return []


def _declared(data: bytes, node: Node | None) -> list[str]:
    """Names a declaration (``int a, *b = 0, c[3];``, a parameter, a field) introduces."""
    if node is None:
        return []
    if node.type in ("init_statement", "template_declaration"):
        return [n for c in node.named_children for n in _declared(data, c)]
    if node.type not in (
        "declaration",
        "field_declaration",
        "parameter_declaration",
        "optional_parameter_declaration",
        "variadic_parameter_declaration",
    ):
        return []
    return [n for i, c in enumerate(node.children) if node.field_name_for_child(i) == "declarator"
            for n in _declarator_names(data, c)]  # fmt: skip


def _block_names(data: bytes, nodes: list[Node]) -> list[str]:
    """Declarations among the statements ``nodes`` (looking into preprocessor blocks and case labels)."""
    names: list[str] = []
    for c in nodes:
        if c.type in ("declaration", "template_declaration"):
            names += _declared(data, c)
        elif c.type.startswith("preproc_") or c.type == "case_statement":
            names += _block_names(data, c.named_children)
    return names


def _namespace_names(data: bytes, nodes: list[Node]) -> list[str]:
    """Declarations at namespace scope, looking into namespaces, extern "C" and preprocessor blocks."""
    names: list[str] = []
    for c in nodes:
        if c.type in ("declaration", "template_declaration"):
            names += _declared(data, c)
        elif c.type in ("namespace_definition", "linkage_specification"):
            body = c.child_by_field_name("body")
            if body is not None:
                names += _namespace_names(data, body.named_children if body.type == "declaration_list" else [body])
        elif c.type.startswith("preproc_"):
            names += _namespace_names(data, c.named_children)
    return names


def _class_members(data: bytes, root: Node, function: Node) -> list[str]:
    """Fields of the class a member function belongs to (defined in its body, or as ``C::f``)."""
    bodies: list[Node] = []
    if function.parent is not None and function.parent.type == "field_declaration_list":
        bodies.append(function.parent)
    else:
        declarator = function.child_by_field_name("declarator")
        while declarator is not None and declarator.type != "function_declarator":
            declarator = declarator.child_by_field_name("declarator")
        name = declarator.child_by_field_name("declarator") if declarator is not None else None
        if name is not None and name.type == "qualified_identifier":
            scope = name.child_by_field_name("scope")
            owner = node_text(data, scope).split("<")[0] if scope is not None else ""
            for n in walk(root):
                if n.type in ("class_specifier", "struct_specifier", "union_specifier"):
                    cname, body = n.child_by_field_name("name"), n.child_by_field_name("body")
                    if cname is not None and body is not None and node_text(data, cname) == owner:
                        bodies.append(body)
    return [name for body in bodies for c in body.named_children for name in _declared(data, c)]


def _parameters(data: bytes, declarator: Node | None) -> list[str]:
    while declarator is not None and declarator.type not in ("function_declarator", "abstract_function_declarator"):
        declarator = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    return [n for c in (params.named_children if params is not None else []) for n in _declared(data, c)]


def header_names(data: bytes, loop: Node) -> list[str]:
    """Names the loop's own header declares (for-init, range-for element, a condition declaration)."""
    names: list[str] = []
    if loop.type == "for_statement":
        names += _declared(data, loop.child_by_field_name("initializer"))
    elif loop.type == "for_range_loop":
        names += _declarator_names(data, loop.child_by_field_name("declarator"))
        names += _declared(data, loop.child_by_field_name("initializer"))
    elif loop.type == "while_statement":
        cond = loop.child_by_field_name("condition")
        if cond is not None:
            names += _declared(data, cond.child_by_field_name("value"))
            names += _declared(data, cond.child_by_field_name("initializer"))
    return names


def init_names(data: bytes, loop: Node) -> list[str]:
    """Names a classic ``for`` loop's init-statement declares (``for (int i = 0; ...)``).

    Unlike the other header names these can be projected: the post copy moves that declaration
    into the block it wraps the loop in, so the names are still in scope at the loop's exit.
    """
    if loop.type != "for_statement":
        return []
    return _declared(data, loop.child_by_field_name("initializer"))


def visible_names(data: bytes, root: Node, loop: Node) -> set[str]:
    """Variables in scope at the loop statement (before its header), from the enclosing scopes.

    Deliberately generous where C++ is hard to see through (a function-style declaration, a member
    of a class, a macro block): the compiler is the final judge; this check catches the common
    mistakes (a name declared in the loop, after it, or in a sibling block) with a clear message.
    """
    visible: set[str] = set()
    allowed: set[str] | None = None  # inside a lambda without default capture: its captures only
    in_function = True
    child, node = loop, loop.parent

    def add_local(names: list[str]) -> None:
        visible.update(n for n in names if allowed is None or n in allowed)

    while node is not None:
        kind = node.type
        before = [c for c in node.named_children if c.end_byte <= child.start_byte]
        if kind in ("translation_unit", "declaration_list") or (not in_function and kind.startswith("preproc_")):
            visible.update(_namespace_names(data, before))
        elif kind == "field_declaration_list":
            visible.update(n for c in node.named_children for n in _declared(data, c))
        elif not in_function:
            pass
        elif kind in ("compound_statement", "case_statement") or kind.startswith("preproc_"):
            add_local(_block_names(data, before))
        elif kind in ("for_statement", "for_range_loop", "while_statement"):
            add_local(header_names(data, node))
        elif kind in ("if_statement", "switch_statement"):
            cond = node.child_by_field_name("condition")
            if cond is not None:
                add_local(_declared(data, cond.child_by_field_name("initializer")))
                add_local(_declared(data, cond.child_by_field_name("value")))
        elif kind == "catch_clause":
            params = node.child_by_field_name("parameters")
            add_local([n for c in (params.named_children if params else []) for n in _declared(data, c)])
        elif kind == "lambda_expression":
            add_local(_parameters(data, node.child_by_field_name("declarator")))
            captures = node.child_by_field_name("captures")
            items = captures.named_children if captures is not None else []
            if not any(c.type == "lambda_default_capture" for c in items):
                own: set[str] = set()
                for c in items:
                    target = c.child_by_field_name("left") if c.type == "lambda_capture_initializer" else c
                    if target is not None and target.type == "identifier":
                        own.add(node_text(data, target))
                add_local(sorted(own))
                allowed = own if allowed is None else allowed & own
        elif kind == "function_definition":
            if node.parent is not None and node.parent.type == "compound_statement":
                # A macro call with a block (`rep(i, n) { ... }`) parses as a nested function: its
                # arguments may be the names the macro declares.
                params = node.child_by_field_name("declarator")
                add_local([node_text(data, n) for n in walk(params) if n.type in ("identifier", "type_identifier")]
                          if params is not None else [])  # fmt: skip
            else:
                add_local(_parameters(data, node.child_by_field_name("declarator")))
                visible.update(_class_members(data, root, node))
                in_function = False
        child, node = node, node.parent
    return visible


def check_variables_cpp(source: str, loop_line: int, variables: tuple[str, ...]) -> None:
    """Refuse a projection that cannot be shown at both checkpoints of the loop at ``loop_line``.

    Each name must be a variable declared, and in scope, where the loop statement starts:
    a local of an enclosing block declared before the loop, a parameter, a class member, or a
    global declared before the function; or one a classic ``for`` loop's init-statement declares
    (``for (int i = 0; ...)``: the post copy moves that declaration in front of the loop, see
    ``instrument_cpp``). A range-for element or a condition variable is refused: it does not
    exist after the loop, at the post checkpoint. So is a variable declared in the loop body
    (not in scope at the top of an iteration).
    """
    view = program_view(source)
    data, root = view.data, view.root
    loop = loop_at(source, root, loop_line)
    bad = [v for v in variables if not IDENT.match(v) or v in KEYWORDS]
    if bad:
        raise SpecProblem(
            "checkpoint.variables",
            f"{', '.join(map(repr, bad))} {'is' if len(bad) == 1 else 'are'} not a C++ variable name",
            "project plain variable names (no expressions, members or indexing)",
        )
    twice = sorted({v for v in variables if variables.count(v) > 1})
    if twice:
        raise SpecProblem("checkpoint.variables", f"{', '.join(twice)} listed twice", "list each variable once")
    init = set(init_names(data, loop))
    header = set(header_names(data, loop)) - init
    for v in variables:
        if v in header:
            kind = "range-for element" if loop.type == "for_range_loop" else "condition variable"
            raise SpecProblem(
                "checkpoint.variables",
                f"{v!r} is the {kind} of the loop on line {loop_line}: it does not exist after the loop, so "
                "the post checkpoint cannot show it",
                "project variables declared before the loop (copy the value into one if it matters)",
            )
    visible = visible_names(data, root, loop) | init
    missing = [v for v in variables if v not in visible]
    if missing:
        body = loop.child_by_field_name("body")
        inner = {n for c in (walk(body) if body is not None else iter(())) for n in _declared(data, c)}
        parts = [f"{v!r} (declared inside the loop body)" if v in inner else repr(v) for v in missing]
        scope = _enclosing_function(loop)
        unread = ""
        if scope is not None and scope.has_error:
            unread = " (the C++ parser could not read every statement of the enclosing function; a declaration in an "
            unread += "unreadable statement, e.g. inside a macro call, is not seen)"
        raise SpecProblem(
            "checkpoint.variables",
            f"no variable {', '.join(parts)} is in scope at the loop on line {loop_line}{unread}",
            "project variables declared before the loop in an enclosing scope (locals, parameters, globals)",
        )
