"""``execstate view`` in a real browser: headless Chromium (Debian's chromium and chromium-driver) through Selenium.

One server over two run folders (the fixture's graded run, a pipeline layout, and a hostile run in the ``run`` +
``grade`` layout), one browser. Every expectation is computed here from the records, not read from the viewer.

Screenshots for docs/view.md: ``EXECSTATE_VIEW_SCREENSHOTS=1 PYTHONPATH=src python -m pytest tests/view/test_view_browser.py``
writes ``docs/images/view-*.png``.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from execstate.testing.browser import MISSING, chromium_installed, open_chromium

ROOT = Path(__file__).resolve().parents[2]
webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is in the [test] extra")
if not chromium_installed():
    pytest.skip(MISSING, allow_module_level=True)

SHOTS = os.environ.get("EXECSTATE_VIEW_SCREENSHOTS", "") not in ("", "0")
HOSTILE_SOURCE = (
    'print("</script><script>window.__pwned = 1</script>")\n'
    '# <img src=x onerror="window.__pwned = 2"> <b>not bold</b>\n'
    "for i in range(2):\n"
    "    pass\n"
)
HOSTILE_INPUT = "</script><b>bold</b><script>window.__pwned = 3</script>\n"
HOSTILE_ANSWER = '{"output": "<img src=x onerror=\\"window.__pwned = 4\\"></script>"}'
HOSTILE_REASONING = "<script>window.__pwned = 5</script><h1>big</h1>&amp; javascript:alert(1)"


def write_hostile_run(out: Path) -> Path:
    """A ``run`` + ``grade`` folder (``tasks.jsonl``, ``responses.jsonl``, ``grades.jsonl``) of one task whose
    program, input, answer and reasoning are HTML and script."""
    from execstate.grade import grade_all
    from execstate.records import Metrics, Response, Task, write_jsonl

    task = Task(
        task_id="hostile/x/short-trace-final", case_id="hostile/x", study="hostile", language="python",
        arm="short-trace-final", source=HOSTILE_SOURCE, input=HOSTILE_INPUT,
        oracle="</script><script>window.__pwned=1</script>\n", answer_kind="text", grading_rule="bytes",
        source_sha256="0" * 64, metrics=Metrics(trace_length=7),
        meta={"loop_header": "for i in range(2):", "loop_line": 3, "variables": ["i"]},
    )  # fmt: skip
    response = Response(task_id=task.task_id, setting="evil", status="completed", text=HOSTILE_ANSWER,
                        reasoning=HOSTILE_REASONING, provider="replay", model="replay:x")  # fmt: skip
    out.mkdir(parents=True)
    write_jsonl(out / "tasks.jsonl", [task])
    write_jsonl(out / "responses.jsonl", [response])
    write_jsonl(out / "grades.jsonl", grade_all([task], [response], settings=["evil"]))
    return out


@pytest.fixture(scope="module")
def records(fixture_run):
    from execstate.records import Grade, Task, read_jsonl

    tasks = {t.task_id: t for t in read_jsonl(fixture_run / "build" / "tasks.jsonl", Task)}
    grades = list(read_jsonl(fixture_run / "grades.jsonl", Grade))
    return tasks, grades


@pytest.fixture(scope="module")
def server(fixture_run, tmp_path_factory):
    from execstate.view import Viewer, start_server

    hostile = write_hostile_run(tmp_path_factory.mktemp("hostile") / "hostile-run")
    srv = start_server(Viewer([fixture_run, hostile]), port=0, background=True)
    yield srv
    srv.stop()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    profile = tmp_path_factory.mktemp("chromium-profile")
    driver = open_chromium(profile)
    driver.set_window_size(1500, 1000)
    yield driver
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def wait_ready(driver, after: int = -1, timeout: float = 30.0) -> int:
    """Wait until the page has rendered more than ``after`` times and is not loading; return its render count."""
    from selenium.webdriver.support.ui import WebDriverWait

    def ready(d):
        state = d.execute_script("return [document.body.dataset.state, document.body.dataset.renders || '0'];")
        return int(state[1]) if state[0] in ("ready", "error") and int(state[1]) > after else False

    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(ready)


def renders(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.renders || '0';"))


def go(driver, url: str) -> None:
    driver.get("about:blank")
    driver.get(url)
    wait_ready(driver)


def text(driver, css: str) -> str:
    return driver.execute_script("var e = document.querySelector(arguments[0]); return e ? e.textContent : null;", css)


def program_text(driver, css: str = "pre.program") -> str:
    """The program as the cell view shows it, line numbers left out."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0] + ' .line')).map(function(l){"
        " return Array.from(l.childNodes).filter(n => !(n.classList && n.classList.contains('ln')))"
        ".map(n => n.textContent).join(''); }).join('\\n');",
        css,
    )


def option_counts(driver, facet: str) -> dict[str, int]:
    return driver.execute_script(
        "var out = {}; document.querySelectorAll('select[data-facet=' + arguments[0] + '] option').forEach("
        "function(o){ if (o.value) out[o.value] = parseInt(o.dataset.count, 10); }); return out;",
        facet,
    )


def total(driver) -> int:
    return int(driver.execute_script("return document.getElementById('total').dataset.total;"))


def group(status: str, reason: str | None) -> str:
    if status.startswith("correct"):
        return "right"
    if status == "no-response":
        return "no-response"
    return "seed-dependent" if (reason or "").startswith("seed-dependent") else "wrong"


def cell_index(grades, task_id: str, setting: str, sample: int = 0) -> int:
    """The viewer names a cell by its line in grades.jsonl (0-based)."""
    return next(i for i, g in enumerate(grades) if (g.task_id, g.setting, g.sample) == (task_id, setting, sample))


def console_problems(driver) -> list:
    return [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]


def test_filters_and_counts(server, browser, records):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    tasks, grades = records
    go(browser, server.url + "#run=0&arm=loop-trace")
    loop = [g for g in grades if tasks[g.task_id].arm == "loop-trace"]
    assert total(browser) == len(loop) > 0
    want = {}
    for g in loop:
        want[group(g.status, g.reason)] = want.get(group(g.status, g.reason), 0) + 1
    assert {k: v for k, v in option_counts(browser, "grade").items() if v} == want
    arms = {}
    for g in grades:
        arms[tasks[g.task_id].arm] = arms.get(tasks[g.task_id].arm, 0) + 1
    assert {k: v for k, v in option_counts(browser, "arm").items() if v} == arms  # counts ignore their own filter
    before = renders(browser)
    Select(browser.find_element(By.CSS_SELECTOR, 'select[data-facet="grade"]')).select_by_value("wrong")
    wait_ready(browser, before)
    shown = browser.execute_script(
        "return Array.from(document.querySelectorAll('#cells tbody tr')).map(r => r.dataset.task);"
    )
    assert total(browser) == want["wrong"] == len(shown)
    assert all(tasks[t].arm == "loop-trace" for t in shown)
    assert "grade=wrong" in browser.current_url and "arm=loop-trace" in browser.current_url
    if SHOTS:
        browser.save_screenshot(str(ROOT / "docs" / "images" / "view-list.png"))
    assert console_problems(browser) == []


def test_one_cell_of_every_arm(server, browser, records):
    from execstate.arms import arm_spec

    tasks, grades = records
    arms = sorted({t.arm for t in tasks.values()})
    assert len(arms) == 9  # every built-in arm is in the fixture
    for arm in arms:
        g = next(g for g in grades if tasks[g.task_id].arm == arm)
        task = tasks[g.task_id]
        go(browser, f"{server.url}#cell=0:{cell_index(grades, g.task_id, g.setting, g.sample)}")
        assert text(browser, "#cell-title") == f"{task.task_id} · {g.setting} · sample {g.sample}"
        assert program_text(browser) == task.source
        assert text(browser, "pre.input") == task.input
        assert text(browser, "#grade-status").startswith(g.status)
        system = text(browser, "pre.prompt-system")
        assert task.source in system  # the prompt exactly as sent holds the program
        if arm_spec(arm).family in ("state", "trace"):
            loop = text(browser, "pre.program .line.loop")
            assert loop is not None and task.meta["loop_header"] in loop
            assert browser.find_elements("css selector", "pre.program mark.var")
    assert console_problems(browser) == []


def test_loop_trace_first_wrong_step_and_true_trace(server, browser, records):
    from selenium.webdriver.support.ui import WebDriverWait

    tasks, grades = records
    g = next(g for g in grades if tasks[g.task_id].arm == "loop-trace" and g.steps and "0" in g.steps)
    go(browser, f"{server.url}#cell=0:{cell_index(grades, g.task_id, g.setting, g.sample)}")
    first = g.steps.index("0")
    marked = browser.execute_script(
        "return Array.from(document.querySelectorAll('table.compare tr.first')).map(r => r.cells[0].textContent);"
    )
    assert marked == [str(first)]
    assert f"First wrong step: {first}" in text(browser, "p.first-wrong")
    browser.find_element("id", "record-trace").click()
    WebDriverWait(browser, 60, poll_frequency=0.05).until(lambda d: d.find_elements("id", "true-trace"))
    rows = browser.execute_script(
        "return Array.from(document.querySelectorAll('#true-trace tbody tr[data-iteration]'))"
        ".filter(r => r.dataset.iteration !== '').map(r => [r.dataset.iteration, r.cells[3].textContent, r.cells[5].textContent]);"
    )
    claimed = json.loads(g.answer)
    oracle = json.loads(tasks[g.task_id].oracle)
    assert len(rows) >= len(oracle)
    for iteration, variables, claim in rows[: len(oracle)]:
        i = int(iteration)
        assert claim == json.dumps(claimed[i], separators=(",", ":")) if i < len(claimed) else claim == ""
        # the true trace's projected values at the top of iteration i are the oracle's state i
        assert variables == ", ".join(f"{k}={v!r}" for k, v in oracle[i].items())
    if SHOTS:
        browser.execute_script("document.querySelector('#cell section.part:nth-of-type(2)').scrollIntoView();")
        browser.save_screenshot(str(ROOT / "docs" / "images" / "view-answer.png"))
        browser.execute_script("document.getElementById('true-trace').scrollIntoView();")
        browser.save_screenshot(str(ROOT / "docs" / "images" / "view-trace.png"))


def test_a_line_count(server, browser, records):
    tasks, grades = records
    g = next(g for g in grades if tasks[g.task_id].arm == "line-count")
    info = tasks[g.task_id].meta["line_count"]
    go(browser, f"{server.url}#cell=0:{cell_index(grades, g.task_id, g.setting, g.sample)}")
    assert info["text"] in text(browser, "pre.program .line.counted")
    numbers = browser.execute_script(
        "var o = {}; document.querySelectorAll('dl.kv dt').forEach(function(dt){ o[dt.textContent] = dt.nextSibling.textContent; }); return o;"
    )
    assert numbers["true count"] == str(info["taken"]) and numbers["answered"] == (g.answer or "")
    assert numbers["condition evaluated"] == str(info["evaluated"])


def test_a_variant_beside_its_original(server, browser, records):
    tasks, grades = records
    g = next(g for g in grades if "variant_of" in tasks[g.task_id].meta and tasks[g.task_id].arm == "short-trace-final")
    variant = tasks[g.task_id]
    original = tasks[f"{variant.meta['variant_of']}/{variant.arm}"]
    go(browser, f"{server.url}#cell=0:{cell_index(grades, g.task_id, g.setting, g.sample)}")
    assert text(browser, "#original-note") == f"This task is a variant of {original.case_id}."
    assert text(browser, "pre.original-source") == original.source
    assert text(browser, "pre.this-source") == variant.source != original.source
    links = browser.execute_script(
        "return Array.from(document.querySelectorAll('#cell section:last-child a[data-goto]')).map(a => a.dataset.goto);"
    )
    assert f"0:{cell_index(grades, original.task_id, g.setting, g.sample)}" in links
    if SHOTS:
        browser.execute_script("document.getElementById('original-note').scrollIntoView();")
        browser.save_screenshot(str(ROOT / "docs" / "images" / "view-variant.png"))


def test_a_report_table_links_into_the_filtered_list(server, browser, records, tmp_path_factory):
    from execstate.analyze import AnalysisConfig
    from execstate.report import write_report

    tasks, grades = records
    files = write_report(list(tasks.values()), grades, tmp_path_factory.mktemp("report"),
                         AnalysisConfig(replicates=20, permutations=20), view_link=server.url)  # fmt: skip
    browser.get(files.report_html.as_uri())
    links = browser.execute_script(
        "return Array.from(document.querySelectorAll('#accuracy a.view-link')).map(a => a.href);"
    )
    target = next(h for h in links if "arm=long-trace-final" in h and "setting=synthetic-pipeline-check" in h)
    browser.execute_script(
        "Array.from(document.querySelectorAll('#accuracy a.view-link')).find(a => a.href === arguments[0]).click();",
        target,
    )
    wait_ready(browser)
    assert browser.current_url == target
    want = [g for g in grades if tasks[g.task_id].arm == "long-trace-final" and g.setting == "synthetic-pipeline-check"]
    assert total(browser) == len(want) > 0
    chosen = browser.execute_script(
        "return [document.querySelector('select[data-facet=arm]').value, document.querySelector('select[data-facet=setting]').value];"
    )
    assert chosen == ["long-trace-final", "synthetic-pipeline-check"]


def test_hostile_text_stays_text(server, browser):
    go(browser, f"{server.url}#run=1")
    assert total(browser) == 1
    browser.find_element("css selector", "#cells tbody tr a").click()
    wait_ready(browser, renders(browser) - 1)
    browser.find_element("id", "record-trace").click()  # the hostile program runs in the sandbox, not here
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 60, poll_frequency=0.05).until(lambda d: d.find_elements("id", "true-trace"))
    assert program_text(browser) == HOSTILE_SOURCE
    assert text(browser, "pre.input") == HOSTILE_INPUT
    assert text(browser, "pre.answer-text") == HOSTILE_ANSWER
    assert text(browser, "pre.reasoning") == HOSTILE_REASONING
    assert browser.execute_script("return window.__pwned;") is None
    injected = browser.execute_script(
        "return document.querySelectorAll('#cell img, #cell script, #cell h1, #cell b').length;"
    )
    assert injected == 0
    trace_output = text(browser, "#true-trace details pre")
    assert trace_output.startswith("</script><script>window.__pwned = 1</script>")


def test_the_static_export_opens_from_files(server, browser, records, tmp_path_factory):
    from execstate.view import write_static

    tasks, grades = records
    out = tmp_path_factory.mktemp("static") / "site"
    html = write_static(server.viewer, out)
    go(browser, html.as_uri() + "#run=0&arm=loop-trace")
    loop = [g for g in grades if tasks[g.task_id].arm == "loop-trace"]
    assert total(browser) == len(loop)
    before = renders(browser)
    browser.execute_script("location.hash = '#run=0&arm=line-count&grade=right';")
    wait_ready(browser, before)
    right = [g for g in grades if tasks[g.task_id].arm == "line-count" and g.status.startswith("correct")]
    assert total(browser) == len(right)
    g = right[0]
    before = renders(browser)
    browser.execute_script(f"location.hash = '#cell=0:{cell_index(grades, g.task_id, g.setting, g.sample)}';")
    wait_ready(browser, before)
    assert text(browser, "#cell-title") == f"{g.task_id} · {g.setting} · sample {g.sample}"
    assert text(browser, "pre.input") == tasks[g.task_id].input
    assert console_problems(browser) == []
