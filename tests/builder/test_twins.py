"""Cross-language twins proven by the builder (docs/twins.md): an equal pair passes, a pair that differs is caught
with its first difference, in the states, the outputs or on fresh inputs only.

The fixture (tests/builder/twins/) is one Python case and three C++ twins of it: ``running_sum`` computes the same
thing under other names, ``state_off`` prints the same outputs from another state, ``fresh_off`` differs on fresh
inputs only (a value of 1000, which only a seeded input holds).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, Fresh, build
from execstate.builder._spec import load_spec
from execstate.builder._twins import (
    first_difference,
    pinned_fresh,
    read_twins,
    seed_difference,
    twin_links,
    unfollowed,
)
from execstate.errors import SpecError
from execstate.records import task_kind
from execstate.studies import Study, register_study, unregister_study

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
ROOT = Path(__file__).resolve().parent / "twins"
MAPPING = {"sum": "total", "best": "best"}


@pytest.fixture(scope="module")
def twin_study():
    """The fixture's C++ study registered with its twin file for the module."""
    register_study(Study("twincpp", ("cpp",), "json-or-tokens", "the twin fixture", twins=ROOT / "twins.toml"))
    yield
    unregister_study("twincpp")


@pytest.fixture(scope="module")
def built(twin_study):
    """One build of the original, its equal twin and its twin with another state."""
    return build([ROOT / "py", ROOT / "cpp" / "running_sum", ROOT / "cpp" / "state_off"], jobs=2)


def _tasks(result, case_id):
    return [t for t in result.tasks if t.case_id == case_id]


def test_an_equal_pair_is_proven_and_its_tasks_are_twins(built):
    assert built.exclusions == []
    assert built.manifest.twins is not None
    assert built.manifest.twins["proven"] == ["twincpp/running_sum"]
    assert built.manifest.twins["seeds"] == [1, 2, 3]
    twins = _tasks(built, "twincpp/running_sum")
    assert len(twins) == 4
    for task in twins:
        assert task.meta["twin_of"] == "twinpy/running_sum"
        assert task.meta["twin"] == {"proven": True, "variables": MAPPING}
        assert task_kind(task) == "twin"
    for task in _tasks(built, "twinpy/running_sum"):  # the original is untouched
        assert "twin_of" not in task.meta and "twin" not in task.meta and task_kind(task) == "published"


def test_a_pair_with_another_state_is_caught_with_its_first_difference(built):
    (record,) = built.manifest.twins["not_proven"]
    assert record["case_id"] == "twincpp/state_off" and record["twin_of"] == "twinpy/running_sum"
    # the outputs agree, so the first difference is the inside state (808 + the extra 1 in sum)
    assert record["difference"].startswith("inside-loop-state: state ")
    assert '"sum":809' in record["difference"] and '"total":808' in record["difference"]
    for task in _tasks(built, "twincpp/state_off"):
        assert task.meta["twin"]["proven"] is False and task.meta["twin"]["difference"] == record["difference"]
        assert task_kind(task) == "twin"


def test_first_difference_reads_outputs_inputs_and_iterations(built):
    original, twin = _tasks(built, "twinpy/running_sum"), _tasks(built, "twincpp/running_sum")
    assert first_difference(original, twin, MAPPING) is None
    short = next(t for t in twin if t.arm == "short-trace-final")
    wrong_output = [short.model_copy(update={"oracle": "9 9\n"}) if t is short else t for t in twin]
    assert (
        first_difference(original, wrong_output, MAPPING)
        == "short-trace-final: output '9 9\\n' vs the original's '8 8\\n'"
    )
    other_input = [short.model_copy(update={"input": "1\n5\n"}) if t is short else t for t in twin]
    assert "short-trace-final: the inputs differ" in str(first_difference(original, other_input, MAPPING))
    other_k = [t.model_copy(update={"meta": {**t.meta, "K": 41}}) for t in twin]
    assert first_difference(original, other_k, MAPPING) == "short-trace-final: the twin's K is 41, the original's 40"
    assert first_difference(original, twin[:3], MAPPING) == "post-loop-state: the twin has no such task"
    unmapped = first_difference(original, twin, {"best": "best"})
    assert unmapped is not None and "sum (not in the twin file)" in unmapped


def test_a_pair_that_differs_on_fresh_inputs_only_is_caught(twin_study):
    original = load_spec(ROOT / "py" / "running_sum" / "case.toml")
    equal, off = (load_spec(ROOT / "cpp" / name / "case.toml") for name in ("running_sum", "fresh_off"))
    assert seed_difference(original, equal, BuildOptions(), (1, 2)) is None
    found = seed_difference(original, off, BuildOptions(), (1, 2))
    assert found is not None and found.startswith("seed 1, short input: output ")
    assert twin_links([off])["twincpp/fresh_off"].twin_of == "twinpy/running_sum"


def test_a_broken_twin_file_names_the_table_and_the_fix(tmp_path):
    path = tmp_path / "twins.toml"
    path.write_text('[kadane]\ntwin_of = "classic/kadane"\n')
    with pytest.raises(SpecError, match=r"\[kadane\]: variables must name every projected variable. Fix: add"):
        read_twins(path, "classic_cpp")
    path.write_text('[kadane]\ntwin_of = "classic/kadane"\nspeed = 1\n[kadane.variables]\nbest = "best"\n')
    with pytest.raises(SpecError, match="unknown key"):
        read_twins(path, "classic_cpp")
    path.write_text('[kadane]\ntwin_of = "classic/kadane"\n[kadane.variables]\nbest_sum = "best"\n')
    assert read_twins(path, "classic_cpp")["classic_cpp/kadane"].mapping == {"best_sum": "best"}


def test_a_twin_draws_its_fresh_inputs_from_its_originals_seeds(built):
    plain, aliased = Fresh("a secret"), Fresh("a secret", aliases=(("twincpp/running_sum", "twinpy/running_sum"),))
    assert aliased.case_seed("twincpp/running_sum", 2) == plain.case_seed("twinpy/running_sum", 2)
    assert aliased.case_seed("twinpy/other", 2) == plain.case_seed("twinpy/other", 2)
    links = twin_links([load_spec(ROOT / "cpp" / "running_sum" / "case.toml")])
    on = lambda tasks, n: [t.model_copy(update={"meta": {**t.meta, "fresh": {"candidate": n}}}) for t in tasks]
    original, twin = _tasks(built, "twinpy/running_sum"), _tasks(built, "twincpp/running_sum")
    assert unfollowed({"twinpy/running_sum": on(original, 1), "twincpp/running_sum": on(twin, 1)}, links) == {}
    redo = unfollowed({"twinpy/running_sum": on(original, 1), "twincpp/running_sum": on(twin, 0)}, links)
    assert redo == {"twincpp/running_sum": 1}  # built on another candidate: rebuilt pinned to the original's
    assert unfollowed({"twinpy/running_sum": on(original, 3)}, links) == {"twincpp/running_sum": 3}  # none passed
    assert pinned_fresh(plain, redo).pinned == (("twincpp/running_sum", 1),)
