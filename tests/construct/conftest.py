"""The pools the pool reader's tests read: the ones execstate ships with its constructed studies."""

from __future__ import annotations

from pathlib import Path

import pytest

from execstate.studies import STUDIES


@pytest.fixture()
def shared_data(tmp_path: Path) -> Path:
    """A folder laid out like ``shared/data``: ``codecontests-py`` and ``library-checker``, which are
    the pools of the built-in studies ``codecontests_py`` and ``library_cpp`` (copied byte for byte)."""
    for name, study in (("codecontests-py", "codecontests_py"), ("library-checker", "library_cpp")):
        pool = STUDIES[study].pool
        assert pool is not None and pool.is_dir()
        (tmp_path / name).symlink_to(pool, target_is_directory=True)
    return tmp_path
