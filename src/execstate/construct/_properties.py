"""Fill a structure's bounds and properties from its samples, decide what grows with the size, and rank the shapes.

``_infer.structures`` finds where the lines and counts are; this module reads
every sample again through that structure and keeps what holds in all of
them: each integer's range and its bounds by earlier variables
(``k <= n``, ``r >= l``), a word's alphabet and the variable its length
equals, an array's distinct values, permutation, order and parent-array
bound (``a[j] <= j + c``), rows that are the edges of a tree. Variables that
count something (or bound the values inside rows and arrays) become size
variables: ``gen.py`` sets them from its size argument, split so that the
input grows about linearly (``T`` cases of ``n`` values: ``sqrt(size)`` each).

``infer_shapes`` is the entry point: the ranked shapes, or the reason there is none.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from execstate.construct._infer import LINKS, Cursor, consume, structures
from execstate.construct._shape import (
    INT,
    Array,
    Count,
    Field,
    Float,
    Int,
    Item,
    Line,
    Ref,
    Rows,
    Shape,
    Word,
    check,
    describe,
    is_tree,
    tokenize,
)

MAX_SHAPES = 4
"""Shapes handed to construct, best first: it tries them in order until one gives a long input."""

ItemPath = tuple[int, ...]
"""Where an item or field sits in a shape: its index at each level (``(2, 0, 1)``: field 1 of item 0 of rows 2)."""


@dataclass(frozen=True)
class Inferred:
    """What inference made of a problem's samples: shapes best first, or why there is none."""

    shapes: tuple[Shape, ...]
    reason: str | None = None


def infer_shapes(samples: Sequence[bytes]) -> Inferred:
    """The shapes every sample has (each accepts every sample, ``check``), best first; never raises for the samples.

    A shape without any size variable gets variants that grow one top-level
    integer instead (``n`` alone on a line), tried after the others.
    """
    found, reason = structures(samples)
    if not found:
        return Inferred((), reason)
    lines = [tokenize(s) for s in samples]
    observed = []
    for skeleton in found:
        try:
            observed.append((skeleton, _observe(skeleton, lines)))
        except (IndexError, ValueError):  # the walk reads past a sample where the search's consume did not
            continue
    if not observed:
        return Inferred((), "no structure that fits every sample can be walked value by value")
    for skeleton, obs in observed:
        _forget_digit_strings(skeleton, obs, _link_vars(skeleton))
    observed.sort(key=lambda pair: _score(*pair))  # stable: the search's order breaks ties
    candidates: list[tuple[tuple[bool, bool, bool], Shape]] = []
    for skeleton, obs in observed:
        free = _score(skeleton, obs)[0] > 0
        for widen in (True, False):
            shape = _sized(Shape(_finalize(skeleton, obs, (), widen, _link_vars(skeleton))))
            if _grows(shape.items):
                candidates.append(((free, False, not widen), shape))
            elif not widen:  # nothing counts anything: grow a lone integer instead, its other values as seen
                candidates.extend(((free, True, False), variant) for variant in _promotions(shape))
    # stable: free counts last, promoted integers after natural sizes, and the other structures before the
    # same structure with its values kept to the ranges seen (a wrong structure fails fast, a value rarely)
    candidates.sort(key=lambda pair: pair[0])
    shapes: list[Shape] = []
    seen: set[str] = set()
    for _, shape in candidates:
        text = describe(shape)
        if text in seen or any(check(shape, s) is not None for s in samples):
            continue
        seen.add(text)
        shapes.append(shape)
        if len(shapes) >= MAX_SHAPES:
            break
    if not shapes:
        return Inferred((), "no inferred shape grows with a size: no count, length or integer to scale")
    return Inferred(tuple(shapes))


# ---------------------------------------------------------------- ranking


def _score(items: tuple[Item, ...], obs: dict[ItemPath, list[Any]]) -> tuple[int, int, int, int, int]:
    """Lower is better: fewer free counts, fewer unusual links (``2n``, ``n+1``), fewer weak links (rows that never
    repeat, arrays whose length never varies: a line of fields explains those), fewer lines, more varying links."""
    free = odd = weak = strong = lines = 0
    stack: list[tuple[Item, ItemPath]] = [(item, (i,)) for i, item in enumerate(items)]
    while stack:
        item, path = stack.pop()
        if not isinstance(item, Rows):
            lines += 1
        if isinstance(item, Line):
            continue
        if isinstance(item, Rows):
            stack.extend((b, (*path, j)) for j, b in enumerate(item.body))
            seen = {r[0] for r in obs.get(path, [])}
        else:
            seen = {len(r[0]) for r in obs.get(path, [])}
        if item.count.var is None:
            free += 1
            continue
        odd += item.count.scale != 1 or item.count.offset > 0
        weak += seen <= {0, 1} if isinstance(item, Rows) else len(seen) <= 1
        strong += len(seen) > 1
    return (free, odd, weak, lines, -strong)


# ---------------------------------------------------------------- observing the samples


def _observe(items: tuple[Item, ...], samples: list[list[list[str]]]) -> dict[ItemPath, list[Any]]:
    """Every value the structure reads from the samples, by the path of its item or field."""
    obs: dict[ItemPath, list[Any]] = {}
    for lines in samples:
        _walk(items, Cursor(lines, 0), (), obs)
    return obs


def _walk(items: tuple[Item, ...], cur: Cursor, path: ItemPath, obs: dict[ItemPath, list[Any]]) -> None:
    for i, item in enumerate(items):
        here = (*path, i)
        if isinstance(item, Line):
            tokens = cur.lines[cur.pos]
            for k, (f, token) in enumerate(zip(item.fields, tokens, strict=True)):
                obs.setdefault((*here, k), []).append((token, dict(cur.env)))
                if isinstance(f, Int) and f.name:
                    cur.env[f.name] = int(token)
            cur.pos += 1
        elif isinstance(item, Array):
            n = item.count.value(cur.env)
            tokens = cur.lines[cur.pos] if cur.pos < len(cur.lines) else []
            obs.setdefault(here, []).append((tokens if n != 0 else [], dict(cur.env)))
            consume((item,), cur)
        else:
            _walk_rows(item, cur, here, obs)


def _walk_rows(item: Rows, cur: Cursor, here: ItemPath, obs: dict[ItemPath, list[Any]]) -> None:
    n = item.count.value(cur.env)
    pairs: list[tuple[int, int]] = []
    count = 0
    while (n is None and cur.line() is not None) or (n is not None and count < n):
        local = Cursor(cur.lines, cur.pos, dict(cur.env))
        first = cur.lines[cur.pos]
        if len(first) >= 2 and all(INT.fullmatch(t) for t in first[:2]):  # a digit run too long is no node
            pairs.append((int(first[0]), int(first[1])))
        _walk(item.body, local, here, obs)
        cur.pos = local.pos
        count += 1
    obs.setdefault(here, []).append((count, pairs, dict(cur.env)))


# ---------------------------------------------------------------- bounds and properties


def _link_vars(items: tuple[Item, ...]) -> set[str]:
    found: set[str] = set()
    for item in items:
        if isinstance(item, (Rows, Array)) and item.count.var is not None:
            found.add(item.count.var)
        if isinstance(item, Rows):
            found |= _link_vars(item.body)
    return found


def _finalize(
    items: tuple[Item, ...], obs: dict[ItemPath, list[Any]], path: ItemPath, widen: bool, links: set[str]
) -> tuple[Item, ...]:
    out: list[Item] = []
    for i, item in enumerate(items):
        here = (*path, i)
        if isinstance(item, Line):
            out.append(_line(item, obs, here, widen, links))
        elif isinstance(item, Array):
            out.append(_array(item, obs.get(here, []), widen))
        else:
            body = _finalize(item.body, obs, here, widen, links)
            out.append(_rows(item, body, obs.get(here, [])))
    return tuple(out)


def _line(item: Line, obs: dict[ItemPath, list[Any]], here: ItemPath, widen: bool, links: set[str]) -> Line:
    fields: list[Field] = []
    for k, f in enumerate(item.fields):
        records: list[tuple[str, dict[str, int]]] = obs.get((*here, k), [])
        tokens = [t for t, _ in records]
        envs = [env for _, env in records]
        if isinstance(f, Int) and (f.name in links or not _digits_link(tokens, envs)):
            same_line = [g.name for g in fields if isinstance(g, Int) and g.name]
            fields.append(_int(f.name, [int(t) for t in tokens], envs, widen, same_line))
        else:
            fields.append(_field(f, tokens, envs))
    return Line(tuple(fields))


def _field(f: Field, tokens: list[str], envs: list[dict[str, int]]) -> Field:
    """A float's range, or a word's alphabet and length (a digit string's too)."""
    if isinstance(f, Float):
        values = [float(t) for t in tokens] or [0.0]
        decimals = max((len(t.partition(".")[2]) for t in tokens), default=0)
        return Float(min(values), max(values), decimals)
    return Word("".join(sorted({ch for t in tokens for ch in t})), _length(tokens, envs))


def _digits_link(tokens: list[str], envs: list[dict[str, int]]) -> bool:
    """An integer token whose number of digits is a variable's value, and varies with it: a digit string
    (``n`` then ``108``)."""
    return len({len(t) for t in tokens}) >= 2 and _length(tokens, envs).var is not None


def _length(tokens: list[str], envs: list[dict[str, int]]) -> Count:
    """The variable the tokens' lengths equal in every sample (latest first), else their free range."""
    lengths = [len(t) for t in tokens]
    names = [n for n in (envs[0] if envs else {}) if all(n in e for e in envs)]
    for scale, offset in LINKS:
        for name in reversed(names):
            if all(scale * e[name] + offset == n for e, n in zip(envs, lengths, strict=True)):
                return Count(name, scale, offset)
    return Count(lo=min(lengths, default=0), hi=max(lengths, default=0))


def _int(name: str | None, values: list[int], envs: list[dict[str, int]], widen: bool, same_line: list[str]) -> Int:
    """An integer's observed range and its bounds by earlier variables; ``widen``: an upper bound by a variable
    replaces the observed maximum (labels up to ``n`` grow with ``n``)."""
    lo, hi = min(values, default=0), max(values, default=0)
    upper, lower = _refs(values, envs, same_line)
    return Int(name, lo, None if widen and upper else hi, upper, lower)


def _refs(
    values: list[int], envs: list[dict[str, int]], same_line: list[str]
) -> tuple[tuple[Ref, ...], tuple[Ref, ...]]:
    """Bounds by earlier variables that hold for every value, latest variable first: at most two upper ones
    (``<= n``, ``<= n - 1``) and one lower one by a field before it on its line (``l r``: ``r >= l``)."""
    if not values:
        return (), ()
    names = [n for n in envs[0] if all(n in e for e in envs)]
    upper: list[Ref] = []
    lower: list[Ref] = []
    for name in reversed(names):
        diffs = [v - e[name] for v, e in zip(values, envs, strict=True)]
        if max(diffs) <= 0 and len(upper) < 2:
            upper.append(Ref(name, max(max(diffs), -1)))
        if name in same_line and min(diffs) >= 0 and not lower:
            lower.append(Ref(name, min(min(diffs), 1)))
    return tuple(upper), tuple(lower)


def _array(item: Array, records: list[tuple[list[str], dict[str, int]]], widen: bool) -> Array:
    rows = [tokens for tokens, _ in records]
    envs = [env for tokens, env in records for _ in tokens]
    flat = [t for tokens in rows for t in tokens]
    count = item.count if item.count.var is not None else Count(lo=min(map(len, rows)), hi=max(map(len, rows)))
    if not isinstance(item.elem, Int):
        elem = _field(item.elem, flat, envs)
        if isinstance(elem, Word):  # an array's words keep their observed lengths
            elem = replace(elem, length=Count(lo=min(map(len, flat)), hi=max(map(len, flat))))
        return Array(count, elem)
    values = [[int(t) for t in tokens] for tokens in rows]
    elem_int = _int(None, [v for vs in values for v in vs], envs, widen, [])
    long = any(len(vs) >= 2 for vs in values)
    if not long:
        return Array(count, elem_int)
    index_hi = max(v - j for vs in values for j, v in enumerate(vs))
    if index_hi <= 1 and elem_int.lo >= 0 and count.var is not None and (count.scale, count.offset) == (1, -1):
        return Array(count, replace(elem_int, hi=None, upper=()), index_hi=index_hi)  # n - 1 parents: a tree
    perm = next((b for b in (1, 0) if all(sorted(vs) == list(range(b, b + len(vs))) for vs in values)), None)
    if perm is not None:  # the permutation decides the values
        return Array(count, Int(None, perm, None), permutation=perm)
    steps = [pair for vs in values for pair in itertools.pairwise(vs)]
    order = "increasing" if all(a < b for a, b in steps) else "sorted" if all(a <= b for a, b in steps) else ""
    distinct = order == "increasing" or all(len(set(vs)) == len(vs) for vs in values)
    return Array(count, elem_int, distinct, None, order)


def _rows(item: Rows, body: tuple[Item, ...], records: list[tuple[int, list[tuple[int, int]], dict[str, int]]]) -> Rows:
    counts = [n for n, _, _ in records]
    count = item.count if item.count.var is not None else Count(lo=min(counts, default=0), hi=max(counts, default=0))
    first = body[0] if body else None
    edge_line = isinstance(first, Line) and len(first.fields) >= 2 and all(isinstance(f, Int) for f in first.fields[:2])
    if count.var is None or (count.scale, count.offset) != (1, -1) or not edge_line or max(counts, default=0) < 1:
        return Rows(count, body)
    for base in (1, 0):
        if all(is_tree(pairs, base) for _, pairs, _ in records):
            assert isinstance(first, Line)
            ends = tuple(Int(f.name, base, None) for f in first.fields[:2] if isinstance(f, Int))
            return Rows(count, (Line((*ends, *first.fields[2:])), *body[1:]), base)
    return Rows(count, body)


def _forget_digit_strings(items: tuple[Item, ...], obs: dict[ItemPath, list[Any]], links: set[str]) -> None:
    """Remove the variables that are digit strings (``_digits_link``) from every recorded environment, so that
    no bound or count names them: they are strings, not integers, in the shape."""
    gone: set[str] = set()
    stack: list[tuple[Item, ItemPath]] = [(item, (i,)) for i, item in enumerate(items)]
    while stack:
        item, here = stack.pop()
        if isinstance(item, Rows):
            stack.extend((b, (*here, j)) for j, b in enumerate(item.body))
        elif isinstance(item, Line):
            for k, f in enumerate(item.fields):
                records = obs.get((*here, k), [])
                digits = _digits_link([t for t, _ in records], [e for _, e in records])
                if isinstance(f, Int) and f.name and f.name not in links and digits:
                    gone.add(f.name)
    for records in obs.values():
        for record in records:
            for name in gone:
                record[-1].pop(name, None)  # every record ends with its environment


# ---------------------------------------------------------------- sizes


def _sized(shape: Shape) -> Shape:
    """The shape with its size variables' exponents set and its top-level free counts growing."""
    exps: dict[str, float] = {}
    _exponents(shape.items, 0, exps)
    return Shape(_apply(shape.items, exps, top=True))


def _chain(items: tuple[Item, ...]) -> int:
    """The most containers (rows, arrays, words of a variable's length) nested along one path through ``items``."""
    best = 0
    for item in items:
        if isinstance(item, Line):
            best = max(best, max((1 for f in item.fields if isinstance(f, Word) and f.length.var), default=0))
        elif isinstance(item, Array):
            best = max(best, 1)
        else:
            best = max(best, 1 + _chain(item.body))
    return best


def _exponents(
    items: tuple[Item, ...], above: int, exps: dict[str, float], outer: frozenset[str] = frozenset()
) -> None:
    """Each size variable's exponent: 1 / the containers along the longest path it counts (``outer``: the
    variables declared outside these items, which bound the values inside them)."""

    def note(var: str | None, total: int) -> None:
        if var is not None:
            exps[var] = min(exps.get(var, 1.0), 1.0 / total)

    declared = set(outer)
    for item in items:
        if isinstance(item, Line):
            for f in item.fields:
                if isinstance(f, Word):
                    note(f.length.var, above + 1)
                elif isinstance(f, Int) and f.name:
                    declared.add(f.name)
        elif isinstance(item, Array):
            note(item.count.var, above + 1)
            for r in item.elem.upper if isinstance(item.elem, Int) else ():
                note(r.var, above + 1)
        else:
            note(item.count.var, above + 1 + _chain(item.body))
            _exponents(item.body, above + 1, exps, frozenset(declared))
            for f in (f for i in item.body if isinstance(i, Line) for f in i.fields if isinstance(f, Int)):
                for r in f.upper:
                    if r.var in declared:
                        note(r.var, above + 1)


def _apply(items: tuple[Item, ...], exps: dict[str, float], *, top: bool) -> tuple[Item, ...]:
    out: list[Item] = []
    for item in items:
        if isinstance(item, Line):
            out.append(Line(tuple(_grow_field(f, exps, top) for f in item.fields)))
        elif isinstance(item, Array):
            count = replace(item.count, exponent=1.0) if top and item.count.var is None else item.count
            out.append(replace(item, count=count))
        else:
            count = item.count
            if top and count.var is None:
                count = replace(count, exponent=1.0 / (1 + _chain(item.body)))
            out.append(replace(item, count=count, body=_apply(item.body, exps, top=False)))
    return tuple(out)


def _grow_field(f: Field, exps: dict[str, float], top: bool) -> Field:
    if isinstance(f, Int) and f.name in exps:
        # a size variable is capped only by other size variables, and at most by their value: `m <= n - 1` seen
        # in two samples is more often a coincidence than a rule, and `n == m` may be what the program needs
        upper = tuple(Ref(r.var) for r in f.upper if r.var in exps)
        return replace(f, hi=None, upper=upper, exponent=exps[f.name])
    if isinstance(f, Word) and top and f.length.var is None:
        return replace(f, length=replace(f.length, exponent=1.0))
    return f


def _grows(items: tuple[Item, ...]) -> bool:
    """Whether anything in ``items`` grows with the size."""
    for item in items:
        if isinstance(item, Line) and any(
            (isinstance(f, Int) and f.exponent) or (isinstance(f, Word) and f.length.exponent) for f in item.fields
        ):
            return True
        if isinstance(item, (Array, Rows)) and item.count.exponent:
            return True
        if isinstance(item, Rows) and _grows(item.body):
            return True
    return False


def _promotions(shape: Shape) -> list[Shape]:
    """Variants of a shape that does not grow: each top-level integer variable in turn becomes a size variable."""
    out = []
    for i, item in enumerate(shape.items):
        if not isinstance(item, Line):
            continue
        for k, f in enumerate(item.fields):
            if isinstance(f, Int) and f.name is not None:
                fields = (*item.fields[:k], replace(f, hi=None, exponent=1.0), *item.fields[k + 1 :])
                out.append(Shape((*shape.items[:i], Line(fields), *shape.items[i + 1 :])))
    return out
