"""The built-in studies made by ``execstate construct``: committed specs, reproducible, oracles that pass the tests."""

from __future__ import annotations

import json
import shutil
import tempfile
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build, load_spec
from execstate.construct import ConstructOptions, construct_problem, read_pool
from execstate.grade import answer_matches
from execstate.languages import make_language
from execstate.studies import STUDIES
from execstate.testing import tree_bytes

CONSTRUCTED = ("codecontests_py", "library_cpp", "pyperformance")
# A few problems per study are rebuilt from the pool on every run (the whole pools take minutes:
# `python benchmarks/construct.py` reconstructs them all and compares). codecontests_py's list holds
# problems with a spec and one without (every library_cpp problem has one), so both kinds of output
# are compared; many_aplusb's only candidate is its for-init counter `i`.
REPRODUCED = {
    "codecontests_py": ["103_b_cthulhu_4280", "445_b_dzy_loves_chemistry_1921", "1444_a_division_6380"],
    "library_cpp": ["zalgorithm", "many_aplusb"],
}


def _needs_gxx(name: str) -> None:
    if "cpp" in STUDIES[name].languages and shutil.which("g++") is None:
        pytest.skip("needs g++ (Debian package g++)")


@pytest.mark.parametrize("name", CONSTRUCTED)
def test_every_problem_has_a_spec_or_a_recorded_reason(name):
    study = STUDIES[name]
    assert study.pool is not None and study.cases_dir is not None
    problems = read_pool(study.pool)
    summary = json.loads((study.cases_dir / "construct.json").read_text())
    assert [o["problem"] for o in summary["outcomes"]] == [p.id for p in problems]
    for outcome in summary["outcomes"]:
        spec = study.cases_dir / outcome["problem"] / "case.toml"
        assert spec.is_file() == (outcome["check"] is None), outcome
        if outcome["check"] is not None:
            assert outcome["reason"], outcome
    assert summary["specs"] >= {"codecontests_py": 30, "library_cpp": 8, "pyperformance": 15}[name]


@pytest.mark.parametrize(("name", "problem"), [(n, p) for n, ps in REPRODUCED.items() for p in ps])
def test_construct_reproduces_the_committed_specs(name, problem, tmp_path):
    """Rebuilt in the committed layout (study.toml beside pool/ and specs/), the spec folder is the same bytes:
    a case.toml naming ../../pool/<problem>/ files, construct.json, and only the files the pool lacks."""
    _needs_gxx(name)
    study = STUDIES[name]
    assert study.pool is not None and study.cases_dir is not None
    shutil.copytree(study.pool / problem, tmp_path / "pool" / problem)
    shutil.copy(study.pool.parent / "study.toml", tmp_path / "study.toml")
    (found,) = read_pool(tmp_path / "pool")
    construct_problem(found, tmp_path / "specs", ConstructOptions(study=name))
    assert tree_bytes(tmp_path / "specs" / problem) == tree_bytes(study.cases_dir / problem)
    assert sorted(p.name for p in (tmp_path / "specs").iterdir()) == [problem]  # the root holds the pool: no sources


@pytest.mark.parametrize("name", CONSTRUCTED)
def test_the_committed_specs_name_the_pool_files_they_use(name):
    """No spec folder holds a program or input its pool already has: it names them (study root rules)."""
    study = STUDIES[name]
    assert study.pool is not None and study.cases_dir is not None
    for spec_path in sorted(study.cases_dir.glob("*/case.toml")):
        spec = load_spec(spec_path)
        problem = study.pool.resolve() / spec.provenance["problem"]
        for arm, src in (("short", spec.short_input), ("long", spec.long_input)):
            chosen = spec.provenance[f"{arm}_input"]
            if spec.provenance.get(f"{arm}_origin") == "synthesized":  # its generator beside the spec re-makes it
                assert src.file is None and src.generator == spec_path.parent / "gen.py", spec.id
                continue
            assert src.file == (problem / chosen if chosen.startswith("tests/") else spec_path.parent / f"{arm}.txt")
        pool_program = next(problem.glob("main.*"))
        inlined = spec.program.read_bytes() != pool_program.read_bytes()
        assert spec.program == (spec_path.parent / pool_program.name if inlined else pool_program), spec.id


@pytest.mark.parametrize("name", ("codecontests_py", "library_cpp"))  # pyperformance has no tests: its generator
def test_every_final_oracle_passes_the_test_it_came_from(name):
    """The clean program's output on each chosen input (the final arms' oracle) matches the test's .out."""
    _needs_gxx(name)
    study = STUDIES[name]
    assert study.pool is not None and study.cases_dir is not None
    checked = 0
    opts = BuildOptions()
    with tempfile.TemporaryDirectory() as tmp:
        for spec_path in sorted(study.cases_dir.glob("*/case.toml")):
            spec = load_spec(spec_path)
            lang = make_language(spec.language, opts)
            assert lang is not None
            source = spec.program.read_text(encoding="utf-8")
            for arm in ("short", "long"):
                chosen = spec.provenance[f"{arm}_input"]
                expected = study.pool / spec.provenance["problem"] / Path(chosen).with_suffix(".out")
                if not chosen.startswith("tests/") or not expected.is_file():
                    continue
                named = spec.short_input if arm == "short" else spec.long_input
                assert named.file is not None
                data = named.file.read_bytes()
                assert data == (study.pool / spec.provenance["problem"] / chosen).read_bytes()
                res = lang.run(source, data, Path(tmp))
                assert res.ok, (spec.id, arm, res.describe())
                assert answer_matches(spec.grading_rule, res.stdout.decode(), expected.read_text()), (spec.id, arm)
                checked += 1
    assert checked >= 2 * {"codecontests_py": 30, "library_cpp": 8}[name]


@pytest.mark.parametrize(
    ("name", "problem"), [("codecontests_py", "445_b_dzy_loves_chemistry_1921"), ("library_cpp", "zalgorithm")]
)
def test_a_committed_spec_builds_with_oracles_equal_to_its_tests(name, problem):
    _needs_gxx(name)
    study = STUDIES[name]
    assert study.pool is not None and study.cases_dir is not None
    result = build([study.cases_dir / problem])
    assert result.exclusions == [] and len(result.tasks) == 4
    spec = load_spec(study.cases_dir / problem / "case.toml")
    for arm in ("short", "long"):
        task = next(t for t in result.tasks if t.arm == f"{arm}-trace-final")
        expected = study.pool / problem / Path(spec.provenance[f"{arm}_input"]).with_suffix(".out")
        assert answer_matches(spec.grading_rule, task.oracle, expected.read_text())
        assert task.meta["provenance"]["problem"] == problem
