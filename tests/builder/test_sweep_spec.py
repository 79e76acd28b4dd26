"""Case-spec keys of checkpoint sweeps: bad values fail naming the key; an iteration past K excludes the case."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build_case, load_spec
from execstate.errors import SpecError

CASE = Path(__file__).parent / "cases" / "sweep_hash"


def _spec(tmp_path: Path, extra: str) -> Path:
    for name in ("main.py", "short.txt", "long.txt"):
        shutil.copy(CASE / name, tmp_path / name)
    text = (CASE / "case.toml").read_text().split("sweep = 5")[0]
    (tmp_path / "case.toml").write_text(text + extra)
    return tmp_path / "case.toml"


@pytest.mark.parametrize(
    "extra,key",
    [
        ("sweep = 1\n", "checkpoint.sweep"),
        ("sweep = true\n", "checkpoint.sweep"),
        ("inside_iterations = [0]\n", "checkpoint.inside_iterations"),
        ("inside_iterations = [3, 3]\n", "checkpoint.inside_iterations"),
        ('inside_iterations = "5"\n', "checkpoint.inside_iterations"),
    ],
)
def test_bad_sweep_keys_name_the_key(tmp_path, extra, key):
    with pytest.raises(SpecError, match=key.replace(".", r"\.")):
        load_spec(_spec(tmp_path, extra))


def test_an_iteration_past_the_loop_excludes_the_case(tmp_path):
    result = build_case(load_spec(_spec(tmp_path, "inside_iterations = [401]\n")), BuildOptions())
    assert not isinstance(result, list)
    assert result.check == "reachability" and "401" in result.reason
