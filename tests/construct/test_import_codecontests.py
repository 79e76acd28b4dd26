"""CodeContests records -> a pool: the first solution of the language that passes all tests, run in the sandbox."""

from __future__ import annotations

import json
import sys

import pytest
from dataset_shapes import (
    CPP,
    PYTHON2,
    PYTHON3,
    SUM_CPP,
    SUM_PY,
    WRONG_ON_NEGATIVES_PY,
    cc_record,
    sum_tests,
    write_jsonl,
)

from execstate.construct import ImportReport, import_codecontests, read_pool
from execstate.construct._codecontests import parse_codecontests
from execstate.construct._sources import BadRecord
from execstate.errors import InputFileError, RecordError, UsageError
from execstate.sandbox import Limits

FAST = Limits(wall_s=5.0, cpu_s=5.0, memory_mb=1024)
SPACED_PY = "a, b = map(int, input().split())\nprint('  ', a + b, ' ')\n"  # right under int-alpha-tokens only
PY2_ONLY = "a, b = map(int, raw_input().split())\nprint a + b\n"


def _records() -> list[dict]:
    return [
        # a valid Python 3 program listed as Python 2 comes first: it must never be taken
        cc_record(
            "1A. Sum",
            [(PYTHON2, SUM_PY), (PYTHON3, WRONG_ON_NEGATIVES_PY), (CPP, SUM_CPP), (PYTHON3, SPACED_PY)],
            **sum_tests(),
        ),
        cc_record("2B. Only Python 2", [(PYTHON2, PY2_ONLY), (CPP, SUM_CPP)], **sum_tests()),
        cc_record("3C. All wrong", [(PYTHON3, WRONG_ON_NEGATIVES_PY), (PYTHON3, "print(0)\n")], **sum_tests()),
    ]


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> tuple[ImportReport, list[str]]:
    root = tmp_path_factory.mktemp("cc")
    lines = [json.dumps(r) for r in _records()]
    lines.insert(1, '{"name": "broken", "public_tests": {"input": ["1 2')  # a corrupted (truncated) line
    lines.append(json.dumps({**_records()[0], "public_tests": {"input": "1 2\n", "output": ["3\n"]}}))
    lines.append(json.dumps(_records()[0]))  # the same name again
    (root / "cc.jsonl").write_text("\n".join(lines) + "\n")
    report = import_codecontests(root / "cc.jsonl", root / "pool", limits=FAST, jobs=2)
    return report, lines


def test_the_first_python3_solution_that_passes_every_test_is_taken(imported):
    report, _ = imported
    [ok] = report.imported
    assert ok.id == "1a_sum" and ok.record.endswith("cc.jsonl:1")
    assert "PYTHON3 solution 2 of 2 (solutions[3]) passes all 4 tests" in ok.detail
    [problem] = read_pool(report.pool)
    assert problem.program.read_text() == SPACED_PY  # not the Python 2 one, not the one wrong on negatives
    assert [t.name for t in problem.tests] == ["generated-1", "generated-2", "private-1", "public-1"]
    assert problem.tests[2].input.read_bytes() == b"-5 2\n" and problem.tests[2].output.read_bytes() == b"-3\n"
    assert (problem.study, problem.rule) == ("codecontests", "int-alpha-tokens")
    assert (problem.limits.time_s, problem.limits.memory_mb) == (5.0, 1024)
    assert dict(problem.source) == {
        "dataset": "codecontests", "name": "1A. Sum", "source": 2, "difficulty": 7, "cf_contest_id": 1,
        "cf_index": "A", "cf_rating": 800, "memory_limit_bytes": 268435456, "time_limit_s": 2.5, "solution_index": 3,
    }  # fmt: skip


def test_every_other_record_is_skipped_with_its_reason_and_the_batch_goes_on(imported):
    report, _ = imported
    reasons = {s.record.rsplit(":", 1)[1]: (s.kind, s.reason) for s in report.skipped}
    assert reasons["2"][0] == "invalid" and "not valid JSON" in reasons["2"][1]
    assert reasons["3"] == ("no-solution", "no PYTHON3 solution (solutions by language: 1 CPP, 1 PYTHON)")
    kind, reason = reasons["4"]
    assert kind == "no-solution" and reason.startswith("none of 2 of 2 PYTHON3 solutions passes all 4 tests")
    assert "solutions[0]: test private-1: wrong answer under int-alpha-tokens (got '7', expected '-3')" in reason
    assert reasons["5"] == ("invalid", "field public_tests.input: expected a list of strings, got '1 2\\n'")
    assert reasons["6"][0] == "duplicate" and "already taken by" in reasons["6"][1]
    assert len(report.skipped) == 5


def test_import_json_lists_every_record(imported):
    report, lines = imported
    written = json.loads((report.path).read_text())
    assert written == report.model_dump(mode="json")
    assert len(written["imported"]) + len(written["skipped"]) == len(lines)
    assert written["options"]["language"] == "python" and written["options"]["grading_rule"] == "int-alpha-tokens"
    assert (
        ImportReport.model_validate(written)
        .summary()
        .startswith("imported 1, skipped 5 (duplicate 1, invalid 2, no-solution 2); reasons in ")
    )


def test_a_cpp_solution_is_compiled_and_checked(tmp_path):
    broken_cpp = "int main() { this does not compile }\n"
    record = cc_record("4D. Cpp", [(PYTHON3, SUM_PY), (CPP, broken_cpp), (CPP, SUM_CPP)], **sum_tests())
    report = import_codecontests(
        write_jsonl(tmp_path / "r.jsonl", [record]), tmp_path / "pool", language="cpp", limits=FAST
    )
    [ok] = report.imported
    assert "CPP solution 2 of 2 (solutions[2])" in ok.detail
    [problem] = read_pool(tmp_path / "pool")
    assert problem.language == "cpp" and problem.program.name == "main.cpp"
    assert problem.program.read_text() == SUM_CPP


def test_a_json_list_and_limit(tmp_path):
    path = tmp_path / "r.json"
    path.write_text(json.dumps(_records()))
    report = import_codecontests(path, tmp_path / "pool", limit=1, limits=FAST)
    assert [i.id for i in report.imported] == ["1a_sum"] and report.skipped == []
    assert report.imported[0].record == f"{path}[0]"


def test_jobs_do_not_change_the_report(tmp_path, imported):
    report, lines = imported
    (tmp_path / "cc.jsonl").write_text("\n".join(lines) + "\n")
    one = import_codecontests(tmp_path / "cc.jsonl", tmp_path / "pool", limits=FAST, jobs=1)
    strip = lambda r: [
        (o.id, o.kind if hasattr(o, "kind") else "", o.record.rsplit(":", 1)[1]) for o in [*r.imported, *r.skipped]
    ]
    assert strip(one) == strip(report)


def test_existing_problems_are_kept_unless_overwrite(tmp_path):
    records = write_jsonl(tmp_path / "r.jsonl", _records()[:1])
    import_codecontests(records, tmp_path / "pool", limits=FAST)
    again = import_codecontests(records, tmp_path / "pool", limits=FAST)
    assert again.imported == [] and again.skipped[0].kind == "exists" and "--overwrite" in again.skipped[0].reason
    forced = import_codecontests(records, tmp_path / "pool", limits=FAST, overwrite=True)
    assert [i.id for i in forced.imported] == ["1a_sum"]


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"name": ""}, "field 'name': expected a non-empty string"),
        ({"solutions": [1, 2]}, "field 'solutions': expected {language: [int], solution: [str]}"),
        ({"solutions": {"language": [3, 3], "solution": ["x"]}}, "2 languages for 1 solutions"),
        ({"solutions": {"language": ["3"], "solution": ["x"]}}, "'solutions.language': expected a list of integers"),
        ({"private_tests": {"input": ["1"], "output": []}}, "1 inputs but 0 outputs"),
        ({"generated_tests": "none"}, "field 'generated_tests': expected {input: [...], output: [...]}"),
        ({"public_tests": None, "private_tests": None, "generated_tests": None}, "no tests"),
    ],
)
def test_each_malformed_field_is_named(change, needle):
    with pytest.raises(BadRecord) as info:
        parse_codecontests({**cc_record("x", [(PYTHON3, SUM_PY)], **sum_tests()), **change})
    assert needle in info.value.reason and info.value.kind == "invalid"


def test_parquet_records(tmp_path):
    pa = pytest.importorskip("pyarrow")
    import pyarrow.parquet as pq

    path = tmp_path / "r.parquet"
    pq.write_table(pa.Table.from_pylist(_records()), path)
    report = import_codecontests(path, tmp_path / "pool", limits=FAST)
    assert [i.id for i in report.imported] == ["1a_sum"] and report.imported[0].record == f"{path}[0]"
    assert len(report.skipped) == 2


def test_parquet_without_pyarrow_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    (tmp_path / "r.parquet").write_bytes(b"PAR1")
    with pytest.raises(InputFileError, match=r"needs pyarrow.*Fix: pip install 'execstate\[parquet\]'"):
        import_codecontests(tmp_path / "r.parquet", tmp_path / "pool")
    assert not (tmp_path / "pool").exists()  # nothing is written before the file is known to be readable


def test_bad_files_and_options_fail_before_anything_is_written(tmp_path):
    (tmp_path / "list.json").write_text("[{}, ")
    with pytest.raises(RecordError, match=r"not valid JSON.*Fix:"):
        import_codecontests(tmp_path / "list.json", tmp_path / "pool")
    with pytest.raises(InputFileError, match="does not exist"):
        import_codecontests(tmp_path / "missing.jsonl", tmp_path / "pool")
    with pytest.raises(UsageError, match="jobs must be at least 1"):
        import_codecontests(tmp_path / "list.json", tmp_path / "pool", jobs=0)
    with pytest.raises(UsageError, match=r"'java' is not a language of the builder \(available: python, cpp\)"):
        import_codecontests(tmp_path / "list.json", tmp_path / "pool", language="java")
    assert not (tmp_path / "pool").exists()
