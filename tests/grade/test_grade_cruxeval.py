"""CRUXEval as a study: bundled data, importer, and exact reproduction of released pass@k scores.

``cruxeval/`` holds verbatim copies (MIT, see its LICENSE) of facebookresearch/cruxeval's
released Code Llama 7B (temperature 0.2) generations and its scored file.
"""

from __future__ import annotations

import json
import subprocess
import sys
from math import comb
from pathlib import Path

import pytest

from execstate.cli import main
from execstate.grade import grade_all, pass_at_k, score_file, score_generations
from execstate.grade._cruxeval_upstream import run_checks
from execstate.records import Response
from execstate.studies.cruxeval import DATA_PATH, cruxeval_tasks, load_items

HERE = Path(__file__).parent / "cruxeval"
GENERATIONS = HERE / "codellama-7b_temp0.2_output.generations.json"
SCORED = HERE / "codellama-7b_temp0.2_output.scored.json"


def test_bundled_data_and_licence_ship_with_the_package() -> None:
    assert len(load_items()) == 800
    licence = DATA_PATH.with_name("LICENSE").read_text()
    assert "MIT License" in licence and "Meta" in licence


def test_released_scores_and_every_boolean_are_reproduced() -> None:
    released = json.loads(SCORED.read_text())
    score, provenance = score_file(GENERATIONS)
    assert score.pass_at[1] == pytest.approx(34.2125, abs=1e-9)
    assert score.pass_at[5] == pytest.approx(40.2867, abs=5e-5)
    assert score.pass_at[1] == pytest.approx(released["pass_at_1"], abs=1e-9)
    assert score.pass_at[5] == pytest.approx(released["pass_at_5"], abs=1e-9)
    assert score.scored == released["raw_scored_generations"]  # all 800 items x 10 generations
    assert score.non_literal_generations == 177
    assert len(provenance["data_sha256"]) == 64


def test_cli_prints_json_and_writes_scored_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["cruxeval-score", str(GENERATIONS), "--data", str(DATA_PATH), "--out", str(tmp_path / "scored.json")])
        == 0
    )
    report = json.loads(capsys.readouterr().out)
    assert round(report["pass_at_1"], 4) == 34.2125 and round(report["pass_at_5"], 4) == 40.2867
    scored = json.loads((tmp_path / "scored.json").read_text())
    assert scored["raw_scored_generations"] == json.loads(SCORED.read_text())["raw_scored_generations"]


def test_missing_items_are_an_error_not_a_smaller_denominator(tmp_path: Path) -> None:
    generations = json.loads(GENERATIONS.read_text())
    del generations["sample_7"]
    path = tmp_path / "gen.json"
    path.write_text(json.dumps(generations))
    with pytest.raises(ValueError, match="sample_7"):
        score_file(path)


@pytest.mark.parametrize("n,c,k", [(10, 0, 1), (10, 3, 1), (10, 3, 5), (10, 6, 5), (10, 10, 5), (5, 1, 5)])
def test_pass_at_k_matches_the_combinatorial_formula(n: int, c: int, k: int) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(1 - comb(n - c, k) / comb(n, k))


def test_tasks_grade_their_own_oracle_correct() -> None:
    every = cruxeval_tasks()
    tasks = [t for t in every if t.arm == "function-output"]
    assert len(tasks) == 800 and len({t.task_id for t in every}) == len(every) == 800 + 800
    t0 = tasks[0]
    assert (t0.task_id, t0.arm, t0.grading_rule, t0.study) == (
        "cruxeval/sample_0/function-output",
        "function-output",
        "python-literal",
        "cruxeval",
    )
    assert t0.input == "" and t0.meta["call"] == "f([1, 1, 3, 1, 3, 1])"
    assert t0.source.startswith("def f(nums):") and t0.source.endswith("\nprint(repr(f([1, 1, 3, 1, 3, 1])))\n")
    responses = [
        Response(
            task_id=t.task_id,
            setting="oracle",
            status="completed",
            text=json.dumps({"output": t.oracle}),
            pipeline_check=True,
        )
        for t in tasks
    ]
    assert {g.status for g in grade_all(tasks, responses)} == {"correct-valid"}


_CHECK = """
import ast, contextlib, io, json, sys
bad = []
for t in json.load(sys.stdin):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(t["source"], {"__name__": "__main__"})
    if ast.literal_eval(out.getvalue()) != ast.literal_eval(t["oracle"]):
        bad.append(t["task_id"])
print(json.dumps(bad))
"""


def test_source_and_input_reproduce_the_oracle_when_executed() -> None:
    """The importer's mapping is exact: each task's program prints the oracle's value (trusted data, in a subprocess)."""
    tasks = [
        t.model_dump(include={"task_id", "source", "input", "oracle"})
        for t in cruxeval_tasks()
        if t.arm == "function-output"
    ]
    proc = subprocess.run(
        [sys.executable, "-I", "-c", _CHECK],
        input=json.dumps(tasks),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(proc.stdout) == []


# --- --mode upstream: CRUXEval's own check, executed in the sandbox -----------------------------------------

_ITEM = {"code": "def f(x):\n    return x * 2", "input": "12", "output": "24"}


@pytest.mark.parametrize(
    "generation,literal,upstream",
    [
        ("24", True, True),
        ("25", False, False),
        ("10 + 10 + 4", False, True),  # an expression counts upstream
        ("24, 'the answer'", False, True),  # a trailing ", 'message'" is the assert's message
        ("24, 99", False, True),  # a bare tuple compares its first element only
        ("(24, 99)", False, False),  # a parenthesised tuple is a tuple
        ("f(12)", False, False),  # contains the call f(<input>): wrong without running
        ("f(6 + 6)", False, True),  # another call text is executed
        ("print('x') or 24", False, True),  # output is swallowed, not an error
        ("exit()", False, False),  # disabled as upstream disables it
    ],
)
def test_upstream_quirks_each_with_its_own_generation(generation: str, literal: bool, upstream: bool) -> None:
    items = {"sample_0": _ITEM}
    generations = {"sample_0": [generation]}
    assert score_generations(generations, items, ks=(1,)).scored["sample_0"] == [literal]
    up = score_generations(generations, items, ks=(1,), mode="upstream")
    assert up.scored["sample_0"] == [upstream]
    assert up.outcomes is not None and sum(up.outcomes.values()) == 1
    if generation == "f(12)":
        assert up.outcomes["calls f(<input>)"] == 1


def test_literal_mode_never_executes_model_text(monkeypatch: pytest.MonkeyPatch) -> None:
    import execstate.grade._cruxeval as module

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("literal mode executed a generation")

    monkeypatch.setattr(module, "run_seeded_checks", refuse)
    score = score_generations({"sample_0": ["10 + 10 + 4", "24"]}, {"sample_0": _ITEM}, ks=(1,))
    assert score.scored == {"sample_0": [False, True]} and score.outcomes is None


def test_a_crash_or_hang_fails_only_its_own_check() -> None:
    """A segfault and a hang in C code (which the timer cannot interrupt) each end their process; the checks
    after them in the same batch still get their own verdicts."""
    programs = [
        "assert 1 == 1",
        "import ctypes\nctypes.string_at(0)",
        "assert 2 == 2",
        "sum(range(10**12))",
        "assert 3 == 3",
        "while True: pass",
        "assert 4 == 5",
    ]
    verdicts = run_checks(programs, timeout_s=0.5, batch_size=len(programs))
    assert [v.passed for v in verdicts] == [True, False, True, False, True, False, False]
    assert verdicts[1].outcome.startswith("crashed:") and "SIGSEGV" in verdicts[1].outcome
    assert verdicts[3].outcome.startswith("crashed:")
    assert verdicts[5].outcome == "timed out"
    assert verdicts[6].outcome.startswith("failed: AssertionError")


def test_checks_run_in_the_sandbox_not_in_this_process(tmp_path: Path) -> None:
    marker = tmp_path / "written"
    [verdict] = run_checks([f"open({str(marker)!r}, 'w').write('x')"])
    assert not verdict.passed and not marker.exists()


def test_upstream_mode_reproduces_the_published_scores_from_a_wrapped_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The scored file is in the leaderboard site's wrapped form {"raw_generations": {...}, ...}."""
    out = tmp_path / "scored.json"
    assert main(["cruxeval-score", "--mode", "upstream", str(SCORED), "--out", str(out)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["mode"] == "upstream"
    assert round(report["pass_at_1"], 4) == 34.2125 and round(report["pass_at_5"], 4) == 40.2867
    assert report["outcomes"]["crashed"] == 0 and report["outcomes"]["timed out"] == 0
    released = json.loads(SCORED.read_text())
    assert json.loads(out.read_text())["raw_scored_generations"] == released["raw_scored_generations"]


def test_pass_at_5_with_fewer_than_5_samples_is_null() -> None:
    """CRUXEval's estimator returns 1.0 per item when n < k, so it would report pass@5 = 100.0 here."""
    score = score_generations({"sample_0": ["24", "25"]}, {"sample_0": _ITEM})
    assert score.pass_at == {1: 50.0, 5: None}
    assert score.report()["pass_at_5"] is None


def test_an_unwrapped_non_object_is_refused_with_the_fix(tmp_path: Path) -> None:
    path = tmp_path / "gen.json"
    path.write_text(json.dumps([["24"]]))
    with pytest.raises(ValueError, match=r"raw_generations.*Fix"):
        score_file(path)
