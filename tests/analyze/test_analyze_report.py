"""`execstate analyze` end to end on small synthetic files: outputs, self-contained page, re-run identity."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from execstate.analyze import binned_rates, quantile_bins
from execstate.cli import main
from execstate.records import CORRECT_STATUSES, Grade, Task, read_jsonl, write_jsonl
from execstate.testing import synthetic_grades, synthetic_tasks

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
    grades += [
        Grade(
            task_id=t.task_id,
            setting="oracle-check",
            status="correct-valid",
            answer=t.oracle,
            rule=t.grading_rule,
            pipeline_check=True,
        )
        for t in tasks
    ]
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
        code = _run(
            [
                "analyze",
                "--tasks",
                str(tasks_path),
                "--grades",
                str(grades_path),
                "--out",
                str(out),
                "--replicates",
                "300",
                "--permutations",
                "300",
                "--exclude-study",
                "",
            ]
        )
        assert code == 0
        outs.append(out)
    return outs, tasks


def test_analysis_json_rows_are_named_for_what_they_hold(runs):
    (out, _), _ = runs
    data = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
    for key in ("paired", "regression", "series", "regression_fits", "correlations", "accuracy", "config"):
        assert key in data
    assert {
        "cohort",
        "setting",
        "pairs",
        "sources",
        "correct_to_wrong",
        "wrong_to_correct",
        "decrement_pp",
        "ci_low",
        "ci_high",
    } <= set(data["paired"][0])
    assert {"model", "predictor", "odds_ratio", "ci_low", "ci_high", "p"} <= set(data["regression"][0])
    assert {"setting", "study", "arm", "metric", "theta", "p", "odds_ratio", "p_bh"} <= set(data["series"][0])
    assert [r["setting"] for r in data["accuracy"]["accuracy_by_setting"]] == ["m-high", "m-off", "oracle-check"]
    assert data["accuracy"]["accuracy_by_setting"][2]["pipeline_check"] is True
    assert data["inputs"]["unknown_task_ids"] == ["nowhere/x/short-trace-final"]
    assert data["inputs"]["pipeline_check"] is True
    assert data["inputs"]["high_settings"] == ["m-high"]
    # --exclude-study '' drops the sensitivity cohorts; each Python study has its own (the C++ one has no pairs)
    declared = ["all-python", "all-python/high", "study:classic", "study:lcb_python"]
    assert [c["name"] for c in data["inputs"]["cohorts"]] == declared
    assert list(dict.fromkeys(r["cohort"] for r in data["paired"])) == declared


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


def _graded_rows(out: Path, tasks: list[Task]) -> list[tuple[Task, Grade]]:
    """Completed (task, grade) pairs recounted from the input files, first grade per cell."""
    by_id = {t.task_id: t for t in tasks}
    seen, rows = set(), []
    for g in read_jsonl(out.parent / "grades.jsonl", Grade):
        key = (g.task_id, g.setting, g.sample)
        if g.task_id in by_id and key not in seen:
            seen.add(key)
            if g.status != "no-response":
                rows.append((by_id[g.task_id], g))
    return rows


def _positive(rows, study: str, setting: str, metric: str) -> list[tuple[Task, Grade]]:
    return [
        (t, g) for t, g in rows if t.study == study and g.setting == setting and (getattr(t.metrics, metric) or 0) > 0
    ]


def test_figure_data_counts_match_the_inputs(runs):
    (out, _), tasks = runs
    figs = json.loads((out / "analysis.json").read_text(encoding="utf-8"))["figures"]
    rows = _graded_rows(out, tasks)
    assert list(figs) == ["accuracy_by_arm"] + [
        f"{kind}_{s}" for s, _, _ in sorted(STUDIES) for kind in ("error_vs_load", "accuracy_vs_peak")
    ]
    for study, _, _ in STUDIES:
        for kind, metric in (("error_vs_load", "state_load"), ("accuracy_vs_peak", "peak_state")):
            panels = figs[f"{kind}_{study}"]["panels"]
            assert [p["setting"] for p in panels] == ["m-high", "m-off", "oracle-check"]
            for p in panels:
                expected = len(_positive(rows, study, p["setting"], metric))
                assert expected > 0 and p["n"] == expected == sum(b["n"] for b in p["bins"]), (study, p["setting"])
    for bar in figs["accuracy_by_arm"]["bars"]:
        cell = [g for t, g in rows if t.arm == bar["arm"] and g.setting == bar["setting"]]
        assert (bar["n"], bar["k"]) == (len(cell), sum(g.status in CORRECT_STATUSES for g in cell))


def _intervals(figs: dict) -> list[dict]:
    out = list(figs["accuracy_by_arm"]["bars"])
    for data in list(figs.values())[1:]:
        out += [b for p in data["panels"] for b in p["bins"]]
    return out


def test_figure_data_intervals_contain_their_estimates(runs):
    (out, _), _ = runs
    figs = json.loads((out / "analysis.json").read_text(encoding="utf-8"))["figures"]
    intervals = _intervals(figs)
    assert len(intervals) > 20
    assert all(0 <= b["low"] <= b["rate"] <= b["high"] <= 1 and b["low"] < b["high"] for b in intervals)
    bands = [p for k, d in figs.items() if k.startswith("error_vs_load") for p in d["panels"] if p["band"]]
    assert bands, "no estimable fit: the band checks below would test nothing"
    for p in bands:
        band = p["band"]
        assert all(len(band[k]) == 100 for k in ("x", "fit", "low", "high"))
        assert all(lo <= f <= hi for lo, f, hi in zip(band["low"], band["fit"], band["high"]))
        assert band["x"][0] <= p["bins"][0]["x"] and p["bins"][-1]["x"] <= band["x"][-1]
        assert p["fit_status"] == "ok" and p["ci_low"] < p["odds_ratio"] < p["ci_high"]


def test_figure_titles_show_the_json_values(runs):
    (out, _), _ = runs
    data = json.loads((out / "analysis.json").read_text(encoding="utf-8"))
    pooled = {(r["study"], r["setting"], r["metric"]): r for r in data["series"] if r["arm"] == "pooled"}
    for study, _, _ in STUDIES:
        svg = (out / "figures" / f"error_vs_load_{study}.svg").read_text(encoding="utf-8")
        panels = data["figures"][f"error_vs_load_{study}"]["panels"]
        titles = re.findall(r"OR/doubling [^<]*", svg)
        assert titles == [
            f"OR/doubling {p['odds_ratio']:.2f} [{p['ci_low']:.2f}, {p['ci_high']:.2f}]" for p in panels if p["band"]
        ]
        assert svg.count("fit inestimable") == sum(p["band"] is None for p in panels)
        for p in panels:
            if p["band"]:  # same rows and MLE as the (Wald) series row: only the intervals differ
                assert p["odds_ratio"] == pytest.approx(pooled[(study, p["setting"], "state_load")]["odds_ratio"])
        svg = (out / "figures" / f"accuracy_vs_peak_{study}.svg").read_text(encoding="utf-8")
        for p in data["figures"][f"accuracy_vs_peak_{study}"]["panels"]:
            row = pooled[(study, p["setting"], "peak_state")]
            assert p["series"] == {k: row[k] for k in ("estimable", "theta", "p", "status")}
            head = f"theta={row['theta']:.2f}, p={row['p']:.3g}" if row["estimable"] else row["status"]
            assert f"{p['setting']} (n={p['n']})" in svg and head in svg


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.refs, self.scripts, self.details = set(), [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.add(a["id"])
        self.refs += [a[k] for k in ("src", "href") if k in a]
        if tag in ("script", "link", "iframe"):
            self.scripts.append((tag, a))
        self.details += tag == "details"


def test_report_is_one_self_contained_page(runs):
    (out, _), tasks = runs
    text = (out / "report.html").read_text(encoding="utf-8")
    page = _Collector()
    page.feed(text)
    assert {
        "headline",
        "inputs",
        "corpus",
        "accuracy",
        "paired",
        "regression",
        "series",
        "figures",
        "beyond",
        "tasks",
    } <= (page.ids)
    assert page.scripts == [("script", {})]  # the task browser's one inline script: nothing is fetched
    assert all(r.startswith(("data:image/svg+xml;base64,", "#")) for r in page.refs)
    assert sum(r.startswith("data:") for r in page.refs) == 1 + 2 * 3 + 1  # by-arm + 2 per study + taxonomy
    assert page.details >= len(tasks)
    assert all(t.task_id in text for t in tasks)
    assert "<script>alert" not in text and "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; co" in text
    assert "PIPELINE CHECK" in text and "oracle-check" in text


def test_missing_input_file_is_a_clear_error(tmp_path, capsys):
    code = _run(
        [
            "analyze",
            "--tasks",
            str(tmp_path / "none.jsonl"),
            "--grades",
            str(tmp_path / "g.jsonl"),
            "--out",
            str(tmp_path / "out"),
        ]
    )
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
