"""A ladder's object budgets follow its targets, and a rung a counted budget refuses is not retried (docs/ladder.md).

One cheap classic program (insertion_sort) on three targets, 256 to 1024 events, built twice under a tiny build
object budget (150 containers walked: below what its 1024-event rung walks): once with the budgets following the
targets (one container per target event), once with the build's budget on every rung (what ``--object-budget``
given on the command line asks for).
"""

from __future__ import annotations

import argparse

import pytest

from execstate.builder import BuildOptions, Ladder, build
from execstate.builder._checks import Excluded
from execstate.builder._ladder import OBJECTS_PER_EVENT, not_retried
from execstate.cli._build import BUDGETS, LADDER_DEFAULTS, LADDER_OBJECTS_PER_EVENT, ladder_of_args
from execstate.errors import UsageError
from execstate.studies import STUDIES

CLASSIC = STUDIES["classic"].cases_dir
assert CLASSIC is not None
CASE = "classic/insertion_sort"
TINY = BuildOptions(object_budget=150)
"""A build object budget the 256-event rung stays under and the 1024-event rung goes over."""
TARGETS = {"low": 256, "high": 1024}


@pytest.fixture(scope="module")
def following():
    """The ladder whose rungs' object budgets follow their targets: ``max(150, 1 x target)``."""
    return build([CLASSIC / "insertion_sort"], options=TINY, ladder=Ladder(**TARGETS, objects_per_event=1))


@pytest.fixture(scope="module")
def fixed():
    """The same ladder with the build's object budget (150) on every rung."""
    return build([CLASSIC / "insertion_sort"], options=TINY, ladder=Ladder(**TARGETS, objects_per_event=None))


def test_a_rungs_object_budget_is_its_target_times_the_rate_at_least_the_builds():
    ladder = Ladder()
    assert ladder.objects_per_event == OBJECTS_PER_EVENT == LADDER_OBJECTS_PER_EVENT == 2048
    assert ladder.object_budget(2**20, 200_000_000) == 2**31  # about 2.1 billion at the 2^20 rung
    assert ladder.object_budget(2**10, 200_000_000) == 200_000_000  # never below the build's
    assert ladder.object_budget(2**20, None) is None  # no budget stays none
    assert Ladder(objects_per_event=None).object_budget(2**20, 200_000_000) == 200_000_000
    assert ladder.record()["objects_per_event"] == 2048
    with pytest.raises(UsageError, match="objects per event"):
        Ladder(objects_per_event=0)


def _args(**given) -> argparse.Namespace:
    base = {f"ladder_{k}": v for k, v in LADDER_DEFAULTS.items()}
    base.update(ladder=True, ladder_state=False, fresh=None, variants=(), add_arms=())
    base.update(object_budget=BUDGETS["--object-budget"][0])
    base.update(given)
    return argparse.Namespace(**base)


def test_a_users_object_budget_wins_over_the_rule():
    assert ladder_of_args(_args()).objects_per_event == LADDER_OBJECTS_PER_EVENT
    assert ladder_of_args(_args(object_budget=3_000_000_000)).objects_per_event is None
    assert ladder_of_args(_args(object_budget=None)).objects_per_event is None  # --object-budget none


def test_budgets_that_follow_the_targets_admit_the_rung_the_builds_refuses(following, fixed):
    assert not following.exclusions and not fixed.exclusions
    rungs = following.manifest.ladder["cases"][CASE]["rungs"]
    assert [r["rung"] for r in rungs] == [0, 1, 2]
    assert [r["object_budget"] for r in rungs] == [256, 512, 1024]  # max(150, target): recorded per rung
    top = fixed.manifest.ladder["cases"][CASE]
    assert 2 not in [r["rung"] for r in top["rungs"]]
    assert all(r["object_budget"] == 150 for r in top["rungs"])
    # the rung the two builds share is the same input: the budget decides admission, never which input
    shared = {r["rung"]: r for r in top["rungs"]}
    for r in rungs:
        if r["rung"] in shared:
            assert (r["size"], r["seed"], r["trace"]) == (
                shared[r["rung"]]["size"],
                shared[r["rung"]]["seed"],
                r["trace"],
            )


def test_a_rung_a_counted_budget_refuses_is_missing_without_trying_its_alternatives(fixed):
    missing = {m["rung"]: m for m in fixed.manifest.ladder["cases"][CASE]["missing"]}
    gap = missing[2]
    assert gap["check"] == "budget" and gap["object_budget"] == 150
    assert "containers and instances walked, over" in gap["reason"] and "150" in gap["reason"]  # named, its value
    assert gap["reason"].count("size ") == 1  # only the nearest input was admitted; no alternative was tried


def test_only_a_budget_or_a_measurements_cpu_limit_ends_a_rung_without_alternatives():
    assert not_retried(Excluded("budget", "measuring: over the object budget"))
    assert not_retried(Excluded("run", "measuring metrics of long-trace-final: timeout; CPU limit of 200 s reached"))
    assert not not_retried(Excluded("run", "measuring: crash; Traceback"))
    assert not not_retried(Excluded("change", "the state does not change"))


def test_the_build_summary_names_the_check_of_a_rung_a_budget_refused(capsys):
    from execstate.cli._build import _ladder_summary

    missing = [{"rung": 1, "target": 512, "check": "budget"}, {"rung": 2, "target": 1024}]
    _ladder_summary(
        {"targets": [256, 512, 1024], "tolerance": 1.25, "cases": {CASE: {"rungs": [{}], "missing": missing}}}
    )
    assert f"{CASE}: 1 of 3 rungs; missing 512 (budget), 1024\n" in capsys.readouterr().out
