"""The viewer's true-trace probe: runs one program under ``sys.settrace`` and writes its steps as one JSON line.

Run only inside the sandbox (``execstate.view.true_trace`` starts it with ``execstate.sandbox.run_script``):
``python -s -B _trace_probe.py PROGRAM TOKEN KEEP MAX_EVENTS HIDDEN_PREFIX VARIABLES_JSON LOOP_LINE``, the
program's input on stdin. Standard library only. Each ``line`` event in the program's own code (compiled as
``main.py``) is one step: its number ``n``, the line about to run, the function it is in, and the projected
variables' values at that moment (the state after the previous event), each as ``repr`` cut to ``VALUE_CHARS``
characters; without projected variables, the frame's own names (up to ``MAX_NAMES``, none starting with
``HIDDEN_PREFIX``). The functions whose names start with ``HIDDEN_PREFIX`` (a checkpoint copy's inserted
helpers) and what they call (``HIDDEN_DEPTH`` frames down) are not traced. A step on ``LOOP_LINE`` (the
checkpoint loop's header, 0: none) carries ``iteration``, how many steps on that line came before it. The first
``KEEP // 2`` steps and the last ``KEEP // 2`` are kept (the run's start and its end, where a checkpoint is);
the run is stopped after ``MAX_EVENTS`` steps (``capped``). A call of ``os._exit`` (a state arm's checkpoint)
ends the run as ``checkpoint``. The program's own output is kept apart (its first ``OUTPUT_CHARS`` characters
are reported); the probe's JSON follows the line ``TOKEN`` on the stdout the probe started with (a copy of fd 1
taken before the program runs).
"""

import collections
import io
import json
import os
import sys

VALUE_CHARS = 200
MAX_NAMES = 12
OUTPUT_CHARS = 4000
HIDDEN_DEPTH = 8


class _Stop(BaseException):
    """Ends the program: the step cap or the checkpoint's ``os._exit``."""


def _show(value):
    try:
        text = repr(value)
    except Exception as exc:  # a value whose repr fails (or an int too long to write) is named, not shown
        text = f"<{type(value).__name__}: repr failed: {type(exc).__name__}>"
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 3] + "..."


def _names(frame, variables, hidden):
    scope = dict(frame.f_globals)
    scope.update(frame.f_locals)
    if variables:
        return {name: _show(scope[name]) for name in variables if name in scope}
    out = {}
    for name, value in frame.f_locals.items():
        if name.startswith("__") or name.startswith(hidden) or callable(value) or type(value).__name__ == "module":
            continue
        out[name] = _show(value)
        if len(out) >= MAX_NAMES:
            break
    return out


def main():
    path, token, keep, max_events, hidden = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
    variables, loop_line = json.loads(sys.argv[6]), int(sys.argv[7])
    with open(path, encoding="utf-8") as fh:
        source = fh.read()
    code = compile(source, "main.py", "exec")
    head: list = []
    tail: collections.deque = collections.deque(maxlen=keep - keep // 2)
    counts = {"events": 0, "iterations": 0}
    end = {"how": "exit"}
    real_stdout = sys.stdout
    report = os.fdopen(os.dup(1), "w", encoding="utf-8")  # a program may point fd 1 elsewhere (a checkpoint copy does)
    captured = io.StringIO()

    def trace(frame, event, arg):
        if frame.f_code.co_filename != "main.py":
            return None
        if event == "call" and hidden:  # the instrumentation's own functions (and what they call) are left out
            caller = frame
            for _ in range(HIDDEN_DEPTH):
                if caller is None:
                    break
                if caller.f_code.co_name.startswith(hidden):
                    return None
                caller = caller.f_back
        if event == "line":
            n = counts["events"]
            if n >= max_events:
                end["how"] = "capped"
                sys.settrace(None)
                raise _Stop
            counts["events"] = n + 1
            step = {
                "n": n,
                "line": frame.f_lineno,
                "fn": frame.f_code.co_name,
                "vars": _names(frame, variables, hidden),
            }
            if frame.f_lineno == loop_line:
                step["iteration"] = counts["iterations"]
                counts["iterations"] += 1
            (head if len(head) < keep // 2 else tail).append(step)
        return trace

    def checkpoint(status=0):
        end["how"] = "checkpoint"
        raise _Stop

    os._exit = checkpoint
    sys.stdout = captured
    sys.settrace(trace)
    try:
        exec(code, {"__name__": "__main__", "__file__": "main.py", "__builtins__": __builtins__})
    except _Stop:
        pass
    except SystemExit as exc:
        end["how"] = "exit" if exc.code in (None, 0) else f"exit {exc.code!r}"
    except BaseException as exc:  # the program's own fault is part of its trace
        end["how"] = f"crash: {type(exc).__name__}: {_show(exc)}"
    finally:
        sys.settrace(None)
        sys.stdout = real_stdout
    output = captured.getvalue()
    payload = {
        "steps": head + list(tail),
        "events": counts["events"],
        "end": end["how"],
        "output": output[:OUTPUT_CHARS],
        "output_chars": len(output),
    }
    report.write("\n" + token + "\n" + json.dumps(payload) + "\n")
    report.flush()


if __name__ == "__main__":
    main()
