"""The networkx study: NetworkX's network simplex as one program, run on generated min-cost-flow instances.

``main.py`` is the program (NetworkX 3.6.1's routine, BSD-3-Clause, see
``LICENSE.networkx.txt``; its exact bytes are every case's source),
``generator.py`` the seeded generator of feasible instances and ``study.toml``
the generator's defaults and the three predeclared trace-length bands.
See ``docs/networkx.md``.
"""

from __future__ import annotations

from pathlib import Path

STUDY_DIR: Path = Path(__file__).resolve().parent
"""Directory holding the program, the generator and ``study.toml``."""

__all__ = ["STUDY_DIR"]
