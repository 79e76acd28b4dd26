"""Write a shape as a short, readable, seeded input generator ``gen.py`` (standard library only).

The generator is called as ``python gen.py SEED SIZE`` (the pool's generator
convention, ``docs/construct.md``): ``random.Random(SEED)`` draws every value,
and SIZE sets the size variables (``n = size``; ``round(size ** 0.5)`` each when
two counts nest, as ``T`` cases of ``n`` values), so the input grows about
linearly with SIZE. Every other value stays within the bounds and properties
of the shape, and the same arguments always print the same bytes. What it
prints is accepted by ``_shape.check`` for the same shape.
"""

from __future__ import annotations

from execstate.construct._shape import Array, Count, Field, Float, Int, Item, Line, Ref, Rows, Shape, Word, describe

_HEADER = '''"""Input generator that `execstate construct` synthesized from the sample inputs of problem {problem}.

Inferred shape: {shape}
Run: python gen.py SEED SIZE   (one input on stdout; the same SEED and SIZE always print the same bytes)
"""

import random
import sys

rng = random.Random(int(sys.argv[1]))
size = int(sys.argv[2])
out = []


def pick(lo, hi):
    """A random integer in lo..hi; lo when the range is empty."""
    return rng.randint(lo, hi) if lo < hi else lo


def word(alphabet, length):
    """A random string of `length` characters from `alphabet`."""
    return "".join(rng.choice(alphabet) for _ in range(length))

'''


def generator_source(shape: Shape, problem: str) -> str:
    """The text of ``gen.py`` for ``shape`` (``problem`` names where the samples came from)."""
    body: list[str] = []
    for item in shape.items:
        _item(item, 0, body)
    head = _HEADER.format(problem=problem, shape=describe(shape).replace("\\", "\\\\").replace('"""', "'''"))
    return head + "\n" + "\n".join(body) + '\nsys.stdout.write("\\n".join(out) + "\\n")\n'


def _item(item: Item, depth: int, out: list[str]) -> None:
    pad = "    " * depth
    if isinstance(item, Line):
        names = [_field(f, k, pad, out) for k, f in enumerate(item.fields)]
        out.append(f"{pad}out.append({_joined(names)})")
    elif isinstance(item, Array):
        _array(item, pad, out)
    elif item.tree is not None:
        _tree(item, depth, out)
    else:
        loop = "_" if depth == 0 else f"_{depth}"
        out.append(f"{pad}for {loop} in range({_count(item.count)}):")
        for inner in item.body:
            _item(inner, depth + 1, out)


def _joined(names: list[str]) -> str:
    if not names:
        return '""'
    return 'f"' + " ".join("{" + n + "}" for n in names) + '"'


def _field(f: Field, k: int, pad: str, out: list[str]) -> str:
    """Emit the statement that draws field ``f`` (the ``k``-th of its line); the name that holds it."""
    name = f.name if isinstance(f, Int) and f.name else f"tok{k}"
    out.append(f"{pad}{name} = {_value(f)}")
    return name


def _value(f: Field, index_cap: str | None = None) -> str:
    if isinstance(f, Word):
        return f"word({f.alphabet!r}, {_count(f.length)})"
    if isinstance(f, Float):
        return f'f"{{rng.uniform({f.lo!r}, {f.hi!r}):.{f.decimals}f}}"'
    low = _low(f)
    if f.exponent:
        high = [_grown(f.exponent), *map(_ref, f.upper)]
        return f"max({low}, {_min(high)})"
    return f"pick({low}, {_min(_highs(f, index_cap))})"


def _low(f: Int) -> str:
    return f"max({f.lo}, {', '.join(map(_ref, f.lower))})" if f.lower else str(f.lo)


def _highs(f: Int, index_cap: str | None = None) -> list[str]:
    highs = ([str(f.hi)] if f.hi is not None else []) + [_ref(r) for r in f.upper]
    return highs + ([index_cap] if index_cap else [])


def _min(values: list[str]) -> str:
    return values[0] if len(values) == 1 else f"min({', '.join(values)})"


def _ref(r: Ref) -> str:
    return r.var if not r.offset else f"{r.var} {'+' if r.offset > 0 else '-'} {abs(r.offset)}"


def _grown(exponent: float) -> str:
    return "size" if exponent == 1.0 else f"round(size ** {exponent:.4g})"


def _count(c: Count) -> str:
    if c.var is None:
        return f"max({c.lo}, {_grown(c.exponent)})" if c.exponent else f"pick({c.lo}, {c.hi})"
    text = c.var if c.scale == 1 else f"{c.scale} * {c.var}"
    return text if not c.offset else f"{text} {'+' if c.offset > 0 else '-'} {abs(c.offset)}"


def _array(item: Array, pad: str, out: list[str]) -> None:
    count = _count(item.count)
    elem = item.elem
    out.append(f"{pad}count = {count}")
    if item.permutation is not None:
        out.append(f"{pad}row = list(range({item.permutation}, {item.permutation} + count))")
        out.append(f"{pad}rng.shuffle(row)")
    elif isinstance(elem, Int) and item.distinct:
        out.append(f"{pad}low, high = {_low(elem)}, {_min(_highs(elem))}")
        out.append(f"{pad}row = rng.sample(range(low, max(high, low + count - 1) + 1), count)")
    elif isinstance(elem, Int) and item.index_hi is not None:
        out.append(f"{pad}row = [{_value(elem, f'j + {item.index_hi}')} for j in range(count)]")
    else:
        out.append(f"{pad}row = [{_value(elem)} for _ in range(count)]")
    if item.order:
        out.append(f"{pad}row.sort()")
    out.append(f'{pad}out.append(" ".join(map(str, row)))')


def _tree(item: Rows, depth: int, out: list[str]) -> None:
    """Rows whose first two integers are a random tree's edges: node ``base + i`` hangs under an earlier node."""
    pad, inner = "    " * depth, "    " * (depth + 1)
    base = item.tree
    first = item.body[0]
    assert isinstance(first, Line) and base is not None
    out.append(f"{pad}for i in range(1, {_count(item.count)} + 1):  # the rows are the edges of a random tree")
    ends = [f.name if isinstance(f, Int) and f.name else f"tok{k}" for k, f in enumerate(first.fields[:2])]
    out.append(f"{inner}{ends[0]} = pick({base}, {base} + i - 1)")
    out.append(f"{inner}{ends[1]} = {base} + i")
    names = ends + [_field(f, k + 2, inner, out) for k, f in enumerate(first.fields[2:])]
    out.append(f"{inner}out.append({_joined(names)})")
    for rest in item.body[1:]:
        _item(rest, depth + 1, out)
