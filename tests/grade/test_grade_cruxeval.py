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
from execstate.grade import grade_all, pass_at_k, score_file
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
    tasks = cruxeval_tasks()
    assert len(tasks) == 800 and len({t.task_id for t in tasks}) == 800
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
    tasks = [t.model_dump(include={"task_id", "source", "input", "oracle"}) for t in cruxeval_tasks()]
    proc = subprocess.run(
        [sys.executable, "-I", "-c", _CHECK],
        input=json.dumps(tasks),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert json.loads(proc.stdout) == []
