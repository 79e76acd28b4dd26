"""Child-side launcher: forbid process creation, then run one program as __main__.

Run as ``python -s -B _launch.py PROGRAM``. It must stay importable without
the execstate package (the child's sys.path does not contain it).
"""

import sys

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


def main() -> None:
    program = sys.argv[1]
    sys.argv = sys.argv[1:]
    sys.path[0] = program.rsplit("/", 1)[0] or "."
    with open(program, "rb") as fh:
        code = compile(fh.read(), program, "exec")
    sys.addaudithook(_deny_processes)
    namespace = {"__name__": "__main__", "__file__": program, "__builtins__": __builtins__}
    exec(code, namespace)


if __name__ == "__main__":
    main()
