"""Shared helpers for the metrics tests: the interpreters and the three ways of measuring."""

from __future__ import annotations

from pathlib import Path

import pytest

from execstate.metrics._measure import PROBE, Measurement, run_probe

REFERENCE = Path(__file__).with_name("reference_probe.py")
PYENV = Path("/root/.pyenv/versions")
VERSIONS = ("3.11.7", "3.12.1", "3.13.0")


def interpreter_params() -> list:
    """One pytest param per CPython version; skipped (saying so) when its binary is absent."""
    params = []
    for version in VERSIONS:
        path = PYENV / version / "bin" / "python"
        marks = [] if path.exists() else [pytest.mark.skip(reason=f"CPython {version} not installed at {path}")]
        params.append(pytest.param(str(path), id=version, marks=marks))
    return params


def measure_three_ways(source: str, stdin: bytes, python: str, **kwargs) -> dict[str, Measurement]:
    """The reference, the fast probe in pure Python, and the fast probe with its C extension."""
    return {
        "reference": run_probe(REFERENCE, source, stdin, python=python, **kwargs),
        "pure-python": run_probe(PROBE, source, stdin, python=python, accelerate=False, **kwargs),
        "accelerated": run_probe(PROBE, source, stdin, python=python, accelerate=True, **kwargs),
    }


def metrics_of(m: Measurement) -> tuple:
    return (m.status, m.trace_length, m.peak_state, m.state_load, m.stdout)


def assert_all_equal(results: dict[str, Measurement]) -> Measurement:
    """All three agree on status, metrics and stdout; the accelerated one really used C."""
    ref = results["reference"]
    assert ref.ok, ref.detail
    for name, m in results.items():
        assert metrics_of(m) == metrics_of(ref), (name, m, ref)
    assert results["accelerated"].accelerated, "the C extension was not used"
    assert not results["pure-python"].accelerated
    return ref
