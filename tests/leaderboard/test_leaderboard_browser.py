"""leaderboard.html in headless Chromium: every section, no console errors, the figure loads, tables sort."""

from __future__ import annotations

import shutil

import pytest
from _leaderboard_runs import CONFIG

from execstate.leaderboard import write_leaderboard
from execstate.testing.browser import MISSING, chromium_installed, open_chromium

pytest.importorskip("selenium.webdriver", reason="selenium is in the [test] extra")
if not chromium_installed():
    pytest.skip(MISSING, allow_module_level=True)

SECTIONS = ["inputs", "leaderboard", "arms", "studies", "decrement", "pairwise", "cost", "budget"]
COLUMN = """return Array.from(document.querySelectorAll('#table-leaderboard + p + table tbody tr'))
  .map(function(r){return r.cells[arguments[0]].textContent;});"""


@pytest.fixture(scope="module")
def page(runs, tmp_path_factory):
    files = write_leaderboard(list(runs.dirs.values()), tmp_path_factory.mktemp("board-html"), CONFIG)
    profile = tmp_path_factory.mktemp("chromium-profile-leaderboard")
    driver = open_chromium(profile)
    driver.get(files.html.as_uri())
    yield driver, files
    driver.quit()
    shutil.rmtree(profile, ignore_errors=True)


def _column(driver, name: str) -> list[str]:
    headers = driver.execute_script(
        "return Array.from(document.querySelectorAll('#table-leaderboard + p + table thead th')).map(h => h.textContent);"
    )
    index = headers.index(name)
    return driver.execute_script(COLUMN.replace("arguments[0]", str(index)))


def _click(driver, name: str) -> None:
    from selenium.webdriver.common.by import By

    for th in driver.find_elements(By.CSS_SELECTOR, "#table-leaderboard + p + table thead th"):
        if th.text == name:
            th.click()
            return
    raise AssertionError(f"no header {name}")


def test_every_section_and_no_console_errors(page):
    driver, _ = page
    sections = driver.execute_script("return Array.from(document.querySelectorAll('section')).map(s => s.id);")
    assert sections == SECTIONS
    text = driver.execute_script("return document.getElementById('pairwise').innerText;")
    assert "Holm" in text and "strong-twin" in text
    problems = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert problems == []


def test_the_figure_loads(page):
    from selenium.webdriver.support.ui import WebDriverWait

    driver, _ = page
    script = "var i=document.querySelector('#cost figure img');return i.complete&&i.naturalWidth>0;"
    assert WebDriverWait(driver, 30, poll_frequency=0.05).until(lambda d: d.execute_script(script))


@pytest.mark.parametrize("column", ["setting", "acc_planned_pct", "cost", "rank"])
def test_the_leaderboard_sorts_by_any_column_both_ways(page, column):
    driver, files = page
    _click(driver, column)
    first = _column(driver, column)
    key = (lambda v: v) if column == "setting" else (lambda v: float("inf") if v == "-" else float(v))
    assert [key(v) for v in first] == sorted(key(v) for v in first)
    _click(driver, column)
    second = _column(driver, column)
    defined = [v for v in second if v != "-"]
    assert [key(v) for v in defined] == sorted((key(v) for v in defined), reverse=True)
    assert second[len(defined) :] == ["-"] * (len(second) - len(defined))  # undefined stays last
    assert sorted(second) == sorted(first) and len(first) == len(files.board.overall)
