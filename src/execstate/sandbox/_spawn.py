"""Start one run: ``unshare`` into fresh namespaces with the init as PID 1, dying with the caller."""

from __future__ import annotations

import ctypes
import functools
import os
import shutil
import signal
import subprocess

from execstate.sandbox._errors import SandboxUnavailable
from execstate.sandbox._pid1 import init_command

_PRCTL = ctypes.CDLL(None, use_errno=True).prctl  # resolved now: nothing may be looked up between fork and exec
_PR_SET_PDEATHSIG = 1
_UTIL_LINUX_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
"""Where ``setpriv`` and ``unshare`` (util-linux) are looked for: system directories, never the caller's PATH."""


def launch(init: list[str], cfg: dict, pass_fds: tuple[int, ...]) -> tuple[subprocess.Popen, int]:
    """Start ``unshare`` + init for ``cfg``; returns the process and the read end of the status pipe."""
    status_r, status_w = os.pipe()
    command, env = init_command(init, {**cfg, "status_fd": status_w})
    namespaces = ["--user", "--map-root-user", "--pid", "--fork", "--kill-child=SIGKILL", "--net", "--mount"]
    namespaces += ["--ipc", "--uts", "--propagation", "private"]
    death = _death_signal()
    try:
        proc = subprocess.Popen(
            [*death, _unshare(), *namespaces, *command],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd="/",
            env=env,
            start_new_session=True,
            preexec_fn=None if death else _die_with_caller,
            pass_fds=(status_w, *pass_fds),
            close_fds=True,
        )
    finally:
        os.close(status_w)
    return proc, status_r


def _die_with_caller() -> None:
    """Between fork and exec of ``unshare``: SIGKILL it when the caller dies, which kills the whole run.

    Only without util-linux ``setpriv`` (``_death_signal``): a ``preexec_fn`` makes ``subprocess`` fork the
    whole caller instead of ``vfork``, which costs 20-80 ms of kernel time per run in a caller holding
    0.2-1.2 GB (a test worker, a build with numpy and pandas loaded).
    """
    _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def parent_death_prefix() -> list[str]:
    """The words that start a trusted helper process (a model server, pip) so it gets SIGKILL when its caller
    dies, however the caller ends: ``setpriv --pdeathsig KILL`` (empty without util-linux's ``setpriv``)."""
    return list(_death_signal())


@functools.cache
def _death_signal() -> list[str]:
    """``setpriv --pdeathsig KILL``: sets the parent-death signal and execs ``unshare``, which keeps it;
    the caller then starts runs with ``vfork``. Empty when util-linux has no ``setpriv``."""
    found = shutil.which("setpriv", path=_UTIL_LINUX_PATH)
    return [found, "--pdeathsig", "KILL"] if found else []


@functools.cache
def _unshare() -> str:
    found = shutil.which("unshare", path=_UTIL_LINUX_PATH)
    if found is None:
        raise SandboxUnavailable(
            "util-linux `unshare` was not found. Fix: install util-linux (apt-get install util-linux)"
        )
    return found
