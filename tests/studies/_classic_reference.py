"""Independent reference checks for the classic study's thirty programs.

Each ``check_<case>(stdin, stdout)`` recomputes what the program must print
by a different route (a library routine, a brute force, or a formulation
that shares no code with the program) and asserts that ``stdout`` agrees.
Where a program's output names one of several equally good answers (a plan,
a path, a subsequence), the check validates the answer's properties instead
of its exact text. Counters that only exist inside an algorithm (swaps,
Newton steps, relaxation rounds) are derived from their definition here.
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections import deque
from collections.abc import Callable
from fractions import Fraction
from functools import cache

import networkx as nx
import numpy as np
from scipy.integrate import simpson
from scipy.optimize import Bounds, LinearConstraint, milp
from scipy.spatial import ConvexHull

Check = Callable[[str, str], None]


def ints(text: str) -> list[int]:
    """All whitespace-separated tokens of ``text`` as integers."""
    return [int(tok) for tok in text.split()]


def expect(stdout: str, expected: str) -> None:
    """Assert exact output, showing both sides on failure."""
    assert stdout == expected, f"program printed\n{stdout!r}\nreference says\n{expected!r}"


# ---------------------------------------------------------------- dynamic programming


def check_kadane(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    values = data[1 : 1 + data[0]]
    prefix = list(itertools.accumulate(values, initial=0))
    # Best sum, then earliest end, then latest start (shortest run).
    best = max((prefix[j + 1] - prefix[i], -j, i) for j in range(len(values)) for i in range(j + 1))
    expect(stdout, f"{best[0]}\n{best[2] + 1} {-best[1] + 1}\n")


def check_house_robber(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    values = data[1 : 1 + data[0]]
    n = len(values)
    ring = np.zeros((n, n))
    for i in range(n):
        ring[i, i] = ring[i, (i + 1) % n] = 1
    result = milp(
        c=-np.array(values, dtype=float),
        integrality=np.ones(n),
        bounds=Bounds(0, 1),
        constraints=LinearConstraint(ring, -np.inf, 1),
    )
    optimum = round(-result.fun)
    total_line, plan_line = stdout.splitlines()
    plan = [h - 1 for h in ints(plan_line)]
    assert int(total_line) == optimum
    assert sum(values[h] for h in plan) == optimum, "plan does not add up to the total"
    chosen = set(plan)
    assert all((h + 1) % n not in chosen for h in plan) or n == 1, "plan robs two neighbours"


def check_stock_cooldown(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    n = data[0]
    prices, fees = data[1 : 1 + n], data[2 + n :]
    lines = []
    for fee in fees:
        profit, trades = _stock_by_longest_path(prices, fee)
        lines.append(f"fee {fee}: profit {profit}, trades {trades}\n")
    expect(stdout, "".join(lines))


def _stock_by_longest_path(prices: list[int], fee: int) -> tuple[int, int]:
    """Best (profit, trades) as a longest path in the DAG of (day, state) nodes."""
    scale, shift = 1000, 10**7  # weight = cash * scale + trades; shift keeps weights positive
    graph = nx.DiGraph()
    graph.add_edge("start", (0, "hold"), weight=-prices[0] * scale + shift)
    graph.add_edge("start", (0, "rest"), weight=shift)
    for day, price in enumerate(prices[1:], 1):
        moves = [
            ("hold", "hold", 0),
            ("rest", "hold", -price * scale),
            ("hold", "sold", (price - fee) * scale + 1),
            ("sold", "rest", 0),
            ("rest", "rest", 0),
        ]
        for before, after, weight in moves:
            graph.add_edge((day - 1, before), (day, after), weight=weight + shift)
    for state in ("sold", "rest"):
        graph.add_edge((len(prices) - 1, state), "end", weight=shift)
    best = nx.dag_longest_path_length(graph, weight="weight") - shift * (len(prices) + 1)
    return best // scale, best % scale


def check_decode_ways(stdin: str, stdout: str) -> None:
    mod = 1_000_000_007
    answers = []
    for digits in stdin.split():
        ways = [0] * (len(digits) + 2)  # ways[i]: decodings of the suffix digits[i:]
        ways[len(digits)] = 1
        for i in range(len(digits) - 1, -1, -1):
            if digits[i] != "0":
                ways[i] = ways[i + 1]
                if i + 1 < len(digits) and int(digits[i : i + 2]) <= 26:
                    ways[i] += ways[i + 2]
                ways[i] %= mod
        answers.append(ways[0])
        if len(digits) <= 12:
            assert ways[0] == _decodings_brute(digits)
    expect(stdout, "".join(f"{a}\n" for a in answers))


def _decodings_brute(digits: str) -> int:
    """Count every split of ``digits`` into pieces "1".."26" by trying all cut sets."""
    count = 0
    for cuts in itertools.product([False, True], repeat=len(digits) - 1):
        pieces, start = [], 0
        for i, cut in enumerate(cuts, 1):
            if cut:
                pieces.append(digits[start:i])
                start = i
        pieces.append(digits[start:])
        count += all(p[0] != "0" and 1 <= int(p) <= 26 for p in pieces)
    return count


def check_lis(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    seq = data[1 : 1 + data[0]]
    longest = [1] * len(seq)
    for i, x in enumerate(seq):
        for j in range(i):
            if seq[j] < x:
                longest[i] = max(longest[i], longest[j] + 1)
    length_line, run_line = stdout.splitlines()
    run = ints(run_line)
    assert int(length_line) == max(longest) == len(run)
    assert all(a < b for a, b in itertools.pairwise(run)), "not strictly increasing"
    rest = iter(seq)
    assert all(any(x == y for y in rest) for x in run), "not a subsequence"


# ---------------------------------------------------------------- graph algorithms


def check_bfs_maze(stdin: str, stdout: str) -> None:
    lines = stdin.split()
    grid = lines[2 : 2 + int(lines[0])]
    open_cells = {(r, c): ch for r, row in enumerate(grid) for c, ch in enumerate(row) if ch != "#"}
    graph = nx.Graph()
    graph.add_nodes_from(open_cells)
    for r, c in open_cells:
        for other in ((r + 1, c), (r, c + 1)):
            if other in open_cells:
                graph.add_edge((r, c), other)
    start = next(cell for cell, ch in open_cells.items() if ch == "S")
    target = next(cell for cell, ch in open_cells.items() if ch == "T")
    dist = nx.single_source_shortest_path_length(graph, start)
    expect(stdout, f"{dist.get(target, -1)}\n{len(dist)} {max(dist.values())}\n")


def check_dijkstra(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    n, m = data[0], data[1]
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(range(1, n + 1))
    for e in range(m):
        u, v, w = data[2 + 3 * e : 5 + 3 * e]
        graph.add_edge(u, v, weight=w)
    source, target = data[2 + 3 * m : 4 + 3 * m]
    dist = nx.single_source_dijkstra_path_length(graph, source)
    dist_line, path_line = stdout.splitlines()
    assert dist_line == " ".join(str(dist[v]) if v in dist else "-" for v in range(1, n + 1))
    if target not in dist:
        assert path_line == "no path"
        return
    path = ints(path_line.removeprefix("path "))
    assert path[0] == source and path[-1] == target
    cost = sum(min(d["weight"] for d in graph[u][v].values()) for u, v in itertools.pairwise(path))
    assert cost == dist[target], "printed path is not a shortest path"


def check_topo_order(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    n, m = data[0], data[1]
    graph = nx.DiGraph()
    graph.add_nodes_from(range(1, n + 1))
    graph.add_edges_from(zip(data[2 : 2 + 2 * m : 2], data[3 : 3 + 2 * m : 2]))
    if not nx.is_directed_acyclic_graph(graph):
        assert stdout.startswith("cycle\n")
        return
    order = list(nx.lexicographical_topological_sort(graph))
    semesters = nx.dag_longest_path_length(graph) + 1
    expect(stdout, f"order: {' '.join(map(str, order))}\nsemesters: {semesters}\n")


def check_kruskal_mst(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    n, m = data[0], data[1]
    graph = nx.Graph()
    graph.add_nodes_from(range(1, n + 1))
    for e in range(m):
        u, v, w = data[2 + 3 * e : 5 + 3 * e]
        if not graph.has_edge(u, v) or graph[u][v]["weight"] > w:
            graph.add_edge(u, v, weight=w)
    forest = nx.minimum_spanning_tree(graph)
    weight = int(forest.size(weight="weight"))
    components = nx.number_connected_components(graph)
    expect(stdout, f"weight {weight}\nedges {forest.number_of_edges()}\ncomponents {components}\n")


def check_bellman_ford(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    n, m = data[0], data[1]
    edges = [tuple(data[2 + 3 * e : 5 + 3 * e]) for e in range(m)]
    source = data[2 + 3 * m]
    graph = nx.MultiDiGraph()
    graph.add_nodes_from(range(1, n + 1))
    graph.add_weighted_edges_from(edges)
    assert not nx.negative_edge_cycle(graph), "generator made a negative cycle"
    dist = nx.single_source_bellman_ford_path_length(graph, source)
    rounds, relaxations = _bellman_rounds(n, edges, source)
    distances = " ".join(str(dist[v]) if v in dist else "inf" for v in range(1, n + 1))
    expect(stdout, f"rounds {rounds} relaxations {relaxations}\n{distances}\n")


def _bellman_rounds(n: int, edges: list[tuple[int, ...]], source: int) -> tuple[int, int]:
    """Rounds of in-order edge scans that improved something, and the improvements made."""
    best: dict[int, int] = {source: 0}
    rounds = relaxations = 0
    while True:
        improved = 0
        for u, v, w in edges:
            if u in best and (v not in best or best[u] + w < best[v]):
                best[v] = best[u] + w
                improved += 1
        if not improved:
            return rounds, relaxations
        rounds, relaxations = rounds + 1, relaxations + improved


# ---------------------------------------------------------------- strings


def check_edit_distance(stdin: str, stdout: str) -> None:
    lines = stdin.splitlines()
    answers = []
    for line in lines[1 : 1 + int(lines[0])]:
        a, b = line.split()

        @cache
        def dist(i: int, j: int) -> int:
            """Edit distance between the suffixes a[i:] and b[j:]."""
            if i == len(a) or j == len(b):
                return len(a) - i + len(b) - j
            return min(dist(i + 1, j) + 1, dist(i, j + 1) + 1, dist(i + 1, j + 1) + (a[i] != b[j]))

        answers.append(dist(0, 0))
    expect(stdout, "".join(f"{a}\n" for a in answers))


def check_kmp_search(stdin: str, stdout: str) -> None:
    pattern, text = stdin.split()
    found = [i for i in range(len(text) - len(pattern) + 1) if text.startswith(pattern, i)]
    listed = " ".join(map(str, found[:10])) if found else "none"
    expect(stdout, f"{len(found)}\n{listed}\n")


def check_run_length(stdin: str, stdout: str) -> None:
    text = stdin.strip()
    runs = [(letter, len(list(group))) for letter, group in itertools.groupby(text)]
    encoded = "".join(f"{length}{letter}" for letter, length in runs)
    letter, length = max(runs, key=lambda run: run[1])  # max() keeps the first of equals
    ratio = Fraction(len(encoded), len(text))
    expect(stdout, f"{encoded}\n{letter} {length}\n{ratio.numerator}/{ratio.denominator}\n")


def check_longest_palindrome(stdin: str, stdout: str) -> None:
    text = stdin.strip()
    n = len(text)
    spans = [(i, j) for i in range(n) for j in range(i + 2, n + 1) if text[i:j] == text[i:j][::-1]]
    if not spans:
        expect(stdout, "no palindrome longer than one letter\n")
        return
    start, end = min(spans, key=lambda span: (span[0] - span[1], span[0]))
    expect(stdout, f"{text[start:end]}\n{start}\n{len(spans)}\n")


# ---------------------------------------------------------------- sorting


def _values(stdin: str) -> list[int]:
    data = ints(stdin)
    return data[1 : 1 + data[0]]


def _inversions(values: list[int]) -> int:
    return sum(a > b for a, b in itertools.combinations(values, 2))


def check_insertion_sort(stdin: str, stdout: str) -> None:
    values = _values(stdin)
    # An element needs no shift exactly when it is >= everything before it.
    in_place = sum(values[i] >= max(values[:i]) for i in range(1, len(values)))
    expect(stdout, f"{' '.join(map(str, sorted(values)))}\nshifts {_inversions(values)}\nin place {in_place}\n")


def check_merge_inversions(stdin: str, stdout: str) -> None:
    values = _values(stdin)
    expect(stdout, f"{_inversions(values)}\n{' '.join(map(str, sorted(values)))}\n")


def check_quicksort(stdin: str, stdout: str) -> None:
    values = _values(stdin)
    median = statistics.median(Fraction(v) for v in values)
    expect(stdout, f"{' '.join(map(str, sorted(values)))}\nmedian {median}\ndistinct {len(set(values))}\n")


def check_heapsort(stdin: str, stdout: str) -> None:
    values = _values(stdin)
    heap = list(values)
    swaps = [0]

    def heapify(i: int, size: int) -> None:
        """CLRS MAX-HEAPIFY (recursive), counting exchanges."""
        largest = i
        for child in (2 * i + 1, 2 * i + 2):
            if child < size and heap[child] > heap[largest]:
                largest = child
        if largest != i:
            heap[i], heap[largest] = heap[largest], heap[i]
            swaps[0] += 1
            heapify(largest, size)

    for i in reversed(range(len(heap) // 2)):
        heapify(i, len(heap))
    build, swaps[0] = swaps[0], 0
    for size in range(len(heap) - 1, 0, -1):
        heap[0], heap[size] = heap[size], heap[0]
        heapify(0, size)
    assert heap == sorted(values)
    expect(stdout, f"{' '.join(map(str, sorted(values)))}\nbuild swaps {build}\nextract swaps {swaps[0]}\n")


# ---------------------------------------------------------------- numerical methods


def check_integer_sqrt(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    lines, steps = [], 0
    for n in data[1 : 1 + data[0]]:
        root = math.isqrt(n)
        lines.append(f"{n} {root} {'square' if root * root == n else 'not square'}\n")
        steps += _newton_steps(n)
    expect(stdout, "".join(lines) + f"steps {steps}\n")


def _newton_steps(n: int) -> int:
    """Length of the strictly decreasing run of x -> (x + n // x) // 2 iterates after x0 = n."""
    if n < 2:
        return 0
    iterates = [n, (n + 1) // 2]
    while iterates[-1] < iterates[-2]:
        x = iterates[-1]
        iterates.append((x + n // x) // 2)
    assert iterates[-2] == math.isqrt(n)
    return len(iterates) - 2


def check_prime_sieve(stdin: str, stdout: str) -> None:
    limit = int(stdin)
    primes = [p for p in range(2, limit + 1) if all(p % d for d in range(2, math.isqrt(p) + 1))]
    gaps = [(q - p, p, q) for p, q in itertools.pairwise(primes)]
    widest = max(gaps, key=lambda g: g[0]) if gaps else (0, 0, 0)
    twins = sum(g[0] == 2 for g in gaps)
    ones = sum(p % 4 == 1 for p in primes)
    threes = sum(p % 4 == 3 for p in primes)
    expect(
        stdout,
        f"primes {len(primes)}\nsum {sum(primes)}\ngap {widest[0]} {widest[1]} {widest[2]}\n"
        f"twins {twins}\n4k+1: {ones} 4k+3: {threes}\n",
    )


def check_bisection(stdin: str, stdout: str) -> None:
    lines = stdin.splitlines()
    tol = Fraction(float(lines[0]))
    outputs = stdout.splitlines()
    problems = lines[2 : 2 + int(lines[1])]
    assert len(outputs) == len(problems)
    for problem, output in zip(problems, outputs):
        lo, hi, *coeffs = (Fraction(float(tok)) for tok in problem.split())
        value = lambda x: sum(c * x**k for k, c in enumerate(reversed(coeffs)))
        if value(lo) * value(hi) > 0:
            assert output == "no sign change"
            continue
        text, halvings = output.split(" after ")
        root, halvings = float(text), int(halvings.removesuffix(" halvings"))
        full = next(k for k in itertools.count() if (hi - lo) / 2**k <= tol)
        real = [r.real for r in np.roots([float(c) for c in coeffs]) if abs(r.imag) < 1e-9]
        assert any(abs(root - r) <= float(tol) / 2 + 1e-6 for r in real), (problem, output, real)
        exact_hit = value(Fraction(root)) == 0
        assert halvings == full or (exact_hit and halvings < full), (problem, output, full)


def check_simpson(stdin: str, stdout: str) -> None:
    lines = stdin.splitlines()
    n = int(lines[0])
    outputs = stdout.splitlines()
    for line, output in zip(lines[2 : 2 + int(lines[1])], outputs, strict=True):
        a, b, *coeffs = ints(line)
        xs = np.linspace(a, b, n + 1)
        estimate = float(simpson(np.polyval(coeffs, xs), x=xs))
        degree = len(coeffs) - 1
        exact = sum(
            Fraction(c) * (Fraction(b) ** (degree - k + 1) - Fraction(a) ** (degree - k + 1)) / (degree - k + 1)
            for k, c in enumerate(coeffs)
        )
        printed, rest = output.split(" exact ")
        fraction, error = rest.split(" error ")
        assert Fraction(fraction) == exact
        assert abs(float(printed) - estimate) <= 1e-9 * max(1.0, abs(estimate))
        true_error = abs(estimate - float(exact))
        assert abs(float(error) - true_error) <= 5e-4 * true_error + 1e-9 * max(1.0, abs(estimate))  # 4 digits


# ---------------------------------------------------------------- geometry


def _points(stdin: str) -> list[tuple[int, int]]:
    data = ints(stdin)
    return [(data[1 + 2 * i], data[2 + 2 * i]) for i in range(data[0])]


def check_convex_hull(stdin: str, stdout: str) -> None:
    points = np.array(_points(stdin))
    hull = ConvexHull(points)
    ring = [tuple(int(v) for v in points[i]) for i in hull.vertices]  # counter-clockwise in 2-D
    first = ring.index(min(ring))
    ring = ring[first:] + ring[:first]
    count, vertices, area, perimeter = stdout.splitlines()
    assert int(count) == len(ring)
    assert vertices == " ".join(f"({x},{y})" for x, y in ring)
    assert area == f"twice area {round(2 * hull.volume)}"
    assert abs(float(perimeter.removeprefix("perimeter ")) - hull.area) <= 1e-4


def check_polygon_lattice(stdin: str, stdout: str) -> None:
    vertices = _points(stdin)
    xs, ys = np.array(vertices).T
    twice = int(np.dot(xs, np.roll(ys, -1)) - np.dot(np.roll(xs, -1), ys))
    boundary = set()
    for (x1, y1), (x2, y2) in zip(vertices, vertices[1:] + vertices[:1]):
        steps = max(abs(x2 - x1), abs(y2 - y1))
        for t in range(steps):
            if (x2 - x1) * t % steps == 0 and (y2 - y1) * t % steps == 0:
                boundary.add((x1 + (x2 - x1) * t // steps, y1 + (y2 - y1) * t // steps))
    gx, gy = np.meshgrid(np.arange(xs.min(), xs.max() + 1), np.arange(ys.min(), ys.max() + 1))
    inside = np.zeros(gx.shape, dtype=bool)
    for (x1, y1), (x2, y2) in zip(vertices, vertices[1:] + vertices[:1]):
        if y1 != y2:  # even-odd ray casting to the right
            crosses = ((y1 > gy) != (y2 > gy)) & (gx < x1 + (gy - y1) * (x2 - x1) / (y2 - y1))
            inside ^= crosses
    interior = int(inside.sum()) - sum(1 for x, y in boundary if inside[y - ys.min(), x - xs.min()])
    area = f"{abs(twice) // 2}" + (".5" if twice % 2 else "")
    orientation = "counter-clockwise" if twice > 0 else "clockwise"
    expect(stdout, f"{orientation}\narea {area}\nboundary {len(boundary)}\ninterior {interior}\n")


def check_closest_pair(stdin: str, stdout: str) -> None:
    pts = sorted(_points(stdin))
    sq = lambda p, q: (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2
    best = min(sq(p, q) for p, q in itertools.combinations(pts, 2))
    # The sweep at point i compares it with every earlier point whose x-gap is
    # still below the closest distance among points 0..i-1 (no bound before two points).
    compared, prefix_best = 0, None
    for i, p in enumerate(pts):
        compared += sum(1 for q in pts[:i] if prefix_best is None or (p[0] - q[0]) ** 2 < prefix_best)
        if i:
            nearest = min(sq(p, q) for q in pts[:i])
            prefix_best = nearest if prefix_best is None else min(prefix_best, nearest)
    expect(stdout, f"squared {best}\ndistance {math.sqrt(best):.6f}\ncompared {compared}\n")


def check_segment_intersections(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    segments = [tuple(data[1 + 4 * i : 5 + 4 * i]) for i in range(data[0])]
    kinds = {"cross": 0, "touch": 0, "overlap": 0}
    degree = [0] * len(segments)
    for (i, s), (j, t) in itertools.combinations(enumerate(segments), 2):
        kind = _meet(s, t)
        if kind:
            kinds[kind] += 1
            degree[i] += 1
            degree[j] += 1
    head = " ".join(f"{kind} {count}" for kind, count in kinds.items())
    expect(stdout, f"{head}\n{' '.join(map(str, degree))}\n")


def _meet(s: tuple[int, ...], t: tuple[int, ...]) -> str | None:
    """Classify by solving p + a*r = q + b*s exactly (parametric form, Fractions)."""
    px, py, rx, ry = s[0], s[1], s[2] - s[0], s[3] - s[1]
    qx, qy, sx, sy = t[0], t[1], t[2] - t[0], t[3] - t[1]
    denom = rx * sy - ry * sx
    if denom != 0:
        a = Fraction((qx - px) * sy - (qy - py) * sx, denom)
        b = Fraction((qx - px) * ry - (qy - py) * rx, denom)
        if not (0 <= a <= 1 and 0 <= b <= 1):
            return None
        return "cross" if 0 < a < 1 and 0 < b < 1 else "touch"
    shared = _shared_points(s, t)
    if not shared:
        return None
    return "touch" if len(shared) == 1 else "overlap"


def _shared_points(s: tuple[int, ...], t: tuple[int, ...]) -> set[tuple[int, int]]:
    """Endpoints lying on both segments.

    For parallel or degenerate segments the common part is empty, one point or
    a stretch whose two ends are endpoints of s or t, so the endpoints on both
    segments tell the three cases apart.
    """

    def contains(seg: tuple[int, ...], p: tuple[int, int]) -> bool:
        (x1, y1, x2, y2), (x, y) = seg, p
        collinear = (x2 - x1) * (y - y1) == (y2 - y1) * (x - x1)
        return collinear and min(x1, x2) <= x <= max(x1, x2) and min(y1, y2) <= y <= max(y1, y2)

    ends = {(s[0], s[1]), (s[2], s[3]), (t[0], t[1]), (t[2], t[3])}
    return {p for p in ends if contains(s, p) and contains(t, p)}


# ---------------------------------------------------------------- simulation


def check_game_of_life(stdin: str, stdout: str) -> None:
    header, *lines = stdin.split("\n")
    rows, cols, generations = map(int, header.split())
    grid = np.array([[ch == "#" for ch in line[:cols]] for line in lines[:rows]], dtype=int)
    history = []
    for _ in range(generations):
        around = sum(np.roll(np.roll(grid, dr, 0), dc, 1) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)
        nxt = ((around == 3) | ((grid == 1) & (around == 2))).astype(int)
        births, deaths = int(((nxt == 1) & (grid == 0)).sum()), int(((nxt == 0) & (grid == 1)).sum())
        grid = nxt
        history.append(f"{int(grid.sum())} (+{births} -{deaths})")
    picture = "".join("".join("#" if v else "." for v in row) + "\n" for row in grid)
    expect(stdout, picture + f"population: {', '.join(history)}\n")


def check_josephus(stdin: str, stdout: str) -> None:
    n, k = ints(stdin)
    survivor = 0
    for size in range(2, n + 1):  # J(size) = (J(size - 1) + k) mod size, 0-based
        survivor = (survivor + k) % size
    circle, order = deque(range(1, n + 1)), []
    while len(circle) > 1:
        circle.rotate(-(k - 1))
        order.append(circle.popleft())
    assert circle[0] == survivor + 1
    fate = "person 1 survives" if survivor == 0 else f"person 1 left at turn {order.index(1) + 1}"
    expect(stdout, f"survivor {survivor + 1}\nlast out {' '.join(map(str, order[-3:]))}\n{fate}\n")


def check_langtons_ant(stdin: str, stdout: str) -> None:
    tokens = stdin.split()
    width, height, steps, x, y = map(int, tokens[:5])
    # Positions and headings as complex numbers; y grows downwards, so a right turn is *1j.
    position, heading = complex(x, y), {"N": -1j, "E": 1, "S": 1j, "W": -1}[tokens[5]]
    black: set[complex] = set()
    for _ in range(steps):
        heading *= -1j if position in black else 1j
        black ^= {position}
        position += heading
        position = complex(position.real % width, position.imag % height)
    name = {-1j: "N", 1: "E", 1j: "S", -1: "W"}[heading]
    rows = "".join("".join("#" if complex(c, r) in black else "." for c in range(width)) + "\n" for r in range(height))
    expect(stdout, f"ant {int(position.real)} {int(position.imag)} {name}\nblack {len(black)}\n{rows}")


def check_sandpile(stdin: str, stdout: str) -> None:
    data = ints(stdin)
    rows, cols = data[0], data[1]
    grid = np.array(data[2 : 2 + rows * cols]).reshape(rows, cols)
    grains = int(grid.sum())
    topples = 0
    # Abelian property: toppling every unstable cell as often as it can, all at once,
    # reaches the same stable grid with the same number of topplings per cell.
    while (grid >= 4).any():
        times = grid // 4
        topples += int(times.sum())
        padded = np.pad(times, 1)
        grid = grid - 4 * times + padded[:-2, 1:-1] + padded[2:, 1:-1] + padded[1:-1, :-2] + padded[1:-1, 2:]
    picture = "".join(" ".join(map(str, row)) + "\n" for row in grid.tolist())
    expect(stdout, picture + f"topples {topples}\nlost {grains - int(grid.sum())}\n")


REFERENCE: dict[str, Check] = {
    name.removeprefix("check_"): fn for name, fn in globals().items() if name.startswith("check_")
}
"""Case directory name -> its reference check."""
