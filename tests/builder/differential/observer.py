"""Reference oracle: observe a clean program's selected loop at the bytecode level, independently of instrument().

Run as ``python observer.py PROGRAM LOOP_LINE VAR [VAR...]`` with the program's input on stdin. The
program runs unchanged (compiled from its own text) under ``sys.settrace`` with per-opcode events in
the code object that holds the selected loop. Its own stdout is silenced at the file-descriptor level;
at the end one JSON object is written to the real stdout:

    {"K": total iteration starts,
     "inside": [state at the top of iteration 1, 2, ..., K],
     "post": [state at the exit of the loop execution containing iteration 1, 2, ..., K],
     "starts": [the iterations that begin a loop execution (the first iteration of each entry)]}

A state is the canonical JSON text of the projection, ``"unbound"`` when a projected name is not
bound at that point, or ``null`` (post only) when that loop execution was left by ``return`` or an
exception, so no exit was reached.

Iteration start: the frame executes the first instruction of the loop body's first statement (the
lowest bytecode offset whose source position lies inside that statement), arriving from an
instruction that is not itself inside that statement. The second condition matters because CPython
(3.11 to 3.13) compiles ``continue`` in a nested ``while`` to a jump to that while's top condition
test, which is the outer body's first instruction when that while is the outer body's first statement.

Loop exit: after iteration k started in a frame, the first instruction of that same frame whose
position lies outside the loop statement's span (``else:`` clause included). Instructions without a
position are ignored. When that first outside instruction follows an ``exception`` trace event of
the frame (an exception handler outside the loop), the loop was left by the exception: no exit.

Per-opcode events: on 3.12+ ``sys.settrace`` runs on ``sys.monitoring`` (PEP 669), and setting
``frame.f_trace_opcodes`` in the ``call`` event, which is all 3.11 needs, delivers no ``opcode``
event (CPython gh-103615, gh-114480). 3.12 registers instruction events only when some frame had
``f_trace_opcodes`` set before ``sys.settrace`` is called; 3.13 instruments the code object when
``f_trace_opcodes`` is set on a frame that already has ``f_trace``. The observer does both (see
``_start_tracing`` and ``global_trace``) and refuses to answer if any ``line`` event of the traced
code object is not followed by an ``opcode`` event: without that check, opcode events lost silently
look exactly like a loop that never ran (K = 0).
"""

from __future__ import annotations

import ast
import dis
import json
import os
import sys
import types

Span = tuple[int, int, int, int]


def _span(node: ast.AST) -> Span:
    """Source span of a statement; a decorated def/class starts at its first decorator."""
    first = min([node, *getattr(node, "decorator_list", [])], key=lambda n: (n.lineno, n.col_offset))
    return (first.lineno, first.col_offset, node.end_lineno, node.end_col_offset)  # type: ignore[attr-defined]


def _inside(pos, span: Span) -> bool | None:
    """True/False when ``pos`` is contained in ``span``; None when the instruction has no position."""
    if pos is None or None in (pos.lineno, pos.col_offset, pos.end_lineno, pos.end_col_offset):
        return None
    start, end = (pos.lineno, pos.col_offset), (pos.end_lineno, pos.end_col_offset)
    return (span[0], span[1]) <= start and end <= (span[2], span[3])


def _code_objects(code: types.CodeType):
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _code_objects(const)


def locate(code: types.CodeType, body0: Span) -> tuple[types.CodeType, int, dict[int, object]]:
    """The code object holding the loop body, the offset of the body's entry, and offset -> positions."""
    found = []
    for co in _code_objects(code):
        offsets = [i.offset for i in dis.get_instructions(co) if _inside(i.positions, body0)]
        if offsets:
            found.append((co, min(offsets)))
    if len(found) != 1:
        raise SystemExit(f"observer: the loop body's first statement compiles into {len(found)} code objects")
    co, entry = found[0]
    return co, entry, {i.offset: i.positions for i in dis.get_instructions(co)}


class Observer:
    """Per-opcode tracer of one code object: records iteration starts and loop exits."""

    def __init__(self, code, entry, positions, body0: Span, loop: Span, variables: list[str]) -> None:
        self.code, self.entry, self.positions = code, entry, positions
        self.body0, self.loop, self.variables = body0, loop, variables
        self.local_names = set(code.co_varnames) | set(code.co_cellvars) | set(code.co_freevars)
        self.is_module = code.co_name == "<module>"
        self.prev: dict[int, int] = {}  # id(frame) -> offset of the frame's previous instruction
        self.armed: dict[int, list[int]] = {}  # id(frame) -> iterations whose loop execution has not exited
        self.inside: list[str] = []
        self.post: list[str | None] = []
        self.starts: list[int] = []
        self.unwinding: set[int] = set()  # frames between an exception event and the next positioned opcode
        self.line_at: dict[int, int] = {}  # id(frame) -> offset of a line event awaiting its opcode event

    def snapshot(self, frame) -> str:
        scope = frame.f_globals if self.is_module else frame.f_locals
        state = {}
        for name in self.variables:
            if not self.is_module and name not in self.local_names:
                value_scope = frame.f_globals
            else:
                value_scope = scope
            if name not in value_scope:
                return "unbound"
            state[name] = _plain(value_scope[name])
        return json.dumps(state, ensure_ascii=False, separators=(",", ":"))

    def global_trace(self, frame, event, arg):
        if frame.f_code is not self.code:
            return None
        # 3.13 turns opcode events on for the code object only if the frame already has its local
        # trace function when f_trace_opcodes is set; 3.11 and 3.12 accept it in either order.
        frame.f_trace = self.local_trace
        frame.f_trace_opcodes = True
        return self.local_trace

    def local_trace(self, frame, event, arg):
        key = id(frame)
        self._check_opcode_events(key, event, frame.f_lasti)
        if event == "opcode":
            self._opcode(frame, key, frame.f_lasti)
        elif event == "exception":
            self.unwinding.add(key)
        elif event == "return":
            # Left by return or an exception: any loop execution still open in this frame never exits.
            for k in self.armed.pop(key, []):
                self.post[k - 1] = None
            self.prev.pop(key, None)
            self.unwinding.discard(key)
        return self.local_trace

    def _check_opcode_events(self, key: int, event: str, offset: int) -> None:
        """Stop unless every ``line`` event is followed by an ``opcode`` event of the same frame.

        Both are emitted before the instruction runs, line first, so anything else next means this
        interpreter is not delivering opcode events and every count would be wrong. The offsets are
        not compared: on 3.13 the ``line`` event of a backward jump to the same line reports the
        jump's own offset in ``f_lasti``, the ``opcode`` event after it the target's."""
        pending = self.line_at.pop(key, None)
        if pending is not None and event != "opcode":
            raise SystemExit(
                f"observer: the line event at offset {pending} was followed by {event!r}, "
                f"not by an opcode event: per-opcode tracing is not working"
            )
        if event == "line":
            self.line_at[key] = offset

    def _opcode(self, frame, key: int, offset: int) -> None:
        pos = self.positions.get(offset)
        open_iterations = self.armed.get(key)
        where = _inside(pos, self.loop)
        by_exception = key in self.unwinding
        if where is not None:
            self.unwinding.discard(key)
        if open_iterations and where is False:
            state = None if by_exception else self.snapshot(frame)
            for k in open_iterations:
                self.post[k - 1] = state
            self.armed[key] = []
        prev = self.prev.get(key)
        came_from_body0 = prev is not None and _inside(self.positions.get(prev), self.body0) is True
        if offset == self.entry and not came_from_body0:
            self.inside.append(self.snapshot(frame))
            self.post.append("<open>")
            if not self.armed.get(key):
                self.starts.append(len(self.inside))
            self.armed.setdefault(key, []).append(len(self.inside))
        self.prev[key] = offset


def _plain(value):
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _start_tracing(trace) -> None:
    """``sys.settrace(trace)`` with per-opcode events available to the frames that ask for them.

    3.12 decides once, inside ``sys.settrace``, whether instruction events exist at all: only if
    ``f_trace_opcodes`` was ever set on some frame. Setting it on this (untraced) frame first, and
    clearing it after, makes them exist; the flag stays per frame, so only the observed code object's
    frames receive ``opcode`` events. 3.11 and 3.13 do not need it."""
    here = sys._getframe()
    here.f_trace_opcodes = True
    sys.settrace(trace)
    here.f_trace_opcodes = False


def main() -> None:
    path, loop_line, variables = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
    with open(path, encoding="utf-8") as f:
        source = f.read()
    tree = ast.parse(source)
    loop = next(n for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While)) and n.lineno == loop_line)
    code = compile(source, path, "exec")
    co, entry, positions = locate(code, _span(loop.body[0]))
    obs = Observer(co, entry, positions, _span(loop.body[0]), _span(loop), variables)
    real_stdout = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    _start_tracing(obs.global_trace)
    try:
        exec(code, {"__name__": "__main__", "__builtins__": __builtins__})
    finally:
        sys.settrace(None)
    sys.stdout.flush()
    result = {"K": len(obs.inside), "inside": obs.inside, "post": obs.post, "starts": obs.starts}
    os.write(real_stdout, (json.dumps(result) + "\n").encode("utf-8"))


if __name__ == "__main__":
    main()
