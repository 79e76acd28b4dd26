"""A section from outside execstate runs through analyze and report with no execstate file touched: registered at
run time, or declared by an installed package's ``execstate.sections`` entry point."""

from __future__ import annotations

import csv
import json
import textwrap
from pathlib import Path

import pytest

from execstate.analyze import SECTIONS, AnalysisConfig, register_section, unregister_section
from execstate.report import write_report
from execstate.testing import fresh_copy, synthetic_grades, synthetic_tasks
from execstate.testing.plugins import plugin_dist

CONFIG = AnalysisConfig(replicates=50, permutations=50)

TOY = textwrap.dedent(
    '''
    """A toy section: how many of the final-output tasks were answered right, as one number, a table and a line."""

    from execstate.analyze import Section
    from execstate.arms import arm_spec
    from execstate.report import SectionView, table_section
    from execstate.tables import make_table


    def count(d):
        right = sum(g.status in ("correct-valid", "correct-invalid") for g in d.mine_grades)
        return {"tasks": len(d.mine), "right": right}


    def tables(data, config):
        return [make_table("toy_counts", "Toy counts", [data])]


    def html(data, tables, figures, config):
        return table_section(tables[0]) + f'<p class="toy">{data["right"]} of the final tasks right</p>'


    SECTION = Section(
        "toy",
        "A toy section",
        count,
        applies=lambda task: arm_spec(task.arm).family == "final",
        view=SectionView(tables, html, inputs=lambda data: f"toy tasks {data['tasks']}"),
    )
    '''
)


@pytest.fixture(scope="module")
def records():
    """A small published build, its fresh twins, and their grades."""
    tasks = synthetic_tasks(3, (("classic", "python", 4),))
    tasks += [fresh_copy(t) for t in tasks[:8]]
    return tasks, synthetic_grades(tasks, 3, settings={"a": -0.4, "b": 0.6})


def _check_toy(out: Path, tasks, grades, baseline: Path) -> None:
    written = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
    final = [t for t in tasks if t.arm in ("short-trace-final", "long-trace-final") and "~fresh" not in t.case_id]
    ids = {t.task_id for t in final}
    right = sum(g.status.startswith("correct") for g in grades if g.task_id in ids)
    assert written["toy"] == {"tasks": len(final), "right": right}  # fresh tasks are the fresh section's alone
    # after execstate's own sections, before the extras write_report adds
    assert list(written)[-4:] == ["fresh", "toy", "files", "execstate_version"]
    with open(out / "tables" / "toy" / "toy_counts.csv", encoding="utf-8") as fh:
        assert list(csv.DictReader(fh)) == [{"tasks": str(len(final)), "right": str(right)}]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert f'<p class="toy">{right} of the final tasks right</p>' in html
    assert html.index('id="fresh"') < html.index('<section id="toy"><h2>A toy section</h2>') < html.index('id="tasks"')
    assert f"<li>toy tasks {len(final)}</li>" in html
    before = json.loads((baseline / "analysis.json").read_text(encoding="utf-8"))
    assert {k: v for k, v in written.items() if k != "toy"} == before  # nothing else changed


@pytest.fixture(scope="module")
def baseline(records, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("plain")
    write_report(*records, out, CONFIG)
    return out


def test_a_section_registered_at_run_time_is_analysed_written_and_shown(records, baseline, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "toy_section_runtime.py").write_text(TOY, encoding="utf-8")
    from toy_section_runtime import SECTION  # type: ignore[import-not-found]

    register_section(SECTION)
    try:
        write_report(*records, tmp_path / "out", CONFIG)
    finally:
        unregister_section("toy")
    _check_toy(tmp_path / "out", *records, baseline)
    assert "toy" not in SECTIONS
    write_report(*records, tmp_path / "again", CONFIG)
    assert "toy" not in json.loads((tmp_path / "again" / "analysis.json").read_text(encoding="utf-8"))


def test_a_section_from_an_entry_point_needs_no_registration(records, baseline, tmp_path, monkeypatch):
    (tmp_path / "toy_section_plugin.py").write_text(TOY, encoding="utf-8")
    plugin_dist(tmp_path, "toy-section-plugin", {"execstate.sections": {"toy": "toy_section_plugin:SECTION"}})
    monkeypatch.syspath_prepend(str(tmp_path))
    SECTIONS.refresh()
    try:
        assert SECTIONS.declared()[-1] == "toy"
        write_report(*records, tmp_path / "out", CONFIG)
    finally:
        monkeypatch.undo()
        SECTIONS.refresh()
    _check_toy(tmp_path / "out", *records, baseline)
    assert "toy" not in SECTIONS


def test_a_section_without_its_tasks_is_left_out(records, tmp_path, monkeypatch):
    monkeypatch.syspath_prepend(str(tmp_path))
    (tmp_path / "toy_section_absent.py").write_text(TOY, encoding="utf-8")
    from toy_section_absent import SECTION  # type: ignore[import-not-found]

    tasks, grades = records
    states = [t for t in tasks if t.arm in ("inside-loop-state", "post-loop-state")]
    register_section(SECTION)
    try:
        files = write_report(states, grades, tmp_path / "out", CONFIG)
    finally:
        unregister_section("toy")
    assert "toy" not in json.loads(files.analysis_json.read_text(encoding="utf-8"))
    assert 'id="toy"' not in files.report_html.read_text(encoding="utf-8")
    assert not (tmp_path / "out" / "tables" / "toy").exists()
