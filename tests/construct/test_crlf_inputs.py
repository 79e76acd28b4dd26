"""Test files with CRLF line ends are used as judges serve them (LF) by import and construct, and say so."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest
from dataset_shapes import PYTHON3, cc_record, write_jsonl

from execstate.builder import build, load_spec
from execstate.cli import main
from execstate.construct import ConstructOptions, construct_problem, import_codecontests, import_folders, read_pool
from execstate.construct._pool import as_served
from execstate.sandbox import Limits

# Reads whole lines: a CR left at a line's end is one more character of each word, so the answer changes.
PROGRAM = """import sys
lines = sys.stdin.read().split("\\n")
n = int(lines[0])
total = 0
for i in range(1, n + 1):
    total += len(lines[i])
print(total)
"""
SIZES = (2, 5, 40, 300)
FAST = Limits(wall_s=5.0, cpu_s=5.0, memory_mb=1024)


def _words(n: int) -> list[str]:
    return ["ab" * (1 + i % 3) for i in range(n)]


def _pool(root: Path, eol: str) -> Path:
    """The problem ``words`` in the pool ``root``, its test files written with ``eol`` line ends."""
    d = root / "words"
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(PROGRAM)
    for i, n in enumerate(SIZES, 1):
        words = _words(n)
        (d / "tests" / f"{i}.in").write_bytes(eol.join([str(n), *words, ""]).encode())
        (d / "tests" / f"{i}.out").write_bytes(f"{sum(map(len, words))}{eol}".encode())
    return root


def _construct(tmp_path: Path, eol: str, **options: object):
    pool = _pool(tmp_path / f"pool-{len(eol)}", eol)
    (problem,) = read_pool(pool)
    out = tmp_path / f"specs-{len(eol)}-{len(options)}"
    opts = ConstructOptions(study="crlf", max_trace=200_000, synthesize=False, **options)  # type: ignore[arg-type]
    return construct_problem(problem, out, opts), out / "words"


def test_as_served_makes_crlf_lf_in_text_only():
    assert as_served(b"3\r\nab\r\ncd\r\n") == b"3\nab\ncd\n"
    assert as_served(b"mixed\r\nends\n") == b"mixed\nends\n"
    assert as_served(b"lone\rcarriage\r") == b"lone\ncarriage\n"  # lone CRs too: tests/construct/test_archive_edges.py
    for kept in (b"1 2\n", b"\xff\xfe\r\n", b"nul\x00\r\n", b""):
        assert as_served(kept) is kept  # not text, or no CRLF: the same object, untouched


@pytest.fixture(scope="module")
def constructed(tmp_path_factory):
    root = tmp_path_factory.mktemp("crlf")
    return {eol: _construct(root, eol) for eol in ("\n", "\r\n")}


def test_a_crlf_pool_is_constructed_like_its_lf_twin(constructed):
    (lf, lf_dir), (crlf, crlf_dir) = constructed["\n"], constructed["\r\n"]
    assert lf.check is None and crlf.check is None, (lf.reason, crlf.reason)
    a, b = load_spec(lf_dir / "case.toml"), load_spec(crlf_dir / "case.toml")
    assert (a.checkpoint.loop_text, a.checkpoint.variables) == (b.checkpoint.loop_text, b.checkpoint.variables)
    assert a.program.read_bytes() == b.program.read_bytes()
    for arm in ("short_input", "long_input"):
        mine, twin = getattr(b, arm).file.read_bytes(), getattr(a, arm).file.read_bytes()
        assert mine == twin and b"\r" not in mine
        assert getattr(b, arm).file.parent == crlf_dir  # the pool's file is not these bytes: written beside the spec
    added = {"short_line_ends": "crlf-to-lf", "long_line_ends": "crlf-to-lf"}
    assert dict(b.provenance) == {**a.provenance, **added}
    assert not any(key.endswith("line_ends") for key in a.provenance)  # an LF pool's spec says nothing new
    rows = json.loads((crlf_dir / "construct.json").read_text())["inputs"]
    assert [(r["line_ends"], r["expected_line_ends"]) for r in rows] == [("crlf-to-lf", "crlf-to-lf")] * len(SIZES)
    lf_rows = json.loads((lf_dir / "construct.json").read_text())["inputs"]
    assert not any("line_ends" in r or "expected_line_ends" in r for r in lf_rows)
    assert [r["bytes"] for r in rows] == [r["bytes"] for r in lf_rows]


def test_the_crlf_spec_builds_the_lf_twins_tasks_with_the_conversion_in_meta(constructed):
    built = {eol: build([spec_dir.parent]) for eol, (_, spec_dir) in constructed.items()}
    lf, crlf = built["\n"], built["\r\n"]
    assert lf.exclusions == [] and crlf.exclusions == [] and len(crlf.tasks) == len(lf.tasks) == 4
    for mine, twin in zip(crlf.tasks, lf.tasks, strict=True):
        assert (mine.task_id, mine.source, mine.input, mine.oracle, mine.metrics) == (
            twin.task_id, twin.source, twin.input, twin.oracle, twin.metrics,
        )  # fmt: skip
        assert mine.meta["provenance"]["long_line_ends"] == "crlf-to-lf"
        assert "long_line_ends" not in twin.meta["provenance"]


def test_keep_crlf_uses_the_files_as_they_are(tmp_path):
    outcome, spec_dir = _construct(tmp_path, "\r\n", keep_crlf=True)
    # 2 words of 2 and 4 letters, each with its CR: 8 printed, 6 expected
    assert outcome.check == "tests" and "fails its test 1" in (outcome.reason or "")
    assert "printed '8\\n', expected '6\\r\\n'" in (outcome.reason or "")
    assert not (spec_dir / "case.toml").exists()


def test_an_input_that_is_not_text_is_used_as_it_is(tmp_path):
    d = tmp_path / "pool" / "raw"
    (d / "tests").mkdir(parents=True)
    (d / "main.py").write_text(
        "import sys\ndata = sys.stdin.buffer.read()\nfor b in data:\n    pass\nprint(len(data))\n"
    )
    (d / "tests" / "1.in").write_bytes(b"\xff\r\n\xfe\r\n")
    (d / "tests" / "1.out").write_bytes(b"6\r\n")  # text: compared as LF, and 6 is the raw input's length
    (problem,) = read_pool(tmp_path / "pool")
    outcome = construct_problem(problem, tmp_path / "specs", ConstructOptions(synthesize=False))
    assert outcome.check == "inputs"  # it passed its test: only one input, so no pair
    [row] = json.loads((tmp_path / "specs" / "raw" / "construct.json").read_text())["inputs"]
    assert row["bytes"] == 6 and "line_ends" not in row and row["expected_line_ends"] == "crlf-to-lf"


def _folder(root: Path, name: str, eol: str) -> Path:
    d = root / name
    d.mkdir(parents=True)
    (d / "main.py").write_text("s = input()\nprint(len(s))\n")
    (d / "1.in").write_bytes(f"abc{eol}".encode())
    (d / "1.out").write_bytes(f"3{eol}".encode())
    (d / "2.in").write_bytes(b"\xff\r\n")  # not text: written as it is
    return d


def test_import_folders_writes_samples_as_judges_serve_them(tmp_path):
    solutions = tmp_path / "solutions"
    _folder(solutions, "windows", "\r\n")
    _folder(solutions, "unix", "\n")
    report = import_folders([solutions], tmp_path / "pool")
    pool = {p.id: p for p in read_pool(tmp_path / "pool")}
    win, unix = pool["windows"], pool["unix"]
    assert [(t.input.read_bytes(), t.output and t.output.read_bytes()) for t in win.tests] == [
        (b"abc\n", b"3\n"), (b"\xff\r\n", None),
    ]  # fmt: skip
    assert win.source["crlf_to_lf"] == "1.in 1.out" and "crlf_to_lf" not in unix.source
    detail = {i.id: i.detail for i in report.imported}
    assert detail["windows"].endswith("; CRLF line ends written as LF, as judges serve them, in 1.in, 1.out")
    assert "CRLF" not in detail["unix"] and report.options == {"study": None, "grading_rule": None}


def test_import_folders_keep_crlf_from_the_command_line(tmp_path, capsys):
    folder = _folder(tmp_path / "solutions", "windows", "\r\n")
    assert main(["import", "folders", str(folder), "--out", str(tmp_path / "pool"), "--keep-crlf"]) == 0
    [problem] = read_pool(tmp_path / "pool")
    assert problem.tests[0].input.read_bytes() == b"abc\r\n" and "crlf_to_lf" not in problem.source
    report = json.loads((tmp_path / "pool" / "import.json").read_text())
    assert report["options"]["keep_crlf"] is True and "CRLF" not in report["imported"][0]["detail"]


def test_import_codecontests_runs_solutions_on_the_tests_a_judge_serves(tmp_path):
    """The archive's only Python 3 solution reads a whole line: on CRLF tests it counts the CR and fails."""
    tests = {"public_tests": [("abc\r\n", "3\r\n")], "private_tests": [("hello\r\n", "5\r\n")]}
    records = write_jsonl(
        tmp_path / "cc.jsonl", [cc_record("7A. Length", [(PYTHON3, "print(len(input()))\n")], **tests)]
    )
    served = import_codecontests(records, tmp_path / "pool", limits=FAST, jobs=1)
    [imported] = served.imported
    assert imported.detail.endswith("in public-1.in, public-1.out, private-1.in, private-1.out")
    toml = tomllib.loads((tmp_path / "pool" / "7a_length" / "problem.toml").read_text())
    assert toml["source"]["crlf_to_lf"] == "public-1.in public-1.out private-1.in private-1.out"
    assert (tmp_path / "pool" / "7a_length" / "tests" / "private-1.in").read_bytes() == b"hello\n"
    kept = import_codecontests(records, tmp_path / "kept", limits=FAST, jobs=1, keep_crlf=True)
    assert kept.imported == [] and kept.skipped[0].kind == "no-solution"
    assert "wrong answer" in kept.skipped[0].reason and kept.options["keep_crlf"] is True


def test_construct_accepts_keep_crlf_on_the_command_line(tmp_path, capsys):
    pool = _pool(tmp_path / "pool", "\r\n")
    code = main(
        ["construct", str(pool), "--out", str(tmp_path / "specs"), "--keep-crlf", "--no-synthesize", "--jobs", "1"]
    )
    assert code == 1  # NothingAdmitted: with its CRs the program fails its own tests
    outcome = json.loads((tmp_path / "specs" / "construct.json").read_text())["outcomes"][0]
    assert outcome["check"] == "tests"
