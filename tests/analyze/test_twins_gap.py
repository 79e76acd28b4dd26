"""The paired language gap: pairing of Python originals with their proven C++ twins, hand-counted accuracies and gap,
the interval checked against an independent cluster bootstrap by algorithm, the trace-length bands, and that twin
tasks change no other key of the analysis."""

from __future__ import annotations

import json

import numpy as np
from test_fresh import STATUS, TEMPLATE

from execstate.analyze import AnalysisConfig, analyze, language_gap, seeded_rng, twin_pairs, write_analysis_json
from execstate.records import Grade, Metrics, Task, task_kind
from execstate.testing import fresh_copy, synthetic_grades, synthetic_tasks

FAST = AnalysisConfig(replicates=2000, permutations=200)
ARMS = ("long-trace-final", "inside-loop-state")
# algorithm -> (Python trace, C++ trace, {arm: python outcome + C++ outcome}) in setting s1; "-": not graded
PLAN = {
    "a": (100, 40, {"long-trace-final": "cw", "inside-loop-state": "cc"}),
    "b": (200, 90, {"long-trace-final": "cc", "inside-loop-state": "wc"}),
    "c": (300, 120, {"long-trace-final": "cw", "inside-loop-state": "cw"}),
    "d": (400, 150, {"long-trace-final": "ww", "inside-loop-state": "cn"}),  # C++ no-response: incomplete
    "e": (500, 210, {"long-trace-final": "cc", "inside-loop-state": "c-"}),  # C++ not graded: no pair
    "f": (600, 260, {"long-trace-final": "ww", "inside-loop-state": "cw"}),
}


def _task(case_id: str, arm: str, language: str, trace: int, meta: dict | None = None) -> Task:
    """A task of ``case_id`` and ``arm`` with its own source and trace length."""
    return TEMPLATE.model_copy(
        update={
            "task_id": f"{case_id}/{arm}",
            "case_id": case_id,
            "study": case_id.split("/")[0],
            "language": language,
            "arm": arm,
            "source_sha256": f"sha-{case_id}",
            "answer_kind": "json" if arm == "inside-loop-state" else "text",
            "metrics": Metrics(trace_length=trace, peak_state=2, state_load=10, cyclomatic=3),
            "meta": {**TEMPLATE.meta, **(meta or {})},
        }
    )


def twin_copy(task: Task, trace: int, proven: bool = True) -> Task:
    """The C++ twin of a classic task as the builder writes it: case ``classic_cpp/<name>``, ``meta.twin_of``."""
    name = task.case_id.split("/", 1)[1]
    record: dict = {"proven": proven, "variables": {"x": "x"}}
    if not proven:
        record["difference"] = "inside-loop-state: state '1' vs the original's '2'"
    twin_of = task.case_id.removesuffix("~fresh")
    return _task(f"classic_cpp/{name}", task.arm, "cpp", trace, {**task.meta, "twin_of": twin_of, "twin": record})


def _grade(task: Task, code: str, setting: str = "s1") -> Grade:
    return Grade(task_id=task.task_id, setting=setting, status=STATUS[code], rule=task.grading_rule)


def _fixture() -> tuple[list[Task], list[Grade]]:
    tasks, grades = [], []
    for name, (py_trace, cpp_trace, outcomes) in PLAN.items():
        for arm, (py, cpp) in outcomes.items():
            original = _task(f"classic/{name}", arm, "python", py_trace)
            twin = twin_copy(original, cpp_trace)
            tasks += [original, twin]
            grades += [_grade(t, code) for t, code in ((original, py), (twin, cpp)) if code != "-"]
    unproven = _task("classic/g", "long-trace-final", "python", 700)
    off = twin_copy(unproven, 300, proven=False)
    tasks += [unproven, off]
    grades += [_grade(unproven, "c"), _grade(off, "w")]  # a C++ miss that must not count: the pair is unproven
    return tasks, grades


def _independent(pairs: list[tuple[str, int, int]], key: tuple[str, ...]) -> tuple[float, float, float]:
    """The gap and its interval computed here from (algorithm, python correct, C++ correct) triples."""
    names = sorted({a for a, _, _ in pairs})
    num = np.array([sum(c - p for a, p, c in pairs if a == name) for name in names], dtype=float)
    den = np.array([sum(1 for a, _, _ in pairs if a == name) for name in names], dtype=float)
    idx = seeded_rng(FAST.seed, "twins", *key).integers(0, len(names), size=(FAST.replicates, len(names)))
    reps = 100.0 * num[idx].sum(axis=1) / den[idx].sum(axis=1)
    low, high = np.percentile(reps, [2.5, 97.5])
    return 100.0 * num.sum() / den.sum(), float(low), float(high)


def _complete(arms: tuple[str, ...]) -> list[tuple[str, int, int]]:
    """The complete pairs of ``PLAN`` in ``arms``: (algorithm, python correct, C++ correct)."""
    return [
        (f"classic/{name}", int(codes[0] == "c"), int(codes[1] == "c"))
        for name, (_, _, outcomes) in PLAN.items()
        for arm, codes in outcomes.items()
        if arm in arms and "-" not in codes and "n" not in codes
    ]


def test_pairs_are_the_same_algorithm_arm_and_input_in_both_languages():
    tasks, grades = _fixture()
    pairs = twin_pairs(tasks, grades)
    assert len(pairs) == 11  # 12 planned, 1 C++ not graded, the unproven pair left out
    assert set(pairs["algorithm"]) == {f"classic/{n}" for n in "abcdef"}
    assert int((~pairs["complete"]).sum()) == 1  # d's C++ no-response
    row = pairs[pairs["python_task_id"] == "classic/b/inside-loop-state"].iloc[0]
    assert (row["python_correct"], row["cpp_correct"], row["python_trace"], row["cpp_trace"]) == (False, True, 200, 90)
    assert set(pairs["input"]) == {"published"}
    assert all(task_kind(t) == "twin" for t in tasks if t.language == "cpp")


def test_the_gap_and_its_interval_match_an_independent_computation():
    tasks, grades = _fixture()
    block = language_gap(tasks, grades, FAST)
    rows = {r["arm"]: r for r in block["rows"]}
    assert list(rows) == ["long-trace-final", "inside-loop-state", "all"]
    long = rows["long-trace-final"]
    # long: a cw, b cc, c cw, d ww, e cc, f ww -> Python 4/6, C++ 2/6
    assert (long["pairs"], long["python_correct"], long["cpp_correct"], long["algorithms"]) == (6, 4, 2, 6)
    assert long["gap_pp"] == 100.0 * (2 - 4) / 6
    for arm, arms in (("long-trace-final", ("long-trace-final",)), ("all", ARMS)):
        gap, low, high = _independent(_complete(arms), ("arm", "s1", arm))
        assert rows[arm]["gap_pp"] == gap
        assert np.isclose(rows[arm]["ci_low"], low) and np.isclose(rows[arm]["ci_high"], high)
    inside = rows["inside-loop-state"]
    assert (inside["pairs"], inside["incomplete_pairs"]) == (4, 1)  # a, b, c, f complete; d incomplete
    assert block["unproven"] == {"classic_cpp/g": "inside-loop-state: state '1' vs the original's '2'"}
    assert block["proven_algorithms"] == 6 and block["twin_tasks"] == 13
    assert block["graded_cells"] == 11


def test_bands_put_the_python_and_cpp_traces_side_by_side():
    tasks, grades = _fixture()
    bands = {r["band"]: r for r in language_gap(tasks, grades, FAST)["bands"]}
    # terciles of the Python traces 100..600 over the distinct pairs: <= 266.7, <= 433.3, above
    assert bands["short"]["python_trace_range"] == [100, 200] and bands["short"]["cpp_trace_range"] == [40, 90]
    assert bands["middle"]["python_trace_range"] == [300, 400] and bands["middle"]["cpp_trace_median"] == 135.0
    assert bands["long"]["python_trace_range"] == [500, 600] and bands["long"]["cpp_trace_range"] == [210, 260]
    short = [p for p in _complete(ARMS) if p[0] in ("classic/a", "classic/b")]
    gap, low, high = _independent(short, ("band", "s1", "short"))
    assert bands["short"]["gap_pp"] == gap and np.isclose(bands["short"]["ci_low"], low)
    assert np.isclose(bands["short"]["ci_high"], high)
    assert bands["short"]["pairs"] == 4 and bands["long"]["pairs"] == 3


def test_a_fresh_twin_pairs_with_its_originals_fresh_task():
    original = _task("classic/a", "long-trace-final", "python", 100)
    fresh = fresh_copy(original, input="2\n", oracle="2")
    twin = twin_copy(fresh, 40)
    assert twin.task_id == "classic_cpp/a~fresh/long-trace-final" and twin.meta["twin_of"] == "classic/a"
    pairs = twin_pairs([original, fresh, twin], [_grade(original, "w"), _grade(fresh, "c"), _grade(twin, "w")])
    assert pairs["python_task_id"].tolist() == [fresh.task_id] and pairs["input"].tolist() == ["fresh"]
    assert (bool(pairs["python_correct"][0]), bool(pairs["cpp_correct"][0])) == (True, False)


def test_twin_tasks_change_no_other_key(tmp_path):
    tasks = synthetic_tasks(5, (("classic", "python", 6), ("lcb_python", "python", 6)))
    twins = [twin_copy(t, 50) for t in tasks if t.study == "classic"]
    settings = {"m-high": -0.5, "m-off": 1.0}
    grades = synthetic_grades(tasks, 5, settings=settings)
    twin_grades = [g for g in synthetic_grades(twins, 9, settings=settings) if g.sample == 0]

    def as_json(analysis, name):
        return json.loads(write_analysis_json(analysis, tmp_path / name).read_text(encoding="utf-8"))

    mixed = as_json(analyze(tasks + twins, grades + twin_grades, FAST), "mixed.json")
    block = mixed.pop("twins")
    assert mixed == as_json(analyze(tasks, grades, FAST), "base.json")
    assert block["twin_tasks"] == len(twins) and block["graded_cells"] == len(twin_grades)
    assert {(r["setting"], r["arm"]) for r in block["rows"]} == {
        (s, a) for s in settings for a in (*{t.arm for t in twins}, "all")
    }
    assert block["figures"]["language_gap"]["bars"]
