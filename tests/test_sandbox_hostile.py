"""Hostile programs against the sandbox: nothing escapes, nothing leaks, nothing survives the run.

Each program tries one escape and prints what happened; the test asserts the
escape failed from the outside (no file on the host, no process left, no
canary in any output), not only from the program's own report.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from execstate.sandbox import Limits, SandboxResult, run, run_python

FAST = Limits(wall_s=5, cpu_s=5, memory_mb=512, output_bytes=200_000)
CANARY = "sk-canary-7f3e9d1c"


@pytest.fixture()
def secrets(monkeypatch, tmp_path):
    """Secrets where a careless sandbox leaks them: the caller's environment and home directory."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".netrc").write_text(f"machine api.example.com password {CANARY}\n")
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    monkeypatch.setenv("HOME", str(home))
    return home


def _python(tmp_path: Path, text: str, limits: Limits = FAST) -> SandboxResult:
    program = tmp_path / "main.py"
    program.write_text(text)
    return run_python(program, b"", limits)


def _no_canary(res: SandboxResult) -> None:
    assert CANARY.encode() not in res.stdout + res.stderr


@pytest.mark.parametrize(
    "attempt",
    [
        "import ctypes\nprint(ctypes.CDLL(None).fork())",
        "import ctypes\nprint(ctypes.CDLL(None).system(b'sleep 77'))",
        "import _posixsubprocess, os\nr, w = os.pipe()\n"
        "print(_posixsubprocess.fork_exec([b'/bin/sleep', b'77'], [b'/bin/sleep'], True, (), None, None,"
        " -1, -1, -1, -1, -1, -1, r, w, True, False, 0, None, None, None, -1, None, False))",
        "import multiprocessing as m\np = m.Process(target=print)\np.start()\nprint(p.pid)",
        "import os\nprint(os.posix_spawn('/bin/sleep', ['sleep', '77'], {}))",
    ],
)
def test_no_process_can_be_created(tmp_path, attempt, running):
    res = _python(tmp_path, attempt)
    out = res.stdout.decode().strip()
    assert res.status == "crash" or out in ("-1", str(127 << 8)), (res.describe(), out)
    assert running("sleep 77") == []


def test_nothing_written_outside_the_working_directory(tmp_path, secrets):
    cwd = Path.cwd()
    targets = [
        "/execstate-evil",
        "/tmp/execstate-evil",
        str(cwd / "execstate-evil"),
        str(tmp_path / "evil"),
        str(secrets / "evil"),
    ]
    text = (
        "import os\n"
        + "".join(
            f"try:\n    open({t!r}, 'w').write('x')\n    print('WROTE {t}')\nexcept OSError as e:\n    print(e.errno)\n"
            for t in targets
        )
        + "open('inside.txt', 'w').write('fine')\nprint('inside ok')\n"
    )
    res = _python(tmp_path, text)
    assert res.ok and b"WROTE" not in res.stdout and b"inside ok" in res.stdout
    assert [t for t in targets if os.path.exists(t)] == []


def test_secrets_of_the_caller_are_not_reachable(tmp_path, secrets):
    text = (
        "import os, glob\n"
        "print(dict(os.environ))\n"
        "for path in glob.glob('/proc/*/environ') + glob.glob('/proc/*/cmdline'):\n"
        "    try:\n        print(path, open(path, 'rb').read())\n    except OSError as e:\n        print(path, e)\n"
        f"for path in [{str(secrets / '.netrc')!r}, os.path.expanduser('~/.netrc'), '/root/.netrc']:\n"
        "    try:\n        print(open(path).read())\n    except OSError as e:\n        print(path, e.errno)\n"
        "print(sorted(os.listdir('/')))\n"
    )
    res = _python(tmp_path, text)
    assert res.ok, res.describe()
    _no_canary(res)
    assert b"home" not in res.stdout.split(b"\n")[-2]  # the caller's home directory does not exist there


def test_no_network_even_to_a_loopback_listener(tmp_path, secrets, listener):
    port, hits = listener
    text = (
        "import socket, os\n"
        "for family in (socket.AF_INET, socket.AF_INET6):\n"
        "    try:\n"
        f"        s = socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
        f"        s.sendall(b'GET /{CANARY} HTTP/1.0\\r\\n\\r\\n')\n"
        "        print('CONNECTED')\n"
        "    except OSError as e:\n        print('refused', e.errno)\n"
        "print(open('/proc/net/dev').read())\n"
    )
    res = _python(tmp_path, text)
    assert res.ok and b"CONNECTED" not in res.stdout and hits == []
    interfaces = [line.split(":")[0].strip() for line in res.stdout.decode().splitlines() if ":" in line]
    assert interfaces == ["lo"]


def test_wall_limit_holds_when_a_descendant_keeps_the_pipe(tmp_path, running):
    """The shell exits at once but leaves a sleeper holding stdout; the run still ends promptly."""
    started = time.monotonic()
    res = run(["/bin/sh", "-c", "setsid sleep 66 & echo bye"], b"", Limits(wall_s=3, cpu_s=3), confine=False)
    assert res.ok and res.stdout == b"bye\n" and time.monotonic() - started < 3
    started = time.monotonic()
    res = run(["/bin/sh", "-c", "sleep 66"], b"", Limits(wall_s=1, cpu_s=3), confine=False)
    assert res.status == "timeout" and time.monotonic() - started < 3
    assert running("sleep 66") == []


def test_the_program_cannot_trace_mount_or_leave_its_namespaces(tmp_path):
    text = (
        "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\n"
        "print(libc.ptrace(16, 1, 0, 0), libc.unshare(0x20000), libc.mount(b'none', b'/tmp', b'tmpfs', 0, None))\n"
    )
    res = _python(tmp_path, text)
    assert res.ok and res.stdout.strip() == b"-1 -1 -1", res.stdout


def test_threads_still_work(tmp_path):
    text = (
        "import threading\nout = []\nts = [threading.Thread(target=out.append, args=(i,)) for i in range(8)]\n"
        "[t.start() for t in ts]\n[t.join() for t in ts]\nprint(sorted(out))\n"
    )
    res = _python(tmp_path, text)
    assert res.ok and res.stdout == b"[0, 1, 2, 3, 4, 5, 6, 7]\n"
