"""``ast.parse`` for code that runs in threads.

CPython 3.11 keeps the recursion-depth bookkeeping of its AST-to-Python
conversion in state that two threads parsing at once can corrupt
(``SystemError: AST constructor recursion depth mismatch``, CPython issue
gh-106905, fixed in 3.12). The builder parses programs in its case threads,
so every parse in execstate goes through one lock.
"""

from __future__ import annotations

import ast
import threading

_LOCK = threading.Lock()


def parse_python(source: str, filename: str = "<unknown>") -> ast.Module:
    """``ast.parse(source)``, one thread at a time."""
    with _LOCK:
        return ast.parse(source, filename)
