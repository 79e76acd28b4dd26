"""Hypothesis strategy for small, terminating Python programs that exercise what the metrics see.

Programs read an integer from stdin and mix loops, branches, recursion, generators,
exceptions (raised, propagated, caught), classes with ``__dict__`` and
``__slots__``, shared and cyclic containers, comprehensions and prints. Every
assignment to ``a`` increases it, so each ``while a < bound`` loop ends.
"""

from __future__ import annotations

from hypothesis import strategies as st

PRELUDE = """import sys
from collections import deque
n = int(sys.stdin.readline() or 0)
a, b = 1, 2
lst, d, q = [1], {}, deque([0])

class Pt:
    def __init__(self, v):
        self.v = v
        self.tags = (v, "p")

class Sl:
    __slots__ = ("x", "__y")
    def __init__(self, x):
        self.x = x
        self.__y = [x]

def rec(k):
    if k <= 0:
        return 0
    return k + rec(k - 1)

def gen(k):
    for j in range(k):
        yield j * 2

def risky(v):
    if v % 3 == 0:
        raise ValueError(v)
    return v
"""

SIMPLE = [
    "a = a + {k}",
    "b = (a * {k} + b) % 97",
    "if len(lst) < 20: lst.append(b)",
    "d[a % 5] = [b, (a, 'x')]",
    "t = (a, lst)",
    "pair = [lst, lst]",
    "p = Pt(b % 7)",
    "sl = Sl(a)",
    "st_ = {{a % 3, b % 3, frozenset({{1, 2}})}}",
    "b = (b + rec(a % 6)) % 101",
    "for v in gen(a % 4): b = (b + v) % 103",
    "try:\n    b = risky(b)\nexcept ValueError:\n    b = 1",
    "try:\n    x = 10 // (b % 3)\nexcept ZeroDivisionError:\n    x = None",
    "sq = [i * i for i in range(a % 4)]",
    "print(a, b, len(lst))",
    "txt = 'ab' * (b % 3)",
    "if lst: lst.pop()",
    "q.append(b)\nif len(q) > 3: q.popleft()",
    "cyc = [b]\ncyc.append(cyc)",
    "b = sum(z for z in lst) % 101",
    "h = lambda y: y + a\nb = h(b) % 101",
    "del_me = [a]\ndel del_me",
    "lst.sort()",
]


def _indent(text: str) -> str:
    return "\n".join("    " + line for line in text.splitlines())


@st.composite
def block(draw, depth: int) -> str:
    """1-3 statements; compound ones only above depth 2."""
    count = draw(st.integers(1, 3))
    statements = []
    for _ in range(count):
        kinds = ["simple"] * 4 + (["if", "for", "while", "def"] if depth < 2 else [])
        kind = draw(st.sampled_from(kinds))
        k = draw(st.integers(0, 4))
        if kind == "simple":
            statements.append(draw(st.sampled_from(SIMPLE)).format(k=k))
        elif kind == "if":
            body, other = draw(block(depth + 1)), draw(block(depth + 1))
            statements.append(f"if (a + b) % {k + 2} == 0:\n{_indent(body)}\nelse:\n{_indent(other)}")
        elif kind == "for":
            statements.append(f"for i in range(min(n, {k + 1})):\n{_indent(draw(block(depth + 1)))}")
        elif kind == "while":
            statements.append(f"w = a + {k + 1}\nwhile a < w:\n    a += 1\n{_indent(draw(block(depth + 1)))}")
        else:
            name = f"fn{draw(st.integers(0, 99))}"
            body = draw(block(depth + 1)).replace("a = a +", "c_ = a +")
            statements.append(f"def {name}(a, b):\n    lst = [a]\n{_indent(body)}\n    return b\nb = {name}(a, b) % 89")
    return "\n".join(statements)


@st.composite
def programs(draw) -> str:
    return PRELUDE + draw(block(0)) + "\nprint(a, b, lst, d)\n"
