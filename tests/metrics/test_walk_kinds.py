"""The C walker remembers, per walk, what it learned of every class it met, and forgets it when Python runs.

What ``enter`` does with an instance (a scalar subclass, a container, the program's class, a foreign
class, a class only ``owned_class`` can judge), whether the class is plain and whether it has a
``__dict__`` are kept in a table keyed by the class for the rest of the walk, until the walk calls
Python code (``owned_class``, ``attribute_values``), which may change any class. Each test compares the
accelerated ``walk`` with the probe's pure-Python ``walk`` on harness-made values (no program runs).
"""

from __future__ import annotations

import collections

import pytest

from execstate.metrics import _probe

ccount = pytest.importorskip("execstate.metrics._ccount")


@pytest.fixture(autouse=True)
def _configured() -> None:
    ccount.configure_walker(collections.deque, _probe.owned_class, _probe.attribute_values)


def _same(values: list) -> int:
    expected = _probe.walk(values, set())
    assert ccount.walk(values) == expected
    return expected


def test_many_classes_interleaved_more_than_the_table_holds() -> None:
    kinds = []
    for i in range(600):  # more classes than the table's slots: collisions only ask again
        module = "__main__" if i % 5 else "elsewhere"
        bases = [(), (int,), (list,), (dict,), (collections.deque,), (frozenset,)][i % 6]
        kinds.append(type(f"K{i}", bases, {"__module__": module}))
    values = []
    for round_ in range(3):
        for i, kind in enumerate(kinds):
            value = kind()
            if kind.__bases__[0] not in (int, frozenset):
                value.attr = [i, round_]  # an attribute: walked for the program's plain classes only
            values.append(value)
    total = _same([values, values[::-7]])
    plain_owned = sum(1 for i in range(600) if i % 6 == 0 and i % 5)
    assert total >= 3 * (100 + 2 * plain_owned)  # each int-subclass instance 1, each attr list of a plain one 2


def test_a_class_changed_by_python_code_during_the_walk_is_asked_again() -> None:
    class Meta(type):
        @property
        def __module__(cls):  # read through the metaclass: the walk asks owned_class, which runs this
            Other.__module__ = "elsewhere"  # the program's class stops being the program's, mid-walk
            return "__main__"

    asking = Meta("Asking", (), {})
    Other = type("Other", (), {"__module__": "__main__"})
    first, second = Other(), Other()
    first.values, second.values = [1, 2, 3], [4, 5, 6, 7]
    totals = []
    for walk in (lambda values: _probe.walk(values, set()), ccount.walk):
        Other.__module__ = "__main__"  # the program's class again at the start of each walk
        totals.append(walk([first, asking(), second]))
    # first is walked (3), asking is the program's and walked (0 slots), second no longer is (0)
    assert totals == [3, 3]
    Other.__module__ = "__main__"
    assert _same([first, second]) == 7
