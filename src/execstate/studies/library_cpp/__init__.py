"""The library_cpp study: 12 Library Checker C++ solutions with their tests and generators (``README.md``).

This module holds only the study's refresher: how ``execstate build --fresh`` draws new inputs for a case.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from execstate.studies import FreshPlan, InputRecipe

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"[ \t]*$', re.MULTILINE)
_DEFINE = re.compile(r"^#define (\w+) \(long long\)(\S+)$", re.MULTILINE)


def fresh_plan(
    spec_path: Path, provenance: Mapping[str, Any], inputs: Mapping[str, Path | None], seed: int
) -> FreshPlan | str:
    """Each input re-made by the generator that made it, at the same sizes, with a fresh seed.

    A case names test files of its problem (``pool/<problem>/tests/N.in``); ``tests/MANIFEST.tsv`` says which
    generator made test N with which seed and which ``params.h`` overrides. The fresh input is that generator
    (its local headers inlined, ``params.h`` with the same overrides) run with the fresh seed, so it has the
    published input's size limits. A string says why a case cannot be refreshed.
    """
    recipes = []
    for key in ("short_input", "long_input"):
        path = inputs.get(key)
        if path is None:
            return f"{key} is not a test file of a Library Checker problem"
        made = _recipe(path, seed)
        if isinstance(made, str):
            return f"{key}: {made}"
        recipes.append(made)
    return FreshPlan(recipes[0], recipes[1])


def _recipe(path: Path, seed: int) -> InputRecipe | str:
    problem = path.parent.parent
    manifest = path.parent / "MANIFEST.tsv"
    if not manifest.is_file():
        return f"no {manifest.name} beside {path.name} says how it was made"
    rows = [line.split("\t") for line in manifest.read_text(encoding="utf-8").splitlines()[1:] if line.strip()]
    row = next((r for r in rows if r and r[0] == path.stem), None)
    if row is None or len(row) < 4:
        return f"{manifest.name} has no row for test {path.stem}"
    generator = problem / row[1]
    if not generator.is_file():
        return f"its generator {row[1]} is not in the pool"
    overrides = dict(item.split("=", 1) for item in row[3].split() if "=" in item)
    source = _inline(generator, overrides, set())
    shown = " ".join(f"{k}={v}" for k, v in overrides.items())
    return InputRecipe("cpp", source, (str(seed),), describe=f"{row[1]} <fresh seed> ({shown or 'params.h'})")


def _inline(path: Path, overrides: Mapping[str, str], seen: set[Path]) -> str:
    """``path``'s text with each local ``#include "..."`` replaced by the file's text (once), ``params.h``'s
    ``#define KEY (long long)VALUE`` lines taking the overridden values."""
    path = path.resolve()
    if path in seen:
        return ""
    seen.add(path)
    text = path.read_text(encoding="utf-8")
    if path.name == "params.h":
        text = _DEFINE.sub(lambda m: f"#define {m[1]} (long long){overrides.get(m[1], m[2])}", text)

    text = re.sub(r"^[ \t]*#[ \t]*pragma[ \t]+once[ \t]*$", "", text, flags=re.MULTILINE)

    def include(match: re.Match[str]) -> str:
        target = path.parent / match[1]
        return _inline(target, overrides, seen) if target.is_file() else match[0]

    return _INCLUDE.sub(include, text)


__all__ = ["fresh_plan"]
