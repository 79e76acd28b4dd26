"""The leaderboard of separately made runs: the numbers of one analyze, real gaps told from noise, refusals."""

from __future__ import annotations

import json

import pytest
from _leaderboard_runs import CONFIG, Runs, make_run

from execstate.analyze import accuracy_intervals, analyze, load_cells
from execstate.cli import main
from execstate.errors import UsageError
from execstate.grade import GRADES_NAME
from execstate.leaderboard import write_leaderboard
from execstate.records import Grade, read_jsonl, write_jsonl
from execstate.run import Setting

DECREMENT = ("pairs", "decrement_pp", "ci_low", "ci_high")
INTERVALS = ("cr_low_pct", "cr_high_pct", "cn_low_pct", "cn_high_pct")


def _pick(row: dict, keys: tuple[str, ...]) -> tuple:
    return tuple(row[k] for k in keys)


def _all_grades(runs: Runs) -> list[Grade]:
    return [g for d in runs.dirs.values() for g in read_jsonl(d / GRADES_NAME, Grade)]


@pytest.fixture(scope="module")
def board(runs, tmp_path_factory):
    return write_leaderboard(list(runs.dirs.values()), tmp_path_factory.mktemp("board"), CONFIG)


def test_numbers_equal_one_analyze_over_the_same_grades(runs, board):
    grades = _all_grades(runs)
    a = analyze(runs.tasks, grades, CONFIG)
    lb = board.board
    by_setting = {r["setting"]: r for r in a.accuracy["accuracy_by_setting"]}
    assert {r["setting"] for r in lb.overall} == set(by_setting) == {"strong", "strong-twin", "weak"}
    for row in lb.overall:
        ref = by_setting[row["setting"]]
        for key in ("correct", "completed", "planned", "acc_completed_pct", "acc_planned_pct"):
            assert row[key] == ref[key], (row["setting"], key)
    arm = {(r["setting"], r["arm"]): r["acc_planned_pct"] for r in a.accuracy["accuracy_by_arm"]}
    assert {(r["setting"], r["arm"]): r["acc_planned_pct"] for r in lb.by_arm} == arm
    study = {(r["setting"], r["study"]): r["acc_completed_pct"] for r in a.accuracy["accuracy_by_study"]}
    assert {(r["setting"], r["study"]): r["acc_completed_pct"] for r in lb.by_study} == study
    paired = {r["setting"]: r for r in a.paired if r["cohort"] == "all-python" and r["setting"] != "pooled"}
    assert len(lb.decrement) == 3
    for row in lb.decrement:
        assert _pick(row, DECREMENT) == _pick(paired[row["setting"]], DECREMENT)
    intervals = {r["setting"]: r for r in accuracy_intervals(load_cells(runs.tasks, grades).frame, CONFIG)}
    for row in lb.overall:
        assert _pick(row, INTERVALS) == _pick(intervals[row["setting"]], INTERVALS)
        assert row["cn_low_pct"] <= row["acc_planned_pct"] <= row["cn_high_pct"]


def test_a_setting_has_the_same_numbers_alone_and_beside_others(runs, board, tmp_path):
    alone = write_leaderboard([runs.dirs["weak"]], tmp_path, CONFIG).board
    beside = next(r for r in board.board.overall if r["setting"] == "weak")
    assert {k: v for k, v in alone.overall[0].items() if k != "rank"} == {
        k: v for k, v in beside.items() if k != "rank"
    }


def test_the_pairwise_matrix_marks_the_real_gap_and_not_the_twins(board):
    pairs = {frozenset((r["setting_a"], r["setting_b"])): r for r in board.board.pairwise}
    assert len(pairs) == 3
    twins = pairs[frozenset(("strong", "strong-twin"))]
    assert not twins["distinct"] and twins["p_holm"] > 0.05 and abs(twins["difference_pp"]) < 5
    assert twins["ci_low_pp"] <= 0 <= twins["ci_high_pp"]
    for strong in ("strong", "strong-twin"):
        gap = pairs[frozenset((strong, "weak"))]
        assert gap["distinct"] and gap["p_holm"] < 0.01 and gap["ci_low_pp"] > 50
        sign = 1 if gap["setting_a"] == strong else -1
        assert sign * gap["difference_pp"] > 50
    # Holm: the adjusted p-values are never below the raw ones, and the largest gap gets m * p.
    assert all(r["p_holm"] >= r["p"] for r in pairs.values())
    html = board.html.read_text(encoding="utf-8")
    assert html.count(" *</td>") == 4  # strong/weak and twin/weak, each in both triangles of the matrix
    if twins["difference_pp"] == 0:  # the mirror of a zero gap reads +0.0, not -0.0
        assert html.count("<td>+0.0 [") == 2 and "<td>-0.0 [" not in html


def test_files_are_written_and_reproducible(runs, board, tmp_path):
    data = json.loads(board.json.read_text(encoding="utf-8"))
    assert set(data) >= {"inputs", "config", "overall", "by_arm", "by_study", "decrement", "pairwise", "cost", "budget"}
    assert data["inputs"]["intersect"] is False and data["inputs"]["tasks"] == len(runs.tasks)
    assert data["config"]["replicates"] == CONFIG.replicates
    names = {p.name for p in board.tables}
    assert {"leaderboard.csv", "leaderboard.md", "pairwise.csv", "cost.md", "budget.csv", "tables.md"} <= names
    md = (board.json.parent / "tables" / "leaderboard.md").read_text(encoding="utf-8")
    assert "| rank | setting |" in md and "strong-twin" in md
    again = write_leaderboard(list(runs.dirs.values()), tmp_path, CONFIG)
    assert again.json.read_bytes() == board.json.read_bytes()
    assert again.html.read_bytes() == board.html.read_bytes()
    assert "PIPELINE CHECK: the answers of setting(s) strong, strong-twin, weak" in board.html.read_text()
    assert "<script src" not in board.html.read_text() and "http" not in board.html.read_text().split("<svg")[0]


@pytest.fixture(scope="module")
def other(runs, tmp_path_factory):
    """A run of another task set: the first 30 of the 40 cases."""
    root = tmp_path_factory.mktemp("other-tasks")
    write_jsonl(root / "tasks.jsonl", runs.tasks[:120])
    return make_run(root, root / "tasks.jsonl", Setting(name="other", provider="synthetic", synthetic_skill=2.0))


def test_runs_over_different_tasks_are_refused_in_one_line(runs, other, tmp_path, capsys):
    with pytest.raises(UsageError) as err:
        write_leaderboard([runs.dirs["strong"], other], tmp_path, CONFIG)
    message = str(err.value)
    assert "\n" not in message and str(other) in message and str(runs.dirs["strong"]) in message
    assert "--intersect" in message
    assert main(["leaderboard", str(runs.dirs["strong"]), str(other), "--out", str(tmp_path / "cli")]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("execstate leaderboard: error: runs answer different tasks")


def test_intersect_compares_on_the_shared_tasks_and_says_so(runs, other, tmp_path):
    out = tmp_path / "inter"
    code = main(["leaderboard", str(runs.dirs["strong"]), str(other), "--out", str(out), "--intersect"])
    assert code == 0
    data = json.loads((out / "leaderboard.json").read_text(encoding="utf-8"))
    assert data["inputs"]["intersect"] is True and data["inputs"]["tasks"] == 120
    assert data["inputs"]["dropped_task_ids"] == {str(runs.dirs["strong"]): 40, str(other): 0}
    assert all(r["planned"] == 120 for r in data["overall"])
    assert "Compared on the intersection: 120 tasks" in (out / "leaderboard.html").read_text(encoding="utf-8")


def test_a_setting_graded_in_two_runs_is_refused(runs, tmp_path):
    with pytest.raises(UsageError, match="graded in both"):
        write_leaderboard([runs.dirs["weak"], runs.dirs["weak"]], tmp_path, CONFIG)


def test_a_grades_file_stands_for_its_run(runs, board, tmp_path):
    paths = [runs.dirs["strong"] / GRADES_NAME, runs.dirs["strong-twin"], runs.dirs["weak"] / GRADES_NAME]
    files = write_leaderboard(paths, tmp_path, CONFIG)
    assert files.board.overall == board.board.overall and files.board.pairwise == board.board.pairwise
