"""``execstate view`` on a large synthetic run, timed in headless Chromium (issue 55's targets).

    PYTHONPATH=src python benchmarks/viewer.py            # 100,000 cells
    PYTHONPATH=src python benchmarks/viewer.py --cells 200000
    PYTHONPATH=src python benchmarks/viewer.py --smoke    # 2,000 cells, one round (tests/test_benchmarks.py)

Writes a synthetic graded run (``execstate.testing.synthetic_run.write_synthetic_run``) into a temporary folder,
loads it into the view cache (timed: cold, then warm), serves it on 127.0.0.1 and opens the page in Chromium.
Measured in the browser by the page itself (``window.__esTimings``): the first page (navigation start to the
first list rendered: ``performance.now()``), each filter change (the ``change`` event to the list and counts
rendered, every request a DuckDB query on the server), and opening one cell. Prints each number and its ratio to
the target: first page under 2 s, a filter change under 300 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

FIRST_PAGE_TARGET_MS = 2000.0
FILTER_TARGET_MS = 300.0


def _wait(driver, after: int, timeout: float = 120.0) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout, poll_frequency=0.01).until(
        lambda d: d.execute_script(
            "return document.body.dataset.state === 'ready' && parseInt(document.body.dataset.renders || '0') > arguments[0];",
            after,
        )
    )


def _renders(driver) -> int:
    return int(driver.execute_script("return document.body.dataset.renders || '0';"))


def _choose(driver, facet: str, value: str) -> float:
    """Pick ``value`` in a filter menu; the page's own measure of the change, in ms."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    before = _renders(driver)
    Select(driver.find_element(By.CSS_SELECTOR, f'select[data-facet="{facet}"]')).select_by_value(value)
    _wait(driver, before)
    return float(driver.execute_script("return window.__esTimings.lastListMs;"))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cells", type=int, default=100_000, help="cells of the synthetic run (default %(default)s)")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the filter changes (default %(default)s)")
    parser.add_argument("--smoke", action="store_true", help="2,000 cells, one round")
    args = parser.parse_args()
    cells, rounds = (2_000, 1) if args.smoke else (args.cells, args.rounds)

    from execstate.testing.browser import MISSING, chromium_installed, open_chromium
    from execstate.testing.synthetic_run import write_synthetic_run
    from execstate.view import Viewer, start_server

    if not chromium_installed():
        print(f"viewer benchmark: {MISSING}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="execstate-view-bench-") as tmp:
        out = Path(tmp) / "run"
        t = time.perf_counter()
        write_synthetic_run(out, cells=cells, seed=0)
        print(f"synthetic run: {cells:,} cells written in {time.perf_counter() - t:.1f} s")
        t = time.perf_counter()
        Viewer([out]).close()
        cold = time.perf_counter() - t
        t = time.perf_counter()
        viewer = Viewer([out])
        warm = time.perf_counter() - t
        print(f"view cache: built (cold) in {cold:.2f} s; reopened (warm) in {warm:.3f} s; "
              f"{(out / '.execstate-view.duckdb').stat().st_size / 1e6:.1f} MB")  # fmt: skip
        server = start_server(viewer, port=0, background=True)
        driver = open_chromium(Path(tmp) / "profile")
        try:
            driver.set_window_size(1400, 1000)
            firsts = []
            for _ in range(rounds):
                driver.get("about:blank")
                driver.get(server.url)
                _wait(driver, 0)
                firsts.append(float(driver.execute_script("return window.__esTimings.firstListMs;")))
            facets = driver.execute_script(
                "var o = {}; document.querySelectorAll('select[data-facet]').forEach(function(s){"
                " o[s.dataset.facet] = Array.from(s.options).map(x => x.value).filter(Boolean); }); return o;"
            )
            changes = []
            for facet in ("arm", "grade", "setting", "study", "band", "kind", "category"):
                for value in facets.get(facet, [])[:2]:
                    changes.append((facet, value))
                changes.append((facet, ""))
            filter_ms = [_choose(driver, f, v) for _ in range(rounds) for f, v in changes]
            row = driver.execute_script("return document.querySelector('#cells tbody tr a');")
            before = _renders(driver)
            t = time.perf_counter()
            row.click()
            _wait(driver, before)
            cell_ms = (time.perf_counter() - t) * 1000
        finally:
            driver.quit()
            server.stop()
    first = statistics.median(firsts)
    print(f"first page: median {first:.0f} ms of {len(firsts)} loads (max {max(firsts):.0f}); "
          f"target {FIRST_PAGE_TARGET_MS:.0f} ms, ratio {first / FIRST_PAGE_TARGET_MS:.2f}")  # fmt: skip
    under = sum(ms < FILTER_TARGET_MS for ms in filter_ms)
    print(f"filter change: median {statistics.median(filter_ms):.0f} ms, max {max(filter_ms):.0f} ms over "
          f"{len(filter_ms)} changes ({under} under {FILTER_TARGET_MS:.0f} ms); ratio of the median "
          f"{statistics.median(filter_ms) / FILTER_TARGET_MS:.2f}, of the max {max(filter_ms) / FILTER_TARGET_MS:.2f}")  # fmt: skip
    print(f"open one cell: {cell_ms:.0f} ms (click to rendered, timed from the driver)")
    print(f"load average while measured: {' '.join(f'{x:.1f}' for x in os.getloadavg())} ({os.cpu_count()} CPUs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
