"""Grades that do not depend on the hash seed: an executed answer is right only if it is right under every seed.

Wherever execstate executes an answer to grade it (the ``python-call`` rule, the ``program-input`` rule,
``cruxeval-score`` in both modes), it runs it once under each hash seed of the builder's determinism
check (``HASH_SEEDS``, ``PYTHONHASHSEED`` 0, 1 and 2; a ``program-input`` task runs under its
language's determinism runs, which for Python are those seeds). The verdict is *correct* only when it
is correct under every seed. When the verdicts differ (a set of strings iterated in hash order, say)
the answer is *wrong* and flagged ``seed-dependent``: its reason names the seeds under which it was
right and wrong (``seed_dependence``). Answers wrong under every seed keep the reason of the first seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from execstate.languages.python import HASH_SEEDS

SEED_DEPENDENT = "seed-dependent"
"""How a grade's reason starts when its verdict differed across the seeds."""
SEED_NAMES: tuple[str, ...] = tuple(f"PYTHONHASHSEED={seed}" for seed in HASH_SEEDS)
"""How reasons name the runs of ``HASH_SEEDS`` (as the builder names its Python determinism runs)."""
_PREFIX = "PYTHONHASHSEED="


def runs_text(names: Sequence[str]) -> str:
    """``PYTHONHASHSEED 0, 2`` for the runs ``PYTHONHASHSEED=0`` and ``PYTHONHASHSEED=2``; other names joined."""
    if names and all(name.startswith(_PREFIX) for name in names):
        return "PYTHONHASHSEED " + ", ".join(name.removeprefix(_PREFIX) for name in names)
    return ", ".join(names)


def seed_dependence(correct: Sequence[bool], names: Sequence[str], detail: str | None = None) -> str | None:
    """None when the verdicts of the runs ``names`` agree; else the reason of the wrong, seed-dependent grade:
    ``seed-dependent: correct under PYTHONHASHSEED 0, 2; wrong under PYTHONHASHSEED 1`` (and ``detail``, what
    the first wrong run gave, in parentheses)."""
    if len(correct) != len(names):
        raise ValueError(f"{len(correct)} verdicts for {len(names)} runs")
    if all(correct) or not any(correct):
        return None
    passed = [name for name, ok in zip(names, correct) if ok]
    failed = [name for name, ok in zip(names, correct) if not ok]
    reason = f"{SEED_DEPENDENT}: correct under {runs_text(passed)}; wrong under {runs_text(failed)}"
    return f"{reason} ({failed[0]}: {detail})" if detail else reason
