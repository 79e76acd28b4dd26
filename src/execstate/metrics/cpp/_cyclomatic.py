"""Cyclomatic complexity of a C++ source file under lizard's convention (SPEC 6).

lizard (PyPI ``lizard``, tested with 1.24) reads tokens, not a parsed AST.
Each function starts at 1 and every one of these tokens inside it adds 1:
``if`` (so ``else if`` adds 1), ``for`` (range-for too), ``while`` (the
``while`` of a ``do ... while`` too; ``do`` itself adds nothing), ``case``
(each label, fall-through labels included; ``default`` adds nothing),
``catch`` (each handler), ``&&``, ``||`` and ``?`` (a conditional expression).
The preprocessor lines ``#if``, ``#ifdef`` and ``#elif`` add 1 as well.
Nothing else counts: ``else``, ``switch``, ``goto``, ``break``/``continue``,
``return``, ``try``, ``throw``, the alternative tokens ``and``/``or``, and
``&&`` that is an rvalue reference (``T&&``). A lambda is not a function of
its own: its decisions count in the enclosing function.

Code outside any function is a graph without decisions (it adds 0): lizard
reports functions only. It does not see a condition in a global
initializer (``int g = a ? 1 : 2;``), and it files ``#ifdef`` blocks at file
level (the common ``#ifdef LOCAL`` debug switch) under a ``*global*``
pseudo-function that it does not report without its ``-Eoutside`` option,
which we do not use: whether a build defines ``LOCAL`` is not a path
through the program.

The file's value is 1 + sum over those graphs of (value - 1), i.e. 1 + all
decisions counted inside functions. Unlike the lizard command line, the value does not obey
lizard's comment directives (``#lizard forgive``, ``GENERATED CODE``): a
comment cannot change a metric.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


def cyclomatic_cpp(source: str) -> int:
    """``1 + sum over functions of (CCN - 1)`` with lizard's per-function CCN (SPEC 6's file formula)."""
    return 1 + sum(ccn - 1 for _, ccn in function_complexities(source))


def function_complexities(source: str) -> list[tuple[str, int]]:
    """``(name, CCN)`` of every function lizard finds in ``source``, in the order their bodies end."""
    import lizard

    context = lizard.FileInfoBuilder("main.cpp")
    reader = lizard.CLikeReader(context)
    tokens: Iterable[str] = reader.generate_tokens(source)
    for step in (lizard.preprocessing, _strip_comments, lizard.line_counter, lizard.token_counter):
        tokens = step(tokens, reader)
    tokens = lizard.condition_counter(tokens, reader)
    for _ in reader(tokens, reader):
        pass
    return [(f.name, f.cyclomatic_complexity) for f in context.fileinfo.function_list]


def _strip_comments(tokens: Iterable[str], reader: Any) -> Iterator[str]:
    """lizard's ``comment_counter`` without its directives: comments go, their line breaks stay."""
    for token in tokens:
        comment = reader.get_comment_from_token(token)
        if comment is None:
            yield token
        else:
            yield from ["\n"] * (len(comment.splitlines()) - 1)
