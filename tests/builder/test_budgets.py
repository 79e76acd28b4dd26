"""A case over a counted budget is excluded naming the budget, alike under any CPU limit, and admitted once the
budget is raised (from the library and from the command line)."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from execstate.builder import BuildOptions, build, build_case, load_spec
from execstate.cli import main
from execstate.sandbox import Limits

# its state at every line is a list that grows to n instances: the walk costs about n^2 / 2 objects
PROGRAM = """\
class Item:
    def __init__(self, value):
        self.value = value

n = int(input())
items = []
total = 0
for i in range(n):
    items.append(Item(i))
    total += i
print(total)
"""


def _case(root: Path) -> Path:
    folder = root / "grows"
    folder.mkdir()
    (folder / "main.py").write_text(PROGRAM)
    (folder / "short.txt").write_text("3\n")
    (folder / "long.txt").write_text("600\n")
    (folder / "case.toml").write_text(
        'id = "budgets/grows"\nstudy = "budgets"\nlanguage = "python"\nprogram = "main.py"\nshort_input = "short.txt"\n'
        'long_input = "long.txt"\n\n[checkpoint]\nloop_text = "for i in range(n):"\nvariables = ["total", "i"]\n'
    )
    return folder


def test_a_case_over_the_object_budget_is_excluded_alike_under_a_generous_and_a_tight_cpu_limit(tmp_path):
    spec = load_spec(_case(tmp_path) / "case.toml")
    reasons = []
    for cpu in (60.0, 2.0):
        # each measured afresh under its own limits: a case built alone has a memo of its own
        opts = BuildOptions(limits=Limits(wall_s=cpu, cpu_s=cpu), measure_factor=1.0, object_budget=50_000)
        got = build_case(spec, opts)
        assert not isinstance(got, list), "the case fits the budget: the test measures nothing"
        reasons.append((got.check, got.reason))
    assert reasons[0] == reasons[1]
    check, reason = reasons[0]
    assert check == "budget"
    assert "over the state-object budget of 50000" in reason and "--object-budget" in reason


def test_raising_the_budget_admits_the_case(tmp_path):
    spec = load_spec(_case(tmp_path) / "case.toml")
    assert not isinstance(build_case(spec, BuildOptions(object_budget=50_000)), list)
    tasks = build_case(spec, replace(BuildOptions(), object_budget=10_000_000))
    assert isinstance(tasks, list) and len(tasks) == 4


def _built(out: Path) -> tuple[list[str], list[dict]]:
    tasks = [json.loads(line)["task_id"] for line in (out / "tasks.jsonl").read_text().splitlines()]
    excluded = [json.loads(line) for line in (out / "excluded.jsonl").read_text().splitlines()]
    return tasks, excluded


def test_the_command_line_sets_the_budget_and_names_it(tmp_path):
    folder = _case(tmp_path)
    main(["build", str(folder), "--out", str(tmp_path / "tight"), "--object-budget", "50000"])
    tasks, excluded = _built(tmp_path / "tight")
    assert tasks == [] and [e["check"] for e in excluded] == ["budget"]
    assert "state-object budget of 50000" in excluded[0]["reason"]
    main(["build", str(folder), "--out", str(tmp_path / "raised"), "--object-budget", "10_000_000"])
    tasks, excluded = _built(tmp_path / "raised")
    assert len(tasks) == 4 and excluded == []
    main(["build", str(folder), "--out", str(tmp_path / "off"), "--object-budget", "none"])
    assert len(_built(tmp_path / "off")[0]) == 4


def test_build_options_refuse_a_budget_that_is_not_positive():
    import pytest

    from execstate.errors import UsageError

    with pytest.raises(UsageError, match="object_budget"):
        BuildOptions(object_budget=0)
    assert BuildOptions(trace_budget=None).budget().trace_events is None


def test_the_default_budgets_leave_the_small_case_admitted(tmp_path):
    result = build([_case(tmp_path)], jobs=1)
    assert result.exclusions == [] and len(result.tasks) == 4
