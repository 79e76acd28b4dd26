"""Figures drawn by the helper process are byte-identical to figures drawn in the caller's process.

``start_figures`` queues every figure on a helper process and the caller draws, last first, those the
helper has not started. Which process draws a figure must not show in its files: the helper draws under
the caller's rc settings, so a setting the caller changed applies to both.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib
import pytest

from execstate.analyze import AnalysisConfig, figure_data, load_cells, series_tests
from execstate.report._figures import HELPER_PANELS, render_figures, start_figures
from execstate.testing import synthetic_grades, synthetic_tasks

STUDIES = (("classic", "python", 12), ("lcb_cpp", "cpp", 8))
SETTINGS = {"m-a": -0.5, "m-b": 0.3, "m-c": 1.0}


@pytest.fixture(scope="module")
def figures() -> dict:
    tasks = synthetic_tasks(2, STUDIES)
    cells = load_cells(tasks, synthetic_grades(tasks, 2, settings=SETTINGS))
    config = AnalysisConfig(replicates=50, permutations=50)
    series = series_tests(cells.frame, config)
    return figure_data(cells.frame, series, ["classic", "lcb_cpp"], config.level)


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def test_the_helper_draws_the_same_bytes_under_the_callers_rc_settings(figures, tmp_path) -> None:
    names = [n for n, d in figures.items() if d["figure"] != "omitted"]
    with matplotlib.rc_context({"axes.facecolor": "#f4f0e8", "axes.linewidth": 1.7}):
        pending = start_figures(figures, tmp_path / "helper", helper=True)
        assert pending.helper_drew_one.wait(300), f"the helper drew nothing: {pending.helper_errors}"
        drawn = pending()
        here = render_figures(figures, tmp_path / "here")
    assert pending.by_helper and pending.by_helper[0] == drawn[0].name  # it works from the front
    assert len(pending.by_helper) < len(drawn) or len(drawn) == 1
    assert [f.name for f in drawn] == [f.name for f in here] and len(drawn) == len(names)
    assert [f.svg for f in drawn] == [f.svg for f in here]
    assert _files(tmp_path / "helper") == _files(tmp_path / "here")
    assert b"f4f0e8" in (tmp_path / "here" / f"{drawn[0].name}.svg").read_bytes()  # the setting did apply


def test_figures_the_helper_had_when_it_died_are_drawn_here(figures, tmp_path) -> None:
    pending = start_figures(figures, tmp_path / "helper", helper=True)
    assert pending.helper_drew_one.wait(300)
    assert pending._proc is not None
    pending._proc.kill()
    drawn = pending()
    render_figures(figures, tmp_path / "here")
    assert _files(tmp_path / "helper") == _files(tmp_path / "here")
    assert len(drawn) == len([d for d in figures.values() if d["figure"] != "omitted"])


def test_without_a_helper_everything_is_drawn_here(figures, tmp_path) -> None:
    pending = start_figures(figures, tmp_path, helper=False)
    drawn = pending()
    assert pending._proc is None and pending.by_helper == []
    assert len(drawn) == len([d for d in figures.values() if d["figure"] != "omitted"])


def test_small_reports_start_no_helper(figures, tmp_path) -> None:
    one = {name: data for name, data in figures.items() if data["figure"] == "accuracy_by_arm"}
    assert sum(len(d.get("panels", ())) or 1 for d in one.values()) < HELPER_PANELS
    assert start_figures(one, tmp_path)._proc is None
    assert start_figures(one, tmp_path)()[0].name == "accuracy_by_arm"
