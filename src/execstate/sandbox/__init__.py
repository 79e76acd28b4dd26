"""Run one untrusted program isolated by the kernel, with hard limits; nothing it does reaches the caller.

Each run happens in fresh user, PID, network, mount, IPC and UTS namespaces
(util-linux ``unshare``), under a small trusted init (``sandbox/_init.py``)
that is PID 1 there and the program's only parent:

- **filesystem**: a private root holding only read-only system directories,
  the interpreter, the files named in ``readable``, a private ``/proc``, four
  ``/dev`` nodes, and one writable, fresh, empty working directory. The home
  directory, the caller's tree and the spec tree do not exist there, and a
  Python interpreter's ``site-packages`` are hidden (``site_directories``):
  programs see the standard library only.
- **network**: none; the namespace has only a loopback interface, down.
- **processes**: every descendant lives in the PID namespace and dies with it,
  at the end of the run, on a limit, or when the caller dies (the ``unshare``
  process has a parent-death signal, set by util-linux ``setpriv`` before it
  execs ``unshare``, and kills its child when it dies).
- **system calls**: every program runs under a seccomp filter from its first
  instruction (the init installs it, then execs the program through a
  descriptor only the filter allows and the program can never recreate)
  that refuses process creation (``fork``, ``vfork``, ``clone`` without
  ``CLONE_THREAD``; ``clone3`` is ``ENOSYS``), any further ``exec``, sockets
  other than ``AF_UNIX``, ``ptrace``, mounts and namespace changes.
- **environment**: scrubbed (nothing of the caller's: no keys, tokens, paths)
  and a fixed hash seed.
- **limits**: wall clock (held even when a descendant keeps a pipe open: the
  whole namespace is killed), CPU, address space, file size, captured output.

Every run ends in one named status:

- ``ok``            exit status 0
- ``timeout``       wall-clock or CPU limit reached
- ``memory``        the address-space limit was hit (MemoryError, bad_alloc)
- ``crash``         non-zero exit code or a signal
- ``output-limit``  stdout or stderr exceeded ``Limits.output_bytes``

A machine that cannot create the namespaces gets ``SandboxUnavailable`` with
the reason, never an unisolated run. A run that cannot be finished cleanly
because of what the program did (it left its working directory in a state that
cannot be removed) raises ``SandboxFault``: the program's fault, which a build
records as a ``run`` exclusion.
"""

from __future__ import annotations

import contextlib
import ctypes
import functools
import hashlib
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from execstate.errors import ExecstateError, remove_tree

Status = Literal["ok", "timeout", "memory", "crash", "output-limit"]

LAUNCHER = Path(__file__).with_name("_launch.py")
"""The trusted launcher that starts a Python program inside the sandbox (``python -s -B _launch.py PROGRAM``)."""
_LAUNCHER = LAUNCHER
_INIT = Path(__file__).with_name("_init.py")
SYSTEM_PATHS: tuple[str, ...] = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/localtime",
    "/etc/alternatives",
)
"""Read-only paths every run sees: system binaries and libraries, the dynamic loader's configuration."""
SECCOMP_ENV = "EXECSTATE_SECCOMP_BPF"
"""Environment variable carrying the seccomp filter (hex BPF) that the launcher installs."""


class SandboxUnavailable(ExecstateError):
    """This machine cannot create the sandbox's namespaces; no program is run unisolated."""


class SandboxFault(ExecstateError):
    """A run could not be finished cleanly because of what the program did, not because of a bug of its caller.

    Raised by ``program_directory`` (and so by every run) when the program left its working directory in a
    state that cannot be removed. A build records it as the case's ``run`` exclusion, never ``internal``.
    """


@contextlib.contextmanager
def program_directory(prefix: str = "execstate-run-") -> Iterator[Path]:
    """A fresh, empty temporary directory for a program to work in, removed on exit however the program
    left it: any depth, without permissions, with symlinks (never followed); see ``remove_tree``.

    ``SandboxFault`` if it cannot be removed. An exception from the body passes through unchanged (the
    removal is then best effort). The fault's message names no path: exclusion reasons stay the same
    from one build to the next.
    """
    path = Path(tempfile.mkdtemp(prefix=prefix))
    try:
        yield path
    except BaseException:
        remove_tree(path)
        raise
    if not remove_tree(path):
        raise SandboxFault(
            "the program left its working directory in a state that cannot be removed. "
            "Fix: keep the program's files and directories few, shallow and writable"
        )


@dataclass(frozen=True)
class Limits:
    """Resource limits of one run. Times in seconds, sizes in MiB / bytes."""

    wall_s: float = 20.0
    cpu_s: float = 20.0
    memory_mb: int = 2048
    output_bytes: int = 16 * 1024 * 1024
    file_mb: int = 16


@dataclass(frozen=True)
class SandboxResult:
    """Outcome of one run; ``detail`` explains any status other than ``ok``."""

    status: Status
    exit_code: int | None
    signal: int | None
    stdout: bytes
    stderr: bytes
    wall_s: float
    cpu_s: float
    detail: str = ""

    @property
    def ok(self) -> bool:
        return self.status == "ok"

    def describe(self) -> str:
        """One line for an exclusion reason: status, code/signal and stderr tail."""
        parts: list[str] = [self.status]
        if self.signal:
            parts.append(f"signal {signal.Signals(self.signal).name}")
        elif self.exit_code not in (0, None):
            parts.append(f"exit code {self.exit_code}")
        if self.detail:
            parts.append(self.detail)
        tail = self.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
        if tail:
            parts.append("stderr: " + " | ".join(tail))
        return "; ".join(parts)


def scrubbed_env(hash_seed: int = 0, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A minimal environment: nothing inherited from the parent but a safe PATH."""
    env = {
        "PATH": "/usr/local/bin:/usr/bin:/bin",
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "PYTHONHASHSEED": str(hash_seed),
        "PYTHONIOENCODING": "utf-8",
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTHONUTF8": "1",
    }
    env.update(extra or {})
    return env


def _rlimits(limits: Limits) -> dict[str, list[int]]:
    """The program's resource limits, as ``sandbox/_init.py`` applies them before exec."""
    mem = limits.memory_mb * 1024 * 1024
    cpu = max(1, int(limits.cpu_s + 0.999))
    size = limits.file_mb * 1024 * 1024
    return {"RLIMIT_AS": [mem, mem], "RLIMIT_CPU": [cpu, cpu + 1], "RLIMIT_FSIZE": [size, size], "RLIMIT_CORE": [0, 0]}


_PRCTL = ctypes.CDLL(None, use_errno=True).prctl  # resolved now: nothing may be looked up between fork and exec
_PR_SET_PDEATHSIG = 1


def _die_with_caller() -> None:
    """Between fork and exec of ``unshare``: SIGKILL it when the caller dies, which kills the whole run.

    Only without util-linux ``setpriv`` (``_death_signal``): a ``preexec_fn`` makes ``subprocess`` fork the
    whole caller instead of ``vfork``, which costs 20-80 ms of kernel time per run in a caller holding
    0.2-1.2 GB (a test worker, a build with numpy and pandas loaded).
    """
    _PRCTL(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


_UTIL_LINUX_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
"""Where ``setpriv`` and ``unshare`` (util-linux) are looked for: system directories, never the caller's PATH."""


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


EXEC_FD = 1023
"""The descriptor the compiled init execs the program through; RLIMIT_NOFILE stays below it afterwards."""


@functools.cache
def seccomp_filter(exec_fd: int | None = None) -> str:
    """The seccomp filter of sandboxed programs as hex BPF, compiled once with libseccomp (``pyseccomp``).

    With ``exec_fd`` the filter lets exactly one call through: ``execveat(exec_fd, "", ..., AT_EMPTY_PATH)``,
    the init's own exec of the program (a descriptor the program can never recreate); without it every
    exec is refused (the filter is then installed after start-up, by the launcher).
    """
    import errno

    import pyseccomp as sc

    flt = sc.SyscallFilter(sc.ALLOW)
    denied = [c for c in _DENIED_CALLS if not (exec_fd is not None and c == "execveat")]
    for name in denied:
        try:
            flt.add_rule(sc.ERRNO(errno.EPERM), name)
        except (RuntimeError, ValueError, OSError):
            continue  # a call this kernel/libseccomp does not know cannot be made either
    if exec_fd is not None:
        flt.add_rule(sc.ERRNO(errno.EPERM), "execveat", sc.Arg(0, sc.NE, exec_fd))
        flt.add_rule(sc.ERRNO(errno.EPERM), "execveat", sc.Arg(4, sc.MASKED_EQ, _AT_EMPTY_PATH, 0))
    clone_thread = 0x00010000
    flt.add_rule(sc.ERRNO(errno.EPERM), "clone", sc.Arg(0, sc.MASKED_EQ, clone_thread, 0))
    flt.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")  # its flags live in memory a filter cannot read
    flt.add_rule(sc.ERRNO(errno.EPERM), "socket", sc.Arg(0, sc.NE, 1))  # AF_UNIX only
    with tempfile.TemporaryFile() as fh:
        flt.export_bpf(fh)
        fh.seek(0)
        return fh.read().hex()


_AT_EMPTY_PATH = 0x1000
_DENIED_CALLS = (
    "fork",
    "vfork",
    "execve",
    "execveat",
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "move_mount",
    "open_tree",
    "fsopen",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "kexec_load",
    "init_module",
    "finit_module",
    "delete_module",
    "userfaultfd",
    "io_uring_setup",
)


class _Reader(threading.Thread):
    """Drain one pipe into memory, stopping at ``cap`` bytes."""

    def __init__(self, pipe, cap: int, on_overflow) -> None:
        super().__init__(daemon=True)
        self.pipe, self.cap, self.on_overflow = pipe, cap, on_overflow
        self.chunks: list[bytes] = []
        self.size = 0

    def run(self) -> None:
        while True:
            chunk = self.pipe.read1(65536) if hasattr(self.pipe, "read1") else self.pipe.read(65536)
            if not chunk:
                break
            room = self.cap - self.size
            self.chunks.append(chunk[: max(room, 0)])
            self.size += len(chunk)
            if self.size > self.cap:
                self.on_overflow()
                break
        self.pipe.close()

    def data(self) -> bytes:
        return b"".join(self.chunks)


def _feed(pipe, data: bytes) -> None:
    try:
        pipe.write(data)
    except (BrokenPipeError, OSError):
        pass  # the program stopped reading; that is its business
    finally:
        try:
            pipe.close()
        except OSError:
            pass


_LIVE: set[int] = set()
_STOPPED: set[int] = set()
_LIVE_LOCK = threading.Lock()


def kill_all() -> int:
    """Kill every program this process is running in the sandbox now (all threads); returns how many.

    For a batch that is being stopped (Ctrl-C, SIGTERM): each killed run returns
    to its caller as a ``crash`` by signal, which the caller must not record as
    the program's fault.
    """
    with _LIVE_LOCK:
        live = list(_LIVE)
        _STOPPED.update(live)
    for pgid in live:
        _kill_group(pgid)
    return len(live)


def _kill_group(pgid: int) -> None:
    try:
        os.killpg(pgid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def run(
    argv: list[str],
    stdin: bytes = b"",
    limits: Limits = Limits(),
    *,
    env: dict[str, str] | None = None,
    cwd: Path | None = None,
    pass_fds: tuple[int, ...] = (),
    readable: Sequence[Path | str] = (),
    confine: bool = True,
) -> SandboxResult:
    """Run ``argv`` isolated (see the module docstring) under ``limits`` with ``stdin``.

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
    limits: Limits = Limits(),
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


def library_env(library: Path) -> dict[str, str]:
    """Environment variables of a run that imports from the package folder ``library``.

    ``PYTHONPATH`` puts it on ``sys.path`` (after the program's own folder); numeric libraries
    (OpenBLAS, OpenMP) use one thread, so their results do not depend on the machine's cores
    and their threads' buffers do not eat the address-space limit.
    """
    return {"PYTHONPATH": str(library), "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


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
            "limits": _rlimits(limits),
            "readable": _readable(exe, readable),
        }
        return _run_in(init, cfg, stdin, limits, pass_fds)


def _readable(exe: str, extra: Sequence[Path | str]) -> list[str]:
    """System paths, the prefix of the interpreter ``exe`` (``<prefix>/bin/python``) and ``extra``;
    then, as ``!PATH`` entries, the interpreter's site-packages directories, which the init hides."""
    paths = [p for p in SYSTEM_PATHS if os.path.lexists(p)]
    prefix = _prefix(exe)
    if not any(prefix == p or prefix.startswith(p + "/") for p in paths):
        paths.append(prefix)
    # Sorted and unique: a directory is bound before anything inside it, which the init then skips.
    shown = sorted(set(paths + [os.path.realpath(p) for p in extra]))
    hidden = [d for d in site_directories(exe) if not any(p == d or p.startswith(d + "/") for p in shown)]
    return shown + ["!" + d for d in hidden]


def _prefix(exe: str) -> str:
    bindir = os.path.dirname(exe)
    return os.path.dirname(bindir) if os.path.basename(bindir) == "bin" else bindir


@functools.cache
def site_directories(exe: str) -> tuple[str, ...]:
    """The third-party package directories of the Python interpreter ``exe`` (none if it is not one), found
    once per interpreter, not at every run.

    A sandboxed Python program sees its interpreter's standard library, never the packages installed
    beside it: what a program imports cannot depend on the host, and the interpreter's start-up runs no
    ``.pth`` file of the host (on some machines a ``.pth`` imports ``certifi`` at every start, about
    35 ms of each run).
    """
    name = os.path.basename(exe)
    if not name.startswith("python"):
        return ()
    prefix = _prefix(exe)
    found = []
    for lib in ("lib", "lib64", "local/lib"):
        base = os.path.join(prefix, lib)
        try:
            entries = sorted(os.listdir(base))
        except OSError:
            continue
        for entry in entries:
            if entry == "python3" or entry.startswith("python3."):
                for leaf in ("site-packages", "dist-packages"):
                    path = os.path.join(base, entry, leaf)
                    if os.path.isdir(path) and not os.path.islink(path):
                        found.append(os.path.realpath(path))
    return tuple(sorted(set(found)))


def _init_command(init: list[str], cfg: dict) -> tuple[list[str], dict[str, str]]:
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


def _launch(init: list[str], cfg: dict, pass_fds: tuple[int, ...]) -> tuple[subprocess.Popen, int]:
    """Start ``unshare`` + init for ``cfg``; returns the process and the read end of the status pipe."""
    status_r, status_w = os.pipe()
    command, env = _init_command(init, {**cfg, "status_fd": status_w})
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


def _exited_within(proc: subprocess.Popen, seconds: float) -> bool:
    """Block until ``proc`` exits or ``seconds`` pass, whichever is first; True if it exited.

    Waits on a pidfd, so the caller wakes the moment the process ends
    (``Popen.wait(timeout)`` polls with sleeps of up to 50 ms, which would add
    tens of milliseconds to every short run).
    """
    fd = os.pidfd_open(proc.pid)
    try:
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(max(0, int(seconds * 1000))))
    finally:
        os.close(fd)


def _read_status(fd: int) -> str:
    chunks = []
    while chunk := os.read(fd, 4096):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks).decode("utf-8", "replace").strip()


def _run_in(init: list[str], cfg: dict, stdin: bytes, limits: Limits, pass_fds: tuple[int, ...]) -> SandboxResult:
    started = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc, status_fd = _launch(init, cfg, pass_fds)
    with _LIVE_LOCK:
        _LIVE.add(proc.pid)
    overflow = threading.Event()

    def on_overflow() -> None:
        overflow.set()
        _kill_group(proc.pid)

    readers = [
        _Reader(proc.stdout, limits.output_bytes, on_overflow),
        _Reader(proc.stderr, limits.output_bytes, on_overflow),
    ]
    feeder = threading.Thread(target=_feed, args=(proc.stdin, stdin), daemon=True)
    for t in (*readers, feeder):
        t.start()
    try:
        timed_out = not _exited_within(proc, limits.wall_s)
    finally:
        _kill_group(proc.pid)  # unshare dies, so PID 1 and with it every process of the run
        proc.wait()
        with _LIVE_LOCK:
            stopped = proc.pid in _STOPPED
            _LIVE.discard(proc.pid)
            _STOPPED.discard(proc.pid)
    status = _read_status(status_fd)
    for t in readers:
        t.join()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    wall = time.monotonic() - started
    if not (status or timed_out or overflow.is_set() or stopped):
        raise SandboxUnavailable(
            f"the sandbox could not start ({_tail(readers[1].data())}). Fix: this machine must "
            "allow user namespaces (sysctl kernel.unprivileged_userns_clone=1, "
            "user.max_user_namespaces > 0)"
        )
    if status.startswith("error"):
        raise SandboxUnavailable(f"the sandbox could not be set up: {status[6:]}. Fix: report this with --debug")
    code, sig = _code_and_signal(status, stopped)
    return _classify(code, sig, timed_out, overflow.is_set(), readers, limits, wall, cpu)


def _code_and_signal(status: str, stopped: bool) -> tuple[int | None, int | None]:
    kind, _, value = status.partition(" ")
    if kind == "exit":
        return int(value), None
    if kind == "signal":
        return None, int(value)
    return None, int(signal.SIGKILL) if stopped else None


def _tail(data: bytes) -> str:
    return " | ".join(data.decode("utf-8", "replace").strip().splitlines()[-3:]) or "no message"


def _classify(code, sig, timed_out, overflow, readers, limits, wall, cpu) -> SandboxResult:
    out, err = readers[0].data(), readers[1].data()
    status: Status
    detail = ""
    if overflow:
        status, detail = "output-limit", f"output exceeded {limits.output_bytes} bytes"
    elif timed_out:
        status, detail = "timeout", f"wall-clock limit of {limits.wall_s:g} s reached"
    elif sig == signal.SIGXCPU:
        status, detail = "timeout", f"CPU limit of {limits.cpu_s:g} s reached"
    elif code == 0:
        status = "ok"
    elif b"MemoryError" in err[-4096:] or b"bad_alloc" in err[-4096:]:
        status, detail = "memory", f"address-space limit of {limits.memory_mb} MiB reached"
    else:
        status = "crash"
    return SandboxResult(status, code, sig, out, err, wall, cpu, detail)


def run_python(
    program: Path,
    stdin: bytes = b"",
    limits: Limits = Limits(),
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
        _LAUNCHER,
        ["{cwd}/" + name, *args],
        stdin,
        limits,
        env=env,
        files={name: Path(program).read_bytes()},
        library=library,
    )
