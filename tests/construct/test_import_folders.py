"""Solution folders (a program beside its samples) -> a pool, one problem per folder."""

from __future__ import annotations

from pathlib import Path

from dataset_shapes import SUM_CPP, SUM_PY

from execstate.construct import import_folders, read_pool


def _folder(path: Path, program: tuple[str, str] | None, files: dict[str, str]) -> Path:
    path.mkdir(parents=True)
    if program:
        (path / program[0]).write_text(program[1])
    for name, text in files.items():
        (path / name).write_text(text)
    return path


def test_folders_of_both_sample_styles_become_problems(tmp_path):
    solutions = tmp_path / "solutions"
    _folder(
        solutions / "Sum Py", ("main.py", SUM_PY), {"1.in": "1 2\n", "1.out": "3\n", "10.in": "5 5\n", "2.in": "0 0\n"}
    )
    _folder(solutions / "sum-cpp", ("main.cpp", SUM_CPP), {"in_1.txt": "1 2\n", "out_1.txt": "3\n", "notes.md": "x"})
    _folder(solutions / "orphan", ("main.py", SUM_PY), {"1.in": "1 2\n", "2.out": "3\n"})
    _folder(solutions / "no-samples", ("main.py", SUM_PY), {"README": "x"})
    _folder(solutions / "both", ("main.py", SUM_PY), {"main.cpp": SUM_CPP, "1.in": "1\n"})
    _folder(solutions / "clash", ("main.py", SUM_PY), {"1.in": "a\n", "in_1.txt": "b\n"})
    _folder(solutions / "data", None, {"1.in": "1\n"})
    single = _folder(tmp_path / "single", ("main.py", SUM_PY), {"sample.in": "4 4\n", "sample.out": "8\n"})
    report = import_folders([solutions, single], tmp_path / "pool", study="codecontests")
    assert [i.id for i in report.imported] == ["sum_py", "sum_cpp", "single"]  # by folder name: "S" < "s"
    by_name = {Path(s.record).name: (s.kind, s.reason) for s in report.skipped}
    assert (
        by_name["orphan"][0] == "invalid" and "2.out is an output with no input file beside it" in by_name["orphan"][1]
    )
    assert by_name["no-samples"][0] == "invalid" and by_name["no-samples"][1].startswith("no samples")
    assert by_name["both"] == ("invalid", "holds both main.py and main.cpp; keep one")
    assert by_name["clash"][0] == "invalid" and "two samples are named '1'" in by_name["clash"][1]
    assert by_name["data"] == ("invalid", "holds neither main.py nor main.cpp")
    pool = {p.id: p for p in read_pool(tmp_path / "pool")}
    py = pool["sum_py"]
    assert [(t.name, t.input.read_text(), t.output and t.output.read_text()) for t in py.tests] == [
        ("1", "1 2\n", "3\n"), ("2", "0 0\n", None), ("10", "5 5\n", None),
    ]  # fmt: skip
    assert (py.study, py.rule, py.language) == ("codecontests", "int-alpha-tokens", "python")
    assert dict(py.source) == {"dataset": "folder", "folder": str(solutions / "Sum Py")}
    cpp = pool["sum_cpp"]
    assert cpp.language == "cpp" and [(t.name, t.output.read_text()) for t in cpp.tests] == [("1", "3\n")]
    assert [t.name for t in pool["single"].tests] == ["sample"]
    assert "main.py with 3 samples (1 with expected output)" in report.imported[0].detail


def test_without_a_study_no_rule_is_pinned(tmp_path):
    folder = _folder(tmp_path / "p", ("main.py", SUM_PY), {"1.in": "1 2\n"})
    report = import_folders([folder], tmp_path / "pool")
    [problem] = read_pool(tmp_path / "pool")
    assert (problem.study, problem.rule) == (None, "json-or-tokens")
    assert "grading_rule" not in (problem.dir / "problem.toml").read_text()
    assert report.options == {"study": None, "grading_rule": None}
