"""Seeded generator of feasible min-cost-flow instances for the networkx study (stdlib only).

``python generator.py SEED NODES`` prints one instance with the default
parameters, in the input format of ``main.py``: a line ``n m``, n lines of node
demands (negative: supply), m lines ``u v capacity weight``. The builder runs
this file alone in a fresh directory, so the defaults live here as well as in
``study.toml`` (a test checks that the two agree).

Feasible by construction: the total supply is split among about a fifth of the
nodes (sources) and the same total demand among another fifth (sinks); sources
are paired with sinks greedily, and each pair's flow is routed along the path
joining them in a random spanning tree. The directed edges of those paths
(the backbone) get a capacity of at least the flow routed over them, so that
routing is a feasible flow; random extra edges bring the edge count to about
``density`` per node. Edge order is shuffled. Only ``Random.randrange``,
``randint`` and ``shuffle`` are used, whose outputs for a seed are the same on
CPython 3.11-3.13.
"""

from __future__ import annotations

import random
import sys

DEFAULTS: dict[str, int | float] = {
    "density": 3.0,
    "cap_low": 1,
    "cap_high": 20,
    "cost_low": 0,
    "cost_high": 30,
    "supply": 30,
}
"""Default keyword parameters of :func:`instance` (the ``[generator]`` table of ``study.toml``)."""

NODES = (8, 60)
"""Inclusive range of node counts of the default candidates (:func:`candidate_nodes`)."""
SHORT_NODES = 5
"""Node count of a case's short input: the same seed as its long input at this size."""


def instance(seed: int, nodes: int, **params: float) -> str:
    """The instance text for ``seed`` with ``nodes`` nodes (at least 2); the same arguments give the same bytes.

    ``params`` override :data:`DEFAULTS`: ``density`` (edges per node; the edge
    count is ``round(density * nodes)`` but at least the backbone's and at most
    ``nodes * (nodes - 1)``), ``cap_low``/``cap_high`` and ``cost_low``/``cost_high``
    (inclusive ranges of edge capacities and weights; ``cap_low`` >= 1), and
    ``supply`` (total supply, >= 1). ``ValueError`` for an unknown parameter or
    an empty range.
    """
    p = _params(nodes, params)
    rng = random.Random(seed)
    demand = _demands(rng, nodes, int(p["supply"]))
    routed = _backbone(rng, demand)
    cap_low, cap_high, cost_low, cost_high = (int(p[k]) for k in ("cap_low", "cap_high", "cost_low", "cost_high"))
    edges = {e: (max(flow, rng.randint(cap_low, cap_high)), rng.randint(cost_low, cost_high)) for e, flow in routed}
    target = min(max(round(p["density"] * nodes), len(edges)), nodes * (nodes - 1))
    while len(edges) < target:
        u, v = rng.randrange(nodes), rng.randrange(nodes)
        if u != v and (u, v) not in edges:
            edges[u, v] = (rng.randint(cap_low, cap_high), rng.randint(cost_low, cost_high))
    order = sorted(edges)
    rng.shuffle(order)
    lines = [f"{nodes} {len(order)}", *(str(d) for d in demand)]
    lines += [f"{u} {v} {edges[u, v][0]} {edges[u, v][1]}" for u, v in order]
    return "\n".join(lines) + "\n"


def candidate_nodes(seed: int, low: int = NODES[0], high: int = NODES[1]) -> int:
    """The node count of default candidate ``seed``: uniform on ``[low, high]`` (a stream apart from the instance)."""
    return random.Random(f"nodes:{seed}").randint(low, high)


def _params(nodes: int, params: dict[str, float]) -> dict[str, float]:
    unknown = set(params) - set(DEFAULTS)
    if unknown:
        raise ValueError(f"unknown generator parameters {sorted(unknown)}; known: {sorted(DEFAULTS)}")
    p: dict[str, float] = {**DEFAULTS, **params}
    if nodes < 2 or p["supply"] < 1 or not 1 <= p["cap_low"] <= p["cap_high"] or p["cost_low"] > p["cost_high"]:
        raise ValueError(f"need nodes >= 2, supply >= 1, 1 <= cap_low <= cap_high, cost_low <= cost_high: {p}")
    return p


def _demands(rng: random.Random, nodes: int, supply: int) -> list[int]:
    """Node demands: ``supply`` units leave about nodes/5 sources and reach as many other nodes (sinks)."""
    ends = max(1, min(nodes // 5, supply))
    order = list(range(nodes))
    rng.shuffle(order)
    demand = [0] * nodes
    for side, sign in ((order[:ends], -1), (order[ends : 2 * ends], 1)):
        for k in range(supply):
            node = side[k] if k < ends else side[rng.randrange(ends)]  # every end gets at least one unit
            demand[node] += sign
    return demand


def _backbone(rng: random.Random, demand: list[int]) -> list[tuple[tuple[int, int], int]]:
    """The edges of a random spanning tree's source-to-sink paths, with the flow a greedy pairing routes on each."""
    nodes = len(demand)
    order = list(range(nodes))
    rng.shuffle(order)
    parent = {order[0]: order[0]}
    depth = {order[0]: 0}
    for k in range(1, nodes):  # a random recursive tree over a random order of the nodes
        parent[order[k]] = order[rng.randrange(k)]
        depth[order[k]] = depth[parent[order[k]]] + 1
    sources = [[u, -d] for u, d in enumerate(demand) if d < 0]
    sinks = [[u, d] for u, d in enumerate(demand) if d > 0]
    flow: dict[tuple[int, int], int] = {}
    while sources:
        (a, left), (b, need) = sources[-1], sinks[-1]
        amount = min(left, need)
        for edge in _tree_path(a, b, parent, depth):
            flow[edge] = flow.get(edge, 0) + amount
        sources[-1][1] -= amount
        sinks[-1][1] -= amount
        if sources[-1][1] == 0:
            sources.pop()
        if sinks[-1][1] == 0:
            sinks.pop()
    return sorted(flow.items())


def _tree_path(a: int, b: int, parent: dict[int, int], depth: dict[int, int]) -> list[tuple[int, int]]:
    """The directed edges of the tree path from ``a`` to ``b``."""
    up: list[tuple[int, int]] = []
    down: list[tuple[int, int]] = []
    while a != b:
        if depth[a] >= depth[b]:
            up.append((a, parent[a]))
            a = parent[a]
        else:
            down.append((parent[b], b))
            b = parent[b]
    return up + down[::-1]


def main(argv: list[str]) -> None:
    """``generator.py SEED NODES``: print the instance with the default parameters."""
    if len(argv) != 2:
        raise SystemExit("usage: python generator.py SEED NODES")
    sys.stdout.write(instance(int(argv[0]), int(argv[1])))


if __name__ == "__main__":
    main(sys.argv[1:])
