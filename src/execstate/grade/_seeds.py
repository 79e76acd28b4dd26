"""Grades that do not depend on the hash seed: an executed answer is right only if it is right under every seed.

Wherever execstate executes an answer to grade it (the ``python-call`` rule, the ``program-input`` rule,
``cruxeval-score`` in both modes), it runs it once under each hash seed of ``GRADE_HASH_SEEDS``
(``PYTHONHASHSEED`` 0 to 7: the builder's determinism seeds ``HASH_SEEDS``, 0, 1 and 2, then five more;
a ``program-input`` task whose language's determinism runs are not hash seeds, C++, runs under those
runs instead, ``grading_variations``). The verdict is *correct* only when it is correct under every seed.
When the verdicts differ (a set of strings iterated in hash order, say) the answer is *wrong* and flagged
``seed-dependent``: its reason names the seeds under which it was right and wrong (``seed_dependence``).
Answers wrong under every seed keep the reason of the first seed.
"""

from __future__ import annotations

from collections.abc import Sequence

from execstate.languages import Variation
from execstate.languages.python import HASH_SEEDS

GRADE_HASH_SEEDS: tuple[int, ...] = (0, 1, 2, 3, 4, 5, 6, 7)
"""The ``PYTHONHASHSEED`` values every executed answer is graded under: the builder's determinism seeds
(``HASH_SEEDS``, 0, 1 and 2) first, then five more. Three seeds miss luck that eight find: CRUXEval's
``sample_664`` joins the keys of its argument, and ``f({"3", "4"})`` gives its output ``'3 4 '`` only under
5 and 6 (CPython 3.11), so under 0, 1 and 2 alone it would be plainly wrong rather than flagged. Each seed
costs one sandboxed process per batch of answers."""
if GRADE_HASH_SEEDS[: len(HASH_SEEDS)] != HASH_SEEDS:
    raise AssertionError(f"GRADE_HASH_SEEDS {GRADE_HASH_SEEDS} must start with the determinism seeds {HASH_SEEDS}")
SEED_DEPENDENT = "seed-dependent"
"""How a grade's reason starts when its verdict differed across the seeds."""
_PREFIX = "PYTHONHASHSEED="
SEED_NAMES: tuple[str, ...] = tuple(f"{_PREFIX}{seed}" for seed in GRADE_HASH_SEEDS)
"""How reasons name the runs of ``GRADE_HASH_SEEDS`` (as the builder names its Python determinism runs)."""


def grading_variations(variations: Sequence[Variation]) -> tuple[Variation, ...]:
    """The runs a program is graded under, given its language's determinism runs ``variations``: one per seed
    of ``GRADE_HASH_SEEDS`` when those runs are hash seeds (each named ``PYTHONHASHSEED=<seed>``, as Python's
    are), else the language's own runs (C++'s three plain runs, which take no seed)."""
    if variations and all(v.name == f"{_PREFIX}{v.seed}" for v in variations):
        return tuple(Variation(seed, name) for seed, name in zip(GRADE_HASH_SEEDS, SEED_NAMES))
    return tuple(variations)


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
