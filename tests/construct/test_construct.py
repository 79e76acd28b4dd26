"""The constructor (SPEC 5) on small pools written here: tests check, input choice, generator, loop, projection."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build, load_spec
from execstate.construct import ConstructOptions, construct, construct_problem, read_pool
from execstate.testing import tree_bytes

# Sums the numbers; its main loop (line 4) runs n times, its other loop (line 8) once per digit of the total.
PROGRAM = """import sys
nums = [int(x) for x in sys.stdin.read().split()]
total, best, seen = 0, 0, []
for x in nums:
    total += x
    best = max(best, x)
    seen.append(x % 7)
digits = 0
while total > 0:
    total //= 10
    digits += 1
print(sum(nums), best, digits)
"""


def _answer(nums: list[int]) -> str:
    total = sum(nums)
    return f"{total} {max([0, *nums])} {len(str(total)) if total > 0 else 0}\n"


def _problem(root: Path, name: str, sizes: list[int], *, program: str = PROGRAM, wrong: int | None = None) -> Path:
    d = root / name
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(program)
    for i, n in enumerate(sizes, 1):
        nums = [(j * 37 + 11) % 101 for j in range(n)]
        (d / "tests" / f"{i}.in").write_text(" ".join(map(str, nums)) + "\n")
        out = _answer(nums) if i != wrong else "0 0 0\n"
        (d / "tests" / f"{i}.out").write_text(out)
    return d


def test_a_problem_becomes_a_spec_the_builder_admits(tmp_path):
    _problem(tmp_path / "pool", "sums", [3, 40, 400, 2, 4000])
    (problem,) = read_pool(tmp_path / "pool")
    outcome = construct_problem(problem, tmp_path / "specs", ConstructOptions(study="mine", max_trace=50_000))
    assert outcome.check is None and outcome.case_id == "mine/sums", outcome.reason
    spec = load_spec(tmp_path / "specs" / "sums" / "case.toml")
    assert spec.checkpoint.loop_text == "for x in nums:"  # n iterations beat the digit loop
    # scalars first, then read-and-written, then first assignment: x (header, read), total, best
    assert spec.checkpoint.variables == ("x", "total", "best")
    record = json.loads((tmp_path / "specs" / "sums" / "construct.json").read_text())
    by_input = {row["input"]: row for row in record["inputs"]}
    assert record["short"] == "tests/4.in"  # the smallest trace (2 numbers)
    # tests/5.in (4000 numbers) is over the cap; the largest under it is tests/3.in
    assert record["long"] == "tests/3.in" and "over max_trace" in by_input["tests/5.in"]["rejected"]
    assert len(by_input["tests/3.in"]["repeated"]) == 3
    assert by_input["tests/3.in"]["trace"] >= 4 * by_input["tests/4.in"]["trace"]
    seen = next(c for c in record["loops"][0]["candidates"] if c["name"] == "seen")
    assert "over 200" in seen["rejected"]  # the list of 200 residues is too long to show
    result = build([tmp_path / "specs"])
    assert result.exclusions == [] and len(result.tasks) == 4
    long = next(t for t in result.tasks if t.arm == "long-trace-final")
    assert long.oracle == (tmp_path / "pool" / "sums" / "tests" / "3.out").read_text()
    assert long.meta["provenance"]["long_input"] == "tests/3.in"
    assert long.meta["provenance"]["long_trace"] == by_input["tests/3.in"]["trace"]


def test_a_program_that_fails_its_own_test_is_excluded_by_tests(tmp_path):
    _problem(tmp_path / "pool", "sums", [3, 40, 400], wrong=2)
    (problem,) = read_pool(tmp_path / "pool")
    outcome = construct_problem(problem, tmp_path / "specs", ConstructOptions())
    assert outcome.check == "tests" and "test 2" in (outcome.reason or "")
    assert not (tmp_path / "specs" / "sums" / "case.toml").exists()
    assert json.loads((tmp_path / "specs" / "sums" / "construct.json").read_text())["check"] == "tests"


def test_a_generator_is_asked_for_growing_sizes_when_the_tests_are_too_alike(tmp_path):
    d = _problem(tmp_path / "pool", "sums", [3, 4])
    (d / "gen.py").write_text(
        "import sys\nseed, size = map(int, sys.argv[1:])\nprint(' '.join(str((seed + j) % 50) for j in range(size)))\n"
    )
    (problem,) = read_pool(tmp_path / "pool")
    outcome = construct_problem(problem, tmp_path / "specs", ConstructOptions(max_trace=20_000))
    assert outcome.check is None, outcome.reason
    record = json.loads((tmp_path / "specs" / "sums" / "construct.json").read_text())
    assert record["long"].startswith("generator seed=1 size=")
    generated = [r for r in record["inputs"] if r["input"].startswith("generator")]
    assert "over max_trace" in generated[-1]["rejected"]  # it stopped at the first size over the cap
    sizes = [int(r["input"].rsplit("=", 1)[1]) for r in generated]
    assert sizes == sorted(sizes) and sizes[0] == 2
    # generated inputs are written beside the spec (the pool has no such file); the program is named
    spec = load_spec(tmp_path / "specs" / "sums" / "case.toml")
    assert record["short"].startswith("generator")
    assert spec.long_input.file == (tmp_path / "specs" / "sums" / "long.txt").resolve()
    assert spec.short_input.file == (tmp_path / "specs" / "sums" / "short.txt").resolve()
    assert spec.program == (d / "main.py").resolve()


def test_without_inputs_far_enough_apart_the_problem_is_excluded_by_inputs(tmp_path):
    _problem(tmp_path / "pool", "sums", [30, 31, 32])
    (problem,) = read_pool(tmp_path / "pool")
    outcome = construct_problem(problem, tmp_path / "specs", ConstructOptions(synthesize=False))
    assert outcome.check == "inputs" and "4.0x" in (outcome.reason or "")


def test_a_loop_without_a_projection_loses_to_the_next(tmp_path):
    # The busiest loop (line 3) changes only a comprehension-free temporary each time: nothing
    # survives at the post checkpoint except `i`, whose value is a float NaN (not JSON) at the end.
    program = (
        "n = int(input())\nacc = 0\nfor i in range(n * 3):\n    i = float('nan')\n"
        "for j in range(n):\n    acc += j\nprint(acc)\n"
    )
    d = tmp_path / "pool" / "nan"
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(program)
    for i, n in enumerate([2, 50, 400], 1):
        (d / "tests" / f"{i}.in").write_text(f"{n}\n")
    (problem,) = read_pool(tmp_path / "pool")
    outcome = construct_problem(problem, tmp_path / "specs", ConstructOptions())
    assert outcome.check is None, outcome.reason
    record = json.loads((tmp_path / "specs" / "nan" / "construct.json").read_text())
    first, second = record["loops"][:2]
    assert first["line"] == 3 and "no candidate" in first["rejected"]
    assert second["line"] == 5 and second["chosen"] and second["variables"] == ["j", "acc"]


def test_construct_is_deterministic_and_the_same_on_a_process_pool(tmp_path):
    for name, sizes in (("a", [2, 30, 300]), ("b", [3, 60, 500]), ("c", [30, 31])):
        _problem(tmp_path / "pool", name, sizes)
    problems = read_pool(tmp_path / "pool")
    opts = ConstructOptions(synthesize=False)  # c stays without a pair (test_synthesize.py covers synthesis)
    one = construct(problems, tmp_path / "one", opts, jobs=1)
    construct(problems, tmp_path / "two", opts, jobs=2)
    assert [o.check for o in one.outcomes] == [None, None, "inputs"]
    assert tree_bytes(tmp_path / "one") == tree_bytes(tmp_path / "two")
    summary = json.loads((tmp_path / "one" / "construct.json").read_text())
    assert summary["specs"] == 2 and [o["problem"] for o in summary["outcomes"]] == ["a", "b", "c"]
    shutil.rmtree(tmp_path / "one" / "a")
    again = construct(problems[:1], tmp_path / "one", opts, jobs=1)
    assert again.outcomes[0].check is None and tree_bytes(tmp_path / "one" / "a") == tree_bytes(tmp_path / "two" / "a")


def test_specs_outside_the_pool_name_its_files_and_build(tmp_path):
    """`execstate construct POOL --out S && execstate build S`: S/study.toml lists the pool in sources."""
    from execstate.cli import main

    _problem(tmp_path / "pool", "sums", [3, 40, 400])
    out = tmp_path / "elsewhere" / "specs"
    assert main(["construct", str(tmp_path / "pool"), "--out", str(out), "--jobs", "1"]) == 0
    assert (out / "study.toml").read_text().endswith('\nsources = ["../../pool"]\n')
    assert sorted(p.name for p in (out / "sums").iterdir()) == ["case.toml", "construct.json"]
    case = (out / "sums" / "case.toml").read_text()
    assert 'program = "../../../pool/sums/main.py"' in case and 'long_input = "../../../pool/sums/tests/3.in"' in case
    assert main(["build", str(out), "--out", str(tmp_path / "built")]) == 0
    assert len((tmp_path / "built" / "tasks.jsonl").read_text().splitlines()) == 4


def test_vendor_copies_the_files_and_builds_the_same_tasks(tmp_path):
    _problem(tmp_path / "pool", "sums", [3, 40, 400])
    problems = read_pool(tmp_path / "pool")
    construct(problems, tmp_path / "named", jobs=1)
    construct(problems, tmp_path / "vendored", ConstructOptions(vendor=True), jobs=1)
    assert not (tmp_path / "vendored" / "study.toml").exists()
    folder = tmp_path / "vendored" / "sums"
    assert sorted(p.name for p in folder.iterdir()) == [
        "case.toml",
        "construct.json",
        "long.txt",
        "main.py",
        "short.txt",
    ]
    assert (folder / "main.py").read_bytes() == (tmp_path / "pool" / "sums" / "main.py").read_bytes()
    shutil.move(folder, tmp_path / "moved")  # self-contained: it builds wherever it goes
    named, vendored = build([tmp_path / "named"]), build([tmp_path / "moved"])
    assert len(named.tasks) == 4 and [t.model_dump() for t in named.tasks] == [t.model_dump() for t in vendored.tasks]


def test_a_study_toml_of_the_users_that_does_not_reach_the_pool_is_a_clear_error(tmp_path):
    from execstate.errors import SpecError

    _problem(tmp_path / "pool", "sums", [3, 40, 400])
    (tmp_path / "specs").mkdir()
    (tmp_path / "specs" / "study.toml").write_text('study = "mine"\n')
    with pytest.raises(SpecError, match=r"study\.toml \[sources\]: does not list .*Fix: add \"../pool\" to sources"):
        construct(read_pool(tmp_path / "pool"), tmp_path / "specs", jobs=1)


def test_the_dask_executor_gives_the_same_specs(tmp_path):
    distributed = pytest.importorskip("distributed")
    for name, sizes in (("a", [2, 30, 300]), ("b", [30, 31])):
        _problem(tmp_path / "pool", name, sizes)
    problems = read_pool(tmp_path / "pool")
    opts = ConstructOptions(synthesize=False)
    local = construct(problems, tmp_path / "local", opts, jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        remote = construct(problems, tmp_path / "dask", opts, executor="dask", scheduler=cluster.scheduler_address)
        built_there = build([tmp_path / "dask"], jobs=2, executor="dask", scheduler=cluster.scheduler_address)
    assert [o.check for o in remote.outcomes] == [o.check for o in local.outcomes] == [None, "inputs"]
    assert tree_bytes(tmp_path / "local") == tree_bytes(tmp_path / "dask")
    built_here = build([tmp_path / "dask"], jobs=2)  # `execstate build` takes the same executor option
    assert len(built_there.tasks) == 4 and built_there.exclusions == []
    assert [t.oracle for t in built_there.tasks] == [t.oracle for t in built_here.tasks]


def test_an_unreachable_scheduler_is_a_clear_error(tmp_path):
    pytest.importorskip("distributed")
    from execstate.errors import UsageError

    _problem(tmp_path / "pool", "a", [2, 30, 300])
    with pytest.raises(UsageError, match="needs a scheduler"):
        construct(read_pool(tmp_path / "pool"), tmp_path / "out", executor="dask")


def test_a_cpp_problem_is_constructed_with_the_cpp_builder(tmp_path):
    if shutil.which("g++") is None:
        pytest.skip("needs g++ (Debian package g++)")
    program = (
        "#include <iostream>\n#include <vector>\nint main() {\n    int n;\n    std::cin >> n;\n"
        "    std::vector<long long> seen;\n    long long total = 0;\n    for (int i = 0; i < n; i++) {\n"
        "        total += i % 7;\n        seen.push_back(total % 3);\n    }\n"
        "    std::cout << total << ' ' << seen.size() << std::endl;\n}\n"
    )
    d = tmp_path / "pool" / "cpp"
    (d / "tests").mkdir(parents=True)
    (d / "main.cpp").write_text(program)
    for i, n in enumerate([3, 40, 400], 1):
        (d / "tests" / f"{i}.in").write_text(f"{n}\n")
        (d / "tests" / f"{i}.out").write_text(f"{sum(j % 7 for j in range(n))} {n}\n")
    (problem,) = read_pool(tmp_path / "pool")
    outcome = construct_problem(problem, tmp_path / "specs", ConstructOptions(study="mine"))
    assert outcome.check is None, outcome.reason
    spec = load_spec(tmp_path / "specs" / "cpp" / "case.toml")
    # i: the for-init counter (scalar, read and written, first assigned in the header); total;
    # seen: over 200 characters
    assert spec.language == "cpp" and spec.checkpoint.variables == ("i", "total")
    record = json.loads((tmp_path / "specs" / "cpp" / "construct.json").read_text())
    (seen,) = [c for c in record["loops"][0]["candidates"] if c["name"] == "seen"]
    assert "over 200" in seen["rejected"]


def test_branch_preserving_pairs_are_recorded_and_preferred_when_asked(tmp_path):
    program = (
        "import sys\nnums = [int(x) for x in sys.stdin.read().split()]\ntotal = 0\nfor x in nums:\n"
        "    if x < 0:\n        total -= x\n    else:\n        total += x\nprint(total)\n"
    )
    d = tmp_path / "pool" / "abs"
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(program)
    inputs = {"1": [1, 2], "2": list(range(1, 200)), "3": [(-1) ** j * j for j in range(300)]}
    for name, nums in inputs.items():
        (d / "tests" / f"{name}.in").write_text(" ".join(map(str, nums)) + "\n")
        (d / "tests" / f"{name}.out").write_text(f"{sum(abs(n) for n in nums)}\n")
    (problem,) = read_pool(tmp_path / "pool")
    plain = construct_problem(problem, tmp_path / "plain", ConstructOptions())
    preferred = construct_problem(problem, tmp_path / "preferred", ConstructOptions(prefer_branch_preserving=True))
    assert plain.check is None and preferred.check is None
    a, b = (load_spec(tmp_path / out / "abs" / "case.toml").provenance for out in ("plain", "preferred"))
    assert a["long_input"] == "tests/3.in" and a["branch_preserving"] is False  # the negatives take `total -= x`
    assert b["long_input"] == "tests/2.in" and b["branch_preserving"] is True


def test_a_long_input_whose_predicted_state_cost_is_over_the_budget_is_passed_over_unwalked(tmp_path):
    """The sampled walk's estimate decides, not a full measurement: tests/3.in (400 numbers, a state walk of
    about a million slots) is over a state budget of 100,000, so the next largest input is the long one."""
    _problem(tmp_path / "pool", "sums", [3, 40, 400, 2, 4000])
    (problem,) = read_pool(tmp_path / "pool")
    opts = ConstructOptions(study="mine", max_trace=50_000, build=BuildOptions(state_budget=100_000))
    outcome = construct_problem(problem, tmp_path / "specs", opts)
    assert outcome.check is None, outcome.reason
    record = json.loads((tmp_path / "specs" / "sums" / "construct.json").read_text())
    by_input = {row["input"]: row for row in record["inputs"]}
    over = by_input["tests/3.in"]
    # the sampled walk stopped at 1/127 of the budget: the estimate is over it, whatever the rest would add
    assert over["lost"] == "predicted over the state budget of 100000 (a walk of every 127th observation, times 127)"
    assert "repeated" not in over  # never measured three times, never walked in full
    assert record["long"] == "tests/2.in"
    assert by_input["tests/2.in"]["predicted_state_load"] <= 100_000
    # the build then walks the chosen input in full, within the budget (a run this short is sampled only
    # once or twice: the estimate's accuracy on long runs is tests/metrics/test_budget.py's)
    result = build([tmp_path / "specs"], options=BuildOptions(state_budget=100_000))
    assert result.exclusions == [] and len(result.tasks) == 4
    # with the budget off, nothing is predicted and the largest input under the cap is long again
    off = ConstructOptions(study="mine", max_trace=50_000, build=BuildOptions(state_budget=None, object_budget=None))
    construct_problem(problem, tmp_path / "off", off)
    assert json.loads((tmp_path / "off" / "sums" / "construct.json").read_text())["long"] == "tests/3.in"
