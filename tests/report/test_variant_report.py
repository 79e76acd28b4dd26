"""The report's "Source variants" section: its table files and figure, shown only when variant tasks exist."""

from __future__ import annotations

import csv
import json

from execstate.analyze import AnalysisConfig
from execstate.records import Task
from execstate.report import write_report
from execstate.testing import synthetic_grades, synthetic_tasks

CONFIG = AnalysisConfig(replicates=100, permutations=50)


def _variant(task: Task, name: str) -> Task:
    case_id = f"{task.case_id}~{name}"
    meta = {**task.meta, "variant_of": task.case_id, "variant": {"name": name, "seed": 0, "mapping": {}}}
    return task.model_copy(
        update={"case_id": case_id, "task_id": task.task_id.replace(task.case_id, case_id, 1), "meta": meta}
    )


def test_the_section_renders_with_its_table_and_figure_only_with_variants(tmp_path):
    paper = synthetic_tasks(2, (("classic", "python", 6),))
    variants = [_variant(t, name) for t in paper for name in ("rename", "mislead")]
    settings = {"a-high": -0.3, "b-off": 0.8}
    grades = synthetic_grades(paper, 2, settings=settings)
    variant_grades = synthetic_grades(variants, 3, settings=settings)
    files = write_report(paper + variants, grades + variant_grades, tmp_path / "with", CONFIG)
    html = files.report_html.read_text(encoding="utf-8")
    assert 'id="variants"' in html and "Source variants" in html and "source-variant tasks 48" in html
    with open(tmp_path / "with" / "tables" / "variants" / "original_vs_variant.csv", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))
    analysed = json.loads(files.analysis_json.read_text(encoding="utf-8"))["variants"]["rows"]
    assert len(rows) == len(analysed) == 2 * 5 * 2  # settings x (four arms + all) x variants
    for row, record in zip(rows, analysed):  # the table shows the analysis' numbers, nothing of its own
        assert (row["setting"], row["arm"], row["variant"]) == (record["setting"], record["arm"], record["variant"])
        assert abs(float(row["difference_pp"]) - record["difference_pp"]) < 1e-6
    assert (tmp_path / "with" / "figures" / "variant_gap.svg").is_file()
    assert any(p.name == "variant_gap.png" for p in files.figures)

    plain = write_report(paper, grades, tmp_path / "without", CONFIG)
    assert 'id="variants"' not in plain.report_html.read_text(encoding="utf-8")
    assert not (tmp_path / "without" / "tables" / "variants").exists()
    assert not (tmp_path / "without" / "figures" / "variant_gap.svg").exists()
