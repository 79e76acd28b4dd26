"""The analyses beyond the paper come from one list, ``execstate.analyze.BEYOND_TABLES``, that the analysis and
the report both read: every row is computed and shown, and a new row is all a new table needs."""

from __future__ import annotations

from typing import Any

import pytest

import execstate.analyze._beyond as analyze_beyond
import execstate.report._beyond as report_beyond
from execstate.analyze import BEYOND_TABLES, AnalysisConfig, BeyondInputs, BeyondTable, analyze
from execstate.testing import synthetic_grades, synthetic_tasks


def test_every_row_has_a_unique_name_and_a_way_to_be_shown():
    names = [row.name for row in BEYOND_TABLES]
    assert len(names) == len(set(names)), names
    for row in BEYOND_TABLES:
        assert row.heading, f"{row.name}: no report heading"
        assert row.title or row.name in report_beyond._SHOW, (
            f"{row.name} is neither a plain table (a title) nor shown by a function in report/_beyond.py's _SHOW"
        )
    assert set(report_beyond._SHOW) <= set(names), "report/_beyond.py shows a table BEYOND_TABLES does not list"


@pytest.fixture(scope="module")
def data() -> tuple[list[Any], list[Any]]:
    tasks = synthetic_tasks(1, (("classic", "python", 6),))
    return tasks, synthetic_grades(tasks, seed=1, settings={"a": -0.5, "b": 0.5})


def test_the_analysis_holds_the_rows_in_order_then_the_figures(data):
    beyond = analyze(*data, AnalysisConfig(replicates=50, permutations=50)).beyond
    firsts = [key for key in beyond if key in {row.name for row in BEYOND_TABLES}]
    assert firsts == [row.name for row in BEYOND_TABLES]
    assert list(beyond)[-1] == "figures"


def _case_count(d: BeyondInputs) -> dict[str, Any]:
    return {"case_count": [{"setting": "pooled", "cases": int(d.frame["case_id"].nunique())}]}


def test_a_new_row_is_computed_written_and_shown(data, monkeypatch, tmp_path):
    """One module's function and one row of the list: no other edit puts a table in the JSON, the files and the page."""
    row = BeyondTable("case_count", "Cases", _case_count, title="Cases of the four-arm tables", note="A planted row.")
    rows = (*BEYOND_TABLES, row)
    monkeypatch.setattr(analyze_beyond, "BEYOND_TABLES", rows)
    monkeypatch.setattr(report_beyond, "BEYOND_TABLES", rows)
    beyond = analyze(*data, AnalysisConfig(replicates=50, permutations=50)).beyond
    assert beyond["case_count"] == [{"setting": "pooled", "cases": 6}]
    assert list(beyond)[-2:] == ["case_count", "figures"]
    tables, _, html = report_beyond.beyond_section(beyond, tmp_path)
    assert tables[-1].name == "case_count" and tables[-1].title == "Cases of the four-arm tables"
    assert html.index("<h3>Long-input origin</h3>") < html.index("<h3>Cases</h3>") < html.index('id="table-case_count"')
