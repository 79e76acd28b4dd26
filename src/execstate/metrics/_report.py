"""The four metrics of one Python program file on one input file, as the JSON object ``execstate metrics`` prints."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from execstate.errors import InputFileError, ProgramFailed, one_line, require_file
from execstate.metrics._cyclomatic import cyclomatic
from execstate.metrics._measure import measure


def metrics_report(
    program: Path | str, input_path: Path | str, *, python: str | None = None, timeout_s: float = 60.0
) -> dict[str, Any]:
    """``trace_length``, ``peak_state``, ``state_load``, ``cyclomatic`` and ``python`` of one run.

    ``InputFileError``: program or input missing, or the program does not parse.
    ``ProgramFailed``: the run crashed, timed out or hit a limit (the message says which).
    """
    program = require_file(program, "program", "pass the path of a Python source file")
    input_path = require_file(input_path, "input file", "pass the file to feed to the program's stdin")
    source = program.read_text(encoding="utf-8")
    try:
        complexity = cyclomatic(source)
    except SyntaxError as exc:
        raise InputFileError(
            f"{program} is not valid Python: {exc.msg} (line {exc.lineno}). Fix: pass a program that parses"
        ) from None
    result = measure(source, input_path.read_bytes(), filename=program.name, python=python, timeout_s=timeout_s)
    if not result.ok:
        raise ProgramFailed(
            f"{program} on {input_path}: {result.status}: {one_line(result.detail)}. "
            "Fix: measure a program that runs to completion within --timeout"
        )
    return {
        "trace_length": result.trace_length,
        "peak_state": result.peak_state,
        "state_load": result.state_load,
        "cyclomatic": complexity,
        "python": result.toolchain,
    }
