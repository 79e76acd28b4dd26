"""Environments in construction: a problem's declared packages, what a failed run lacked, and the pool's hint.

A problem runs with its ``problem.toml`` declaration, else the pool's
(``ConstructOptions.environment``, ``construct --environment``); the written
spec carries the same declaration, so ``execstate build`` sees what construct
saw. When every problem that got no spec failed on an import its environment
lacks, construction ends with one suggestion: the preset (or the packages)
that provides every such module.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Protocol

from execstate.environments import (
    MODULE_PACKAGES,
    PRESETS,
    UNDECLARED_MARKER,
    Environment,
    EnvironmentSpec,
    prepare,
    undeclared_import,
)
from execstate.sandbox import SandboxResult

WHERE = "problem.toml (or pass construct --environment)"
"""Where a problem's fix goes: its own ``problem.toml``, or the whole pool's option."""
_MODULE = re.compile(re.escape(UNDECLARED_MARKER) + r" '([\w.]+)'")


class _Failed(Protocol):
    """What the suggestion reads of a construction outcome."""

    @property
    def spec_dir(self) -> object: ...

    @property
    def reason(self) -> str | None: ...


def prepare_for(spec: EnvironmentSpec | None, python: str) -> Environment | None:
    """``spec`` installed for ``python`` (``EnvironmentUnavailable`` if it cannot be); None when nothing is declared."""
    return prepare(spec, python) if spec is not None and not spec.is_empty() else None


def undeclared_reason(res: SandboxResult) -> str:
    """Why a run failed: the undeclared module and its fix when that was it, else the run's own description."""
    return undeclared_import(res.stderr, WHERE) or res.describe()


def environment_suggestion(outcomes: Sequence[_Failed]) -> str | None:
    """One hint when every problem without a spec failed on an undeclared import, else None."""
    failed = [o for o in outcomes if o.spec_dir is None]
    modules = sorted({m.group(1) for o in failed if (m := _MODULE.search(o.reason or ""))})
    if not failed or any(_MODULE.search(o.reason or "") is None for o in failed):
        return None
    packages = {MODULE_PACKAGES.get(m) for m in modules}
    for name, pins in sorted(PRESETS.items()):
        if packages <= {pin.partition("==")[0] for pin in pins}:
            fix = f'construct --environment {name}, or add environment = "{name}" to their problem.toml'
            break
    else:
        fix = 'add [environment] packages = ["NAME==VERSION", ...] to their problem.toml (or construct --package)'
    return (
        f"every problem without a spec ({len(failed)}) imports a module its environment lacks "
        f"({', '.join(modules)}). Fix: {fix}"
    )
