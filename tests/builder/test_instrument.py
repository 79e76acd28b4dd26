"""Instrumentation edge cases, each checked by running the instrumented program."""

from __future__ import annotations

import json

import pytest

from execstate.languages.python import instrument, resolve_loop
from execstate.languages.python.instrument import choose_prefix
from execstate.sandbox import Limits, run_python

LIMITS = Limits(wall_s=10, cpu_s=10)


def _state(tmp_path, source: str, loop_text: str, variables, mode: str, k: int, stdin: bytes = b""):
    line = resolve_loop(source, None, loop_text)
    inst = instrument(source, line, tuple(variables), mode, k)
    path = tmp_path / "main.py"
    path.write_text(inst.source)
    res = run_python(path, stdin, LIMITS)
    assert res.ok, res.describe()
    assert res.stdout.count(b"\n") == 1
    return json.loads(res.stdout)


def test_continue_still_counts_every_iteration(tmp_path):
    src = "odd = 0\nfor i in range(10):\n    if i % 2 == 0:\n        continue\n    odd += i\nprint(odd)\n"
    assert _state(tmp_path, src, "for i in range(10):", ["i", "odd"], "inside", 6) == {"i": 5, "odd": 1 + 3}


def test_post_fires_after_the_else_clause_on_normal_exit(tmp_path):
    src = "found = None\nfor x in [3, 5, 7]:\n    if x == 4:\n        found = x\n        break\nelse:\n    found = -1\nprint(found)\n"
    assert _state(tmp_path, src, "for x in [3, 5, 7]:", ["x", "found"], "post", 2) == {"x": 7, "found": -1}


def test_post_fires_after_break_and_skips_else(tmp_path):
    src = "found = None\nfor x in [3, 5, 7]:\n    if x == 5:\n        found = x\n        break\nelse:\n    found = -1\nprint(found)\n"
    assert _state(tmp_path, src, "for x in [3, 5, 7]:", ["x", "found"], "post", 1) == {"x": 5, "found": 5}


def test_outer_loop_of_a_nest_can_be_selected(tmp_path):
    src = "cells = 0\nfor r in range(4):\n    for c in range(r):\n        cells += 1\nprint(cells)\n"
    assert _state(tmp_path, src, "for r in range(4):", ["r", "cells"], "inside", 3) == {"r": 2, "cells": 1}
    assert _state(tmp_path, src, "for r in range(4):", ["r", "cells"], "post", 3) == {"r": 3, "cells": 6}


def test_post_belongs_to_the_execution_containing_k_under_recursion(tmp_path):
    # depth 0 runs iteration 1, then a recursive call's loop runs and exits (iterations 2-3) before
    # depth 0's loop ends: only depth 0's exit is the exit of the execution containing k = 1.
    src = (
        "def walk(depth):\n    acc = 0\n    for step in range(2):\n        if depth < 1:\n"
        "            walk(depth + 1)\n        acc += depth * 10 + step\n    return acc\nprint(walk(0))\n"
    )
    assert _state(tmp_path, src, "for step in range(2):", ["acc", "step"], "post", 1) == {"acc": 1, "step": 1}
    assert _state(tmp_path, src, "for step in range(2):", ["acc", "step"], "post", 2) == {"acc": 21, "step": 1}


def test_prelude_goes_after_docstring_and_future_import(tmp_path):
    src = '"""Doc."""\nfrom __future__ import annotations\nt = 0\nfor i in range(3):\n    t += i\nprint(t)\n'
    assert _state(tmp_path, src, "for i in range(3):", ["t"], "inside", 3) == {"t": 1}


def test_tab_indentation_and_comments_survive(tmp_path):
    src = "def f():\n\tt = 0\n\t# add them up\n\tfor i in range(3):\n\t\t# body comment\n\t\tt += i\n\treturn t\nprint(f())\n"
    inst = instrument(src, 4, ("t",), "inside", 2)
    assert "\t# add them up\n" in inst.source and "\t\t# body comment\n" in inst.source
    assert _state(tmp_path, src, "for i in range(3):", ["t"], "inside", 2) == {"t": 0}


def test_inserted_names_avoid_the_programs_names():
    src = "_es_count = 5\nfor i in range(3):\n    _es_count += i\n"
    assert choose_prefix(src) == "_es1_"
    inst = instrument(src, 2, ("_es_count",), "inside", 2)
    assert inst.prefix == "_es1_" and "_es1_count[0] += 1" in inst.source


def test_printing_is_silenced_but_the_checkpoint_line_is_not(tmp_path):
    src = "import sys, os\nfor i in range(3):\n    print(i)\n    sys.stdout.write('w')\n    os.write(1, b'raw')\n"
    assert _state(tmp_path, src, "for i in range(3):", ["i"], "inside", 3) == {"i": 2}


def test_tuples_and_deques_become_lists(tmp_path):
    src = "from collections import deque\nq = deque([1])\np = (1, 2)\nfor i in range(3):\n    q.append(i)\n"
    assert _state(tmp_path, src, "for i in range(3):", ["q", "p"], "inside", 2) == {"q": [1, 0], "p": [1, 2]}


@pytest.mark.parametrize("value", ["{1: 2}", "float('nan')", "object()", "{1, 2}"])
def test_non_json_values_are_refused(tmp_path, value):
    src = f"v = {value}\nfor i in range(3):\n    pass\n"
    inst = instrument(src, 2, ("v",), "inside", 2)
    path = tmp_path / "main.py"
    path.write_text(inst.source)
    res = run_python(path, b"", LIMITS)
    assert res.status == "crash" and b"not JSON-representable" in res.stderr
