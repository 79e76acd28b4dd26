"""Re-score CRUXEval generation files (``{id: [generation, ...]}``, or the leaderboard's wrapped form) with pass@k.

Two modes. ``literal`` (the default) never executes model text: a generation
is correct when it equals the item's output under the ``python-literal`` rule
(both read with ``ast.literal_eval``, compared with ``==``). ``upstream``
reproduces CRUXEval's own verdicts: it executes ``{code}\nassert {output} ==
{generation}`` in the sandbox and fails any generation containing
``f(<input>)`` (``_cruxeval_upstream``). The two differ only on generations
that are not literals (``10 + 10 + 4``, ``'x', 'message'``, ``1, 2``) or that
contain the call; ``non_literal_generations`` counts the first kind.

``task="input"`` scores CRUXEval-I generations (each a call ``f(...)``).
``literal`` is then the ``python-call`` rule (``_call_rule``): a generation
that is one call of ``f`` with literal arguments is run in the sandbox and is
right when ``f`` returns the output; ``non_literal_generations`` counts the
generations that are not such a call. ``upstream`` executes ``{code}\nassert
{output} == {generation}`` as for output prediction, but fails unexecuted a
generation *without* ``f(``.

Whatever executes runs once under each hash seed of ``GRADE_HASH_SEEDS`` (``PYTHONHASHSEED`` 0 to 7,
``_seeds``): a generation is correct only when it is correct under every seed, and one whose verdict
differs across them is wrong and counted in ``seed_dependent`` (its item id and index among the item's
generations). The output task's ``literal`` mode executes nothing, so it finds none.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np

from execstate.errors import RecordError, UsageError, require_file
from execstate.grade._call_rule import OUTCOMES as CALL_OUTCOMES
from execstate.grade._call_rule import Call, check_calls, parse_call
from execstate.grade._cruxeval_upstream import check_program, run_seeded_checks
from execstate.grade._match import is_python_literal, python_literal
from execstate.grade._seeds import SEED_NAMES, seed_dependence
from execstate.studies.cruxeval import DATA_PATH, load_items, takes_function

Mode = Literal["literal", "upstream"]
MODES: tuple[Mode, ...] = ("literal", "upstream")
Prediction = Literal["output", "input"]
PREDICTIONS: tuple[Prediction, ...] = ("output", "input")
"""CRUXEval's two tasks: output prediction (CRUXEval-O) and input prediction (CRUXEval-I)."""
_TEXT_RULE = {"output": "calls f(<input>)", "input": "no f("}
"""The outcome of a generation CRUXEval's text rule fails unexecuted, by task."""


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one item: 1 - C(n-c, k) / C(n, k), as a fraction.

    ``n`` samples of which ``c`` are correct; requires ``1 <= k <= n``.
    """
    if not 1 <= k <= n:
        raise ValueError(f"pass@{k} needs at least {k} samples per item, got {n}")
    if n - c < k:
        return 1.0
    return float(1.0 - np.prod(1.0 - k / np.arange(n - c + 1, n + 1)))


@dataclass(frozen=True)
class CruxevalScore:
    """Scores of one generations file against the CRUXEval items."""

    pass_at: dict[int, float | None]
    """k -> mean pass@k over items, in percent; None when some item has fewer than k samples."""
    scored: dict[str, list[bool]]
    """Per item, per generation: correct or not (CRUXEval's ``raw_scored_generations``)."""
    non_literal_generations: int
    mode: Mode = "literal"
    outcomes: dict[str, int] | None = None
    """How many generations ended how: ``upstream`` mode ``passed``, ``calls f(<input>)`` (output task) or
    ``no f(`` (input task), ``timed out``, ``failed``, ``crashed``; input ``literal`` mode the
    ``python-call`` outcomes (``returned the output``, ...); None for output ``literal`` mode, which
    executes nothing."""
    task: Prediction = "output"
    seed_dependent: tuple[tuple[str, int], ...] = ()
    """The generations whose verdict differed across the hash seeds (so scored wrong): ``(item id, index)``."""

    def report(self) -> dict[str, Any]:
        """The JSON object ``execstate cruxeval-score`` prints."""
        out: dict[str, Any] = {f"pass_at_{k}": v for k, v in self.pass_at.items()}
        out["task"] = self.task
        out["mode"] = self.mode
        out["items"] = len(self.scored)
        out["generations"] = sum(len(v) for v in self.scored.values())
        out["non_literal_generations"] = self.non_literal_generations
        if self.outcomes is not None:
            out["outcomes"] = self.outcomes
        out["seed_dependent"] = len(self.seed_dependent)
        out["seed_dependent_generations"] = [list(cell) for cell in self.seed_dependent]
        return out


def _check_ids(generations: Mapping[str, Sequence[str]], items: Mapping[str, Any]) -> None:
    unknown = [k for k in generations if k not in items]
    missing = [k for k in items if k not in generations]
    bad = [k for k, v in generations.items() if not isinstance(v, list) or not all(isinstance(g, str) for g in v)]
    problems = []
    if unknown:
        problems.append(f"{len(unknown)} id(s) not in the CRUXEval data: {', '.join(unknown[:10])}")
    if missing:
        problems.append(f"{len(missing)} CRUXEval item(s) have no generations: {', '.join(missing[:10])}")
    if bad:
        problems.append(f"{len(bad)} id(s) whose value is not a list of strings: {', '.join(bad[:10])}")
    if problems:
        raise RecordError(
            "generations do not match the CRUXEval items: "
            + "; ".join(problems)
            + ". Fix: score a generations file made from these items (or pass --data)"
        )


def score_generations(
    generations: Mapping[str, Sequence[str]],
    items: Mapping[str, Mapping[str, Any]],
    ks: Sequence[int] = (1, 5),
    mode: Mode = "literal",
    task: Prediction = "output",
) -> CruxevalScore:
    """Score every generation of every item and average pass@k over all items.

    Every item needs generations and every generation id must be an item
    (``ValueError`` naming them otherwise): items are never dropped from the
    denominator. pass@k is None when some item has fewer than k generations
    (CRUXEval's estimator returns 1.0 for such an item, so it reports 100.0).
    ``mode="upstream"`` executes CRUXEval's check in the sandbox (module docstring); ``task="input"`` scores
    input predictions (calls of ``f``), in ``literal`` mode by running ``f`` in the sandbox.
    """
    _check_ids(generations, items)
    if mode not in MODES:
        raise UsageError(f"unknown CRUXEval scoring mode {mode!r}. Fix: use one of {', '.join(MODES)}")
    if task not in PREDICTIONS:
        raise UsageError(f"unknown CRUXEval task {task!r}. Fix: use one of {', '.join(PREDICTIONS)}")
    outcomes: dict[str, int] | None = None
    seed_dependent: list[tuple[str, int]] = []
    if mode == "upstream":
        scored, outcomes, seed_dependent = _score_upstream(generations, items, task)
    elif task == "input":
        scored, outcomes, seed_dependent = _score_calls(generations, items, _lambda_items(items))
    else:
        scored = {key: [python_literal(g, items[key]["output"]) for g in gens] for key, gens in generations.items()}
    if task == "output":
        non_literal = sum(not is_python_literal(g) for gens in generations.values() for g in gens)
    else:
        lambdas = _lambda_items(items)
        non_literal = sum(
            not isinstance(parse_call(g, lambdas=key in lambdas), Call)
            for key, gens in generations.items()
            for g in gens
        )
    pass_at: dict[int, float | None] = {}
    for k in ks:
        if any(len(v) < k for v in scored.values()):
            pass_at[k] = None
        else:
            pass_at[k] = 100.0 * float(np.mean([pass_at_k(len(v), sum(v), k) for v in scored.values()]))
    return CruxevalScore(pass_at, scored, non_literal, mode, outcomes, task, tuple(seed_dependent))


def _lambda_items(items: Mapping[str, Mapping[str, Any]]) -> set[str]:
    """The items whose own call passes a function: their answers may have ``lambda`` arguments."""
    return {key for key, item in items.items() if takes_function(item["input"])}


Scored = tuple[dict[str, list[bool]], dict[str, int], list[tuple[str, int]]]
"""Per item the verdict of each generation, the outcome counts, and the seed-dependent ``(item, index)`` pairs."""


def _score_calls(
    generations: Mapping[str, Sequence[str]], items: Mapping[str, Mapping[str, Any]], lambdas: set[str]
) -> Scored:
    """The ``python-call`` verdict of every input generation (``f`` run in the sandbox under each hash seed)."""
    cells = [(key, g) for key, gens in generations.items() for g in gens]
    verdicts = check_calls(
        [(items[key]["code"], g, items[key]["output"]) for key, g in cells],
        lambdas=[key in lambdas for key, _ in cells],
    )
    scored: dict[str, list[bool]] = {key: [] for key in generations}
    outcomes = dict.fromkeys(CALL_OUTCOMES, 0)
    seed_dependent = []
    for (key, _), verdict in zip(cells, verdicts):
        if verdict.seed_dependent:
            seed_dependent.append((key, len(scored[key])))
        scored[key].append(verdict.correct)
        outcomes[verdict.outcome] += 1
    return scored, outcomes, seed_dependent


def _score_upstream(
    generations: Mapping[str, Sequence[str]], items: Mapping[str, Mapping[str, Any]], task: Prediction = "output"
) -> Scored:
    """CRUXEval's verdict for every generation: its text rule here, the assertion in the sandbox under each hash
    seed (passed only when it passed under every seed; else the outcome of its first failing run)."""
    cells = [(key, g) for key, gens in generations.items() for g in gens]
    programs = [check_program(items[key], g, task) for key, g in cells]
    ran = iter(run_seeded_checks([p for p in programs if p is not None]))
    scored: dict[str, list[bool]] = {key: [] for key in generations}
    outcomes = dict.fromkeys(("passed", _TEXT_RULE[task], "failed", "timed out", "crashed"), 0)
    seed_dependent = []
    for (key, _), program in zip(cells, programs):
        outcome = _TEXT_RULE[task]
        if program is not None:
            runs = next(ran)
            outcome = next((v.outcome for v in runs if not v.passed), "passed")
            if seed_dependence([v.passed for v in runs], SEED_NAMES) is not None:
                seed_dependent.append((key, len(scored[key])))
        scored[key].append(outcome == "passed")
        outcomes[outcome.partition(":")[0]] += 1
    return scored, outcomes, seed_dependent


def read_generations(path: Path | str) -> tuple[dict[str, Any], bytes]:
    """The ``{id: [generation, ...]}`` object of a generations file, and the file's bytes.

    Accepts CRUXEval's generations format and the leaderboard site's (and CRUXEval's
    scored-file) wrapped form ``{"raw_generations": {...}, ...}``, whose other keys are ignored.
    """
    raw = require_file(path, "generations file", "pass a CRUXEval generations JSON file").read_bytes()
    try:
        generations = json.loads(raw)
    except ValueError as exc:
        raise RecordError(f"{path}: not JSON ({exc}). Fix: pass a JSON generations file") from None
    if isinstance(generations, dict) and isinstance(generations.get("raw_generations"), dict):
        generations = generations["raw_generations"]
    if not isinstance(generations, dict):
        raise RecordError(
            f'{path}: expected an object {{id: [generation, ...]}} or {{"raw_generations": {{...}}}}. '
            "Fix: pass a generations file in CRUXEval's format"
        )
    return generations, raw


def score_file(
    generations_path: Path | str,
    data_path: Path | str | None = None,
    mode: Mode = "literal",
    task: Prediction = "output",
) -> tuple[CruxevalScore, dict[str, Any]]:
    """Score a CRUXEval generations JSON file (either form, see ``read_generations``) of ``task`` in ``mode``.

    Returns the score and provenance (paths, SHA-256).
    """
    generations, raw = read_generations(generations_path)
    data = require_file(data_path, "--data", "pass CRUXEval's cruxeval.jsonl") if data_path is not None else DATA_PATH
    score = score_generations(generations, load_items(data), mode=mode, task=task)
    provenance = {
        "generations_file": str(generations_path),
        "generations_sha256": hashlib.sha256(raw).hexdigest(),
        "data_file": str(data),
        "data_sha256": hashlib.sha256(data.read_bytes()).hexdigest(),
    }
    return score, provenance
