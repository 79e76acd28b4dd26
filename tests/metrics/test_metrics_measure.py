"""measure(): statuses, stdout kept apart from the metrics, interpreter selection; the CLI on top of it."""

from __future__ import annotations

import json
import platform

import pytest

from execstate.cli import main
from execstate.metrics import measure


def test_ok_run_keeps_the_programs_stdout_exact():
    source = "import sys\ndata = sys.stdin.read().split()\nfor x in data:\n    print(int(x) * 2)\n"
    stdin = " ".join(str(i) for i in range(20000)).encode()
    m = measure(source, stdin)
    assert m.ok and m.toolchain == platform.python_version()
    assert m.stdout == b"".join(f"{i * 2}\n".encode() for i in range(20000))
    assert m.trace_length > 20000 * 5 and m.peak_state >= 20000 and m.state_load > m.peak_state


def test_state_false_measures_only_the_trace():
    m = measure("s = 0\nfor i in range(10):\n    s += i\n", b"", state=False)
    assert m.ok and m.trace_length > 0 and m.peak_state is None and m.state_load is None


def test_uncaught_exception_is_a_crash_with_the_traceback_tail():
    m = measure("def f(x):\n    return 1 // x\nprint('partial')\nf(0)\n", b"")
    assert m.status == "crash" and m.trace_length is None
    assert "ZeroDivisionError" in m.detail and 'File "main.py", line 2' in m.detail
    assert m.stdout == b"partial\n"


@pytest.mark.parametrize("exit_call", ["import sys\nsys.exit(3)\n", "import os\nos._exit(3)\n"])
def test_nonzero_exit_is_a_crash(exit_call):
    m = measure(exit_call, b"")
    assert m.status == "crash" and "status 3" in m.detail


def test_sys_exit_zero_is_ok():
    assert measure("import sys\nprint(1)\nsys.exit()\n", b"").ok


def test_timeout():
    m = measure("while True:\n    pass\n", b"", timeout_s=1.0)
    assert m.status == "timeout" and m.trace_length is None


def test_syntax_error_is_an_error_naming_the_interpreter():
    m = measure("def (:\n", b"")
    assert m.status == "error" and "does not compile" in m.detail and m.toolchain in m.detail


def test_missing_interpreter_is_named():
    with pytest.raises(FileNotFoundError, match="/no/such/python"):
        measure("x = 1\n", b"", python="/no/such/python")


def test_programs_cannot_create_processes():
    m = measure("import os\nos.system('true')\n", b"")
    assert m.status == "crash" and "not allowed" in m.detail


# --- CLI ------------------------------------------------------------------------
def run_cli(argv: list[str]) -> int:
    return main(argv)


def test_cli_prints_the_four_metrics(tmp_path, capsys):
    (tmp_path / "p.py").write_text("n = int(input())\nxs = list(range(n))\nif n:\n    print(sum(xs))\n")
    (tmp_path / "in.txt").write_text("4\n")
    assert run_cli(["metrics", str(tmp_path / "p.py"), "--input", str(tmp_path / "in.txt")]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"trace_length", "peak_state", "state_load", "cyclomatic", "python"}
    assert out["cyclomatic"] == 2 and out["peak_state"] == 5 and out["python"] == platform.python_version()


@pytest.mark.parametrize(
    ("program", "message"),
    [
        (None, "program"),
        ("def (:\n", "is not valid Python"),
        ("raise KeyError('boom')\n", "crash: "),
        ("while True:\n    pass\n", "timeout"),
    ],
)
def test_cli_errors_are_clear(tmp_path, capsys, program, message):
    path = tmp_path / "p.py"
    if program is not None:
        path.write_text(program)
    (tmp_path / "in.txt").write_text("")
    argv = ["metrics", str(path), "--input", str(tmp_path / "in.txt"), "--timeout", "1"]
    assert run_cli(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.startswith("execstate metrics: error: ") and err.count("\n") == 1


def test_cli_missing_input_file(tmp_path, capsys):
    (tmp_path / "p.py").write_text("x = 1\n")
    assert run_cli(["metrics", str(tmp_path / "p.py"), "--input", str(tmp_path / "none.txt")]) == 2
    err = capsys.readouterr().err
    assert "input file" in err and "none.txt does not exist" in err


def test_the_installed_command(tmp_path):
    import subprocess
    import sys

    (tmp_path / "p.py").write_text("print(sum(map(int, input().split())))\n")
    (tmp_path / "in.txt").write_text("1 2 3\n")
    out = subprocess.run(
        [sys.executable, "-m", "execstate.cli", "metrics", str(tmp_path / "p.py"), "--input", str(tmp_path / "in.txt")],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(out.stdout)
    assert report["cyclomatic"] == 1 and report["trace_length"] > 0 and report["state_load"] == 0
