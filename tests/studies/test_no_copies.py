"""No file under src/execstate/studies/ is stored twice: a case names its program and inputs (docs/spec.md, section 3).

One exception, narrow and checked: inside one problem pool (``*/pool/``), files that a
published dataset itself repeats (test answers such as ``1``, Library Checker's
``random.h`` that each problem's generators include) are that dataset as its source
shipped it. A pool file may never equal a file outside its own pool, so a spec's
copy of a pool program or test input is still caught. Files of at most ``TINY`` bytes
are equal by chance, not copies: the pyperformance specs' generated inputs are sizes
(``2\n``, ``16\n``), as is a pilot audit input.
"""

from __future__ import annotations

import hashlib
from collections import defaultdict
from pathlib import Path

from execstate.studies import HERE

TINY = 8


def _pool_of(path: Path) -> Path | None:
    """The problem pool ``path`` lies in (a folder named ``pool``), or None."""
    parts = path.relative_to(HERE).parts
    return HERE.joinpath(*parts[: parts.index("pool") + 1]) if "pool" in parts[:-1] else None


def _same_bytes() -> list[list[Path]]:
    groups: dict[str, list[Path]] = defaultdict(list)
    for path in sorted(HERE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            groups[hashlib.sha256(path.read_bytes()).hexdigest()].append(path)
    return [paths for paths in groups.values() if len(paths) > 1]


def test_no_file_under_studies_has_the_same_bytes_as_another():
    copies = []
    for paths in _same_bytes():
        pools = {_pool_of(p) for p in paths}
        if paths[0].stat().st_size <= TINY:
            continue
        if len(pools) != 1 or None in pools:  # a dataset's own repeats stay inside its pool
            copies.append([str(p.relative_to(HERE)) for p in paths])
    assert copies == [], f"{len(copies)} sets of identical files; name the file from a case instead: {copies[:5]}"


def test_the_check_sees_a_copy():
    """The helper finds equal files (the programs of classic/ are many and all different, so it finds none there)."""
    groups = _same_bytes()
    inside_pools = [g for g in groups if None not in {_pool_of(p) for p in g}]
    assert inside_pools, "the pools' own repeated test answers should show up as groups"
    assert _pool_of(HERE / "library_cpp" / "pool" / "zalgorithm" / "main.cpp") == HERE / "library_cpp" / "pool"
    assert _pool_of(HERE / "library_cpp" / "specs" / "zalgorithm" / "case.toml") is None
