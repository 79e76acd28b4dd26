"""report.html in a real browser: headless Chromium (Debian's chromium and chromium-driver) through Selenium.

The report comes from a small real run made here: two example cases (four arms each, measured) and twelve
CRUXEval items (``sample_0`` .. ``sample_11``, no metrics), answered by the oracle and synthetic providers.
"""

from __future__ import annotations

import json
import re
import shutil
import time
from pathlib import Path

import pytest

from execstate.testing.browser import MISSING, chromium_installed, open_chromium

ROOT = Path(__file__).resolve().parents[2]
SECTIONS = ("headline", "inputs", "corpus", "accuracy", "paired", "regression", "series", "figures", "tasks")
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the [test] extra")
if not chromium_installed():
    pytest.skip(MISSING, allow_module_level=True)

VISIBLE_TASKS = """return Array.from(document.querySelectorAll('#task-browser details.task'))
  .filter(function(t){return !t.hidden && !t.closest('details.case').hidden;}).map(function(t){return t.id;});"""
CASE_ORDER = """return Array.from(document.querySelectorAll('#task-browser .cases > details.case'))
  .map(function(c){return c.dataset.id;});"""


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """(report.html, tasks, grades) of a small pipeline run."""
    from execstate.analyze import AnalysisConfig
    from execstate.builder import build
    from execstate.grade import grade_all
    from execstate.pipeline import PIPELINE_CHECK_SETTINGS
    from execstate.records import Response, read_jsonl
    from execstate.report import write_report
    from execstate.run import RESPONSES_NAME, run_tasks

    out = tmp_path_factory.mktemp("browser")
    built = build([ROOT / "examples" / "collatz", ROOT / "examples" / "nested_inner"], studies=["cruxeval"], jobs=2)
    crux = [t for t in built.tasks if t.study == "cruxeval" and int(t.case_id.rsplit("_", 1)[1]) < 12]
    tasks = [t for t in built.tasks if t.study != "cruxeval"] + crux
    assert len(crux) == 24 and len(tasks) == 32  # 12 CRUXEval items, each with its output and input task
    run_tasks(tasks, list(PIPELINE_CHECK_SETTINGS), out / "run", progress=False)
    responses = list(read_jsonl(out / "run" / RESPONSES_NAME, Response))
    grades = grade_all(tasks, responses, settings=[s.name for s in PIPELINE_CHECK_SETTINGS])
    files = write_report(tasks, grades, out / "report", AnalysisConfig(replicates=200, permutations=200))
    return files.report_html, tasks, grades


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = open_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()
    shutil.rmtree(tmp_path_factory.getbasetemp() / "chromium-profile0", ignore_errors=True)


@pytest.fixture(scope="module")
def page(report, browser):
    html, _, _ = report
    browser.get(html.as_uri())
    return browser


def choose(driver, kind: str, name: str, value: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.CSS_SELECTOR, f'#task-browser select[data-{kind}="{name}"]')).select_by_value(value)


def natural(text: str) -> list:
    """An independent natural order: digit runs compare by value."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in re.findall(r"\d+|\D+", text)]


def expected_visible(tasks, grades, study="", arm="", setting="", status="") -> list[str]:
    """The task ids the filters should leave visible, in the page's (natural case id) order."""
    cells: dict[str, list[tuple[str, str]]] = {}
    for g in grades:
        cells.setdefault(g.task_id, []).append((g.setting, g.status))

    def shown(t) -> bool:
        if (study and t.study != study) or (arm and t.arm != arm):
            return False
        return not (setting or status) or any(
            (not setting or s == setting) and (not status or st == status) for s, st in cells.get(t.task_id, [])
        )

    order = {c: i for i, c in enumerate(sorted({t.case_id for t in tasks}, key=natural))}
    from execstate.records import ARMS

    arm_rank = {a: i for i, a in enumerate(ARMS)}
    ordered = sorted(tasks, key=lambda t: (order[t.case_id], arm_rank.get(t.arm, len(ARMS))))
    return [f"task-{t.task_id}" for t in ordered if shown(t)]


def test_no_console_errors_and_every_section(page):
    sections = page.execute_script("return Array.from(document.querySelectorAll('section')).map(s => s.id);")
    assert set(SECTIONS) <= set(sections)
    assert sections[0] == "headline"  # the headline numbers come before every detail table
    nav = page.execute_script("return Array.from(document.querySelectorAll('nav a')).map(a => a.hash.slice(1));")
    assert nav == sections  # every link of the navigation leads to a section
    headline = page.execute_script("return document.getElementById('headline').innerText;")
    assert "Accuracy by setting and arm" in headline and "decrement" in headline
    assert "oracle-pipeline-check" in headline and "long-trace-final" in headline
    problems = [e for e in page.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert problems == []


def test_cruxeval_figures_are_left_out_with_the_reason(page):
    text = page.execute_script("return document.getElementById('figures').innerText;")
    assert "No state figures for cruxeval" in text and "no completed predictions" not in text
    ids = page.execute_script("return Array.from(document.querySelectorAll('#figures figure')).map(f => f.id);")
    assert "fig-accuracy_by_arm" in ids and "fig-error_vs_load_examples" in ids
    assert not [i for i in ids if "cruxeval" in i]


def test_a_figure_renders(page):
    deadline = time.monotonic() + 30
    script = (
        "return Array.from(document.querySelectorAll('#figures img'))"
        ".map(i => [i.complete, i.naturalWidth, i.naturalHeight]);"
    )
    while True:
        sizes = page.execute_script(script)
        if (sizes and all(c for c, _, _ in sizes)) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert len(sizes) >= 3
    assert all(complete and w > 0 and h > 0 for complete, w, h in sizes), sizes


def test_case_ids_sort_naturally_both_ways(page, report):
    _, tasks, _ = report
    order = page.execute_script(CASE_ORDER)
    assert order.index("cruxeval/sample_2") < order.index("cruxeval/sample_10")
    assert order == sorted({t.case_id for t in tasks}, key=natural)
    choose(page, "sort", "1", "id-desc")
    assert page.execute_script(CASE_ORDER) == order[::-1]
    choose(page, "sort", "1", "id")
    assert page.execute_script(CASE_ORDER) == order


@pytest.mark.parametrize(
    "filters",
    [
        {},
        {"study": "cruxeval"},
        {"study": "examples"},
        {"arm": "long-trace-final"},
        {"arm": "function-output"},
        {"setting": "synthetic-pipeline-check", "status": "wrong-valid"},
        {"setting": "oracle-pipeline-check", "status": "wrong-valid"},
        {"status": "correct-valid"},
        {"study": "examples", "arm": "inside-loop-state", "setting": "synthetic-pipeline-check"},
    ],
    ids=lambda f: ",".join(f"{k}={v}" for k, v in f.items()) or "none",
)
def test_the_task_browser_filters(page, report, filters):
    _, tasks, grades = report
    for name in ("study", "arm", "setting", "status"):
        choose(page, "filter", name, filters.get(name, ""))
    expected = expected_visible(tasks, grades, **filters)
    assert page.execute_script(VISIBLE_TASKS) == expected
    shown = page.execute_script("return document.querySelector('#task-browser .shown').textContent;")
    assert re.fullmatch(rf"{len(expected)} of {len(tasks)} tasks shown", shown)
    if filters == {"setting": "synthetic-pipeline-check", "status": "wrong-valid"}:
        assert expected, "the synthetic provider answered nothing wrong: this filter case tests nothing"
    if filters == {"setting": "oracle-pipeline-check", "status": "wrong-valid"}:
        assert expected == []


def test_the_page_is_self_contained(report):
    html, _, _ = report
    text = html.read_text(encoding="utf-8")
    assert not re.search(r"""(src|href)=["']https?:""", text)
    data = json.loads((html.parent / "analysis.json").read_text(encoding="utf-8"))
    assert data["figures"]["omitted_cruxeval"]["figure"] == "omitted"


def test_without_fresh_tasks_there_is_no_fresh_section(page, report):
    html, _, _ = report
    sections = page.execute_script("return Array.from(document.querySelectorAll('section')).map(s => s.id);")
    assert "fresh" not in sections
    assert not (html.parent / "tables" / "fresh").exists()
    assert not (html.parent / "figures" / "published_vs_fresh.svg").exists()
    assert "fresh" not in json.loads((html.parent / "analysis.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def fresh_report(tmp_path_factory):
    """(report.html, analysis.json's ``fresh``) of synthetic grades of published tasks and their fresh twins."""
    from execstate.analyze import AnalysisConfig
    from execstate.report import write_report
    from execstate.testing import fresh_copy, synthetic_grades, synthetic_tasks

    tasks = synthetic_tasks(2, (("classic", "python", 6),))
    tasks += [fresh_copy(t) for t in tasks]
    grades = synthetic_grades(tasks, 2, settings={"m-high": -0.5, "m-off": 1.0})
    out = tmp_path_factory.mktemp("fresh") / "report"
    files = write_report(tasks, grades, out, AnalysisConfig(replicates=200, permutations=200))
    fresh = json.loads(files.analysis_json.read_text(encoding="utf-8"))["fresh"]
    return files.report_html, fresh


def test_fresh_tasks_get_their_section_table_and_figure(browser, fresh_report, report):
    from selenium.webdriver.support.ui import WebDriverWait

    html, fresh = fresh_report
    browser.get(html.as_uri())
    try:
        sections = browser.execute_script("return Array.from(document.querySelectorAll('section')).map(s => s.id);")
        assert sections[-3:] == ["beyond", "fresh", "tasks"]
        nav = browser.execute_script("return Array.from(document.querySelectorAll('nav a')).map(a => a.hash.slice(1));")
        assert nav == sections
        rows = browser.execute_script(
            "return Array.from(document.querySelectorAll('#table-published_vs_fresh + p + table tbody tr'))"
            ".map(r => Array.from(r.cells).slice(0, 3).map(c => c.textContent));"
        )
        assert rows == [[r["setting"], r["arm"], str(r["pairs"])] for r in fresh["rows"]]
        assert len(rows) == 8  # two settings x four arms
        size = WebDriverWait(browser, 30).until(
            lambda d: d.execute_script(
                "var i=document.querySelector('#fresh #fig-published_vs_fresh img');"
                "return i && i.complete && i.naturalWidth > 0 ? [i.naturalWidth, i.naturalHeight] : null;"
            )
        )
        assert size[1] > 0
        assert [e for e in browser.get_log("browser") if e["level"] in ("SEVERE", "WARNING")] == []
        assert not re.search(r"""(src|href)=["']https?:""", html.read_text(encoding="utf-8"))
    finally:
        browser.get(report[0].as_uri())  # the other tests read the first report's page
