"""execstate.metrics.cpp: compile C++ programs once, run them sandboxed, measure trace length with gcov."""

from execstate.metrics.cpp._compile import (
    DEFAULT_CXXFLAGS,
    Compiled,
    CompileFailure,
    Compiler,
    CompilerMissing,
    compile_cpp,
    run_binary,
)
from execstate.metrics.cpp._cyclomatic import cyclomatic_cpp, function_complexities
from execstate.metrics.cpp._measure import (
    BUDGET_ENV,
    BUDGET_EXIT_CODE,
    BUDGET_MARKER,
    CppMeasurement,
    gcda_runs,
    measure_cpp,
    stopped_by_counter,
)
from execstate.metrics.cpp._state import SLOTS_MARKER, observations, state_metrics

__all__ = [
    "BUDGET_ENV",
    "BUDGET_EXIT_CODE",
    "BUDGET_MARKER",
    "DEFAULT_CXXFLAGS",
    "SLOTS_MARKER",
    "CompileFailure",
    "Compiled",
    "Compiler",
    "CompilerMissing",
    "CppMeasurement",
    "compile_cpp",
    "cyclomatic_cpp",
    "function_complexities",
    "gcda_runs",
    "measure_cpp",
    "observations",
    "run_binary",
    "state_metrics",
    "stopped_by_counter",
]
