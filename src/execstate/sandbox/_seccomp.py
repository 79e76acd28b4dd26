"""The seccomp filter of sandboxed programs: no process creation, no exec, no sockets but AF_UNIX, no ptrace."""

from __future__ import annotations

import functools
import tempfile

SECCOMP_ENV = "EXECSTATE_SECCOMP_BPF"
"""Environment variable carrying the seccomp filter (hex BPF) that the launcher installs."""

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
