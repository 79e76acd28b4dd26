"""Recognise a run that failed on an import its environment does not provide, and say which declaration fixes it."""

from __future__ import annotations

import re

from execstate.environments._presets import MODULE_PACKAGES, PRESETS

_MISSING = re.compile(r"^ModuleNotFoundError: No module named '([A-Za-z_][\w.]*)'\s*$", re.MULTILINE)
UNDECLARED_MARKER = "imports the undeclared module"
"""Every undeclared-import reason holds this text (``construct`` counts failures by it)."""


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


def undeclared_import(stderr: bytes | str, where: str = "the case spec") -> str | None:
    """A reason naming the module a run could not import and the fix, or None if the run failed otherwise."""
    module = missing_module(stderr)
    if module is None:
        return None
    return f"the program {UNDECLARED_MARKER} {module!r} (not in its environment). Fix: {declaration_fix(module, where)}"
