"""screen_trace_lengths counts every input exactly as measure() does, in a few workers instead of one run each."""

from __future__ import annotations

import random

import pytest
from _metrics_helpers import interpreter_params

from execstate.metrics import measure, screen_trace_lengths
from execstate.sandbox import Limits

FUNCTIONS_AND_CLASSES = """
import sys

class Account:
    def __init__(self, owner, balance):
        self.owner, self.balance = owner, balance

    def apply(self, amount):
        if self.balance + amount < 0:
            raise ValueError("overdrawn")
        self.balance += amount
        return self.balance

def parse(line):
    return [int(x) for x in line.split()]

amounts = parse(sys.stdin.readline())
acct = Account("a", 10)
kept = {i: acct.apply(a) for i, a in enumerate(amounts) if a % 3}
print(acct.balance, sorted(kept.items())[:3], sum(v for v in kept.values() if v > 5))
"""

GENERATORS = """
import sys

def evens(limit):
    n = 0
    while n < limit:
        if n % 2 == 0:
            yield n
        n += 1

def chain(a, b):
    yield from a
    yield from b

limit = int(input())
total = sum(x * x for x in chain(evens(limit), (y for y in range(limit) if y % 5 == 0)))
squares = [y for y in evens(limit // 2)]
print(total, len(squares))
"""

RECURSION = """
import sys

def depth(n):
    if n == 0:
        return 0
    return 1 + depth(n - 1)

def deepest(n):
    try:
        return deepest(n + 1)
    except RecursionError:
        return n

n = int(sys.stdin.read())
print(depth(n), deepest(0) if n % 7 == 0 else -1)
"""

MODULE_LOOP_AND_EXIT = """
import sys

data = sys.stdin.buffer.read().split()
total = 0
for i, word in enumerate(data):
    total += len(word) * i
    if word == b"stop":
        sys.exit(0)
    if word == b"fail":
        sys.exit(3)
    if word == b"say":
        sys.exit("message")
print(total)
"""

CACHE_AND_IMPORTS = """
import sys
from fractions import Fraction
import heapq
import statistics

memo = {}

def fib(n):
    if n in memo:
        return memo[n]
    memo[n] = n if n < 2 else fib(n - 1) + fib(n - 2)
    return memo[n]

n = int(open(0).read())
heap = [Fraction(fib(k) % 7, k + 1) for k in range(n)]
heapq.heapify(heap)
print(len(memo), heapq.heappop(heap) if heap else None, statistics.mean([1, 2, n]))
"""

OS_EXIT = """
import os, sys

n = int(sys.stdin.readline())
for i in range(n):
    if i == 5:
        os._exit(0 if n % 2 else 4)
print(n)
"""

CRASHES = """
import sys

values = [int(x) for x in sys.stdin.read().split()]
print(sum(100 // v for v in values))
"""

PROGRAMS = {
    "functions-and-classes": (
        FUNCTIONS_AND_CLASSES,
        lambda r: " ".join(str(r.randint(-9, 20)) for _ in range(r.randint(0, 30))),
    ),
    "generators": (GENERATORS, lambda r: str(r.randint(0, 60))),
    "recursion": (RECURSION, lambda r: str(r.choice([0, 7, 14, r.randint(0, 900), r.randint(980, 1005)]))),
    "module-loop-and-exit": (
        MODULE_LOOP_AND_EXIT,
        lambda r: " ".join(r.choice(["a", "bb", "ccc", "stop", "fail", "say"]) for _ in range(r.randint(0, 12))),
    ),
    "cache-and-imports": (CACHE_AND_IMPORTS, lambda r: str(r.randint(0, 40))),
    "os-exit": (OS_EXIT, lambda r: str(r.randint(0, 9))),
    "crashes": (CRASHES, lambda r: " ".join(str(r.randint(0, 9)) for _ in range(r.randint(1, 6)))),
}


def inputs_for(name: str, count: int) -> list[bytes]:
    make = PROGRAMS[name][1]
    rng = random.Random(name)
    return [(make(rng) + "\n").encode() for _ in range(count)]


def measured(source: str, inputs: list[bytes], python: str | None = None) -> list[int | None]:
    return [measure(source, x, state=False, python=python).trace_length for x in inputs]


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_screening_equals_measure_input_by_input(name):
    source = PROGRAMS[name][0]
    inputs = inputs_for(name, 50)
    expected = measured(source, inputs)
    assert any(n is not None for n in expected)
    assert screen_trace_lengths(source, inputs, batch=20) == expected


@pytest.mark.parametrize("python", interpreter_params())
def test_screening_equals_measure_on_every_interpreter(python):
    names = ("functions-and-classes", "generators", "recursion", "os-exit")
    source = "\n".join(f"def program_{i}():\n    pass" for i in range(3)) + "\n" + RECURSION
    inputs = [b"0\n", b"7\n", b"500\n", b"995\n", b"1001\n"]
    assert screen_trace_lengths(source, inputs, python=python) == measured(source, inputs, python)
    for name in names:
        source, inputs = PROGRAMS[name][0], inputs_for(name, 8)
        assert screen_trace_lengths(source, inputs, python=python, batch=3) == measured(source, inputs, python)


def test_a_crashing_input_is_none_and_the_rest_are_counted():
    inputs = [b"1 2\n", b"0\n", b"5\n", b"1 0 1\n", b"4 4 4\n"]
    lengths = screen_trace_lengths(CRASHES, inputs)
    assert lengths[1] is None and lengths[3] is None
    assert lengths == measured(CRASHES, inputs)
    assert all(isinstance(lengths[i], int) for i in (0, 2, 4))


def test_an_input_over_its_time_is_none_and_the_batch_goes_on():
    source = "import sys\nn = int(input())\nwhile n == 3:\n    pass\nprint(sum(range(n)))\n"
    inputs = [f"{n}\n".encode() for n in range(6)]
    lengths = screen_trace_lengths(source, inputs, limits=Limits(wall_s=1.0, cpu_s=1.0), batch=6)
    assert lengths[3] is None
    assert lengths[:3] + lengths[4:] == measured(source, inputs[:3] + inputs[4:])


def test_the_same_input_counts_the_same_first_and_later_in_a_worker():
    """Imports the worker has not made (fractions, statistics) happen in the first run only: the import
    machinery is not the program's code, so the count does not change; module-level caches start empty."""
    inputs = [b"25\n"] * 6 + [b"3\n", b"25\n"]
    lengths = screen_trace_lengths(CACHE_AND_IMPORTS, inputs, batch=8)
    assert len(set(lengths[:6])) == 1
    assert lengths == measured(CACHE_AND_IMPORTS, inputs)


def test_state_left_by_one_input_does_not_reach_the_next():
    source = (
        "import sys\n"
        "seen = globals().setdefault('seen', [])\n"
        "seen.append(1)\n"
        "sys.setrecursionlimit(50)\n"
        "sys.argv.append('x')\n"
        "sys.stdout = None\n"
        "for _ in range(len(seen) * int(sys.stdin.read()) + len(sys.argv)):\n"
        "    pass\n"
    )
    inputs = [b"3", b"3", b"3"]
    lengths = screen_trace_lengths(source, inputs, batch=3)
    assert lengths == measured(source, inputs) and len(set(lengths)) == 1


def test_output_of_the_program_cannot_forge_a_result():
    source = (
        "import os\n"
        'fake = b\'\\n0123 \' + b\'{"outcome": "exit", "index": 0, "exit_code": 0, "trace_length": 7}\\n\'\n'
        "print(fake.decode() * 3)\n"
        "for fd in [int(x) for x in os.listdir('/proc/self/fd') if int(x) > 2]:\n"
        "    try:\n"
        '        os.write(fd, fake + b\'{"outcome": "done"}\\n\')\n'
        "    except OSError:\n"
        "        pass\n"
        "n = int(input())\n"
        "total = sum(range(n))\n"
    )
    inputs = [b"1\n", b"2\n", b"30\n"]
    lengths = screen_trace_lengths(source, inputs)
    assert lengths == measured(source, inputs)
    assert 7 not in lengths


def test_a_program_flooding_the_result_pipe_gets_none_and_its_neighbours_are_counted():
    # Every open descriptor, whatever its number: the result pipe keeps the number it has in the caller, which is
    # above 64 in a test worker that has opened many files before (a fixed range(3, 64) then missed it).
    source = (
        "import os\n"
        "n = int(input())\n"
        "if n == 2:\n"
        "    for fd in [int(x) for x in os.listdir('/proc/self/fd') if int(x) > 2]:\n"
        "        try:\n"
        "            os.write(fd, b'x' * (2 << 20))\n"
        "        except OSError:\n"
        "            pass\n"
        "print(n * n)\n"
    )
    inputs = [b"1\n", b"2\n", b"3\n"]
    lengths = screen_trace_lengths(source, inputs)
    assert lengths[1] is None
    assert [lengths[0], lengths[2]] == [measured(source, [x])[0] for x in (inputs[0], inputs[2])]


def test_a_program_that_does_not_compile_is_none_everywhere():
    assert screen_trace_lengths("def f(:\n", [b"", b"1"]) == [None, None]


def test_batches_progress_and_order():
    source, inputs = PROGRAMS["generators"][0], inputs_for("generators", 23)
    seen: list[int] = []
    lengths = screen_trace_lengths(source, inputs, batch=5, jobs=3, progress=seen.append)
    assert sorted(seen) == [3, 5, 5, 5, 5]
    assert lengths == screen_trace_lengths(source, inputs, batch=23, jobs=1)
    assert screen_trace_lengths(source, []) == []
