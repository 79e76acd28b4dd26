"""The networkx study: NetworkX's network simplex as one program, run on generated min-cost-flow instances.

``main.py`` is the program (NetworkX 3.6.1's routine, BSD-3-Clause, see
``LICENSE.networkx.txt``; its exact bytes are every case's source),
``generator.py`` the seeded generator of feasible instances and ``study.toml``
the generator's defaults and the three predeclared trace-length bands.
See ``docs/networkx.md``.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from execstate.studies import FreshPlan, InputRecipe

STUDY_DIR: Path = Path(__file__).resolve().parent
"""Directory holding the program, the generator and ``study.toml``."""


def fresh_plan(
    spec_path: Path, provenance: Mapping[str, Any], inputs: Mapping[str, Path | None], seed: int
) -> FreshPlan | str:
    """A case's fresh inputs (``execstate build --fresh``): the study's generator at the case's recorded sizes.

    The long input is ``generator.py SEED NODES`` and the short one the same seed at the recorded
    ``short_nodes``, as the published ones were made (``study.toml``); a candidate is kept only when its long
    trace falls in the case's own band (``[bands]``, the case's ``provenance.band``). A case without those
    provenance keys (one a user wrote by hand) cannot be refreshed, and the string says why.
    """
    missing = [key for key in ("nodes", "short_nodes", "band") if not isinstance(provenance.get(key), int)]
    if missing:
        return f"its provenance lacks {', '.join(missing)} (the sizes and band of a selected networkx case)"
    edges = tomllib.loads((STUDY_DIR / "study.toml").read_text(encoding="utf-8"))["bands"]["edges"]
    band = int(provenance["band"])
    if not 0 <= band < len(edges):
        return f"its provenance band {band} is not one of study.toml's {len(edges)} bands"
    text = (STUDY_DIR / "generator.py").read_text(encoding="utf-8")
    nodes, short_nodes = int(provenance["nodes"]), int(provenance["short_nodes"])

    def recipe(size: int) -> InputRecipe:
        return InputRecipe("python", text, (str(seed), str(size)), describe=f"generator.py <fresh seed> {size}")

    low, high = edges[band]
    return FreshPlan(recipe(short_nodes), recipe(nodes), long_trace_band=(int(low), int(high)))


__all__ = ["STUDY_DIR", "fresh_plan"]
