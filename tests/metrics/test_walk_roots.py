"""The C accelerator gathers an observation's roots (``roots``) exactly as the Python ``StateWalker.roots`` does.

At a line event the probe walks every value of the owned frames' namespaces whose name is not skipped
(dunder, hidden prefix) and which is not a module, function, builtin or class. The accelerated probe
gathers those values in C; here both gatherings run on the same live frames of one program (in this
process, so the very same objects in the very same order are compared), and the whole program is also
measured by the reference probe and the fast probe on every installed CPython. The program has what the
gathering must get right: optimized and class-body frames, a module frame whose locals are its globals,
a foreign frame between owned ones, a class namespace whose ``items()`` yields lists, keys that are not
exact strs, hidden and dunder names, and an instance whose ``__class__`` claims to be a builtin function.
"""

from __future__ import annotations

import sys
import types

import pytest
from _metrics_helpers import assert_all_equal, interpreter_params, measure_three_ways

from execstate.metrics import _probe

ccount = pytest.importorskip("execstate.metrics._ccount")

FILENAME = "prog.py"
HIDDEN = "hidden_"
PROGRAM = """import json

hidden_x = [1, 2]
__dunder__ = [5]
globals()[7] = [8, 9]


class Key(str):
    pass


globals()[Key("__k__")] = [3]
globals()[Key("plain")] = [4]


class Liar:
    @property
    def __class__(self):
        return type(len)


liar = Liar()


class Pairs(dict):
    def items(self):
        return [list(pair) for pair in dict.items(self)]


class Meta(type):
    @classmethod
    def __prepare__(mcls, name, bases):
        return Pairs()


class Board(metaclass=Meta):
    cells = [0] * 5
    size = len(cells)
    here = observe()


def rec(n, acc, hidden_acc):
    if n:
        return rec(n - 1, acc + [n], hidden_acc)
    observe()
    return sum(acc)


squares = [i * i for i in range(5)]
total = rec(4, [], [0])
parsed = json.loads('{"a": [1, 2]}', object_hook=lambda d: (observe(), d)[1])
print(total, parsed, Board.size, len(squares))
"""


def _run_with(observe) -> None:
    """Run PROGRAM as a program file would run, with ``observe`` (a harness function) in its globals."""
    namespace = {"__name__": "__main__", "__builtins__": __builtins__, "observe": observe}
    exec(compile(PROGRAM, FILENAME, "exec", dont_inherit=True), namespace)


def test_roots_gathered_in_c_are_the_python_roots_on_live_frames(capsys) -> None:
    in_c = _probe.StateWalker(FILENAME, HIDDEN, ccount)
    in_python = _probe.StateWalker(FILENAME, HIDDEN, None)
    assert in_c.roots is ccount.roots  # the accelerated walker really gathers in C
    compared = []

    def observe():
        frame = sys._getframe(1)  # the owned frame that called the hook
        expected, got = in_python.roots(frame), in_c.roots(frame)
        assert [id(v) for v in got] == [id(v) for v in expected], (frame.f_code.co_name, got, expected)
        compared.append((frame.f_code.co_name, len(got)))

    _run_with(observe)
    assert capsys.readouterr().out == "10 {'a': [1, 2]} 5 5\n"
    names = [name for name, _ in compared]
    assert names == ["Board", "rec", "<lambda>"]  # a class body, the deepest recursion, below json's frames
    assert all(size > 0 for _, size in compared)


def test_roots_skip_what_the_python_roots_skip() -> None:
    gathered = {}

    def observe():
        frame = sys._getframe(1)
        if frame.f_code.co_name == "<lambda>":
            gathered["values"] = ccount.roots(frame)

    _probe.StateWalker(FILENAME, HIDDEN, ccount)
    _run_with(observe)
    values = gathered["values"]
    ids = {id(v) for v in values}
    module = sys.modules[__name__]
    assert id(module) not in ids and id(_run_with) not in ids
    lists = [v for v in values if type(v) is list]
    assert [8, 9] in lists and [4] in lists  # a non-str key and a plain str-subclass name are roots
    assert [3] not in lists and [5] not in lists and [1, 2] not in lists  # dunder (even a str subclass), hidden


def test_roots_need_a_frame() -> None:
    _probe.StateWalker(FILENAME, HIDDEN, ccount)
    with pytest.raises(TypeError, match="frame"):
        ccount.roots([1])


@pytest.mark.parametrize("python", interpreter_params())
def test_the_program_measures_the_same_three_ways(python: str) -> None:
    source = PROGRAM.replace("    here = observe()\n", "").replace("    observe()\n", "")
    source = source.replace("(observe(), d)[1]", "d")
    m = assert_all_equal(measure_three_ways(source, b"", python, hidden_prefix=HIDDEN))
    assert m.stdout == b"10 {'a': [1, 2]} 5 5\n" and m.peak_state


def test_an_accelerator_built_before_roots_gathers_them_in_python() -> None:
    """An in-tree extension left from an older build (no ``roots``) still walks in C, gathering in Python."""
    older = types.SimpleNamespace(configure_walker=ccount.configure_walker, walk=ccount.walk, walked=ccount.walked)
    walker = _probe.StateWalker(FILENAME, HIDDEN, older)
    assert walker.walk is ccount.walk
    assert walker.roots.__func__ is _probe.StateWalker.roots
