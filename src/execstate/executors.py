"""Where per-item work runs: threads or processes on this machine, or a Dask cluster.

``execstate build`` and ``execstate construct`` hand each case or problem to an
executor from ``open_executor``. ``"dask"`` connects to the scheduler a user
names (``distributed.Client(ADDRESS)``) and uses its ``concurrent.futures``
face, so the caller's code is the same for every kind; a user who outgrows one
machine starts a cluster and passes its address, nothing else changes.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from contextlib import contextmanager

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
            max_workers=max(1, jobs), mp_context=multiprocessing.get_context("forkserver")
        )
    else:
        pool = ThreadPoolExecutor(max_workers=max(1, jobs), thread_name_prefix="execstate-case")
    with pool:
        yield pool
