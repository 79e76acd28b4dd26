"""Python checkpoint instrumentation: minimal, readable insertions placed by ast positions.

The clean source is copied line by line; only whole lines are inserted (plus
one split of a one-line loop body onto its own line), so comments and layout
survive. Every inserted name starts with a prefix that occurs nowhere in the
program's text, so it cannot collide with the program's names.

Modes:
- ``inside``: count iterations of the selected loop (cumulatively, every entry
  counts); at the top of iteration ``k``, before the body runs, emit the
  projection as canonical JSON on the real stdout and stop (exit status 0).
- ``post``: the same count; the loop execution that reaches iteration ``k``
  marks itself, and right after that loop statement finishes (normal exit,
  including its ``else:`` clause, or ``break``) the projection is emitted.
- ``count``: no checkpoint and no silencing; at exit the total count is
  written to stderr (used by the builder to measure K).

``active=False`` gives the preservation variant: identical to the task source
except the one guard constant, so no checkpoint fires and output is not silenced.

``measurement_copy`` makes the measurement copy (one run measures every arm of the long input): the inside and post
checkpoints of the task copies, placed exactly where they are, but each calls the
measuring probe's snapshot hook instead of printing and stopping, so one run of
it records every state arm's metrics and then the clean run's to its end.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize

from execstate.errors import SpecProblem
from execstate.languages._protocol import COUNT_MARKER, STATE_FAILED, Instrumented, Mode, line_of_text, source_lines
from execstate.metrics import parse_python


def resolve_loop(source: str, loop: int | None, loop_text: str | None) -> int:
    """Return the 1-based header line of the selected ``for``/``while`` loop."""
    tree = parse_python(source)
    headers = {n.lineno: n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))}
    lines = [line.rstrip("\r\n") for line in source_lines(source)]
    if loop_text is not None:
        loop = line_of_text(lines, loop_text)
    assert loop is not None
    if loop not in headers:
        shown = lines[loop - 1].strip() if 0 < loop <= len(lines) else "<past the end of the file>"
        raise SpecProblem(
            "checkpoint.loop",
            f"line {loop} ({shown!r}) is not the header of a for/while loop",
            f"point at one of the loop headers on lines {sorted(headers)}",
        )
    return loop


def check_variables(source: str, variables: tuple[str, ...]) -> None:
    """Refuse projected names the program never mentions."""
    names = {n.id for n in ast.walk(parse_python(source)) if isinstance(n, ast.Name)}
    names |= {a.arg for a in ast.walk(parse_python(source)) if isinstance(a, ast.arg)}
    missing = [v for v in variables if v not in names]
    if missing:
        raise SpecProblem(
            "checkpoint.variables",
            f"the program has no variable named {', '.join(missing)}",
            "project variables the program assigns",
        )


def choose_prefix(source: str) -> str:
    """``_es_``, or ``_es1_``, ``_es2_``... : the first prefix no identifier in the source starts with."""
    words = {tok.string for tok in tokenize.generate_tokens(io.StringIO(source).readline) if tok.type == tokenize.NAME}
    n = 0
    while True:
        prefix = "_es_" if n == 0 else f"_es{n}_"
        if not any(w.startswith(prefix) for w in words) and prefix not in source:
            return prefix
        n += 1


def instrument(
    source: str, loop_line: int, variables: tuple[str, ...], mode: Mode, k: int = 1, *, active: bool = True
) -> Instrumented:
    """Insert the checkpoint for ``mode`` into ``source`` around the loop at ``loop_line``."""
    return instrument_with_origins(source, loop_line, variables, mode, k, active=active)[0]


def instrument_with_origins(
    source: str, loop_line: int, variables: tuple[str, ...], mode: Mode, k: int = 1, *, active: bool = True
) -> tuple[Instrumented, list[int]]:
    """``instrument`` and where each line of the copy came from (clean line number; 0: inserted)."""
    tree, node, p, lines, out = _start_copy(source, loop_line)
    projection = "{" + ", ".join(f'"{v}": {v}' for v in variables) + "}"
    out.insert_before(_prelude_line(tree, lines), _prelude(p, mode, active))
    loop_indent = _indent(lines[node.lineno - 1])
    if mode == "post":
        out.insert_before(
            node.lineno, [loop_indent + f"{p}seen = False  # becomes True in the loop run that reaches iteration {k}\n"]
        )
    top = [f"{p}count[0] += 1\n"]
    if mode == "inside":
        top += [f"if {p}active and {p}count[0] == {k}:\n", f"    {p}emit({projection})\n"]
    elif mode == "post":
        top += [f"if {p}count[0] == {k}:\n", f"    {p}seen = True\n"]
    _insert_top(out, lines, node, loop_indent, top)
    if mode == "post":
        assert node.end_lineno is not None  # ast.parse sets positions on every statement
        out.insert_after(
            node.end_lineno,
            [loop_indent + f"if {p}active and {p}seen:\n", loop_indent + f"    {p}emit({projection})\n"],
        )
    return out.result(p), out.origins()


TRACE_NOTE = (
    "# The program's own output is silenced. Each run of the selected loop keeps the\n",
    "# selected variables at the top of its first {steps} iterations; at the checkpoint below\n",
    "# the states kept by the loop run holding iteration {k} are printed as one JSON list and the program stops.\n",
)
"""What a ``loop-trace`` copy's prelude says in place of the inside copy's note (``trace_copy``)."""


def trace_copy(
    source: str, loop_line: int, variables: tuple[str, ...], k: int, steps: int, *, active: bool = True
) -> Instrumented:
    """The ``loop-trace`` copy (``LoopTracing.trace_copy``): the inside copy at ``k`` whose loop runs each keep the
    projection (made plain JSON values, so later changes do not reach it) at the top of their first ``steps``
    iterations, in a list reset right before the loop statement; at iteration ``k`` it prints that list and stops.

    ``active=False`` keeps nothing and prints nothing (the preservation variant, as ``instrument`` makes it).
    """
    if steps < 1 or k < 1:
        raise ValueError(f"a loop trace needs k >= 1 and steps >= 1, not k={k}, steps={steps}")
    tree, node, p, lines, out = _start_copy(source, loop_line)
    projection = "{" + ", ".join(f'"{v}": {v}' for v in variables) + "}"
    prelude = _prelude(p, "inside", active)
    note = prelude.index("# The program's own output is silenced. At the checkpoint below, the selected\n")
    prelude[note : note + 2] = [line.format(steps=steps, k=k) for line in TRACE_NOTE]
    out.insert_before(_prelude_line(tree, lines), prelude)
    loop_indent = _indent(lines[node.lineno - 1])
    reset = f"{p}steps = []  # this loop run's states, first {steps} iterations\n"
    out.insert_before(node.lineno, [loop_indent + reset])
    top = [
        f"{p}count[0] += 1\n",
        f"if {p}active and len({p}steps) < {steps}:\n",
        f"    {p}steps.append({p}plain({projection}))\n",
        f"if {p}active and {p}count[0] == {k}:\n",
        f"    {p}emit({p}steps)\n",
    ]
    _insert_top(out, lines, node, loop_indent, top)
    return out.result(p)


SNAPSHOT_HOOK = "snapshot"
"""The name (after the copy's prefix) under which the measuring probe puts its snapshot hook."""


def measurement_copy(
    source: str, loop_line: int, k: int | None, inside: tuple[int, ...]
) -> tuple[Instrumented, list[int]]:
    """The measurement copy of ``source`` and where each of its lines came from (0: inserted).

    Its inserted lines are those of the ``inside`` and ``post`` copies, at the same places: the
    count at the top of the loop body, ``seen`` before the loop and the test after it. At the top
    of iteration ``i`` for each ``i`` in ``inside`` it calls ``<prefix>snapshot("inside@i")``; right
    after the loop statement that reached iteration ``k`` finishes, ``<prefix>snapshot("post")``;
    the program's output is not silenced and it runs to its end. Only the probe defines the hook.
    ``k`` None: no post checkpoint (nothing inserted before or after the loop, like the inside copy).
    """
    tree, node, p, lines, out = _start_copy(source, loop_line)
    hook = f"{p}{SNAPSHOT_HOOK}"
    out.insert_before(
        _prelude_line(tree, lines),
        [
            "# --- execstate measurement copy (inserted): snapshots of the metrics at the checkpoints ---\n",
            f"{p}count = [0]\n",
            f"{p}inside = {tuple(sorted(set(inside)))!r}\n",
            "# --- end of execstate code ---\n",
        ],
    )
    loop_indent = _indent(lines[node.lineno - 1])
    top = [f"{p}count[0] += 1\n", f"if {p}count[0] in {p}inside:\n", f"    {hook}('inside@%d' % {p}count[0])\n"]
    if k is not None:
        out.insert_before(node.lineno, [loop_indent + f"{p}seen = False\n"])
        top += [f"if {p}count[0] == {k}:\n", f"    {p}seen = True\n"]
        assert node.end_lineno is not None
        out.insert_after(node.end_lineno, [loop_indent + f"if {p}seen:\n", loop_indent + f"    {hook}('post')\n"])
    _insert_top(out, lines, node, loop_indent, top)
    return out.result(p), out.origins()


def states_copy(
    source: str,
    loop_line: int,
    variables: tuple[str, ...],
    k: int,
    inside: tuple[int, ...],
    window: tuple[int, int],
    *,
    stop: bool,
    marks: tuple[int, ...] = (),
) -> Instrumented:
    """A copy printing the projection at many checkpoints of one run, each line ``label<TAB>json`` (or
    ``label<TAB>!`` when the projection fails there), with the program's own output silenced.

    ``inside@i`` at the top of iteration ``i`` for each ``i`` in ``inside``; ``post@i,j,...`` at the exit
    of each execution of the loop that ran iterations ``i, j, ...`` inside ``window`` (its bounds
    included) or in ``marks``: the post copy armed at any of them prints this. It prints what the inside and post copies
    of those iterations print, without stopping (printing changes nothing the program sees); ``stop``:
    exit once the execution holding ``k`` has printed its exit and the last ``inside`` iteration is past.
    """
    tree, node, p, lines, out = _start_copy(source, loop_line)
    projection = "{" + ", ".join(f'"{v}": {v}' for v in variables) + "}"
    last = max(inside, default=0) if stop else 1 << 62
    failed = f"{p}failed"  # what a projection that fails becomes: no JSON value, so it prints the marker
    prelude = _prelude(p, "inside", True)[:-5]  # imports, silencing, the JSON encoder: not emit
    prelude += [
        f"{p}inside = {tuple(sorted(set(inside)))!r}\n",
        *([f"{p}marks = {frozenset(marks)!r}\n"] if marks else []),
        f"{p}done = [False]\n",
        f"{failed} = object()\n",
        f"import sys as {p}sys\n",
        f"def {p}emit(label, state):\n",
        "    # an integer of any length prints: the interpreter's digit limit is the program's, not the state's\n",
        f"    digits = {p}sys.get_int_max_str_digits()\n",
        f"    {p}sys.set_int_max_str_digits(0)\n",
        "    try:\n",
        f"        line = {p}json.dumps({p}plain(state), ensure_ascii=False, separators=(',', ':'), allow_nan=False)\n",
        "    except Exception:\n",
        f"        line = {STATE_FAILED!r}\n",
        "    finally:\n",
        f"        {p}sys.set_int_max_str_digits(digits)\n",
        f"    {p}os.write({p}stdout, (label + '\\t' + line + '\\n').encode('utf-8'))\n",
        "# --- end of execstate code ---\n",
    ]
    out.insert_before(_prelude_line(tree, lines), prelude)
    loop_indent = _indent(lines[node.lineno - 1])
    state = ["try:\n", f"    {p}state = {projection}\n", "except Exception:\n", f"    {p}state = {failed}\n"]
    out.insert_before(node.lineno, [loop_indent + f"{p}mine = []\n"])
    top = [
        f"{p}count[0] += 1\n",
        f"if {window[0]} <= {p}count[0] <= {window[1]}{f' or {p}count[0] in {p}marks' if marks else ''}:\n",
        f"    {p}mine.append({p}count[0])\n",
        f"if {p}count[0] in {p}inside:\n",
        *("    " + line for line in state),
        f"    {p}emit('inside@%d' % {p}count[0], {p}state)\n",
        f"if {p}done[0] and {p}count[0] >= {last}:\n",
        f"    {p}os._exit(0)\n",
    ]
    _insert_top(out, lines, node, loop_indent, top)
    assert node.end_lineno is not None
    after = [
        f"if {p}mine:\n",
        *("    " + line for line in state),
        f"    {p}emit('post@' + ','.join(map(str, {p}mine)), {p}state)\n",
        f"    if {k} in {p}mine:\n",
        f"        {p}done[0] = True\n",
        f"        if {p}count[0] >= {last}:\n",
        f"            {p}os._exit(0)\n",
    ]
    out.insert_after(node.end_lineno, [loop_indent + line for line in after])
    return out.result(p)


def _insert_top(out: _Builder, lines: list[str], node: ast.For | ast.While, loop_indent: str, top: list[str]) -> None:
    """Put ``top`` before the loop body's first statement (splitting a body that shares its header's line)."""
    body = _first_body_statement(node)
    start = _statement_start(body)
    if _starts_after_colon(lines[start - 1], body.col_offset):
        out.split_one_line_body(start, body.col_offset, loop_indent + "    ", top)
    elif lines[start - 2].rstrip("\r\n").endswith("\\"):
        out.unjoin_body(start, loop_indent + "    ", top)
    else:
        out.insert_before(start, [_indent(lines[start - 1]) + t for t in top])


def _start_copy(source: str, loop_line: int) -> tuple[ast.Module, ast.For | ast.While, str, list[str], _Builder]:
    """What every copy starts from: the tree, the loop node, the prefix, the lines and an empty builder."""
    tree = parse_python(source)
    node = next(n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While)) and n.lineno == loop_line)
    lines = source_lines(source)
    if lines and not lines[-1].endswith("\n"):
        lines[-1] += "\n"
    return tree, node, choose_prefix(source), lines, _Builder(lines)


def _first_body_statement(node: ast.For | ast.While) -> ast.stmt:
    """The statement the checkpoint goes before: the first that is not a global/nonlocal declaration
    (a declaration must precede every use of its names in the scope)."""
    for stmt in node.body:
        if not isinstance(stmt, (ast.Global, ast.Nonlocal)):
            return stmt
    return node.body[-1]


def _statement_start(stmt: ast.stmt) -> int:
    """First line of a statement, decorators included."""
    decorators = getattr(stmt, "decorator_list", [])
    return min([stmt.lineno] + [d.lineno for d in decorators])


def _starts_after_colon(line: str, col_offset: int) -> bool:
    """True when the body statement shares its line with the header (one-line body)."""
    head = line.encode("utf-8")[:col_offset].decode("utf-8", "replace")
    return head.strip() != ""


def _indent(line: str) -> str:
    return line[: len(line) - len(line.lstrip(" \t"))]


def _prelude_line(tree: ast.Module, lines: list[str]) -> int:
    """First line after a module docstring, ``from __future__`` imports and a shebang/coding line."""
    after = 1
    for i, line in enumerate(lines[:2]):
        if line.startswith("#!") or re.match(r"^[ \t\f]*#.*?coding[:=]", line):
            after = i + 2
    for stmt in tree.body:
        is_doc = (
            stmt is tree.body[0]
            and isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Constant)
            and isinstance(stmt.value.value, str)
        )
        if is_doc or (isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__"):
            after = max(after, (stmt.end_lineno or stmt.lineno) + 1)
        else:
            break
    return after


_SUPPORT = "# --- execstate checkpoint support (inserted) ---\n"
_EMITTER = re.compile(r"^def (_es\d*_)emit\(state\):$", re.MULTILINE)
DIGIT_LIMIT_ENV = "PYTHONINTMAXSTRDIGITS"
"""The variable that sets CPython's limit on the digits of an int converted to or from text (0: no limit)."""


def over_digit_limit(text: str) -> bool:
    """Whether ``text`` (a run's stderr, or its tail) ends in CPython's refusal to convert an int of more digits
    than ``sys.get_int_max_str_digits()`` allows (4,300 by default) to or from text."""
    lines = text.rstrip().splitlines()
    return bool(lines) and lines[-1].startswith("ValueError: Exceeds the limit (") and "string conversion" in lines[-1]


def emitter_over_digit_limit(source: str, stderr: str) -> bool:
    """Whether a run of ``source``, an inside or post copy, ended because its emitter (not the program) met the
    interpreter's digit limit writing a projected integer: the state holds an integer of more digits than that.

    The inside and post copies' text is what their tasks show, so their emitter cannot lift the limit
    itself (the states copy's does); such a run is made again with the limit off (``DIGIT_LIMIT_ENV``):
    a value of any size the program makes is the program's state, and the size check judges it.
    """
    found = _EMITTER.search(source)
    return (
        found is not None
        and _SUPPORT in source
        and over_digit_limit(stderr)
        and f", in {found.group(1)}emit\n" in stderr.replace("\r\n", "\n")
    )


def _prelude(p: str, mode: Mode, active: bool) -> list[str]:
    if mode == "count":
        return [
            "# --- execstate: count iterations of the selected loop (inserted) ---\n",
            f"import atexit as {p}atexit, os as {p}os\n",
            f"{p}count = [0]\n",
            f"{p}atexit.register(lambda: {p}os.write(2, b'\\n{COUNT_MARKER}%d\\n' % {p}count[0]))\n",
            "# --- end of execstate code ---\n",
        ]
    return [
        _SUPPORT,
        "# The program's own output is silenced. At the checkpoint below, the selected\n",
        "# variables are printed as one line of JSON and the program stops.\n",
        f"import collections as {p}collections, json as {p}json, os as {p}os\n",
        f"{p}active = {active}\n",
        f"{p}count = [0]  # iterations of the selected loop so far, over the whole run\n",
        f"if {p}active:\n",
        f"    {p}stdout = {p}os.dup(1)\n",
        f"    {p}os.dup2({p}os.open({p}os.devnull, {p}os.O_WRONLY), 1)\n",
        f"def {p}plain(value):\n",
        "    # JSON values only: tuples and deques become lists; anything else is refused.\n",
        "    if value is None or type(value) in (bool, int, str):\n",
        "        return value\n",
        "    if type(value) is float and value == value and abs(value) != float('inf'):\n",
        "        return value\n",
        f"    if isinstance(value, (list, tuple, {p}collections.deque)):\n",
        f"        return [{p}plain(item) for item in value]\n",
        "    if isinstance(value, dict) and all(type(key) is str for key in value):\n",
        f"        return {{key: {p}plain(item) for key, item in value.items()}}\n",
        "    raise TypeError('execstate: a checkpoint value of type %s is not JSON-representable'"
        " % type(value).__name__)\n",
        f"def {p}emit(state):\n",
        f"    line = {p}json.dumps({p}plain(state), ensure_ascii=False, separators=(',', ':'), allow_nan=False)\n",
        f"    {p}os.write({p}stdout, (line + '\\n').encode('utf-8'))\n",
        f"    {p}os._exit(0)\n",
        "# --- end of execstate checkpoint support ---\n",
    ]


class _Builder:
    """Collect insertions keyed by clean line numbers, then render with inserted-line bookkeeping."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.before: dict[int, list[tuple[str, bool]]] = {}
        self.after: dict[int, list[tuple[str, bool]]] = {}
        self.replace: dict[int, list[tuple[str, bool]]] = {}

    def insert_before(self, line: int, texts: list[str]) -> None:
        self.before.setdefault(line, []).extend((t, True) for t in texts)

    def insert_after(self, line: int, texts: list[str]) -> None:
        self.after.setdefault(line, []).extend((t, True) for t in texts)

    def split_one_line_body(self, line: int, col: int, indent: str, texts: list[str]) -> None:
        raw = self.lines[line - 1].encode("utf-8")
        head = raw[:col].decode("utf-8").rstrip() + "\n"
        tail = indent + raw[col:].decode("utf-8")
        self.replace[line] = [(head, False)] + [(indent + t, True) for t in texts] + [(tail, False)]

    def unjoin_body(self, line: int, indent: str, texts: list[str]) -> None:
        """A body joined to its header by a backslash: drop the backslash, put the body on its own line."""
        prev = self.lines[line - 2].rstrip("\r\n")
        self.replace[line - 1] = [(prev[:-1].rstrip() + "\n", False)]
        body = self.lines[line - 1]
        self.replace[line] = [(indent + t, True) for t in texts] + [(indent + body.lstrip(" \t"), False)]

    def _rendered(self) -> list[tuple[str, int]]:
        """Each output line and the clean line it comes from (0: inserted)."""
        rendered: list[tuple[str, int]] = []
        n = len(self.lines)
        for i in range(1, n + 2):
            rendered.extend((t, 0 if ins else i) for t, ins in self.before.get(i, []))
            if i <= n:
                rendered.extend((t, 0 if ins else i) for t, ins in self.replace.get(i, [(self.lines[i - 1], False)]))
            rendered.extend((t, 0 if ins else i) for t, ins in self.after.get(i, []))
        return rendered

    def result(self, prefix: str) -> Instrumented:
        rendered = self._rendered()
        text = "".join(t for t, _ in rendered)
        inserted = frozenset(i + 1 for i, (_, origin) in enumerate(rendered) if not origin)
        return Instrumented(text, inserted, prefix)

    def origins(self) -> list[int]:
        """Line ``i + 1`` of the result comes from clean line ``origins()[i]`` (0: inserted)."""
        return [origin for _, origin in self._rendered()]
