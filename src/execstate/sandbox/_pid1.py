"""The sandbox's PID 1: the compiled init when a C compiler can build it, else the Python one, and its command."""

from __future__ import annotations

import functools
import hashlib
import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

from execstate.sandbox._seccomp import SECCOMP_ENV, seccomp_filter

_INIT = Path(__file__).with_name("_init.py")
EXEC_FD = 1023
"""The descriptor the compiled init execs the program through; RLIMIT_NOFILE stays below it afterwards."""


def init_command(init: list[str], cfg: dict) -> tuple[list[str], dict[str, str]]:
    """The PID 1 command for ``cfg`` and the environment to start it with.

    The compiled init (``sandbox/_init.c``) when a C compiler could build it:
    it sets up the root and execs the program, already under the seccomp
    filter, with the program's environment. Otherwise the Python init: for a
    script run it is the program's own interpreter (started with the
    program's environment) and the launcher installs the filter before the
    program's first line; for other programs it installs the filter as the
    compiled init does.
    """
    native = native_init()
    if native is not None:
        rl = cfg["limits"]
        program = [init[0], "-s", "-B", cfg["script"], *cfg["argv"]] if cfg.get("script") else cfg["argv"]
        sizes = [str(rl["RLIMIT_AS"][0]), str(rl["RLIMIT_CPU"][0]), str(rl["RLIMIT_FSIZE"][0])]
        flt = seccomp_filter(EXEC_FD) if cfg["confine"] else "-"
        argv = [native, str(cfg["status_fd"]), cfg["root"], cfg["cwd"], *sizes, flt, str(len(cfg["readable"]))]
        return [*argv, *cfg["readable"], "--", *program], cfg["env"]
    if cfg.get("script"):
        env = {**cfg["env"], **({SECCOMP_ENV: seccomp_filter()} if cfg["confine"] else {})}
        return [*init, str(_INIT), json.dumps(cfg)], env
    cfg = {**cfg, "filter": seccomp_filter(EXEC_FD) if cfg["confine"] else None, "exec_fd": EXEC_FD}
    return [*init, str(_INIT), json.dumps(cfg)], {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}


@functools.cache
def native_init() -> str | None:
    """The compiled init, built once per source version into the user's cache; None without a C compiler.

    ``EXECSTATE_SANDBOX_INIT=python`` forces the Python init (the same isolation, slower start-up).
    """
    if os.environ.get("EXECSTATE_SANDBOX_INIT") == "python":
        return None
    source = _INIT.with_suffix(".c")
    version = hashlib.sha256(source.read_bytes()).hexdigest()[:16]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    target = Path(base) / "execstate" / "sandbox-init" / version / "init"
    if target.exists():
        return str(target)
    compiler = shutil.which("gcc") or shutil.which("cc")
    if compiler is None:
        return None
    target.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
        built = Path(tmp) / "init"
        done = subprocess.run([compiler, "-O2", "-o", str(built), str(source)], capture_output=True, timeout=120)
        if done.returncode != 0:
            return None
        os.replace(built, target)
    return str(target)
