"""`execstate analyze` end to end on small synthetic files: outputs, self-contained page, re-run identity."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from execstate.cli import main
from execstate.records import Grade, Task, write_jsonl
from execstate.testing import synthetic_grades, synthetic_tasks
from execstate.report import binned_rates, quantile_bins

STUDIES = (("classic", "python", 20), ("lcb_python", "python", 24), ("lcb_cpp", "cpp", 8))
SETTINGS = {"m-high": -0.8, "m-off": 1.4}


def _run(argv: list[str]) -> int:
    """The real entry point, as the console script calls it."""
    return main(argv)


def _inputs(tmp: Path) -> tuple[Path, Path, list[Task]]:
    tasks = synthetic_tasks(4, STUDIES)
    first = tasks[0]
    tasks[0] = first.model_copy(update={"source": "# <script>alert('x')</script> & co\n" + first.source})
    grades = synthetic_grades(tasks, 4, settings=SETTINGS, trace_odds_ratio=1.4)
    grades += [Grade(task_id=t.task_id, setting="oracle-check", status="correct-valid", answer=t.oracle,
                     rule=t.grading_rule, pipeline_check=True) for t in tasks]
    grades.append(Grade(task_id="nowhere/x/short-trace-final", setting="m-high", status="wrong-valid", rule="bytes"))
    write_jsonl(tmp / "tasks.jsonl", tasks)
    write_jsonl(tmp / "grades.jsonl", grades)
    return tmp / "tasks.jsonl", tmp / "grades.jsonl", tasks


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("analyze")
    tasks_path, grades_path, tasks = _inputs(tmp)
    outs = []
    for name in ("first", "second"):
        out = tmp / name
        code = _run(["analyze", "--tasks", str(tasks_path), "--grades", str(grades_path), "--out", str(out),
                     "--replicates", "300", "--permutations", "300", "--exclude-study", ""])
        assert code == 0
        outs.append(out)
    return outs, tasks


def test_analysis_json_rows_are_named_for_what_they_hold(runs):
    (out, _), _ = runs
    data = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
    for key in ("paired", "regression", "series", "regression_fits", "correlations", "accuracy", "config"):
        assert key in data
    assert {"cohort", "setting", "pairs", "sources", "correct_to_wrong", "wrong_to_correct", "decrement_pp",
            "ci_low", "ci_high"} <= set(data["paired"][0])
    assert {"model", "predictor", "odds_ratio", "ci_low", "ci_high", "p"} <= set(data["regression"][0])
    assert {"setting", "study", "arm", "metric", "theta", "p", "odds_ratio", "p_bh"} <= set(data["series"][0])
    assert [r["setting"] for r in data["accuracy"]["accuracy_by_setting"]] == ["m-high", "m-off", "oracle-check"]
    assert data["accuracy"]["accuracy_by_setting"][2]["pipeline_check"] is True
    assert data["inputs"]["unknown_task_ids"] == ["nowhere/x/short-trace-final"]
    assert data["inputs"]["pipeline_check"] is True
    assert data["inputs"]["high_settings"] == ["m-high"]
    assert [c["name"] for c in data["inputs"]["cohorts"]] == ["all-python", "all-python/high"]
    cohorts = {r["cohort"] for r in data["paired"]}
    assert cohorts == {"all-python", "all-python/high"}  # --exclude-study '' drops the sensitivity cohorts


def test_tables_and_figures_are_written(runs):
    (out, _), _ = runs
    for name in ("corpus", "accuracy_by_arm", "paired", "regression", "series", "series_summary"):
        assert (out / "tables" / f"{name}.csv").stat().st_size > 0
        assert (out / "tables" / f"{name}.md").read_text(encoding="utf-8").startswith("## ")
    for name in ("accuracy_by_arm", "error_vs_load_classic", "accuracy_vs_peak_lcb_python"):
        assert (out / "figures" / f"{name}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        svg = (out / "figures" / f"{name}.svg").read_text(encoding="utf-8")
        assert "<svg" in svg and "dc:date" not in svg


def test_rerun_writes_identical_bytes(runs):
    (first, second), _ = runs
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(second) for p in second.rglob("*") if p.is_file())
    for rel in files:
        assert (first / rel).read_bytes() == (second / rel).read_bytes(), rel


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.refs, self.scripts, self.details = set(), [], 0, 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        self.refs += [a[k] for k in ("src", "href") if k in a]
        self.scripts += tag in ("script", "link", "iframe")
        self.details += tag == "details"


def test_report_is_one_self_contained_page(runs):
    (out, _), tasks = runs
    text = (out / "report.html").read_text(encoding="utf-8")
    page = _Collector()
    page.feed(text)
    assert {"inputs", "corpus", "accuracy", "paired", "regression", "series", "figures", "tasks"} <= page.ids
    assert page.scripts == 0
    assert all(r.startswith(("data:image/svg+xml;base64,", "#")) for r in page.refs)
    assert sum(r.startswith("data:") for r in page.refs) == 1 + 2 * 3  # by-arm + 2 per study
    assert page.details >= len(tasks)
    assert all(t.task_id in text for t in tasks)
    assert "<script>alert" not in text and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; co" in text
    assert "PIPELINE CHECK" in text and "oracle-check" in text


def test_missing_input_file_is_a_clear_error(tmp_path, capsys):
    code = _run(["analyze", "--tasks", str(tmp_path / "none.jsonl"), "--grades", str(tmp_path / "g.jsonl"),
                 "--out", str(tmp_path / "out")])
    assert code == 2
    assert "--tasks" in capsys.readouterr().err


def test_quantile_bins_merge_tied_edges_and_rates_use_wilson():
    x = [1.0] * 6 + [2.0, 3.0, 4.0, 5.0]
    bins = quantile_bins(__import__("numpy").log2(x))
    assert bins[:6].tolist() == [0] * 6 and len(set(bins.tolist())) <= 8
    rates = binned_rates(__import__("numpy").array(x), __import__("numpy").array([1, 0] * 5, dtype=bool))
    assert sum(b["n"] for b in rates) == 10
    assert all(b["low"] <= b["rate"] <= b["high"] for b in rates)


def test_markdown_escapes_pipes():
    from execstate.tables import make_table, to_markdown

    md = to_markdown(make_table("t", "T", [{"a": "x|y", "p": 0.000123}]))
    assert "x\\|y" in md and "0.000123" in md
    assert re.search(r"\| a \| p \|", md)
