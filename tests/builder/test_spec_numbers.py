"""A case spec holding a number past Python's 4,300-digit int limit is a spec error, never an internal one."""

from __future__ import annotations

import pytest

from execstate.builder import load_spec
from execstate.errors import SpecError


def test_a_number_too_long_to_read_is_a_spec_error(tmp_path):
    spec = tmp_path / "case.toml"
    spec.write_text(
        'id = "x/huge"\nlanguage = "python"\nprogram = "main.py"\nshort_input = "1"\n'
        f'long_input = "2"\nmax_value = {"9" * 5000}\n',
        encoding="utf-8",
    )
    with pytest.raises(SpecError) as caught:
        load_spec(spec)
    assert "number too long to read" in str(caught.value)
    assert "write it as a string" in str(caught.value)
