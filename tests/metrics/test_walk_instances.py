"""The C walker reads instances of the program's own classes in C and counts what the Python walker counts.

An instance whose classes all have metaclass ``type``, name their ``__slots__`` (if any) as a str or an
exact tuple or list of strs none of which is mangled (``__b``), and keep type's own ``__dict__`` getter
is walked without calling ``owned_class`` or ``attribute_values``; every other instance still goes
through those functions. Each case here is one of those branches, and each
compares the accelerated ``walk`` with the probe's pure-Python ``walk`` on harness-made values (no
program runs). Classes are made "owned" by naming ``__main__`` as their module, as a program's are.
"""

from __future__ import annotations

import collections

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from execstate.metrics import _probe

ccount = pytest.importorskip("execstate.metrics._ccount")
ccount.configure_walker(collections.deque, _probe.owned_class, _probe.attribute_values)


def _same(values: list) -> int:
    expected = _probe.walk(values, set())
    assert ccount.walk(values) == expected
    return expected


def owned(name: str, bases: tuple = (), **namespace):
    return type(name, bases, {"__module__": "__main__", **namespace})


Node = owned("Node")


def _node(**attrs):
    node = Node()
    node.__dict__.update(attrs)
    return node


def test_plain_instances_nested_shared_and_cyclic() -> None:
    leaf = _node(value=3, label="x")
    a, b = _node(left=leaf, right=leaf, n=1.5), _node(items=[1, 2, leaf], parent=None)
    b.self = b
    a.sibling = b
    assert _same([a, [a, b], {"k": b}]) == 7  # leaf 2, a's n 1, b's list 2 and parent 1, the key 1; nodes 0


def test_an_instance_with_more_attributes_than_the_stack_array() -> None:
    many = _node(**{f"a{i}": i for i in range(40)})
    many.child = _node(**{f"b{i}": [i] for i in range(17)})
    assert _same([many, [many]]) == 40 + 17


def test_classes_from_other_modules_are_not_walked() -> None:
    class Local:  # this test module's class: not the program's
        def __init__(self) -> None:
            self.x = [1, 2, 3]

    assert _same([Local(), [Local()], _node(other=Local())]) == 0


@pytest.mark.parametrize(
    "module",
    ["__main__", "__main__.inner", "main", 7, None, type("S", (str,), {})("__main__")],
    ids=["main", "dotted", "other", "int", "none", "str-subclass"],
)
def test_whatever_module_a_class_names(module) -> None:
    kind = type("K", (), {"__module__": module})
    item = kind()
    item.x, item.y = 1, (2, 3)
    _same([item, [item, item]])


def test_plain_instances_are_read_without_calling_python() -> None:
    """The point of the C path: a tree of plain instances costs no call of owned_class or attribute_values."""
    calls: list[str] = []

    def counting_owned(kind):
        calls.append("owned_class")
        return _probe.owned_class(kind)

    def counting_values(value):
        calls.append("attribute_values")
        return _probe.attribute_values(value)

    slotted = owned("Slotted", __slots__=("a",))
    mangled = owned("Mangled", __slots__=("a", "__b"))
    one, two = slotted(), mangled()
    one.a = two.a = 1
    ccount.configure_walker(collections.deque, counting_owned, counting_values)
    try:
        assert ccount.walk([[_node(x=i, y=[i]) for i in range(100)]]) == 200
        assert calls == []
        assert ccount.walk([[slotted() for _ in range(10)], one]) == 1  # slots are read by their descriptors
        assert calls == []
        assert ccount.walk([two]) == 1
        assert calls == ["attribute_values"]
    finally:
        ccount.configure_walker(collections.deque, _probe.owned_class, _probe.attribute_values)


def test_a_module_reassigned_between_walks_is_seen_by_the_next_walk() -> None:
    kind = owned("K")
    item = kind()
    item.x = [1, 2]
    assert _same([item]) == 2
    kind.__module__ = "elsewhere"
    assert _same([item]) == 0
    kind.__module__ = "__main__"
    assert _same([item]) == 2


def test_slotted_classes_and_their_subclasses() -> None:
    slotted = owned("Slotted", __slots__=("a", "__b"))
    mixed = owned("Mixed", (slotted,))  # gains a __dict__ beside the slots
    one = slotted()
    one.a = [1, 2]
    two = mixed()
    two.a, two.extra = 5, "e"
    unset = slotted()  # no slot is set
    assert _same([one, two, unset, [two, one]]) == 4


@pytest.mark.parametrize(
    "slots",
    ["a", ("a", "b"), ["a", "b"], ("a", "__dict__"), ("a", "__weakref__"), ("__a__", "b"), ("a", "__b")],
    ids=["str", "tuple", "list", "with-dict", "with-weakref", "dunder", "mangled"],
)
def test_every_form_of_slots(slots) -> None:
    kind = owned("Slots", __slots__=slots)
    sub = owned("Sub", (kind,), __slots__=("c",))
    names = [slots] if isinstance(slots, str) else [n for n in slots if n not in ("__dict__", "__weakref__")]
    items = [kind(), sub(), sub()]
    for i, item in enumerate(items):
        for name in names[: i + 1]:
            object.__setattr__(
                item, name if not name.startswith("__") or name.endswith("__") else "_Slots" + name, [i, name]
            )
    items[2].c = (1, 2, 3)
    if "__dict__" in (slots if not isinstance(slots, str) else ()):
        items[0].extra = {"k": 1}
    assert _same([items, items[1]]) > 0


def test_a_dict_property_still_goes_through_attribute_values() -> None:
    kind = owned("Shadow", __dict__=property(lambda self: {"fake": [1, 2, 3]}))
    assert _same([kind()]) == 3


def test_a_dict_replaced_by_a_dict_subclass() -> None:
    class Loud(dict):
        def values(self):  # dict.values() bypasses it, in both walkers
            raise AssertionError("not called")

    item = _node()
    item.__dict__ = Loud(a=1, b=[2, 3])
    assert _same([item]) == 3


def test_a_metaclass_other_than_type() -> None:
    class Meta(type):
        @property
        def __module__(cls):  # read through the metaclass: the C walker asks owned_class
            return "__main__"

    kind = Meta("Odd", (), {})
    item = kind()
    item.x = [1, 2]
    assert _same([item, [item]]) == 2


@pytest.mark.parametrize("base", [set, frozenset, collections.deque, list, tuple, dict])
def test_owned_subclasses_of_containers_are_walked_as_containers(base) -> None:
    kind = owned("Sub", (base,))
    value = kind([1, 2, 3]) if base is not dict else kind(a=1, b=2)
    if base not in (tuple, frozenset):
        value.extra = [9, 9]  # an attribute of the instance: not part of the container's walk
    assert _same([value, [value]]) in (3, 4)


def test_an_instance_inside_its_own_attributes_and_a_list_of_many() -> None:
    tree = [_node(length=i % 7) for i in range(5000)]
    for i, node in enumerate(tree[1:], 1):
        node.parent = tree[(i - 1) // 2]
    assert _same([tree]) == 5000


SCALARS = st.one_of(st.integers(), st.floats(allow_nan=False), st.text(max_size=3), st.none(), st.booleans())


@st.composite
def structures(draw):
    nodes = [Node() for _ in range(draw(st.integers(1, 6)))]
    containers = st.deferred(
        lambda: st.one_of(
            SCALARS,
            st.sampled_from(nodes),
            st.lists(containers, max_size=4),
            st.tuples(containers, containers),
            st.dictionaries(st.text(max_size=2), containers, max_size=3),
        )
    )
    for node in nodes:
        for name in draw(st.lists(st.sampled_from("abcdefghijklmnopqrs"), max_size=18, unique=True)):
            setattr(node, name, draw(containers))
    return [draw(containers) for _ in range(3)] + nodes[:1]


@settings(max_examples=300, deadline=None)
@given(structures())
def test_random_graphs_of_instances_count_the_same_in_c_and_python(values: list) -> None:
    _same(values)
