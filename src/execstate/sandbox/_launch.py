"""Child-side launcher: confine the process (seccomp filter, audit hook), then run one program as __main__.

Run as ``python -s -B _launch.py PROGRAM`` inside the sandbox. It is trusted
code and runs before the program's first line, so the program cannot avoid
the confinement. It must stay importable without the execstate package (the
child's sys.path does not contain it); the measuring probe imports it too.
"""

import os
import sys

SECCOMP_ENV = "EXECSTATE_SECCOMP_BPF"
_PR_SET_NO_NEW_PRIVS, _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER = 38, 22, 2

_FORBIDDEN = {
    "os.fork",
    "os.forkpty",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "subprocess.Popen",
    "os.startfile",
    "pty.spawn",
}


def _deny_processes(event, args):
    if event in _FORBIDDEN:
        raise PermissionError(f"execstate sandbox: creating processes is not allowed ({event})")


def _install_seccomp(program: bytes) -> None:
    """Load a classic-BPF seccomp program (exported by libseccomp in the parent) for this process and its threads."""
    import ctypes

    class _Prog(ctypes.Structure):
        _fields_ = [("len", ctypes.c_ushort), ("filter", ctypes.c_void_p)]

    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(program, len(program))
    prog = _Prog(len(program) // 8, ctypes.addressof(buf))
    if libc.prctl(_PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 or libc.prctl(
        _PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.byref(prog), 0, 0
    ):
        sys.stderr.write(f"execstate sandbox: cannot install the seccomp filter (errno {ctypes.get_errno()})\n")
        os._exit(126)


def confine() -> None:
    """Install the seccomp filter named by the environment (and drop it from there), and the audit hook."""
    bpf = os.environ.pop(SECCOMP_ENV, None)
    if bpf:
        _install_seccomp(bytes.fromhex(bpf))
    sys.addaudithook(_deny_processes)


def main() -> None:
    program = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path[0] = program.rsplit("/", 1)[0] or "."
    with open(program, "rb") as fh:
        code = compile(fh.read(), program, "exec")
    confine()
    namespace = {"__name__": "__main__", "__file__": program, "__builtins__": __builtins__}
    exec(code, namespace)


if __name__ == "__main__":
    main()
