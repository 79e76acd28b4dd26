"""Fan construction out over problems: in this process, on a local process pool, or on a Dask cluster."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import TypeVar

from execstate.builder import open_executor
from execstate.errors import UsageError

Item = TypeVar("Item")
Result = TypeVar("Result")


def fan_out(
    func: Callable[[Item], Result],
    items: Sequence[Item],
    jobs: int,
    executor: str = "local",
    scheduler: str | None = None,
) -> Iterator[Result]:
    """``func`` applied to every item, yielded as each finishes (not in order).

    ``executor="local"`` with ``jobs <= 1`` runs in this process, in order; otherwise the items
    go to ``open_executor``'s pool (``jobs`` processes, or the Dask cluster at ``scheduler``),
    so ``func`` and the items must pickle (a module-level function). The caller restores the
    order it needs: results that depend on finishing order would not be reproducible.
    """
    if executor == "local" and jobs <= 1:
        for item in items:
            yield func(item)
        return
    with open_executor(executor, jobs, scheduler, processes=True) as pool:
        futures = [pool.submit(func, item) for item in items]
        finished = 0
        try:
            for future in as_completed(futures):
                yield future.result()
                finished += 1
        except BrokenProcessPool as exc:
            raise UsageError(
                f"a worker of the local process pool ({jobs} processes) stopped before it finished "
                f"({finished} of {len(futures)} items done; "
                "their results are kept). Each worker imports the calling script again, so a script that calls "
                "this at its top level runs again in every worker and breaks it; a worker killed for memory "
                'ends the same way. Fix: put the call under `if __name__ == "__main__":`, or pass jobs=1 '
                "(--jobs 1) to run in this process"
            ) from exc
