"""C++ include directories declared as an environment (``[environment] include = [...]``): passed to g++ as ``-I``
for every build of the case, recorded with their content hash; without the declaration the header is not found.

The AtCoder Library's headers are not in a registry this project can reach, so a tiny header of our own stands
in for them (docs/construct.md: bring ACL as a folder beside the spec)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build
from execstate.environments import tree_digest
from execstate.sandbox import Limits

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")

HEADER = """\
#pragma once
namespace mylib {
inline long long mix(long long a, long long b) { return (a * 31 + b) % 1000003; }
}
"""

PROGRAM = """\
#include <iostream>
#include <mylib/ops.hpp>

int main() {
    long long n;
    std::cin >> n;
    long long acc = 1;
    for (long long i = 0; i < n; i++) {
        acc = mylib::mix(acc, i);
    }
    std::cout << acc << std::endl;
    return 0;
}
"""


def _case(root: Path, name: str, declared: bool) -> Path:
    case = root / name
    (case / "mylib" / "mylib").mkdir(parents=True)
    (case / "mylib" / "mylib" / "ops.hpp").write_text(HEADER)
    (case / "main.cpp").write_text(PROGRAM)
    (case / "short.txt").write_text("3\n")
    (case / "long.txt").write_text("50\n")
    env = '\n[environment]\ninclude = ["mylib"]\n' if declared else ""
    (case / "case.toml").write_text(
        f'id = "envcpp/{name}"\nstudy = "envcpp"\nlanguage = "cpp"\nprogram = "main.cpp"\n'
        'short_input = "short.txt"\nlong_input = "long.txt"\n'
        '\n[checkpoint]\nloop_text = "for (long long i = 0; i < n; i++) {"\nvariables = ["acc"]\n' + env
    )
    return case


def test_declared_include_folder_is_on_the_include_path_and_recorded(tmp_path):
    declared = _case(tmp_path / "specs", "declared", True)
    _case(tmp_path / "specs", "undeclared", False)
    result = build([tmp_path / "specs"], jobs=2, options=BuildOptions(limits=Limits(wall_s=20, cpu_s=20)))
    assert {t.case_id for t in result.tasks} == {"envcpp/declared"} and len(result.tasks) == 4
    acc = 1
    for i in range(50):
        acc = (acc * 31 + i) % 1000003
    final = next(t for t in result.tasks if t.arm == "long-trace-final")
    assert final.oracle == f"{acc}\n"
    record = {"include": [{"path": "mylib", "sha256": tree_digest(declared / "mylib")}]}
    assert all(t.meta["environment"] == record for t in result.tasks)
    assert result.manifest.environments == [record]
    [excluded] = result.exclusions
    assert excluded.case_id == "envcpp/undeclared" and excluded.check == "run"
    assert "includes the undeclared header 'mylib/ops.hpp'" in excluded.reason
    assert 'Fix: add [environment] include = ["<a folder beside it that holds mylib/ops.hpp>"]' in excluded.reason
