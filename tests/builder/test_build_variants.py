"""``build --variants`` on the classic study: every variant is kept, re-running each variant task's program gives the
original's answer (outputs equal, states equal once the mapping is undone), the originals' lines are untouched, and
the same build twice gives the same bytes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.builder.test_python_variants import foreign_names

from execstate.builder import BuildOptions, BuildResult, Fresh, Measurements, build, tasks_bytes
from execstate.languages.python.language import PythonLanguage
from execstate.records import is_variant, paper_tasks
from execstate.studies import STUDIES

VARIANTS = ("rename", "mislead")
"""The variants built of the whole study (the main job's); ``deadcode`` is built of ``TWICE``'s cases (below)."""
TWICE = ("heapsort", "kadane", "run_length")
CLASSIC = STUDIES["classic"].cases_dir
assert CLASSIC is not None


@pytest.fixture(scope="module")
def built(classic_measurements: Measurements) -> BuildResult:
    """The whole study built with ``VARIANTS``, as the pipeline's variants build: the originals' measurements come
    from the session's plain build's memo (``classic_measurements``, tests/conftest.py), the variants' are made
    here; ``test_the_same_variant_build_twice_gives_the_same_bytes`` rebuilds three cases without a memo."""
    varied = build([], studies=["classic"], jobs=2, options=BuildOptions(variants=VARIANTS), memo=classic_measurements)
    assert classic_measurements.stats.hits > 0, "the originals were measured again: the shared memo missed"
    return varied


def test_every_classic_case_keeps_its_variants(built, classic_build) -> None:
    kept = built.manifest.variants
    assert kept is not None and kept["names"] == list(VARIANTS) and kept["not_kept"] == []
    for name in VARIANTS:
        cases = {t.case_id for t in built.tasks if t.meta.get("variant", {}).get("name") == name}
        assert len(cases) >= 27, name
    assert len(kept["kept"]) == 60
    originals = [t for t in built.tasks if not is_variant(t)]
    plain = classic_build  # the session's plain build of the study (tests/conftest.py)
    assert tasks_bytes(originals) == tasks_bytes(plain.tasks)  # the originals' lines are the lines they were
    assert paper_tasks(built.tasks) == paper_tasks(plain.tasks)


def test_each_variant_task_reruns_to_the_originals_answer(built, tmp_path: Path) -> None:
    lang = PythonLanguage()
    by_id = {t.task_id: t for t in built.tasks}
    checked = 0
    for task in built.tasks:
        if not is_variant(task) or task.arm == "line-count":
            continue
        original = by_id[task.meta["variant_of"] + "/" + task.task_id.split("/")[-1]]
        mapping = task.meta["variant"]["mapping"]
        assert task.source_sha256 != original.source_sha256 and task.input == original.input
        assert task.meta["variables"] == [mapping.get(v, v) for v in original.meta["variables"]]
        res = lang.run(task.source, task.input.encode("utf-8"), tmp_path)
        assert res.ok, (task.task_id, res.describe())
        assert res.stdout.decode("utf-8") == task.oracle  # the variant's own oracle is what its program prints
        if task.answer_kind == "json":
            assert _back(json.loads(res.stdout), mapping) == json.loads(original.oracle), task.task_id
        else:
            assert res.stdout.decode("utf-8") == original.oracle, task.task_id
        checked += 1
    assert checked >= 60 * 4


def _back(value, mapping: dict[str, str]):
    back = {new: old for old, new in mapping.items()}
    if isinstance(value, list):
        return [_back(v, mapping) for v in value]
    return {back.get(k, k): v for k, v in value.items()}


def test_line_counts_of_variants_count_the_same_line(built) -> None:
    by_id = {t.task_id: t for t in built.tasks}
    variants = [t for t in built.tasks if is_variant(t) and t.arm == "line-count"]
    assert len(variants) == 42  # the 21 originals' line counts, twice
    for task in variants:
        original = by_id[task.meta["variant_of"] + "/line-count"]
        assert task.oracle == original.oracle


def test_the_same_variant_build_twice_gives_the_same_bytes(built, tmp_path: Path) -> None:
    """Three cases built again with every variant (``deadcode`` too): the lines the study's build holds are the same
    bytes, and each ``deadcode`` variant is kept and re-runs to its original's answer."""
    again = build([CLASSIC / name for name in TWICE], jobs=1, options=BuildOptions(variants=(*VARIANTS, "deadcode")))
    wanted = {t.case_id for t in again.tasks}
    assert len(wanted) == 12  # each case and its three variants
    shared = [t for t in again.tasks if t.meta.get("variant", {}).get("name") != "deadcode"]
    assert tasks_bytes(shared) == tasks_bytes([t for t in built.tasks if t.case_id in wanted])
    by_id = {t.task_id: t for t in again.tasks}
    lang = PythonLanguage()
    dead = [t for t in again.tasks if t.meta.get("variant", {}).get("name") == "deadcode" and t.arm != "line-count"]
    assert {t.meta["variant_of"] for t in dead} == {f"classic/{name}" for name in TWICE}
    for task in dead:
        original = by_id[task.meta["variant_of"] + "/" + task.task_id.split("/")[-1]]
        res = lang.run(task.source, task.input.encode("utf-8"), tmp_path)
        assert res.ok and res.stdout.decode("utf-8") == task.oracle, task.task_id
        if task.answer_kind == "json":
            assert _back(json.loads(task.oracle), task.meta["variant"].get("mapping", {})) == json.loads(
                original.oracle
            )
        else:
            assert task.oracle == original.oracle, task.task_id


def test_variants_combine_with_fresh_inputs() -> None:
    case = CLASSIC / "kadane"
    published = build([case], options=BuildOptions(variants=("rename",)))
    fresh = build([case], options=BuildOptions(variants=("rename",)), fresh=Fresh("a secret", only=True))
    ids = sorted({t.case_id for t in fresh.tasks})
    assert ids == ["classic/kadane~fresh", "classic/kadane~fresh~rename"]
    varied = [t for t in fresh.tasks if is_variant(t)]
    assert {t.meta["variant_of"] for t in varied} == {"classic/kadane~fresh"}
    assert all(t.meta["fresh"]["of"] == "classic/kadane" for t in varied)
    same = [t for t in published.tasks if is_variant(t)]
    assert {t.source for t in varied if t.arm == "short-trace-final"} == {
        t.source for t in same if t.arm == "short-trace-final"
    }  # the same variant of the program, on other inputs
    assert {t.input for t in varied} != {t.input for t in same}


def test_no_kept_variant_renames_a_builtin_an_import_a_keyword_or_an_attribute(built) -> None:
    by_id = {t.task_id: t for t in built.tasks}
    kept = [t for t in built.tasks if is_variant(t) and t.arm == "short-trace-final"]
    assert len(kept) == 60
    for task in kept:
        original = by_id[task.meta["variant_of"] + "/short-trace-final"]
        assert foreign_names(task.source) == foreign_names(original.source), task.task_id
