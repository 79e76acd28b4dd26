"""Measurements are remembered within their owner's memo: a second build of a case with the same memo measures
nothing again, and two builds in one process never share one."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, Measurements, build, build_case, load_spec
from execstate.builder import _build as build_module
from execstate.builder._measurements import measurement_key
from execstate.languages.python.language import PythonLanguage

CASE = Path(__file__).parent / "cases" / "list_state" / "case.toml"


@pytest.fixture
def memo() -> Measurements:
    return Measurements()


def test_a_second_build_of_a_case_with_the_same_memo_takes_every_measurement_from_it_and_gives_the_same_tasks(memo):
    spec = load_spec(CASE)
    first = build_case(spec, BuildOptions(), memo=memo)
    assert isinstance(first, list)
    runs = memo.stats.runs
    assert runs >= 8 and memo.stats.hits == 0  # 3 + 3 trace measurements, the short final arm, one for the long arms
    second = build_case(spec, BuildOptions(), memo=memo)
    assert memo.stats.runs == runs and memo.stats.hits == runs
    assert [t.to_json_line() for t in second] == [t.to_json_line() for t in first]
    alone = Measurements()
    assert [t.to_json_line() for t in build_case(spec, BuildOptions(), memo=alone)] == [t.to_json_line() for t in first]
    assert (alone.stats.runs, alone.stats.hits) == (runs, 0)  # another memo remembers nothing of this one


def test_two_builds_in_one_process_each_own_a_memo_that_is_closed_at_their_end(monkeypatch):
    made: list[Measurements] = []

    class Recorded(Measurements):
        def __init__(self) -> None:
            super().__init__()
            made.append(self)

    monkeypatch.setattr(build_module, "Measurements", Recorded)
    first = build([CASE])
    second = build([CASE])
    assert [t.to_json_line() for t in second.tasks] == [t.to_json_line() for t in first.tasks]
    assert len(made) == 2 and made[0] is not made[1]
    assert made[0].stats.runs >= 8 and made[1].stats.runs == made[0].stats.runs  # the second measured afresh
    assert made[1].stats.hits == made[0].stats.hits
    assert len(made[0]) == len(made[1]) == 0  # closed: nothing kept after the build


def test_a_build_given_a_callers_memo_leaves_it_open_for_the_next_build_of_the_same_case():
    """The pipeline's way: its main build and its variants build share one memo, so the originals measured by the
    first are not measured again by the second."""
    mine = Measurements(max_entries=64)
    first = build([CASE], memo=mine)
    runs = mine.stats.runs
    assert runs >= 8 and len(mine) > 0  # left open: its measurements are still there
    second = build([CASE], memo=mine)
    assert mine.stats.runs == runs and mine.stats.hits >= runs  # every measurement came from the memo
    assert [t.to_json_line() for t in second.tasks] == [t.to_json_line() for t in first.tasks]
    mine.close()
    assert len(mine) == 0


def test_a_memo_keeps_at_most_its_max_entries_least_recently_used_first_out():
    lang = PythonLanguage()
    small = Measurements(max_entries=2)
    for n in (1, 2, 3):
        small.measure_once(lang, f"print({n})\n", b"", None, state=False)
    assert len(small) == 2 and small.stats.runs == 3
    small.measure_once(lang, "print(3)\n", b"", None, state=False)  # kept
    small.measure_once(lang, "print(1)\n", b"", None, state=False)  # dropped first: measured again
    assert (small.stats.runs, small.stats.hits) == (4, 1)
    assert pickle.loads(pickle.dumps(small)).max_entries == 2
    with pytest.raises(ValueError, match="at least one"):
        Measurements(max_entries=0)


def test_a_memo_sent_to_another_process_arrives_empty(memo):
    lang = PythonLanguage()
    memo.measure_once(lang, "print(1)\n", b"", None, state=False)
    assert len(memo) == 1
    copy = pickle.loads(pickle.dumps(memo))
    assert isinstance(copy, Measurements) and len(copy) == 0 and copy.stats.runs == 0


def test_a_memos_tables_pickled_and_restored_give_a_later_build_every_measurement():
    """How a measurement memo crosses a process boundary on purpose (the test session's classic build hands its
    memo to the variants build in another worker): ``tables()`` pickled, ``with_tables`` restored."""
    first_memo = Measurements(max_entries=64)
    first = build([CASE], memo=first_memo)
    runs = first_memo.stats.runs
    restored = Measurements.with_tables(pickle.loads(pickle.dumps(first_memo.tables())), max_entries=64)
    assert len(restored) == len(first_memo) > 0 and restored.stats.runs == 0
    second = build([CASE], memo=restored)
    assert restored.stats.runs == 0 and restored.stats.hits >= runs  # nothing measured again
    assert [t.to_json_line() for t in second.tasks] == [t.to_json_line() for t in first.tasks]
    small = Measurements.with_tables(first_memo.tables(), max_entries=2)  # the bound holds on restoring too
    assert len(small) <= 2 * 3


def test_other_limits_or_another_input_are_other_measurements(memo):
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
    a = memo.measure_once(lang, source, b"3\n", None, state=False)
    b = memo.measure_once(lang, source, b"30\n", None, state=False)
    assert a.trace_length is not None and b.trace_length is not None and b.trace_length > a.trace_length
    assert (memo.stats.runs, memo.stats.hits) == (2, 0)
    assert memo.measure_once(lang, source, b"3\n", None, state=False) == a
    assert (memo.stats.runs, memo.stats.hits) == (2, 1)


def test_a_failed_measurement_is_not_remembered(memo):
    lang = PythonLanguage()
    source = "raise SystemExit(3)\n"
    assert not memo.measure_once(lang, source, b"", None, state=False).ok
    assert not memo.measure_once(lang, source, b"", None, state=False).ok
    assert (memo.stats.runs, memo.stats.hits) == (2, 0)


def test_a_program_that_runs_out_of_cpu_time_on_an_input_is_run_once_whatever_the_checkpoint(memo):
    from execstate.languages._protocol import Endpoint
    from execstate.sandbox import Limits

    # the CPU limit ends the endless loop; the wall clock is generous so a loaded machine cannot reach it first
    lang = PythonLanguage(limits=Limits(wall_s=60, cpu_s=0.5), measure_factor=1.0)
    source = "n = int(input())\nt = 0\nfor i in range(n):\n    t += i\nwhile True:\n    t += 1\n"

    def ends(k):
        inst = {m: lang.instrument(source, 3, ("t",), m, k) for m in ("inside", "post")}
        return tuple(Endpoint(3, ("t",), m, k, inst[m]) for m in ("inside", "post"))

    first = memo.measure_checkpoints_once(lang, source, b"10\n", Endpoint(3, ("t",)), ends(3))
    assert first is not None and first[0].status == "timeout" and "CPU limit" in first[0].detail
    assert (memo.stats.runs, memo.stats.hits) == (1, 0)
    again = memo.measure_checkpoints_once(lang, source, b"10\n", Endpoint(3, ("t",)), ends(5))
    assert again is not None and again[0] is first[0] and [m.status for m in again[1]] == ["timeout", "timeout"]
    assert (memo.stats.runs, memo.stats.hits) == (1, 1)
    other_input = memo.measure_checkpoints_once(lang, source, b"11\n", Endpoint(3, ("t",)), ends(5))
    assert other_input is not None and other_input[0].status == "timeout"
    assert (memo.stats.runs, memo.stats.hits) == (2, 1)
