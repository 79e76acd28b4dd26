"""One run measures every arm of a long input (cheaper than a run per arm): its numbers are those of one run per arm,
exactly.

The reference is the measurement the builder made before: the clean program to its end, and each
instrumented copy (inside, post, a sweep's inside) to its checkpoint, each in a run of its own.
The programs cover what moves an instruction between lines when code is inserted around a loop:
a nested loop whose exit is the enclosing loop's jump back, a loop ending a function, ``break`` and
``else``, ``while`` loops, generators, jumps long enough to need EXTENDED_ARG, and a loop body on
its header's line (which the copies split: measured per arm, never from the one run).
"""

from __future__ import annotations

import pytest
from tests.metrics._metrics_helpers import interpreter_params

from execstate.builder import BuildOptions, Measurements, build_case, load_spec
from execstate.languages._protocol import Endpoint
from execstate.languages.python.language import PythonLanguage
from execstate.sandbox import Limits

NESTED = """\
import sys
rows = [list(map(int, line.split())) for line in sys.stdin.read().splitlines()]
best = 0
for row in rows:
    acc = 0
    for x in row:
        acc += x
        if acc > 40:
            break
    best = max(best, acc)
print(best)
"""

FUNCTION_END = """\
def total(values):
    seen = set()
    s = 0
    for v in values:
        if v in seen:
            continue
        seen.add(v)
        s += v * v


def main():
    data = [int(t) for t in input().split()]
    out = []
    for i in range(len(data)):
        out.append(total(data[: i + 1]))
    print(len(out), sum(data))


main()
"""

WHILE_ELSE = """\
n = int(input())
steps, x = 0, n
while x != 1:
    x = x // 2 if x % 2 == 0 else 3 * x + 1
    steps += 1
else:
    steps += 100
pairs = {}
for i in range(steps % 7 + 3):
    pairs[i] = (i, str(i))
print(steps, len(pairs))
"""

GENERATOR = """\
def evens(n):
    for i in range(n):
        if i % 2 == 0:
            yield i


class Box:
    def __init__(self):
        self.items = []


box = Box()
for e in evens(int(input())):
    box.items.append([e, e * e])
print(len(box.items))
"""

LONG_BODY = (
    "n = int(input())\nacc = []\nfor i in range(n):\n"
    + "".join(f"    acc.append(i + {j})\n" for j in range(130))
    + "print(len(acc))\n"
)

ONE_LINE = """\
n = int(input())
t = []
for i in range(n): t.append(i * i)
print(sum(t))
"""

PROGRAMS = {
    # name: (source, input, loop line, variables, k, sweep iterations)
    "nested-inner-loop": (NESTED, b"1 2 3 40 5\n7 8 9\n30 30 30\n1 1\n", 6, ("acc",), 3, (2, 4)),
    "nested-outer-loop": (NESTED, b"1 2 3 40 5\n7 8 9\n30 30 30\n1 1\n", 4, ("best",), 2, (1,)),
    "loop-ends-a-function": (FUNCTION_END, b"3 1 4 1 5 9 2 6\n", 4, ("s",), 9, ()),
    "while-else": (WHILE_ELSE, b"27\n", 3, ("x", "steps"), 50, (2, 80)),
    "generator-and-instances": (GENERATOR, b"30\n", 13, ("e",), 7, ()),
    "extended-arg-jump": (LONG_BODY, b"12\n", 3, ("acc",), 5, ()),
    "one-line-body": (ONE_LINE, b"40\n", 3, ("t",), 20, ()),
}


def _endpoints(lang: PythonLanguage, source: str, loop: int, variables: tuple, k: int, sweep: tuple) -> tuple:
    ends = [Endpoint(loop, variables, "inside", k, lang.instrument(source, loop, variables, "inside", k))]
    ends.append(Endpoint(loop, variables, "post", k, lang.instrument(source, loop, variables, "post", k)))
    ends += [
        Endpoint(loop, variables, "inside", kk, lang.instrument(source, loop, variables, "inside", kk)) for kk in sweep
    ]
    return tuple(ends)


def _numbers(m) -> tuple:
    return (m.status, m.trace_length, m.peak_state, m.state_load)


@pytest.mark.parametrize("python", interpreter_params())
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_one_run_gives_each_arms_own_measurement_exactly(name, python):
    source, stdin, loop, variables, k, sweep = PROGRAMS[name]
    lang = PythonLanguage(limits=Limits(wall_s=30, cpu_s=30), python=python)
    ends = _endpoints(lang, source, loop, variables, k, sweep)
    together = lang.measure_checkpoints(source, stdin, ends)
    final = lang.measure(source, stdin, Endpoint(loop, variables), state=True)
    assert final.ok, final.detail
    arms = [lang.measure(source, stdin, e, state=True) for e in ends]
    assert all(m.ok for m in arms), [m.detail for m in arms]
    if name == "one-line-body":
        assert together is None  # the copies split the line: their line events are not the clean program's
        return
    assert together is not None, f"{name}: the one run was refused"
    whole, parts = together
    assert _numbers(whole) == _numbers(final) and whole.stdout == final.stdout
    assert [_numbers(m) for m in parts] == [_numbers(m) for m in arms]
    assert len({m.trace_length for m in parts}) == len(parts)  # distinct checkpoints: not one number reused


def test_a_failed_run_fails_every_arm_with_the_run_s_reason():
    source = "import sys\nn = int(input())\nfor i in range(n):\n    pass\nsys.exit(3)\n"
    lang = PythonLanguage()
    ends = _endpoints(lang, source, 3, ("i",), 2, ())
    got = lang.measure_checkpoints(source, b"5\n", ends)
    assert got is not None
    whole, parts = got
    assert whole.status == "crash" and "status 3" in whole.detail
    assert [m.status for m in parts] == ["crash", "crash"]


def test_a_build_measured_in_one_run_equals_the_per_arm_build_and_runs_fewer_measurements(tmp_path):
    from pathlib import Path

    spec = load_spec(Path(__file__).parent / "cases" / "list_state" / "case.toml")
    memo, apart = Measurements(), Measurements()
    one = build_case(spec, BuildOptions(), memo=memo)
    per_arm = build_case(spec, BuildOptions(measure_arms_apart=True), memo=apart)
    one_runs, per_arm_runs = memo.stats.runs, apart.stats.runs
    assert isinstance(one, list) and isinstance(per_arm, list)
    assert [t.to_json_line() for t in one] == [t.to_json_line() for t in per_arm]
    assert one_runs == per_arm_runs - 2  # long final, inside and post: one run instead of three


RECURSIVE = """\
import sys
sys.setrecursionlimit(10000)
n = int(input())
children = {i: [c for c in (2 * i, 2 * i + 1) if c <= n] for i in range(1, n + 1)}
order = []


def visit(node, depth):
    total = depth
    for child in children[node]:
        total += visit(child, depth + 1)
        order.append(child)
    return total


print(visit(1, 0), len(order))
"""

LATE_BINDING = """\
n = int(input())
out = []
for i in range(n):
    if i > 3:
        late = i * 2
    out.append(i)
print(len(out))
"""

RESTARTED = """\
n = int(input())
best = 0
for r in range(n):
    row = [r * c % 7 for c in range(5)]
    j = 0
    while j < 5:
        best = max(best, row[j])
        j += 1
print(best)
"""

BUILDS = {
    # name: (program, short input, long input, checkpoint table)
    "recursion-nests-executions": (
        RECURSIVE,
        "7\n",
        "60\n",
        'loop_text = "for child in children[node]:"\nvariables = ["total"]\nsweep = 3',
    ),
    "nested-inner-loop": (
        NESTED,
        "1 2\n3\n",
        "1 2 3 40 5\n7 8 9\n30 30 30\n1 1\n9 9 9 9 9 9\n",
        'loop = 6\nvariables = ["acc"]',
    ),
    "while-else": (WHILE_ELSE, "6\n", "27\n", 'loop = 3\nvariables = ["x", "steps"]\ninside_iterations = [3, 90]'),
    "unbound-before-some-neighbours": (
        LATE_BINDING,
        "6\n",
        "30\n",
        'loop = 3\nvariables = ["out"]\ninside_iteration = 5',
    ),
    # 2,050 iterations in 410 executions: the post neighbour search gallops far beyond the states copy's window
    "gallop-beyond-the-window": (RESTARTED, "3\n", "410\n", 'loop = 6\nvariables = ["best", "j"]'),
}


@pytest.mark.parametrize("name", sorted(BUILDS))
def test_a_case_built_from_one_run_per_input_and_seed_equals_the_per_copy_build(name, tmp_path, monkeypatch):
    from execstate.builder import _case

    used = []
    together = _case._states_together
    monkeypatch.setattr(_case, "_states_together", lambda *a: used.append(together(*a)) or used[-1])
    program, short, long, checkpoint = BUILDS[name]
    (tmp_path / "main.py").write_text(program)
    (tmp_path / "short.txt").write_text(short)
    (tmp_path / "long.txt").write_text(long)
    (tmp_path / "case.toml").write_text(
        f'id = "tests/{name}"\nstudy = "tests"\nlanguage = "python"\nprogram = "main.py"\n'
        f'short_input = "short.txt"\nlong_input = "long.txt"\n\n[checkpoint]\n{checkpoint}\n'
    )
    spec = load_spec(tmp_path / "case.toml")
    memo = Measurements()
    one = build_case(spec, BuildOptions(), memo=memo)
    one_runs = memo.stats.runs
    reference = build_case(spec, BuildOptions(measure_arms_apart=True))
    assert isinstance(reference, list), reference
    assert isinstance(one, list), one
    assert [t.to_json_line() for t in one] == [t.to_json_line() for t in reference]
    assert one_runs == 6 + 2  # three trace repeats per input; the short final arm; one run for the long ones
    assert len(used) == 2 and used[0] is not None and used[1] is None  # states from one run per seed; per copy
    neighbours = [n for t in reference for n in t.meta.get("neighbours", []) if "d" in n]
    assert neighbours, "the case has no neighbour oracles to compare"


def test_the_post_neighbour_search_beyond_the_window_runs_only_its_bisection(tmp_path, monkeypatch):
    """The galloping points (k -+ 1, 2, 4, ...) are printed by the reference run of the states copy; only the
    bisection after a change, between two of them, still runs the post copy (RESTARTED: best is 0, then 4,
    then 6 for good, so the search towards iteration 1 finds a change and the other direction none)."""
    from execstate.builder import _case
    from execstate.builder._neighbours import gallop_points

    probed: list[tuple[str, int]] = []
    prober = _case._prober

    def counting(case, loop_line, data):
        separate = prober(case, loop_line, data)
        return lambda mode, j: probed.append((mode, j)) or separate(mode, j)

    monkeypatch.setattr(_case, "_prober", counting)
    program, short, long, checkpoint = BUILDS["gallop-beyond-the-window"]
    for name, text in (("main.py", program), ("short.txt", short), ("long.txt", long)):
        (tmp_path / name).write_text(text)
    (tmp_path / "case.toml").write_text(
        'id = "tests/gallop"\nstudy = "tests"\nlanguage = "python"\nprogram = "main.py"\n'
        f'short_input = "short.txt"\nlong_input = "long.txt"\n\n[checkpoint]\n{checkpoint}\n'
    )
    tasks = build_case(load_spec(tmp_path / "case.toml"), BuildOptions())
    assert isinstance(tasks, list), tasks
    post = next(t for t in tasks if t.arm == "post-loop-state")
    k, K = post.meta["k"], post.meta["K"]
    assert (k, K) == (1026, 2050)
    beyond = [j for j in gallop_points(k, K) if abs(j - k) > _case.POST_WINDOW]
    assert beyond == [2, 514, 770, 898, 1154, 1282, 1538, 2050]
    assert probed and all(mode == "post" and j not in beyond for mode, j in probed)
    assert all(2 < j < 514 for _, j in probed)  # only the bisection between k - 1024 (best 0) and k - 512
    assert [n["d"] for n in post.meta["neighbours"]] == [-1]  # the previous execution ending in another state
