"""Compiled programs in the sandbox: confined from their first instruction, contained, nothing leaks.

Each hostile C++ program is compiled with the machine's g++ (outside the
sandbox: the compiler is trusted) and run by ``execstate.sandbox.run`` with
the seccomp filter that the init installs before exec. Every assertion checks
the world from outside (files, processes, the listener), not only what the
program reports.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import time
from pathlib import Path

import pytest

from execstate.sandbox import Limits, SandboxResult, native_init, run

pytestmark = pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (Debian package g++)")
FAST = Limits(wall_s=4, cpu_s=4, memory_mb=256, output_bytes=200_000)
CANARY = "sk-canary-c0ffee42"
TOKEN = "execstatebin5521"
HEAD = (
    "#include <bits/stdc++.h>\n#include <unistd.h>\n#include <fcntl.h>\n#include <sys/socket.h>\n"
    "#include <sys/syscall.h>\n#include <netinet/in.h>\n#include <arpa/inet.h>\nusing namespace std;\n"
)


def _binary(tmp_path: Path, body: str) -> Path:
    source = tmp_path / "main.cpp"
    source.write_text(HEAD + "int main() {\n" + body + "\n}\n")
    binary = tmp_path / "work" / "main"
    binary.parent.mkdir(exist_ok=True)
    subprocess.run(["g++", "-std=c++20", "-O0", "-o", str(binary), str(source)], check=True, capture_output=True)
    return binary


def _run(tmp_path: Path, body: str, limits: Limits = FAST) -> SandboxResult:
    binary = _binary(tmp_path, body)
    return run([str(binary)], b"", limits, cwd=binary.parent)


def test_a_plain_binary_runs_and_reads_stdin(tmp_path):
    binary = _binary(tmp_path, "long long a, b; cin >> a >> b; cout << a + b << endl;")
    res = run([str(binary)], b"40 2\n", FAST, cwd=binary.parent)
    assert res.ok and res.stdout == b"42\n"


def test_fork_bomb_creates_nothing(tmp_path):
    res = _run(tmp_path, "int made = 0; for (int i = 0; i < 100; i++) if (fork() >= 0) made++; cout << made;")
    assert res.ok and res.stdout == b"0"


def test_system_and_exec_do_not_run_anything(tmp_path, running):
    body = (
        f'int s = system("sleep 99 {TOKEN} &");\n'
        'char *args[] = {(char *)"/bin/sleep", (char *)"98", nullptr};\n'
        "int e = execv(args[0], args);\n"
        'int fd = open("/bin/sleep", O_PATH | O_CLOEXEC);\n'
        "int d = dup2(fd, 1023);\n"  # the init's exec descriptor number: out of reach under RLIMIT_NOFILE
        'long x = syscall(SYS_execveat, d >= 0 ? d : fd, "", args, environ, AT_EMPTY_PATH);\n'
        'cout << s << " " << e << " " << d << " " << x << endl;'
    )
    res = _run(tmp_path, body)
    assert res.ok, res.describe()
    system_rc, exec_rc, dup_rc, execveat_rc = res.stdout.split()
    assert system_rc != b"0" and exec_rc == b"-1" and dup_rc == b"-1" and execveat_rc == b"-1"
    assert running(TOKEN) == [] and running("sleep 98") == []


def test_no_connection_to_a_loopback_listener(tmp_path, listener):
    port, hits = listener
    body = (
        "int s = socket(AF_INET, SOCK_STREAM, 0);\n"
        "sockaddr_in a{}; a.sin_family = AF_INET; a.sin_port = htons(" + str(port) + ");\n"
        'inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);\n'
        "int c = s >= 0 ? connect(s, (sockaddr *)&a, sizeof a) : -1;\n"
        'cout << s << " " << c << endl;'
    )
    res = _run(tmp_path, body)
    assert res.ok and res.stdout == b"-1 -1\n" and hits == []


def test_memory_time_and_output_limits(tmp_path):
    assert _run(tmp_path, "vector<long long> v(1LL << 32, 1); cout << v.back();").status == "memory"
    spin = _binary(tmp_path, "volatile long x = 0; for (;;) x++;")
    started = time.monotonic()
    assert run([str(spin)], b"", Limits(wall_s=2, cpu_s=2), cwd=spin.parent).status == "timeout"
    assert time.monotonic() - started < 4
    assert _run(tmp_path, "for (;;) cout << string(4096, 'x');").status == "output-limit"


def test_no_write_outside_and_no_secret_inside(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    (home / ".netrc").write_text(f"password {CANARY}\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("OPENAI_API_KEY", CANARY)
    targets = [f"/{TOKEN}", f"/tmp/{TOKEN}", str(Path.cwd() / TOKEN), str(home / TOKEN)]
    writes = "".join(f'{{ FILE *f = fopen("{t}", "w"); cout << (f ? "WROTE " : "no ") ; }}\n' for t in targets)
    reads = (
        'for (string p : {"/proc/1/environ", "/proc/self/environ", "/proc/1/cmdline", "'
        + str(home / ".netrc")
        + '"}) {\n'
        "  ifstream in(p); stringstream ss; ss << in.rdbuf(); cout << ss.str() << endl; }\n"
    )
    res = _run(tmp_path, writes + reads)
    assert res.ok, res.describe()
    assert b"WROTE" not in res.stdout and CANARY.encode() not in res.stdout + res.stderr
    assert [t for t in targets if os.path.exists(t)] == []


def test_the_compiled_init_is_in_use():
    """These guarantees hold with the compiled init; the Python init is tested in test_sandbox.py."""
    assert native_init() is not None
