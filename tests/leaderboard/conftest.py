"""The leaderboard tests' shared runs (``_leaderboard_runs``), made once per package."""

from __future__ import annotations

import pytest
from _leaderboard_runs import Runs, make_runs


@pytest.fixture(scope="package")
def runs(tmp_path_factory) -> Runs:
    return make_runs(tmp_path_factory.mktemp("leaderboard-runs"))
