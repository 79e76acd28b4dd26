"""Accuracy tables reproduce hand arithmetic on a small crafted grade file.

``tables_tasks.jsonl`` / ``tables_grades.jsonl`` are hand-crafted (9 tasks x 2
settings; the status of every cell is listed below). Every expected number in
this file was computed by hand from this listing:

    task                              m-high           m-off
    1 classic/a short   (cyc 3)       correct-valid    wrong-valid
    2 classic/a long                  correct-invalid  wrong-valid
    3 classic/a inside  (cyc 7)       wrong-valid      no-response
    4 classic/a post    (cyc 7)       no-response      no-response
    5 classic/b short   (cyc 5)       correct-valid    correct-valid
    6 classic/b long                  wrong-invalid    wrong-invalid
    7 classic/c short   (same source as a, cyc 3)
                                      correct-valid    wrong-valid
    8 codecontests/x short (cpp, 10)  correct-valid    correct-invalid
    9 codecontests/x long             no-response      wrong-invalid
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from execstate.grade import accuracy_tables, write_tables
from execstate.records import Grade, Task, read_jsonl

HERE = Path(__file__).parent


@pytest.fixture(scope="module")
def tables():
    tasks = list(read_jsonl(HERE / "tables_tasks.jsonl", Task))
    grades = list(read_jsonl(HERE / "tables_grades.jsonl", Grade))
    return accuracy_tables(tasks, grades)


def _row(rows, **key):
    [row] = [r for r in rows if all(r[k] == v for k, v in key.items())]
    return row


def test_by_setting_counts_and_both_denominators(tables) -> None:
    high = _row(tables.by_setting, setting="m-high")
    assert (high["planned"], high["completed"], high["no_response"], high["correct"]) == (9, 7, 2, 5)
    assert (high["correct_valid"], high["correct_invalid"], high["wrong_valid"], high["wrong_invalid"]) == (4, 1, 1, 1)
    assert high["invalid_envelope"] == 2
    assert high["acc_completed_pct"] == pytest.approx(100 * 5 / 7)
    assert high["acc_planned_pct"] == pytest.approx(100 * 5 / 9)
    off = _row(tables.by_setting, setting="m-off")
    assert (off["planned"], off["completed"], off["correct"], off["invalid_envelope"]) == (9, 7, 2, 3)
    assert off["acc_completed_pct"] == pytest.approx(100 * 2 / 7)
    assert off["acc_planned_pct"] == pytest.approx(100 * 2 / 9)
    assert [r["setting"] for r in tables.by_setting] == ["m-high", "m-off"]


def test_by_arm(tables) -> None:
    expect = {  # (arm, setting): (correct, completed, planned)
        ("short-trace-final", "m-high"): (4, 4, 4),
        ("short-trace-final", "m-off"): (2, 4, 4),
        ("long-trace-final", "m-high"): (1, 2, 3),
        ("long-trace-final", "m-off"): (0, 3, 3),
        ("inside-loop-state", "m-high"): (0, 1, 1),
        ("inside-loop-state", "m-off"): (0, 0, 1),
        ("post-loop-state", "m-high"): (0, 0, 1),
        ("post-loop-state", "m-off"): (0, 0, 1),
    }
    got = {(r["arm"], r["setting"]): (r["correct"], r["completed"], r["planned"]) for r in tables.by_arm}
    assert got == expect
    assert [r["arm"] for r in tables.by_arm][::2] == [
        "short-trace-final",
        "long-trace-final",
        "inside-loop-state",
        "post-loop-state",
    ]
    long_high = _row(tables.by_arm, arm="long-trace-final", setting="m-high")
    assert long_high["acc_completed_pct"] == pytest.approx(50.0)
    assert long_high["acc_planned_pct"] == pytest.approx(100 / 3)
    inside_off = _row(tables.by_arm, arm="inside-loop-state", setting="m-off")
    assert inside_off["acc_completed_pct"] is None and inside_off["acc_planned_pct"] == 0.0


def test_by_study(tables) -> None:
    got = {(r["study"], r["setting"]): (r["correct"], r["completed"], r["planned"]) for r in tables.by_study}
    assert got == {
        ("classic", "m-high"): (4, 6, 7),
        ("classic", "m-off"): (1, 5, 7),
        ("codecontests", "m-high"): (1, 1, 2),
        ("codecontests", "m-off"): (1, 2, 2),
    }
    classic_off = _row(tables.by_study, study="classic", setting="m-off")
    assert classic_off["acc_completed_pct"] == pytest.approx(20.0)
    assert classic_off["acc_planned_pct"] == pytest.approx(100 / 7)


def test_corpus(tables) -> None:
    classic = _row(tables.corpus, study="classic")
    assert classic == {
        "study": "classic",
        "language": "python",
        "cases": 3,
        "sources": 2,
        "tasks": 7,
        "planned": 14,
        "graded": 11,
        "cyclomatic_median": 3,
        "cyclomatic_min": 3,
        "cyclomatic_max": 5,
    }
    cc = _row(tables.corpus, study="codecontests")
    assert (cc["language"], cc["cases"], cc["sources"], cc["planned"], cc["graded"]) == ("cpp", 1, 1, 4, 3)
    assert (cc["cyclomatic_median"], cc["cyclomatic_min"], cc["cyclomatic_max"]) == (10, 10, 10)


def test_written_files_match_the_tables(tables, tmp_path: Path) -> None:
    written = write_tables(tables, tmp_path / "out")
    assert {p.name for p in written} >= {
        "by_arm.csv",
        "by_arm.json",
        "by_setting.csv",
        "corpus.json",
        "by_study.csv",
        "tables.json",
        "tables.md",
    }
    with open(tmp_path / "out" / "by_setting.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert rows[0]["setting"] == "m-high" and rows[0]["correct"] == "5" and rows[0]["completed"] == "7"
    assert float(rows[0]["acc_planned_pct"]) == pytest.approx(100 * 5 / 9)
    with open(tmp_path / "out" / "by_arm.csv", encoding="utf-8") as fh:
        inside_off = [r for r in csv.DictReader(fh) if r["arm"] == "inside-loop-state" and r["setting"] == "m-off"]
    assert inside_off[0]["acc_completed_pct"] == ""  # undefined, not 0
    assert json.loads((tmp_path / "out" / "tables.json").read_text())["by_study"] == tables.by_study
    markdown = (tmp_path / "out" / "tables.md").read_text()
    assert "| m-high | 5 | 7 | 9 | 71.4 | 55.6 |" in markdown


def test_grades_of_unknown_tasks_or_repeated_cells_are_errors() -> None:
    tasks = list(read_jsonl(HERE / "tables_tasks.jsonl", Task))
    grades = list(read_jsonl(HERE / "tables_grades.jsonl", Grade))
    with pytest.raises(ValueError, match="classic/a/short-trace-final"):
        accuracy_tables(tasks[1:], grades)
    with pytest.raises(ValueError, match="graded more than once"):
        accuracy_tables(tasks, grades + grades[:1])
