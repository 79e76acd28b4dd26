"""Differential test: the builder's checkpoint oracles equal an independent bytecode-level observation.

For each generated program (see ``differential/programs.py``), the reference is computed WITHOUT
``instrument``: ``differential/observer.py`` runs the clean program in a subprocess under a per-opcode
``sys.settrace`` observer that records, for every iteration k of the selected loop, the projection at
the top of iteration k (inside) and at the exit of the loop execution containing it (post), plus the
total count K. The instrumented programs (inside, post, count) and the preservation variants run
through ``execstate.sandbox.run_python`` and must agree with it exactly, byte for byte.

The observer itself is checked against hand-derived values in the first tests below. ``PINNED``
programs cover interactions too rare for 40 random examples (recursion, an exception exit followed by
a normal exit in the same frame) at every k. Tests at the end pin instrument() bugs it found (fixed).
Run: ``python -m pytest tests/builder/test_instrument_differential.py -q``
(``--hypothesis-show-statistics`` shows the example count).
"""

from __future__ import annotations

import ast
import json
import re
import sys
import tempfile
from pathlib import Path

import pytest
from differential.observer import Observer
from differential.programs import Program, programs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from execstate.languages._protocol import COUNT_MARKER, Instrumented
from execstate.languages.python.instrument import instrument
from execstate.sandbox import Limits, SandboxResult, run, run_python

OBSERVER = Path(__file__).with_name("differential") / "observer.py"
LIMITS = Limits(wall_s=20, cpu_s=20)
UNBOUND = (b"NameError", b"UnboundLocalError")


def _write(tmp: Path, name: str, source: str) -> Path:
    path = tmp / name
    path.write_text(source, encoding="utf-8")
    return path


def observe(tmp: Path, source: str, loop_line: int, variables: tuple[str, ...], stdin: bytes) -> dict:
    """The reference: ``{"K": int, "inside": [...], "post": [...]}`` from the bytecode observer."""
    path = _write(tmp, "observed.py", source)
    argv = [sys.executable, "-s", "-B", str(OBSERVER), str(path), str(loop_line), *variables]
    res = run(argv, stdin, LIMITS, readable=(OBSERVER, path))
    assert res.ok, res.describe()
    return json.loads(res.stdout)


def _run(tmp: Path, source: str, stdin: bytes) -> SandboxResult:
    return run_python(_write(tmp, "main.py", source), stdin, LIMITS)


# --- the observer against hand-derived values -------------------------------------------------

NESTED_WHILE_CONTINUE = """\
def f(n):
    t = 0
    for o in range(n):
        while t % 5 != 4:
            t += 1
            if t % 2 == 0:
                continue
            t += 10
        t += 1
    return t
print(f(3))
"""


def test_observer_ignores_a_nested_while_continue_that_jumps_to_the_body_entry(tmp_path):
    # By hand: o=0 starts at t=0, the while runs t: 1->11->12(continue)->13->23->24(continue), stops at
    # 24, then t=25; each outer iteration adds 25. Exactly 3 iteration starts despite 2 continues each.
    ref = observe(tmp_path, NESTED_WHILE_CONTINUE, 3, ("t", "o"), b"")
    assert ref["K"] == 3
    assert ref["inside"] == ['{"t":0,"o":0}', '{"t":25,"o":1}', '{"t":50,"o":2}']
    assert ref["post"] == ['{"t":75,"o":2}'] * 3
    assert ref["starts"] == [1]


RECURSIVE = """\
def f(n):
    t = 0
    for o in range(n):
        t += 1
    return t
total = 0
for i in range(3):
    total += f(i)
else:
    total += 100
print(total)
"""


def test_observer_counts_every_entry_and_closes_each_execution_at_its_own_exit(tmp_path):
    # f(0) runs no iteration, f(1) one (o=0), f(2) two (o=0, o=1): K = 3 over two executions.
    ref = observe(tmp_path, RECURSIVE, 3, ("t", "o"), b"")
    assert ref == {
        "K": 3,
        "inside": ['{"t":0,"o":0}', '{"t":0,"o":0}', '{"t":1,"o":1}'],
        "post": ['{"t":1,"o":0}', '{"t":2,"o":1}', '{"t":2,"o":1}'],
        "starts": [1, 2],
    }
    # The module loop's post state includes its else clause: 0 + 0 + 1 + 2 + 100.
    outer = observe(tmp_path, RECURSIVE, 7, ("total", "i"), b"")
    assert outer["post"] == ['{"total":103,"i":2}'] * 3


def test_observer_marks_a_loop_left_by_return_and_unbound_names(tmp_path):
    src = "def f():\n    for i in range(5):\n        if i == 1:\n            return i\n        y = i\n    return 0\nprint(f())\n"
    ref = observe(tmp_path, src, 2, ("i", "y"), b"")
    assert ref == {"K": 2, "inside": ["unbound", '{"i":1,"y":0}'], "post": [None, None], "starts": [1]}


LEFT_BY_EXCEPTION = """\
def f():
    t = 0
    for r in range(2):
        try:
            for i in range(4):
                t += 12 // (i - 2)
        except ZeroDivisionError:
            t += 100
    return t
print(f())
"""


def test_observer_gives_no_exit_to_a_loop_left_by_an_exception(tmp_path):
    # By hand: i=0 adds 12//-2 = -6, i=1 adds -12, i=2 divides by zero (+100 in the handler): 3 per entry.
    ref = observe(tmp_path, LEFT_BY_EXCEPTION, 5, ("t", "i", "r"), b"")
    assert ref["inside"] == [
        '{"t":0,"i":0,"r":0}',
        '{"t":-6,"i":1,"r":0}',
        '{"t":-18,"i":2,"r":0}',
        '{"t":82,"i":0,"r":1}',
        '{"t":76,"i":1,"r":1}',
        '{"t":64,"i":2,"r":1}',
    ]
    assert ref["post"] == [None] * 6 and ref["starts"] == [1, 4]


def test_observer_refuses_a_line_event_that_no_opcode_event_follows():
    # On 3.12 and 3.13 opcode events used to go missing silently, so every loop looked unexecuted (K = 0).
    span = (1, 0, 1, 4)
    obs = Observer(compile("pass", "<check>", "exec"), 0, {}, span, span, [])
    for event, offset in [("line", 4), ("opcode", 2), ("opcode", 4), ("line", 6), ("opcode", 6)]:
        obs._check_opcode_events(1, event, offset)  # a line event's f_lasti may differ (3.13 back jumps)
    obs._check_opcode_events(1, "line", 8)
    with pytest.raises(SystemExit, match="per-opcode tracing is not working"):
        obs._check_opcode_events(1, "line", 10)


# --- the differential property -----------------------------------------------------------------


def kept_lines(inst: Instrumented) -> list[str]:
    """The instrumented source without its inserted lines."""
    lines = inst.source.splitlines(keepends=True)
    return [line for n, line in enumerate(lines, 1) if n not in inst.inserted_lines]


def assert_only_insertions(prog: Program, inst: Instrumented) -> None:
    """Removing ``inserted_lines`` gives the clean source, except the documented one-line-body split."""
    kept, clean = kept_lines(inst), prog.source.splitlines(keepends=True)
    if not prog.one_line:
        assert kept == clean
        return
    i = prog.loop_line - 1
    assert kept[:i] == clean[:i] and kept[i + 2 :] == clean[i + 1 :], "only the loop header line may change"
    head, tail, original = kept[i].rstrip("\n"), kept[i + 1], clean[i]
    assert head.endswith(":") and original.startswith(head), "the header keeps its text up to the colon"
    assert original[len(head) :].strip() == tail.strip(), "the body moves, unchanged, to the next line"
    indent = re.match(r"[ \t]*", original).group(0)
    assert tail.startswith(indent + "    ") and not tail.startswith(indent + "     ")
    assert ast.dump(ast.parse("".join(kept))) == ast.dump(ast.parse(prog.source))


def assert_preserving(tmp: Path, prog: Program, inst: Instrumented, mode: str, k: int, clean: bytes) -> None:
    """``_es_active = True`` -> False changes exactly one line and restores the clean output."""
    on, off = f"{inst.prefix}active = True\n", f"{inst.prefix}active = False\n"
    assert inst.source.count(on) == 1
    variant = inst.source.replace(on, off)
    assert variant == instrument(prog.source, prog.loop_line, prog.variables, mode, k, active=False).source
    differing = [(a, b) for a, b in zip(inst.source.splitlines(), variant.splitlines()) if a != b]
    assert len(differing) == 1 and len(inst.source.splitlines()) == len(variant.splitlines())
    res = _run(tmp, variant, prog.stdin)
    assert res.ok, res.describe()
    assert res.stdout == clean


def assert_checkpoint(res: SandboxResult, expected: str | None) -> None:
    """``expected`` is the reference state, ``"unbound"``, or None (the checkpoint must not fire)."""
    if expected == "unbound":
        assert not res.ok and any(e in res.stderr for e in UNBOUND), res.describe()
    elif expected is None:
        assert res.ok and res.stdout == b"", res.describe()
    else:
        assert res.ok, res.describe()
        assert res.stdout.decode("utf-8") == expected + "\n"


def check_count(tmp: Path, prog: Program, ref: dict, clean: bytes) -> None:
    inst = instrument(prog.source, prog.loop_line, prog.variables, "count")
    assert_only_insertions(prog, inst)
    res = _run(tmp, inst.source, prog.stdin)
    assert res.ok, res.describe()
    assert res.stdout == clean, "count mode must not change the program's output"
    found = re.findall(rb"\n" + re.escape(COUNT_MARKER.encode()) + rb"(\d+)\n", res.stderr)
    assert [int(n) for n in found] == [ref["K"]]


def _choose_k(ref: dict, mode: str) -> st.SearchStrategy[int]:
    """Any k in 1..K+1 (K+1: nothing may fire); for post, often the first iteration of a loop execution,
    where a recursive re-entry's exit precedes the exit of the execution containing k."""
    anywhere = st.integers(1, ref["K"] + 1)
    if mode == "post" and ref["starts"]:
        return st.one_of(st.sampled_from(ref["starts"]), anywhere)
    return anywhere


def check_against_observer(prog: Program, choose_ks) -> None:
    """Run every differential check on ``prog``; ``choose_ks(ref, mode)`` gives the k values to try."""
    with tempfile.TemporaryDirectory(prefix="execstate-diff-") as name:
        tmp = Path(name)
        clean = _run(tmp, prog.source, prog.stdin)
        assert clean.ok, clean.describe()
        ref = observe(tmp, prog.source, prog.loop_line, prog.variables, prog.stdin)
        assert len(ref["inside"]) == len(ref["post"]) == ref["K"]
        check_count(tmp, prog, ref, clean.stdout)
        for mode in ("inside", "post"):
            for n, k in enumerate(choose_ks(ref, mode)):
                inst = instrument(prog.source, prog.loop_line, prog.variables, mode, k)
                assert_only_insertions(prog, inst)
                expected = ref[mode][k - 1] if k <= ref["K"] else None
                assert_checkpoint(_run(tmp, inst.source, prog.stdin), expected)
                if n == 0:  # the variants for other k differ only in the constant k
                    assert_preserving(tmp, prog, inst, mode, k, clean.stdout)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(prog=programs(), data=st.data())
def test_instrumented_checkpoints_match_the_bytecode_observer(prog: Program, data) -> None:
    check_against_observer(prog, lambda ref, mode: [data.draw(_choose_k(ref, mode), label=f"k ({mode})")])


def _pinned(source: str, header: str, variables: tuple[str, ...]) -> Program:
    line = source.splitlines().index(header) + 1
    loop = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.For, ast.While)) and n.lineno == line)
    return Program(source, b"", line, variables, loop.body[0].lineno == line, ("pinned",))


# Interactions too rare for 40 random examples to reach reliably; every k from 1 to K+1 is checked.
PINNED = {
    # post of k=1 is depth 0's exit, after depth 1's loop (a re-entry) has exited first.
    "recursion": _pinned(
        "def walk(depth):\n    acc = 0\n    for step in range(3):\n        if depth < 1:\n"
        "            acc += walk(depth + 1)\n        acc += step\n    return acc\nprint(walk(0))\n",
        "    for step in range(3):",
        ("acc", "step", "depth"),
    ),
    # the first execution is left by ZeroDivisionError (no post), the second exits normally in the same frame.
    "exception-then-normal-exit": _pinned(
        "total, steps = 0, 1\nfor r in range(2):\n    try:\n        for x in range(3):\n"
        "            total += 12 // ((x + steps) % 4 - 3)\n    except ZeroDivisionError:\n"
        "        steps += 7\nprint(total, steps)\n",
        "        for x in range(3):",
        ("total", "steps", "x"),
    ),
    # a nested while opening the body, whose continue jumps to the outer body's first instruction.
    "nested-while-continue": _pinned(NESTED_WHILE_CONTINUE, "    for o in range(n):", ("t", "o")),
    # a one-line while body with an else clause, in a method, inner loop of a nest and last in its body.
    "one-line-while-else": _pinned(
        "class C:\n    def run(self):\n        out = []\n        for r in range(3):\n            w = 0\n"
        "            while w < r + 1: out.append(w); w += 1\n            else:\n                out.append(-1)\n"
        "        return out\nprint(C().run())\n",
        "            while w < r + 1: out.append(w); w += 1",
        ("out", "w", "r"),
    ),
}


@pytest.mark.parametrize("name", sorted(PINNED))
def test_pinned_programs_match_the_observer_at_every_k(name: str) -> None:
    check_against_observer(PINNED[name], lambda ref, mode: range(1, ref["K"] + 2))


# --- regressions: instrument() bugs this test found, now fixed ----------


def _inside(tmp: Path, source: str, loop_line: int, variables: tuple[str, ...], k: int) -> SandboxResult:
    return _run(tmp, instrument(source, loop_line, variables, "inside", k).source, b"")


def test_decorated_def_as_the_bodys_first_statement(tmp_path):
    src = (
        "def deco(f):\n    return f\ntotal = 0\nfor i in range(3):\n    @deco\n    def g():\n"
        "        return 1\n    total += i + g()\nprint(total)\n"
    )
    res = _inside(tmp_path, src, 4, ("i", "total"), 2)
    assert res.ok and res.stdout == b'{"i":1,"total":1}\n', res.describe()


def test_form_feed_line_before_the_loop(tmp_path):
    src = "total = 0\n\x0c\nfor i in range(3):\n    total += i + 1\nprint(total)\n"
    res = _inside(tmp_path, src, 3, ("total",), 2)
    assert res.ok and res.stdout == b'{"total":1}\n', res.describe()


def test_global_statement_as_the_bodys_first_statement(tmp_path):
    src = (
        "total = 0\ndef f():\n    for i in range(3):\n        global total\n        total += i + 1\nf()\nprint(total)\n"
    )
    res = _inside(tmp_path, src, 3, ("total",), 2)
    assert res.ok and res.stdout == b'{"total":1}\n', res.describe()


def test_body_joined_to_the_header_by_a_backslash(tmp_path):
    src = "total = 0\nfor i in range(3): \\\n    total += i + 1\nprint(total)\n"
    res = _inside(tmp_path, src, 2, ("total",), 2)
    assert res.ok and res.stdout == b'{"total":1}\n', res.describe()


def test_form_feed_lines_silently_miscount(tmp_path):
    src = "total = 0\n\x0c\n\x0c\n\n\nfor i in range(3):\n    total += i\nprint(total)\n"
    res = _run(tmp_path, instrument(src, 6, ("total",), "count").source, b"")
    assert res.ok, res.describe()
    assert res.stderr.endswith(f"\n{COUNT_MARKER}3\n".encode()), res.stderr
