"""The shape of a problem's input: typed records, a checker that parses an input by its shape, and a short description.

A shape is what ``execstate construct`` infers from a problem's sample inputs
(``_infer.py``) and what a synthesized ``gen.py`` prints (``_genpy.py``). An
input is a sequence of lines of whitespace-separated tokens; a shape is a
sequence of items:

- ``Line``: one line with a fixed number of fields; its integers are named
  variables that later items may use (``n m``).
- ``Array``: one line of ``count`` values of one kind (``n`` numbers).
- ``Rows``: ``count`` repetitions of a block of items (``m`` edges, ``T`` test
  cases, the ``H`` lines of a grid); the variables of one repetition are its own.

A count is a variable's value (``scale * var + offset``: ``n``, ``n - 1``,
``2 * n``) or free (its observed range, or, at the top level, the size the
generator is asked for). Bounds and properties are those that hold in every
sample (see each field's docstring); ``check`` accepts exactly the inputs a
synthesized generator may print for the shape, so a sample is accepted by
the shape inferred from it and a generated input by the shape it came from.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

MAX_INT_DIGITS = 600
"""The most digits a token may have to be read as an integer.

A longer run of digits (an archive's test of a 200,000-digit number) is a word of digits: its length is its
size, and no value is made of it. The cap is under the smallest limit CPython may be set to for converting
integers to and from text (640 digits; 4,300 by default), so the harness never meets that limit and no setting
of it changes a shape; bounds widened from such values stay far under it too.
"""
INT = re.compile(f"-?(?:0|[1-9][0-9]{{0,{MAX_INT_DIGITS - 1}}})")
"""An integer token exactly as a generator prints one (no ``+``, no leading zeros), of at most ``MAX_INT_DIGITS``
digits."""
MAX_WHOLE_DIGITS = 300
"""The most digits a decimal number's whole part may have (``float`` of a longer one is infinite): a longer
token is a word."""
FLOAT = re.compile(f"-?[0-9]{{1,{MAX_WHOLE_DIGITS}}}\\.[0-9]+")
"""A decimal number with a point and a whole part of at most ``MAX_WHOLE_DIGITS`` digits."""


@dataclass(frozen=True)
class Ref:
    """A bound ``var + offset`` given by an integer variable defined earlier in the input."""

    var: str
    offset: int = 0


@dataclass(frozen=True)
class Count:
    """How many values, rows or characters: ``scale * var + offset``, or free when ``var`` is None."""

    var: str | None = None
    scale: int = 1
    offset: int = 0
    lo: int = 0
    """A free count's observed range is ``lo..hi`` (unused for a variable's count)."""
    hi: int = 0
    exponent: float = 0.0
    """A free count that grows with the generator's size: ``size ** exponent`` (0: it stays in ``lo..hi``)."""

    def value(self, env: dict[str, int]) -> int | None:
        """The count under the variables ``env``; None for a free count (the input decides)."""
        return None if self.var is None else self.scale * env[self.var] + self.offset

    def accepts(self, n: int) -> bool:
        """Whether a free count of ``n`` fits (a growing count: any at least ``lo``)."""
        return n >= self.lo if self.exponent else self.lo <= n <= self.hi


@dataclass(frozen=True)
class Int:
    """An integer. A size variable (``exponent > 0``) grows with the generator's size; others stay in ``lo..hi``.

    Either way the value is at least ``lo`` and every ``lower`` bound, and at most every
    ``upper`` bound (and ``hi`` unless it is a size variable); when those bounds leave no
    value, the lower end is the value.
    """

    name: str | None
    """The variable it defines (a ``Line`` field), or None (an ``Array`` element)."""
    lo: int
    hi: int | None
    """None: no observed cap (its ``upper`` bounds, or a tree's node range, bound it)."""
    upper: tuple[Ref, ...] = ()
    lower: tuple[Ref, ...] = ()
    exponent: float = 0.0


@dataclass(frozen=True)
class Float:
    """A decimal number in ``lo..hi`` printed with ``decimals`` digits after the point."""

    lo: float
    hi: float
    decimals: int


@dataclass(frozen=True)
class Word:
    """A token of characters from ``alphabet`` whose length is ``length`` (digits count as characters)."""

    alphabet: str
    length: Count


Field = Int | Float | Word


@dataclass(frozen=True)
class Line:
    """One line of fixed fields (an empty line when there are none)."""

    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Array:
    """One line of ``count`` values of the kind ``elem``, with the properties every sample has."""

    count: Count
    elem: Field
    distinct: bool = False
    permutation: int | None = None
    """The values are ``base .. base + count - 1`` in some order, with this base."""
    order: str = ""
    """``sorted`` (non-decreasing), ``increasing`` (strictly) or ``""``."""
    index_hi: int | None = None
    """Element ``j`` (from 0) is at most ``j + index_hi``: parent arrays (``p_i < i``)."""


@dataclass(frozen=True)
class Rows:
    """``count`` repetitions of ``body``; each repetition's variables are its own."""

    count: Count
    body: tuple[Item, ...]
    tree: int | None = None
    """The first two integers of each row are the edges of a tree on ``base .. base + count`` (this base)."""


Item = Line | Array | Rows


@dataclass(frozen=True)
class Shape:
    """An input's shape: its items, top to bottom."""

    items: tuple[Item, ...]


class Mismatch(Exception):
    """An input that does not have the shape; the message says where and why."""


def tokenize(data: bytes) -> list[list[str]]:
    """The lines of an input as token lists; trailing blank lines dropped. ``Mismatch`` if it is not UTF-8."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise Mismatch("the input is not UTF-8 text") from None
    lines = [line.split() for line in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def check(shape: Shape, data: bytes) -> str | None:
    """None when ``data`` has ``shape`` with every bound and property; else the first mismatch, as a sentence."""
    try:
        lines = tokenize(data)
        pos = _items(shape.items, lines, 0, {})
    except Mismatch as exc:
        return str(exc)
    if pos != len(lines):
        return f"line {pos + 1}: the shape ends here but the input goes on"
    return None


# ---------------------------------------------------------------- checking


def _line(lines: list[list[str]], pos: int) -> list[str]:
    if pos >= len(lines):
        raise Mismatch(f"line {pos + 1}: the input ends early")
    return lines[pos]


def _items(items: tuple[Item, ...], lines: list[list[str]], pos: int, env: dict[str, int]) -> int:
    for item in items:
        pos = _item(item, lines, pos, env)
    return pos


def _item(item: Item, lines: list[list[str]], pos: int, env: dict[str, int]) -> int:
    if isinstance(item, Line):
        tokens = _line(lines, pos)
        if len(tokens) != len(item.fields):
            raise Mismatch(f"line {pos + 1}: {len(tokens)} tokens, the shape has {len(item.fields)}")
        for field, token in zip(item.fields, tokens, strict=True):
            value = _field(field, token, env, pos, None)
            if isinstance(field, Int) and field.name is not None:
                env[field.name] = value  # type: ignore[assignment]
        return pos + 1
    if isinstance(item, Array):
        return _array(item, lines, pos, env)
    return _rows(item, lines, pos, env)


def _array(item: Array, lines: list[list[str]], pos: int, env: dict[str, int]) -> int:
    n = item.count.value(env)
    if n == 0 and (pos >= len(lines) or not lines[pos]):
        return min(pos + 1, len(lines))  # an empty array may leave its line out at the end of the input
    tokens = _line(lines, pos)
    if n is None:
        if not item.count.accepts(len(tokens)):
            raise Mismatch(f"line {pos + 1}: {len(tokens)} values, outside the count's range")
    elif len(tokens) != n:
        raise Mismatch(f"line {pos + 1}: {len(tokens)} values, the shape expects {n}")
    if item.distinct and isinstance(item.elem, Int):  # distinct values may need more room than the bounds give
        low, high = int_range(item.elem, env)
        item = replace(item, elem=Int(None, low, int(max(high, low + len(tokens) - 1))))
    caps = [None if item.index_hi is None else j + item.index_hi for j in range(len(tokens))]
    values = [_field(item.elem, token, env, pos, cap) for token, cap in zip(tokens, caps, strict=True)]
    _array_properties(item, values, pos)
    return pos + 1


def _array_properties(item: Array, values: list[object], pos: int) -> None:
    where = f"line {pos + 1}"
    if item.permutation is not None and sorted(values) != list(range(item.permutation, item.permutation + len(values))):  # type: ignore[type-var]
        raise Mismatch(f"{where}: not a permutation of {item.permutation}..{item.permutation + len(values) - 1}")
    if item.distinct and len(set(values)) != len(values):
        raise Mismatch(f"{where}: a value repeats")
    pairs = list(itertools.pairwise(values))
    if item.order == "sorted" and any(a > b for a, b in pairs):  # type: ignore[operator]
        raise Mismatch(f"{where}: not sorted")
    if item.order == "increasing" and any(a >= b for a, b in pairs):  # type: ignore[operator]
        raise Mismatch(f"{where}: not strictly increasing")


def _rows(item: Rows, lines: list[list[str]], pos: int, env: dict[str, int]) -> int:
    n = item.count.value(env)
    if n is None:  # a free count of rows runs to the end of the input
        start, count = pos, 0
        while pos < len(lines):
            pos = _items(item.body, lines, pos, dict(env))
            count += 1
        if not item.count.accepts(count):
            raise Mismatch(f"line {start + 1}: {count} rows, outside the count's range")
        return pos
    if n < 0:
        raise Mismatch(f"line {pos + 1}: a count of {n} rows")
    edges: list[tuple[int, int]] = []
    for _ in range(n):
        local = dict(env)
        start = pos
        pos = _items(item.body, lines, pos, local)
        if item.tree is not None:
            first = lines[start]
            edges.append((int(first[0]), int(first[1])))
    if item.tree is not None and not is_tree(edges, item.tree):
        raise Mismatch(f"line {pos}: the {n} rows above are not the edges of a tree on {item.tree}..{item.tree + n}")
    return pos


def is_tree(edges: list[tuple[int, int]], base: int) -> bool:
    """Whether ``edges`` connect the nodes ``base .. base + len(edges)`` without a cycle."""
    parent = list(range(len(edges) + 1))

    def root(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for u, v in edges:
        if not (base <= u <= base + len(edges) and base <= v <= base + len(edges)):
            return False
        ru, rv = root(u - base), root(v - base)
        if ru == rv:
            return False
        parent[ru] = rv
    return True


def _field(field: Field, token: str, env: dict[str, int], pos: int, cap: int | None) -> object:
    where = f"line {pos + 1}, token {token[:20]!r}"
    if isinstance(field, Word):
        if any(ch not in field.alphabet for ch in token):
            raise Mismatch(f"{where}: a character outside {field.alphabet!r}")
        n = field.length.value(env)
        if not (field.length.accepts(len(token)) if n is None else len(token) == n):
            raise Mismatch(f"{where}: length {len(token)} does not fit the shape")
        return token
    if isinstance(field, Float):
        if not FLOAT.fullmatch(token) and not INT.fullmatch(token):
            raise Mismatch(f"{where}: not a decimal number")
        if not field.lo <= float(token) <= field.hi:
            raise Mismatch(f"{where}: outside {field.lo}..{field.hi}")
        return float(token)
    if not INT.fullmatch(token):
        raise Mismatch(f"{where}: not an integer")
    value = int(token)
    low, high = int_range(field, env, cap)
    fits = value == low if low > high else low <= value <= high  # an empty range holds only its lower end
    if not fits:
        raise Mismatch(f"{where}: outside {low}..{high}")
    return value


def int_range(field: Int, env: dict[str, int], cap: int | None = None) -> tuple[int, float]:
    """The range an integer must lie in under ``env``; ``cap``: one more upper bound (an array's ``j + index_hi``)."""
    low = max([field.lo, *(env[r.var] + r.offset for r in field.lower)])
    uppers: list[float] = [env[r.var] + r.offset for r in field.upper]
    if not field.exponent and field.hi is not None:
        uppers.append(field.hi)
    if cap is not None:
        uppers.append(cap)
    return low, min(uppers, default=float("inf"))


# ---------------------------------------------------------------- describing


def describe(shape: Shape) -> str:
    """A one-line description: ``/`` between lines, ``m*(...)`` for rows, ``int[1..n]*n`` for an array."""
    return " / ".join(_describe_item(item) for item in shape.items) or "(empty)"


def _describe_item(item: Item) -> str:
    if isinstance(item, Line):
        return " ".join(_describe_field(f) for f in item.fields) or "(blank)"
    if isinstance(item, Array):
        props = [p for p, on in (("distinct", item.distinct), (item.order, bool(item.order))) if on]
        if item.permutation is not None:
            props = [f"perm{item.permutation}", *props]
        if item.index_hi is not None:
            props.append(f"a[j]<=j+{item.index_hi}")
        return f"{_describe_field(item.elem)}*{_describe_count(item.count)}" + (
            f"{{{','.join(props)}}}" if props else ""
        )
    body = " / ".join(_describe_item(i) for i in item.body)
    tree = f"tree{item.tree} " if item.tree is not None else ""
    return f"{_describe_count(item.count)}*({tree}{body})"


def _describe_count(count: Count) -> str:
    if count.var is None:
        return "size" if count.exponent else (f"{count.lo}..{count.hi}" if count.lo != count.hi else str(count.lo))
    text = f"{count.scale}{count.var}" if count.scale != 1 else count.var
    return text + (f"{count.offset:+d}" if count.offset else "")


def _describe_ref(r: Ref) -> str:
    return r.var + (f"{r.offset:+d}" if r.offset else "")


def _describe_field(field: Field) -> str:
    if isinstance(field, Word):
        alphabet = field.alphabet if len(field.alphabet) <= 6 else field.alphabet[:3] + ".." + field.alphabet[-1]
        return f"str[{alphabet}]^{_describe_count(field.length)}"
    if isinstance(field, Float):
        return f"float[{field.lo:g}..{field.hi:g}]"
    low = ",".join([str(field.lo), *map(_describe_ref, field.lower)]) if field.lower else str(field.lo)
    uppers = [*map(_describe_ref, field.upper)]
    cap = "size" if field.exponent else str(field.hi) if field.hi is not None else None
    high = ",".join([c for c in (cap, *uppers) if c is not None]) or "inf"
    name = f"{field.name}:" if field.name else ""
    return f"{name}int[{low}..{high}]"


def variables(items: tuple[Item, ...]) -> Iterator[Int]:
    """Every integer variable the items define, outer first, in input order."""
    for item in items:
        if isinstance(item, Line):
            yield from (f for f in item.fields if isinstance(f, Int) and f.name is not None)
        elif isinstance(item, Rows):
            yield from variables(item.body)
