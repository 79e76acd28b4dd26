"""The fresh working directory of one run, removed afterwards however the program left it."""

from __future__ import annotations

import contextlib
import tempfile
from collections.abc import Iterator
from pathlib import Path

from execstate.errors import remove_tree
from execstate.sandbox._errors import SandboxFault


@contextlib.contextmanager
def program_directory(prefix: str = "execstate-run-") -> Iterator[Path]:
    """A fresh, empty temporary directory for a program to work in, removed on exit however the program
    left it: any depth, without permissions, with symlinks (never followed); see ``remove_tree``.

    ``SandboxFault`` if it cannot be removed. An exception from the body passes through unchanged (the
    removal is then best effort). The fault's message names no path: exclusion reasons stay the same
    from one build to the next.
    """
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    except BaseException:
        remove_tree(path)
        raise
    if not remove_tree(path):
        raise SandboxFault(
            "the program left its working directory in a state that cannot be removed. "
            "Fix: keep the program's files and directories few, shallow and writable"
        )
