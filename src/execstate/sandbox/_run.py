"""The public ways to run a program in the sandbox: any command, a Python script, a Python program file."""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from execstate.sandbox._env import library_env, scrubbed_env
from execstate.sandbox._execute import run_in
from execstate.sandbox._limits import Limits, rlimits
from execstate.sandbox._result import SandboxResult
from execstate.sandbox._root import readable_paths
from execstate.sandbox._workdir import program_directory

LAUNCHER = Path(__file__).with_name("_launch.py")
"""The trusted launcher that starts a Python program inside the sandbox (``python -s -B _launch.py PROGRAM``)."""


def run(
    argv: list[str],
    stdin: bytes = b"",
    limits: Limits = Limits(),  # noqa: B008 (frozen: one shared default is safe)
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    pass_fds: tuple[int, ...] = (),
    readable: Sequence[Path | str] = (),
    confine: bool = True,
) -> SandboxResult:
    """Run ``argv`` isolated (see the ``execstate.sandbox`` docstring) under ``limits`` with ``stdin``.

    Never raises for the program's faults. ``env`` replaces the environment
    entirely (default: ``scrubbed_env()``). ``cwd`` is the one writable
    directory (default: a fresh empty temporary directory, removed afterwards).
    ``readable`` adds host files or directories the program may read, at their
    own paths; the interpreter ``argv[0]`` resolves to is added by itself.
    ``pass_fds`` are inherited by the program (e.g. a pipe it reports on).
    ``confine`` installs the seccomp filter before the program's first instruction
    (no process creation, no exec, no sockets but AF_UNIX); ``confine=False``
    keeps only the namespaces and limits (for trusted tools such as a shell).
    ``SandboxUnavailable`` if the namespaces cannot be made on this machine.
    """
    exe = os.path.realpath(shutil.which(argv[0]) or argv[0])
    init = [os.path.realpath(sys.executable), "-I", "-S", "-B"]
    spec = {"argv": [exe, *argv[1:]], "env": env if env is not None else scrubbed_env(), "confine": confine}
    return _isolated(init, spec, exe, stdin, limits, cwd, pass_fds, readable)


def run_script(
    python: str,
    script: Path,
    args: Sequence[str] = (),
    stdin: bytes = b"",
    limits: Limits = Limits(),  # noqa: B008 (frozen: one shared default is safe)
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    pass_fds: tuple[int, ...] = (),
    readable: Sequence[Path | str] = (),
    files: Mapping[str, bytes] | None = None,
    confine: bool = True,
    library: Path | None = None,
) -> SandboxResult:
    """Run the stdlib-only Python ``script`` as ``python -s -B SCRIPT ARGS`` would, isolated like ``run``.

    The sandbox's PID 1 is started by ``python`` itself and its forked child
    runs the script, which saves one interpreter start-up per run. ``script``
    is made readable. ``files`` (name -> bytes) are written into the fresh
    working directory first; an argument ``{cwd}/NAME`` names such a file.
    ``library`` is a folder of third-party packages (a declared environment's,
    ``execstate.environments``) mounted read-only and put on ``sys.path``
    (``library_env``); without it the program sees the standard library only.
    Other arguments as for ``run``.
    """
    exe = os.path.realpath(shutil.which(python) or python)
    env = dict(env if env is not None else scrubbed_env())
    if library is not None:
        env.update(library_env(library))
        readable = [*readable, library]
    spec = {"script": str(script), "argv": [str(a) for a in args], "env": env, "confine": confine}
    return _isolated([exe, "-s", "-B"], spec, exe, stdin, limits, cwd, pass_fds, [*readable, script], files)


def run_python(
    program: Path,
    stdin: bytes = b"",
    limits: Limits = Limits(),  # noqa: B008 (frozen: one shared default is safe)
    *,
    python: str | None = None,
    hash_seed: int = 0,
    args: tuple[str, ...] = (),
    library: Path | None = None,
    extra_env: Mapping[str, str] | None = None,
) -> SandboxResult:
    """Run a fresh copy of a Python program file as ``__main__`` in a fresh directory, through the launcher.

    The launcher (trusted, first in the process) installs the seccomp filter and
    an audit hook that refuses process creation, then runs the program.
    ``library``: a read-only package folder on ``sys.path`` (``run_script``). ``extra_env``: variables added to
    the scrubbed environment (an input generator's ``EXECSTATE_SEED``).
    """
    name = Path(program).name
    env = scrubbed_env(hash_seed, dict(extra_env) if extra_env else None)
    return run_script(
        python or sys.executable,
        LAUNCHER,
        ["{cwd}/" + name, *args],
        stdin,
        limits,
        env=env,
        files={name: Path(program).read_bytes()},
        library=library,
    )


def _isolated(
    init: list[str],
    spec: dict,
    exe: str,
    stdin: bytes,
    limits: Limits,
    cwd: Path | None,
    pass_fds: tuple[int, ...],
    readable: Sequence[Path | str],
    files: Mapping[str, bytes] | None = None,
) -> SandboxResult:
    with program_directory() as tmp:  # whatever the program leaves there is removed, however deep
        work = Path(cwd) if cwd is not None else tmp / "work"
        work.mkdir(exist_ok=True)
        for name, data in (files or {}).items():
            (work / name).write_bytes(data)
        spec = {**spec, "argv": [a.replace("{cwd}", str(work.resolve())) for a in spec["argv"]]}
        (tmp / "root").mkdir()
        cfg = {
            **spec,
            "root": str(tmp / "root"),
            "cwd": str(work.resolve()),
            "limits": rlimits(limits),
            "readable": readable_paths(exe, readable),
        }
        return run_in(init, cfg, stdin, limits, pass_fds)
