"""Build hand-made good and bad cases in one batch; check oracles against independent computations."""

from __future__ import annotations

import json
import math
from collections import deque
from pathlib import Path

import pytest
import tree_sitter
import tree_sitter_cpp

from execstate.builder import BuildOptions, build, tasks_bytes
from execstate.languages.cpp.language import CppLanguage
from execstate.languages.python import instrument
from execstate.records import ARMS
from execstate.sandbox import Limits

HERE = Path(__file__).parent
EXAMPLES = HERE.parent.parent / "examples"  # the shipped examples double as good cases here
OPTS = BuildOptions(limits=Limits(wall_s=5, cpu_s=5, memory_mb=1024, output_bytes=4 * 1024 * 1024))


@pytest.fixture(scope="module")
def batch():
    return build([HERE / "cases", HERE / "bad", EXAMPLES], jobs=2, options=OPTS)


@pytest.fixture(scope="module")
def by_task(batch):
    return {t.task_id: t for t in batch.tasks}


# --- independent re-implementations: (final stdout of an input, state at top of iteration k, state after the loop run containing k)


def ref_module_for(text: str, k: int):
    values = [int(t) for t in text.split()]
    best, cur, states = values[0], 0, []
    for x in values:
        states.append({"best": best, "cur": cur})
        cur = max(x, cur + x)
        best = max(best, cur)
    return f"{best}\n", states[k - 1], {"best": best, "cur": cur}


def ref_sweep_hash(text: str, k: int):
    n = int(text)
    total, best, states = 0, 0, []
    for step in range(1, n + 1):
        states.append({"step": step, "total": total, "best": best})
        total = (total * 31 + step) % 1009
        best = max(best, total)
    return f"{total} {best}\n", states[k - 1], {"step": n, "total": total, "best": best}


def ref_while_loop(text: str, k: int):
    n = int(text)
    steps, peak, states = 0, n, []
    while n != 1:
        states.append({"n": n, "steps": steps, "peak": peak})
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        peak, steps = max(peak, n), steps + 1
    return f"{steps} {peak}\n", states[k - 1], {"n": n, "steps": steps, "peak": peak}


def ref_nested_inner(text: str, k: int):
    n, count, total, rows, inside, post = int(text), 0, 0, [], None, None
    for i in range(n):
        row, armed = 0, False
        for j in range(i):
            count += 1
            if count == k:
                inside, armed = {"i": i, "j": j, "row": row}, True
            row += j * i
        if armed:
            post = {"i": i, "j": j, "row": row}
        total += row
        rows.append(row)
    return f"{total}\n{rows[-3:]}\n", inside, post


def ref_break_loop(text: str, k: int):
    limit, total, count, states = int(text), 0, 0, []
    x = 1
    while total + x * x <= limit:
        states.append({"total": total, "count": count})
        total, count, x = total + x * x, count + 1, x + 1
    states.append({"total": total, "count": count})  # the iteration that breaks
    return f"{count} {total}\n", states[k - 1], {"total": total, "count": count}


def ref_one_line(text: str, k: int):
    words = text.split()
    firsts = [w[0] for w in words]
    return (
        "".join(firsts) + "\n",
        {"w": words[k - 1], "seen": "".join(firsts[: k - 1])},
        {"w": words[-1], "seen": "".join(firsts)},
    )


def ref_prints_in_loop(text: str, k: int):
    n, seq = int(text), [0, 1]
    while len(seq) < n + 2:
        seq.append(seq[-1] + seq[-2])
    lines = [f"{s} {seq[s]}" for s in range(n)] + [f"done {n}"]
    return "\n".join(lines) + "\n", {"a": seq[k - 1], "fibs": seq[: k - 1]}, {"a": seq[n], "fibs": seq[:n]}


def ref_list_state(text: str, k: int):
    n, window, stack, states = int(text), deque(maxlen=3), [], []
    for v in range(n):
        states.append({"window": list(window), "stack": list(stack)})
        window.append(v * v % 7)
        if stack and stack[-1] > window[-1]:
            stack.pop()
        else:
            stack.append(window[-1])
    return f"{list(window)} {stack}\n", states[k - 1], {"window": list(window), "stack": stack}


def ref_method_loop(text: str, k: int):
    runs, states, i = [], [], 0
    text = text.strip()
    while i < len(text):
        states.append({"i": i, "out": list(runs)})
        j = i
        while j < len(text) and text[j] == text[i]:
            j += 1
        runs.append(j - i)
        i = j
    return f"{runs}\n", states[k - 1], {"i": i, "out": runs}


# The C++ examples (examples/cpp_*), re-implemented in Python from their C++ loops.


def ref_cpp_range_for(text: str, k: int):
    values = [int(t) for t in text.split()[1:]]
    prev = run = longest = runs = 0
    states = []
    for x in values:
        states.append({"prev": prev, "run": run, "longest": longest})
        if run > 0 and x > prev:
            run += 1
        else:
            run, runs = 1, runs + 1
        longest, prev = max(longest, run), x
    return f"{longest} {runs}\n", states[k - 1], {"prev": prev, "run": run, "longest": longest}


def ref_cpp_while_break(text: str, k: int):
    a, b = map(int, text.split())
    gcd, steps, states = math.gcd(a, b), 0, []
    while True:
        states.append({"a": a, "b": b, "steps": steps})
        if a == b:
            break
        a, b = (a - b, b) if a > b else (a, b - a)
        steps += 1
    assert a == gcd
    return f"{a} {steps}\n", states[k - 1], {"a": a, "b": b, "steps": steps}


def ref_cpp_do_while(text: str, k: int):
    m, a, c, seed = map(int, text.split())
    x, steps, checksum, states = seed, 0, 0, []
    while True:  # do-while: the first step comes before the test
        states.append({"x": x, "steps": steps, "checksum": checksum})
        x = (a * x + c) % m
        steps += 1
        checksum = (checksum * 31 + x) % 1000003
        if x == seed:
            break
    return f"{steps} {checksum}\n", states[k - 1], {"x": x, "steps": steps, "checksum": checksum}


def ref_cpp_nested_inner(text: str, k: int):
    a = [int(t) for t in text.split()[1:]]
    expected, shifts, count, inside, post = sorted(a), 0, 0, None, None
    for i in range(1, len(a)):
        key, j, armed = a[i], i - 1, False
        while j >= 0 and a[j] > key:
            count += 1
            if count == k:
                inside, armed = {"i": i, "j": j, "shifts": shifts}, True
            a[j + 1] = a[j]
            j, shifts = j - 1, shifts + 1
        if armed:
            post = {"i": i, "j": j, "shifts": shifts}
        a[j + 1] = key
    assert a == expected
    return f"{shifts} {a[len(a) // 2]}\n", inside, post


def ref_cpp_function_loop(text: str, k: int):
    limit, count_all, inside, post = int(text), 0, None, None
    most, best = 1, 1
    for n in range(2, limit + 1):
        count, armed = 0, False
        for d in range(1, math.isqrt(n) + 1):
            count_all += 1
            if count_all == k:
                inside, armed = {"n": n, "count": count}, True
            if n % d == 0:
                count += 1 if d * d == n else 2
        if armed:
            post = {"n": n, "count": count}
        assert count == sum(1 for d in range(1, n + 1) if n % d == 0)
        if count > most:
            best, most = n, count
    return f"{best} {most}\n", inside, post


def ref_cpp_string_vector(text: str, k: int):
    line = text.split("\n")[0] + " "
    word, longest, lengths, states = "", "", [0] * 7, []
    for ch in line:
        states.append({"word": word, "lengths": list(lengths), "longest": longest})
        if ch != " ":
            word += ch
        elif word:
            lengths[min(len(word), 7) - 1] += 1
            longest = word if len(word) > len(longest) else longest
            word = ""
    out = " ".join(map(str, lengths)) + " " + longest + "\n"
    return out, states[k - 1], {"word": word, "lengths": lengths, "longest": longest}


REFS = {
    "tests/module_for": ref_module_for,
    "examples/collatz": ref_while_loop,
    "examples/nested_inner": ref_nested_inner,
    "tests/break_loop": ref_break_loop,
    "tests/one_line": ref_one_line,
    "tests/prints_in_loop": ref_prints_in_loop,
    "tests/list_state": ref_list_state,
    "tests/method_loop": ref_method_loop,
    "tests/sweep_hash": ref_sweep_hash,
    "examples/cpp_range_for": ref_cpp_range_for,
    "examples/cpp_while_break": ref_cpp_while_break,
    "examples/cpp_do_while": ref_cpp_do_while,
    "examples/cpp_nested_inner": ref_cpp_nested_inner,
    "examples/cpp_function_loop": ref_cpp_function_loop,
    "examples/cpp_string_vector": ref_cpp_string_vector,
}
WORKED_EXAMPLES = ("lcb_python/abc310_e", "lcb_cpp/abc310_e")  # SPEC section 2, in Python and in C++


@pytest.mark.parametrize("case_id", WORKED_EXAMPLES)
def test_worked_example_gives_spec_values(by_task, case_id):
    """SPEC section 2's worked example, values typed from the protocol itself."""
    base = case_id + "/"
    assert by_task[base + "short-trace-final"].oracle == "9\n"
    assert by_task[base + "long-trace-final"].oracle == "251502\n"
    assert by_task[base + "inside-loop-state"].oracle == '{"ans":63250,"cnt1":500,"dp1":500}\n'
    assert by_task[base + "post-loop-state"].oracle == '{"ans":251502,"cnt1":2,"dp1":2}\n'
    assert by_task[base + "inside-loop-state"].meta["k"] == 502
    assert by_task[base + "inside-loop-state"].meta["K"] == 1002


@pytest.mark.parametrize("case_id", sorted(REFS))
def test_oracles_match_independent_computation(by_task, case_id):
    tasks = {arm: by_task[f"{case_id}/{arm}"] for arm in ARMS}
    k = tasks["inside-loop-state"].meta["k"]
    short_out, _, _ = REFS[case_id](tasks["short-trace-final"].input, 1)
    long_out, inside, post = REFS[case_id](tasks["long-trace-final"].input, k)
    assert tasks["short-trace-final"].oracle == short_out
    assert tasks["long-trace-final"].oracle == long_out
    assert json.loads(tasks["inside-loop-state"].oracle) == inside
    assert json.loads(tasks["post-loop-state"].oracle) == post
    assert list(json.loads(tasks["inside-loop-state"].oracle)) == list(tasks["inside-loop-state"].meta["variables"])


def test_explicit_inside_iteration_is_used(by_task):
    assert by_task["tests/prints_in_loop/inside-loop-state"].meta["k"] == 7


def test_task_records_follow_the_protocol(batch):
    for t in batch.tasks:
        sweep = f"@k{t.meta['k']}" if t.meta.get("sweep") else ""  # checkpoint-sweep extras (SPEC 11)
        assert t.task_id == f"{t.case_id}/{t.arm}{sweep}" and (not sweep or t.arm == "inside-loop-state")
        if t.language == "python":
            assert t.meta["python"].count(".") == 2
        else:
            assert t.meta["compiler"].startswith("g++") and t.meta["flags"] == ["-std=c++20", "-O2"]
        assert t.meta["K"] >= 2 and 1 <= t.meta["k"] <= t.meta["K"]
        if t.arm in ("short-trace-final", "long-trace-final"):
            assert t.answer_kind == "text" and "execstate" not in t.source
        else:
            assert t.answer_kind == "json" and t.oracle.endswith("}\n") and t.oracle.count("\n") == 1
            comment = "#" if t.language == "python" else "//"
            assert f"{comment} --- execstate checkpoint support (inserted) ---" in t.source
    arms = {(t.case_id, t.arm): t for t in batch.tasks}
    for case_id in {t.case_id for t in batch.tasks}:
        short, long, inside, post = (arms[case_id, arm] for arm in ARMS)
        assert short.source == long.source  # byte-identical clean source on both final arms
        # the short trace strictly shorter; the checkpoints stop the long run, the inside one first
        assert short.metrics.trace_length < long.metrics.trace_length
        assert inside.metrics.trace_length < post.metrics.trace_length <= long.metrics.trace_length


def test_sweep_tasks_hold_the_state_at_their_iteration(batch):
    """SPEC 11 sweeps: sweep = 5 over K = 400 plus inside_iterations [2, 300], each an independent oracle."""
    sweep = [t for t in batch.tasks if t.meta.get("sweep")]
    assert sorted(t.meta["k"] for t in sweep) == [1, 2, 101, 201, 300, 400]
    for t in sweep:
        assert t.case_id == "tests/sweep_hash" and t.meta["K"] == 400
        assert json.loads(t.oracle) == ref_sweep_hash(t.input, t.meta["k"])[1]


@pytest.mark.parametrize("case_id", sorted(REFS))
def test_instrumentation_only_inserts_lines(by_task, case_id):
    """Removing the inserted lines gives back the clean source (one-line bodies: modulo the split)."""
    task = by_task[f"{case_id}/post-loop-state"]
    clean = by_task[f"{case_id}/long-trace-final"].source
    instrument_of = CppLanguage().instrument if task.language == "cpp" else instrument
    inst = instrument_of(clean, task.meta["loop_line"], tuple(task.meta["variables"]), "post", task.meta["k"])
    assert inst.source == task.source
    kept = [line for i, line in enumerate(inst.source.splitlines(), 1) if i not in inst.inserted_lines]
    if case_id == "tests/one_line":
        assert kept[3:5] == ["for w in words:", "    seen += w[0]"]
    else:
        assert kept == clean.splitlines()


# --- the six C++ loop forms the examples must cover, read from the programs' parse, not from the folder names

FORMS = (
    "range-for over a std::vector",
    "while (true) left by break",
    "do-while",
    "inner loop of a nest",
    "loop in a function main calls",
    "std::string and std::vector projected",
)
CPP_LOOP_FORMS = {  # each C++ example -> the form it is there for
    "examples/cpp_range_for": "range-for over a std::vector",
    "examples/cpp_while_break": "while (true) left by break",
    "examples/cpp_do_while": "do-while",
    "examples/cpp_nested_inner": "inner loop of a nest",
    "examples/cpp_function_loop": "loop in a function main calls",
    "examples/cpp_string_vector": "std::string and std::vector projected",
}
_CPP = tree_sitter.Language(tree_sitter_cpp.language())
_LOOPS = ("for_statement", "for_range_loop", "while_statement", "do_statement")


def _nodes(node: tree_sitter.Node):
    yield node
    for child in node.children:
        yield from _nodes(child)


def _ancestors(node: tree_sitter.Node):
    while node.parent is not None:
        node = node.parent
        yield node


def _name(function: tree_sitter.Node) -> str:
    return function.child_by_field_name("declarator").child_by_field_name("declarator").text.decode()


def _declared_types(function: tree_sitter.Node) -> dict[str, str]:
    """Each variable or parameter declared in ``function`` -> the text of its declared type."""
    types = {}
    for n in _nodes(function):
        if n.type in ("declaration", "parameter_declaration"):
            for d in n.children_by_field_name("declarator"):
                while d.type != "identifier":  # `x = 0`, and `v(n)`, which the grammar reads as a function's
                    d = d.child_by_field_name("declarator")
                types[d.text.decode()] = n.child_by_field_name("type").text.decode()
    return types


def cpp_loop_forms(source: str, loop_line: int, variables: list[str]) -> set[str]:
    """Which of ``FORMS`` the selected loop (its header on ``loop_line``) has."""
    root = tree_sitter.Parser(_CPP).parse(source.encode()).root_node
    loop = next(n for n in _nodes(root) if n.type in _LOOPS and n.start_point.row + 1 == loop_line)
    function = next(n for n in _ancestors(loop) if n.type == "function_definition")
    main = next(n for n in root.children if n.type == "function_definition" and _name(n) == "main")
    types = _declared_types(function)
    part = lambda field: loop.child_by_field_name(field).text.decode()
    breaks = [n for n in _nodes(loop) if n.type == "break_statement"]
    calls = {n.child_by_field_name("function").text.decode() for n in _nodes(main) if n.type == "call_expression"}
    projected = [types.get(v, "") for v in variables]
    checks = (
        loop.type == "for_range_loop" and types.get(part("right"), "").startswith("std::vector<"),
        loop.type == "while_statement"
        and part("condition") == "(true)"
        and any(next(a for a in _ancestors(b) if a.type in (*_LOOPS, "switch_statement")) == loop for b in breaks),
        loop.type == "do_statement",
        any(a.type in _LOOPS for a in _ancestors(loop)),
        _name(function) != "main" and _name(function) in calls,
        any(t == "std::string" for t in projected) and any(t.startswith("std::vector<") for t in projected),
    )
    return {form for form, holds in zip(FORMS, checks) if holds}


def test_the_cpp_examples_cover_the_six_loop_forms(by_task):
    found = {}
    for task in by_task.values():
        if task.language == "cpp" and task.arm == "inside-loop-state":
            clean = by_task[f"{task.case_id}/short-trace-final"].source
            found[task.case_id] = cpp_loop_forms(clean, task.meta["loop_line"], task.meta["variables"])
    for case_id, form in CPP_LOOP_FORMS.items():
        assert form in found[case_id], (case_id, found[case_id])
    assert set(CPP_LOOP_FORMS.values()) == set(FORMS)
    assert found["lcb_cpp/abc310_e"] == set()  # a range-for over a std::string in main: none of the six


EXPECTED_EXCLUSIONS = {
    "broken_toml": ("spec", "not valid TOML"),
    "unknown_key": ("spec", "[difficulty]: unknown key"),
    "missing_program": ("spec", "does not exist"),
    "syntax_error": ("spec", "syntax error at line 2"),
    "anchor_absent": ("spec", "no line of the program is exactly"),
    "anchor_ambiguous": ("spec", "ambiguous: it occurs on lines [4, 7]"),
    "unknown_variable": ("spec", "no variable named totl"),
    "unbound_variable": ("reachability", "'summary' is not defined"),
    "crash": ("run", "ZeroDivisionError"),
    "infinite_loop": ("run", "timeout"),
    "memory_hog": ("run", "memory"),
    "output_flood": ("run", "output-limit"),
    "non_json_value": ("fields", "type set is not JSON-representable"),
    "unreachable_post": ("reachability", "post checkpoint never fired"),
    "generator_fails": ("spec", "input generator gen.py failed"),
    "fork_attempt": ("run", "creating processes is not allowed"),
    "hash_seed": ("determinism", "differs between PYTHONHASHSEED"),
    "no_change": ("change", "no projected field changes"),
    "runs_once": ("iterations", "runs 1 iteration(s)"),
    "trace_order": ("trace-order", "not strictly below"),
}


def test_every_bad_case_is_excluded_with_its_cause(batch):
    got = {Path(e.spec_path).parent.name: e for e in batch.exclusions}
    assert set(got) == set(EXPECTED_EXCLUSIONS)
    for name, (check, needle) in EXPECTED_EXCLUSIONS.items():
        assert got[name].check == check, (name, got[name])
        assert needle in got[name].reason, (name, got[name].reason)
    assert batch.manifest.cases_admitted == len(REFS) + len(WORKED_EXAMPLES)  # the batch admitted every good case


REBUILT = (
    HERE / "cases" / "list_state",
    HERE / "cases" / "sweep_hash",
    EXAMPLES / "collatz",
    EXAMPLES / "cpp_while_break",
)


def test_building_twice_is_byte_identical(batch):
    """Python and C++ cases, with and without sweeps, built again alone and one at a time: the same bytes."""
    again = build(list(REBUILT), jobs=1, options=OPTS)
    ids = {t.case_id for t in again.tasks}
    assert again.exclusions == [] and len(ids) == len(REBUILT)
    assert tasks_bytes(again.tasks) == tasks_bytes([t for t in batch.tasks if t.case_id in ids])
