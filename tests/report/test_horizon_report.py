"""The report's "Execution horizon" section: its tables (the analysis' numbers), its figure, the set horizon of a
synthetic setting beside the recovered one, a censored setting; shown only when ladder tasks exist."""

from __future__ import annotations

import csv
import json

from execstate.analyze import AnalysisConfig
from execstate.leaderboard import Combined, leaderboard
from execstate.records import Response
from execstate.report import write_report
from execstate.run.providers.synthetic import SyntheticProvider
from execstate.testing import synthetic_grades, synthetic_tasks
from execstate.testing.horizon import synthetic_grades as ladder_grades
from execstate.testing.horizon import synthetic_ladder

CONFIG = AnalysisConfig(replicates=200, permutations=50)


def test_the_section_shows_the_recovered_horizon_beside_the_set_one(tmp_path):
    paper = synthetic_tasks(2, (("classic", "python", 6),))
    settings = {"a-high": -0.3, "b-off": 0.8}
    grades = synthetic_grades(paper, 2, settings=settings)
    rungs = synthetic_ladder(8, 7, 18, seed=1)  # 8 programs x 12 rungs
    set_h = 2.0**12
    on_ladder = ladder_grades(rungs, horizon=set_h, setting="a-high") + ladder_grades(
        rungs, horizon=2.0**40, setting="b-off"
    )
    model = SyntheticProvider("a-high", horizon=set_h).model
    responses = [Response(task_id=rungs[0].task_id, setting="a-high", status="completed", provider="synthetic",
                          model=model)]  # fmt: skip
    files = write_report(paper + rungs, grades + on_ladder, tmp_path / "with", CONFIG, responses=responses)
    html = files.report_html.read_text(encoding="utf-8")
    assert 'id="horizon"' in html and "Execution horizon" in html and "ladder tasks 96 of 8 programs" in html
    analysed = json.loads(files.analysis_json.read_text(encoding="utf-8"))["horizon"]["rows"]
    with open(tmp_path / "with" / "tables" / "horizon" / "execution_horizon.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    assert [r["setting"] for r in rows] == [a["setting"] for a in analysed] == ["a-high", "b-off"]
    shown, record = rows[0], analysed[0]
    assert abs(float(shown["h50_log2"]) - record["fit"]["h50_log2"]) < 1e-6 and shown["set_h50"] == "2^12.0"
    assert abs(record["fit"]["h50_log2"] - 12.0) < 1.0 and shown["covered"] == str(record["covered"])
    censored = rows[1]  # answered right far beyond the top rung
    assert censored["h50"].startswith("> top rung") and censored["h50_log2"] == "" and censored["set_h50"] == ""
    with open(tmp_path / "with" / "tables" / "horizon" / "horizon_rungs.csv", encoding="utf-8") as fh:
        points = list(csv.DictReader(fh))
    assert len(points) == 2 * 12 and sum(int(p["cells"]) for p in points) == 2 * 96
    assert (tmp_path / "with" / "figures" / "horizon.svg").is_file()
    assert any(p.name == "horizon.png" for p in files.figures)

    plain = write_report(paper, grades, tmp_path / "without", CONFIG)
    assert 'id="horizon"' not in plain.report_html.read_text(encoding="utf-8")
    assert not (tmp_path / "without" / "tables" / "horizon").exists()


def test_the_leaderboard_has_a_horizon_column():
    paper = synthetic_tasks(2, (("classic", "python", 4),))
    grades = synthetic_grades(paper, 2, settings={"a-high": -0.3, "b-off": 0.8})
    rungs = synthetic_ladder(6, 7, 16, seed=2)
    on_ladder = ladder_grades(rungs, horizon=2.0**11, setting="a-high")  # b-off has no ladder answers
    combined = Combined([], paper + rungs, grades + on_ladder, [], {"a-high": {}, "b-off": {}})
    board = leaderboard(combined, CONFIG)
    rows = {r["setting"]: r for r in board.overall}
    assert rows["a-high"]["horizon"].startswith("2^") and 9.5 < rows["a-high"]["horizon_log2"] < 12.5
    assert rows["b-off"]["horizon"] is None and rows["b-off"]["horizon_log2"] is None
    assert list(rows["a-high"])[-2:] == ["horizon", "horizon_log2"]
    assert sum(r["planned"] for r in board.overall) == len(grades)  # ladder tasks enter no other column
