"""``execstate import``: progress per record, one summary line, import.json; exit 1 when nothing was imported."""

from __future__ import annotations

import inspect
import json
import sys

import pytest
from dataset_shapes import PYTHON3, SUM_PY, cc_record, compressed_tests, lcb_record, lcb_tests, sum_tests, write_jsonl

from execstate.cli import main, make_parser
from execstate.construct import import_codecontests
from execstate.construct._codecontests import DEFAULT_LIMITS, DEFAULT_MAX_SOLUTIONS
from execstate.languages import DEFAULT_LANGUAGE


def test_codecontests_command(tmp_path, capsys):
    records = write_jsonl(tmp_path / "r.jsonl", [cc_record("1A. Sum", [(PYTHON3, SUM_PY)], **sum_tests()), {"x": 1}])
    pool = tmp_path / "pool"
    assert main(["import", "codecontests", str(records), "--out", str(pool), "--timeout", "5", "--jobs", "1"]) == 0
    out, err = capsys.readouterr()
    assert out == f"imported 1, skipped 1 (invalid 1); reasons in {pool / 'import.json'}\n"
    assert err.splitlines() == [
        "[1] imported 1a_sum: PYTHON3 solution 1 of 1 (solutions[0]) passes all 4 tests",
        f"[2] skipped {records}:2 (invalid): field 'name': expected a non-empty string, got None",
    ]
    written = json.loads((pool / "import.json").read_text())
    assert written["options"]["limits"]["wall_s"] == 5.0 and len(written["skipped"]) == 1


def test_livecodebench_command(tmp_path, capsys):
    tests = lcb_tests([("1 2\n", "3\n")])
    records = write_jsonl(tmp_path / "lcb.jsonl", [lcb_record("abc1_a", "hard", tests, compressed_tests(tests))])
    (tmp_path / "s.json").write_text(
        json.dumps([{"question_id": "abc1_a", "code_list": [SUM_PY], "graded_list": [True]}])
    )
    argv = [
        "import",
        "livecodebench",
        str(records),
        "--solutions",
        str(tmp_path / "s.json"),
        "--out",
        str(tmp_path / "p"),
    ]
    assert main([*argv, "--difficulty", "hard", "--language", "cpp", "--debug"]) == 0
    assert capsys.readouterr().out.startswith("imported 1, skipped 0; reasons in ")
    assert (tmp_path / "p" / "abc1_a" / "main.cpp").read_text() == SUM_PY


def test_folders_command_with_nothing_imported_exits_1(tmp_path, capsys):
    (tmp_path / "f").mkdir()
    (tmp_path / "f" / "main.py").write_text(SUM_PY)
    assert main(["import", "folders", str(tmp_path / "f"), "--out", str(tmp_path / "pool")]) == 1
    out, err = capsys.readouterr()
    assert out.startswith("imported 0, skipped 1 (invalid 1)")
    last = err.splitlines()[-1]
    assert last.startswith("execstate import: error: no record was imported into ") and "no samples" in last
    assert f"Fix: see every record's reason in {tmp_path / 'pool' / 'import.json'}" in last
    assert (tmp_path / "pool" / "import.json").is_file()


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["codecontests", "{tmp}/missing.jsonl"], "records file {tmp}/missing.jsonl does not exist"),
        (["codecontests", "{tmp}/r.jsonl", "--timeout", "0"], "--timeout and --memory-mb must be positive"),
        (["codecontests", "{tmp}/r.jsonl", "--max-solutions", "0"], "max_solutions must be at least 1"),
        (["folders", "{tmp}/r.jsonl"], "r.jsonl is not a directory"),
        (["livecodebench", "{tmp}/r.jsonl", "--solutions", "{tmp}/none.json"], "solutions file {tmp}/none.json"),
    ],
)
def test_bad_input_is_one_line_with_a_fix(tmp_path, capsys, argv, needle):
    (tmp_path / "r.jsonl").write_text("{}\n")
    argv = [a.format(tmp=tmp_path) for a in argv]
    assert main(["import", *argv, "--out", str(tmp_path / "pool")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("execstate import: error: ") and err.count("\n") == 1 and "Fix:" in err
    assert needle.format(tmp=tmp_path) in err


def test_parquet_without_pyarrow_via_the_command(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    monkeypatch.setitem(sys.modules, "pyarrow.parquet", None)
    (tmp_path / "r.parquet").write_bytes(b"PAR1")
    assert main(["import", "codecontests", str(tmp_path / "r.parquet"), "--out", str(tmp_path / "pool")]) == 2
    assert "pip install 'execstate[parquet]'" in capsys.readouterr().err


def test_command_defaults_equal_the_library_defaults():
    args = make_parser().parse_args(["import", "codecontests", "r.jsonl", "--out", "p"])
    assert args.max_solutions == DEFAULT_MAX_SOLUTIONS
    assert (args.timeout, args.timeout, args.memory_mb) == (
        DEFAULT_LIMITS.wall_s,
        DEFAULT_LIMITS.cpu_s,
        DEFAULT_LIMITS.memory_mb,
    )
    assert (args.language, args.jobs, args.study, args.limit) == (None, 2, None, None)  # None: the library's default
    assert inspect.signature(import_codecontests).parameters["language"].default == DEFAULT_LANGUAGE
