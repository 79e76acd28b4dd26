"""The sandbox: limits, statuses, scrubbed environment, process-group cleanup."""

from __future__ import annotations

import ast
import os
import select
import subprocess
import sys
from pathlib import Path

from execstate.sandbox import Limits, run, run_python

FAST = Limits(wall_s=3, cpu_s=3, memory_mb=512, output_bytes=100_000)


def _prog(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "main.py"
    path.write_text(text)
    return path


def _seconds_token() -> str:
    """Nine random digits: a ``sleep`` argument (digits only, or sleep exits at once) no other process names."""
    return str(10**8 + int.from_bytes(os.urandom(4)) % (9 * 10**8))


def test_ok_run_reads_stdin_and_has_a_fixed_hash_seed(tmp_path):
    res = run_python(
        _prog(tmp_path, "import os,sys\nprint(sys.stdin.read().upper(), os.environ['PYTHONHASHSEED'])"),
        b"abc",
        FAST,
        hash_seed=2,
    )
    assert res.status == "ok" and res.stdout == b"ABC 2\n"


def test_environment_is_scrubbed(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret-value")
    res = run_python(_prog(tmp_path, "import os\nprint(sorted(os.environ.items()))"), b"", FAST)
    assert res.ok and b"sk-secret-value" not in res.stdout and b"OPENAI" not in res.stdout


def test_working_directory_is_fresh_and_holds_only_the_program(tmp_path):
    (tmp_path / "secret.txt").write_text("next to the program on the host")
    res = run_python(_prog(tmp_path, "import os\nprint(os.listdir('.'), os.getcwd())"), b"", FAST)
    listing, cwd = res.stdout.decode().split(" ", 1)
    assert listing == "['main.py']" and cwd.strip() != str(tmp_path)


def test_named_statuses(tmp_path):
    cases = {
        "while True: pass": "timeout",
        "x = bytearray(2 * 1024**3)": "memory",
        "while True: print('x' * 1000)": "output-limit",
        "raise SystemExit(3)": "crash",
        "import os, signal\nos.kill(os.getpid(), signal.SIGSEGV)": "crash",
    }
    for text, status in cases.items():
        res = run_python(_prog(tmp_path, text), b"", FAST)
        assert res.status == status, (text, res.describe())
    assert run_python(_prog(tmp_path, "raise SystemExit(3)"), b"", FAST).exit_code == 3


def test_process_creation_is_refused(tmp_path):
    for text in ("import os\nos.fork()", "import subprocess\nsubprocess.run(['true'])", "import os\nos.system('true')"):
        res = run_python(_prog(tmp_path, text), b"", FAST)
        assert res.status == "crash" and b"creating processes is not allowed" in res.stderr


def test_every_descendant_dies_with_the_run(tmp_path, running):
    """A shell that leaves a new session of background sleepers behind: none survives the run."""
    token = _seconds_token()
    script = f"setsid sleep {token} & (sleep {token} &) ; sleep {token} & echo started"
    res = run(["/bin/sh", "-c", script], b"", FAST, confine=False)  # a trusted shell may fork; its children die
    assert res.ok and res.stdout == b"started\n"
    assert running(token) == []  # a command line's words are NUL-separated: the token alone matches a sleeper


def test_killing_the_caller_kills_its_running_programs(tmp_path, running):
    """The caller dies by SIGKILL mid-run: the parent-death signal takes ``unshare``, its init and the
    program with it (waited for on pidfds, not by sleeping)."""
    token = _seconds_token()
    ready_r, ready_w = os.pipe()
    caller = (  # the shell names descriptors by one digit: the pipe becomes 3 in the caller
        f"import os\nos.dup2({ready_w}, 3)\nfrom execstate.sandbox import Limits, run\n"
        f"run(['/bin/sh', '-c', 'echo up >&3; exec sleep {token}'], b'', Limits(wall_s=600, cpu_s=600),"
        " pass_fds=(3,), confine=False)\n"
    )
    proc = subprocess.Popen([sys.executable, "-c", caller], pass_fds=(ready_w,))
    os.close(ready_w)
    try:
        with os.fdopen(ready_r, "rb") as ready:
            assert ready.readline() == b"up\n"
        pids = running(token)  # the caller, setpriv's unshare, the init, the program (one may be mid-exec)
        watched = [os.pidfd_open(int(pid)) for pid in pids]
    finally:
        proc.kill()
        proc.wait()
    try:
        for fd in watched:
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            assert poller.poll(30_000), "a sandboxed program outlived its caller"
    finally:
        for fd in watched:
            os.close(fd)
    assert running(token) == []


def test_the_python_init_isolates_like_the_compiled_one(tmp_path, monkeypatch):
    """Without a C compiler the Python init runs; the same escapes fail and the same statuses come back."""
    import execstate.sandbox as sandbox

    monkeypatch.setenv("EXECSTATE_SANDBOX_INIT", "python")
    sandbox.native_init.cache_clear()
    try:
        assert sandbox.native_init() is None
        text = (
            "import ctypes, os, socket\nprint(ctypes.CDLL(None).fork(), sorted(os.listdir('/')))\n"
            "try:\n    socket.socket()\nexcept OSError as e:\n    print(e.errno)\n"
        )
        res = run_python(_prog(tmp_path, text), b"", FAST)
        forked, _, listing = res.stdout.partition(b" ")
        top = set(ast.literal_eval(listing.split(b"\n")[0].decode()))
        # the private root: system directories plus whatever holds the interpreter and the work dir
        assert res.ok and forked == b"-1" and res.stdout.endswith(b"1\n")
        assert {"bin", "dev", "etc", "proc", "tmp", "usr"} <= top and "home" not in top
        assert run_python(_prog(tmp_path, "raise SystemExit(3)"), b"", FAST).exit_code == 3
        assert run_python(_prog(tmp_path, "while True: pass"), b"", FAST).status == "timeout"
        assert run(["/bin/sh", "-c", "echo $$"], b"", FAST).stdout == b"2\n"  # PID 1 is the init
    finally:
        monkeypatch.delenv("EXECSTATE_SANDBOX_INIT")
        sandbox.native_init.cache_clear()


def test_a_python_program_sees_the_standard_library_but_no_installed_package(tmp_path):
    """The interpreter's site-packages are hidden (empty): imports do not depend on the host, and no host
    ``.pth`` file runs at start-up; ``site`` itself still runs (``exit`` is defined)."""
    import os
    import sys

    from execstate.sandbox import site_directories

    host = site_directories(os.path.realpath(sys.executable))
    assert host, "the test interpreter has a site-packages directory"
    installed = sorted(e for d in host for e in os.listdir(d) if e.endswith(".dist-info"))
    assert any(name.startswith("pip-") for name in installed), installed  # pip is there on the host
    text = (
        "import json, os, sys\nfrom importlib.util import find_spec\n"
        f"print(json.dumps([os.listdir(d) for d in {host!r}]), find_spec('pip') is None, find_spec('json') is None)\n"
        "exit(4)\n"
    )
    res = run_python(_prog(tmp_path, text), b"", FAST)
    assert res.exit_code == 4 and res.stdout == b"[" + b", ".join(b"[]" for _ in host) + b"] True False\n"
