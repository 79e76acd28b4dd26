"""PID 1 of one sandboxed run: build a private filesystem, start the program as its only child, report its status.

Run by ``execstate.sandbox`` under ``unshare --user --pid --net --mount --ipc
--uts --fork`` as ``python FLAGS _init.py CONFIG_JSON``; it is
trusted code and stdlib-only. For a Python entry script (the launcher, the
measuring probe) it is started by the program's own interpreter with the
program's flags and environment, and the forked child runs the script in
that interpreter (no second interpreter start-up); for any other program the
child executes ``argv``. In the fresh mount namespace it mounts a tmpfs
at ``root`` and bind-mounts into it, at their own paths, only the read-only
``readable`` paths (system libraries, the interpreter, execstate's child-side
scripts; an entry ``!PATH`` instead hides the directory PATH under an empty
read-only tmpfs) and the writable working directory; adds a private ``/proc`` and
``/dev/{null,zero,random,urandom}``; pivots into that root and detaches the
old one, so the home directory, the builder's tree and the spec tree do not
exist for the program. It then forks the program with its resource limits,
waits, writes ``exit N`` or ``signal N`` to the status descriptor and exits,
which kills every process left in the PID namespace.
"""

import ctypes
import json
import os
import resource
import sys

MS_RDONLY, MS_NOSUID, MS_NODEV, MS_NOEXEC = 0x1, 0x2, 0x4, 0x8
MS_REMOUNT, MS_BIND, MS_REC, MS_PRIVATE = 0x20, 0x1000, 0x4000, 0x40000
MNT_DETACH = 0x2
_PIVOT_ROOT = {"x86_64": 155, "aarch64": 41}
_DEVICES = ("null", "zero", "random", "urandom")

_libc = ctypes.CDLL(None, use_errno=True)


def _check(result, what):
    if result != 0:
        err = ctypes.get_errno()
        raise OSError(err, f"{what}: {os.strerror(err)}")


def _mount(source, target, fstype, flags, data=None):
    _check(
        _libc.mount(
            source.encode() if source else None,
            target.encode(),
            fstype.encode() if fstype else None,
            ctypes.c_ulong(flags),
            data.encode() if data else None,
        ),
        f"mount {source or fstype} on {target}",
    )


def _bind(source, target, writable, device=False):
    """Bind ``source`` at ``target`` (a directory or a file), read-only unless ``writable``."""
    if not writable and os.path.exists(target):
        return  # paths come sorted: it is already visible through a directory bound before it
    if os.path.isdir(source):
        os.makedirs(target, exist_ok=True)
    else:
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.exists(target):
            open(target, "wb").close()
    _mount(source, target, None, MS_BIND | MS_REC)
    flags = MS_REMOUNT | MS_BIND | MS_NOSUID | (0 if device else MS_NODEV) | (0 if writable else MS_RDONLY)
    _mount(None, target, None, flags)


def _place(root, path, writable=False):
    """Make host ``path`` appear at the same path under ``root`` (a symlink is copied as a symlink)."""
    target = root + path
    if os.path.islink(path):
        os.makedirs(os.path.dirname(target), exist_ok=True)
        if not os.path.lexists(target):
            os.symlink(os.readlink(path), target)
        return
    if os.path.exists(path):
        _bind(path, target, writable)


def build_root(cfg):
    root = cfg["root"]
    _mount(None, "/", None, MS_REC | MS_PRIVATE)
    _mount("tmpfs", root, "tmpfs", MS_NOSUID | MS_NODEV, "size=4m,mode=0755")
    for path in cfg["readable"]:
        if path.startswith("!"):  # hide a directory visible through an earlier bind
            if os.path.isdir(root + path[1:]):
                flags = MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC
                _mount("tmpfs", root + path[1:], "tmpfs", flags, "size=4k,mode=0755")
        else:
            _place(root, path)
    _place(root, cfg["cwd"], writable=True)
    os.makedirs(root + "/proc", exist_ok=True)
    _mount("proc", root + "/proc", "proc", MS_NOSUID | MS_NODEV)
    for name in _DEVICES:
        _bind("/dev/" + name, f"{root}/dev/{name}", writable=True, device=True)
    os.makedirs(root + "/.old", exist_ok=True)
    _check(_libc.syscall(_PIVOT_ROOT[os.uname().machine], root.encode(), (root + "/.old").encode()), "pivot_root")
    os.chdir("/")
    _check(_libc.umount2(b"/.old", MNT_DETACH), "umount old root")
    os.rmdir("/.old")
    _mount(None, "/", None, MS_REMOUNT | MS_RDONLY | MS_NOSUID | MS_NODEV)


def _limit(limits):
    for name, value in limits.items():
        resource.setrlimit(getattr(resource, name), (value[0], value[1]))


_EXECVEAT = {"x86_64": 322, "aarch64": 281}
_AT_EMPTY_PATH = 0x1000
_NOFILE = 1000


def confined_exec(cfg, program):
    """Install the seccomp ``program`` and exec ``argv`` through descriptor ``exec_fd`` (as the C init does).

    The filter allows only ``execveat(exec_fd, "", ..., AT_EMPTY_PATH)``; the
    descriptor is close-on-exec and RLIMIT_NOFILE drops below it, so the
    program can never make it again, hence never exec anything.
    """
    fd = os.open(cfg["argv"][0], os.O_PATH | os.O_CLOEXEC)
    os.dup2(fd, cfg["exec_fd"], inheritable=False)
    os.close(fd)
    resource.setrlimit(resource.RLIMIT_NOFILE, (_NOFILE, _NOFILE))

    class Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    code = ctypes.create_string_buffer(program, len(program))
    prog = Prog(len(program) // 8, ctypes.addressof(code))
    argv = (ctypes.c_char_p * (len(cfg["argv"]) + 1))(*[a.encode() for a in cfg["argv"]], None)
    env = [f"{k}={v}".encode() for k, v in cfg["env"].items()]
    envp = (ctypes.c_char_p * (len(env) + 1))(*env, None)
    _check(_libc.prctl(38, 1, 0, 0, 0), "no_new_privs")
    _check(_libc.prctl(22, 2, ctypes.byref(prog), 0, 0), "seccomp")
    number = _EXECVEAT[os.uname().machine]
    _check(_libc.syscall(number, cfg["exec_fd"], b"", argv, envp, _AT_EMPTY_PATH), "execveat")


def become_program(cfg, status_fd):
    """In the forked child: enter the working directory under the limits, then exec ``argv``.

    For a ``script`` run this returns, with ``sys.argv`` set as ``python SCRIPT
    ARGS`` would set it, and the caller runs the script in this interpreter.
    """
    try:
        os.close(status_fd)
        os.chdir(cfg["cwd"])
        _limit(cfg["limits"])
        if cfg.get("script"):
            sys.argv = [cfg["script"], *cfg["argv"]]
            return
        if cfg.get("filter"):
            confined_exec(cfg, bytes.fromhex(cfg["filter"]))
        else:
            os.execve(cfg["argv"][0], cfg["argv"], cfg["env"])
    except BaseException as exc:  # report anything; never continue as PID 1's code
        os.write(2, f"execstate sandbox: cannot start the program: {exc}\n".encode())
    os._exit(127)


def wait_for(child):
    """The child's wait status; other processes that die meanwhile (orphans) are reaped and ignored."""
    while True:
        pid, status = os.wait()
        if pid == child:
            return status


def main():
    """PID 1: set up, fork; the child becomes the program (a script runs after ``main`` returns)."""
    cfg = json.loads(sys.argv[1])
    status_fd = cfg["status_fd"]
    try:
        build_root(cfg)
        child = os.fork()
    except OSError as exc:
        os.write(status_fd, f"error {exc}\n".encode())
        os._exit(125)
    if child == 0:
        become_program(cfg, status_fd)
        return cfg["script"]
    status = wait_for(child)
    if os.WIFSIGNALED(status):
        os.write(status_fd, f"signal {os.WTERMSIG(status)}\n".encode())
    else:
        os.write(status_fd, f"exit {os.WEXITSTATUS(status)}\n".encode())
    os._exit(0)


def run_script(path):
    """Run ``path`` as ``python PATH`` would (as ``__main__``, its directory first on ``sys.path``)."""
    with open(path, "rb") as fh:
        code = compile(fh.read(), path, "exec")
    sys.path[0] = os.path.dirname(path)
    exec(code, {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})


if __name__ == "__main__":
    run_script(main())
