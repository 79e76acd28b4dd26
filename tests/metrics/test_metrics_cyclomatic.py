"""Cyclomatic complexity: hand values, and cross-checks against mccabe (same convention) and radon."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import mccabe
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from program_strategy import programs
from radon.complexity import cc_visit
from radon.visitors import ComplexityVisitor

from execstate.metrics import cyclomatic

HAND = {
    "x = 1\n": 1,
    "def f(x):\n    if x:\n        return 1\n    elif x > 2:\n        return 2\n    return 3\n": 3,
    "def f(x):\n    for i in x:\n        pass\n    else:\n        pass\n": 2,
    "def f(x):\n    try:\n        x()\n    except KeyError:\n        pass\n    except ValueError:\n        pass\n": 4,
    "def f(x):\n    return x and x or 1\n": 1,  # boolean operators are not decisions for mccabe
    "def f(x):\n    def g():\n        if x:\n            return 1\n    return g\n": 3,  # nested def +1, its if +1
    "x = 1\nif x:\n    y = 2\nfor i in range(3):\n    pass\n": 3,  # module-level decisions
    "def f():\n    pass\ndef f():\n    if f:\n        pass\n": 2,  # a redefined name is still its own graph
}


class _AllGraphs(dict):
    """mccabe keys graphs by name and overwrites duplicates; keep every graph."""

    def __setitem__(self, key, value):
        super().__setitem__((key, len(self)), value)


def mccabe_file_value(source: str) -> int:
    visitor = mccabe.PathGraphingAstVisitor()
    visitor.graphs = _AllGraphs()
    visitor.preorder(ast.parse(source), visitor)
    return 1 + sum(graph.complexity() - 1 for graph in visitor.graphs.values())


def radon_file_value(source: str) -> int:
    functions = sum(block.complexity - 1 for block in cc_visit(source))
    return ComplexityVisitor.from_code(source).complexity + functions


@pytest.mark.parametrize(("source", "value"), list(HAND.items()))
def test_hand_values(source, value):
    assert cyclomatic(source) == value == mccabe_file_value(source)


def stdlib_sample() -> list[Path]:
    root = Path(sysconfig.get_paths()["stdlib"])
    names = [
        "textwrap.py",
        "json/decoder.py",
        "json/encoder.py",
        "heapq.py",
        "bisect.py",
        "fractions.py",
        "difflib.py",
        "calendar.py",
        "shlex.py",
        "argparse.py",
        "ast.py",
        "dataclasses.py",
        "collections/__init__.py",
        "functools.py",
        "statistics.py",
        "tokenize.py",
        "inspect.py",
    ]
    return [root / name for name in names if (root / name).exists()]


@pytest.mark.parametrize("path", stdlib_sample(), ids=lambda p: p.name)
def test_equals_mccabe_on_real_modules(path):
    source = path.read_text(encoding="utf-8")
    assert cyclomatic(source) == mccabe_file_value(source)


@settings(max_examples=60, deadline=None)
@given(source=programs())
def test_equals_mccabe_on_generated_programs(source):
    assert cyclomatic(source) == mccabe_file_value(source)


@st.composite
def branchy_functions(draw, depth: int = 0) -> str:
    """Bodies of if/elif/for/while only: the constructs where radon and mccabe agree."""
    lines = []
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["pass", "pass", "if", "elif", "for", "while"] if depth < 2 else ["pass"]))
        if kind == "pass":
            lines.append("y = 1")
            continue
        inner = "\n".join("    " + line for line in draw(branchy_functions(depth + 1)).splitlines())
        if kind == "if":
            lines.append(f"if y:\n{inner}")
        elif kind == "elif":
            lines.append(f"if y:\n{inner}\nelif y > 1:\n{inner}\nelse:\n{inner}")
        else:
            head = "for y in range(2):" if kind == "for" else "while y < 0:"
            lines.append(f"{head}\n{inner}")
    return "\n".join(lines)


@settings(max_examples=80, deadline=None)
@given(module=branchy_functions(), bodies=st.lists(branchy_functions(), max_size=3))
def test_equals_radon_where_conventions_agree(module, bodies):
    functions = "".join(
        f"def f{i}(y):\n" + "\n".join("    " + line for line in body.splitlines()) + "\n"
        for i, body in enumerate(bodies)
    )
    source = "y = 0\n" + module + "\n" + functions
    assert cyclomatic(source) == radon_file_value(source) == mccabe_file_value(source)


def test_syntax_error_is_raised():
    with pytest.raises(SyntaxError):
        cyclomatic("def (:\n")
