"""The pyperformance study: CPython's benchmark programs made stdin programs (``make_pool.py``).

``pool/`` is written by ``python -m execstate.studies.pyperformance.make_pool`` from the installed
pyperformance package (MIT, ``pool/LICENSE``) and the recipes in ``recipes/``; ``specs/`` by
``execstate construct`` from that pool. See ``docs/pyperformance.md``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from execstate.studies import FreshPlan, InputRecipe

STUDY_DIR: Path = Path(__file__).resolve().parent
"""The study root: ``pool/``, ``specs/``, ``recipes/``, ``refused.toml`` and ``make_pool.py``."""
_GENERATED = re.compile(r"generator seed=\d+ size=(\d+)")


def fresh_plan(
    spec_path: Path, provenance: Mapping[str, Any], inputs: Mapping[str, Path | None], seed: int
) -> FreshPlan | str:
    """A case's fresh inputs (``execstate build --fresh``): its problem's ``gen.py`` at the published sizes.

    The published inputs were made by ``gen.py 1 SIZE`` (``provenance`` ``short_input``/``long_input`` say
    ``generator seed=1 size=SIZE``); a fresh one is ``gen.py <seed> SIZE``, which gives the program the seed
    in place of the benchmark's own. A benchmark that takes no seed (``provenance`` ``seeded = false``) has
    no other input of the same size, and the string says so.
    """
    if provenance.get("seeded") is not True:
        return "the benchmark takes no seed: its input is only its size, so there is no other input of that size"
    problem = provenance.get("problem")
    generator = STUDY_DIR / "pool" / str(problem) / "gen.py"
    if not isinstance(problem, str) or not generator.is_file():
        return f"its problem {problem!r} has no gen.py in {STUDY_DIR / 'pool'}"
    sizes = []
    for key in ("short_input", "long_input"):
        found = _GENERATED.fullmatch(str(provenance.get(key, "")))
        if found is None:
            return f"its {key} {provenance.get(key)!r} was not made by the problem's gen.py"
        sizes.append(int(found.group(1)))
    text = generator.read_text(encoding="utf-8")

    def recipe(size: int) -> InputRecipe:
        return InputRecipe("python", text, (str(seed), str(size)), describe=f"gen.py <fresh seed> {size}")

    return FreshPlan(recipe(sizes[0]), recipe(sizes[1]))


__all__ = ["STUDY_DIR", "fresh_plan"]
