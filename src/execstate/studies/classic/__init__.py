"""The classic study: thirty authored textbook programs shipped as built-in cases.

Each case lives in its own directory here: ``main.py`` (the program, reading
stdin and writing stdout), ``gen.py`` (prints the short or long input for
``python gen.py short|long``) and ``case.toml`` (the case spec, SPEC section
3). Build them with ``execstate build --study classic --out DIR``.

The case spec has no field for an algorithm's area (the builder refuses
unknown keys), so the area of every case is recorded in :data:`AREAS`.
"""

from __future__ import annotations

from pathlib import Path

CASES_DIR: Path = Path(__file__).resolve().parent
"""Directory holding one sub-directory per case."""

AREAS: dict[str, str] = {
    # dynamic programming
    "kadane": "dynamic programming",
    "house_robber": "dynamic programming",
    "stock_cooldown": "dynamic programming",
    "decode_ways": "dynamic programming",
    "lis": "dynamic programming",
    # graph algorithms
    "bfs_maze": "graph algorithms",
    "dijkstra": "graph algorithms",
    "topo_order": "graph algorithms",
    "kruskal_mst": "graph algorithms",
    "bellman_ford": "graph algorithms",
    # strings
    "edit_distance": "strings",
    "kmp_search": "strings",
    "run_length": "strings",
    "longest_palindrome": "strings",
    # sorting
    "insertion_sort": "sorting",
    "merge_inversions": "sorting",
    "quicksort": "sorting",
    "heapsort": "sorting",
    # numerical methods
    "integer_sqrt": "numerical methods",
    "prime_sieve": "numerical methods",
    "bisection": "numerical methods",
    "simpson": "numerical methods",
    # geometry
    "convex_hull": "geometry",
    "polygon_lattice": "geometry",
    "closest_pair": "geometry",
    "segment_intersections": "geometry",
    # simulation
    "game_of_life": "simulation",
    "josephus": "simulation",
    "langtons_ant": "simulation",
    "sandpile": "simulation",
}
"""Case directory name -> the textbook area it belongs to (seven areas, at least three each)."""


def case_dirs() -> list[Path]:
    """The case directories (those holding a ``case.toml``), sorted by name."""
    return sorted(path.parent for path in CASES_DIR.glob("*/case.toml"))


__all__ = ["AREAS", "CASES_DIR", "case_dirs"]
