"""The pyperformance study: the pool re-made from the pinned package, its specs reproduced, and every oracle
of its built tasks reproduced by the package's unmodified benchmark module driven by the same main."""

from __future__ import annotations

import difflib
import json
import shutil
import statistics
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, BuildResult, Fresh, build, dataset_card, load_spec
from execstate.construct import ConstructOptions, construct_problem, read_pool
from execstate.records import ARMS, Task
from execstate.report._build import studies_table
from execstate.studies import STUDIES, FreshPlan
from execstate.studies.pyperformance import fresh_plan
from execstate.studies.pyperformance import make_pool as mp
from execstate.testing import tree_bytes

STUDY = STUDIES["pyperformance"]
RECORDER = Path(__file__).with_name("pyperf_recorder.py")
REPRODUCED = ("richards", "nbody")
"""Problems re-constructed from the re-made pool (every one takes a construct run; the pool is compared whole)."""


def test_the_pinned_pyperformance_is_installed():
    assert metadata.version("pyperformance") == mp.PYPERFORMANCE_VERSION, (
        f"pip install pyperformance=={mp.PYPERFORMANCE_VERSION} (the test extra pins it)"
    )
    assert mp.PYPERFORMANCE_VERSION in (STUDY.origin or "")
    assert STUDY.licence == "MIT"


def test_make_pool_remakes_the_committed_pool_byte_for_byte(tmp_path):
    names = mp.make_pool(tmp_path / "pool")
    assert tree_bytes(tmp_path / "pool") == tree_bytes(STUDY.pool)
    assert names == sorted(names) and len(names) == len(list(mp.RECIPES.glob("*.toml")))
    assert (STUDY.pool / "LICENSE").read_text().startswith("The MIT License")


def test_every_benchmark_of_the_package_is_made_or_refused_with_a_reason():
    present = {p.name for p in mp.benchmarks_dir().iterdir() if p.name.startswith("bm_")}
    made = {r.benchmark for r in mp.recipes()}
    refused = mp.refused()
    assert made | set(refused) == present and not made & set(refused)
    assert all(len(why) > 20 for why in refused.values())
    readme = (STUDY.pool / "README.md").read_text()
    assert all(f"`{name}`" in readme for name in refused)


def test_rebuilding_from_the_import_script_gives_the_committed_specs(tmp_path):
    """A fresh pool from the installed package, constructed in the committed layout, gives the same spec folders."""
    mp.make_pool(tmp_path / "pool", only=REPRODUCED)
    shutil.copy(STUDY.pool.parent / "study.toml", tmp_path / "study.toml")
    for problem in read_pool(tmp_path / "pool"):
        construct_problem(problem, tmp_path / "specs", ConstructOptions(study="pyperformance"))
    for name in REPRODUCED:
        assert tree_bytes(tmp_path / "specs" / name) == tree_bytes(STUDY.cases_dir / name), name


def test_a_program_is_the_benchmark_unchanged_but_for_pyperf():
    """Every line of the benchmark before its runner is in the program, in order, but `import pyperf` and dropped
    functions; the program ends in its main."""
    src = mp.benchmarks_dir()
    for recipe in mp.recipes():
        original = (src / recipe.benchmark / "run_benchmark.py").read_text().split("\n")
        program = (STUDY.pool / recipe.name / "main.py").read_text()
        body, main = program.split(mp.MAIN_MARK)
        assert mp.MAIN_MARK + main == recipe.main
        changed = [
            line
            for op, a1, a2, _, _ in difflib.SequenceMatcher(
                None, original, body.split("\n"), autojunk=False
            ).get_opcodes()
            if op in ("replace", "insert")
            for line in original[a1:a2]
        ]
        assert changed == [mp.PYPERF_IMPORT], (recipe.name, changed)
        assert not mp._pyperf_uses(program), recipe.name


def test_recipe_errors_name_the_file_and_the_fix(tmp_path):
    bad = tmp_path / "x.toml"
    bad.write_text('benchmark = "bm_x"\nsize = "n"\nprints = "p"\nline = "size"\nmain = "def f(): pass"\n')
    with pytest.raises(mp.RecipeError, match="must start with the line"):
        mp.read_recipe(bad)
    bad.write_text('benchmark = "bm_x"\ncolour = 1\n')
    with pytest.raises(mp.RecipeError, match="unknown key"):
        mp.read_recipe(bad)
    recipe = mp.read_recipe(mp.RECIPES / "richards.toml")
    with pytest.raises(mp.RecipeError, match="import pyperf"):
        mp.program_text("x = 1\n", recipe)


# ---------------------------------------------------------------- the built study


@pytest.fixture(scope="module")
def result() -> BuildResult:
    return build([], studies=["pyperformance"], jobs=2, options=BuildOptions())


@pytest.fixture(scope="module")
def built(result) -> list[Task]:
    return result.tasks


def _cases(tasks: list[Task]) -> dict[str, dict[str, Task]]:
    cases: dict[str, dict[str, Task]] = {}
    for t in tasks:
        cases.setdefault(t.case_id, {})[t.arm] = t
    return cases


def test_at_least_15_programs_are_admitted_with_the_four_arms_and_their_median_length_is_150(built):
    cases = _cases(built)
    full = {c: arms for c, arms in cases.items() if set(ARMS) <= set(arms)}
    assert len(full) >= 15, sorted(cases)
    lines = [arms["short-trace-final"].meta["provenance"]["program_lines"] for arms in full.values()]
    assert statistics.median(lines) >= 150, lines
    for arms in full.values():
        for task in arms.values():
            meta = task.meta["provenance"]
            assert {"program_lines", "program_functions", "program_classes", "benchmark", "pyperformance"} <= set(meta)
            assert meta["pyperformance"] == mp.PYPERFORMANCE_VERSION
        clean = arms["short-trace-final"]
        assert clean.meta["provenance"]["program_lines"] == len(clean.source.splitlines())


def _original_line(recipe: mp.Recipe, program: str, line: int) -> int:
    original = (mp.benchmarks_dir() / recipe.benchmark / "run_benchmark.py").read_text().split("\n")
    matcher = difflib.SequenceMatcher(None, original, program.split("\n"), autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        if b <= line - 1 < b + size:
            return a + (line - 1 - b) + 1
    raise AssertionError(f"{recipe.name}: line {line} of the program is not a line of the benchmark")


def _plain_run(recipe: mp.Recipe, data: str, tmp: Path, loop: int | None = None, k: int = 0, names=()):
    original = mp.benchmarks_dir() / recipe.benchmark / "run_benchmark.py"
    main = tmp / f"{recipe.name}_main.py"
    main.write_text(recipe.main.rstrip("\n").rsplit("\n", 1)[0] + "\n")  # without its last line, the call
    result = tmp / "result.json"
    args = [str(loop), str(k), *names] if loop is not None else []
    run = subprocess.run(
        [sys.executable, str(RECORDER), str(original), str(main), str(result), *args],
        input=data.encode(),
        capture_output=True,
        check=True,
    )
    return run.stdout.decode(), json.loads(result.read_text())


def test_every_oracle_is_reproduced_by_the_unmodified_benchmark_module(built, tmp_path):
    """Final outputs on both inputs, and both state oracles, from the package's own run_benchmark.py (imported as
    it ships, pyperf and all) driven by the program's main, with a plain tracer for the loop."""
    recipes = {r.name: r for r in mp.recipes()}
    for case_id, arms in sorted(_cases(built).items()):
        short, long = arms["short-trace-final"], arms["long-trace-final"]
        recipe = recipes[short.meta["provenance"]["problem"]]
        assert _plain_run(recipe, short.input, tmp_path)[0] == short.oracle, case_id
        inside, post = arms["inside-loop-state"], arms["post-loop-state"]
        line = _original_line(recipe, short.source, inside.meta["loop_line"])
        names = inside.meta["variables"]
        out, found = _plain_run(recipe, long.input, tmp_path, line, inside.meta["k"], names)
        assert out == long.oracle, case_id
        assert found["iterations"] == inside.meta["K"], case_id  # the plain tracer counts the loop's K too
        assert json.loads(inside.oracle) == found["inside"], case_id
        assert json.loads(post.oracle) == found["post"], case_id


def test_seeded_cases_refresh_and_the_others_say_why_not():
    seeded = unseeded = 0
    for spec_path in sorted(STUDY.cases_dir.glob("*/case.toml")):
        spec = load_spec(spec_path)
        plan = fresh_plan(spec_path, spec.provenance, {}, 12345)
        if spec.provenance["seeded"]:
            seeded += 1
            assert isinstance(plan, FreshPlan), (spec.id, plan)
            assert plan.long.args == ("12345", spec.provenance["long_input"].rsplit("=", 1)[1])
        else:
            unseeded += 1
            assert isinstance(plan, str) and "no seed" in plan
    assert seeded >= 1 and unseeded >= 1


def test_the_dataset_card_and_the_report_name_the_source_its_version_and_the_licence(result):
    card = dataset_card(result.tasks, result.exclusions, result.manifest)
    row = next(line for line in card.splitlines() if line.startswith("| pyperformance |"))
    assert f"pyperformance {mp.PYPERFORMANCE_VERSION}" in row and "| MIT |" in row
    (found,) = studies_table(["pyperformance"]).rows
    assert mp.PYPERFORMANCE_VERSION in str(found["source"]) and found["licence"] == "MIT"


def test_a_seeded_program_is_rebuilt_on_fresh_inputs_the_unmodified_module_reproduces(tmp_path):
    """regex_dna takes a seed: `build --fresh` draws new inputs of the published sizes, and the package's own
    module, driven by the same main, prints the fresh oracles; a program without a seed keeps its inputs."""
    fresh = Fresh("pyperformance-test-seed", candidates=1)
    result = build([STUDY.cases_dir / "regex_dna", STUDY.cases_dir / "fannkuch"], options=BuildOptions(), fresh=fresh)
    by_id = {t.task_id: t for t in result.tasks}
    short = by_id["pyperformance/regex_dna~fresh/short-trace-final"]
    long = by_id["pyperformance/regex_dna~fresh/long-trace-final"]
    published = (STUDY.cases_dir / "regex_dna" / "long.txt").read_text()
    assert long.input != published and long.input.split()[0] == published.split()[0]  # same size, another seed
    assert short.meta["fresh"]["of"] == "pyperformance/regex_dna"
    recipe = next(r for r in mp.recipes() if r.name == "regex_dna")
    for task in (short, long):
        assert _plain_run(recipe, task.input, tmp_path)[0] == task.oracle
    kept = by_id["pyperformance/fannkuch/short-trace-final"]
    assert kept.meta["fresh"] is False and "no seed" in kept.meta["fresh_note"]
    assert result.manifest.fresh is not None
    assert list(result.manifest.fresh["not_refreshable"]) == ["pyperformance/fannkuch"]
