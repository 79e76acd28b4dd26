"""The C++ adapter's memory of texts that failed to compile: keyed by hash, bounded, oldest forgotten first."""

from pathlib import Path

import pytest

from execstate.languages.cpp.language import FailedTexts
from execstate.metrics.cpp import Compiler

GXX = Compiler(path="g++", flags=("-O2",), coverage_flags=("-O0", "--coverage"))
INCLUDES = (Path("/include"),)


def test_a_failed_text_is_remembered_per_compiler_and_includes():
    failed = FailedTexts()
    failed.add(("int main( {", GXX, INCLUDES))
    assert ("int main( {", GXX, INCLUDES) in failed
    assert ("int main( {", GXX, ()) not in failed  # other include directories: not known to fail
    other = Compiler(path="clang++", flags=("-O2",), coverage_flags=("-O0", "--coverage"))
    assert ("int main( {", other, INCLUDES) not in failed
    assert ("int main() {}", GXX, INCLUDES) not in failed
    assert "int main( {" not in failed  # not a key at all


def test_past_its_capacity_the_oldest_text_is_forgotten_and_a_repeated_one_is_kept():
    failed = FailedTexts(capacity=3)
    for i in range(3):
        failed.add((f"text {i}", GXX, INCLUDES))
    failed.add(("text 0", GXX, INCLUDES))  # seen again: now the newest
    failed.add(("text 3", GXX, INCLUDES))
    assert len(failed) == 3
    assert ("text 1", GXX, INCLUDES) not in failed
    assert all((f"text {i}", GXX, INCLUDES) in failed for i in (0, 2, 3))


def test_a_capacity_below_one_is_refused():
    with pytest.raises(ValueError, match="at least 1"):
        FailedTexts(capacity=0)
