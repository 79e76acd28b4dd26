"""The figure helper: a second interpreter that draws report figures while the caller writes the rest.

Started by ``_figures.PendingFigures`` as ``python -m execstate.report._helper`` (a plain subprocess, so
the caller's ``__main__`` is never imported again, as multiprocessing's start methods would). It speaks
pickle over its standard streams, one message at a time, all of them made by execstate itself:

- it reads ``(out_dir, rc)`` first: where figures go and the caller's rc settings that differ from a
  fresh interpreter's;
- it then writes ``("ready",)`` and, after each figure, ``("done", i, FigureOut)`` or
  ``("failed", i, message)``; each of these asks for the next figure;
- it reads ``(i, data)`` (figure ``i`` of the caller's list and its data) or ``None`` (no more: exit).

It imports matplotlib and the drawing code only; a failure is reported for its figure, which the caller
then draws itself.
"""

from __future__ import annotations

import pickle
import sys
from typing import Any, BinaryIO


def serve(inp: BinaryIO, out: BinaryIO) -> None:
    from execstate.report._figures import draw_with_rc

    out_dir, rc = pickle.load(inp)

    def send(message: tuple[Any, ...]) -> None:
        pickle.dump(message, out, protocol=pickle.HIGHEST_PROTOCOL)
        out.flush()

    send(("ready",))
    while (job := pickle.load(inp)) is not None:
        i, data = job
        try:
            send(("done", i, draw_with_rc(data, out_dir, rc)))
        except Exception as exc:  # the caller draws this figure itself, and reports its error if it fails there
            send(("failed", i, f"{type(exc).__name__}: {exc}"))


if __name__ == "__main__":
    try:
        serve(sys.stdin.buffer, sys.stdout.buffer)
    except (EOFError, BrokenPipeError, KeyboardInterrupt):  # the caller finished or went away: nothing to do
        pass
