"""Shipped environment presets: named, pinned package sets of a judge's Python, for archives written against it.

``atcoder``: the PyPI packages of AtCoder's CPython judge that contest programs
commonly import. Source: AtCoder's 2023 language update, whose CPython
(3.11.4) entry installs, among others, numpy, scipy, networkx, sympy (with
mpmath), sortedcontainers, more-itertools, bitarray and ac-library-python
(the Python port of the AtCoder Library, imported as ``atcoder``); it also
installs heavier ones programs seldom import (pandas, scikit-learn, ortools,
torch, z3-solver, ...), which the preset leaves out. The judge pins older
releases (numpy 1.24.1, scipy 1.10.1, networkx 3.0, sympy 1.11.1, ...) that
have no wheels for CPython 3.12 or 3.13; the preset pins, per package, a
release with wheels for CPython 3.11, 3.12 and 3.13 on PyPI, every dependency
included, so the set installs alike on each (checked with ``pip install
--dry-run --only-binary=:all: --python-version 3.1x``). A program whose output
depends on a behaviour that changed between those releases may print other
bytes here than on the judge; the tasks record what ran (``meta["environment"]``).
"""

from __future__ import annotations

ATCODER: tuple[str, ...] = (
    "ac-library-python==0.1.0",
    "bitarray==3.0.0",
    "more-itertools==10.5.0",
    "mpmath==1.3.0",
    "networkx==3.4.2",
    "numpy==2.2.6",
    "scipy==1.15.3",
    "sortedcontainers==2.4.0",
    "sympy==1.13.3",
)
"""The ``atcoder`` preset (see the module docstring); ``mpmath`` is sympy's dependency."""

PRESETS: dict[str, tuple[str, ...]] = {"atcoder": ATCODER}
"""Preset name -> its pinned ``name==version`` packages (canonical names, sorted)."""

MODULE_PACKAGES: dict[str, str] = {
    "atcoder": "ac-library-python",
    "bitarray": "bitarray",
    "more_itertools": "more-itertools",
    "mpmath": "mpmath",
    "networkx": "networkx",
    "numpy": "numpy",
    "scipy": "scipy",
    "sortedcontainers": "sortedcontainers",
    "sympy": "sympy",
}
"""Top-level module name -> the PyPI package that provides it, for the modules judge programs commonly import."""
