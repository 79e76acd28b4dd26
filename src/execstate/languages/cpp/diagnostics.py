"""Reading g++'s diagnostics of an instrumented copy: which projected variables the header refused, and why.

A copy that does not compile becomes a ``crash`` run whose stderr holds the compiler's first
error lines (``compile_failure``), so the builder's checks exclude the case with the evidence:
``fields`` when the static assertion of ``execstate_emit.hpp`` refused a projected variable's
type (the adapter's ``checkpoint_fault`` quotes that error line), else ``run``.
``refused_variables`` reads every refused variable with its type from the same output.
"""

from __future__ import annotations

import re

from execstate.languages.cpp.protocol import REFUSAL_MARKER
from execstate.metrics.cpp import CompileFailure
from execstate.sandbox import SandboxResult

_REFUSAL_LINE = re.compile(r"static assertion failed: " + re.escape(REFUSAL_MARKER) + r"([A-Za-z_][A-Za-z0-9_]*)'")
_WITH_TYPE = re.compile(r"\[with T = (.*)\][’'] evaluated to [‘']false[’']")


def refused_variables(compiler_output: str) -> list[tuple[str, str | None]]:
    """``(variable, type)`` for each projected variable g++ refused to serialize, in order.

    Reads the static assertion the instrumented copy carries (``REFUSAL_MARKER``) and the note
    g++ prints after it (``... [with T = TYPE] evaluated to 'false'``); the type is None if the
    note is missing. An empty list: the compile failure was not a refusal.
    """
    found: list[tuple[str, str | None]] = []
    lines = compiler_output.splitlines()
    for i, line in enumerate(lines):
        m = _REFUSAL_LINE.search(line)
        if not m:
            continue
        kind: str | None = None
        for follow in lines[i + 1 :]:
            if "error:" in follow:
                break
            t = _WITH_TYPE.search(follow)
            if t:
                kind = t.group(1)
                break
        if m.group(1) not in [name for name, _ in found]:
            found.append((m.group(1), kind))
    return found


def compile_failure(failure: CompileFailure) -> SandboxResult:
    """A compile failure as the ``crash`` run of the copy, with the compiler's errors as its stderr.

    Its detail names the failure and its first evidence: the compiler's first error line (the tail of
    stderr that a reason also quotes is the end of the first 20 lines, often only notes), or what
    stopped the compiler."""
    if REFUSAL_MARKER in failure.errors:
        detail = f"the emitter cannot serialize a projected variable with {failure.compiler}"
    elif failure.status == "compile-error":
        detail = f"does not compile with {failure.compiler}: {failure.first_error}"
    else:
        detail = f"could not be compiled with {failure.compiler}: {failure.errors}"
    return SandboxResult("crash", None, None, b"", failure.errors.encode("utf-8", "replace"), 0.0, 0.0, detail)
