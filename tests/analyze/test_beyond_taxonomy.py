"""The wrong-answer taxonomy on built example tasks: one hand-made response per class, classified as intended.

The neighbour states are worked out by hand from the programs (not read back from the builder), so the
test also checks the builder's neighbour oracles.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from execstate.analyze._taxonomy import CLASSES, taxonomy
from execstate.builder import BuildOptions, build_case, load_spec
from execstate.grade import grade_response
from execstate.records import Response, Task

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def built() -> dict[str, Task]:
    tasks: dict[str, Task] = {}
    for name in ("abc310_e", "nested_inner"):
        result = build_case(load_spec(ROOT / "examples" / name / "case.toml"), BuildOptions())
        assert isinstance(result, list), result
        tasks.update({t.task_id: t for t in result})
    return tasks


def _nested_inside(k: int) -> dict:
    """nested_inner's inside state at the top of cumulative iteration k of `for j in range(i)`, by hand."""
    done = 0
    for i in range(1000):
        if k <= done + i:
            j = k - done - 1
            return {"i": i, "j": j, "row": i * sum(range(j))}
        done += i
    raise AssertionError(k)


def _nested_post_of_execution(i: int) -> dict:
    return {"i": i, "j": i - 1, "row": i * sum(range(i))}


def test_neighbour_oracles_match_hand_computation(built):
    inside = built["examples/nested_inner/inside-loop-state"]
    k = inside.meta["k"]
    assert json.loads(inside.oracle) == _nested_inside(k)
    by_d = {n["d"]: json.loads(n["state"]) for n in inside.meta["neighbours"]}
    assert by_d == {d: _nested_inside(k + d) for d in (-3, -2, -1, 1, 2, 3)}
    post = built["examples/nested_inner/post-loop-state"]
    i = json.loads(post.oracle)["i"]
    assert {n["d"]: json.loads(n["state"]) for n in post.meta["neighbours"]} == {
        -1: _nested_post_of_execution(i - 1),
        1: _nested_post_of_execution(i + 1),
    }
    # abc310_e's loop runs once: its post checkpoint has no neighbouring execution
    assert built["lcb_python/abc310_e/post-loop-state"].meta["neighbours"] == []
    long = built["lcb_python/abc310_e/long-trace-final"]
    assert long.meta["neighbours"] == [{"input": "short", "output": "9\n"}]


def _responses(built) -> list[tuple]:
    inside, long = "lcb_python/abc310_e/inside-loop-state", "lcb_python/abc310_e/long-trace-final"
    k_plus_1 = _nested_inside(built["examples/nested_inner/inside-loop-state"].meta["k"] + 1)
    post = json.loads(built["examples/nested_inner/post-loop-state"].oracle)
    env = lambda answer: json.dumps({"output": answer})
    return [
        (inside, "The state is probably ans=63250.", "no-answer", None, ()),
        (inside, env('"ans":63250,"cnt1":500,"dp1":500'), "not-json", None, ()),
        (inside, env('{"ans":63250,"cnt1":500}'), "wrong-fields", None, ()),
        (inside, env('{"ans":"63250","cnt1":500,"dp1":500}'), "wrong-fields", None, ("cnt1", "dp1")),
        ("examples/nested_inner/inside-loop-state", env(json.dumps(k_plus_1)), "nearby-state", 1, ("i",)),
        (
            "examples/nested_inner/post-loop-state",
            env(json.dumps(_nested_post_of_execution(post["i"] - 1))),
            "nearby-state",
            -1,
            (),
        ),
        (long, env("9"), "other-input-output", None, ()),
        (inside, env('{"ans":63251,"cnt1":500,"dp1":500}'), "near-miss", None, ("cnt1", "dp1")),
        (inside, env('{"ans":63500,"cnt1":500,"dp1":500}'), "near-miss", None, ("cnt1", "dp1")),  # within 1%
        (long, env("251503"), "near-miss", None, ()),
        (inside, env('{"ans":1,"cnt1":500,"dp1":500}'), "some-fields-right", None, ("cnt1", "dp1")),
        (long, env("12345"), "right-shape", None, ()),
        (long, env("many"), "other", None, ()),
        (inside, env('{"ans":1,"cnt1":7,"dp1":9}'), "other", None, ()),
    ]


def test_every_class_is_recognised(built):
    cases = _responses(built)
    assert {c[2] for c in cases} == set(CLASSES)
    grades = []
    for n, (tid, text, *_rest) in enumerate(cases):
        response = Response(task_id=tid, setting="hand", sample=n, status="completed", text=text)
        grades.append(grade_response(built[tid], response))
    assert all(g.status.startswith("wrong") for g in grades), [g.status for g in grades]
    found = taxonomy(list(built.values()), grades)
    assert len(found.cells) == len(cases)
    for cell, (tid, _text, cls, d, right) in zip(found.cells, cases):
        assert (cell["task_id"], cell["class"], cell["d"]) == (tid, cls, d), cell
        if right:
            assert tuple(cell["fields_right"]) == right, cell
    counts = {(r["arm"], r["class"]): r["cells"] for r in found.table}
    assert counts[("inside-loop-state", "near-miss")] == 2
    assert sum(r["cells"] for r in found.table) == len(cases)


def test_correct_and_unanswered_cells_are_not_classified(built):
    tid = "lcb_python/abc310_e/long-trace-final"
    ok = grade_response(built[tid], Response(task_id=tid, setting="s", status="completed", text='{"output":"251502"}'))
    none = grade_response(built[tid], Response(task_id=tid, setting="s", sample=1, status="no-response"))
    assert taxonomy(list(built.values()), [ok, none]).cells == []


def test_near_misses_of_integers_past_float_range_are_judged_exactly():
    """pidigits prints 4,096 digits: the 1% rule is exact integer arithmetic there, not a float overflow."""
    from execstate.analyze._taxonomy import compare

    big = 10**400
    assert compare(big + 1, big) == "near"  # off by one
    assert compare(big + 10**397, big) == "near"  # 0.1% off
    assert compare(2 * big, big) == "different"
    assert compare(1.5, big) == "different" and compare(big, 1.5) == "different"
    assert compare(big, big) == "equal"
