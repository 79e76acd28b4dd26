"""Original vs source variant: pairing, hand-counted accuracies and difference, the interval reused from the
paired comparison, fresh tasks kept out, and that variant tasks change no other key of the analysis."""

from __future__ import annotations

import json

import numpy as np
from test_fresh import _grade, _task  # published tasks of their own source, and their grades

from execstate.analyze import (
    AnalysisConfig,
    analyze,
    paired_difference,
    variant_comparison,
    variant_pairs,
    variant_rows,
    write_analysis_json,
)
from execstate.records import Grade, Task, is_variant
from execstate.testing import fresh_copy, synthetic_grades, synthetic_tasks

FAST = AnalysisConfig(replicates=2000, permutations=200)


def variant_copy(task: Task, name: str = "rename") -> Task:
    """The ``name`` variant of ``task`` as ``build --variants`` writes it: case ``<case>~<name>``, its own
    source, ``meta.variant_of`` and ``meta.variant``."""
    case_id = f"{task.case_id}~{name}"
    meta = {**task.meta, "variant_of": task.case_id, "variant": {"name": name, "seed": 7, "mapping": {"x": "v1"}}}
    return task.model_copy(
        update={
            "case_id": case_id,
            "task_id": task.task_id.replace(task.case_id, case_id, 1),
            "source": task.source.replace("x", "v1"),
            "source_sha256": task.source_sha256 + "-" + name,
            "meta": meta,
        }
    )


# (case, arm) -> (original outcome, rename outcome) in setting s1; "-" is not graded.
PLAN = {
    ("a", "long-trace-final"): "cw",
    ("b", "long-trace-final"): "cc",
    ("c", "long-trace-final"): "wc",
    ("d", "long-trace-final"): "cn",  # variant no-response: an incomplete pair, never scored
    ("e", "long-trace-final"): "-w",  # original not graded: unpaired
    ("f", "long-trace-final"): "c-",  # variant not graded: no pair, no variant cell
    ("a", "short-trace-final"): "cw",
    ("b", "short-trace-final"): "cw",
}


def _fixture() -> tuple[list[Task], list[Task], list[Grade]]:
    originals, variants, grades = [], [], []
    for (case, arm), (orig, var) in PLAN.items():
        task = _task(case, arm)
        twin = variant_copy(task)
        originals.append(task)
        variants.append(twin)
        grades += [_grade(t, "s1", code) for t, code in ((task, orig), (twin, var)) if code != "-"]
    return originals, variants, grades


def test_variant_copy_is_a_variant_and_pairs_with_its_original():
    originals, variants, grades = _fixture()
    assert all(is_variant(v) for v in variants) and not any(is_variant(t) for t in originals)
    pairs = variant_pairs(originals + variants, grades)
    assert set(pairs["original_task_id"]) == {f"classic/{c}/{a}" for (c, a), p in PLAN.items() if "-" not in p}
    assert set(pairs["variant"]) == {"rename"}
    assert set(pairs["source_sha256"]) <= {f"sha-{c}" for c, _ in PLAN}  # the originals' sources cluster


def test_the_table_counted_by_hand():
    originals, variants, grades = _fixture()
    rows = {r["arm"]: r for r in variant_rows(originals + variants, grades, FAST)}
    assert list(rows) == ["short-trace-final", "long-trace-final", "all"]
    long = rows["long-trace-final"]
    assert (long["pairs"], long["incomplete_pairs"], long["unpaired_variant"], long["cases"]) == (3, 1, 1, 3)
    assert (long["original_correct"], long["variant_correct"]) == (2, 2)
    assert long["difference_pp"] == 0.0
    short = rows["short-trace-final"]
    assert (short["original_accuracy_pct"], short["variant_accuracy_pct"], short["difference_pp"]) == (
        100.0,
        0.0,
        -100.0,
    )
    pooled = rows["all"]
    assert (pooled["pairs"], pooled["incomplete_pairs"], pooled["unpaired_variant"]) == (5, 1, 1)
    assert pooled["difference_pp"] == 100.0 * (2 - 4) / 5


def test_the_interval_is_the_paired_comparisons_bootstrap():
    originals, variants, grades = _fixture()
    row = next(r for r in variant_rows(originals + variants, grades, FAST) if r["arm"] == "all")
    pairs = variant_pairs(originals + variants, grades)
    done = pairs[pairs["complete"]]
    expected = paired_difference(
        done["variant_correct"].to_numpy(),
        done["original_correct"].to_numpy(),
        done["source_sha256"].to_numpy(),
        FAST,
        "variant",
        "s1",
        "all",
        "rename",
    )
    assert (row["difference_pp"], row["ci_low"], row["ci_high"]) == expected
    assert row["ci_low"] <= row["difference_pp"] <= row["ci_high"]


def test_fresh_tasks_are_no_variants_here():
    originals, variants, grades = _fixture()
    fresh = [fresh_copy(t) for t in originals]
    fresh_grades = [_grade(t, "s1", "w") for t in fresh]
    plain = variant_rows(originals + variants, grades, FAST)
    assert variant_rows(originals + variants + fresh, grades + fresh_grades, FAST) == plain
    assert variant_comparison(originals + fresh, grades + fresh_grades, FAST) == {}


def test_no_variant_task_no_variants_key():
    originals, _, grades = _fixture()
    a = analyze(originals, [g for g in grades if "~" not in g.task_id], FAST)
    assert a.section("variants") == {} and "variants" not in a.to_json()


def _json(analysis, tmp_path, name) -> dict:
    return json.loads(write_analysis_json(analysis, tmp_path / name).read_text(encoding="utf-8"))


def test_variant_tasks_change_no_other_key(tmp_path):
    tasks = synthetic_tasks(5, (("classic", "python", 8), ("lcb_python", "python", 10)))
    variants = [variant_copy(t, name) for t in tasks[:24] for name in ("rename", "deadcode")]
    settings = {"m-high": -0.5, "m-off": 1.0}
    grades = synthetic_grades(tasks, 5, settings=settings)
    variant_grades = [g for g in synthetic_grades(variants, 9, settings=settings) if g.sample == 0]
    mixed = analyze(tasks + variants, grades + variant_grades, FAST)
    with_variants = _json(mixed, tmp_path, "mixed.json")
    block = with_variants.pop("variants")
    assert with_variants == _json(analyze(tasks, grades, FAST), tmp_path, "base.json")
    assert block["tasks"] == len(variants) and block["variants"] == ["deadcode", "rename"]
    assert block["graded_cells"] == len(variant_grades)
    arms = {t.arm for t in variants}
    assert {(r["setting"], r["arm"], r["variant"]) for r in block["rows"]} == {
        (s, a, v) for s in settings for a in (*arms, "all") for v in ("deadcode", "rename")
    }
    assert block["figures"]["variant_gap"]["bars"]
    assert all(np.isfinite(r["ci_low"]) for r in block["rows"] if r["pairs"])
