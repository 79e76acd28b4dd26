"""`execstate analyze --view-link URL`: the report's accuracy tables link each row into the viewer's filtered list."""

from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).resolve().parent / "fixture"


def test_analyze_view_link_puts_a_filtered_link_on_each_accuracy_row(tmp_path):
    url = "http://127.0.0.1:8765/"
    command = [sys.executable, "-m", "execstate", "analyze", "--tasks", str(FIXTURE / "build" / "tasks.jsonl")]
    command += ["--grades", str(FIXTURE / "grades.jsonl"), "--out", str(tmp_path / "a"), "--view-link", url]
    command += ["--replicates", "20", "--permutations", "20"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "a" / "report.html").read_text(encoding="utf-8")
    links = [html.unescape(h) for h in re.findall(r'<a class="view-link" href="([^"]+)"', page)]
    assert links and all(h.startswith(url + "#") for h in links)
    assert any("arm=long-trace-final" in h and "setting=" in h for h in links)
    plain = subprocess.run(command[:-6] + command[-4:], capture_output=True, text=True, timeout=600)
    assert plain.returncode == 0, plain.stderr  # without the option: no link at all
    assert "view-link" not in (tmp_path / "a" / "report.html").read_text(encoding="utf-8")
