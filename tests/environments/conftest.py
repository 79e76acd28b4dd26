"""One small real environment (sortedcontainers + numpy from PyPI), installed once per test session into a
temporary cache that every test of this folder uses (``EXECSTATE_CACHE``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from execstate.environments import Environment, EnvironmentSpec, parse_environment, prepare

SMALL = {"packages": ["sortedcontainers==2.4.0", "numpy==2.2.6"]}
"""The declaration of the session's environment (as a case spec's [environment] table holds it)."""


@pytest.fixture(scope="session")
def env_cache(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("environments-cache")


@pytest.fixture(autouse=True)
def _use_env_cache(env_cache, monkeypatch) -> Iterator[None]:
    monkeypatch.setenv("EXECSTATE_CACHE", str(env_cache))
    yield


@pytest.fixture(scope="session")
def small_spec() -> EnvironmentSpec:
    return parse_environment(SMALL)


@pytest.fixture(scope="session")
def small_env(env_cache, small_spec) -> Environment:
    """The session's environment, installed by the real pip (network: PyPI)."""
    return prepare(small_spec, sys.executable, cache_dir=Path(env_cache) / "environments")
