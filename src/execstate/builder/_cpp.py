"""C++ checkpoint instrumentation: readable whole-line insertions placed by a tree-sitter C++ parse.

The C++ counterpart of ``_python.py`` (same modes, same ``Instrumented`` result, same
``AnchorError``), plus an ``observe`` mode for the state metrics. Positions come from the
tree-sitter-cpp grammar, never from regexes on the text. Only whole lines are inserted, except
the minimal splitting C++ needs: a brace-less loop body gets braces (``{`` after the header,
``}`` after the body), and a loop or body that shares its line with other code is split onto
its own line. Comments and layout of the clean source are kept. Every inserted name starts with
a prefix that occurs nowhere in the program's text.

The instrumented copy ``#include``s ``execstate_emit.hpp`` (``HEADER_PATH``; compile with
``-I HEADER_PATH.parent`` or copy it next to the source), first of all, before the program's own
lines (after only leading comments and configuration macros such as ``_GLIBCXX_DEBUG``), so the
program's macros (``#define int long long``) cannot change it. The header documents the JSON of
each type, the refusal markers and the ``observe`` format.

Modes (``k`` is the selected iteration, counted cumulatively over the whole run):
- ``inside``: output silenced at start-up (fd 1 -> /dev/null); at the top of iteration ``k``,
  before the body runs (a ``for`` header's increment and condition and a range-for's element
  binding have run), the projection is written as one canonical JSON line to the real stdout and
  the program ends with ``std::exit(0)`` (so a ``--coverage`` build writes its counts).
- ``post``: the loop statement is wrapped in a block holding a local flag, set when iteration
  ``k`` starts in that loop execution; right after the loop (normal exit or ``break``) the
  projection is emitted if the flag is set. Leaving by ``return``, ``goto``, an exception or
  ``exit()`` never reaches it: the program ends without emitting (``reachability`` excludes it).
  When the projection names a variable a ``for`` loop's init-statement declares, that declaration
  moves, unchanged, in front of the loop inside the block (the header keeps its ``;``): the one
  edit of clean text besides the splits above, so the variable is in scope at the exit.
- ``count``: no silencing, no checkpoint; at exit ``\\n__execstate_iterations__=K\\n`` on stderr.
- ``observe``: no silencing, no checkpoint; the slots of the projection at the top of every
  iteration, and each loop exit, on stderr (format: ``parse_slots``).

``active=False`` gives the preservation variant (inside/post): identical to the task source
except the one guard constant, so nothing fires and output is not silenced.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import tree_sitter
import tree_sitter_cpp

from execstate.builder._python import COUNT_MARKER, AnchorError, Instrumented, line_of_text

CppMode = Literal["inside", "post", "count", "observe"]

HEADER_NAME = "execstate_emit.hpp"
HEADER_PATH = Path(__file__).with_name(HEADER_NAME)
"""The header every instrumented copy includes; pass ``-I`` its folder to the compiler."""

REFUSAL_MARKER = "execstate: cannot serialize variable '"
"""Starts both refusals: g++'s static assertion (a type the header cannot serialize, at compile
time) and the emitter's run-time message on stderr (NaN/infinity, non-UTF-8 text; exit status 3)."""
REFUSED_EXIT_CODE = 3
SLOTS_MARKER = "__execstate_slots__="
RUN_MARKER = "__execstate_run__="
LOOP_EXIT_MARKER = "__execstate_loop_exit__="

LOOP_KINDS = {"for_statement": "for", "for_range_loop": "range-for", "while_statement": "while", "do_statement": "do"}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_KEYWORD_TEXT = (
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t "
    "char32_t class compl concept const consteval constexpr constinit const_cast continue co_await "
    "co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern "
    "false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr "
    "operator or or_eq private protected public register reinterpret_cast requires return short signed "
    "sizeof static static_assert static_cast struct switch template this thread_local throw true try "
    "typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq"
)
_KEYWORDS = frozenset(_KEYWORD_TEXT.split())
# Macros a program may define before its first #include to configure the standard library: the
# prelude goes after them (it includes standard headers), and before everything else.
_CONFIG_MACRO = re.compile(rb"_[A-Z_][A-Za-z0-9_]*|NDEBUG\Z")

_LANGUAGE = tree_sitter.Language(tree_sitter_cpp.language())
Node = tree_sitter.Node


def _parse(source: str) -> tuple[bytes, Node]:
    data = source.encode("utf-8")
    return data, tree_sitter.Parser(_LANGUAGE).parse(data).root_node  # a parser per call: thread-safe


def _walk(node: Node) -> Iterator[Node]:
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.children))


def _text(data: bytes, node: Node) -> str:
    return data[node.start_byte : node.end_byte].decode("utf-8", "replace")


def _loop_headers(root: Node) -> dict[int, list[Node]]:
    headers: dict[int, list[Node]] = {}
    for n in _walk(root):
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


def _loop_at(source: str, root: Node, loop_line: int) -> Node:
    headers = _loop_headers(root)
    lines = source.split("\n")
    if loop_line not in headers:
        shown = lines[loop_line - 1].strip() if 0 < loop_line <= len(lines) else "<past the end of the file>"
        raise AnchorError(
            "checkpoint.loop",
            f"line {loop_line} ({shown!r}) is not the header of a for/while/do loop",
            f"point at one of the loop headers on lines {sorted(headers)}",
        )
    nodes = headers[loop_line]
    if len(nodes) > 1:
        raise AnchorError(
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
        raise AnchorError(
            "program",
            f"the C++ parser (tree-sitter-cpp) cannot read the loop on line {loop_line} (lines {first}-{last})",
            "check that the program compiles; a macro that hides braces or statements there cannot be instrumented",
        )
    return node


def resolve_loop_cpp(source: str, loop: int | None, loop_text: str | None) -> int:
    """Return the 1-based header line of the selected ``for``/range-``for``/``while``/``do`` loop.

    A loop's header line is the line its keyword (``for``, ``while``, ``do``) is on; ``loop_text``
    is that line's exact text with surrounding spaces stripped, and must be unique in the file.
    """
    _, root = _parse(source)
    lines = [line.rstrip("\r") for line in source.split("\n")]
    if loop_text is not None:
        loop = line_of_text(lines, loop_text)
    if loop is None:
        raise AnchorError("checkpoint", "the checkpoint names no loop", "set `loop = <line>` or `loop_text`")
    _loop_at(source, root, loop)
    return loop


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
        return [_text(data, node)]
    if node.type == "structured_binding_declarator":
        return [_text(data, c) for c in node.named_children if c.type == "identifier"]
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
            owner = _text(data, scope).split("<")[0] if scope is not None else ""
            for n in _walk(root):
                if n.type in ("class_specifier", "struct_specifier", "union_specifier"):
                    cname, body = n.child_by_field_name("name"), n.child_by_field_name("body")
                    if cname is not None and body is not None and _text(data, cname) == owner:
                        bodies.append(body)
    return [name for body in bodies for c in body.named_children for name in _declared(data, c)]


def _parameters(data: bytes, declarator: Node | None) -> list[str]:
    while declarator is not None and declarator.type not in ("function_declarator", "abstract_function_declarator"):
        declarator = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    return [n for c in (params.named_children if params is not None else []) for n in _declared(data, c)]


def _header_names(data: bytes, loop: Node) -> list[str]:
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


def _init_names(data: bytes, loop: Node) -> list[str]:
    """Names a classic ``for`` loop's init-statement declares (``for (int i = 0; ...)``).

    Unlike the other header names these can be projected: the post copy moves that declaration
    into the block it wraps the loop in, so the names are still in scope at the loop's exit.
    """
    if loop.type != "for_statement":
        return []
    return _declared(data, loop.child_by_field_name("initializer"))


def _visible_names(data: bytes, root: Node, loop: Node) -> set[str]:
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
            add_local(_header_names(data, node))
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
                        own.add(_text(data, target))
                add_local(sorted(own))
                allowed = own if allowed is None else allowed & own
        elif kind == "function_definition":
            if node.parent is not None and node.parent.type == "compound_statement":
                # A macro call with a block (`rep(i, n) { ... }`) parses as a nested function: its
                # arguments may be the names the macro declares.
                params = node.child_by_field_name("declarator")
                add_local([_text(data, n) for n in _walk(params) if n.type in ("identifier", "type_identifier")]
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
    data, root = _parse(source)
    loop = _loop_at(source, root, loop_line)
    bad = [v for v in variables if not _IDENT.match(v) or v in _KEYWORDS]
    if bad:
        raise AnchorError(
            "checkpoint.variables",
            f"{', '.join(map(repr, bad))} {'is' if len(bad) == 1 else 'are'} not a C++ variable name",
            "project plain variable names (no expressions, members or indexing)",
        )
    twice = sorted({v for v in variables if variables.count(v) > 1})
    if twice:
        raise AnchorError("checkpoint.variables", f"{', '.join(twice)} listed twice", "list each variable once")
    init = set(_init_names(data, loop))
    header = set(_header_names(data, loop)) - init
    for v in variables:
        if v in header:
            kind = "range-for element" if loop.type == "for_range_loop" else "condition variable"
            raise AnchorError(
                "checkpoint.variables",
                f"{v!r} is the {kind} of the loop on line {loop_line}: it does not exist after the loop, so "
                "the post checkpoint cannot show it",
                "project variables declared before the loop (copy the value into one if it matters)",
            )
    visible = _visible_names(data, root, loop) | init
    missing = [v for v in variables if v not in visible]
    if missing:
        body = loop.child_by_field_name("body")
        inner = {n for c in (_walk(body) if body is not None else iter(())) for n in _declared(data, c)}
        parts = [f"{v!r} (declared inside the loop body)" if v in inner else repr(v) for v in missing]
        scope = _enclosing_function(loop)
        unread = ""
        if scope is not None and scope.has_error:
            unread = " (the C++ parser could not read every statement of the enclosing function; a declaration in an "
            unread += "unreadable statement, e.g. inside a macro call, is not seen)"
        raise AnchorError(
            "checkpoint.variables",
            f"no variable {', '.join(parts)} is in scope at the loop on line {loop_line}{unread}",
            "project variables declared before the loop in an enclosing scope (locals, parameters, globals)",
        )


# --- instrumentation ----------------------------------------------------------------------------


def choose_prefix_cpp(source: str) -> str:
    """``_es_``, or ``_es1_``, ``_es2_``...: the first prefix that occurs nowhere in the source text."""
    n = 0
    while True:
        prefix = "_es_" if n == 0 else f"_es{n}_"
        if prefix not in source:
            return prefix
        n += 1


class _Editor:
    """Insertions anchored at byte offsets of the clean source, rendered as whole lines.

    ``before(offset)``: lines before the line holding ``offset`` if only blanks precede it there,
    else the line is split at ``offset``. ``after(offset)``: lines after the line holding
    ``offset`` if only blanks or a ``//`` comment follow it, else the line is split there.
    A split moves the rest of the line onto its own line at ``cont`` indentation.
    """

    def __init__(self, data: bytes, newline: bytes) -> None:
        self.data, self.nl = data, newline
        self.inline: list[tuple[int, bytes]] = []
        self.replaced: list[tuple[int, int, bytes]] = []
        self.befores: dict[int, tuple[list[bytes], bytes]] = {}
        self.afters: dict[int, tuple[list[bytes], bytes]] = {}

    def line_start(self, offset: int) -> int:
        return self.data.rfind(b"\n", 0, offset) + 1

    def line_end(self, offset: int) -> int:
        end = self.data.find(b"\n", offset)
        return len(self.data) if end < 0 else end

    def indent_at(self, offset: int) -> bytes:
        start = self.line_start(offset)
        line = self.data[start : self.line_end(offset)]
        return line[: len(line) - len(line.lstrip(b" \t"))]

    def starts_line(self, offset: int) -> bool:
        return self.data[self.line_start(offset) : offset].strip(b" \t") == b""

    def insert(self, offset: int, text: bytes) -> None:
        self.inline.append((offset, text))

    def replace(self, start: int, end: int, text: bytes) -> None:
        self.replaced.append((start, end, text))

    def before(self, offset: int, lines: list[bytes], cont: bytes) -> None:
        self.befores.setdefault(offset, ([], cont))[0].extend(lines)

    def after(self, offset: int, lines: list[bytes], cont: bytes) -> None:
        self.afters.setdefault(offset, ([], cont))[0].extend(lines)

    def render(self) -> tuple[str, frozenset[int]]:
        data, nl = self.data, self.nl
        edits: list[tuple[int, int, int, bytes]] = []  # start, kind (sort order at one offset), end, text
        for offset, text in self.inline:
            edits.append((offset, 0, offset, text))
        for start, end, text in self.replaced:
            edits.append((start, 0, end, text))
        for offset, (lines, cont) in self.afters.items():
            block = b"".join(line + nl for line in lines)
            end = self.line_end(offset)
            rest = data[offset:end].strip()
            if rest == b"" or rest.startswith(b"//"):
                if end == len(data):
                    edits.append((end, 1, end, nl + block[: -len(nl)]))
                else:
                    edits.append((end + 1, 1, end + 1, block))
            else:
                stop = offset
                while data[stop : stop + 1] in (b" ", b"\t"):
                    stop += 1
                edits.append((offset, 1, stop, nl + block + cont))
        for offset, (lines, cont) in self.befores.items():
            block = b"".join(line + nl for line in lines)
            start = self.line_start(offset)
            if self.starts_line(offset):
                edits.append((start, 2, start, block))
            else:
                first = offset
                while first > start and data[first - 1 : first] in (b" ", b"\t"):
                    first -= 1
                edits.append((first, 2, offset, nl + block + cont))
        out, flags = bytearray(), bytearray()
        cursor = 0
        for start, _, end, text in sorted(edits, key=lambda e: (e[0], e[1])):
            if start < cursor:
                raise AssertionError(f"overlapping insertions at byte {start}")  # a bug of this module
            out += data[cursor:start]
            flags += bytes(start - cursor)
            out += text
            flags += b"\1" * len(text)
            cursor = max(cursor, end)
        out += data[cursor:]
        flags += bytes(len(data) - cursor)
        inserted: set[int] = set()
        line_no, pos = 1, 0
        for line in bytes(out).split(b"\n"):
            mine = theirs = False
            for i, ch in enumerate(line):
                if ch not in b" \t\r":
                    if flags[pos + i]:
                        mine = True
                    else:
                        theirs = True
            if mine and not theirs:
                inserted.add(line_no)
            line_no += 1
            pos += len(line) + 1
        return bytes(out).decode("utf-8"), frozenset(inserted)


def _prelude_offset(data: bytes, root: Node) -> int:
    """Where the prelude goes: before the first top-level node that is not a comment or a
    configuration macro (``#define _GLIBCXX_DEBUG``, ``#define NDEBUG``), at a line start."""
    skipped: list[Node] = []
    first: Node | None = None
    for c in root.children:
        if c.type == "comment":
            skipped.append(c)
            continue
        name = c.child_by_field_name("name") if c.type == "preproc_def" else None
        if name is not None and _CONFIG_MACRO.match(data[name.start_byte : name.end_byte]):
            skipped.append(c)
            continue
        first = c
        break
    if first is None:
        return len(data)
    offset = data.rfind(b"\n", 0, first.start_byte) + 1
    for s in reversed(skipped):  # a comment ending on the first node's line: go before it
        if s.start_byte < offset < s.end_byte:
            offset = data.rfind(b"\n", 0, s.start_byte) + 1
    if offset == 0 and data.startswith(b"\xef\xbb\xbf"):
        offset = 3
    return offset


def _prelude(p: str, mode: CppMode, active: bool) -> list[str]:
    if mode == "count":
        return [
            "// --- execstate: count iterations of the selected loop (inserted) ---",
            f'#include "{HEADER_NAME}"',
            f"static long long {p}count = 0;",
            f"static void {p}report() {{ execstate_emit::report_count({p}count); }}",
            f"[[maybe_unused]] static const int {p}reporting = std::atexit({p}report);",
            "// --- end of execstate code ---",
        ]
    if mode == "observe":
        return [
            "// --- execstate: record the size of the selected variables at every iteration of the selected loop"
            " (inserted) ---",
            f'#include "{HEADER_NAME}"',
            "// --- end of execstate code ---",
        ]
    return [
        "// --- execstate checkpoint support (inserted) ---",
        "// The program's own output is silenced. At the checkpoint below, the selected",
        "// variables are printed as one line of JSON and the program stops. In that JSON a",
        "// char is a 1-character string; vectors, arrays, deques, lists, sets, pairs and",
        "// tuples are lists; a map with string keys is an object, any other map a list of",
        "// [key, value] lists.",
        f'#include "{HEADER_NAME}"',
        f"static const bool {p}active = {'true' if active else 'false'};",
        f"static long long {p}count = 0;  // iterations of the selected loop so far, over the whole run",
        f"[[maybe_unused]] static const bool {p}silenced = execstate_emit::silence({p}active);",
        "// --- end of execstate checkpoint support ---",
    ]


def _asserts(variables: tuple[str, ...]) -> list[str]:
    return [f'static_assert(execstate_emit::serializable<decltype({v})>, "{REFUSAL_MARKER}{v}\'");' for v in variables]


def _unit(data: bytes, indent: bytes) -> bytes:
    if b"\t" in indent or (not indent and data.count(b"\n\t") > data.count(b"\n    ")):
        return b"\t"
    return b"    "


def _body_parts(loop: Node) -> tuple[Node, Node]:
    """The loop's body and the last header token before it (the ``)`` or ``do``), comments skipped."""
    body = loop.child_by_field_name("body")
    assert body is not None  # the grammar gives every loop a body
    head = None
    for c in loop.children:
        if c.start_byte >= body.start_byte:
            break
        if c.type != "comment":
            head = c
    assert head is not None
    return body, head


def instrument_cpp(
    source: str,
    loop_line: int,
    variables: tuple[str, ...],
    mode: CppMode,
    k: int = 1,
    *,
    active: bool = True,
) -> Instrumented:
    """Insert the checkpoint for ``mode`` into ``source`` around the loop at ``loop_line``.

    ``loop_line`` comes from ``resolve_loop_cpp`` and ``variables`` passed ``check_variables_cpp``.
    ``inserted_lines`` are the 1-based lines of the result that hold only inserted text (a split
    clean line and a header line that gained a ``{`` are not among them).
    """
    if mode not in ("inside", "post", "count", "observe"):
        raise ValueError(f"unknown instrumentation mode {mode!r}")
    if k < 1:
        raise ValueError(f"the selected iteration k must be at least 1, not {k}")
    bad = [v for v in variables if not _IDENT.match(v) or v in _KEYWORDS]
    if bad:
        raise AnchorError("checkpoint.variables", f"{bad[0]!r} is not a C++ variable name", "project variable names")
    data, root = _parse(source)
    loop = _loop_at(source, root, loop_line)
    p = choose_prefix_cpp(source)
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    ed = _Editor(data, nl)
    enc = lambda lines, indent=b"": [indent + line.encode("utf-8") for line in lines]

    ed.before(_prelude_offset(data, root), enc(_prelude(p, mode, active)), b"")

    loop_indent = ed.indent_at(loop.start_byte)
    unit = _unit(data, loop_indent)
    wrapped = mode in ("post", "observe")
    # The loop's own indentation; a loop that follows other code on its line (`if (c) for ...`)
    # is moved onto a line of its own, one level deeper, when it is wrapped in a block.
    outer = loop_indent if ed.starts_line(loop.start_byte) or not wrapped else loop_indent + unit
    body, head = _body_parts(loop)
    if body.type == "compound_statement":
        stmts = [c for c in body.named_children if c.type != "comment"]
        if stmts and ed.starts_line(stmts[0].start_byte) and stmts[0].start_point.row > body.start_point.row:
            inner = ed.indent_at(stmts[0].start_byte)
        elif body.start_point.row == loop.start_point.row:
            inner = outer + unit
        else:
            inner = ed.indent_at(body.start_byte) + unit
        top_at = body.start_byte + 1
    else:
        inner = outer + unit
        ed.insert(head.end_byte, b" {")
        top_at = head.end_byte

    projection = ", ".join(f'"{v}", {v}' for v in variables)
    emit = [f"execstate_emit::emit({projection});"]
    if mode == "count":
        top = [f"++{p}count;  // execstate (inserted)"]
    elif mode == "observe":
        top = _asserts(variables) + [f"execstate_emit::observe({', '.join([p + 'run', *variables])});"]
    elif mode == "inside":
        top = [f"++{p}count;", f"if ({p}active && {p}count == {k}) {{  // the inside checkpoint"]
        top += [unit.decode() + line for line in _asserts(variables) + emit] + ["}"]
    else:
        top = [f"++{p}count;", f"if ({p}count == {k}) {p}seen = true;"]
    ed.after(top_at, enc(top, inner), inner)
    if body.type != "compound_statement":
        ed.after(body.end_byte, enc(["}"], outer), ed.indent_at(body.end_byte))

    if mode in ("post", "observe"):
        # The loop statement (not its label) goes into a block that holds the local flag (or run
        # id); the lines after it run only when the loop ends normally or by `break`.
        if mode == "post":
            opening = [
                "{  // execstate (inserted): the selected loop, then its post checkpoint",
                f"bool {p}seen = false;  // set in the loop run that reaches iteration {k}",
            ]
            moved = [v for v in _init_names(data, loop) if v in variables]
            init = loop.child_by_field_name("initializer")
            if moved and init is not None:
                # `for (int i = 0; c; u)` becomes `int i = 0;` then `for (; c; u)` inside the block:
                # the init-statement still runs once, right before the loop, and `i` lives on to the
                # post checkpoint (the block ends right after it).
                ed.replace(init.start_byte, init.end_byte, b";")
                opening.append(
                    f"{_text(data, init)}  // execstate: moved here from the loop's header, so the post checkpoint "
                    f"can show {', '.join(moved)}"
                )
            closing = [f"if ({p}active && {p}seen) {{  // the post checkpoint"]
            closing += [unit.decode() + line for line in _asserts(variables) + emit] + ["}"]
        else:
            opening = [
                "{  // execstate (inserted): the selected loop, observed",
                f"const long long {p}run = execstate_emit::loop_enter();",
            ]
            closing = [f"execstate_emit::loop_exit({p}run);"]
        closing.append("}  // execstate: end of the inserted block")
        ed.before(loop.start_byte, enc(opening, outer), outer)
        ed.after(loop.end_byte, enc(closing, outer), ed.indent_at(loop.end_byte))
    text, inserted = ed.render()
    return Instrumented(text, inserted, p)


def disabled_cpp(inst: Instrumented) -> str:
    """The preservation variant of an ``inside``/``post`` copy: its guard constant set to false."""
    on = f"static const bool {inst.prefix}active = true;"
    if on not in inst.source:
        raise ValueError("not an inside/post copy made by instrument_cpp")
    return inst.source.replace(on, f"static const bool {inst.prefix}active = false;", 1)


# --- reading the markers --------------------------------------------------------------------------


def iterations_cpp(stderr: bytes) -> int | None:
    """K from the stderr of a ``count`` run (the last marker), or None if it did not report."""
    found = re.findall(rb"\n" + re.escape(COUNT_MARKER.encode()) + rb"(\d+)\n", stderr)
    return int(found[-1]) if found else None


_REFUSAL_LINE = re.compile(r"static assertion failed: " + re.escape(REFUSAL_MARKER) + r"([A-Za-z_][A-Za-z0-9_]*)'")
_WITH_TYPE = re.compile(r"\[with T = (.*)\][’'] evaluated to [‘']false[’']")


def refused_variables(compiler_output: str) -> list[tuple[str, str | None]]:
    """``(variable, type)`` for each projected variable g++ refused to serialize, in order.

    Reads the static assertion the instrumented copy carries (``REFUSAL_MARKER``) and the note
    g++ prints after it (``... [with T = TYPE] evaluated to 'false'``); the type is None if the
    note is missing. An empty list: the compile failure was not a refusal.
    """
    found: list[tuple[str, str | None]] = []
    lines = compiler_output.splitlines()
    for i, line in enumerate(lines):
        m = _REFUSAL_LINE.search(line)
        if not m:
            continue
        kind: str | None = None
        for follow in lines[i + 1 :]:
            if "error:" in follow:
                break
            t = _WITH_TYPE.search(follow)
            if t:
                kind = t.group(1)
                break
        if m.group(1) not in [name for name, _ in found]:
            found.append((m.group(1), kind))
    return found


@dataclass(frozen=True)
class SlotTrace:
    """What an ``observe`` run wrote on stderr, in order.

    ``events`` holds ``(run, slots, repeat)`` for ``repeat`` consecutive iterations of loop
    execution ``run`` (1-based, in order of entry) that each started with ``slots`` scalar slots,
    and ``(run, -1, 0)`` where execution ``run`` ended by its normal exit or a ``break``.
    """

    events: tuple[tuple[int, int, int], ...]

    @property
    def iterations(self) -> int:
        """K: every iteration observed."""
        return sum(repeat for _, _, repeat in self.events)

    def metrics(self, endpoint: Literal["final", "inside", "post"], k: int | None = None) -> tuple[int, int] | None:
        """``(peak, load)`` of the slots over the observations up to ``endpoint``, or None if it is never reached.

        ``final``: every iteration. ``inside``: iterations 1..k (the k-th is the checkpoint's state).
        ``post``: every iteration before the exit of the loop execution that holds iteration k.
        """
        if endpoint != "final" and (k is None or k < 1):
            raise ValueError(f"the {endpoint} endpoint needs the selected iteration k >= 1")
        peak = load = seen = 0
        target_run: int | None = None
        for run, slots, repeat in self.events:
            if repeat == 0:
                if endpoint == "post" and target_run == run:
                    return peak, load
                continue
            take = repeat
            if endpoint == "inside" and k is not None:
                take = min(repeat, k - seen)
            if take > 0:
                peak = max(peak, slots)
                load += slots * take
            if k is not None and seen < k <= seen + repeat:
                target_run = run
            seen += repeat
            if endpoint == "inside" and k is not None and seen >= k:
                return peak, load
        return (peak, load) if endpoint == "final" else None


_OBSERVED = re.compile(
    rb"\n(?:"
    + re.escape(RUN_MARKER.encode())
    + rb"(\d+)|"
    + re.escape(SLOTS_MARKER.encode())
    + rb"(\d+)(?:\*(\d+))?|"
    + re.escape(LOOP_EXIT_MARKER.encode())
    + rb"(\d+))(?=\n)"
)


def parse_slots(stderr: bytes) -> SlotTrace:
    """Read the records an ``observe`` run wrote to stderr (each starts and ends with ``\\n``):

    - ``__execstate_run__=R``: the following iterations belong to loop execution R (1-based,
      numbered in order of entry; written when the execution observed changes, e.g. after a
      nested call ran the same loop);
    - ``__execstate_slots__=N`` or ``__execstate_slots__=N*C``: one, or C consecutive,
      iterations whose top saw N scalar slots in the projection;
    - ``__execstate_loop_exit__=R``: execution R left the loop normally or by ``break``.

    The records are buffered and written at exit (and every 64 KiB), so a run that does not end
    normally (abort, ``_exit``, a signal) may lose the last ones.
    """
    events: list[tuple[int, int, int]] = []
    run = 0
    for m in _OBSERVED.finditer(stderr):
        if m.group(1) is not None:
            run = int(m.group(1))
        elif m.group(2) is not None:
            events.append((run, int(m.group(2)), int(m.group(3) or 1)))
        else:
            events.append((int(m.group(4)), -1, 0))
    return SlotTrace(tuple(events))
