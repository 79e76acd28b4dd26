"""Benchmark: the cost of isolation, side by side: the classic study built isolated vs with a bare runner.

The bare runner is the pre-isolation reference kept here for comparison only:
the same limits (set by util-linux ``prlimit``), a process group, no
namespaces, no private filesystem, no seccomp filter; Python starts without
``site`` (the sandbox runs ``site`` over hidden, empty site-packages). Builds alternate (bare, isolated, bare, isolated, ...) so
machine load hits both alike; the script prints each build's wall time, the
per-run cost of a trivial program both ways, and the ratios. Target: the
isolated classic build at most 1.5x the bare one. Both builds must give
byte-identical tasks.jsonl (checked). Measurements the builder remembers within the process are forgotten
before each build, so every build measures its cases itself.
--smoke: the first 2 classic cases, 1 round, 3 trivial runs each way; only the tasks' identity sets the exit status.

    python benchmarks/sandbox.py [--rounds 2] [--jobs 2] [--cases N] [--smoke]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path

import execstate.sandbox as sandbox
from execstate.builder import BuildOptions, build
from execstate.records import tasks_bytes
from execstate.sandbox import _limits, _run  # the internals this benchmark replaces, where they live
from execstate.studies import STUDIES

TARGET = 1.5
PRLIMIT = shutil.which("prlimit") or "/usr/bin/prlimit"


def _bare(init, spec, exe, stdin, limits, cwd, pass_fds, readable, files=None) -> sandbox.SandboxResult:
    """The reference runner: ``spec`` run directly in a child process group with the same rlimits."""
    with tempfile.TemporaryDirectory(prefix="execstate-bare-") as tmp:
        work = Path(cwd) if cwd is not None else Path(tmp)
        for name, data in (files or {}).items():
            (work / name).write_bytes(data)
        args = [a.replace("{cwd}", str(work)) for a in spec["argv"]]
        # -S: no site, so no .pth file of the host runs (the sandbox hides site-packages, see
        # sandbox.site_directories; here one .pth importing certifi cost 35 ms of every bare run)
        argv = [exe, "-S", "-s", "-B", spec["script"], *args] if spec.get("script") else args
        # util-linux prlimit sets the limits and execs the program, as setpriv execs unshare in the isolated
        # path: both start with vfork (a preexec_fn would fork the whole caller at every run, which made
        # this reference slower than the isolated runner it is compared with)
        flags = {"RLIMIT_AS": "as", "RLIMIT_CPU": "cpu", "RLIMIT_FSIZE": "fsize", "RLIMIT_CORE": "core"}
        limit = [f"--{flags[name]}={soft}:{hard}" for name, (soft, hard) in _limits.rlimits(limits).items()]

        started = time.monotonic()
        proc = subprocess.Popen(
            [PRLIMIT, *limit, "--", *argv],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=work,
            env=spec["env"],
            start_new_session=True,
            pass_fds=pass_fds,
        )
        try:
            out, err = proc.communicate(stdin, timeout=limits.wall_s)
            timed_out = False
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            timed_out = True
        code = proc.returncode
        status = "timeout" if timed_out else ("ok" if code == 0 else "crash")
        return sandbox.SandboxResult(
            status, code if code >= 0 else None, -code if code < 0 else None, out, err, time.monotonic() - started, 0.0
        )


@contextmanager
def _runner(kind: str) -> Iterator[None]:
    original = _run._isolated
    if kind == "bare":
        _run._isolated = _bare  # type: ignore[assignment]
    try:
        yield
    finally:
        _run._isolated = original  # type: ignore[assignment]


def _build(jobs: int, cases: int | None = None) -> tuple[float, str]:
    folder = STUDIES["classic"].cases_dir
    assert folder is not None
    paths = sorted(p.parent for p in folder.glob("*/case.toml"))[:cases] if cases else []
    started = time.perf_counter()
    result = build(paths, studies=[] if cases else ["classic"], jobs=jobs, options=BuildOptions())
    assert not result.exclusions, result.exclusions
    return time.perf_counter() - started, hashlib.sha256(tasks_bytes(result.tasks)).hexdigest()


def _trivial_run_ms(n: int = 20) -> float:
    with tempfile.TemporaryDirectory() as tmp:
        program = Path(tmp) / "main.py"
        program.write_text("print(sum(map(int, input().split())))\n")
        sandbox.run_python(program, b"1 2\n")
        started = time.perf_counter()
        for _ in range(n):
            assert sandbox.run_python(program, b"1 2\n").ok
        return (time.perf_counter() - started) / n * 1000


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--cases", type=int, help="only the first N cases of the classic study (default: all)")
    parser.add_argument("--trivial-runs", type=int, default=20, help="runs of the trivial program each way")
    parser.add_argument("--smoke", action="store_true", help="2 cases, 1 round: does it still run?")
    args = parser.parse_args(argv)
    if args.smoke:  # smaller defaults; options given on the command line still win
        parser.set_defaults(rounds=1, cases=2, trivial_runs=3)
        args = parser.parse_args(argv)
    times: Mapping[str, list[float]] = {"bare": [], "isolated": []}
    hashes: dict[str, set[str]] = {"bare": set(), "isolated": set()}
    runs = {}
    for kind in ("bare", "isolated"):
        with _runner(kind):
            runs[kind] = _trivial_run_ms(args.trivial_runs)
    for _ in range(args.rounds):
        for kind in ("bare", "isolated"):
            with _runner(kind):
                seconds, digest = _build(args.jobs, args.cases)
            times[kind].append(seconds)
            hashes[kind].add(digest)
            print(f"  classic build, {kind:<8}: {seconds:6.1f} s", flush=True)
    same = hashes["bare"] == hashes["isolated"] and len(hashes["bare"]) == 1
    bare, isolated = statistics.median(times["bare"]), statistics.median(times["isolated"])
    print(f"python {platform.python_version()}, {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    print(
        f"trivial program: bare {runs['bare']:.1f} ms, isolated {runs['isolated']:.1f} ms per run "
        f"({runs['isolated'] / runs['bare']:.2f}x)"
    )
    what = f"classic build ({args.cases} cases)" if args.cases else "classic build"
    print(
        f"{what} (median of {args.rounds}): bare {bare:.1f} s, isolated {isolated:.1f} s "
        f"-> {isolated / bare:.2f}x (target <= {TARGET}x); tasks.jsonl identical: {same}"
    )
    return 0 if same and (isolated / bare <= TARGET or args.smoke) else 1


if __name__ == "__main__":
    sys.exit(main())
