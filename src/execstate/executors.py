"""Where per-item work runs: threads or processes on this machine, or a Dask cluster.

``execstate build`` and ``execstate construct`` hand each case or problem to an
executor from ``open_executor``. ``"dask"`` connects to the scheduler a user
names (``distributed.Client(ADDRESS)``) and uses its ``concurrent.futures``
face, so the caller's code is the same for every kind; a user who outgrows one
machine starts a cluster and passes its address, nothing else changes.

A local process pool's workers die with the process that opened it, however it ends (a caller's
timeout sends SIGKILL, which no ``finally`` sees): each worker watches that process (``_die_with``) and,
when it is gone, kills its own descendants (a sandboxed run, a compiler) and itself. The pool's
forkserver and resource tracker then end by themselves, as their last client is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import select
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager
from typing import NoReturn

from execstate.errors import UsageError

EXECUTORS = ("local", "dask")


@contextmanager
def open_executor(kind: str, jobs: int, scheduler: str | None, *, processes: bool) -> Iterator[Executor]:
    """An executor of ``jobs`` local workers (``processes``: a forkserver process pool, else threads),
    or the Dask cluster at ``scheduler``; ``UsageError`` naming the fix when it cannot be had."""
    if kind == "dask":
        try:
            from distributed import Client
        except ImportError:
            raise UsageError(
                "--executor dask needs the distributed package. Fix: pip install 'execstate[dask]'"
            ) from None
        if not scheduler:
            raise UsageError("--executor dask needs a scheduler. Fix: pass --scheduler tcp://HOST:PORT")
        try:
            client = Client(scheduler, timeout=30)
        except OSError as exc:
            raise UsageError(f"cannot reach the Dask scheduler {scheduler} ({exc}). Fix: check the address") from None
        with client:
            yield client.get_executor(pure=False)
        return
    if kind != "local":
        raise UsageError(f"unknown executor {kind!r}. Fix: use one of {', '.join(EXECUTORS)}")
    if processes:
        pool: Executor = ProcessPoolExecutor(
            max_workers=max(1, jobs),
            mp_context=multiprocessing.get_context("forkserver"),
            initializer=_die_with,
            initargs=(os.getpid(),),
        )
    else:
        pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="execstate-case")
    with pool:
        yield pool


def _die_with(pid: int) -> None:
    """In a new worker: end it, and what it started, when the process ``pid`` (the pool's owner) ends.

    A worker is the forkserver's child, not its owner's, so a parent-death signal would watch the wrong
    process; a thread waits on a pidfd of the owner instead (Linux 5.3), else checks it every half second.
    """
    try:
        handle: int | None = os.pidfd_open(pid)
    except ProcessLookupError:  # the owner ended before this worker began
        _end_worker()
    except (AttributeError, OSError):  # no pidfd here (not Linux, an old kernel, seccomp)
        handle = None
    threading.Thread(target=_watch, args=(pid, handle), name="execstate-die-with-owner", daemon=True).start()


def _watch(pid: int, handle: int | None) -> None:
    if handle is not None:
        select.select([handle], [], [])  # readable once the process has ended
    else:
        while _alive(pid):
            time.sleep(0.5)  # a watchdog's interval, not a synchronization: nothing waits on it
    _end_worker()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # a process of another user now has the number: the owner is gone
        return False
    return True


def _end_worker() -> NoReturn:
    """SIGKILL this worker's descendants (twice: one may have forked meanwhile), then the worker."""
    for _ in range(2):
        for child in _descendants(os.getpid()):
            try:
                os.kill(child, signal.SIGKILL)
            except OSError:  # already gone
                pass
    os.kill(os.getpid(), signal.SIGKILL)
    os._exit(1)  # not reached: SIGKILL cannot be caught


def _descendants(pid: int) -> list[int]:
    """The processes below ``pid``, read from ``/proc`` (empty where there is none)."""
    children: dict[int, list[int]] = {}
    try:
        entries = [name for name in os.listdir("/proc") if name.isdecimal()]
    except OSError:
        return []
    for name in entries:
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:  # ended meanwhile
            continue
        ppid = int(stat[stat.rindex(b")") + 2 :].split()[1])
        children.setdefault(ppid, []).append(int(name))
    found, todo = [], [pid]
    while todo:
        below = children.get(todo.pop(), [])
        found += below
        todo += below
    return found
