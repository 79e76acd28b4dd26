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

from execstate.sandbox._env import library_env, scrubbed_env
from execstate.sandbox._errors import SandboxFault, SandboxUnavailable
from execstate.sandbox._limits import Limits
from execstate.sandbox._pid1 import EXEC_FD, native_init
from execstate.sandbox._reap import kill_all
from execstate.sandbox._result import SandboxResult, Status
from execstate.sandbox._root import SYSTEM_PATHS, site_directories
from execstate.sandbox._run import LAUNCHER, run, run_python, run_script
from execstate.sandbox._seccomp import SECCOMP_ENV, seccomp_filter
from execstate.sandbox._spawn import parent_death_prefix
from execstate.sandbox._workdir import program_directory

__all__ = [
    "EXEC_FD",
    "LAUNCHER",
    "SECCOMP_ENV",
    "SYSTEM_PATHS",
    "Limits",
    "SandboxFault",
    "SandboxResult",
    "SandboxUnavailable",
    "Status",
    "kill_all",
    "library_env",
    "native_init",
    "parent_death_prefix",
    "program_directory",
    "run",
    "run_python",
    "run_script",
    "scrubbed_env",
    "seccomp_filter",
    "site_directories",
]
