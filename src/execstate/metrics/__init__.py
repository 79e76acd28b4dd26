"""execstate.metrics: trace length, peak state, state load (measured in a child) and cyclomatic complexity."""

from execstate.metrics._ast import parse_python
from execstate.metrics._cyclomatic import cyclomatic
from execstate.metrics._measure import Budget, Measurement, Snapshots, measure, python_version
from execstate.metrics._report import metrics_report
from execstate.metrics._screen import screen_trace_lengths
from execstate.metrics.cpp import (
    Compiled,
    CompileFailure,
    Compiler,
    CompilerMissing,
    CppMeasurement,
    compile_cpp,
    cyclomatic_cpp,
    measure_cpp,
    run_binary,
    state_metrics,
)

__all__ = [
    "Budget",
    "CompileFailure",
    "Compiled",
    "Compiler",
    "CompilerMissing",
    "CppMeasurement",
    "Measurement",
    "Snapshots",
    "compile_cpp",
    "cyclomatic",
    "cyclomatic_cpp",
    "measure",
    "measure_cpp",
    "metrics_report",
    "parse_python",
    "python_version",
    "run_binary",
    "screen_trace_lengths",
    "state_metrics",
]
