"""Parsing from many threads at once (the builder's case threads) goes through one lock.

On CPython 3.11 a garbage collection during ``ast.parse`` that runs a finalizer can switch threads
while the AST conversion's recursion bookkeeping is shared; another thread parsing then ends one of
them with ``SystemError: AST constructor recursion depth mismatch`` (CPython gh-106905; seen in the
builder on the networkx cases). ``parse_python`` never lets two parses overlap: the test replaces
``ast.parse`` with one that records how many calls are in flight and yields the GIL inside.
"""

from __future__ import annotations

import ast
import threading
import time
from concurrent.futures import ThreadPoolExecutor

from execstate.metrics import parse_python


def test_no_two_parses_overlap(monkeypatch):
    real = ast.parse
    inside, most = 0, 0
    guard = threading.Lock()

    def watched(*args, **kwargs):
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
        time.sleep(0.002)  # another thread would start its parse here
        try:
            return real(*args, **kwargs)
        finally:
            with guard:
                inside -= 1

    monkeypatch.setattr(ast, "parse", watched)
    with ThreadPoolExecutor(max_workers=8) as pool:
        trees = list(pool.map(lambda i: parse_python(f"x = {i}\nfor j in range(x):\n    x += j\n"), range(64)))
    assert len(trees) == 64 and most == 1
