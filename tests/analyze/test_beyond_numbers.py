"""Stability, truncation and token numbers against independent computations (itertools, scipy, statistics)."""

from __future__ import annotations

import itertools
import statistics
from collections import Counter

import numpy as np
import pytest
from scipy.special import comb

from execstate.analyze import AnalysisConfig
from execstate.analyze._stability import cell_stability, stability_rows
from execstate.analyze._truncation import truncation_tables
from execstate.records import Grade, Response, Usage
from execstate.testing import synthetic_tasks

RNG_SEED = 7


def _grade(task_id: str, sample: int, answer: str | None, correct: bool, setting: str = "s") -> Grade:
    status = "correct-valid" if correct else ("wrong-valid" if answer is not None else "wrong-invalid")
    return Grade(task_id=task_id, setting=setting, sample=sample, status=status, answer=answer, rule="bytes")


def _by_hand(answers: list[str | None], correct: list[bool]) -> dict:
    n, c = len(answers), sum(correct)
    keys = ["<none>" if a is None else a.strip() for a in answers]
    top = Counter(keys).most_common()
    best = max(v for _, v in top)
    mode = next(k for k in keys if Counter(keys)[k] == best)  # first seen among the most frequent
    pairs = list(itertools.combinations(range(n), 2))
    return {
        "agreement": best / n,
        "majority_correct": float(correct[keys.index(mode)]),
        "flip_rate": sum(correct[i] != correct[j] for i, j in pairs) / len(pairs),
        **{f"pass@{k}": 1 - comb(n - c, k, exact=True) / comb(n, k, exact=True) for k in range(1, n + 1)},
    }


@pytest.mark.parametrize(
    "answers,correct",
    [
        (["5", "5", "6"], [True, True, False]),
        (["6", "5 ", "5"], [False, True, True]),
        (["1", "2", "3", "4"], [False, False, True, False]),
        ([None, None, "7"], [False, False, True]),
        (["x", "y", "x", "y", "z"], [False, True, False, True, False]),
        (["a", "a", "a"], [False, False, False]),
    ],
)
def test_cell_statistics_match_a_hand_count(answers, correct):
    grades = [_grade("t", i, a, ok) for i, (a, ok) in enumerate(zip(answers, correct))]
    got = cell_stability(grades)
    for key, value in _by_hand(answers, correct).items():
        assert got[key] == pytest.approx(value), key


def test_rows_average_cells_and_bootstrap_by_source_cluster():
    tasks = synthetic_tasks(RNG_SEED, (("classic", "python", 6),))
    rng = np.random.default_rng(RNG_SEED)
    grades = []
    for t in tasks:
        for sample in range(3):
            ok = bool(rng.random() < 0.6)
            grades.append(_grade(t.task_id, sample, "right" if ok else str(rng.integers(3)), ok))
    grades.append(Grade(task_id=tasks[0].task_id, setting="s2", sample=0, status="no-response", rule="bytes"))
    grades.append(_grade(tasks[0].task_id, 1, "x", False, setting="s2"))
    out = stability_rows(tasks, grades, AnalysisConfig(replicates=500))
    assert out["incomplete_cells"] == 1
    rows = {(r["setting"], r["arm"]): r for r in out["rows"]}
    by_task: dict[str, list[Grade]] = {}
    for g in grades:
        if g.setting == "s":
            by_task.setdefault(g.task_id, []).append(g)
    hand = {
        t.task_id: _by_hand(
            [g.answer for g in by_task[t.task_id]], [g.status == "correct-valid" for g in by_task[t.task_id]]
        )
        for t in tasks
    }
    for arm in ("long-trace-final", "all"):
        ids = [t.task_id for t in tasks if arm == "all" or t.arm == arm]
        row = rows[("s", arm)]
        assert row["cells"] == len(ids) and row["samples"] == 3
        for key in ("agreement", "majority_correct", "flip_rate", "pass@1", "pass@2", "pass@3"):
            assert row[key] == pytest.approx(np.mean([hand[i][key] for i in ids])), key
            assert row[f"{key}_low"] <= row[key] + 1e-12 and row[key] <= row[f"{key}_high"] + 1e-12
    # pass@1 is the mean per-sample accuracy
    assert rows[("s", "all")]["pass@1"] == pytest.approx(np.mean([g.status == "correct-valid" for g in grades[:-2]]))


def test_truncation_and_token_tables_match_an_independent_count():
    tasks = synthetic_tasks(RNG_SEED, (("classic", "python", 5),))
    rng = np.random.default_rng(RNG_SEED)
    grades, responses = [], []
    for t in tasks:
        for sample in range(2):
            cut = bool(rng.random() < 0.3)
            ok = not cut and bool(rng.random() < 0.7)
            grades.append(_grade(t.task_id, sample, None if cut else "a", ok))
            tokens = int(rng.integers(10, 500))
            reasoning = None if rng.random() < 0.2 else int(rng.integers(0, 400))
            responses.append(
                Response(
                    task_id=t.task_id,
                    setting="s",
                    sample=sample,
                    status="completed",
                    finish_reason="length" if cut else "stop",
                    usage=Usage(completion_tokens=tokens, reasoning_tokens=reasoning),
                )
            )
    out = truncation_tables(tasks, grades, responses[:-1])  # the last grade has no response record
    assert out["unmatched"] == 1
    arm = {t.task_id: t.arm for t in tasks}
    pairs = list(zip(grades[:-1], responses[:-1]))
    for row in out["truncation"]:
        mine = [(g, r) for g, r in pairs if row["arm"] in ("all", arm[g.task_id])]
        cut = [(g, r) for g, r in mine if r.finish_reason == "length"]
        kept = [g for g, r in mine if r.finish_reason != "length"]
        assert (row["completed"], row["truncated"]) == (len(mine), len(cut))
        assert row["truncated_pct"] == pytest.approx(100 * len(cut) / len(mine))
        assert row["acc_not_truncated_pct"] == pytest.approx(
            100 * sum(g.status == "correct-valid" for g in kept) / len(kept)
        )
    for row in out["tokens"]:
        mine = [
            r
            for g, r in pairs
            if row["arm"] in ("all", arm[g.task_id]) and (g.status == "correct-valid") == row["correct"]
        ]
        comp = [r.usage.completion_tokens for r in mine]
        reas = [r.usage.reasoning_tokens for r in mine if r.usage.reasoning_tokens is not None]
        assert row["responses"] == len(mine)
        assert (row["completion_median"], row["completion_sum"]) == (statistics.median(comp), sum(comp))
        assert row["with_reasoning"] == len(reas)
        assert row["reasoning_sum"] == (sum(reas) if reas else None)
