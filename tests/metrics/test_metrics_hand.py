"""Hand-computed metrics of tiny programs, and reference == fast on programs exercising every exit path."""

from __future__ import annotations

import pytest
from _metrics_helpers import assert_all_equal, interpreter_params, measure_three_ways

# Observations are line events; the state is the one *before* the line runs.
LISTS = 'a = [1, 2]\nb = a\nc = (a, "xy", 3.5)\nprint(len(c))\n'
# lines 1..4 see: {} -> 0; a -> 2; a + b (same list, adds 0) -> 2; + c (a seen, "xy", 3.5) -> 4
FUNCTIONS = 'def f(x):\n    y = [x, x]\n    return len(y)\ng = {"k": (1, None)}\nprint(f(3))\n'
# module lines 1, 4, 5 see 0, 0 (f is a function), 3 (g: key, 1, None); f's lines 2, 3 see x+g = 4, x+y+g = 6
REPEATS = """class Big(int):
    pass
class Node:
    pass
inf = 1 << 62
n = Node()
t = [inf] * 5 + [Big(7)] * 3 + [n, n] + [[1, 2]] * 2 + [True, True, None]
print(len(t))
"""
# Each element of a list counts, the same scalar object again included (the walker skips looking at a
# scalar that repeats its neighbour, not counting it); a repeated container or instance adds 0.
# Lines 1-5 see 0 (classes are not state); 6 sees inf (1); 7 inf + n (an instance without attributes: 0) = 1;
# 8: inf 1 + n 0 + t: 5 + 3 + (n, n) 0 + [1, 2] once 2 + 3 = 14. Peak 14, load 0 + 1 + 1 + 14 = 16
CHECKPOINT = """import os as _es_os
_es_k = 0
s = 0
for i in range(5):
    _es_k += 1
    if _es_k == 3:
        print('{"s":%d}' % s, flush=True)
        _es_os._exit(0)
    s += i
print(s)
"""
# observed lines 3, 4, 9, 4, 9, 4 see 0, s, s+i, s+i, s+i, s+i = 0+1+2+2+2+2 (the _es_ names are hidden)
# 3.12/3.13: s=0 (2) + range set-up (5) + 2 iterations x (FOR_ITER, STORE + 4 + JUMP_BACKWARD) + FOR_ITER, STORE = 23
INSTRUMENTATION = {"exclude_lines": frozenset({1, 2, 5, 6, 7, 8}), "hidden_prefix": "_es_"}


@pytest.mark.parametrize("python", interpreter_params())
@pytest.mark.parametrize(
    ("source", "peak", "load"),
    [(LISTS, 4, 8), (FUNCTIONS, 6, 13), (REPEATS, 14, 16)],
    ids=["lists", "functions", "repeats"],
)
def test_state_by_hand(python, source, peak, load):
    ref = assert_all_equal(measure_three_ways(source, b"", python))
    assert (ref.peak_state, ref.state_load) == (peak, load)


@pytest.mark.parametrize("python", interpreter_params())
def test_checkpoint_by_os_exit_with_hidden_instrumentation(python):
    ref = assert_all_equal(measure_three_ways(CHECKPOINT, b"", python, **INSTRUMENTATION))
    assert ref.stdout == b'{"s":1}\n'
    assert (ref.peak_state, ref.state_load) == (2, 9)
    assert ref.trace_length == (24 if ref.toolchain.startswith("3.11") else 23)


@pytest.mark.parametrize("python", interpreter_params())
def test_trace_length_by_hand(python):
    # 3.11 reports RESUME as the call event, then LOAD_CONST STORE_NAME LOAD_CONST RETURN_VALUE;
    # 3.12+ report no INSTRUCTION event for RESUME and end with RETURN_CONST.
    ref = assert_all_equal(measure_three_ways("x = 1\n", b"", python))
    assert ref.trace_length == (4 if ref.toolchain.startswith("3.11") else 3)
    assert (ref.peak_state, ref.state_load) == (0, 0)


EXITS = {
    "sys-exit-zero": "import sys\nx = [1]\nsys.exit(0)\nprint('never')\n",
    "raise-caught-deep": "def f(k):\n    if k == 0:\n        raise KeyError(k)\n    return f(k - 1)\ntry:\n    f(5)\nexcept KeyError:\n    print('caught')\n",
    "generator-close": "def g():\n    try:\n        yield 1\n        yield 2\n    finally:\n        print('closed')\nit = g()\nprint(next(it))\ndel it\nprint('end')\n",
    "threads-and-atexit": "import atexit, threading\nout = []\ndef work(n):\n    out.append(sum(range(n)))\natexit.register(lambda: print('bye', out))\nt = threading.Thread(target=work, args=(50,))\nt.start()\nt.join()\n",
    "classes-slots-cycles": "class N:\n    __slots__ = ('v', 'nxt')\n    def __init__(self, v):\n        self.v = v\n        self.nxt = self\nclass M:\n    def __init__(self):\n        self.items = {1: [N(2), (3, 'x')]}\nm = [M(), M()]\nm.append(m)\nprint(len(m))\n",
    "reads-all-stdin": "import sys\ndata = sys.stdin.read().split()\nnums = [int(x) for x in data]\nprint(sum(nums), max(nums))\n",
}


@pytest.mark.parametrize("python", interpreter_params())
@pytest.mark.parametrize("name", sorted(EXITS))
def test_exit_paths_agree(python, name):
    ref = assert_all_equal(measure_three_ways(EXITS[name], b"3 1 4 1 5 9 2 6\n", python))
    assert ref.trace_length > 0 and ref.state_load >= ref.peak_state >= 0


def test_shutdown_finalizers_still_print():
    # a suspended generator is closed at interpreter shutdown, as in a plain run
    source = "def g():\n    try:\n        yield 1\n    finally:\n        print('closed')\nit = g()\nprint(next(it))\n"
    from execstate.metrics import measure

    assert measure(source, b"").stdout == b"1\nclosed\n"
