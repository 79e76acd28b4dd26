"""Recognise a run that failed on an import its environment does not provide, and say which declaration fixes it."""

from __future__ import annotations

import re

from execstate.environments._presets import MODULE_PACKAGES, PRESETS

_MISSING = re.compile(r"^ModuleNotFoundError: No module named '([A-Za-z_][\w.]*)'\s*$", re.MULTILINE)
_NO_HEADER = re.compile(r"fatal error: ([\w./+-]+): No such file or directory")
UNDECLARED_MARKER = "imports the undeclared module"
"""Every undeclared-import reason holds this text (``construct`` counts failures by it)."""
HEADER_MARKER = "includes the undeclared header"
"""Every missing-header reason (a C++ compile that did not find an ``#include``) holds this text."""


def missing_module(stderr: bytes | str) -> str | None:
    """The top-level module a Python run could not import (its last ``ModuleNotFoundError``), else None."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    found = _MISSING.findall(text)
    return found[-1].split(".")[0] if found else None


def declaration_fix(module: str, where: str = "the case spec") -> str:
    """The declaration that provides ``module``: the preset that has it, or a pinned package line."""
    package = MODULE_PACKAGES.get(module)
    for preset, pins in sorted(PRESETS.items()):
        pin = next((p for p in pins if p.partition("==")[0] == package), None)
        if pin is not None:
            return f'add environment = "{preset}" or [environment] packages = ["{pin}"] to {where}'
    name = package or f"<the PyPI package that provides {module}>"
    return f'add [environment] packages = ["{name}==<version>"] to {where}'


def missing_header(stderr: bytes | str) -> str | None:
    """The header a C++ compile could not find (g++'s ``fatal error: H: No such file or directory``), else None."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    found = _NO_HEADER.search(text)
    return found.group(1) if found else None


def undeclared_import(stderr: bytes | str, where: str = "the case spec") -> str | None:
    """A reason naming the module (or C++ header) a run could not find and the fix; None if it failed otherwise."""
    module = missing_module(stderr)
    if module is not None:
        fix = declaration_fix(module, where)
        return f"the program {UNDECLARED_MARKER} {module!r} (not in its environment). Fix: {fix}"
    header = missing_header(stderr)
    if header is not None:
        folder = f"<a folder beside it that holds {header}>"
        return f'the program {HEADER_MARKER} {header!r}. Fix: add [environment] include = ["{folder}"] to {where}'
    return None
