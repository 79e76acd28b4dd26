"""Run a Python program and report the set of line-to-line transitions it executed in its own file.

Run inside the sandbox as ``python -s -B _transitions.py PROGRAM OUT [COUNTS]``: the program runs as
``__main__`` with its output silenced; at the end the transitions (``[from, to]`` pairs of the
program's line numbers, ``0`` for entering or leaving a frame) go to the file ``OUT`` as JSON.
``execstate construct`` compares the sets of a short and a long input (branch-preserving pairs).
With ``COUNTS``, the number of line events of each of the program's lines (``[line, count]`` pairs, by
line) goes there too: how many times each line ran (the ``line-count`` arm's oracle).
Standard library only: it runs in the measured interpreter, whatever its version.
"""

import json
import os
import sys


def main():
    path, out = sys.argv[1], sys.argv[2]
    counts_out = sys.argv[3] if len(sys.argv) > 3 else None
    with open(path, encoding="utf-8") as fh:
        code = compile(fh.read(), path, "exec")
    seen = set()
    last: dict = {}
    counts: dict = {}

    def local(frame, event, arg):
        key = id(frame)
        if event == "line":
            counts[frame.f_lineno] = counts.get(frame.f_lineno, 0) + 1
            seen.add((last.get(key, 0), frame.f_lineno))
            last[key] = frame.f_lineno
        elif event == "return":
            seen.add((last.pop(key, 0), 0))
        return local

    def calls(frame, event, arg):
        return local if frame.f_code.co_filename == path else None

    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    sys.argv = [path]
    status = 0
    sys.settrace(calls)
    try:
        exec(code, {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 0
    finally:
        sys.settrace(None)
    with open(out, "w", encoding="utf-8") as fh:
        json.dump(sorted(seen), fh)
    if counts_out is not None:
        with open(counts_out, "w", encoding="utf-8") as fh:
            json.dump(sorted(counts.items()), fh)
    sys.stdout.flush()
    os._exit(status)


if __name__ == "__main__":
    main()
