"""The report's further-arm sections: step curve, coherence and line counts, each with its table files and figure,
shown only when the analysis has their rows."""

from __future__ import annotations

import json

from further_records import grade, line_count_task, loop_trace_task, trace_grade

from execstate.analyze import AnalysisConfig
from execstate.report import write_report
from execstate.testing import synthetic_grades, synthetic_tasks

CONFIG = AnalysisConfig(replicates=100, permutations=50)
SECTIONS = ('id="step-curve"', 'id="coherence"', 'id="line-count"')


def _records():
    paper = synthetic_tasks(2, (("classic", "python", 5),))
    grades = synthetic_grades(paper, 2, settings={"a-high": -0.3, "b-off": 0.8})
    extra = []
    for j, case_id in enumerate(dict.fromkeys(t.case_id for t in paper)):
        sha = next(t.source_sha256 for t in paper if t.case_id == case_id)
        extra += [
            loop_trace_task(case_id, 3 + j % 2).model_copy(update={"source_sha256": sha}),
            line_count_task(case_id, 4 + j, 0.3 * j).model_copy(update={"source_sha256": sha}),
        ]
    for setting in ("a-high", "b-off"):
        for j, task in enumerate(extra):
            m = task.meta.get("trace_steps")
            grades.append(
                trace_grade(task, setting, ("1" * j + "0" * m)[:m]) if m else grade(task, setting, j % 4 != 1)
            )
    return paper, extra, grades


def test_the_sections_render_with_their_tables_and_figures(tmp_path):
    paper, extra, grades = _records()
    files = write_report(paper + extra, grades, tmp_path / "with", CONFIG)
    html = files.report_html.read_text(encoding="utf-8")
    positions = [html.index(s) for s in SECTIONS]
    assert positions == sorted(positions) and positions[-1] < html.index('id="tasks"')  # before the task browser
    for name in ("step_curve", "coherence", "line_count_by_imbalance"):
        assert f'id="fig-{name}"' in html
        assert (tmp_path / "with" / "figures" / f"{name}.svg").is_file()
    for name in ("step_summary", "step_curve", "coherence", "line_count"):
        assert f'id="table-{name}"' in html
        assert (tmp_path / "with" / "tables" / "further" / f"{name}.csv").is_file()
    assert "further-arm tasks: loop-trace 5, line-count 5" in html
    written = json.loads(files.analysis_json.read_text(encoding="utf-8"))
    shown = [r for r in written["further"]["line_count"] if r["bin"] == "all"]
    assert [r["cells"] for r in shown] == [5, 5]


def test_without_further_tasks_there_are_no_such_sections(tmp_path):
    paper, _, grades = _records()
    ids = {t.task_id for t in paper}
    files = write_report(paper, [g for g in grades if g.task_id in ids], tmp_path, CONFIG)
    html = files.report_html.read_text(encoding="utf-8")
    assert not any(s in html for s in SECTIONS)
    assert not (tmp_path / "tables" / "further").exists()
    assert "further" not in json.loads(files.analysis_json.read_text(encoding="utf-8"))
