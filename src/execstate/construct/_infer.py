"""Infer the shapes an input may have from its samples: the structure every sample shares (``_properties.py``
then adds the bounds and properties).

The search walks all samples in step, one item at a time, depth first. At
each point it proposes, in this order: rows counted by a variable already
read (``scale * var + offset`` for the links in ``LINKS``; the rows' block is
found by growing it item by item on each sample's first row until the whole
count of rows of every sample parses), a line of values counted by a
variable, a line of fixed fields, a line of a free number of values, and, at
the top level, lines repeated to the end of the input. A structure is complete
when every sample is used up. Up to ``MAX_PARSES`` structures are collected
within ``BUDGET`` proposals; a sample set with none is a recorded reason, never
an exception.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from execstate.construct._shape import (
    FLOAT,
    INT,
    Array,
    Count,
    Field,
    Float,
    Int,
    Item,
    Line,
    Mismatch,
    Rows,
    Word,
    tokenize,
)

LINKS = ((1, 0), (1, -1), (2, 0), (1, 1))
"""Counts a variable may give, as (scale, offset): ``n``, ``n - 1``, ``2 * n``, ``n + 1``; earlier ones first."""
MAX_PARSES = 64
BUDGET = 20_000
"""Proposals the search may make before it gives up (a guard against inputs without a repeating structure)."""
MAX_BODY = 4
"""Items in one block of rows."""
MAX_BODIES = 24
"""Blocks tried for one count of rows (most blocks are one or two lines: they come first)."""
MAX_ITEMS = 40
"""Items of a whole shape."""
MAX_DEPTH = 2
"""Rows inside rows: test cases that hold a grid."""
_NAMES = ("n", "m", "k", "q", "t", "p", "r", "s", "x", "y", "z", "a", "b", "c", "d", "e", "f", "g", "h", "u", "v", "w")


def var_name(index: int) -> str:
    """The ``index``-th variable's name: ``n m k q t ...``, then ``n2 m2 ...``; never a name ``gen.py`` uses."""
    base, round_ = _NAMES[index % len(_NAMES)], index // len(_NAMES)
    return base if round_ == 0 else f"{base}{round_ + 1}"


@dataclass
class Cursor:
    """A place in one sample: the line to read next and the variables read so far."""

    lines: list[list[str]]
    pos: int
    env: dict[str, int] = field(default_factory=dict)

    def line(self) -> list[str] | None:
        return self.lines[self.pos] if self.pos < len(self.lines) else None

    def left(self) -> int:
        return len(self.lines) - self.pos


class _Exhausted(Exception):
    pass


def kind(tokens: Sequence[str]) -> str:
    """``int`` when every token is an integer, ``float`` when every one is a number, else ``word``."""
    if all(INT.fullmatch(t) for t in tokens):
        return "int"
    if all(INT.fullmatch(t) or FLOAT.fullmatch(t) for t in tokens):
        return "float"
    return "word"


def placeholder(kind_: str, name: str | None = None) -> Field:
    """A field of a kind before its bounds are known (``_properties.py`` fills them in)."""
    if kind_ == "int":
        return Int(name, 0, 0)
    return Float(0.0, 0.0, 0) if kind_ == "float" else Word("", Count())


def structures(samples: Sequence[bytes]) -> tuple[list[tuple[Item, ...]], str | None]:
    """The structures every sample fits, in the search's order, and why there is none (None when there are some)."""
    try:
        lines = [tokenize(s) for s in samples]
    except Mismatch as exc:
        return [], str(exc)
    if not lines:
        return [], "there are no samples"
    search = _Search()
    found: list[tuple[Item, ...]] = []
    try:
        for items in search.top([Cursor(ls, 0) for ls in lines], (), 0, ()):
            found.append(items)
            if len(found) >= MAX_PARSES:
                break
    except _Exhausted:
        pass
    except RecursionError:
        return [], "the samples have no repeating structure (too many distinct lines)"
    if not found:
        why = "the search ran out of its budget" if search.budget <= 0 else "no structure fits every sample"
        return [], f"{why}: the samples' lines differ in number or kind where no variable read before explains it"
    return found, None


class _Search:
    def __init__(self) -> None:
        self.budget = BUDGET

    def top(
        self, curs: list[Cursor], scope: tuple[str, ...], declared: int, items: tuple[Item, ...]
    ) -> Iterator[tuple[Item, ...]]:
        if all(c.line() is None for c in curs):
            yield items
            return
        if len(items) >= MAX_ITEMS:
            return
        for item, after, scope2, declared2 in self.proposals(curs, scope, declared, 0, items[-1:]):
            yield from self.top(after, scope2, declared2, (*items, item))

    def proposals(
        self, curs: list[Cursor], scope: tuple[str, ...], declared: int, depth: int, before: tuple[Item, ...]
    ) -> Iterator[tuple[Item, list[Cursor], tuple[str, ...], int]]:
        """Every item that fits at ``curs`` (``depth``: rows around it; ``before``: the item just read, if any),
        with the cursors after it."""
        self.budget -= 1
        if self.budget <= 0:
            raise _Exhausted
        # a count of one in every sample shows nothing, unless its variable is alone on the line before (`T`)
        last = before[0].fields if before and isinstance(before[0], Line) else ()
        alone = last[0].name if len(last) == 1 and isinstance(last[0], Int) else None
        # at the top, rows first (they give the input a size); inside rows, lines first (most blocks are lines)
        if depth == 0:
            yield from self._counted_rows(curs, scope, declared, depth, alone)
        lines = [c.line() for c in curs]
        if all(line is not None for line in lines):
            present: list[list[str]] = lines  # type: ignore[assignment]
            yield from self._lines(curs, present, scope, declared, alone)
        if 0 < depth < MAX_DEPTH:
            yield from self._counted_rows(curs, scope, declared, depth, alone)
        if depth == 0 and all(c.left() > 0 for c in curs):
            yield from self._rows_to_end(curs, scope, declared)

    def _links(self, curs: list[Cursor], scope: tuple[str, ...]) -> Iterator[Count]:
        for scale, offset in LINKS:
            for var in reversed(scope):  # the latest variable read first: `n m` then m rows
                yield Count(var, scale, offset)

    def _counted_rows(
        self, curs: list[Cursor], scope: tuple[str, ...], declared: int, depth: int, alone: str | None
    ) -> Iterator[tuple[Item, list[Cursor], tuple[str, ...], int]]:
        for count in self._links(curs, scope):
            ns = [c.env[var] * count.scale + count.offset for c in curs if (var := count.var) is not None]
            if min(ns) < 0 or max(ns) == 0 or any(n > c.left() for n, c in zip(ns, curs, strict=True)):
                continue
            if set(ns) == {1} and (depth > 0 or count != Count(alone)):
                continue
            firsts = [Cursor(c.lines, c.pos, dict(c.env)) for c, n in zip(curs, ns, strict=True) if n > 0]
            shortest_first = (
                self._bodies(firsts, scope, declared, depth + 1, (), size) for size in range(1, MAX_BODY + 1)
            )
            for body, declared2 in itertools.islice(itertools.chain.from_iterable(shortest_first), MAX_BODIES):
                if len(body) == 1 and isinstance(body[0], Rows):  # rows of rows: a product, not a structure
                    continue
                after = [repeat(body, c, n) for c, n in zip(curs, ns, strict=True)]
                if all(a is not None for a in after):
                    yield Rows(count, body), after, scope, declared2  # type: ignore[misc]

    def _bodies(
        self, curs: list[Cursor], scope: tuple[str, ...], declared: int, depth: int, prefix: tuple[Item, ...], size: int
    ) -> Iterator[tuple[tuple[Item, ...], int]]:
        """Blocks of ``size`` items read from each sample's first row (the caller checks every row against them)."""
        for item, after, scope2, declared2 in self.proposals(curs, scope, declared, depth, prefix[-1:]):
            body = (*prefix, item)
            if len(body) == size:
                yield body, declared2
            else:
                yield from self._bodies(after, scope2, declared2, depth, body, size)

    def _lines(
        self, curs: list[Cursor], lines: list[list[str]], scope: tuple[str, ...], declared: int, alone: str | None
    ) -> Iterator[tuple[Item, list[Cursor], tuple[str, ...], int]]:
        tokens = [t for line in lines for t in line]
        if tokens:
            elem = kind(tokens)
            for count in self._links(curs, scope):
                if {len(line) for line in lines} == {1} and count != Count(alone):
                    continue
                if all(count.value(c.env) == len(line) for c, line in zip(curs, lines, strict=True)):
                    yield Array(count, placeholder(elem)), _advanced(curs), scope, declared
        widths = {len(line) for line in lines}
        if len(widths) == 1:
            line_item, declared2 = _fixed_line(list(zip(*lines, strict=True)), declared)
            after = _advanced(curs)
            for c, line in zip(after, lines, strict=True):
                c.env.update(_bound(line_item, line))
            names = tuple(f.name for f in line_item.fields if isinstance(f, Int) and f.name)
            yield line_item, after, (*scope, *names), declared2
        elif tokens:
            yield Array(Count(), placeholder(kind(tokens))), _advanced(curs), scope, declared

    def _rows_to_end(
        self, curs: list[Cursor], scope: tuple[str, ...], declared: int
    ) -> Iterator[tuple[Item, list[Cursor], tuple[str, ...], int]]:
        rest = [line for c in curs for line in c.lines[c.pos :]]
        widths = {len(line) for line in rest}
        tokens = [t for line in rest for t in line]
        body: Item
        if len(widths) == 1 and tokens:
            body, declared = _fixed_line(list(zip(*rest, strict=True)), declared)
        elif tokens and 0 not in widths:
            body = Array(Count(), placeholder(kind(tokens)))
        else:
            return
        after = [Cursor(c.lines, len(c.lines), c.env) for c in curs]
        yield Rows(Count(), (body,)), after, scope, declared


def _fixed_line(columns: list[tuple[str, ...]], declared: int) -> tuple[Line, int]:
    """A line whose fields have the columns' kinds; each integer column is a new variable."""
    fields: list[Field] = []
    for column in columns:
        k = kind(column)
        fields.append(placeholder(k, var_name(declared) if k == "int" else None))
        declared += k == "int"
    return Line(tuple(fields)), declared


def _bound(line: Line, tokens: list[str]) -> dict[str, int]:
    return {f.name: int(t) for f, t in zip(line.fields, tokens, strict=True) if isinstance(f, Int) and f.name}


def _advanced(curs: list[Cursor]) -> list[Cursor]:
    return [Cursor(c.lines, c.pos + 1, dict(c.env)) for c in curs]


def repeat(body: tuple[Item, ...], cur: Cursor, n: int) -> Cursor | None:
    """The cursor after ``n`` repetitions of ``body`` from ``cur`` (variables of the body stay local), or None."""
    pos = cur.pos
    for _ in range(n):
        local = Cursor(cur.lines, pos, dict(cur.env))
        if not consume(body, local):
            return None
        pos = local.pos
    return Cursor(cur.lines, pos, dict(cur.env))


def consume(items: tuple[Item, ...], cur: Cursor) -> bool:
    """Read ``items`` from ``cur`` (moving it, binding their variables) by structure alone; False if they do not fit."""
    for item in items:
        if isinstance(item, Rows):
            n = item.count.value(cur.env)
            if n is None:
                while cur.line() is not None:
                    if not consume(item.body, local := Cursor(cur.lines, cur.pos, dict(cur.env))):
                        return False
                    cur.pos = local.pos
                continue
            after = repeat(item.body, cur, n) if n >= 0 else None
            if after is None:
                return False
            cur.pos = after.pos
            continue
        line = cur.line()
        if isinstance(item, Array):
            n = item.count.value(cur.env)
            if n == 0 and not line:
                cur.pos = min(cur.pos + 1, len(cur.lines))
                continue
            if line is None or (n is not None and len(line) != n) or not all(_fits(item.elem, t) for t in line):
                return False
        else:
            if line is None or len(line) != len(item.fields) or not all(map(_fits, item.fields, line)):
                return False
            cur.env.update(_bound(item, line))
        cur.pos += 1
    return True


def _fits(f: Field, token: str) -> bool:
    if isinstance(f, Int):
        return INT.fullmatch(token) is not None
    if isinstance(f, Float):
        return INT.fullmatch(token) is not None or FLOAT.fullmatch(token) is not None
    return True
