"""``build --variants rename,deadcode`` on library_cpp cases: kept, and each variant task's program, compiled and run
again, prints the original's answer (states once the mapping is undone)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from execstate.builder import BuildOptions, build
from execstate.languages.cpp.language import CppLanguage
from execstate.records import is_variant
from execstate.studies import STUDIES

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
SPECS = STUDIES["library_cpp"].cases_dir
assert SPECS is not None
CASES = ("zalgorithm", "unionfind", "static_range_sum")


def test_library_cpp_variants_are_kept_and_rerun_to_the_originals_answers(tmp_path: Path) -> None:
    built = build([SPECS / name for name in CASES], jobs=2, options=BuildOptions(variants=("rename", "deadcode")))
    record = built.manifest.variants
    assert record is not None and record["not_kept"] == [] and len(record["kept"]) == 6
    by_id = {t.task_id: t for t in built.tasks}
    lang = CppLanguage()
    checked = 0
    for task in built.tasks:
        if not is_variant(task):
            continue
        original = by_id[task.meta["variant_of"] + "/" + task.arm]
        back = {new: old for old, new in task.meta["variant"]["mapping"].items()}
        assert task.source != original.source and task.source_sha256 != original.source_sha256
        res = lang.run(task.source, task.input.encode("utf-8"), tmp_path)
        assert res.ok, (task.task_id, res.describe())
        if task.answer_kind == "json":
            state = {back.get(k, k): v for k, v in json.loads(res.stdout).items()}
            assert state == json.loads(original.oracle), task.task_id
        else:
            assert res.stdout.decode("utf-8") == original.oracle, task.task_id
        checked += 1
    assert checked == 6 * 4
