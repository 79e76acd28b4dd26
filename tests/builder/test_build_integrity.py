"""Runs of a case cannot reach each other, measurements must print what the task shows, and inputs are bounded.

Each case is written to a temporary folder and built in one batch per options.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build
from execstate.errors import UsageError
from execstate.languages import LANGUAGES, make_language
from execstate.languages.python import PythonLanguage
from execstate.sandbox import Limits

OPTS = BuildOptions(limits=Limits(wall_s=5, cpu_s=5, memory_mb=1024, output_bytes=4 * 1024 * 1024))

SUMS = """\
n = int(input())
total = 0
for i in range(n):
    total += i
print(total)
"""

# Plants a json.py (whose dumps forges every state) next to itself and in its working directory.
PLANTS_JSON = (
    """\
import os, sys
for folder in {sys.path[0], os.path.dirname(os.path.abspath(__file__)), os.getcwd()}:
    with open(os.path.join(folder, "json.py"), "w") as fh:
        fh.write("def dumps(*args, **kwargs):\\n    return '{\\"total\\": -1, \\"i\\": -1}'\\n")
"""
    + SUMS
)

# Counts its own runs in a file next to itself.
READS_BACK = """\
import os
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "runs.txt")
runs = int(open(path).read()) + 1 if os.path.exists(path) else 1
with open(path, "w") as fh:
    fh.write(str(runs))
n = int(input())
total = 0
for i in range(n):
    total += i
print(total, runs)
"""

# Prints whether it runs under the measuring probe (which runs it as plain "main.py").
MEASURED_DIFFERENTLY = """\
import os
n = int(input())
total = 0
for i in range(n):
    total += i
print(total, os.path.isabs(__file__))
"""

LIST_STATE = """\
n = int(input())
seen = []
for i in range(n):
    seen.append(i * i)
print(len(seen))
"""


def write_case(root: Path, name: str, main: str, *, long: str = "12\n", gen: str | None = None, **checkpoint) -> None:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "main.py").write_text(main)
    (folder / "short.txt").write_text("3\n")
    if gen is None:
        (folder / "long.txt").write_text(long)
        long_input = '"long.txt"'
    else:
        (folder / "gen.py").write_text(gen)
        long_input = '{ generator = "gen.py" }'
    loop_text = checkpoint.get("loop_text", "for i in range(n):")
    variables = json.dumps(checkpoint.get("variables", ["total", "i"]))
    (folder / "case.toml").write_text(
        f'id = "integrity/{name}"\nstudy = "integrity"\nlanguage = "python"\nprogram = "main.py"\n'
        f'short_input = "short.txt"\nlong_input = {long_input}\n\n'
        f"[checkpoint]\nloop_text = {json.dumps(loop_text)}\nvariables = {variables}\n"
    )


def built(root: Path, opts: BuildOptions = OPTS) -> tuple[dict, dict]:
    """Tasks by id and exclusions by case name."""
    result = build([root], jobs=2, options=opts)
    return {t.task_id: t for t in result.tasks}, {e.case_id.split("/")[1]: e for e in result.exclusions}


@pytest.fixture(scope="module")
def isolation_batch(tmp_path_factory):
    root = tmp_path_factory.mktemp("isolation")
    write_case(root, "plants_json", PLANTS_JSON)
    write_case(root, "reads_back", READS_BACK)
    write_case(root, "measured_differently", MEASURED_DIFFERENTLY)
    return built(root)


def test_a_planted_json_module_reaches_no_other_run_and_not_the_emitter(isolation_batch):
    tasks, excluded = isolation_batch
    assert "plants_json" not in excluded, excluded.get("plants_json")
    # n = 12: iteration k = 12 // 2 + 1 = 7 starts with i = 6 and total = 0+1+...+5
    assert tasks["integrity/plants_json/inside-loop-state"].oracle == '{"total":15,"i":6}\n'
    assert tasks["integrity/plants_json/post-loop-state"].oracle == '{"total":66,"i":11}\n'
    assert tasks["integrity/plants_json/long-trace-final"].oracle == "66\n"


def test_a_file_a_run_writes_is_gone_in_the_next_run(isolation_batch):
    tasks, excluded = isolation_batch
    assert "reads_back" not in excluded, excluded.get("reads_back")
    assert tasks["integrity/reads_back/short-trace-final"].oracle == "3 1\n"
    assert tasks["integrity/reads_back/long-trace-final"].oracle == "66 1\n"


def test_a_program_that_prints_differently_when_measured_is_excluded(isolation_batch):
    _, excluded = isolation_batch
    e = excluded["measured_differently"]
    assert e.check == "measurement"
    assert "behaves differently when measured" in e.reason and "'3 False\\n'" in e.reason


@dataclass(frozen=True)
class _StateMeasuredWrong(PythonLanguage):
    """Measures the state arms' programs with one extra byte of stdout."""

    def measure(self, source, stdin, endpoint, *, state):
        m = super().measure(source, stdin, endpoint, state=state)
        return replace(m, stdout=m.stdout + b"!") if endpoint is not None and endpoint.inst is not None else m


def test_a_state_arm_measured_with_other_stdout_is_excluded(tmp_path, request):
    """Measured arm by arm, the state arm's own run is checked."""
    wrong = replace(LANGUAGES["python"], adapter=lambda opts: _StateMeasuredWrong(opts.limits, opts.python))
    LANGUAGES.register("python", wrong, replace=True)
    request.addfinalizer(lambda: LANGUAGES.unregister("python"))
    write_case(tmp_path, "sums", SUMS)
    tasks, excluded = built(tmp_path, replace(OPTS, measure_arms_apart=True))
    assert not tasks
    assert excluded["sums"].check == "measurement"
    assert "measuring inside-loop-state printed" in excluded["sums"].reason
    assert "instrumented run's stdout" in excluded["sums"].reason


@dataclass(frozen=True)
class _OneRunMeasuredWrong(PythonLanguage):
    """The one run that measures the long input's arms prints one extra byte."""

    def measure_checkpoints(self, source, stdin, endpoints):
        got = super().measure_checkpoints(source, stdin, endpoints)
        assert got is not None
        return replace(got[0], stdout=got[0].stdout + b"!"), got[1]


def test_the_one_run_that_measures_the_state_arms_is_checked_like_the_final_run(tmp_path, request):
    """Measured in one run, the state arms' metrics are that run's: its stdout must be the clean run's."""
    wrong = replace(LANGUAGES["python"], adapter=lambda opts: _OneRunMeasuredWrong(opts.limits, opts.python))
    LANGUAGES.register("python", wrong, replace=True)
    request.addfinalizer(lambda: LANGUAGES.unregister("python"))
    write_case(tmp_path, "sums", SUMS)
    tasks, excluded = built(tmp_path)
    assert not tasks
    assert excluded["sums"].check == "measurement"
    assert "measuring long-trace-final printed" in excluded["sums"].reason
    assert "clean run's stdout" in excluded["sums"].reason


def test_inputs_and_checkpoints_over_their_maximum_are_excluded(tmp_path):
    write_case(tmp_path, "big_file", SUMS, long="12" + " " * 298 + "\n")
    write_case(tmp_path, "big_generator", SUMS, gen="print('12' + ' ' * 300)\n")
    write_case(tmp_path, "big_checkpoint", LIST_STATE, long="30\n", variables=["seen"])
    write_case(tmp_path, "small", LIST_STATE, long="6\n", variables=["seen"])
    tasks, excluded = built(tmp_path, replace(OPTS, max_input_bytes=100, max_checkpoint_bytes=60))
    assert set(excluded) == {"big_file", "big_generator", "big_checkpoint"}
    assert excluded["big_file"].check == "input-size"
    assert "long_input (file long.txt) is 301 bytes, more than max_input_bytes = 100" in excluded["big_file"].reason
    assert excluded["big_generator"].check == "input-size"
    assert "(output of generator gen.py) is 303 bytes" in excluded["big_generator"].reason
    assert excluded["big_checkpoint"].check == "checkpoint-size"
    assert "more than max_checkpoint_bytes = 60" in excluded["big_checkpoint"].reason
    assert len([t for t in tasks if t.startswith("integrity/small/")]) == 4


def test_the_build_limits_reach_its_measurements():
    limits = Limits(wall_s=4, cpu_s=3, memory_mb=512, output_bytes=1000, file_mb=2)
    lang = make_language("python", BuildOptions(limits=limits, measure_factor=2.5))
    assert isinstance(lang, PythonLanguage)
    # CPU time scales by the factor; the wall clock (a hang guard) is 3x that, so load cannot time it out
    assert lang.measure_limits() == Limits(wall_s=22.5, cpu_s=7.5, memory_mb=512, output_bytes=1000, file_mb=2)
    roomy = make_language("python", BuildOptions(limits=Limits(wall_s=100, cpu_s=1), measure_factor=2))
    assert (roomy.measure_limits().wall_s, roomy.measure_limits().cpu_s) == (200, 2)  # never below factor x wall
    default = make_language("python", BuildOptions())
    assert isinstance(default, PythonLanguage)
    assert (default.measure_limits().wall_s, default.measure_limits().cpu_s) == (600, 200)  # a safety net
    cpp = make_language("cpp", BuildOptions(limits=limits, measure_factor=2.5))
    assert cpp is not None and cpp.measure_limits() == lang.measure_limits()


@pytest.mark.parametrize("option", ["measure_factor", "max_input_bytes", "max_checkpoint_bytes"])
def test_build_options_must_be_positive(option):
    with pytest.raises(UsageError, match=f"BuildOptions.{option} must be positive.*Fix:"):
        BuildOptions(**{option: 0})
