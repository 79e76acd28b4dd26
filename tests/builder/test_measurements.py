"""Measurements are remembered within a process: a second build of the same case measures nothing again."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build_case, forget_measurements, load_spec
from execstate.builder._measurements import STATS, measure_once, measurement_key
from execstate.languages.python.language import PythonLanguage

CASE = Path(__file__).parent / "cases" / "list_state" / "case.toml"


@pytest.fixture(autouse=True)
def _fresh_table():
    forget_measurements()
    yield
    forget_measurements()


def test_a_second_build_of_a_case_takes_every_measurement_from_the_table_and_gives_the_same_tasks():
    spec = load_spec(CASE)
    first = build_case(spec, BuildOptions())
    assert isinstance(first, list)
    runs = STATS.runs
    assert runs >= 8 and STATS.hits == 0  # 3 + 3 trace measurements, the short final arm, one run for the long arms
    second = build_case(spec, BuildOptions())
    assert STATS.runs == runs and STATS.hits == runs
    assert [t.to_json_line() for t in second] == [t.to_json_line() for t in first]


def test_other_limits_or_another_input_are_other_measurements():
    lang = PythonLanguage()
    source = "n = int(input())\nfor i in range(n):\n    pass\nprint(n)\n"
    keys = {
        measurement_key(lang, source, b"3\n", None, False, 0),
        measurement_key(lang, source, b"4\n", None, False, 0),
        measurement_key(replace(lang, measure_factor=7.0), source, b"3\n", None, False, 0),
        measurement_key(lang, source, b"3\n", None, True, 0),
        measurement_key(lang, source, b"3\n", None, False, 1),
        measurement_key(lang, source + "\n", b"3\n", None, False, 0),
    }
    assert len(keys) == 6
    a = measure_once(lang, source, b"3\n", None, state=False)
    b = measure_once(lang, source, b"30\n", None, state=False)
    assert a.trace_length is not None and b.trace_length is not None and b.trace_length > a.trace_length
    assert (STATS.runs, STATS.hits) == (2, 0)
    assert measure_once(lang, source, b"3\n", None, state=False) == a
    assert (STATS.runs, STATS.hits) == (2, 1)


def test_a_failed_measurement_is_not_remembered():
    lang = PythonLanguage()
    source = "raise SystemExit(3)\n"
    assert not measure_once(lang, source, b"", None, state=False).ok
    assert not measure_once(lang, source, b"", None, state=False).ok
    assert (STATS.runs, STATS.hits) == (2, 0)


def test_a_program_that_runs_out_of_cpu_time_on_an_input_is_run_once_whatever_the_checkpoint():
    from execstate.builder._measurements import measure_checkpoints_once
    from execstate.languages._protocol import Endpoint
    from execstate.sandbox import Limits

    # the CPU limit ends the endless loop; the wall clock is generous so a loaded machine cannot reach it first
    lang = PythonLanguage(limits=Limits(wall_s=60, cpu_s=0.5), measure_factor=1.0)
    source = "n = int(input())\nt = 0\nfor i in range(n):\n    t += i\nwhile True:\n    t += 1\n"

    def ends(k):
        inst = {m: lang.instrument(source, 3, ("t",), m, k) for m in ("inside", "post")}
        return tuple(Endpoint(3, ("t",), m, k, inst[m]) for m in ("inside", "post"))

    first = measure_checkpoints_once(lang, source, b"10\n", Endpoint(3, ("t",)), ends(3))
    assert first is not None and first[0].status == "timeout" and "CPU limit" in first[0].detail
    assert (STATS.runs, STATS.hits) == (1, 0)
    again = measure_checkpoints_once(lang, source, b"10\n", Endpoint(3, ("t",)), ends(5))
    assert again is not None and again[0] is first[0] and [m.status for m in again[1]] == ["timeout", "timeout"]
    assert (STATS.runs, STATS.hits) == (1, 1)
    other_input = measure_checkpoints_once(lang, source, b"11\n", Endpoint(3, ("t",)), ends(5))
    assert other_input is not None and other_input[0].status == "timeout"
    assert (STATS.runs, STATS.hits) == (2, 1)
