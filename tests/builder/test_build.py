"""Build hand-made good and bad cases in one batch; check oracles against independent computations."""

from __future__ import annotations

import json
from collections import deque
from pathlib import Path

import pytest

from execstate.build import BuildOptions, build, instrument, tasks_bytes
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


REFS = {
    "tests/module_for": ref_module_for,
    "examples/collatz": ref_while_loop,
    "examples/nested_inner": ref_nested_inner,
    "tests/break_loop": ref_break_loop,
    "tests/one_line": ref_one_line,
    "tests/prints_in_loop": ref_prints_in_loop,
    "tests/list_state": ref_list_state,
    "tests/method_loop": ref_method_loop,
}


def test_worked_example_gives_spec_values(by_task):
    """SPEC section 2's worked example, values typed from the protocol itself."""
    base = "lcb_python/abc310_e/"
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
        assert t.task_id == f"{t.case_id}/{t.arm}"
        assert t.meta["python"].count(".") == 2
        assert t.meta["K"] >= 2 and 1 <= t.meta["k"] <= t.meta["K"]
        if t.arm in ("short-trace-final", "long-trace-final"):
            assert t.answer_kind == "text" and "execstate" not in t.source
        else:
            assert t.answer_kind == "json" and t.oracle.endswith("}\n") and t.oracle.count("\n") == 1
            assert "# --- execstate checkpoint support (inserted) ---" in t.source
    short = [t for t in batch.tasks if t.arm == "short-trace-final"]
    long = {t.case_id: t for t in batch.tasks if t.arm == "long-trace-final"}
    for t in short:  # byte-identical clean source on both final arms; short trace strictly shorter
        assert t.source == long[t.case_id].source
        assert t.metrics.trace_length < long[t.case_id].metrics.trace_length


@pytest.mark.parametrize("case_id", sorted(REFS))
def test_instrumentation_only_inserts_lines(by_task, case_id):
    """Removing the inserted lines gives back the clean source (one-line bodies: modulo the split)."""
    task = by_task[f"{case_id}/post-loop-state"]
    clean = by_task[f"{case_id}/long-trace-final"].source
    inst = instrument(clean, task.meta["loop_line"], tuple(task.meta["variables"]), "post", task.meta["k"])
    assert inst.source == task.source
    kept = [line for i, line in enumerate(inst.source.splitlines(), 1) if i not in inst.inserted_lines]
    if case_id == "tests/one_line":
        assert kept[3:5] == ["for w in words:", "    seen += w[0]"]
    else:
        assert kept == clean.splitlines()


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
    assert batch.manifest.cases_admitted == len(REFS) + 1  # the batch finished and admitted every good case


def test_building_twice_is_byte_identical(batch):
    again = build([HERE / "cases", EXAMPLES], jobs=1, options=OPTS)
    assert tasks_bytes(again.tasks) == tasks_bytes(batch.tasks)
