"""Sandboxed worker of ``cruxeval-score --mode upstream``: runs CRUXEval's check programs one after another.

Never imported by execstate: ``execstate.sandbox.run_script`` runs this file
(stdlib only) inside the sandbox, with the batch as a JSON file argument
``{"timeout_s": 3.0, "checks": [[index, program], ...]}``. For each check it
does what CRUXEval's ``check_correctness`` does in its child process:

- disable the same functions (``exit``, ``quit``, ``help``, ``os.kill``,
  ``os.system``, file removal, ``subprocess.Popen``, ...), once, before any check;
- ``exec`` the program in a fresh, empty globals dict, with ``sys.stdout`` and
  ``sys.stderr`` sent to a write-only buffer and ``sys.stdin`` refusing reads;
- an interval timer of ``timeout_s`` raises a timeout inside the program;
  any exception (``SystemExit`` included) is a failure.

It writes one line per finished check, ``index<TAB>verdict`` (``passed``,
``timed out`` or ``failed: <message>``), to a private copy of its standard
output, flushed at once: whatever the program writes to descriptors 1 and 2
goes to ``/dev/null``. A check stuck in C code that the timer cannot
interrupt is ended by ``faulthandler`` one second later, which ends the whole
process; the caller then marks that check failed and runs the rest in a
fresh process. Built-ins and the recursion limit are restored after each
check, so a check cannot change the next one's world through them.

A check may also be a call (the ``python-call`` rule of input prediction):
``{"code": ..., "args": [literal text, ...], "kwargs": [[name, literal text], ...]}``.
Under the same guard and timer the worker executes ``code`` in a fresh globals
dict, reads each argument with ``ast.literal_eval`` (the caller checked they
are literals), calls ``f`` on them and answers ``returned <JSON string of
repr(value)>``; a ``repr`` longer than ``REPR_LIMIT`` characters fails. When
the check says ``"lambdas": true``, an argument that parses as a ``lambda``
expression is evaluated here (in ``f``'s namespace), the only model text this
worker evaluates outside a CRUXEval check program.
"""

import ast
import builtins
import contextlib
import faulthandler
import io
import json
import os
import shutil
import signal
import subprocess
import sys

REPR_LIMIT = 1_000_000


class CheckTimeout(Exception):
    pass


class _WriteOnly(io.StringIO):
    """CRUXEval's swallowed streams: writes are kept, any read raises ``OSError``."""

    def read(self, *args, **kwargs):
        raise OSError

    def readline(self, *args, **kwargs):
        raise OSError

    def readlines(self, *args, **kwargs):
        raise OSError

    def readable(self, *args, **kwargs):
        return False


_DISABLED = {
    builtins: ("exit", "quit", "help"),
    os: (
        *("kill", "system", "putenv", "remove", "removedirs", "rmdir", "fchdir", "setuid", "fork", "forkpty"),
        *("killpg", "rename", "renames", "truncate", "replace", "unlink", "fchmod", "fchown", "chmod", "chown"),
        *("chroot", "lchflags", "lchmod", "lchown", "getcwd", "chdir"),
    ),
    shutil: ("rmtree", "move", "chown"),
    subprocess: ("Popen",),
}


def _disable() -> None:
    faulthandler.disable()
    os.environ["OMP_NUM_THREADS"] = "1"
    for module, names in _DISABLED.items():
        for name in names:
            setattr(module, name, None)
    for name in ("ipdb", "joblib", "resource", "psutil", "tkinter"):
        sys.modules[name] = None  # type: ignore[assignment]


def _on_alarm(signum, frame):
    raise CheckTimeout("Timed out!")


def _run_program(program: str) -> str:
    exec(program, {})
    return "passed"


def _run_call(call: dict) -> str:
    namespace: dict = {}
    exec(call["code"], namespace)

    def value(text):
        if call.get("lambdas") and isinstance(ast.parse(text.strip(), mode="eval").body, ast.Lambda):
            return eval(text.strip(), namespace)  # inside the sandbox only; the caller parsed it as one lambda
        return ast.literal_eval(text)

    args = [value(text) for text in call["args"]]
    kwargs = {name: value(text) for name, text in call["kwargs"]}
    text = repr(namespace["f"](*args, **kwargs))
    if len(text) > REPR_LIMIT:
        return f"failed: the value's repr is longer than {REPR_LIMIT} characters"
    return "returned " + json.dumps(text)


def _check(check, timeout_s: float) -> str:
    work = _run_call if isinstance(check, dict) else _run_program
    stream = _WriteOnly()
    saved_builtins = dict(builtins.__dict__)
    limit = sys.getrecursionlimit()
    signal.signal(signal.SIGALRM, _on_alarm)
    try:
        with contextlib.redirect_stdout(stream), contextlib.redirect_stderr(stream):
            saved_stdin, sys.stdin = sys.stdin, stream
            try:
                signal.setitimer(signal.ITIMER_REAL, timeout_s)
                try:
                    verdict = work(check)
                finally:
                    signal.setitimer(signal.ITIMER_REAL, 0)
            finally:
                sys.stdin = saved_stdin
        return verdict
    except CheckTimeout:
        return "timed out"
    except BaseException as exc:  # as CRUXEval: anything raised, SystemExit included, fails the check
        return "failed: " + " ".join(f"{type(exc).__name__}: {exc}"[:200].split())
    finally:
        builtins.__dict__.clear()
        builtins.__dict__.update(saved_builtins)
        sys.setrecursionlimit(limit)


def main() -> None:
    with open(sys.argv[1], encoding="utf-8") as handle:
        batch = json.load(handle)
    timeout_s = float(batch["timeout_s"])
    out = os.dup(1)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, 1)
    os.dup2(null, 2)
    watchdog = open(null, "w", closefd=False)  # noqa: SIM115 - lives as long as the process
    _disable()
    for index, check in batch["checks"]:
        faulthandler.dump_traceback_later(timeout_s + 1.0, exit=True, file=watchdog)
        verdict = _check(check, timeout_s)
        faulthandler.cancel_dump_traceback_later()
        os.write(out, f"{index}\t{verdict}\n".encode("utf-8", "replace"))


if __name__ == "__main__":
    main()
