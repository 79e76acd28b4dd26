"""The analysis sections come from one registry, ``execstate.analyze.SECTIONS``, that the analysis and the report
both loop over: every row is computed and shown, and a new row is all a new table needs."""

from __future__ import annotations

from typing import Any

import pytest

from execstate.analyze import (
    SECTIONS,
    AnalysisConfig,
    Section,
    SectionInputs,
    analyze,
    register_section,
    sections,
    unregister_section,
)
from execstate.errors import UsageError
from execstate.registry import RegistryMiss
from execstate.report._sections import BUILTIN_VIEWS, show_sections, view_of
from execstate.report._view import plain_view
from execstate.testing import synthetic_grades, synthetic_tasks

CONFIG = AnalysisConfig(replicates=50, permutations=50)


def test_every_section_has_a_unique_name_and_a_view():
    names = [s.name for s in sections()]
    assert len(names) == len(set(names)), names
    assert names[-5:] == ["fresh", "further", "variants", "twins", "horizon"]
    for section in sections():
        assert section.heading, f"{section.name}: no report heading"
        assert view_of(section) is BUILTIN_VIEWS[section.name]
    assert set(BUILTIN_VIEWS) == set(names), "report/_sections.py has a view of a section the registry lacks"


def test_a_miss_names_the_known_sections_and_an_entry_must_be_a_section():
    with pytest.raises(RegistryMiss, match="unknown section 'taxonomi'; did you mean 'taxonomy'"):
        SECTIONS.get("taxonomi")
    with pytest.raises(UsageError, match="section 'odd' is a str, not a Section"):
        SECTIONS.register("odd", "not a section")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="registered as 'odd' calls itself 'even'"):
        SECTIONS.register("odd", Section("even", "Even", lambda d: {}))
    assert "odd" not in SECTIONS and "even" not in SECTIONS


@pytest.fixture(scope="module")
def data() -> tuple[list[Any], list[Any]]:
    tasks = synthetic_tasks(1, (("classic", "python", 6),))
    return tasks, synthetic_grades(tasks, seed=1, settings={"a": -0.5, "b": 0.5})


def test_the_analysis_holds_the_rows_in_order_then_the_figures(data):
    a = analyze(*data, CONFIG)
    rows = [s.name for s in sections() if s.beyond]
    assert [key for key in a.beyond if key in set(rows)] == rows
    assert list(a.beyond)[-1] == "figures"
    assert a.sections == {}  # no fresh, further-arm or variant task: no section of its own
    assert list(a.to_json())[-1] == "beyond"


def _case_count(d: SectionInputs) -> dict[str, Any]:
    return {"case_count": [{"setting": "pooled", "cases": int(d.frame["case_id"].nunique())}]}


def test_a_new_row_is_computed_written_and_shown(data, tmp_path):
    """One function and one registered row: no other edit puts a table in the JSON, the files and the page."""
    view = plain_view("case_count", "Cases of the four-arm tables", "A planted row.")
    register_section(Section("case_count", "Cases", _case_count, beyond=True, view=view))
    try:
        a = analyze(*data, CONFIG)
        shown = show_sections(a, tmp_path)
    finally:
        unregister_section("case_count")
    assert a.beyond["case_count"] == [{"setting": "pooled", "cases": 6}]
    assert list(a.beyond)[-2:] == ["case_count", "figures"]
    table = shown.tables["beyond"][-1]
    assert table.name == "case_count" and table.title == "Cases of the four-arm tables"
    html = shown.beyond
    assert html.index("<h3>Long-input origin</h3>") < html.index("<h3>Cases</h3>") < html.index('id="table-case_count"')
    assert "case_count" not in SECTIONS


def test_a_row_whose_first_key_is_not_its_name_is_refused(data):
    register_section(Section("planted", "Planted", lambda d: {"other": 1}, beyond=True))
    try:
        with pytest.raises(ValueError, match="'planted': its compute's first key is 'other'"):
            analyze(*data, CONFIG)
    finally:
        unregister_section("planted")


def test_a_section_without_a_view_is_named_in_the_error(data, tmp_path):
    register_section(Section("viewless", "No view", lambda d: {"n": len(d.mine)}))
    try:
        a = analyze(*data, CONFIG)
        assert a.section("viewless") == {"n": len(data[0])}
        with pytest.raises(Exception, match="section 'viewless' has no report view"):
            show_sections(a, tmp_path)
    finally:
        unregister_section("viewless")
