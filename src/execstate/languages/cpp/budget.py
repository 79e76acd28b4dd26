"""The counted copy of a C++ program: every loop iteration calls a counter that stops the run past the trace budget.

The measured (``-O0 --coverage``) build counts line executions only in memory, and gcov writes them
at exit, so a run cannot be stopped at the first line execution past ``Budget.trace_events``. The
counted copy counts a proxy instead: **loop iterations**. At the top of the body of every loop the
program writes out (``for``, range-``for``, ``while``, ``do``, a loop macro's ``for``) it calls
``__execstate_budget_tick``, which the copy defines after the program's last line. The call reads
the budget once from the environment (``metrics.cpp.BUDGET_ENV``; absent: no budget) and, at the
first iteration past it, writes ``BUDGET_MARKER`` to stderr and ends the run with
``_exit(BUDGET_EXIT_CODE)`` (``measure_cpp`` reports status ``budget``).

Why iterations bound the trace length from below: every iteration of a loop starts its body again,
which gcov counts as one more execution of a line (the line the body re-enters from another line,
or one more turn of a cycle within one line when the loop sits on one line), so a run that passed
B iterations executed more than B lines and is over a trace budget of B. The counter only ever
stops runs that are over the budget; a run it does not stop is judged at exit on gcov's exact
count, as before. Loops the counter does not see (inside ``constexpr``/``consteval`` functions,
which may run at compile time; inside a macro's definition) only make the bound lower.

The same counter counts each loop on its own (``__execstate_tick(i)``, ``i`` the loop's place in
``Counted.loop_lines``) and, when ``COUNT_ALL_ENV`` is set, writes every loop's count at exit in the
report of ``instrument.count_all_cpp`` (``protocol.loop_iterations_cpp`` reads it). A call at the top of
its loop's body (``Counted.at_top``) counts what that loop's ``count`` copy counts, so the measured build
also gives construct every loop's K (``CppLanguage.loop_iterations``) and the clean program needs no
counting build of its own.

The copy keeps the program's lines and their gcov counts: each call goes on a line that already
runs code at every iteration (``_site``: the loop's header, or its body's first statement; a loop
without such a line is not counted), a body is wrapped in ``{ ... }`` on the lines it already has
when needed, an inserted call is a statement with no branch of its own (the counter's branch is
in the appended definition), and the definition's lines come after the program's
(``Counted.counter_from``: not counted, not reported). The counter is declared at the start of the
program's first namespace-scope declaration, on its line, and defined behind ``#pragma push_macro``
of the words it uses, so a program's ``#define int long long`` does not reach it.
"""

from __future__ import annotations

from dataclasses import dataclass

from execstate.languages._protocol import COUNT_MARKER
from execstate.languages.cpp.instrument import body_parts
from execstate.languages.cpp.protocol import LOOP_COUNT_MARKER
from execstate.languages.cpp.syntax import LOOP_KINDS, Node, program_view, walk
from execstate.metrics.cpp import BUDGET_ENV, BUDGET_EXIT_CODE, BUDGET_MARKER

TICK_SYMBOL = "__execstate_budget_tick"
_DECLARATION = f'void __execstate_tick(decltype(0)) noexcept __asm__("{TICK_SYMBOL}"); '
"""Put at the start of the program's first namespace-scope declaration, on its line (a declaration runs no code)."""
_TICK = "__execstate_tick({});"
"""One iteration of loop ``{}`` counted: a call, with no declaration in the loop's body (a block-scope declaration
gives the body a scope of its own, and gcov then counts the line of its closing brace)."""
COUNT_ALL_ENV = "EXECSTATE_COUNT_ALL"
"""Set (to anything) for a counted run, or a ``count_all_cpp`` build, to write every loop's count at exit (the report
``protocol.loop_iterations_cpp`` reads); unset, neither writes it."""
COUNT_LOOP_ENV = "EXECSTATE_COUNT_LOOP"
"""Set to a loop's place i (``Counted.loop_lines``, ``count_all_cpp``'s loops) to write, instead, only that loop's
count as its own ``count`` copy writes it (``COUNT_MARKER``): the build then stands for that copy."""
_WORDS: tuple[str, ...] = ("bool", "char", "const", "extern", "for", "if", "int", "long", "noexcept", "nullptr")
_WORDS += ("continue", "do", "else", "return", "sizeof", "static", "unsigned", "void", "while")
_DEFINITION = (
    "// --- execstate: the trace-budget counter, called at every loop iteration (appended, not the program's) ---",
    *(f'#pragma push_macro("{w}")' for w in _WORDS),
    *(f"#undef {w}" for w in _WORDS),
    'extern char* __execstate_getenv(const char*) noexcept __asm__("getenv");',
    'extern long __execstate_write(int, const void*, unsigned long) noexcept __asm__("write");',
    'extern int __execstate_atexit(void (*)()) noexcept __asm__("atexit");',
    "static unsigned long long __execstate_loops[{loops}];",
    "static int __execstate_only = -1;",
    "__attribute__((no_profile_instrument_function)) static void __execstate_report_loops() noexcept {",
    "    char __es_line[64];",
    "    for (int __es_i = 0; __es_i < {loops}; ++__es_i) {",
    "        if (__execstate_only >= 0 && __es_i != __execstate_only) continue;",
    "        char __es_digits[24];",
    "        int __es_n = 0;",
    "        unsigned long long __es_v = __execstate_loops[__es_i];",
    "        do __es_digits[__es_n++] = (char)('0' + __es_v % 10); while ((__es_v /= 10) != 0);",
    "        int __es_at = 0;",
    f'        const char* __es_c = __execstate_only >= 0 ? "\\n{COUNT_MARKER}" : "\\n{LOOP_COUNT_MARKER}";',
    "        for (; *__es_c; ++__es_c) __es_line[__es_at++] = *__es_c;",
    "        if (__execstate_only < 0) {",
    "            unsigned __es_w = (unsigned)__es_i, __es_p = 1;",
    "            while (__es_p * 10 <= __es_w) __es_p *= 10;",
    "            for (; __es_p; __es_p /= 10) __es_line[__es_at++] = (char)('0' + __es_w / __es_p % 10);",
    "            __es_line[__es_at++] = ':';",
    "        }",
    "        while (__es_n) __es_line[__es_at++] = __es_digits[--__es_n];",
    "        __es_line[__es_at++] = '\\n';",
    "        __execstate_write(2, __es_line, (unsigned long)__es_at);",
    "    }",
    "}",
    "__attribute__((constructor, no_profile_instrument_function)) static void __execstate_ask_loops() noexcept {",
    f'    const char* __es_one = __execstate_getenv("{COUNT_LOOP_ENV}");',
    "    if (__es_one != nullptr && *__es_one >= '0' && *__es_one <= '9') {",
    "        long __es_i = 0;",
    "        for (; *__es_one >= '0' && *__es_one <= '9' && __es_i < {loops}; ++__es_one)",
    "            __es_i = __es_i * 10 + (*__es_one - '0');",
    "        if (*__es_one == 0 && __es_i < {loops}) {",
    "            __execstate_only = (int)__es_i;",
    "            __execstate_atexit(__execstate_report_loops);",
    "        }",
    f'    }} else if (__execstate_getenv("{COUNT_ALL_ENV}") != nullptr) __execstate_atexit(__execstate_report_loops);',
    "}",
    "__attribute__((no_profile_instrument_function)) void __execstate_tick(decltype(0) __es_loop) noexcept {",
    "    ++__execstate_loops[__es_loop];",
    "    static unsigned long long __es_count = 0, __es_budget = ~0ULL;",
    "    static int __es_read = 0;",
    "    if (!__es_read) {",
    "        __es_read = 1;",
    f'        const char* __es_text = __execstate_getenv("{BUDGET_ENV}");',
    "        if (__es_text != nullptr && *__es_text >= '0' && *__es_text <= '9') {",
    "            __es_budget = 0;",
    "            for (; *__es_text >= '0' && *__es_text <= '9'; ++__es_text)",
    "                __es_budget = __es_budget * 10 + (unsigned long long)(*__es_text - '0');",
    "        }",
    "    }",
    "    if (++__es_count > __es_budget) {",
    f'        static const char __es_marker[] = "\\n{BUDGET_MARKER}\\n";',
    "        __execstate_write(2, __es_marker, sizeof __es_marker - 1);",
    f"        __builtin__exit({BUDGET_EXIT_CODE});",
    "    }",
    "}",
    *(f'#pragma pop_macro("{w}")' for w in reversed(_WORDS)),
    "// --- end of the execstate trace-budget counter ---",
)


@dataclass(frozen=True)
class Counted:
    """A program's counted copy (what the measured build compiles)."""

    source: str
    """The program with a counter call at the top of every loop body and the counter's definition appended."""
    counter_from: int
    """The first line of the appended definition: it and every later line are the counter's, not the program's."""
    loops: int
    """How many loops call the counter."""
    loop_lines: tuple[int, ...] = ()
    """The header line of each loop that calls the counter, by its number (``__execstate_tick(i)``)."""
    at_top: frozenset[int] = frozenset()
    """The header lines of the loops counted at the top of their body, as their ``count`` copy counts (a ``do``
    loop counted before its closing ``}`` is not: a ``continue`` or ``break`` skips that call)."""


def counted_cpp(source: str) -> Counted:
    """``source`` with every loop iteration counted against the trace budget (see the module docstring).

    Lines ``1..counter_from-1`` are ``source``'s, each holding the same statements (plus counter
    calls), so gcov counts them as in ``source``. A program the parser cannot read in places is
    counted where it can be; a loop in an unreadable region is left alone (the bound only gets lower).
    """
    view = program_view(source)
    data = view.program
    declared_at = _declaration_point(view.root)
    edits: list[tuple[int, bytes]] = []
    lines: list[int] = []
    top: set[int] = set()
    for loop in walk(view.root) if declared_at is not None else ():
        if loop.type not in LOOP_KINDS or loop.start_byte < (declared_at or 0) or _unreadable(loop):
            continue
        found = [] if _in_constant_code(view.data, loop) else _site(view.data, loop, len(lines))
        if found:
            edits += [(view.clean_offset(offset), text) for offset, text in found]
            line = loop.start_point.row + 1
            lines.append(line)
            if not _at_end(loop):
                top.add(line)
    if not edits:
        return Counted(source, source.count("\n") + 2, 0)
    assert declared_at is not None
    edits.append((view.clean_offset(declared_at), _DECLARATION.encode()))
    out, cursor = bytearray(), 0
    for offset, text in sorted(edits, key=lambda e: e[0]):
        out += data[cursor:offset] + text
        cursor = offset
    out += data[cursor:]
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    if out and not out.endswith(b"\n"):
        out += nl
    counter_from = out.count(b"\n") + 1
    out += b"".join(line.replace("{loops}", str(len(lines))).encode() + nl for line in _DEFINITION)
    return Counted(out.decode("utf-8"), counter_from, len(lines), tuple(lines), frozenset(top))


_NAMESPACE_SCOPE = frozenset(
    (
        "function_definition",
        "declaration",
        "template_declaration",
        "namespace_definition",
        "linkage_specification",
        "using_declaration",
        "alias_declaration",
        "type_definition",
        "class_specifier",
        "struct_specifier",
    )
)


def _declaration_point(root: Node) -> int | None:
    """Where the counter's declaration goes: the start of the program's first namespace-scope declaration (after
    its includes and macros); None when the parser finds none (nothing is counted)."""
    for c in root.children:
        if c.type in _NAMESPACE_SCOPE and not c.has_error:
            return c.start_byte
    return None


def _site(data: bytes, loop: Node, number: int) -> list[tuple[int, bytes]]:
    """Where the counter call goes in ``loop`` (insertions at byte offsets of ``data``), on a line that already
    runs code at every iteration, so no line gains a count; empty when there is no such line (not counted).

    - A ``for``/``while`` whose condition or update runs on the header line (not ``while (true)``, ``for (;;)``)
      and a range-``for``: on the header line, right before the body (a body that does not open on that line
      is wrapped in ``{ ... }``, the opening brace and call on the header line).
    - A ``do`` loop whose body closes on the line of its ``while (...)``: right before that ``}``.
    - Otherwise, before the body's first statement when that statement surely runs code on its line (a call,
      an assignment, an increment, an ``if``/``switch`` on a condition).
    """
    body = loop.child_by_field_name("body")
    if body is None or body.has_error:
        return []
    tick = _TICK.format(number).encode()
    if loop.type == "do_statement":
        if _at_end(loop):
            return [(body.end_byte - 1, tick + b" ")]
        return _before_first_statement(data, body, tick)
    if loop.type == "for_range_loop" or _header_runs_code(data, loop):
        _, head = body_parts(loop)
        if body.type == "compound_statement" and body.start_point.row == loop.start_point.row:
            return [(body.start_byte + 1, b" " + tick)]
        if head.end_point.row != loop.start_point.row:
            return _before_first_statement(data, body, tick)  # a header over several lines
        return [(head.end_byte, b" { " + tick), (body.end_byte, b" }")]
    return _before_first_statement(data, body, tick)


def _at_end(loop: Node) -> bool:
    """Whether ``_site`` counts ``loop`` at the end of its body: a ``do`` loop whose body closes on the line of
    its ``while (...)``."""
    if loop.type != "do_statement":
        return False
    body, cond = loop.child_by_field_name("body"), loop.child_by_field_name("condition")
    return (
        body is not None
        and body.type == "compound_statement"
        and cond is not None
        and body.end_point.row == cond.start_point.row
    )


_CONSTANT = frozenset((b"true", b"1", b""))
_CODE_EXPRESSIONS = frozenset(("call_expression", "assignment_expression", "update_expression"))


def _header_runs_code(data: bytes, loop: Node) -> bool:
    """Whether a ``for``/``while`` header runs code at every iteration: a condition that is not a constant,
    or (``for``) an update."""
    cond = loop.child_by_field_name("condition")
    text = b"" if cond is None else data[cond.start_byte : cond.end_byte].strip(b"() \t")
    if text not in _CONSTANT:
        return True
    return loop.type == "for_statement" and loop.child_by_field_name("update") is not None


def _before_first_statement(data: bytes, body: Node, tick: bytes) -> list[tuple[int, bytes]]:
    """The call right before the body's first statement when that one surely runs code on its own line."""
    stmts = [c for c in body.named_children if c.type != "comment"] if body.type == "compound_statement" else [body]
    if not stmts:
        return []
    first = stmts[0]
    if first.type == "expression_statement":
        expr = first.named_children[0] if first.named_children else None
        runs = expr is not None and expr.type in _CODE_EXPRESSIONS
    elif first.type in ("if_statement", "switch_statement"):
        cond = first.child_by_field_name("condition")
        runs = cond is not None and data[cond.start_byte : cond.end_byte].strip(b"() \t") not in _CONSTANT
    else:
        runs = False
    if not runs:
        return []
    if body.type == "compound_statement":
        return [(first.start_byte, tick + b" ")]
    return [(first.start_byte, b"{ " + tick + b" "), (first.end_byte, b" }")]


def _in_constant_code(data: bytes, node: Node) -> bool:
    """Whether ``node`` sits in a function or lambda declared ``constexpr`` or ``consteval`` (it may run
    while compiling, where a call to the counter is an error)."""
    parent = node.parent
    while parent is not None:
        if parent.type in ("function_definition", "lambda_expression"):
            body = parent.child_by_field_name("body")
            head = data[parent.start_byte : body.start_byte if body is not None else parent.end_byte]
            if b"constexpr" in head or b"consteval" in head:
                return True
        parent = parent.parent
    return False


def _unreadable(node: Node) -> bool:
    """Whether the parser could not read ``node`` or a region around it (an insertion could land amiss)."""
    if node.has_error:
        return True
    parent = node.parent
    while parent is not None:
        if parent.type == "ERROR":
            return True
        parent = parent.parent
    return False


__all__ = ["COUNT_ALL_ENV", "COUNT_LOOP_ENV", "TICK_SYMBOL", "Counted", "counted_cpp"]
