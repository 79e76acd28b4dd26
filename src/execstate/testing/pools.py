"""Pools cut down for tests and benchmarks: each problem with only its smallest tests, as archives of samples come."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from execstate.construct import read_pool


def samples_only_pool(pool: Path | str, out: Path | str, keep: int = 2, only: list[str] | None = None) -> Path:
    """Copy ``pool`` to ``out`` keeping each problem's ``keep`` smallest tests (by bytes, then name) and no generator.

    ``only``: the problem ids to copy (default: all). Everything else in a problem's
    directory (program, ``problem.toml``, a validator) is copied as it is. Returns ``out``.
    """
    target = Path(out)
    for problem in read_pool(pool):
        if only is not None and problem.id not in only:
            continue
        dest = target / problem.dir.name
        skip = {"tests", *([problem.generator.path.name] if problem.generator is not None else [])}
        shutil.copytree(problem.dir, dest, ignore=_ignoring(str(problem.dir), skip))
        (dest / "tests").mkdir()
        smallest = sorted(problem.tests, key=lambda t: (t.input.stat().st_size, len(t.name), t.name))[:keep]
        for test in smallest:
            shutil.copyfile(test.input, dest / "tests" / test.input.name)
            if test.output is not None:
                shutil.copyfile(test.output, dest / "tests" / test.output.name)
    return target


def _ignoring(top: str, names: set[str]) -> Callable[[str, list[str]], list[str]]:
    """A ``copytree`` filter that leaves out ``names`` in the directory ``top`` only."""
    return lambda d, found: [n for n in found if d == top and n in names]
