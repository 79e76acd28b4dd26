"""C++ checkpoint instrumentation: readable whole-line insertions placed by the tree-sitter parse (``syntax.py``).

The C++ counterpart of ``_python.py`` (same modes, same ``Instrumented`` result), plus an
``observe`` mode for the state metrics. Only whole lines are inserted, except the minimal
splitting C++ needs: a brace-less loop body gets braces (``{`` after the header, ``}`` after the
body), and a loop or body that shares its line with other code is split onto its own line.
Comments and layout of the clean source are kept. Every inserted name starts with a prefix that
occurs nowhere in the program's text.

A loop written through a loop macro (``rep(i, n) {``, ``syntax.program_view``) is instrumented
as the ``for`` statement it expands to, with the same insertions as the loop written out; the
invocation stays as written in the copy, except in a ``post`` copy that moves the init-statement
(the projection names ``i`` of ``rep(i, n)``): there the invocation is written out as its
expansion, on its line, with the declaration moved in front of it.

The instrumented copy ``#include``s ``execstate_emit.hpp`` (``protocol.HEADER_PATH``; compile with
``-I HEADER_PATH.parent`` or copy it next to the source), first of all, before the program's own
lines (after only leading comments and configuration macros such as ``_GLIBCXX_DEBUG``), so the
program's macros (``#define int long long``) cannot change it. The header documents the JSON of
each type, the refusal markers and the ``observe`` format (read by ``protocol.py``).

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
- ``trace`` (the ``loop-trace`` copy, ``steps``): output silenced and counted as in ``inside``; the
  loop statement is wrapped in a block, as in ``post``, holding a list of states that is empty on
  every entry of the loop. At the top of each iteration, while the list holds fewer than ``steps``
  states, the projection's JSON object (the inside copy's line there, without its newline) is
  appended; at iteration ``k`` the list is written to the real stdout as one JSON list and the
  program ends with ``std::exit(0)``. The states are taken inside the loop, where a ``for``
  init-statement's names are in scope, so nothing is moved.
- ``count``: no silencing, no checkpoint; at exit ``\\n__execstate_iterations__=K\\n`` on stderr.
- ``observe``: no silencing, no checkpoint; the slots of the projection at the top of every
  iteration, and each loop exit, on stderr (format: ``protocol.parse_slots``).

``active=False`` gives the preservation variant (inside/post/trace): identical to the task source
except the one guard constant, so nothing fires and output is not silenced.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Callable, Sequence
from typing import Literal

from execstate.errors import SpecProblem
from execstate.languages._protocol import Instrumented
from execstate.languages.cpp.protocol import HEADER_NAME, REFUSAL_MARKER
from execstate.languages.cpp.syntax import IDENT, KEYWORDS, Node, init_names, loop_at, node_text, program_view

CppMode = Literal["inside", "post", "count", "observe", "trace"]

# Macros a program may define before its first #include to configure the standard library: the
# prelude goes after them (it includes standard headers), and before everything else.
_CONFIG_MACRO = re.compile(rb"_[A-Z_][A-Za-z0-9_]*|NDEBUG\Z")


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
    ``restore(start, end, text)``: put the program's own ``text`` back over ``start:end`` (a loop
    macro's expansion in the view) unless another edit falls inside it; restored text is clean.
    """

    def __init__(self, data: bytes, newline: bytes) -> None:
        self.data, self.nl = data, newline
        self.inline: list[tuple[int, bytes]] = []
        self.replaced: list[tuple[int, int, bytes]] = []
        self.befores: dict[int, tuple[list[bytes], bytes]] = {}
        self.afters: dict[int, tuple[list[bytes], bytes]] = {}
        self.restored: list[tuple[int, int, bytes]] = []

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

    def restore(self, start: int, end: int, text: bytes) -> None:
        self.restored.append((start, end, text))

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
        inside = lambda start, end: any(start < at < end for e in edits for at in (e[0], e[2]))
        # kind 3: after the insertions at its start; the program's own text, not an insertion
        edits += [(start, 3, end, text) for start, end, text in self.restored if not inside(start, end)]
        out, flags = bytearray(), bytearray()
        cursor = 0
        for start, kind, end, text in sorted(edits, key=lambda e: (e[0], e[1])):
            if start < cursor:
                raise AssertionError(f"overlapping insertions at byte {start}")  # a bug of this module
            out += data[cursor:start]
            flags += bytes(start - cursor)
            out += text
            flags += (b"\0" if kind == 3 else b"\1") * len(text)
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
            f"static long long {p}count = 0;  // iterations of the selected loop so far, over the whole run",
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
    if mode == "trace":
        shown = [
            "// The program's own output is silenced. Each run of the selected loop keeps the",
            "// selected variables at the top of its first iterations; at the checkpoint below,",
            "// the states its run kept are printed as one line, a JSON list of objects, and the",
            "// program stops. In that JSON a char is a 1-character string; vectors, arrays,",
            "// deques, lists, sets, pairs and tuples are lists; a map with string keys is an",
            "// object, any other map a list of [key, value] lists.",
        ]
    else:
        shown = [
            "// The program's own output is silenced. At the checkpoint below, the selected",
            "// variables are printed as one line of JSON and the program stops. In that JSON a",
            "// char is a 1-character string; vectors, arrays, deques, lists, sets, pairs and",
            "// tuples are lists; a map with string keys is an object, any other map a list of",
            "// [key, value] lists.",
        ]
    return [
        "// --- execstate checkpoint support (inserted) ---",
        *shown,
        f'#include "{HEADER_NAME}"',
        f"static const bool {p}active = {'true' if active else 'false'};",
        f"static long long {p}count = 0;  // iterations of the selected loop so far, over the whole run",
        f"[[maybe_unused]] static const bool {p}silenced = execstate_emit::silence({p}active);",
        "// --- end of execstate checkpoint support ---",
    ]


ASSERTED = "static_assert(execstate_emit::serializable<decltype("
"""How a copy's static assertion of a projected variable starts (``refusal_asserts``): a type the header cannot
serialize fails the copy's compile."""


def refusal_asserts(variables: tuple[str, ...]) -> list[str]:
    """The ``static_assert`` line of each projected variable (the emitter's compile-time refusal)."""
    return [f'{ASSERTED}{v})>, "{REFUSAL_MARKER}{v}\'");' for v in variables]


def _unit(data: bytes, indent: bytes) -> bytes:
    if b"\t" in indent or (not indent and data.count(b"\n\t") > data.count(b"\n    ")):
        return b"\t"
    return b"    "


def body_parts(loop: Node) -> tuple[Node, Node]:
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


def projection_args(variables: tuple[str, ...]) -> str:
    """The ``"name", name`` pairs the emitter's calls take, in order."""
    return ", ".join(f'"{v}", {v}' for v in variables)


def _guarded(header: str, lines: list[str], unit: str) -> list[str]:
    """``header`` (an ``if (...) {`` line), ``lines`` one level deeper, and the closing ``}``."""
    return [header, *(unit + line for line in lines), "}"]


def _top(mode: CppMode, p: str, variables: tuple[str, ...], k: int, steps: int, unit: str) -> list[str]:
    """The lines inserted at the top of every iteration of the selected loop."""
    if mode == "count":
        return [f"++{p}count;"]
    if mode == "observe":
        return refusal_asserts(variables) + [f"execstate_emit::observe({', '.join([p + 'run', *variables])});"]
    if mode == "post":
        return [f"++{p}count;", f"if ({p}count == {k}) {p}seen = true;"]
    if mode == "inside":
        emit = refusal_asserts(variables) + [f"execstate_emit::emit({projection_args(variables)});"]
        return [
            f"++{p}count;",
            *_guarded(f"if ({p}active && {p}count == {k}) {{  // the inside checkpoint", emit, unit),
        ]
    keep = refusal_asserts(variables) + [
        f"{p}steps.push_back(execstate_emit::state_json({projection_args(variables)}));"
    ]
    return [
        f"++{p}count;",
        *_guarded(f"if ({p}active && {p}steps.size() < {steps}) {{  // keep this iteration's state", keep, unit),
        f"if ({p}active && {p}count == {k}) execstate_emit::emit_trace({p}steps);  // the trace checkpoint",
    ]


def _block(
    mode: CppMode, p: str, variables: tuple[str, ...], k: int, steps: int, unit: str
) -> tuple[list[str], list[str]]:
    """The lines of the block a ``post``, ``observe`` or ``trace`` copy wraps the loop statement in, before
    and after it (a ``post`` copy's moved init-statement aside)."""
    if mode == "post":
        opening = [
            "{  // execstate (inserted): the selected loop, then its post checkpoint",
            f"bool {p}seen = false;  // set in the loop run that reaches iteration {k}",
        ]
        emit = refusal_asserts(variables) + [f"execstate_emit::emit({projection_args(variables)});"]
        closing = _guarded(f"if ({p}active && {p}seen) {{  // the post checkpoint", emit, unit)
    elif mode == "observe":
        opening = [
            "{  // execstate (inserted): the selected loop, observed",
            f"const long long {p}run = execstate_emit::loop_enter();",
        ]
        closing = [f"execstate_emit::loop_exit({p}run);"]
    else:
        opening = [
            "{  // execstate (inserted): the selected loop, traced",
            f"std::vector<std::string> {p}steps;  // this run of the loop keeps the states at the top of its first"
            f" {steps} iterations; they are printed at iteration {k} (counted over the whole run)",
        ]
        closing = []
    return opening, [*closing, "}  // execstate: end of the inserted block"]


def instrument_cpp(
    source: str,
    loop_line: int,
    variables: tuple[str, ...],
    mode: CppMode,
    k: int = 1,
    *,
    active: bool = True,
    steps: int = 1,
) -> Instrumented:
    """Insert the checkpoint for ``mode`` into ``source`` around the loop at ``loop_line``.

    ``loop_line`` comes from ``resolve_loop_cpp`` and ``variables`` passed ``check_variables_cpp``.
    ``steps`` (``trace`` only): how many states each run of the loop keeps, from its first iteration.
    ``inserted_lines`` are the 1-based lines of the result that hold only inserted text (a split
    clean line and a header line that gained a ``{`` are not among them).
    """
    if mode not in ("inside", "post", "count", "observe", "trace"):
        raise ValueError(f"unknown instrumentation mode {mode!r}")
    if k < 1:
        raise ValueError(f"the selected iteration k must be at least 1, not {k}")
    if steps < 1:
        raise ValueError(f"a trace keeps at least 1 step, not {steps}")
    bad = [v for v in variables if not IDENT.match(v) or v in KEYWORDS]
    if bad:
        raise SpecProblem("checkpoint.variables", f"{bad[0]!r} is not a C++ variable name", "project variable names")
    view = program_view(source)  # the program itself unless it has loop macros
    data, root = view.data, view.root
    loop = loop_at(source, root, loop_line)
    p = choose_prefix_cpp(source if not view.invocations else source + "\n" + view.source)
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    ed = _Editor(data, nl)
    enc = lambda lines, indent=b"": [indent + line.encode("utf-8") for line in lines]

    ed.before(_prelude_offset(data, root), enc(_prelude(p, mode, active)), b"")

    wrapped = mode in ("post", "observe", "trace")
    outer, unit = _at_top(ed, data, loop, lambda u: _top(mode, p, variables, k, steps, u), wrapped=wrapped)

    if wrapped:
        # The loop statement (not its label) goes into a block that holds the local flag, run id or
        # kept states (fresh on every entry of the loop); the lines after it run only when the loop
        # ends normally or by `break`.
        opening, closing = _block(mode, p, variables, k, steps, unit.decode())
        moved = [v for v in init_names(data, loop) if v in variables] if mode == "post" else []
        init = loop.child_by_field_name("initializer")
        if moved and init is not None:
            # `for (int i = 0; c; u)` becomes `int i = 0;` then `for (; c; u)` inside the block:
            # the init-statement still runs once, right before the loop, and `i` lives on to the
            # post checkpoint (the block ends right after it).
            ed.replace(init.start_byte, init.end_byte, b";")
            opening.append(f"{node_text(data, init)}  {MOVED_NOTE}{', '.join(moved)}")
        ed.before(loop.start_byte, enc(opening, outer), outer)
        ed.after(loop.end_byte, enc(closing, outer), ed.indent_at(loop.end_byte))
    for inv in view.invocations:
        ed.restore(inv.view_start, inv.view_end, inv.text)
    text, inserted = ed.render()
    return Instrumented(text, inserted, p)


def _at_top(
    ed: _Editor, data: bytes, loop: Node, top: Callable[[str], list[str]], *, wrapped: bool
) -> tuple[bytes, bytes]:
    """Insert ``top(unit)`` at the top of every iteration of ``loop`` (bracing a brace-less body); the loop's
    outer indentation (one level deeper when a ``wrapped`` loop shares its line with other code) and the unit."""
    loop_indent = ed.indent_at(loop.start_byte)
    unit = _unit(data, loop_indent)
    # The loop's own indentation; a loop that follows other code on its line (`if (c) for ...`)
    # is moved onto a line of its own, one level deeper, when it is wrapped in a block.
    outer = loop_indent if ed.starts_line(loop.start_byte) or not wrapped else loop_indent + unit
    body, head = body_parts(loop)
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

    ed.after(top_at, [inner + line.encode("utf-8") for line in top(unit.decode())], inner)
    if body.type != "compound_statement":
        ed.after(body.end_byte, [outer + b"}"], ed.indent_at(body.end_byte))
    return outer, unit


def _count_line(line: str, _unit: str) -> list[str]:
    return [line]


def count_all_cpp(source: str, loop_lines: Sequence[int]) -> Instrumented:
    """One ``count`` copy for every loop in ``loop_lines`` at once (``resolve_loop_cpp`` lines, each once).

    Loop ``i`` (its place in ``loop_lines``) gets its own counter, incremented at the very place a ``count``
    copy of that loop alone increments its one (the top of every iteration), so each K is the one that copy
    reports; at exit every K is written on stderr as ``\\n__execstate_loop_iterations__=i:K\\n``
    (``protocol.loop_iterations_cpp``). ``ValueError`` when a line holds no loop or twice the same line.
    """
    if len(set(loop_lines)) != len(loop_lines) or not loop_lines:
        raise ValueError(f"count_all_cpp needs distinct loop lines, not {list(loop_lines)}")
    view = program_view(source)
    data, root = view.data, view.root
    loops = [loop_at(source, root, line) for line in loop_lines]
    p = choose_prefix_cpp(source if not view.invocations else source + "\n" + view.source)
    ed = _Editor(data, b"\r\n" if b"\r\n" in data else b"\n")
    n = len(loops)
    prelude = [
        "// --- execstate: count iterations of every selected loop, each its own counter (inserted) ---",
        f'#include "{HEADER_NAME}"',
        f"static long long {p}counts[{n}] = {{}};",
        f"static void {p}report() {{ execstate_emit::report_loop_counts({p}counts, {n}); }}",
        f"[[maybe_unused]] static const int {p}reporting = std::atexit({p}report);",
        "// --- end of execstate code ---",
    ]
    ed.before(_prelude_offset(data, root), [line.encode("utf-8") for line in prelude], b"")
    for i, loop in enumerate(loops):
        _at_top(
            ed, data, loop, functools.partial(_count_line, f"++{p}counts[{i}];  // execstate (inserted)"), wrapped=False
        )
    for inv in view.invocations:
        ed.restore(inv.view_start, inv.view_end, inv.text)
    text, inserted = ed.render()
    return Instrumented(text, inserted, p)


def disabled_cpp(inst: Instrumented) -> str:
    """The preservation variant of an ``inside``/``post``/``trace`` copy: its guard constant set to false."""
    on = f"static const bool {inst.prefix}active = true;"
    if on not in inst.source:
        raise ValueError("not an inside/post/trace copy made by instrument_cpp")
    return inst.source.replace(on, f"static const bool {inst.prefix}active = false;", 1)


TAG_OPEN, TAG_CLOSE = "\x1e", "\x1f"
_TAGGED = re.compile("\x1e([a-z]+)\x1f(?=\\r?$)", re.MULTILINE)
ON_CALL = "execstate_emit::checkpoint_on()"
STEPS_CALL = "execstate_emit::checkpoint_steps()"
MODE_LETTERS: dict[str, str] = {"inside": "i", "post": "p", "trace": "t", "observe": "o", "count": "c"}
"""The letter that tags an ``every_mode_cpp`` line with a mode (``m``: the moved init-statement)."""
MODE_CODES: dict[str, int] = {"inside": 1, "post": 2, "trace": 3, "observe": 4, "count": 5}
"""``EXECSTATE_CHECKPOINT_MODE``'s number of each mode (``execstate_emit::checkpoint_mode()``)."""
_K_MARK, _STEPS_MARK = 987654321987654, 876543219876543
"""Stand-ins for k and steps while the lines are made (never in an inserted line otherwise); replaced by calls."""


def k_call(mode: str) -> str:
    """The call that stands for ``mode``'s k in an ``every_mode_cpp`` text (0 when another mode runs)."""
    return f"execstate_emit::checkpoint_k_of({MODE_CODES[mode]})"


@dataclasses.dataclass(frozen=True)
class EveryMode:
    """The ``inside``, ``post``, ``trace``, ``observe`` and ``count`` copies of one loop and projection as ONE text.

    Each mode's inserted lines are kept, each tagged with the modes it belongs to (``tags``); the lines every
    mode shares (the program's own, the ``#include``, ``++count``) appear once. Where a copy writes a
    constant (k, steps, the guard), the text calls the emitter instead (``k_call``, ``STEPS_CALL``,
    ``ON_CALL``), and the projection is chosen at run time (``emit_chosen``, ``state_json_chosen``,
    ``observe_chosen``, ``loop_enter_of``/``loop_exit_of``), each of which does nothing unless the run's
    ``EXECSTATE_CHECKPOINT_MODE`` names its mode. The blocks of ``post``, ``observe`` and ``trace`` nest
    around the loop (post outermost). ``universal.every_mode_copy`` writes a copy back out of it.
    """

    source: str
    """The text compiled (tags removed)."""
    inserted_lines: frozenset[int]
    """1-based lines that hold only inserted text (each tagged line among them)."""
    tags: tuple[str, ...]
    """Per line (index 0: line 1): the letters of the modes whose copy has it (``MODE_LETTERS``; ``m``: the moved
    init-statement), or ``""`` for a line every copy has."""
    prefix: str
    moved: str
    """The init-statement the text moves in front of the loop (``""``: none moved)."""
    init_names: tuple[str, ...]
    """The names that init-statement declares."""


def every_mode_cpp(source: str, loop_line: int, variables: tuple[str, ...], *, move: bool = True) -> EveryMode:
    """The ``EveryMode`` text of ``source``'s loop at ``loop_line`` with projection ``variables``.

    ``move``: move the loop's init-statement in front of it when ``variables`` names one of its names
    (what a ``post`` copy of those variables does); ``move=False`` never moves it. ``ValueError`` when the
    program's text holds the tag characters or an init-statement over several lines would be moved.
    """
    if TAG_OPEN in source or TAG_CLOSE in source:
        raise ValueError("the program's text holds the tag characters of every_mode_cpp")
    if not variables:
        raise ValueError("every_mode_cpp needs at least one variable")
    view = program_view(source)
    data, root = view.data, view.root
    loop = loop_at(source, root, loop_line)
    p = choose_prefix_cpp(source if not view.invocations else source + "\n" + view.source)
    nl = b"\r\n" if b"\r\n" in data else b"\n"
    ed = _Editor(data, nl)

    def tagged(tags: str, lines: list[str]) -> list[str]:
        return [line + TAG_OPEN + tags + TAG_CLOSE for line in lines]

    def calls(mode: str, lines: list[str]) -> list[str]:
        out = []
        for line in lines:
            line = line.replace(str(_K_MARK), k_call(mode)).replace(str(_STEPS_MARK), STEPS_CALL)
            for plain, chosen in _EVERY_MODE_CALLS:
                line = line.replace(plain, chosen)
            out.append(line)
        return out

    inside, trace, observe, count = (_prelude(p, m, True) for m in ("inside", "trace", "observe", "count"))
    active = f"static const bool {p}active = true;"
    assert inside[0] == trace[0] and inside[-4:] == trace[-4:] and inside[-5] == observe[1] and inside[-4] == active
    assert count[1] == inside[-5] and count[2] == inside[-3]  # the #include and the counter: shared
    prelude = [
        *tagged("ipt", inside[:1]),
        *tagged("o", observe[:1]),
        *tagged("c", count[:1]),
        *tagged("ip", inside[1:-5]),
        *tagged("t", trace[1:-5]),
        *tagged("iptoc", inside[-5:-4]),
        *tagged("ipt", [f"static const bool {p}active = {ON_CALL};"]),
        *tagged("iptc", inside[-3:-2]),
        *tagged("ipt", inside[-2:]),
        *tagged("o", observe[-1:]),
        *tagged("c", [count[3].replace(REPORT_CALL, REPORT_OF_CALL), *count[4:]]),
    ]
    enc = lambda lines, indent=b"": [indent + line.encode("utf-8") for line in lines]
    ed.before(_prelude_offset(data, root), enc(prelude), b"")

    def top(unit: str) -> list[str]:
        lines = {
            m: calls(m, _top(m, p, variables, _K_MARK, _STEPS_MARK, unit)) for m in ("inside", "post", "trace", "count")
        }
        assert lines["inside"][0] == lines["post"][0] == lines["trace"][0] == lines["count"][0]
        assert len(lines["count"]) == 1  # the count copy adds nothing else at the top
        return [
            *tagged("iptc", lines["inside"][:1]),
            *tagged("p", lines["post"][1:]),
            *tagged("i", lines["inside"][1:]),
            *tagged("t", lines["trace"][1:]),
            *tagged("o", calls("observe", _top("observe", p, variables, 1, 1, unit))),
        ]

    outer, unit = _at_top(ed, data, loop, top, wrapped=True)
    blocks = {m: _block(m, p, variables, _K_MARK, _STEPS_MARK, unit.decode()) for m in ("post", "observe", "trace")}
    opening = {m: calls(m, lines) for m, (lines, _) in blocks.items()}
    closing = {m: calls(m, lines) for m, (_, lines) in blocks.items()}
    names = init_names(data, loop)
    moved_names = [v for v in names if v in variables] if move else []
    init = loop.child_by_field_name("initializer")
    moved_line: list[str] = []
    moved = ""
    if moved_names and init is not None:
        moved = node_text(data, init)
        if "\n" in moved:
            raise ValueError("every_mode_cpp does not move an init-statement over several lines")
        ed.replace(init.start_byte, init.end_byte, b";")
        moved_line = tagged("m", [f"{moved}  {MOVED_NOTE}{', '.join(moved_names)}"])
    ed.before(
        loop.start_byte,
        enc(
            [
                *tagged("p", opening["post"]),
                *moved_line,
                *tagged("o", opening["observe"]),
                *tagged("t", opening["trace"]),
            ],
            outer,
        ),
        outer,
    )
    ed.after(
        loop.end_byte,
        enc([*tagged("t", closing["trace"]), *tagged("o", closing["observe"]), *tagged("p", closing["post"])], outer),
        ed.indent_at(loop.end_byte),
    )
    for inv in view.invocations:
        ed.restore(inv.view_start, inv.view_end, inv.text)
    text, inserted = ed.render()
    tags = tuple(m.group(1) if (m := _TAGGED.search(line)) else "" for line in text.split("\n"))
    return EveryMode(_TAGGED.sub("", text), inserted, tags, p, moved, tuple(names))


REPORT_CALL = "execstate_emit::report_count("
REPORT_OF_CALL = "execstate_emit::report_count_of("
"""A count copy's report at exit, and the call an ``every_mode_cpp`` text makes instead (nothing in another mode)."""
MOVED_NOTE = "// execstate: moved here from the loop's header, so the post checkpoint can show "
_EVERY_MODE_CALLS = (
    ("execstate_emit::emit(", "execstate_emit::emit_chosen("),
    ("execstate_emit::state_json(", "execstate_emit::state_json_chosen("),
    ("execstate_emit::observe(", "execstate_emit::observe_chosen("),
    ("execstate_emit::loop_enter()", "execstate_emit::loop_enter_of()"),
    ("execstate_emit::loop_exit(", "execstate_emit::loop_exit_of("),
)
"""The calls an ``every_mode_cpp`` text makes instead of a copy's (each does nothing in another mode)."""
