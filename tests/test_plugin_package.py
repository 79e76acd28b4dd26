"""An experiment is a plug-in: a package outside ``src/execstate`` (``tests/plugins/execstate_toy``) declares an
arm, an analysis section and a provider through its entry points, and the ``execstate`` command takes them through
build, run, grade, analyze and report, with no file of execstate naming any of them.

The package is found as an installed one is: its ``execstate_toy-0.1.dist-info`` folder on ``PYTHONPATH``
(``importlib.metadata`` reads its ``entry_points.txt``), in subprocesses running the real command line.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import execstate
from execstate.arms import ARM_REGISTRY
from execstate.records import Grade, Response, Task, read_jsonl

ROOT = Path(__file__).resolve().parents[1]
PLUGINS = Path(__file__).with_name("plugins")
SRC = Path(execstate.__file__).resolve().parent
ARM, SECTION, PROVIDER = "output-length", "output_length", "guess-length"
CASES = ("collatz", "nested_inner", "abc310_e")
SETTINGS = """\
[[setting]]
name = "synthetic-a"
provider = "synthetic"

[[setting]]
name = "synthetic-b"
provider = "synthetic"
synthetic_contamination = 1.0

[[setting]]
name = "guesser"
provider = "guess-length"
"""


def _execstate(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in (str(PLUGINS), os.environ.get("PYTHONPATH")) if p))
    done = subprocess.run(
        [sys.executable, "-m", "execstate", *args], capture_output=True, text=True, timeout=900, env=env, cwd=cwd
    )
    assert done.returncode == 0, f"execstate {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"
    return done


@pytest.fixture(scope="module", autouse=True)
def installed() -> Iterator[None]:
    """The package installed in this process too (its records name the plug-in arm, which reading checks)."""
    sys.path.insert(0, str(PLUGINS))
    ARM_REGISTRY.refresh()
    try:
        yield
    finally:
        sys.path.remove(str(PLUGINS))
        ARM_REGISTRY.refresh()


@pytest.fixture(scope="module")
def journey(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """build (asking for the plug-in arm) -> run (synthetic and the plug-in provider) -> grade -> analyze."""
    out = tmp_path_factory.mktemp("journey")
    _execstate("build", "--out", "build", "--add-arms", ARM, *(str(ROOT / "examples" / c) for c in CASES), cwd=out)
    (out / "settings.toml").write_text(SETTINGS, encoding="utf-8")
    _execstate("run", "--tasks", "build/tasks.jsonl", "--settings", "settings.toml", "--out", "run", cwd=out)
    _execstate("grade", "--run", "run", cwd=out)
    _execstate("analyze", "--run", "run", "--out", "report", "--replicates", "200", "--permutations", "200", cwd=out)
    return out


def test_the_plugin_arm_is_built_from_execution(journey: Path) -> None:
    tasks = list(read_jsonl(journey / "build" / "tasks.jsonl", Task))
    toy = [t for t in tasks if t.arm == ARM]
    assert len(toy) == len(CASES)
    for task in toy:
        short = next(t for t in tasks if t.case_id == task.case_id and t.arm == "short-trace-final")
        assert task.oracle == str(len(short.oracle)) and task.input == short.input and task.source == short.source
        assert task.grading_rule == "integer"  # the arm's default rule
    assert [t.arm for t in tasks if t.case_id == toy[0].case_id][-1] == ARM  # after the paper's four, by its order


def test_the_plugin_provider_answers_from_the_settings_file(journey: Path) -> None:
    responses = list(read_jsonl(journey / "run" / "responses.jsonl", Response))
    tasks = list(read_jsonl(journey / "build" / "tasks.jsonl", Task))
    mine = [r for r in responses if r.setting == "guesser"]
    assert len(mine) == len(tasks)
    assert {r.model for r in mine} == {"guess-length-1"} and all(r.status == "completed" for r in mine)


def test_the_plugin_arm_is_graded_and_the_section_reports_it(journey: Path) -> None:
    grades = list(read_jsonl(journey / "run" / "grades.jsonl", Grade))
    toy_grades = [g for g in grades if g.task_id.endswith("/" + ARM)]
    assert len(toy_grades) == 3 * len(CASES)
    analysis = json.loads((journey / "report" / "analysis.json").read_text(encoding="utf-8"))
    rows = {row["setting"]: row for row in analysis[SECTION]}
    assert set(rows) == {"synthetic-a", "synthetic-b", "guesser"}
    for setting, row in rows.items():
        right = sum(g.status in ("correct-valid", "correct-invalid") for g in toy_grades if g.setting == setting)
        assert row["cells"] == len(CASES) and row["right"] == right
    page = (journey / "report" / "report.html").read_text(encoding="utf-8")
    assert "Output length (a plug-in section)" in page and f"{len(toy_grades)} output-length cells graded" in page
    assert (journey / "report" / "tables" / SECTION / "output_length.csv").is_file()


def test_no_file_of_execstate_names_the_plugin() -> None:
    named = [
        p.relative_to(SRC).as_posix()
        for p in SRC.rglob("*.py")
        if any(word in p.read_text(encoding="utf-8") for word in (ARM, SECTION, PROVIDER, "execstate_toy"))
    ]
    assert named == []
