"""Hypothesis strategy: small deterministic Python programs with one selected loop and their stdin.

Shapes covered: ``for`` over a range, a list or ``enumerate`` (a tuple target) and ``while`` with
a counter; the selected loop at module level, in a function or in a method; optionally inside an
outer loop (inner selected) and/or containing a nested ``for``/``while`` (outer selected); bodies
with conditional ``break``/``continue``, ``if``/``else``, ``try``/``except``, ``print``, ``return``
(functions only), recursive calls that re-enter the loop and a division by zero that leaves the loop
for an enclosing ``try``; an optional ``else:`` clause; one-line
bodies (``for x in s: a += x; b += 1``). The body's first statement is drawn like any other, so it
is often an ``if``, a ``try`` or a loop. Every program terminates: ``while`` counters are incremented
before every ``continue`` and at the end of the body, nested ``while`` loops stop within five steps,
recursion stops at depth 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from hypothesis import strategies as st

IND = "    "


@dataclass(frozen=True)
class Program:
    """A generated program, its input, the selected loop's header line and the projection."""

    source: str
    stdin: bytes
    loop_line: int
    variables: tuple[str, ...]
    one_line: bool
    features: tuple[str, ...]


@dataclass
class _Emitter:
    lines: list[str] = field(default_factory=list)
    selected: int | None = None

    def add(self, depth: int, text: str) -> None:
        self.lines.append(IND * depth + text + "\n")

    def mark(self) -> None:
        self.selected = len(self.lines) + 1  # 1-based number of the line about to be added


@dataclass(frozen=True)
class _Ctx:
    kind: str  # module | function | method
    var: str  # the selected loop's variable (for) or counter (while)
    loop: str  # for | while
    recursive: bool


_SIMPLE = ("acc", "log", "steps")
_COMPOUND = ("if", "continue", "break", "inner_for", "inner_while", "try", "print", "return")


def _simple(kind: str, v: str) -> str:
    return {"acc": f"total += {v} * 2 + a", "log": f"log.append({v} % 3)", "steps": "steps += 1"}[kind]


def _statement(out: _Emitter, d: int, kind: str, ctx: _Ctx) -> None:
    """Emit one body statement of the selected loop at depth ``d``."""
    v = ctx.var
    if kind in _SIMPLE:
        out.add(d, _simple(kind, v))
    elif kind == "if":
        out.add(d, f"if {v} % 2 == b % 2:")
        out.add(d + 1, "total += 1")
        out.add(d, "else:")
        out.add(d + 1, "steps += 2")
    elif kind == "continue":
        out.add(d, f"if {v} % 3 == 1:")
        if ctx.loop == "while":
            out.add(d + 1, f"{v} += 1")
        out.add(d + 1, "continue")
    elif kind == "break":
        out.add(d, "if total > a * 4 + 6:")
        out.add(d + 1, "break")
    elif kind == "inner_for":
        out.add(d, f"for y in range({v} % 3 + 1):")
        out.add(d + 1, "if y == 2:")
        out.add(d + 2, "break")
        out.add(d + 1, "steps += y")
    elif kind == "inner_while":
        out.add(d, "while steps % 5 != 4:")
        out.add(d + 1, "steps += 1")
        out.add(d + 1, "if steps % 2 == 0:")
        out.add(d + 2, "continue")
        out.add(d + 1, "total += 1")
    elif kind == "try":
        out.add(d, "try:")
        out.add(d + 1, f"total += 12 // ({v} % 3)")
        out.add(d, "except ZeroDivisionError:")
        out.add(d + 1, "steps += 3")
    elif kind == "raise":
        out.add(d, f"total += 12 // (({v} + steps) % 4 - 3)")  # the handler changes steps
    elif kind == "print":
        out.add(d, f"print('at', {v}, total)")
    elif kind == "recurse":
        call = "self.solve" if ctx.kind == "method" else "solve"
        out.add(d, f"if depth < 1 and {v} % 2 == 0:")
        out.add(d + 1, f"total += {call}(depth + 1, a, b, data)")
    elif kind == "return":
        out.add(d, "if total > b * 5 + 8:")
        out.add(d + 1, "return total")


@st.composite
def _loop_plan(draw, ctx_kind: str) -> dict:
    loop = draw(st.sampled_from(["for", "while"]))
    one_line = draw(st.sampled_from([False, False, False, True]))
    allowed = list(_SIMPLE) + [c for c in _COMPOUND if ctx_kind != "module" or c != "return"]
    if one_line:
        body = draw(st.lists(st.sampled_from(_SIMPLE), min_size=1, max_size=3))
    else:
        body = draw(st.lists(st.sampled_from(allowed), min_size=1, max_size=4))
        # Recursion re-entering the loop is the one shape where "the exit of the loop execution
        # containing k" differs from "the first loop exit after k": draw it often, at any position.
        if ctx_kind != "module" and draw(st.booleans()):
            body.insert(draw(st.integers(0, len(body))), "recurse")
    try_wrap = draw(st.booleans())
    if try_wrap and not one_line and draw(st.booleans()):
        body.insert(draw(st.integers(0, len(body))), "raise")  # leaves the loop by an exception
    return {
        "try_wrap": try_wrap,
        "loop": loop,
        "one_line": one_line,
        "body": body,
        "iterable": draw(st.sampled_from(["range(a + 2)", "data", "range(b, a + b + 3)", "enumerate(data)"])),
        "else": draw(st.booleans()),
        "outer": draw(st.sampled_from([None, "for", "while"])),
        "after_in_outer": draw(st.booleans()),
    }


def _selected_loop(out: _Emitter, d: int, plan: dict, ctx: _Ctx) -> None:
    """Emit the selected loop (and its counter initialisation) at depth ``d``."""
    v = ctx.var
    if ctx.loop == "while":
        out.add(d, f"{v} = 0")
        header = f"while {v} < a + 3:"
    else:
        target = f"i, {v}" if plan["iterable"].startswith("enumerate") else v  # a tuple target
        header = f"for {target} in {plan['iterable']}:"
    out.mark()
    if plan["one_line"]:
        parts = [_simple(k, v) for k in plan["body"]] + ([f"{v} += 1"] if ctx.loop == "while" else [])
        out.add(d, header + " " + "; ".join(parts))
    else:
        out.add(d, header)
        for kind in plan["body"]:
            _statement(out, d + 1, kind, ctx)
        if ctx.loop == "while":
            out.add(d + 1, f"{v} += 1")
    if plan["else"]:
        out.add(d, "else:")
        out.add(d + 1, "steps += 100")


def _guarded_loop(out: _Emitter, d: int, plan: dict, ctx: _Ctx) -> None:
    """The selected loop, inside ``try: ... except ZeroDivisionError:`` when the plan says so."""
    if not plan["try_wrap"]:
        _selected_loop(out, d, plan, ctx)
        return
    out.add(d, "try:")
    _selected_loop(out, d + 1, plan, ctx)
    out.add(d, "except ZeroDivisionError:")
    out.add(d + 1, "steps += 7")


def _loop_nest(out: _Emitter, d: int, plan: dict, ctx: _Ctx) -> None:
    """The selected loop, optionally wrapped in an outer loop, then a statement after it."""
    if plan["outer"] == "for":
        out.add(d, "for r in range(b % 3 + 1):")
        _guarded_loop(out, d + 1, plan, ctx)
        if plan["after_in_outer"]:
            out.add(d + 1, "steps += r")
    elif plan["outer"] == "while":
        out.add(d, "r = 0")
        out.add(d, "while r <= b % 3:")
        _guarded_loop(out, d + 1, plan, ctx)
        out.add(d + 1, "r += 1")
    else:
        _guarded_loop(out, d, plan, ctx)


def _variables(draw, plan: dict, ctx: _Ctx) -> tuple[str, ...]:
    names = ["total", "steps", "log", ctx.var]
    if ctx.loop == "for" and plan["iterable"].startswith("enumerate"):
        names.append("i")
    if plan["outer"]:
        names.append("r")
    if ctx.kind != "module":
        names.append("depth")
    if any(k == "inner_for" for k in plan["body"]):
        names.append("y")  # unbound before the first nested iteration: the checkpoint must crash there
    chosen = draw(st.lists(st.sampled_from(names), min_size=1, max_size=4, unique=True))
    return tuple(chosen)


@st.composite
def programs(draw) -> Program:
    """A terminating program, its stdin (two small integers) and the selected loop."""
    kind = draw(st.sampled_from(["module", "function", "method"]))
    plan = draw(_loop_plan(kind))
    ctx = _Ctx(kind, "x" if plan["loop"] == "for" else "w", plan["loop"], "recurse" in plan["body"])
    out = _Emitter()
    out.add(0, "# generated by tests/builder/differential/programs.py")
    if kind == "module":
        out.add(0, "a, b = map(int, input().split())")
        out.add(0, "data = [a, b, a + b, 3]")
        out.add(0, "total, steps, log = 0, 0, []")
        _loop_nest(out, 0, plan, ctx)
        out.add(0, "print(total, steps, log)")
    else:
        d = 1 if kind == "function" else 2
        if kind == "method":
            out.add(0, "class Solver:")
            out.add(1, "def solve(self, depth, a, b, data):")
        else:
            out.add(0, "def solve(depth, a, b, data):")
        out.add(d, "total, steps, log = 0, 0, []")
        _loop_nest(out, d, plan, ctx)
        out.add(d, "return total + steps + len(log)")
        out.add(0, "a, b = map(int, input().split())")
        target = "Solver().solve" if kind == "method" else "solve"
        out.add(0, f"print({target}(0, a, b, [a, b, a + b, 3]))")
    a, b = draw(st.integers(0, 4)), draw(st.integers(0, 4))
    features = (
        kind,
        plan["loop"],
        f"outer={plan['outer']}",
        f"else={plan['else']}",
        f"try={plan['try_wrap']}",
        f"one_line={plan['one_line']}",
        *plan["body"],
    )
    assert out.selected is not None
    return Program(
        "".join(out.lines), f"{a} {b}\n".encode(), out.selected, _variables(draw, plan, ctx), plan["one_line"], features
    )
