"""One error path: every bad input gives one line ``execstate CMD: error: ... Fix: ...``, exit 2, no traceback."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from execstate.cli import main
from execstate.errors import InputFileError, RecordError
from execstate.records import write_jsonl
from execstate.testing import synthetic_grades, synthetic_tasks

STUDIES = (("classic", "python", 6),)


@pytest.fixture()
def files(tmp_path: Path) -> dict[str, Path]:
    tasks = synthetic_tasks(1, STUDIES)
    grades = synthetic_grades(tasks, 1, settings={"m-high": -0.5})
    write_jsonl(tmp_path / "tasks.jsonl", tasks)
    write_jsonl(tmp_path / "grades.jsonl", grades)
    (tmp_path / "settings.toml").write_text('[[setting]]\nname = "check"\nprovider = "oracle"\n')
    (tmp_path / "a-file").write_text("not a directory\n")
    return {
        "tasks": tmp_path / "tasks.jsonl",
        "grades": tmp_path / "grades.jsonl",
        "settings": tmp_path / "settings.toml",
        "file": tmp_path / "a-file",
        "dir": tmp_path,
    }


def _one_line_error(capsys: pytest.CaptureFixture[str], argv: list[str], command: str, *needles: str) -> str:
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.startswith(f"execstate {command}: error: ") and err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err and "Fix:" in err, err
    for needle in needles:
        assert needle in err, (needle, err)
    return err


def _analyze(files: dict[str, Path], **over: str) -> list[str]:
    args = {
        "--tasks": str(files["tasks"]),
        "--grades": str(files["grades"]),
        "--out": str(files["dir"] / "out"),
        "--replicates": "20",
        "--permutations": "20",
        **over,
    }
    return ["analyze", *[x for kv in args.items() for x in kv]]


def test_missing_tasks_file(files, capsys):
    _one_line_error(
        capsys,
        _analyze(files, **{"--tasks": str(files["dir"] / "nope.jsonl")}),
        "analyze",
        "--tasks",
        "nope.jsonl does not exist",
    )
    _one_line_error(
        capsys,
        [
            "run",
            "--tasks",
            str(files["dir"] / "nope.jsonl"),
            "--settings",
            str(files["settings"]),
            "--out",
            str(files["dir"] / "run"),
        ],
        "run",
        "--tasks",
    )


def test_corrupt_jsonl_line(files, capsys):
    lines = files["grades"].read_text().splitlines(keepends=True)
    lines[2] = lines[2][: len(lines[2]) // 2] + "\n"
    files["grades"].write_text("".join(lines))
    _one_line_error(capsys, _analyze(files), "analyze", "grades.jsonl:3:", "not valid JSON")


def test_valid_json_with_a_wrong_field(files, capsys):
    lines = files["tasks"].read_text().splitlines(keepends=True)
    lines[1] = lines[1].replace('"arm":"long-trace-final"', '"arm":"longest"')
    files["tasks"].write_text("".join(lines))
    _one_line_error(capsys, _analyze(files), "analyze", "tasks.jsonl:2:", "field 'arm'", "'longest'")


def test_empty_grades_file(files, capsys):
    files["grades"].write_text("")
    _one_line_error(capsys, _analyze(files), "analyze", "grades.jsonl holds no grades", "execstate grade")


def test_zero_replicates(files, capsys):
    _one_line_error(capsys, _analyze(files, **{"--replicates": "0"}), "analyze", "replicates", "got 0")


def test_out_names_an_existing_file(files, capsys):
    _one_line_error(capsys, _analyze(files, **{"--out": str(files["file"])}), "analyze", "a-file is a file")
    _one_line_error(
        capsys,
        [
            "tables",
            "--tasks",
            str(files["tasks"]),
            "--grades",
            str(files["grades"]),
            "--out",
            str(files["file"] / "tables"),
        ],
        "tables",
        "a-file is a file",
    )


def test_unknown_setting(files, capsys):
    _one_line_error(
        capsys,
        [
            "run",
            "--tasks",
            str(files["tasks"]),
            "--settings",
            str(files["settings"]),
            "--out",
            str(files["dir"] / "run"),
            "--setting",
            "gpt-9",
        ],
        "run",
        "no setting named 'gpt-9'",
        "check",
    )


def test_unknown_study(files, capsys):
    _one_line_error(
        capsys,
        ["build", "--study", "clasic", "--out", str(files["dir"] / "b")],
        "build",
        "unknown study 'clasic'",
        "classic",
        "cruxeval",
    )
    _one_line_error(
        capsys,
        ["pipeline", "--study", "clasic", "--out", str(files["dir"] / "p")],
        "pipeline",
        "unknown study 'clasic'",
    )


def test_build_with_no_case_admitted_exits_1_and_says_why(tmp_path, capsys):
    spec = tmp_path / "case" / "case.toml"
    spec.parent.mkdir()
    spec.write_text('id = "mine/x"\nstudy = "mine"\nlanguage = "python"\nprogram = \n')
    code = main(["build", str(tmp_path / "case"), "--out", str(tmp_path / "out")])
    captured = capsys.readouterr()
    assert code == 1
    assert "no case was admitted (1 at check 'spec')" in captured.err and "not valid TOML" in captured.err
    assert (tmp_path / "out" / "excluded.jsonl").read_text().count("\n") == 1  # the outputs are still written


def test_interrupt_exits_130_and_debug_shows_the_error(files, capsys, monkeypatch):
    import execstate.report

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(execstate.report, "analyze_files", interrupted)
    assert main(_analyze(files)) == 130
    assert "interrupted" in capsys.readouterr().err
    monkeypatch.undo()
    files["grades"].write_text("")
    with pytest.raises(InputFileError):
        main(["--debug", *_analyze(files)])
    monkeypatch.setenv("EXECSTATE_DEBUG", "1")
    files["grades"].write_text("{}\n")
    with pytest.raises(RecordError):
        main(_analyze(files))


def test_the_console_command_prints_one_line(files):
    files["grades"].write_text("")
    done = subprocess.run(
        [sys.executable, "-m", "execstate", *_analyze(files)], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
