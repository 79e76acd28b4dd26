"""``build --ladder``: each case's inputs on a dial of counted trace lengths (docs/ladder.md).

Small on purpose: two classic programs on a narrow target range (built once for the module), one more build of
one of them for determinism, and a missing rung that needs no admission at all.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, Ladder, build, load_spec, rung_id, sized_generator
from execstate.builder._ladder import SIZE_MARKER
from execstate.cli._build import LADDER_DEFAULTS, ladder_of_args
from execstate.errors import UsageError
from execstate.records import task_kind, tasks_bytes
from execstate.studies import STUDIES

CLASSIC = STUDIES["classic"].cases_dir
assert CLASSIC is not None
STUDIES_DIR = CLASSIC.parent
LADDER = Ladder(low=256, high=512)
"""Two targets: 256 and 512 events."""


@pytest.fixture(scope="module")
def built():
    """The ladder of two classic programs whose generators reach both targets."""
    return build([CLASSIC / "kadane", CLASSIC / "insertion_sort"], jobs=2, ladder=LADDER)


def test_targets_run_from_low_to_high_by_the_ratio():
    assert Ladder().targets == [2**k for k in range(7, 22)]
    assert LADDER.targets == [256, 512]
    assert Ladder(low=100, high=1000, ratio=3).targets == [100, 300, 900]
    assert LADDER.within(205, 256) and LADDER.within(320, 256)
    assert not LADDER.within(204, 256) and not LADDER.within(321, 256)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"low": 0}, "1 <= low <= high"),
        ({"low": 512, "high": 256}, "1 <= low <= high"),
        ({"ratio": 1.0}, "ratio above 1"),
        ({"tolerance": 0.9}, "factor above 1"),
    ],
)
def test_a_ladder_that_cannot_be_built_is_refused_naming_the_fix(kwargs, message):
    with pytest.raises(UsageError, match=message):
        Ladder(**kwargs)


def test_every_rung_is_within_the_tolerance_of_its_target_with_its_record(built):
    assert not built.exclusions
    record = built.manifest.ladder
    assert record["targets"] == [256, 512] and record["tolerance"] == 1.25
    for case_id in ("classic/kadane", "classic/insertion_sort"):
        entry = record["cases"][case_id]
        assert [r["rung"] for r in entry["rungs"]] == [0, 1] and entry["missing"] == []
        tasks = [t for t in built.tasks if t.meta["ladder"]["of"] == case_id]
        assert [t.case_id for t in tasks] == [rung_id(case_id, k) for k in range(2)]
        for task in tasks:
            rung = task.meta["ladder"]
            assert set(rung) == {"rung", "target", "trace", "size", "seed", "of"}
            assert LADDER.within(rung["trace"], rung["target"])
            assert rung["trace"] == task.metrics.trace_length  # the count the task's own metrics have
            assert task.task_id == f"{case_id}~rung{rung['rung']}/long-trace-final"
            assert task.arm == "long-trace-final" and task_kind(task) == "ladder"
            assert task.meta["trace_short"] < rung["trace"]  # admitted against a shorter input (trace-order)
        seeds = {LADDER.case_seed(case_id, retry) for retry in range(4)}  # the search's, or a retry's
        assert all(t.meta["ladder"]["seed"] in seeds for t in tasks)


def test_the_same_ladder_twice_gives_byte_identical_tasks(built):
    again = build([CLASSIC / "kadane"], jobs=1, ladder=LADDER)
    first = [t for t in built.tasks if t.meta["ladder"]["of"] == "classic/kadane"]
    assert tasks_bytes(again.tasks) == tasks_bytes(first)


def test_a_target_no_size_reaches_is_a_missing_rung_with_the_nearest_traces():
    # prime_sieve's smallest input already runs far more than 16 events: the rungs are missing, not excluded
    result = build([CLASSIC / "prime_sieve"], ladder=Ladder(low=8, high=16))
    assert result.tasks == [] and result.exclusions == []
    entry = result.manifest.ladder["cases"]["classic/prime_sieve"]
    assert entry["rungs"] == [] and [m["target"] for m in entry["missing"]] == [8, 16]
    nearest = entry["missing"][0]["nearest"][0]
    assert nearest["size"] == 1 and nearest["trace"] > 16 * 1.25


def test_a_case_without_a_sized_generator_has_no_ladder_and_says_why():
    case = Path(__file__).parent / "cases" / "list_state"
    result = build([case], ladder=Ladder(low=256, high=512), options=BuildOptions())
    assert result.tasks == [] and result.exclusions == [] and result.manifest.cases_admitted == 0
    assert "no known generator with a size" in result.manifest.ladder["cases"]["tests/list_state"]["none"]


def test_every_classic_generator_has_the_size_interface():
    for folder in sorted(p for p in CLASSIC.iterdir() if (p / "case.toml").is_file()):
        text = (folder / "gen.py").read_text(encoding="utf-8")
        assert SIZE_MARKER in text, folder.name
        small = subprocess.run([sys.executable, "gen.py", "size", "3"], cwd=folder, capture_output=True, check=True)
        large = subprocess.run([sys.executable, "gen.py", "size", "30"], cwd=folder, capture_output=True, check=True)
        assert small.stdout and large.stdout != small.stdout, folder.name


def test_the_other_studies_sized_generators_are_recognized():
    contest = STUDIES_DIR / "codecontests_py" / "specs" / "1003_f_abbreviation_11357" / "case.toml"  # synthesized
    found = sized_generator(load_spec(contest))
    assert not isinstance(found, str) and found.interface == "seed-size"
    assert found.recipe(64, 7).args == ("7", "64")
    bench = load_spec(STUDIES_DIR / "pyperformance" / "specs" / "nbody" / "case.toml")
    found = sized_generator(bench)
    assert not isinstance(found, str) and found.name == "gen.py" and found.interface == "seed-size"
    classic = sized_generator(load_spec(CLASSIC / "heapsort" / "case.toml"))
    assert not isinstance(classic, str) and classic.recipe(5, 9).args == ("size", "5")
    assert classic.recipe(5, 9).env == (("EXECSTATE_SEED", "9"),)


def _args(**given) -> argparse.Namespace:
    base = {f"ladder_{k}": v for k, v in LADDER_DEFAULTS.items()}
    base.update(ladder=False, ladder_state=False, fresh=None, variants=(), add_arms=())
    base.update(given)
    return argparse.Namespace(**base)


def test_the_command_line_options_make_the_ladder_and_refuse_what_does_not_combine():
    assert ladder_of_args(_args()) is None
    made = ladder_of_args(_args(ladder=True, ladder_high=4096, ladder_state=True))
    assert made == Ladder(high=4096, state_arms=True)
    with pytest.raises(UsageError, match="need --ladder"):
        ladder_of_args(_args(ladder_low=64))
    with pytest.raises(UsageError, match="leave out --fresh"):
        ladder_of_args(_args(ladder=True, fresh="seed"))


def test_the_state_arms_are_posed_on_every_rung_on_request():
    result = build([CLASSIC / "kadane"], ladder=Ladder(low=512, high=512, state_arms=True))
    assert [t.task_id for t in result.tasks] == [
        f"classic/kadane~rung0/{arm}" for arm in ("long-trace-final", "inside-loop-state", "post-loop-state")
    ]
    assert len({t.input for t in result.tasks}) == 1  # all three on the rung's input


def test_the_classic_generators_reach_the_low_rungs_above_their_fixed_cost():
    # bellman_ford's path listed last edge first (every round but the last relaxes, the middle one included),
    # bfs_maze's two-cell corridor and sandpile's 1 x 2 table: inputs of a few hundred events whose checkpoint loop
    # runs twice with a changing state, compared against the generators' size-0 input (docs/ladder.md, Counts)
    cases = ("bellman_ford", "bfs_maze", "sandpile")
    result = build([CLASSIC / name for name in cases], jobs=2, ladder=Ladder(low=512, high=512))
    assert not result.exclusions
    for name in cases:
        entry = result.manifest.ladder["cases"][f"classic/{name}"]
        assert [r["rung"] for r in entry["rungs"]] == [0], (name, entry["missing"])
        assert entry["rungs"][0]["size"] <= 2  # the generator's smallest sizes, not a size found by luck
