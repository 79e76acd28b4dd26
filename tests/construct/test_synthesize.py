"""Long inputs synthesized from samples: construct writes gen.py, the builder admits and rebuilds it byte for byte."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from execstate.builder import build, load_spec
from execstate.cli import main as cli_main
from execstate.construct import ConstructOptions, construct_problem, read_pool, read_problem
from execstate.studies import STUDIES
from execstate.testing import samples_only_pool, tree_bytes

# Sums n numbers: its loop runs n times. The samples below are far too alike for a 4x pair.
PROGRAM = """n = int(input())
nums = [int(x) for x in input().split()]
total, best = 0, 0
for x in nums:
    total += x
    best = max(best, x)
print(total, best)
"""
OPTS = ConstructOptions(study="mine", max_trace=20_000)


def _problem(root: Path, samples: dict[str, list[int]], program: str = PROGRAM, name: str = "sums") -> Path:
    d = root / name
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(program)
    for test, nums in samples.items():
        (d / "tests" / f"{test}.in").write_text(f"{len(nums)}\n{' '.join(map(str, nums))}\n")
        (d / "tests" / f"{test}.out").write_text(f"{sum(nums)} {max(nums)}\n")
    return d


def test_a_problem_with_samples_only_gets_a_synthesized_long_input_that_rebuilds_byte_for_byte(tmp_path):
    _problem(tmp_path / "pool", {"1": [3, 1, 4], "2": [1, 5, 9, 2]})
    (problem,) = read_pool(tmp_path / "pool")
    outcome = construct_problem(problem, tmp_path / "specs", OPTS)
    assert outcome.check is None, outcome.reason
    spec_dir = tmp_path / "specs" / "sums"
    assert (spec_dir / "gen.py").is_file() and not (spec_dir / "long.txt").exists()
    assert 'long_input = { generator = "gen.py", args = ["1", "' in (spec_dir / "case.toml").read_text()
    spec = load_spec(spec_dir / "case.toml")
    prov = spec.provenance
    assert (prov["short_origin"], prov["long_origin"]) == ("test", "synthesized")
    assert prov["long_shape"] == "n:int[3..size] / int[1..9]*n{distinct}"  # distinct in every sample
    record = json.loads((spec_dir / "construct.json").read_text())
    assert {r["origin"] for r in record["inputs"]} == {"test", "synthesized"}
    assert record["synthesis"]["shapes"][0]["outcome"].startswith("chosen: synthesized #1 seed=1 size=")
    assert record["long"] == prov["long_input"] and record["short"] == "tests/1.in"

    first, second = build([spec_dir]), build([spec_dir])
    assert first.exclusions == [] and len(first.tasks) == 4
    assert [t.model_dump_json() for t in first.tasks] == [t.model_dump_json() for t in second.tasks]
    long = next(t for t in first.tasks if t.arm == "long-trace-final")
    assert long.meta["provenance"]["long_origin"] == "synthesized"
    assert long.metrics.trace_length == prov["long_trace"] >= 4 * prov["short_trace"]

    again = construct_problem(problem, tmp_path / "again", OPTS)
    assert again.check is None and tree_bytes(tmp_path / "again") == tree_bytes(tmp_path / "specs")


def test_without_synthesis_the_same_problem_has_no_pair(tmp_path):
    _problem(tmp_path / "pool", {"1": [3, 1, 4], "2": [1, 5, 9, 2]})
    code = cli_main(["construct", str(tmp_path / "pool"), "--out", str(tmp_path / "specs"), "--no-synthesize"])
    assert code == 1  # nothing was admitted
    record = json.loads((tmp_path / "specs" / "sums" / "construct.json").read_text())
    assert record["check"] == "inputs" and "synthesis" not in record
    assert all(r["origin"] == "test" for r in record["inputs"])


def test_a_validator_decides_which_synthesized_inputs_count(tmp_path):
    d = _problem(tmp_path / "pool", {"1": [3, 1, 4], "2": [1, 5, 9, 2]})
    validator = (
        "import sys\ndata = sys.stdin.read()\nsys.exit(0 if data in {SAMPLES!r} else 'not one of the samples')\n"
    )
    samples = sorted((d / "tests" / name).read_text() for name in ("1.in", "2.in"))
    (d / "validator.py").write_text(validator.replace("{SAMPLES!r}", repr(samples)))
    (problem,) = read_pool(tmp_path / "pool")
    assert problem.validator == d / "validator.py"
    outcome = construct_problem(problem, tmp_path / "specs", OPTS)
    assert outcome.check == "inputs"
    record = json.loads((tmp_path / "specs" / "sums" / "construct.json").read_text())
    synthesized = [r for r in record["inputs"] if r["origin"] == "synthesized"]
    assert synthesized and all("rejected" in r for r in synthesized)
    assert synthesized[0]["rejected"] == "validator.py rejects it: crash; exit code 1; stderr: not one of the samples"


def test_a_program_that_fails_on_a_shape_makes_construct_try_the_next(tmp_path):
    # The samples hold one number each, so they cannot tell n lines of one number (tried first) from n numbers
    # on one line, which is what the program reads: it fails the first shape's inputs.
    program = (
        "n = int(input())\nnums = [int(x) for x in input().split()]\nassert len(nums) == n\ntotal = 0\n"
        "for x in nums:\n    total += x\nprint(total)\n"
    )
    d = tmp_path / "pool" / "line"
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(program)
    (d / "tests" / "1.in").write_text("1\n7\n")
    (d / "tests" / "2.in").write_text("1\n3\n")
    outcome = construct_problem(read_problem(d), tmp_path / "specs", OPTS)
    assert outcome.check is None, outcome.reason
    shapes = json.loads((tmp_path / "specs" / "line" / "construct.json").read_text())["synthesis"]["shapes"]
    assert shapes[0]["shape"] == "n:int[1..size] / n*(m:int[3..7])" and "AssertionError" in shapes[0]["outcome"]
    assert shapes[1]["shape"] == "n:int[1..size] / int[3..7]*n" and shapes[1]["outcome"].startswith("chosen")


def test_a_long_input_whose_loops_fail_the_projection_is_replaced_by_a_synthesized_one(tmp_path):
    # On the long test (150 sevens) `x` is the same at both checkpoints and `seen` is too long to show.
    program = "input()\nseen = []\nfor x in input().split():\n    seen.append(x)\nprint(len(seen))\n"
    d = tmp_path / "pool" / "same"
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(program)
    (d / "tests" / "1.in").write_text("3\n1 2 3\n")
    (d / "tests" / "2.in").write_text("150\n" + " ".join(["7"] * 150) + "\n")
    outcome = construct_problem(read_problem(d), tmp_path / "specs", OPTS)
    assert outcome.check is None, outcome.reason
    record = json.loads((tmp_path / "specs" / "same" / "construct.json").read_text())
    assert record["first_pair"]["long"] == "tests/2.in" and record["first_pair"]["check"] == "projection"
    assert record["long"].startswith("synthesized #1") and record["loops"][0]["variables"] == ["x"]


def test_a_cpp_program_gets_a_synthesized_long_input(tmp_path):
    if shutil.which("g++") is None:
        pytest.skip("needs g++ (Debian package g++)")
    program = (
        "#include <iostream>\nint main() {\n    int n;\n    std::cin >> n;\n    long long total = 0;\n"
        "    for (int i = 0; i < n; i++) {\n        long long x;\n        std::cin >> x;\n        total += x;\n"
        "    }\n    std::cout << total << std::endl;\n}\n"
    )
    d = tmp_path / "pool" / "cpp"
    (d / "tests").mkdir(parents=True)
    (d / "main.cpp").write_text(program)
    (d / "tests" / "1.in").write_text("2\n5 6\n")
    (d / "tests" / "2.in").write_text("3\n1 2 3\n")
    outcome = construct_problem(read_problem(d), tmp_path / "specs", ConstructOptions(study="mine", max_trace=2_000))
    assert outcome.check is None, outcome.reason
    spec = load_spec(tmp_path / "specs" / "cpp" / "case.toml")
    assert spec.language == "cpp" and spec.long_input.generator is not None
    built = build([tmp_path / "specs"])
    assert built.exclusions == [] and len(built.tasks) == 4


@pytest.mark.parametrize("problem", ["538_e_demiurges_play_again_12023", "1416_c_xor_inverse_4402"])
def test_codecontests_problems_cut_to_two_samples_get_synthesized_specs(problem, tmp_path):
    pool = STUDIES["codecontests_py"].pool
    assert pool is not None
    samples_only_pool(pool, tmp_path / "pool", keep=2, only=[problem])
    (found,) = read_pool(tmp_path / "pool")
    assert len(found.tests) == 2
    outcome = construct_problem(found, tmp_path / "specs", ConstructOptions(study="codecontests_py", max_trace=30_000))
    assert outcome.check is None, outcome.reason
    built = build([tmp_path / "specs"])
    assert built.exclusions == [] and built.tasks[1].meta["provenance"]["long_origin"] == "synthesized"
