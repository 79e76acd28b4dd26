"""The shared pools' location for the pool reader's tests."""

from __future__ import annotations

from pathlib import Path

import pytest
from dataset_shapes import SHARED_DATA


@pytest.fixture()
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"the shared data folder {SHARED_DATA} is not beside this checkout")
    return SHARED_DATA
