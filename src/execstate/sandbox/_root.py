"""Which host paths the program's private root shows read-only, and which of them it hides (site-packages)."""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path

SYSTEM_PATHS: tuple[str, ...] = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/alternatives",
)
"""Read-only paths every run sees: system binaries and libraries, the dynamic loader's configuration."""


def readable_paths(exe: str, extra: Sequence[Path | str]) -> list[str]:
    """System paths, the prefix of the interpreter ``exe`` (``<prefix>/bin/python``) and ``extra``;
    then, as ``!PATH`` entries, the interpreter's site-packages directories, which the init hides."""
    paths = [p for p in SYSTEM_PATHS if os.path.lexists(p)]
    prefix = _prefix(exe)
    if not any(prefix == p or prefix.startswith(p + "/") for p in paths):
        paths.append(prefix)
    # Sorted and unique: a directory is bound before anything inside it, which the init then skips.
    shown = sorted(set(paths + [os.path.realpath(p) for p in extra]))
    hidden = [d for d in site_directories(exe) if not any(p == d or p.startswith(d + "/") for p in shown)]
    return shown + ["!" + d for d in hidden]


def _prefix(exe: str) -> str:
    bindir = os.path.dirname(exe)
    return os.path.dirname(bindir) if os.path.basename(bindir) == "bin" else bindir


@functools.cache
def site_directories(exe: str) -> tuple[str, ...]:
    """The third-party package directories of the Python interpreter ``exe`` (none if it is not one), found
    once per interpreter, not at every run.

    A sandboxed Python program sees its interpreter's standard library, never the packages installed
    beside it: what a program imports cannot depend on the host, and the interpreter's start-up runs no
    ``.pth`` file of the host (on some machines a ``.pth`` imports ``certifi`` at every start, about
    35 ms of each run).
    """
    name = os.path.basename(exe)
    if not name.startswith("python"):
        return ()
    prefix = _prefix(exe)
    found = []
    for lib in ("lib", "lib64", "local/lib"):
        base = os.path.join(prefix, lib)
        try:
            entries = sorted(os.listdir(base))
        except OSError:
            continue
        for entry in entries:
            if entry == "python3" or entry.startswith("python3."):
                for leaf in ("site-packages", "dist-packages"):
                    path = os.path.join(base, entry, leaf)
                    if os.path.isdir(path) and not os.path.islink(path):
                        found.append(os.path.realpath(path))
    return tuple(sorted(set(found)))
