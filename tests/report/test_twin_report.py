"""The report's "Python vs C++ twins" section: its two table files and figure, shown only when twin tasks exist."""

from __future__ import annotations

import csv
import json

from execstate.analyze import AnalysisConfig
from execstate.records import Task
from execstate.report import write_report
from execstate.testing import synthetic_grades, synthetic_tasks

CONFIG = AnalysisConfig(replicates=100, permutations=50)


def _twin(task: Task, proven: bool = True) -> Task:
    """The C++ twin of a classic task as the builder writes it."""
    case_id = task.case_id.replace("classic/", "classic_cpp/", 1)
    record = {"proven": proven, "variables": {}} | ({} if proven else {"difference": "post-loop-state: state 1 vs 2"})
    meta = {**task.meta, "twin_of": task.case_id, "twin": record}
    return task.model_copy(
        update={
            "case_id": case_id,
            "task_id": task.task_id.replace(task.case_id, case_id, 1),
            "study": "classic_cpp",
            "language": "cpp",
            "meta": meta,
        }
    )


def test_the_section_renders_its_tables_and_figure_only_with_twins(tmp_path):
    paper = synthetic_tasks(2, (("classic", "python", 6),))
    twins = [_twin(t, proven=not t.case_id.endswith("5")) for t in paper]
    settings = {"a-high": -0.3, "b-off": 0.8}
    grades = synthetic_grades(paper, 2, settings=settings)
    twin_grades = synthetic_grades(twins, 3, settings=settings)
    files = write_report(paper + twins, grades + twin_grades, tmp_path / "with", CONFIG)
    html = files.report_html.read_text(encoding="utf-8")
    assert 'id="twins"' in html and "Python vs C++ twins" in html
    assert "cross-language twin tasks 24 of 5 proven algorithms" in html
    unproven = sorted({t.case_id for t in twins if t.case_id.endswith("5")})
    assert unproven and f"not proven, so left out: {', '.join(unproven)}" in html
    analysed = json.loads(files.analysis_json.read_text(encoding="utf-8"))["twins"]
    folder = tmp_path / "with" / "tables" / "twins"
    for name, key, label in (("language_gap", "rows", "arm"), ("language_gap_by_band", "bands", "band")):
        with open(folder / f"{name}.csv", encoding="utf-8") as fh:
            rows = list(csv.DictReader(fh))
        assert rows and len(rows) == len(analysed[key])
        for row, record in zip(rows, analysed[key]):  # the table shows the analysis' numbers, nothing of its own
            assert (row["setting"], row[label]) == (record["setting"], record[label])
            assert abs(float(row["gap_pp"]) - record["gap_pp"]) < 1e-6
    assert len(analysed["rows"]) == 2 * 5  # settings x (four arms + all)
    assert (tmp_path / "with" / "figures" / "language_gap.svg").is_file()
    assert any(p.name == "language_gap.png" for p in files.figures)

    plain = write_report(paper, grades, tmp_path / "without", CONFIG)
    assert 'id="twins"' not in plain.report_html.read_text(encoding="utf-8")
    assert not (tmp_path / "without" / "tables" / "twins").exists()
