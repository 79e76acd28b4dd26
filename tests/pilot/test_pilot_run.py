"""``execstate pilot`` on the built-in set with the offline provider: Table 9, the movement and token tables,
a report section, and a resumed run that sends nothing twice."""

from __future__ import annotations

import contextlib
import io
import json
import tomllib
from pathlib import Path

import pytest

from execstate.builder import load_spec
from execstate.cli import main
from execstate.pilot import run_pilot
from execstate.records import Response, read_jsonl
from execstate.studies import study_dir

ROOT = Path(__file__).resolve().parents[2]
PILOT = study_dir("pilot")


@pytest.fixture(scope="module")
def pilot_out(tmp_path_factory):
    """``execstate pilot --samples 3`` on the built-in set, offline: its output directory and what it printed."""
    out = tmp_path_factory.mktemp("pilot") / "pilot"
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        assert main(["pilot", "--samples", "3", "--out", str(out)]) == 0
    return out, printed.getvalue()


def test_the_builtin_pilot_offline_writes_table9_and_resumes(pilot_out):
    out, printed = pilot_out
    assert "PIPELINE CHECK" in printed and "Table 9" in printed
    table9 = json.loads((out / "tables" / "pilot_table9.json").read_text())
    assert [(r["contract"]) for r in table9] == ["output-only", "rationale-then-output"]
    cells = [r[c] for r in table9 for c in ("baseline", "guided")]
    assert len(cells) == 4 and all(c.endswith(" / 36") for c in cells)
    for r in table9:  # the difference is the guided count minus the baseline count
        assert int(r["guided_difference"]) == int(r["guided"].split(" / ")[0]) - int(r["baseline"].split(" / ")[0])
    tokens = json.loads((out / "tables" / "pilot_tokens.json").read_text())
    assert [(r["baseline_reported"], r["guided_reported"]) for r in tokens] == [("36/36", "36/36")] * 2
    assert all(r["guided_reasoning_median"] > 0 and r["guided_sum_change_pct"] is not None for r in tokens)
    movement = json.loads((out / "tables" / "pilot_movement.json").read_text())
    assert len(movement) == 24 and all(r["guided_movement"].count("/3") == 2 for r in movement)
    predictions = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert len(predictions) == 144 and len({p["case_id"] for p in predictions}) == 12
    assert all(p["rationale"] for p in predictions if p["contract"] == "rationale-then-output")
    assert "Invariant pilot" in (out / "report.html").read_text()

    again = run_pilot(out, samples=3, log=lambda *_: None, progress=False)
    assert again.summary is not None and again.summary.already_recorded == 144 and again.summary.new_records == 0
    assert len(list(read_jsonl(out / "run" / "responses.jsonl", Response))) == 144
    assert json.loads((out / "tables" / "pilot_table9.json").read_text()) == table9


def test_the_builtin_set_has_six_python_and_six_cpp_cases_each_with_an_invariant_and_its_audit():
    specs = sorted(PILOT.rglob("case.toml"))
    raw = [tomllib.loads(p.read_text()) for p in specs]
    assert sorted(r["language"] for r in raw) == ["cpp"] * 6 + ["python"] * 6
    for spec, r in zip(specs, raw):
        assert (
            (spec.parent / r["invariant"]["check"]).is_file() and r["invariant"]["text"] and r["invariant"]["placebo"]
        )
    readme = (PILOT / "README.md").read_text()
    assert all(r["id"] in readme for r in raw)


def test_the_builtin_programs_are_byte_identical_to_their_origins():
    """The Python programs are the classic study's own files (named, not copied); the C++ ones copy
    examples/ (outside the package): no silent drift."""
    origins = {
        "abc310_e": ROOT / "examples" / "abc310_e_cpp",
        "insertion_shifts": ROOT / "examples" / "cpp_nested_inner",
        "increasing_runs": ROOT / "examples" / "cpp_range_for",
        "subtractive_gcd": ROOT / "examples" / "cpp_while_break",
        "most_divisors": ROOT / "examples" / "cpp_function_loop",
        "word_lengths": ROOT / "examples" / "cpp_string_vector",
    }
    for case in sorted(p.parent for p in PILOT.rglob("case.toml")):
        spec = load_spec(case / "case.toml")
        if case.name in origins:
            assert spec.program == case / "main.cpp", case.name
            assert spec.program.read_bytes() == (origins[case.name] / "main.cpp").read_bytes(), case.name
        else:
            classic = study_dir("classic").resolve() / case.name
            assert spec.program == classic / "main.py", case.name
            assert spec.short_input.generator == spec.long_input.generator == classic / "gen.py", case.name


def test_every_builtin_audit_rejects_a_wrong_long_output(tmp_path, pilot_out):
    """The audits can fail: with the first number of the long output moved by one, each exits non-zero (run in the sandbox).

    The tasks are the pilot's own build of the set (``build/`` of the run above)."""
    from execstate.languages.python import PythonLanguage
    from execstate.records import Task
    from execstate.run.providers.synthetic import wrong_answer

    build_dir = pilot_out[0] / "build"
    checker = PythonLanguage(filename="check.py")
    by_case = {}
    for t in read_jsonl(build_dir / "tasks.jsonl", Task):
        by_case.setdefault(t.case_id, {})[t.arm] = t
    assert len(by_case) == 12 and (build_dir / "excluded.jsonl").read_text() == ""
    for case_id, arms in sorted(by_case.items()):
        short, long = arms["short-trace-final"], arms["long-trace-final"]
        inv = long.meta["invariant"]
        runs = [
            {"name": "short", "input": short.input, "output": short.oracle},
            {"name": "long", "input": long.input, "output": wrong_answer(long.oracle, 0.0)},
        ]
        data = {
            "case_id": case_id,
            "language": long.language,
            "source": long.source,
            "text": inv["text"],
            "placebo": inv["placebo"],
            "runs": runs,
        }
        audit = (PILOT / case_id.split("/")[1] / inv["check"]).read_text()
        result = checker.run(audit, json.dumps(data).encode(), tmp_path)
        assert not result.ok and b"audit failed" in result.stderr, case_id
