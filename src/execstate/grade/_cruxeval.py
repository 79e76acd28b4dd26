"""Re-score CRUXEval generation files (``{id: [generation, ...]}``) with pass@k.

A generation is correct when it equals the item's output under the
``python-literal`` rule: both read with ``ast.literal_eval`` and compared with
``==``. CRUXEval's own scorer instead executes ``assert f(input) == generation``
in a subprocess; on the released Code Llama 7B file the two agree on all 8,000
generations (a test checks it). They can differ only on a generation that is
a Python *expression* rather than a literal (e.g. ``'ab' + 'c'``): CRUXEval
would evaluate it, execstate never evaluates model output and counts it wrong.
``non_literal_generations`` in the report counts such generations.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from execstate.errors import RecordError, require_file
from execstate.grade._rules import is_python_literal, python_literal
from execstate.studies.cruxeval import DATA_PATH, load_items


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

    def report(self) -> dict[str, Any]:
        """The JSON object ``execstate cruxeval-score`` prints."""
        out: dict[str, Any] = {f"pass_at_{k}": v for k, v in self.pass_at.items()}
        out["items"] = len(self.scored)
        out["generations"] = sum(len(v) for v in self.scored.values())
        out["non_literal_generations"] = self.non_literal_generations
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
) -> CruxevalScore:
    """Score every generation of every item and average pass@k over all items.

    Every item needs generations and every generation id must be an item
    (``ValueError`` naming them otherwise): items are never dropped from the
    denominator.
    """
    _check_ids(generations, items)
    scored = {key: [python_literal(g, items[key]["output"]) for g in gens] for key, gens in generations.items()}
    non_literal = sum(not is_python_literal(g) for gens in generations.values() for g in gens)
    pass_at: dict[int, float | None] = {}
    for k in ks:
        if any(len(v) < k for v in scored.values()):
            pass_at[k] = None
        else:
            pass_at[k] = 100.0 * float(np.mean([pass_at_k(len(v), sum(v), k) for v in scored.values()]))
    return CruxevalScore(pass_at=pass_at, scored=scored, non_literal_generations=non_literal)


def score_file(
    generations_path: Path | str, data_path: Path | str | None = None
) -> tuple[CruxevalScore, dict[str, Any]]:
    """Score a CRUXEval generations JSON file; returns the score and provenance (paths, SHA-256)."""
    raw = require_file(generations_path, "generations file", "pass a CRUXEval generations JSON file").read_bytes()
    try:
        generations = json.loads(raw)
    except ValueError as exc:
        raise RecordError(f"{generations_path}: not JSON ({exc}). Fix: pass a JSON generations file") from None
    if not isinstance(generations, dict):
        raise RecordError(
            f"{generations_path}: expected an object {{id: [generation, ...]}}. "
            "Fix: pass a generations file in CRUXEval's format"
        )
    data = require_file(data_path, "--data", "pass CRUXEval's cruxeval.jsonl") if data_path is not None else DATA_PATH
    score = score_generations(generations, load_items(data))
    provenance = {
        "generations_file": str(generations_path),
        "generations_sha256": hashlib.sha256(raw).hexdigest(),
        "data_file": str(data),
        "data_sha256": hashlib.sha256(data.read_bytes()).hexdigest(),
    }
    return score, provenance
