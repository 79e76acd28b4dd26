"""Benchmark of the metrics probe: measurement cost against a plain run, fast state walker against the reference.

Run from the repository root after ``pip install -e '.[test]'``::

    python benchmarks/metrics.py [--python PATH ...] [--skip-reference] [--smoke]

Prints, measured side by side in one run (best of ``--repeat`` runs each):
(a) trace-length measurement wall time / plain run wall time, per interpreter,
    on a 10^6-iteration loop and on a function-heavy program, with the C
    accelerator and with the pure-Python fallback;
(b) fast / reference state metrics on a loop whose list grows to 10^4 elements
    (the two must agree exactly; the script exits 1 if they do not);
(c) the walk's cost: nanoseconds per walked state slot (measurement wall time / state_load) of one
    state measurement of ``codecontests_py/1003_f_abbreviation``'s long input (1.1e10 slots, peak
    183,673: two 303 x 303 tables), with the C accelerator;
(d) the C walker on a list of instances of the program's own class (a tree of ``--nodes`` nodes, as in
    ``codecontests_py/931_d``), in this process: instances read in C against every instance through the
    Python functions ``owned_class`` and ``attribute_values`` (the walker before it read them in C); ns
    per node and the ratio, totals compared (the script exits 1 if they differ);
(e) the walker before and after the faster walk (``--against REV``, default the last commit before it): both
    extensions loaded in this process, ``pyperformance/go`` run here on its long input under a trace function
    that, at every ``--go-stride``-th line event, gathers the roots and walks them with each walker (alternating
    which goes first) on the very same state; ns per walked slot of each and the ratio (target >= 1.5), the
    totals and objects walked compared (the script exits 1 if they differ). REV's ``_ccount.c`` is compiled
    with gcc into a temporary directory; without git or gcc (e) says so and is skipped.
Both sides of every ratio run in the same sandbox, so interpreter start-up is
in both. Targets: ratio <= 4 on 3.12+; state speed-up >= 10.
--smoke: this interpreter only, 1 repeat, 10^4-iteration loop, 10^3 calls, a list of 300 (fast and reference),
(c) on a 40 x 40 table program instead of 1003_f, (d) on 500 nodes and (e) on go's short input.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import importlib.machinery
import importlib.util
import io
import subprocess
import sys
import sysconfig
import time
from pathlib import Path

from execstate.metrics._measure import PROBE, run_probe
from execstate.sandbox import Limits, run, scrubbed_env

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "metrics" / "reference_probe.py"
PYTHONS = [f"/root/.pyenv/versions/{v}/bin/python" for v in ("3.11.7", "3.12.1", "3.13.0")]

LOOP = """n = int(input())
s = 0
for i in range(n):
    s += i
print(s)
"""
CALLS = """import sys
sys.setrecursionlimit(10000)

def add(a, b):
    return a + b

def fib(k):
    if k < 2:
        return k
    return add(fib(k - 1), fib(k - 2))

class Point:
    def __init__(self, x):
        self.x = x

    def norm(self):
        return abs(self.x)

total = 0
for i in range(int(input())):
    total = add(total, Point(i - 500).norm())
print(fib(20), total)
"""
GROWING = """n = int(input())
a = []
for i in range(n):
    a.append(i % 7)
print(sum(a))
"""


ROOT = Path(__file__).resolve().parent.parent
WALKED = ROOT / "src" / "execstate" / "studies" / "codecontests_py" / "pool" / "1003_f_abbreviation_11357"
TABLES = """n = int(input())
dp = [[0] * n for _ in range(n)]
for i in range(n):
    for j in range(n):
        dp[i][j] = (dp[i - 1][j] + j) % 7
print(sum(map(sum, dp)))
"""


def best(fn, repeat: int) -> tuple[float, object]:
    """Minimum wall time of ``repeat`` calls, and the last result."""
    times, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def plain_run(python: str, source: str, stdin: bytes, tmp: Path):
    program = tmp / "plain.py"
    program.write_text(source)
    res = run(
        [python, "-s", "-B", str(program)],
        stdin,
        Limits(wall_s=600, cpu_s=600),
        env=scrubbed_env(),
        readable=[program],  # the sandbox shows the program only files it is given
    )
    assert res.ok, res.describe()
    return res


def trace_ratios(python: str, repeat: int, tmp: Path, loop_n: int = 10**6, calls_n: int = 10**5) -> None:
    size = f"10^{len(str(loop_n)) - 1}" if str(loop_n).rstrip("0") == "1" else str(loop_n)
    cases = [(f"loop {size}", LOOP, f"{loop_n}\n".encode()), ("function-heavy", CALLS, f"{calls_n}\n".encode())]
    for name, source, stdin in cases:
        plain, _ = best(lambda: plain_run(python, source, stdin, tmp), repeat)
        row = [f"{name:15s} plain {plain:6.2f}s"]
        for label, accelerate in (("C", True), ("pure-Python", False)):
            wall, m = best(
                lambda: run_probe(
                    PROBE, source, stdin, python=python, state=False, accelerate=accelerate, timeout_s=600
                ),
                repeat if accelerate else 1,
            )
            assert m.ok, m.detail
            row.append(
                f"{label} {wall:6.2f}s = {wall / plain:5.2f}x (trace {m.trace_length}, accelerated={m.accelerated})"
            )
        print("  " + " | ".join(row))


def state_ratio(python: str, n: int) -> bool:
    stdin = f"{n}\n".encode()
    fast_s, fast = best(lambda: run_probe(PROBE, GROWING, stdin, python=python, timeout_s=3600), 1)
    ref_s, ref = best(lambda: run_probe(REFERENCE, GROWING, stdin, python=python, timeout_s=3600), 1)
    same = (fast.trace_length, fast.peak_state, fast.state_load) == (ref.trace_length, ref.peak_state, ref.state_load)
    print(
        f"  list grows to {n}: fast {fast_s:6.2f}s, reference {ref_s:6.2f}s -> {ref_s / fast_s:5.1f}x faster; "
        f"identical={same} (peak {fast.peak_state}, load {fast.state_load}, trace {fast.trace_length})"
    )
    return same


def walk_cost(python: str, smoke: bool) -> None:
    if smoke:
        name, source, stdin = "40 x 40 tables", TABLES, b"40\n"
    else:
        name, source, stdin = (
            "1003_f long input",
            (WALKED / "main.py").read_text(),
            (WALKED / "tests" / "6.in").read_bytes(),
        )
    wall, m = best(lambda: run_probe(PROBE, source, stdin, python=python, timeout_s=3600), 1)
    assert m.ok and m.state_load, m.detail
    print(
        f"  {name}: {wall:6.2f}s for {m.state_load:.3g} walked slots (peak {m.peak_state}) = "
        f"{wall / m.state_load * 1e9:.2f} ns per slot (accelerated={m.accelerated})"
    )


def instance_walk(nodes: int, repeat: int) -> bool:
    import collections

    from execstate.metrics import _probe

    try:
        from execstate.metrics import _ccount
    except ImportError:
        print("  the C accelerator is not built for this interpreter: skipped")
        return True
    node = type("Node", (), {"__module__": "__main__"})  # a class of the program, as the probe sees it
    tree = []
    for i in range(nodes):
        item = node()
        item.length, item.parent = i % 50, tree[(i - 1) // 2] if i else None
        tree.append(item)
    totals, seconds = {}, {}
    for in_c in (True, False):
        _ccount.configure_walker(collections.deque, _probe.owned_class, _probe.attribute_values, in_c)
        seconds[in_c], totals[in_c] = best(lambda: _ccount.walk([tree]), max(repeat, 5))
    _ccount.configure_walker(collections.deque, _probe.owned_class, _probe.attribute_values)
    same = totals[True] == totals[False]
    print(
        f"  {nodes} instances: read in C {seconds[True] / nodes * 1e9:6.1f} ns/node, through Python "
        f"{seconds[False] / nodes * 1e9:6.1f} ns/node -> {seconds[False] / seconds[True]:5.1f}x faster; "
        f"identical={same} (total {totals[True]})"
    )
    return same


GO = ROOT / "src" / "execstate" / "studies" / "pyperformance"
BEFORE = "5019347"  # the last commit before the roots were gathered in C and classes remembered per walk


def build_walker(rev: str, tmp: Path):
    """REV's ``_ccount`` extension compiled for this interpreter and loaded under its own path, or None (said why)."""
    try:
        source = subprocess.run(
            ["git", "-C", str(ROOT), "show", f"{rev}:src/execstate/metrics/_ccount.c"],
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        print(f"  cannot read _ccount.c at {rev} ({exc}): skipped")
        return None
    c_file = tmp / "before" / "_ccount.c"
    c_file.parent.mkdir(exist_ok=True)
    c_file.write_bytes(source)
    target = c_file.with_name("_ccount" + sysconfig.get_config_var("EXT_SUFFIX"))
    include = sysconfig.get_paths()["include"]
    cmd = ["gcc", "-shared", "-fPIC", "-O2", f"-I{include}", str(c_file), "-o", str(target)]
    try:
        subprocess.run(cmd, capture_output=True, check=True, timeout=300)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"  cannot compile _ccount.c at {rev} ({exc}): skipped")
        return None
    loader = importlib.machinery.ExtensionFileLoader("_ccount", str(target))
    spec = importlib.util.spec_from_file_location("_ccount", str(target), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def walker_before_after(rev: str, stride: int, smoke: bool, tmp: Path) -> bool:
    """(e): the walker of REV (roots gathered in Python) against this one (roots gathered in C) on go's state."""
    from execstate.metrics import _probe

    try:
        from execstate.metrics import _ccount as after
    except ImportError:
        print("  the C accelerator is not built for this interpreter: skipped")
        return True
    before = build_walker(rev, tmp)
    if before is None:
        return True
    filename, which = "main.py", "short" if smoke else "long"
    new = _probe.StateWalker(filename, None, after)
    assert new.roots is after.roots, "this accelerator does not gather roots in C"
    before.configure_walker(collections.deque, _probe.owned_class, _probe.attribute_values)

    def old_roots(frame):  # the gathering before: StateWalker.roots in Python
        return _probe.StateWalker.roots(new, frame)

    sides = {"before": (old_roots, before.walk, before.walked), "after": (after.roots, after.walk, after.walked)}
    spent = dict.fromkeys(sides, 0)
    walked = {name: [0] for name in sides}
    slots, lines, same = [0], [0], [True]

    def measure_one(name, frame):
        roots, walk, objects = sides[name]
        start_objects = objects()
        start = time.perf_counter_ns()
        total = walk(roots(frame))
        spent[name] += time.perf_counter_ns() - start
        walked[name][0] += objects() - start_objects
        return total

    def local(frame, event, arg):
        if event == "line":
            lines[0] += 1
            if lines[0] % stride == 0:
                order = ("before", "after") if lines[0] // stride % 2 else ("after", "before")
                totals = {name: measure_one(name, frame) for name in order}
                same[0] = same[0] and totals["before"] == totals["after"]
                slots[0] += totals["after"]
        return local

    def owned(frame, event, arg):
        return local if frame.f_code.co_filename == filename else None

    code = compile((GO / "pool" / "go" / "main.py").read_text(), filename, "exec", dont_inherit=True)
    namespace = {"__name__": "__main__", "__builtins__": __builtins__}
    stdin, sys.stdin = sys.stdin, io.StringIO((GO / "specs" / "go" / f"{which}.txt").read_text())
    try:
        with contextlib.redirect_stdout(io.StringIO()):
            sys.settrace(owned)
            try:
                exec(code, namespace)
            finally:
                sys.settrace(None)
    finally:
        sys.stdin = stdin
    ok = same[0] and walked["before"] == walked["after"] and slots[0] > 0
    old_ns, new_ns = spent["before"] / slots[0], spent["after"] / slots[0]
    print(
        f"  go {which} input, {lines[0] // stride} observations (every {stride}th line event), "
        f"{slots[0]:.3g} walked slots: before ({rev}) {old_ns:.2f} ns per slot, after {new_ns:.2f} ns per slot "
        f"-> {old_ns / new_ns:4.2f}x faster; identical={ok} (objects walked {walked['after'][0]})"
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--python", action="append", help="interpreter(s) to benchmark (default: 3.11, 3.12, 3.13 under pyenv)"
    )
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--state-n", type=int, default=10_000)
    parser.add_argument("--skip-reference", action="store_true", help="skip (b), the slow reference walker")
    parser.add_argument("--loop-n", type=int, default=10**6, help="iterations of the loop in (a)")
    parser.add_argument("--calls-n", type=int, default=10**5, help="iterations of the function-heavy program in (a)")
    parser.add_argument("--nodes", type=int, default=8192, help="instances in (d)")
    parser.add_argument("--against", default=BEFORE, help="the commit whose walker (e) compares with this one")
    parser.add_argument("--go-stride", type=int, default=10, help="(e) walks at every this-many-th line event")
    parser.add_argument("--walker-only", action="store_true", help="run (e) only")
    parser.add_argument("--smoke", action="store_true", help="the smallest sizes: does it still run?")
    args = parser.parse_args()
    if args.smoke:  # smaller defaults; options given on the command line still win
        parser.set_defaults(repeat=1, loop_n=10**4, calls_n=10**3, state_n=300, nodes=500)
        args = parser.parse_args()
        args.python = args.python or [sys.executable]
    pythons = [p for p in (args.python or PYTHONS) if Path(p).exists()] or [sys.executable]
    import tempfile

    ok = True
    with tempfile.TemporaryDirectory() as tmp:
        for python in [] if args.walker_only else pythons:
            print(f"{python}")
            print(" (a) trace-length measurement / plain run")
            trace_ratios(python, args.repeat, Path(tmp), args.loop_n, args.calls_n)
            if not args.skip_reference:
                print(" (b) state metrics, fast vs reference")
                ok = state_ratio(python, args.state_n) and ok
            print(" (c) the walk: ns per walked state slot")
            walk_cost(python, args.smoke)
    print(f"{sys.executable} (this process)")
    if not args.walker_only:
        print(" (d) the walk of instances: read in C vs through Python")
        ok = instance_walk(args.nodes, args.repeat) and ok
    print(" (e) the walker before and after: ns per walked slot on pyperformance/go")
    with tempfile.TemporaryDirectory() as tmp:
        ok = walker_before_after(args.against, args.go_stride, args.smoke, Path(tmp)) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
